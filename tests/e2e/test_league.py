"""The league end to end: a real league server process, three real club collectors (separate
processes, 127.0.0.1, real HTTP) with tables syncing to them, each club forwarding to the league
through a fault proxy (drops, duplicates, delays, a league restart). Every event arrives exactly
once, chains verified back to their tables; the rankings equal an independent computation."""

from __future__ import annotations

import datetime
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from device.sync import API, PROTOCOL_VERSION, batch_body, journal_entries, sign_request
from drivers.club.store import SqliteCollectorStore
from drivers.league.store import SqliteLeagueStore
from tests.club_helpers import NAMES, independent_figures, random_entries
from tests.e2e.fault_proxy import FaultProxy, Faults
from tests.e2e.league_helpers import KnownTable, League, Organiser
from tests.e2e.sync_helpers import Collector

CLUBS = ("SC Herz Dame", "Skatfreunde Nord", "Grand Hand 09")


class Setup:
    def __init__(self, league: League, proxy: FaultProxy, clubs: list[Collector], tables: dict[str, list[KnownTable]],
                 organiser: Organiser, today: str) -> None:
        self.league, self.proxy, self.clubs, self.tables, self.organiser, self.today = (
            league, proxy, clubs, tables, organiser, today)


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Setup]:
    base = tmp_path_factory.mktemp("league")
    league = League(base / "league.sqlite3")
    proxy = FaultProxy(league.port, seed=7, faults=None)
    proxy.start()
    organiser = Organiser(league.url)
    today = datetime.date.today().isoformat()
    organiser.post("/verwaltung", aktion="spieltag", datum=today, titel="1. Spieltag")
    clubs: list[Collector] = []
    tables: dict[str, list[KnownTable]] = {}
    rng = random.Random(18)
    try:
        for n, name in enumerate(CLUBS):
            collector = Collector(base / f"club{n}.sqlite3", extra=(
                "--league", f"http://127.0.0.1:{proxy.port}", "--league-code", league.code(name), "--name", name))
            clubs.append(collector)
            players = [tuple(NAMES[0:4]), tuple(NAMES[4:7])]  # the same names in every club: three clubs' Annas
            tables[name] = [KnownTable(base / f"club{n}-t{t}", collector, f"Tisch {t + 1}", players[t],
                                       random_entries(rng, len(players[t]), 12 + 6 * t)) for t in range(2)]
        yield Setup(league, proxy, clubs, tables, organiser, today)
    finally:
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
    every = [t for group in setup.tables.values() for t in group]
    while True:
        missing = {t.device: (_held(setup.league, t.device), len(t.entries)) for t in every
                   if _held(setup.league, t.device) < len(t.entries)}
        if not missing:
            return
        assert time.monotonic() < deadline, f"not at the league within {timeout} s: {missing}; proxy {setup.proxy.stats}"
        time.sleep(0.3)


def test_every_event_arrives_once_through_faults_and_a_league_restart(setup: Setup) -> None:
    setup.proxy.faults = Faults(drop_request=0.1, hold=0.03, duplicate=0.15, delay=0.2, drop_response=0.1,
                                duplicate_response=0.05, hold_seconds=2.5)
    every = [t for group in setup.tables.values() for t in group]
    for table in every:
        table.client.start()
    time.sleep(1.5)
    setup.league.kill()  # mid-evening: whatever was in flight is lost or stored, never half
    time.sleep(1.0)
    setup.league.start()
    _wait_all(setup, 90)
    store = SqliteLeagueStore(setup.league.db)
    try:
        for table in every:
            held = store.events.entries(table.device, table.list_id)
            assert [(e.prev, e.hash, e.event) for e in held] == [(e.prev, e.hash, e.event) for e in table.entries]
            assert store.events.held(table.device) == len(table.entries)
        owners = store.club_tables()
        names = {c.club: c.name for c in store.clubs()}
        assert {names[owners[t.device]] for t in setup.tables[CLUBS[0]]} == {CLUBS[0]}
        assert store.rejects() == []  # honest clubs: nothing kept aside, whatever the proxy did
    finally:
        store.close()
    assert setup.proxy.stats["dropped_request"] + setup.proxy.stats["dropped_response"] > 0
    assert setup.proxy.stats["duplicated_request"] > 0


def _independent(setup: Setup) -> tuple[dict[str, tuple[int, int, int, int]], dict[str, tuple[int, int, int, int]]]:
    players: dict[str, tuple[int, int, int, int]] = {}
    clubs: dict[str, list[int]] = {}
    for club, tables in setup.tables.items():
        for table in tables:
            for name, figures in independent_figures(table.players, table.games).items():
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
    import urllib.error
    import urllib.request
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
    assert PROTOCOL_VERSION == 1
