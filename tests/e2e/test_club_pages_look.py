"""The laptop's pages as a browser shows them (headless chromium): nothing cut, one layout,
the explanation says what was played, the live dot on every page.

A real collector process over a SQLite store with an evening of two series: a five-table with
long names that begin alike ("Hans-Joachim Müller", "Hans-Joachim Meier"), a four-table and a
three-table, the players changing tables for series 2, and an earlier evening for the season.
Screenshots go to tests/artifacts/club/ (``look-*``).
"""

from __future__ import annotations

import random
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from device.sync import journal_entries
from tests.club_helpers import list_events, random_entries
from tests.e2e.sync_helpers import Collector

pytest.importorskip("selenium")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from tests.e2e.test_club_pages import Laptop, _login, _pdf_text, _shot, browser  # noqa: E402,F401

FIVE = ("Hans-Joachim Müller", "Hans-Joachim Meier", "Karl-Heinz Schulze", "Wolfgang Ludwig", "Ingrid Hoffmann")
FOUR = ("Anna Adler", "Bernd Bauer", "Carla Christ", "Dieter Dorn")
THREE = ("Erik Engel", "Frida Fuchs", "Gert Graf")
# series 2: everyone at another table (tables of four, four and four)
SERIES_2 = (("Hans-Joachim Müller", "Anna Adler", "Erik Engel", "Wolfgang Ludwig"),
            ("Hans-Joachim Meier", "Bernd Bauer", "Frida Fuchs", "Ingrid Hoffmann"),
            ("Karl-Heinz Schulze", "Carla Christ", "Dieter Dorn", "Gert Graf"))
DEVICES = (("pi-1", "Tisch 1"), ("pi-2", "Tisch 2"), ("pi-3", "Tisch 3"))


def _evening(store: Any, rng: random.Random, evening: str, seq: dict[str, int]) -> None:
    from ui.club.model import Evening

    store.set_document("evening", {"id": evening, "title": f"Abend {evening}"})
    for series, seatings in enumerate(((FIVE, FOUR, THREE), SERIES_2), start=1):
        for (device, _), players in zip(DEVICES, seatings):
            games = {5: 40, 4: 32, 3: 24}[len(players)]
            events = list_events(device, f"L-{device}-{evening}-{series}", players,
                                 random_entries(rng, len(players), games), seq=seq[device])
            seq[device] += len(events)
            store.store_batch(device, journal_entries(events), now=time.time())
        Evening(store).refresh()  # each list's series: the lists its table opened before, plus one


def _fill(db: Path) -> None:
    from drivers.club.store import SqliteCollectorStore

    store = SqliteCollectorStore(db)
    for device, name in DEVICES:
        store.ensure_device(device, name, now=time.time())
    rng = random.Random(22)
    seq = {device: 1 for device, _ in DEVICES}
    for evening in ("2026-11-19", "2026-11-26"):
        _evening(store, rng, evening, seq)
    store.set_document("roster", [{"name": n, "short": n, "publish": True} for n in (*FIVE, *FOUR, *THREE)])
    store.close()


@pytest.fixture(scope="module")
def laptop() -> Iterator[Laptop]:
    directory = Path(tempfile.mkdtemp(prefix="skattisch-look-"))
    db = directory / "club.sqlite3"
    _fill(db)
    collector = Collector(db)
    try:
        yield Laptop(collector.url, db, collector.process, {})
    finally:
        collector.stop()
        shutil.rmtree(directory, ignore_errors=True)


LIST_5 = "/liste/pi-1/L-pi-1-2026-11-26-1"  # tonight's series 1 at the five-table
SIZES = ((1920, 1080), (1280, 720))


def _size(browser: Any, size: tuple[int, int]) -> None:
    browser.set_window_rect(width=size[0], height=size[1])
    browser.execute_script("window.scrollTo(0, 0)")


def test_the_list_pdf_tells_players_with_the_same_start_apart(laptop: Laptop) -> None:
    text = _pdf_text(laptop.get(LIST_5 + "/pdf"))
    table = text.split("\n", 2)[2]  # below the line that names the players in full
    # before: every name cut after about 12 characters ("Hans-Joachi", "Hans-Joa"): no Müller, no Meier
    assert table.count("Müller") >= 10 and table.count("Meier") >= 10, table[:3000]
    for name in ("Schulze", "Ludwig", "Hoffmann"):
        assert table.count(name) >= 5, name


@pytest.mark.parametrize("size", SIZES, ids=["1920x1080", "1280x720"])
def test_the_season_chart_shows_every_label_whole(laptop: Laptop, browser: Any, size: tuple[int, int]) -> None:
    browser.get(laptop.url + "/saison")
    _size(browser, size)
    cut = browser.execute_script("""
        var svg = document.querySelector("svg.chart"), box = svg.getBoundingClientRect(), out = [];
        svg.querySelectorAll("text").forEach(function (t) {
          var r = t.getBoundingClientRect();
          if (r.right > box.right + 0.5 || r.bottom > box.bottom + 0.5 || r.top < box.top - 0.5) out.push(t.textContent);
        });
        return out;""")
    assert cut == []
    labels = browser.execute_script(
        "return Array.from(document.querySelectorAll('svg.chart text')).map(function (t) { return t.textContent; })")
    assert any(label.startswith("Hans-Joachim Müller ") for label in labels)
    _shot(browser, "look-saison", size)


@pytest.mark.parametrize("size", SIZES, ids=["1920x1080", "1280x720"])
def test_the_wertung_explains_what_was_played_and_where_each_sat(laptop: Laptop, browser: Any,
                                                                  size: tuple[int, int]) -> None:
    browser.get(laptop.url + "/wertung")
    _size(browser, size)
    formula = browser.find_element(By.ID, "formel").text
    assert "40 am Dreiertisch" in formula and "30 am Vierertisch" in formula and "24 am Fünfertisch" in formula
    rows = browser.find_elements(By.CSS_SELECTOR, "section.total table.ranking tbody tr")
    assert len(rows) == len(FIVE + FOUR + THREE)
    for row in rows:  # "Serie 1: 1 · Serie 2: 2", not "1, 2"
        where = row.find_elements(By.TAG_NAME, "td")[-1].text.split("\n")
        assert [w.split(":")[0] for w in where] == ["Serie 1", "Serie 2"], where
    widths = browser.execute_script(
        "return Array.from(document.querySelectorAll('#live section')).map(function (s) {"
        " var r = s.getBoundingClientRect(), t = s.querySelector('table').getBoundingClientRect();"
        " return [Math.round(r.width), Math.round(t.right - r.right)]; })")
    assert len(widths) == 3 and len({w for w, _ in widths}) == 1, widths  # Gesamt, Serie 1, Serie 2 alike
    assert all(over <= 1 for _, over in widths), widths  # no table wider than its column
    _shot(browser, "look-wertung", size)


def test_a_five_table_list_shows_its_leistung_line_at_1280x720(laptop: Laptop, browser: Any) -> None:
    browser.get(laptop.url + LIST_5)
    _size(browser, (1280, 720))
    box = browser.execute_script(
        "var r = document.querySelector('table.list tr.total').getBoundingClientRect();"
        "return [r.top, r.bottom, r.right, window.innerHeight, window.innerWidth];")
    top, bottom, right, height, width = box
    assert 0 <= top and bottom <= height and right <= width, box
    total = browser.find_element(By.CSS_SELECTOR, "table.list tr.total").text
    assert total.startswith("Leistung") and len(total.split()) >= 2 + len(FIVE)
    _shot(browser, "look-liste-five", (1280, 720))


def test_the_live_dot_is_green_on_every_page(laptop: Laptop, browser: Any) -> None:
    _login(browser, laptop)  # Nächste Serie is the organiser's
    for path in ("/abend", "/wertung", "/serie", "/spieler", "/saison", LIST_5):
        browser.get(laptop.url + path)
        WebDriverWait(browser, 10).until(
            lambda d: "on" in d.find_element(By.ID, "livedot").get_attribute("class").split(), path)
