"""The league's exports are the same bytes for the same data: ``skattisch league serve`` in its own
process over a store with three clubs' tables on one match day, ``/wertung.json`` (and its CSV)
read before and after a restart, at once (the kept summaries) and after the background has read
every list again: byte for byte equal (the clubs' ``tables`` lists in one order)."""

from __future__ import annotations

import datetime
import json
import random
import time
import urllib.request
from pathlib import Path

from device.sync import journal_entries
from drivers.league.store import ListMeta, SqliteLeagueStore
from tests.club_helpers import NAMES, list_events, random_entries
from tests.e2e.league_helpers import League
from ui.league.model import LeagueModel

CLUBS = ("SC Herz Dame", "Skatfreunde Nord", "Grand Hand 09")


def _fill(path: Path, today: str) -> None:
    """Three clubs, three tables each, forwarded interleaved (as clubs forward in parallel)."""
    store = SqliteLeagueStore(path)
    rng = random.Random(8)
    try:
        LeagueModel(store).add_matchday(today, "1. Spieltag")
        now = time.time()
        for n, name in enumerate(CLUBS):
            store.add_club_code(f"00000{n}", name, now + 600)
            store.pair_club(f"00000{n}", f"club-{n}", "ab" * 32, now=now)
        for table in (3, 1, 2):
            for n in (2, 0, 1):
                device = f"t{n}{table}"
                players = tuple(NAMES[(4 * n + table) % 12:(4 * n + table) % 12 + 4])
                entries = journal_entries(list_events(device, f"{device}-l1", players, random_entries(rng, 4, 4)))
                store.forward(f"club-{n}", device, f"Tisch {table}", entries, now=now,
                              metas={f"{device}-l1": ListMeta(f"club-{n}", f"{today}T19:00", 1, table)})
    finally:
        store.close()


def _read(league: League, path: str) -> bytes:
    with urllib.request.urlopen(league.url + path, timeout=20) as answer:
        data: bytes = answer.read()
        return data


def test_the_match_days_ranking_is_the_same_bytes_after_a_restart(tmp_path: Path) -> None:
    today = datetime.date.today().isoformat()
    _fill(tmp_path / "league.sqlite3", today)
    paths = (f"/wertung.json?tag={today}", f"/wertung.csv?tag={today}")
    league = League(tmp_path / "league.sqlite3")
    try:
        first = [_read(league, p) for p in paths]
        time.sleep(2.5)  # the background has read and scored every list (and kept the summaries)
        settled = [_read(league, p) for p in paths]
        league.stop()
        league.start()
        restarted = [_read(league, p) for p in paths]  # from the kept summaries, before the background
        time.sleep(2.5)
        later = [_read(league, p) for p in paths]
    finally:
        league.stop()
    clubs = json.loads(first[0])["clubs"]
    assert [line["tables"] for line in clubs] == [[1] * 4 + [2] * 4 + [3] * 4] * 3  # series, then table: a row a player
    assert first == settled == restarted == later
