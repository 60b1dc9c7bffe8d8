"""The league end to end: a real league server process, three real club collectors (separate
processes, 127.0.0.1, real HTTP) with tables syncing to them, each club forwarding to the league
through a fault proxy (drops, duplicates, delays, a league restart). Every event arrives exactly
once, chains verified back to their tables; the rankings equal an independent computation."""

from __future__ import annotations

import datetime
import json
import random
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from device.journal import JournalEntry
from device.sync import API, batch_body, journal_entries, sign_request
from drivers.club.app import new_pairing_code
from drivers.club.store import SqliteCollectorStore
from drivers.league.store import SqliteLeagueStore
from tests.club_helpers import NAMES, Entry, independent_figures, random_entries
from tests.e2e.club_table import RunningTable, running_table
from tests.e2e.fault_proxy import FaultProxy, Faults
from tests.e2e.league_helpers import KnownTable, League, Organiser
from tests.e2e.sync_helpers import Collector

CLUBS = ("SC Herz Dame", "Skatfreunde Nord", "Grand Hand 09")
REAL_PLAYERS = ("Rudi", "Sina", "Tom")


class Setup:
    def __init__(self, league: League, proxy: FaultProxy, clubs: list[Collector], tables: dict[str, list[KnownTable]],
                 organiser: Organiser, today: str, real: RunningTable) -> None:
        self.league, self.proxy, self.clubs, self.tables, self.organiser, self.today = (
            league, proxy, clubs, tables, organiser, today)
        self.real = real  # a real table process (service, store, sync client) at the first club

    def real_entries(self) -> list[JournalEntry]:
        """The real table's journal as its club holds it (each line as the table wrote it)."""
        store = SqliteCollectorStore(self.clubs[0].db)
        try:
            return [e for info in store.lists(self.real.device) for e in store.entries(self.real.device, info.list_id)]
        finally:
            store.close()


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Setup]:
    base = tmp_path_factory.mktemp("league")
    league = League(base / "league.sqlite3")
    proxy = FaultProxy(league.port, seed=7, faults=None)
    proxy.start()
    organiser = Organiser(league.url, league.db)
    today = datetime.date.today().isoformat()
    organiser.post("/verwaltung", aktion="spieltag", datum=today, titel="1. Spieltag")
    clubs: list[Collector] = []
    tables: dict[str, list[KnownTable]] = {}
    rng = random.Random(18)
    stack = ExitStack()
    try:
        for n, name in enumerate(CLUBS):
            collector = Collector(base / f"club{n}.sqlite3", extra=(
                "--league", f"http://127.0.0.1:{proxy.port}", "--league-code", league.code(name), "--name", name))
            clubs.append(collector)
            players = [tuple(NAMES[0:4]), tuple(NAMES[4:7])]  # the same names in every club: three clubs' Annas
            tables[name] = [KnownTable(base / f"club{n}-t{t}", collector, f"Tisch {t + 1}", players[t],
                                       random_entries(rng, len(players[t]), 12 + 6 * t)) for t in range(2)]
        club_store = SqliteCollectorStore(clubs[0].db)
        code = new_pairing_code(club_store, now=time.time())
        club_store.close()
        real = stack.enter_context(running_table(clubs[0].url, code, name="Tisch 3", players=REAL_PLAYERS, length=6))
        yield Setup(league, proxy, clubs, tables, organiser, today, real)
    finally:
        stack.close()
        for table in (t for group in tables.values() for t in group):
            table.client.close()
        for collector in clubs:
            collector.stop()
        proxy.close()
        league.stop()


def _held(league: League, device: str) -> int:
    store = SqliteCollectorStore(league.db)
    try:
        return store.held(device)
    finally:
        store.close()


def _wait_all(setup: Setup, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    every = [(t.device, len(t.entries)) for group in setup.tables.values() for t in group]
    every.append((setup.real.device, len(setup.real_entries())))
    while True:
        missing = {device: (_held(setup.league, device), count) for device, count in every
                   if _held(setup.league, device) < count}
        if not missing:
            return
        assert time.monotonic() < deadline, f"not at the league within {timeout} s: {missing}; proxy {setup.proxy.stats}"
        time.sleep(0.3)


def test_every_event_arrives_once_through_faults_and_a_league_restart(setup: Setup) -> None:
    setup.proxy.faults = Faults(drop_request=0.1, hold=0.03, duplicate=0.25, delay=0.2, drop_response=0.1,
                                duplicate_response=0.05, hold_seconds=2.5)
    every = [t for group in setup.tables.values() for t in group]
    later = setup.tables[CLUBS[2]]  # the third club's tables start while the league is away
    for table in every:
        if table not in later:
            table.client.start()
    assert setup.proxy.forwarded_batch.wait(30), "no club forwarded anything"
    setup.league.kill()  # mid-evening: whatever was in flight is lost or stored, never half
    for table in later:
        table.client.start()
    time.sleep(1.5)  # the third club holds its tables' lists and tries the league in vain
    assert sum(_held(setup.league, t.device) for t in later) == 0
    setup.league.start()
    assert setup.real("play 6")["acked"] > 0  # a real table plays its list to the end, then its players sign it
    setup.real("open-next")  # its players sign the list (the next series is not released: it stays closed)
    deadline = time.monotonic() + 20
    while (status := setup.real("status"))["acked"] < status["last_seq"]:  # the signatures reach the club
        assert time.monotonic() < deadline, status
        time.sleep(0.1)
    _wait_all(setup, 90)
    store = SqliteLeagueStore(setup.league.db)
    try:
        for table in every:
            held = store.events.entries(table.device, table.list_id)
            assert [(e.prev, e.hash, e.event) for e in held] == [(e.prev, e.hash, e.event) for e in table.entries]
            assert store.events.held(table.device) == len(table.entries)
        real = setup.real_entries()
        assert {e.event["type"] for e in real} >= {"list_confirmed", "list_closed", "game_recorded"}
        held = [e for info in store.events.lists(setup.real.device)
                for e in store.events.entries(setup.real.device, info.list_id)]
        assert held == real  # the table's own lines, confirmations with their heads, verified at the league
        owners = store.club_tables()
        names = {c.club: c.name for c in store.clubs()}
        assert {names[owners[t.device]] for t in setup.tables[CLUBS[0]]} == {CLUBS[0]}
        assert store.rejects() == []  # honest clubs: nothing kept aside, whatever the proxy did
    finally:
        store.close()
    stats = setup.proxy.stats
    assert stats["upstream_down"] > 0 and stats["duplicated_request"] > 0, stats  # the faults happened
    assert stats["dropped_request"] + stats["dropped_response"] + stats["held_reordered"] > 0, stats


def _recorded(entries: list[JournalEntry]) -> tuple[tuple[str, ...], list[Entry]]:
    """A list's players and games from the table's own records (its events: the game records)."""
    players: tuple[str, ...] = ()
    games: list[Entry] = []
    for entry in entries:
        event = entry.event
        if event["type"] == "list_opened":
            players = tuple(event["data"]["players"])
        elif event["type"] == "game_recorded":
            games.append(Entry(event["data"]["declarer_seat"], event["data"]["record"]))
        elif event["type"] == "passed_in":
            games.append(Entry(None, None))
    return players, games


def _independent(setup: Setup) -> tuple[dict[str, tuple[int, int, int, int]], dict[str, tuple[int, int, int, int]]]:
    players: dict[str, tuple[int, int, int, int]] = {}
    clubs: dict[str, list[int]] = {}
    lists = {club: [(t.players, t.games) for t in tables] for club, tables in setup.tables.items()}
    lists[CLUBS[0]].append(_recorded(setup.real_entries()))
    for club, played in lists.items():
        for seating, games in played:
            for name, figures in independent_figures(seating, games).items():
                players[f"{name} ({club})"] = figures
                sums = clubs.setdefault(club, [0, 0, 0, 0])
                for i, value in enumerate(figures):
                    sums[i] += value
    return players, {c: (s[0], s[1], s[2], s[3]) for c, s in clubs.items()}


def test_the_match_day_rankings_equal_an_independent_computation(setup: Setup) -> None:
    _wait_all(setup, 90)
    answer = setup.league.get_json(f"/wertung.json?tag={setup.today}")
    players, clubs = _independent(setup)
    got_players = {line["player"]: (line["leistung"], line["points"], line["won"], line["lost"]) for line in answer["players"]}
    got_clubs = {line["player"]: (line["leistung"], line["points"], line["won"], line["lost"]) for line in answer["clubs"]}
    assert got_players == players
    assert got_clubs == clubs
    leistung = [line["leistung"] for line in answer["players"]]
    assert leistung == sorted(leistung, reverse=True)
    assert [line["player"] for line in answer["clubs"]] == sorted(clubs, key=lambda c: -clubs[c][0])
    season = setup.league.get_json("/saison.json")
    assert {line["player"]: line["leistung"] for line in season["players"]} == {p: f[0] for p, f in players.items()}
    assert all(line["rank"] is not None for line in season["players"])
    setup.organiser.post("/verwaltung", aktion="regeln", mindestserien="2", streichwerte="1")  # as the league sets it
    season = setup.league.get_json("/saison.json")
    assert season["rules"] == {"minimum_series": 2, "dropped_worst": 1}
    assert all(line["rank"] is None for line in season["players"])  # one series each: none ranked yet
    status, page = setup.organiser.answer("/verwaltung", aktion="regeln", mindestserien="-1", streichwerte="0")
    assert status == 400 and "ganze Zahlen ab 0" in page
    setup.organiser.post("/verwaltung", aktion="regeln", mindestserien="0", streichwerte="0")


# --- refused and kept aside ---------------------------------------------------------------------


def _link(collector: Collector) -> dict[str, Any]:
    store = SqliteCollectorStore(collector.db)
    try:
        link: dict[str, Any] = store.document("league")
        return link
    finally:
        store.close()


def _forward(url: str, link: dict[str, Any], body: bytes, *, secret: str | None = None,
             nonce: str = "", headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
    import secrets

    signed = headers or sign_request(secret or link["secret"], link["club"], "POST", f"{API}/forward", body,
                                     now=time.time(), nonce=nonce or secrets.token_hex(16))
    request = urllib.request.Request(url + f"{API}/forward", data=body, method="POST",
                                     headers={"Content-Type": "application/json", **signed})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def _body(device: str, entries: list[Any]) -> bytes:
    data = json.loads(batch_body(device, entries))
    return json.dumps({**data, "name": "Tisch 9"}).encode()


def test_bad_forwards_are_refused_or_kept_aside_and_shown(setup: Setup) -> None:
    _wait_all(setup, 90)
    url = setup.league.url
    first, second = _link(setup.clubs[0]), _link(setup.clubs[1])
    theirs = setup.tables[CLUBS[0]][0]
    before = _held(setup.league, theirs.device)
    # a club forwarding a table of another club
    status, answer = _forward(url, second, _body(theirs.device, theirs.entries[:3]))
    assert (status, answer["error"]) == (403, "foreign_table")
    # a wrong secret; a replayed request
    status, answer = _forward(url, first, _body(theirs.device, []), secret="11" * 32)
    assert (status, answer["error"]) == (401, "bad_signature")
    body = _body(theirs.device, [])
    headers = sign_request(first["secret"], first["club"], "POST", f"{API}/forward", body, now=time.time(), nonce="ab" * 8)
    assert _forward(url, first, body, headers=headers)[0] == 200
    status, answer = _forward(url, first, body, headers=headers)
    assert (status, answer["error"]) == (401, "replayed")
    # a second copy of a list with other content (hashed anew, so its chain is whole)
    changed = [dict(e.event) for e in theirs.entries]
    changed[1] = {**changed[1], "data": {**changed[1]["data"], "dealer": 2}}
    status, answer = _forward(url, first, _body(theirs.device, journal_entries(changed)[:3]))
    assert (status, answer["error"]) == (409, "conflict")
    # a new table's list changed after its table hashed it: the chain does not verify
    rogue = [dict(e.event, device="rogue-table", list_id="rogue-l1") for e in theirs.entries[:4]]
    chain = journal_entries(rogue)
    chain[2].event["data"] = {**chain[2].event["data"], "number": 99}
    status, answer = _forward(url, first, _body("rogue-table", chain))
    assert (status, answer["error"]) == (422, "broken_chain")
    assert _held(setup.league, "rogue-table") == 0  # a refused batch: nothing of it stored
    # nothing overwritten
    assert _held(setup.league, theirs.device) == before
    store = SqliteLeagueStore(setup.league.db)
    try:
        assert [e.event for e in store.events.entries(theirs.device, theirs.list_id)] == [e.event for e in theirs.entries]
        codes = sorted(r.code for r in store.rejects())
    finally:
        store.close()
    assert codes == ["broken_chain", "conflict", "foreign_table"]
    page = setup.organiser.get("/verwaltung")
    for words in ("Kette bricht", "zweite Fassung", "Tisch eines anderen Vereins"):
        assert words in page


# --- the pages in a real browser ------------------------------------------------------------------

ARTIFACTS = Path(__file__).resolve().parents[2] / "tests" / "artifacts" / "league"


def _shot(browser: Any, name: str, size: tuple[int, int] = (1920, 1080)) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    browser.set_window_rect(width=size[0], height=size[1])
    browser.execute_script("window.scrollTo(0, 0)")
    browser.save_screenshot(str(ARTIFACTS / f"{name}-{size[0]}x{size[1]}.png"))


def test_the_pages_in_chromium_show_the_independent_ranking(setup: Setup) -> None:
    pytest.importorskip("selenium")
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from tests.e2e.test_club_pages import _pdf_text, body_once, browser as make_browser

    _wait_all(setup, 90)
    players, clubs = _independent(setup)
    url = setup.league.url
    for driver in make_browser.__wrapped__():  # type: ignore[attr-defined]  # the club page test's chromium
        driver.get(f"{url}/wertung?tag={setup.today}")
        rows = driver.find_elements(By.CSS_SELECTOR, "#einzel table.ranking tbody tr")
        shown = {}
        for row in rows:
            cells = [c.text for c in row.find_elements(By.TAG_NAME, "td")]
            shown[cells[1]] = (int(cells[2]), int(cells[3]), int(cells[4]), int(cells[5]))
        assert shown == players
        places = [int(r.find_element(By.TAG_NAME, "td").text.split()[0]) for r in rows]
        assert places == list(range(1, len(players) + 1))
        club_rows = driver.find_elements(By.CSS_SELECTOR, "#vereine table.ranking tbody tr")
        assert [r.find_elements(By.TAG_NAME, "td")[1].text for r in club_rows] == sorted(clubs, key=lambda c: -clubs[c][0])
        for size in ((1920, 1080), (1280, 720)):
            _shot(driver, "wertung", size)
        table = setup.tables[CLUBS[1]][0]
        pages = {"spieltag": ("/spieltag", "1. Spieltag"), "vereine": ("/vereine", CLUBS[2]),
                 "liste": (f"/liste/{table.device}/{table.list_id}", "Spielliste"), "saison": ("/saison", "Streichwert")}
        for name, (path, words) in pages.items():
            driver.get(url + path)
            assert words in driver.find_element(By.TAG_NAME, "body").text, name
            _shot(driver, name)
        driver.get(url + pages["liste"][0])
        driver.find_element(By.LINK_TEXT, "← " + CLUBS[1]).click()
        WebDriverWait(driver, 10).until(lambda d: "/verein/" in d.current_url)
        body_once(driver, table.players[0])
        _shot(driver, "verein")
        driver.get(url + "/verwaltung")  # the organiser's page: the password first
        assert "/anmelden" in driver.current_url
        driver.find_element(By.ID, "passwort").send_keys("liga-geheim")
        driver.find_element(By.ID, "anmelden").click()
        WebDriverWait(driver, 10).until(lambda d: d.current_url.endswith("/verwaltung"))
        body = body_once(driver, "Beiseitegelegt")
        assert all(c in body for c in CLUBS)
        _shot(driver, "verwaltung")
    with urllib.request.urlopen(f"{url}/wertung.pdf?tag={setup.today}", timeout=10) as answer:
        pdf = _pdf_text(answer.read())
    assert "Einzelwertung" in pdf and "Vereinswertung" in pdf and all(c in pdf for c in CLUBS)
    table = setup.tables[CLUBS[2]][1]
    public = setup.league.get_json(f"/liste/{table.device}/{table.list_id}/json")
    assert "entries" not in public and public["head"] == table.entries[-1].hash  # the journal: the organiser's
    lines = json.loads(setup.organiser.get(f"/liste/{table.device}/{table.list_id}/json"))["entries"]
    assert [(e["prev"], e["hash"], e["event"]) for e in lines] == [(e.prev, e.hash, e.event) for e in table.entries]
    with urllib.request.urlopen(f"{url}/spieltag.csv?tag={setup.today}", timeout=10) as answer:
        csv_text = answer.read().decode()
    assert csv_text.count("\n") == 1 + sum(len(t) for t in setup.tables.values()) + 1  # head, lists, the real table's


def test_a_club_pairs_on_its_organiser_page_and_forwards_without_a_restart(setup: Setup, tmp_path: Path) -> None:
    collector = Collector(tmp_path / "club.sqlite3", extra=("--name", "Kreuz Bube Süd"))
    try:
        club_organiser = Organiser(collector.url, collector.db, password="vereinsabend", start="/liga", command="club")
        assert "noch mit keiner Liga gekoppelt" in club_organiser.get("/liga")
        status, page = club_organiser.answer("/liga", url=setup.league.url, code="000000")
        assert status == 400 and "Koppeln mit der Liga fehlgeschlagen" in page and "not valid" in page
        assert "noch mit keiner Liga gekoppelt" in page
        page = club_organiser.post("/liga", url=setup.league.url, code=setup.league.code("Kreuz Bube Süd"))
        assert "Mit der Liga Bezirksliga Test gekoppelt" in page
        table = KnownTable(tmp_path / "t1", collector, "Tisch 1", tuple(NAMES[8:12]),
                           random_entries(random.Random(4), 4, 8))
        table.client.start()
        deadline = time.monotonic() + 30
        while _held(setup.league, table.device) < len(table.entries):
            assert time.monotonic() < deadline, "the club paired on its page does not forward"
            time.sleep(0.2)
        deadline = time.monotonic() + 15
        while not ("<td>erreichbar</td>" in (page := club_organiser.get("/liga")) and "vollständig" in page):
            assert time.monotonic() < deadline, page  # the club's cursor: what the league acknowledged
            time.sleep(0.2)
        assert "Tisch 1" in page
        clubs = {c["name"]: c for c in setup.league.get_json("/vereine.json")}
        assert clubs["Kreuz Bube Süd"]["lists"] == 1
        table.client.close()
        _club_liga_shot(collector.url)
        club_id = next(c["club"] for c in clubs.values() if c["name"] == "Kreuz Bube Süd")
        assert "Verein entkoppelt" in setup.organiser.post("/verwaltung", aktion="entkoppeln", verein=club_id)
        deadline = time.monotonic() + 30  # the club's next poll is refused: its organiser sees why
        while "Verein nicht mehr gekoppelt" not in (page := club_organiser.get("/liga")):
            assert time.monotonic() < deadline, page
            time.sleep(0.5)
    finally:
        collector.stop()


def _club_liga_shot(url: str) -> None:
    """The club laptop's Liga page in chromium, logged in as the club's organiser."""
    pytest.importorskip("selenium")
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from tests.e2e.test_club_pages import browser as make_browser

    for driver in make_browser.__wrapped__():  # type: ignore[attr-defined]
        driver.get(url + "/anmelden?weiter=/liga")
        driver.find_element(By.ID, "passwort").send_keys("vereinsabend")
        driver.find_element(By.ID, "anmelden").click()
        WebDriverWait(driver, 10).until(lambda d: d.current_url.endswith("/liga"))
        assert "vollständig" in driver.find_element(By.TAG_NAME, "body").text
        _shot(driver, "verein-liga")


def test_the_league_on_postgresql_takes_a_clubs_lists_and_ranks_them(pg_url: str, tmp_path: Path) -> None:
    from drivers.league.store import open_league_store

    league = League(pg_url)
    collector: Collector | None = None
    try:
        organiser = Organiser(league.url, league.db)
        today = datetime.date.today().isoformat()
        organiser.post("/verwaltung", aktion="spieltag", datum=today, titel="1. Spieltag")
        collector = Collector(tmp_path / "club.sqlite3", extra=(
            "--league", league.url, "--league-code", league.code("Pik As"), "--name", "Pik As"))
        table = KnownTable(tmp_path / "t1", collector, "Tisch 1", tuple(NAMES[:4]), random_entries(random.Random(5), 4, 10))
        table.client.start()
        store = open_league_store(pg_url)
        try:
            deadline = time.monotonic() + 30
            while store.events.held(table.device) < len(table.entries):
                assert time.monotonic() < deadline, "the league on PostgreSQL did not get the list"
                time.sleep(0.2)
            assert store.events.entries(table.device, table.list_id) == table.entries
        finally:
            store.close()
        table.client.close()
        expected = {f"{name} (Pik As)": figures[0]
                    for name, figures in independent_figures(table.players, table.games).items()}
        answer = league.get_json(f"/wertung.json?tag={today}")
        assert {line["player"]: line["leistung"] for line in answer["players"]} == expected
    finally:
        if collector is not None:
            collector.stop()
        league.stop()
