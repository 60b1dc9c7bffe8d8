"""The organiser's pages in a real browser (Debian's chromium + chromium-driver, headless).

A real collector process (``skattisch club serve`` on 127.0.0.1) over a SQLite store that
holds two tables' lists, a real table process that pairs and syncs over HTTP, and chromium
driven by selenium. Screenshots at 1920×1080 and 1280×720 go to tests/artifacts/club/.
"""

from __future__ import annotations

import base64
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from device.sync import journal_entries
from drivers.version import skattisch_version
from tests.club_helpers import NAMES, club_serving, independent_figures, list_events, random_entries
from tests.e2e.club_table import running_table
from tests.e2e.league_helpers import set_password

selenium = pytest.importorskip("selenium")
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402
from selenium.webdriver.support.expected_conditions import staleness_of  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts" / "club"
TABLE_1 = NAMES[0:4]
TABLE_2 = NAMES[4:7]
TABLE_3 = ("Rudi", "Sina", "Tom", "Ute")
SIZES = ((1920, 1080), (1280, 720))


class Laptop:
    def __init__(self, url: str, db: Path, process: subprocess.Popen[str], lists: dict[str, Any]) -> None:
        self.url = url
        self.db = db
        self.process = process
        self.lists = lists

    def get(self, path: str) -> bytes:
        with urllib.request.urlopen(self.url + path, timeout=10) as response:
            data: bytes = response.read()
            return data


def body_once(driver: Any, words: str, timeout: float = 10) -> str:
    """The page's text once it holds ``words``: after a click that loads a page (a form posted,
    a link followed) the old page's body can go stale while the new one loads."""
    text = ""

    def holds(d: Any) -> bool:
        nonlocal text
        text = d.find_element(By.TAG_NAME, "body").text
        return words in text
    WebDriverWait(driver, timeout, ignored_exceptions=(StaleElementReferenceException,)).until(holds)
    return text


def _fill_store(db: Path) -> dict[str, Any]:
    """Two earlier evenings for the season, then tonight's lists of tables 1 and 2."""
    from drivers.club.store import SqliteCollectorStore
    from ui.club.model import Evening

    store = SqliteCollectorStore(db)
    rng = random.Random(10)
    lists: dict[str, Any] = {}
    seq = {"pi-1": 1, "pi-2": 1}
    tables = (("pi-1", "Tisch 1", TABLE_1, 48), ("pi-2", "Tisch 2", TABLE_2, 12))
    for device, name, _, _ in tables:
        store.ensure_device(device, name, now=time.time())
    for past in ("2026-11-09", "2026-11-16"):
        store.set_document("evening", {"id": past, "title": f"Abend {past}"})
        for device, _, players, games in tables:
            events = list_events(device, f"L-{device}-{past}", players, random_entries(rng, len(players), games),
                                 seq=seq[device])
            seq[device] += len(events)
            store.store_batch(device, journal_entries(events), now=time.time())
        Evening(store).refresh()
    store.set_document("evening", None)  # tonight: a new evening (today's date)
    for device, _, players, games in tables:
        entries = random_entries(rng, len(players), games)
        events = list_events(device, f"L-{device}", players, entries, seq=seq[device])
        store.store_batch(device, journal_entries(events), now=time.time(), app_version=skattisch_version())  # as tables do
        lists[device] = (players, entries)
    store.set_document("roster", [{"name": n, "short": n, "publish": True} for n in (*TABLE_1, *TABLE_2, *TABLE_3)])
    store.close()
    return lists


@pytest.fixture(scope="module")
def laptop() -> Iterator[Laptop]:
    directory = Path(tempfile.mkdtemp(prefix="skattisch-club-"))
    db = directory / "club.sqlite3"
    lists = _fill_store(db)
    try:
        with club_serving(db) as (url, process):
            yield Laptop(url, db, process, lists)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    options = webdriver.ChromeOptions()
    profile = tempfile.mkdtemp(prefix="skattisch-chromium-")
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-quic", "--disable-dev-shm-usage",
                 f"--user-data-dir={profile}", "--window-size=1920,1080", "--lang=de-DE"):
        options.add_argument(flag)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    driver = webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"))
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def _shot(browser: Any, name: str, size: tuple[int, int]) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    browser.set_window_rect(width=size[0], height=size[1])
    browser.execute_script("window.scrollTo(0, 0)")
    path = ARTIFACTS / f"{name}-{size[0]}x{size[1]}.png"
    browser.save_screenshot(str(path))
    return path


def _gone(element: Any) -> Any:
    """Selenium's ``staleness_of``, also when chromium answers a node detached during the
    navigation with "does not belong to the document" instead of a stale-element error."""
    stale = staleness_of(element)

    def check(driver: Any) -> bool:
        try:
            return bool(stale(driver))
        except WebDriverException as problem:
            if "does not belong to the document" in str(problem):
                return True
            raise
    return check


def _submit(browser: Any, button: Any) -> None:
    """Click a button that posts a form and wait until the answer has replaced the page: the
    old page may carry the same notice ids (#hinweis, #fehler) as the new one."""
    old = browser.find_element(By.TAG_NAME, "html")
    button.click()
    WebDriverWait(browser, 10).until(_gone(old))
    WebDriverWait(browser, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")


def _login(browser: Any, laptop: Laptop) -> None:
    browser.get(laptop.url + "/anmelden?weiter=/serie")
    if not browser.find_elements(By.ID, "passwort"):  # none set yet: on the laptop's console, as the page says
        assert "skattisch club password" in browser.page_source
        set_password("club", laptop.db, "vereinsabend")
        browser.refresh()
    browser.find_element(By.ID, "passwort").send_keys("vereinsabend")
    browser.find_element(By.ID, "anmelden").click()
    WebDriverWait(browser, 10).until(lambda d: d.current_url.endswith("/serie"))


def _pdf_text(pdf: bytes) -> str:
    with tempfile.NamedTemporaryFile(suffix=".pdf") as handle:
        handle.write(pdf)
        handle.flush()
        return subprocess.run(["pdftotext", "-layout", handle.name, "-"], capture_output=True, text=True,
                              check=True).stdout


def _expected_total(laptop: Laptop) -> dict[str, tuple[int, int, int, int]]:
    total: dict[str, tuple[int, int, int, int]] = {}
    for players, entries in laptop.lists.values():
        total.update(independent_figures(players, entries))
    return total


# --------------------------------------------------------------------------- the tests


def test_read_only_pages_load_and_are_screenshotted(laptop: Laptop, browser: Any) -> None:
    pages = {"abend": ("/abend", "Tisch 1"), "liste": ("/liste/pi-1/L-pi-1", "Spielliste · Serie 1 · Tisch 1"),
             "wertung": ("/wertung", "Gesamt"), "saison": ("/saison", "Verlauf"),
             "spieler-gesperrt": ("/spieler", "Passwort")}  # the members' names: the organiser's login first
    for name, (path, text) in pages.items():
        browser.get(laptop.url + path)
        assert text in browser.find_element(By.TAG_NAME, "body").text, name
        for size in SIZES:
            _shot(browser, name, size)
    browser.get(laptop.url + "/abend")
    tile = browser.find_element(By.ID, "tile-2")
    assert "Spiel 12/12" in tile.text and all(p in tile.text for p in TABLE_2)
    tile.click()
    WebDriverWait(browser, 10).until(lambda d: "/liste/pi-2/" in d.current_url)


def test_the_ranking_matches_an_independent_computation(laptop: Laptop, browser: Any) -> None:
    browser.get(laptop.url + "/wertung")
    rows = browser.find_elements(By.CSS_SELECTOR, "section.total table.ranking tbody tr")
    shown = []
    for row in rows:
        cells = [c.text for c in row.find_elements(By.TAG_NAME, "td")]
        shown.append((int(cells[0].split()[0]), cells[1], int(cells[2]), int(cells[3]), int(cells[4]), int(cells[5])))
    expected = _expected_total(laptop)
    assert {name: (lei, pts, w, lost) for _, name, lei, pts, w, lost in shown} == expected
    assert [r[0] for r in shown] == list(range(1, len(expected) + 1))
    merits = [(lei, w, -lost) for _, _, lei, _, w, lost in shown]
    assert merits == sorted(merits, reverse=True)  # SkWO 5.1 order; equal merits decided by lot
    csv_text = laptop.get("/wertung.csv").decode("utf-8-sig")
    assert all(name in csv_text for name in expected)
    pdf = _pdf_text(laptop.get("/wertung.pdf"))
    assert all(name in pdf for name in expected) and "Serie 1" in pdf


def test_print_view_and_pdf_carry_every_entry(laptop: Laptop, browser: Any) -> None:
    players, entries = laptop.lists["pi-1"]
    pdf_text = _pdf_text(laptop.get("/liste/pi-1/L-pi-1/pdf"))
    browser.get(laptop.url + "/liste/pi-1/L-pi-1/druck")
    printed = _pdf_text(base64.b64decode(browser.print_page()))
    for size in SIZES:
        _shot(browser, "liste-druck", size)
    from device.record import score_record

    for text in (pdf_text, printed):
        lines = text.splitlines()
        for number, entry in enumerate(entries, start=1):
            value = "" if entry.record is None else f"{score_record(entry.record).result.score:+d}"
            marker = "eingepasst" if entry.record is None else value
            assert any(re.match(rf"\s*{number}\s", line) and marker in line for line in lines), (number, marker)
        assert "Unterschrift" in text or "Leistung" in text
        for name in players:
            assert name.split()[0] in text
    totals = independent_figures(players, entries)
    assert all(str(totals[p][0]) in pdf_text for p in players)


def _pairing_code(laptop: Laptop) -> str:
    out = subprocess.run([sys.executable, "-m", "ui.cli", "club", "pair", "--db", str(laptop.db), "--json"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    return str(json.loads(out)["code"])


@pytest.fixture(scope="module")
def table(laptop: Laptop) -> Iterator[Any]:
    with running_table(laptop.url, _pairing_code(laptop), name="Tisch 3", players=TABLE_3, length=12) as running:
        yield running


def test_the_evening_page_updates_without_reload_when_a_table_syncs(laptop: Laptop, browser: Any, table: Any) -> None:
    browser.set_window_rect(width=1920, height=1080)
    browser.get(laptop.url + "/abend")
    browser.execute_script("window.notReloaded = 42")
    WebDriverWait(browser, 10).until(lambda d: "on" in d.find_element(By.ID, "livedot").get_attribute("class"))
    acked = table("play 3")
    assert acked["acked"] == acked["last_seq"]
    WebDriverWait(browser, 20).until(lambda d: "Spiel 3/12" in d.find_element(By.ID, "tile-3").text)
    assert browser.execute_script("return window.notReloaded") == 42
    assert browser.execute_script("return window.skattischUpdates") >= 1
    tile = browser.find_element(By.ID, "tile-3").text
    assert all(p in tile for p in TABLE_3) and "synchron" in tile
    for size in SIZES:
        _shot(browser, "abend-live", size)


def test_the_next_series_reaches_the_table_and_opens_its_list(laptop: Laptop, browser: Any, table: Any) -> None:
    browser.get(laptop.url + "/serie")
    assert "/anmelden" in browser.current_url  # organiser actions need the password
    _login(browser, laptop)
    area = browser.find_element(By.ID, "spieler")
    order = area.get_attribute("value").splitlines()
    assert set(order) == {*TABLE_1, *TABLE_2, *TABLE_3}  # the evening's standings, best first
    browser.find_element(By.CSS_SELECTOR, "input[name=art][value=gesetzt]").click()
    browser.find_element(By.ID, "auslosen").click()
    WebDriverWait(browser, 10).until(lambda d: d.find_elements(By.ID, "plan-3"))
    plan3 = browser.find_element(By.ID, "plan-3").text
    assert plan3.startswith("Serie 2 · Tisch 3: ") and "(Platz 1)" in plan3
    seated = [browser.find_element(By.ID, f"plan-{t}").text.split(": ", 1)[1].replace(" (Platz 1)", "").split(", ")
              for t in (1, 2, 3)]
    assert sorted(len(s) for s in seated) == [3, 4, 4] and sorted(sum(seated, [])) == sorted(order)
    assert order[0] in seated[0] and order[1] in seated[1] and order[2] in seated[2]  # the snake: 1, 2, 3 …
    for size in SIZES:
        _shot(browser, "serie", size)
    browser.find_element(By.ID, "freigeben").click()
    body_once(browser, "freigegeben")
    deadline = time.monotonic() + 20
    offer = None
    while time.monotonic() < deadline and not offer:
        offer = table("status")["next_series"]
        time.sleep(0.2)
    assert offer is not None, "the table's ack never carried the next series"
    assert offer["series"] == 2 and offer["table"] == 3 and offer["players"] == seated[2], (offer, seated)
    assert offer["text"] == plan3
    finished = table("play 12")
    assert finished["acked"] == finished["last_seq"]
    opened = table("open-next")  # the table showed the laptop's words; one tap opens the list
    assert opened["shown"] == plan3 and opened["players"] == seated[2] and not opened["refused"]
