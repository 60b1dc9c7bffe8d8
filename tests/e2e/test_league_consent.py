"""The players' consent carried from the club to the league (real club and league processes).

The club's roster: Jürgen Meier (full name not published: "Jürgen"), Anna Adler (published),
Bernd Bauer (marked "in der Liga nicht veröffentlichen"); a guest. Jürgen sits on two lists
under two spellings ("Jürgen", "Jürgen Z."): one player of the league. No page, CSV, JSON or
PDF of the league names Jürgen's full name or Bernd; then Anna is erased at the club and the
league shows her as "Spieler N" from then on, while every list still verifies back to its table.
"""

from __future__ import annotations

import datetime
import json
import random
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from device.club.roster import Person, Roster
from device.journal import verify_chain
from drivers.club.store import open_store
from drivers.league.store import open_league_store
from tests.club_helpers import random_entries
from tests.e2e.league_helpers import KnownTable, League, Organiser
from tests.e2e.sync_helpers import Collector

CLUB = "SC Einwilligung"
JUERGEN = Person("Jürgen Meier", "Jürgen", publish=False, member="17", id="p-juergen")
ANNA = Person("Anna Adler", "Anna", member="4", id="p-anna")
BERND = Person("Bernd Bauer", "Bernd", member="23", id="p-bernd", league=False)
PUBLIC = ("/spieltag", "/spieltag.json", "/spieltag.csv", "/wertung", "/wertung.json", "/wertung.csv", "/wertung.pdf",
          "/saison", "/saison.json", "/saison.csv", "/saison.pdf", "/vereine.json")


class Setup:
    def __init__(self, league: League, collector: Collector, tables: list[KnownTable], today: str) -> None:
        self.league, self.collector, self.tables, self.today = league, collector, tables, today


def _set_roster(db: Path, people: list[Person]) -> None:
    store = open_store(db)
    try:
        store.set_document("roster", Roster(people).to_json())
    finally:
        store.close()


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Setup]:
    base = tmp_path_factory.mktemp("league-consent")
    league = League(base / "league.sqlite3")
    today = datetime.date.today().isoformat()
    Organiser(league.url, league.db).post("/verwaltung", aktion="spieltag", datum=today, titel="1. Spieltag")
    _set_roster(base / "club.sqlite3", [JUERGEN, ANNA, BERND])
    collector = Collector(base / "club.sqlite3", extra=("--league", league.url, "--league-code", league.code(CLUB),
                                                      "--name", CLUB))
    rng = random.Random(37)
    tables: list[KnownTable] = []
    try:
        tables.append(KnownTable(base / "t1", collector, "Tisch 1", ("Jürgen", "Anna", "Bernd"),
                                 random_entries(rng, 3, 9), members=(JUERGEN.id, ANNA.id, BERND.id)))
        tables.append(KnownTable(base / "t2", collector, "Tisch 2", ("Jürgen Z.", "Gustav Gast", "Anna"),
                                 random_entries(rng, 3, 9), members=(JUERGEN.id, "", ANNA.id)))
        for table in tables:
            table.client.start()
        yield Setup(league, collector, tables, today)
    finally:
        for table in tables:
            table.client.close()
        collector.stop()
        league.stop()


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return bytes(answer.read())


def _text(url: str) -> str:
    data = _get(url)
    if url.split("?")[0].endswith("pdf"):
        done = subprocess.run(["pdftotext", "-layout", "-", "-"], input=data, capture_output=True, check=True,
                              timeout=30)
        return done.stdout.decode()
    return data.decode("utf-8-sig")


def _public(setup: Setup) -> dict[str, str]:
    """Every public page and export of the match day, and each list's page, CSV, JSON and PDF."""
    out = {p: _text(f"{setup.league.url}{p}?tag={setup.today}") for p in PUBLIC}
    for table in setup.tables:
        for form in ("", "/csv", "/json", "/pdf"):
            path = f"/liste/{table.device}/{table.list_id}{form}"
            out[path] = _text(setup.league.url + path)
    club = json.loads(out["/vereine.json"])[0]["club"]
    out["/verein"] = _text(f"{setup.league.url}/verein/{club}") + _text(f"{setup.league.url}/verein/{club}/json")
    return out


def _wait(what: Any, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not what():
        assert time.monotonic() < deadline, f"not within {timeout} s"
        time.sleep(0.2)


def _league(setup: Setup) -> Any:
    return open_league_store(setup.league.db)


def _arrived(setup: Setup, names: dict[str, str | None]) -> bool:
    store = _league(setup)
    try:
        if any(store.events.held(t.device) < len(t.entries) for t in setup.tables):
            return False
        told = {member: name for (_, member), (_, name) in store.people().items()}
        return all(told.get(member, "?") == name for member, name in names.items())
    finally:
        store.close()


def _ranked(setup: Setup) -> list[str]:
    return [line["player"] for line in json.loads(_get(f"{setup.league.url}/wertung.json?tag={setup.today}"))["players"]]


def test_the_league_names_members_only_as_the_club_allows(setup: Setup) -> None:
    _wait(lambda: _arrived(setup, {JUERGEN.id: "Jürgen", ANNA.id: "Anna Adler", BERND.id: None}))
    _wait(lambda: len(_ranked(setup)) == 4)  # scored in the background
    ranked = _ranked(setup)
    assert sorted(ranked) == sorted([f"Jürgen ({CLUB})", f"Anna Adler ({CLUB})", f"Spieler 1 ({CLUB})",
                                     f"Gustav Gast ({CLUB})"])  # Jürgen once over both spellings
    season = [line["player"] for line in json.loads(_get(f"{setup.league.url}/saison.json"))["players"]]
    assert sorted(season) == sorted(ranked)
    day = json.loads(_get(f"{setup.league.url}/wertung.json?tag={setup.today}"))["players"]
    per_list = [r["leistung"] for t in setup.tables
                for r in json.loads(_get(f"{setup.league.url}/liste/{t.device}/{t.list_id}/json"))["results"]
                if r["player"] == "Jürgen"]
    assert len(per_list) == 2  # his two lists, typed two ways: one person
    assert next(x["leistung"] for x in day if x["player"] == f"Jürgen ({CLUB})") == sum(per_list)
    for path, text in _public(setup).items():
        assert "Meier" not in text and "Bernd" not in text and "Jürgen Z." not in text, path
    assert "Spieler 1" in _public(setup)[f"/liste/{setup.tables[0].device}/{setup.tables[0].list_id}"]


def test_an_erasure_at_the_club_reaches_the_league_and_the_lists_still_verify(setup: Setup) -> None:
    _wait(lambda: _arrived(setup, {ANNA.id: "Anna Adler"}))
    _set_roster(Path(setup.collector.db), [JUERGEN, BERND])  # Anna erased from the club's roster
    _wait(lambda: _arrived(setup, {ANNA.id: None}))
    _wait(lambda: f"Spieler 2 ({CLUB})" in _ranked(setup))
    for path, text in _public(setup).items():
        assert "Anna" not in text and "Adler" not in text, path
    store = _league(setup)
    try:
        for table in setup.tables:
            held = store.events.entries(table.device, table.list_id)
            assert len(held) == len(table.entries)
            assert verify_chain((e.prev, e.hash, e.event) for e in held) == table.entries[-1].hash
    finally:
        store.close()
