"""The guides' pictures, taken by a scripted run of the real programs, so they stay current.

    .venv/bin/python -m tests.docs_pictures              # all of them into docs/img/
    .venv/bin/python -m tests.docs_pictures --only tisch # the table's only (or: laptop)
    .venv/bin/python -m tests.docs_pictures --out DIR    # somewhere else (the test does this)

The table's pictures come from one ``skattisch run --simulate`` at 800×480 under a private Xvfb,
driven by a ``--script`` through the real screens (the same runner as the UI tests); the
laptop's from ``skattisch club serve`` on 127.0.0.1 with two tables' lists, in headless
chromium at 1280×720 (the same store and login as the pages' selenium tests). ``PICTURES`` is
the list of what this writes: the docs check (tests/unit/test_docs.py) holds the guides to it,
both ways. Needs what ``./dev.sh test`` installs (Xvfb, chromium, chromedriver).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "img"

#: Every picture this script writes (file name → what it shows), table first, then laptop.
PICTURES: dict[str, str] = {
    "tisch-einstellungen.png": "the settings: table number, reader, deck, laptop, shutdown",
    "tisch-anlernen.png": "the deck's teach-in: the card to lay next",
    "tisch-namen.png": "the setup: four players' names typed",
    "tisch-regeln.png": "the setup's rules page: length, profile, stake",
    "tisch-reizen.png": "the bidding: Mittelhand said 18, Vorhand answers",
    "tisch-ansage.png": "the declaration's first question: Hand or mit Skat",
    "tisch-karten.png": "the play screen: a trick on the table",
    "tisch-ergebnis.png": "the result: the entry in words, waiting for two confirmations",
    "tisch-eingeben.png": "the result entered directly: tricks and Augen typed",
    "tisch-liste.png": "the list, laid out like the paper list",
    "tisch-berichtigung.png": "a correction proposed, waiting for every player's consent",
    "tisch-ende.png": "the end of the series: ranking and settlement",
    "laptop-abend.png": "the evening page: one tile per table",
    "laptop-liste.png": "one table's list like the paper list",
    "laptop-wertung.png": "the evening's ranking",
    "laptop-serie.png": "the next series drawn, ready to release",
    "laptop-spieler.png": "the roster (organiser only)",
    "laptop-saison.png": "the season's ranking",
}

FOUR = ("Anna", "Bernd", "Carla", "Dieter")
# Kreuz won by Mittelhand (Carla) at a four-table: Anna deals and sits out (as tests/ui/test_games.py).
SUIT_HANDS = ("SA ST SK SQ S9 S8 HA HT HK HQ", "CJ SJ HJ DJ CA CT CK CQ C9 C8", "H9 H8 H7 DA DT DK DQ D9 D8 D7")


def table_steps() -> list[str]:
    """The settings and the deck's teach-in (the volunteer's), then one four-table's evening in
    short: every screen a player meets, a picture of each."""
    from drivers.deck import TEACH_ORDER
    from tests.ui.scenarios import cards_steps, direct_game, play_order

    order = play_order("clubs", list(SUIT_HANDS))
    steps = ["wait_screen setup", "tap settings", "wait_screen settings", "screenshot tisch-einstellungen",
             "tap deck_teach", *[f"scan {card.code}" for card in TEACH_ORDER[:2]],
             'expect_text "Bitte Herz Bube auflegen (3/32)"', "screenshot tisch-anlernen",
             *[f"scan {card.code}" for card in TEACH_ORDER[2:]], 'expect_text "Alle Karten angelernt"',
             "tap teach_done", "tap close_settings", "wait_screen setup"]
    for index, name in enumerate(FOUR):
        steps += [f"tap name_{index}", f'type "{name}"']
    steps += ["screenshot tisch-namen", "tap setup_next", "tap length_tournament", "tap stake_1",
              "screenshot tisch-regeln", "tap setup_next", "wait_screen game",
              "tap bid_18", 'expect_text "Mittelhand (Carla) sagt 18"', "screenshot tisch-reizen",
              "tap hold", "tap bid_20", "tap pass", "tap pass", "wait_screen declare", "screenshot tisch-ansage",
              "tap take_skat", "card C7", "card S7", "tap picker_done", "tap game_clubs", "tap declare",
              "wait_screen play", *cards_steps(order[:4]), "tap picker_done", 'expect_text "sticht: Carla"',
              "screenshot tisch-karten",
              *cards_steps(order[4:], via="scan"), "wait_screen result", "screenshot tisch-ergebnis",
              "tap confirm_2", "tap confirm_3"]
    quick = direct_game(1, len(FOUR), "diamonds", 7, 80, 1)
    typed = quick.index("tap enter_result")
    steps += [*quick[:typed], "screenshot tisch-eingeben", *quick[typed:]]
    steps += direct_game(2, len(FOUR), "hearts", 3, 40, 1) + direct_game(3, len(FOUR), "grand", 8, 90, 1)
    steps += ["wait_screen game", "tap list", "wait_screen list", "screenshot tisch-liste",
              "tap row_2", "tap correct_entry", "tap digit_clear", "tap digit_9", "tap digit_1", "tap tricks_8",
              "tap enter_result", "tap matadors_p1", "tap propose_1", 'expect_text "Berichtigung Spiel 2 (Bernd)"',
              "screenshot tisch-berichtigung", "tap withdraw_correction",
              "tap end_series", "tap end_series_yes", "wait_screen end", "screenshot tisch-ende"]
    return steps


def take_table(out: Path) -> list[Path]:
    from tests.ui.harness import run_table, xvfb_display

    with xvfb_display("docs_pictures") as display:
        with tempfile.TemporaryDirectory(prefix="skattisch-pictures-") as tmp:
            run = run_table(display, table_steps(), shots_dir=Path(tmp))
            if run.returncode != 0:
                raise SystemExit(f"docs_pictures: the table's script failed\n{run.stdout[-2000:]}\n{run.stderr[-2000:]}")
            return [_keep(Path(tmp) / name, out) for name in PICTURES if name.startswith("tisch-")]


def take_laptop(out: Path) -> list[Path]:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from tests.e2e.sync_helpers import Collector
    from tests.e2e.test_club_pages import _fill_store, _login

    with tempfile.TemporaryDirectory(prefix="skattisch-pictures-") as tmp:
        db = Path(tmp) / "club.sqlite3"
        _fill_store(db)
        collector = Collector(db)
        browser = _browser(Path(tmp) / "chromium")
        try:
            laptop: Any = type("Laptop", (), {"url": collector.url, "db": db})()
            _login(browser, laptop)  # the organiser's pages (Serie, Spieler) need the password
            browser.find_element(By.CSS_SELECTOR, "input[name=art][value=gesetzt]").click()
            browser.find_element(By.ID, "auslosen").click()
            WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.ID, "plan-2"))
            shots = [_page(browser, out, "laptop-serie.png")]
            for name, path in (("abend", "/abend"), ("liste", "/liste/pi-1/L-pi-1"), ("wertung", "/wertung"),
                               ("spieler", "/spieler"), ("saison", "/saison")):
                browser.get(collector.url + path)
                WebDriverWait(browser, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")
                shots.append(_page(browser, out, f"laptop-{name}.png"))
            return shots
        finally:
            browser.quit()
            collector.stop()


def _browser(profile: Path) -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--hide-scrollbars",
                 f"--user-data-dir={profile}", "--window-size=1280,720", "--lang=de-DE"):
        options.add_argument(flag)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    driver = webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"))
    driver.set_page_load_timeout(30)
    return driver


def _page(browser: Any, out: Path, name: str) -> Path:
    browser.execute_script("window.scrollTo(0, 0)")
    with tempfile.TemporaryDirectory(prefix="skattisch-shot-") as tmp:
        shot = Path(tmp) / name
        browser.save_screenshot(str(shot))
        return _keep(shot, out)


def _keep(shot: Path, out: Path) -> Path:
    """Copy a screenshot into ``out``, made small: PNG with the fewest bytes Pillow finds."""
    if not shot.exists():
        raise SystemExit(f"docs_pictures: {shot.name} was not taken")
    out.mkdir(parents=True, exist_ok=True)
    target = out / shot.name
    try:
        from PIL import Image
    except ImportError:
        shutil.copyfile(shot, target)
        return target
    with Image.open(shot) as image:
        image.convert("RGB").quantize(colors=256, dither=Image.Dither.NONE).save(target, optimize=True)
    return target


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.docs_pictures", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="folder for the PNG files (default: docs/img)")
    parser.add_argument("--only", choices=("tisch", "laptop"), help="only the table's or the laptop's pictures")
    args = parser.parse_args(argv)
    written: list[Path] = []
    if args.only in (None, "tisch"):
        written += take_table(args.out)
    if args.only in (None, "laptop"):
        written += take_laptop(args.out)
    for path in written:
        print(f"{path} ({path.stat().st_size // 1024} kB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
