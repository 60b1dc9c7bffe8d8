"""The league's figures: one club's match day forwarded, and the ranking page over a season.

* **ingest**: a club's laptop (``skattisch club serve``, its own process) holds a match day of
  ``--tables`` tables × ``--games`` games with every card scanned (the tables' journals as a
  table records them, about 1,800 events a list); it is paired with the league server
  (``skattisch league serve``, its own process, SQLite) and started. The ingest is the time from
  the league taking the club's first forward (its tables' claims are stamped with the league's
  clock) to the league holding every event (verified chains, stored once): goal 2 s. Reported
  beside it, end to end: from the club process's start (its imports, its database opened, the
  forwarding begun while it starts listening) to the league's last ack, and the club's start-up
  until it listens. A club's laptop runs all evening; its start-up is not the league's ingest.
* **season**: the league's store loaded with ``--clubs`` × ``--days`` match days × ``--tables``
  tables × ``--games`` games (each list as its events, condensed: one event per game) through
  the store's own ``forward`` (the checks the server makes); then the match day's ranking page
  (``/wertung?tag=…``) over HTTP once the server has scored every list in the background (the
  time that takes is reported: in use, lists arrive a match day at a time): the first request, then the
  mean of ``--requests`` more (the page kept until the data change) and requests per second,
  then the first request after one more list arrived (as during a match day), and the first
  after the server's restart (that match day's kept summaries read back alone, none folded,
  while the background reads every list). The season page's first request, and apart the time
  its lines take to make from every list (the server's background does it once per change).
  Goals: the page within 1 s, 100 requests per second.

The full season is 50 clubs × 20 match days × 8 tables × 48 games (380,000 games) on
PostgreSQL (``--postgres``: a real server started for the run, tests/pg_server.py); SQLite by
default; the default size a tenth of it.

    .venv/bin/python -m tests.bench.bench_league                       # 10 clubs × 10 days × 8 tables × 48 games
    .venv/bin/python -m tests.bench.bench_league --clubs 50 --days 20  # the issue's size
    .venv/bin/python -m tests.bench.bench_league --postgres            # the league on PostgreSQL
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from device.sync import journal_entries
from drivers.club.store import SqliteCollectorStore
from drivers.league.store import LeagueStore, ListMeta, SqlLeagueStore, open_league_store
from drivers.league.forward import pair_with_league
from tests.bench.bench_sync import one_evening, table_events
from ui.league.model import LeagueModel
from tests.club_helpers import NAMES, list_events, random_entries
from tests.e2e.league_helpers import League, Organiser
from tests.e2e.sync_helpers import Collector

INGEST_GOAL = 2.0
PAGE_GOAL = 1.0
RATE_GOAL = 100.0


def measure_ingest(directory: Path, tables: int, games: int, target: str = "") -> dict[str, float]:
    """One club's match day from its laptop's start to the league's last ack (the league's store at
    ``target``: a postgresql:// URL, or a SQLite file in ``directory``)."""
    template = one_evening(games)
    club_db = directory / "club.sqlite3"
    club = SqliteCollectorStore(club_db)
    evenings = [table_events(template, table) for table in range(1, tables + 1)]
    for events in evenings:
        club.ensure_device(events[0]["device"], f"Tisch {events[0]['device'][-2:]}", now=time.time())
        entries = journal_entries(events)
        for start in range(0, len(entries), 500):
            club.store_batch(events[0]["device"], entries[start:start + 500], now=time.time())
    league = League(target or directory / "league.sqlite3")
    try:
        pair_with_league(club, league.url, league.code("Messverein"), name="Messverein")
        club.close()
        league_cpu = _cpu_seconds(league.process.pid) if league.process else 0.0
        began = time.perf_counter()
        collector = Collector(club_db)
        listening = time.perf_counter() - began
        try:
            league_store = open_league_store(league.db)
            try:
                while sum(t.held for t in league_store.events.tables()) < sum(len(e) for e in evenings):
                    time.sleep(0.01)  # one query a round: the league's database is not kept busy by the watching
                took, done = time.perf_counter() - began, time.time()
                league_cpu = (_cpu_seconds(league.process.pid) if league.process else 0.0) - league_cpu
                club_cpu = _cpu_seconds(collector.process.pid) if collector.process else 0.0
                first = _first_forward(league_store)
            finally:
                league_store.close()
        finally:
            collector.stop()
    finally:
        league.stop()
    return {"ingest_s": done - first, "ingest_end_to_end_s": took, "ingest_listening_s": listening,
            "ingest_events": float(sum(len(e) for e in evenings)), "ingest_league_cpu_s": league_cpu,
            "ingest_club_cpu_s": club_cpu}


def _cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) a process has used so far (Linux's /proc; 0 elsewhere): on a
    shared machine the time a figure costs, beside the time it took."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _first_forward(store: LeagueStore) -> float:
    """When the league took the club's first forward (its tables' claims are stamped with the league's clock)."""
    assert isinstance(store, SqlLeagueStore)
    return float(store._read().execute("SELECT MIN(since) FROM club_tables").fetchone()[0])


def fill_season(db: Path | str, clubs: int, days: int, tables: int, games: int) -> tuple[list[str], float]:
    """The league's store with a whole season, through ``forward``; the match days' dates."""
    store = open_league_store(db)
    rng = random.Random(18)
    first = datetime.date(2026, 9, 3)
    dates = [(first + datetime.timedelta(days=7 * d)).isoformat() for d in range(days)]
    store.events.set_document("matchdays", [{"date": d, "title": f"{n}. Spieltag"} for n, d in enumerate(dates, 1)])
    entries_per_table = [random_entries(rng, 4, games) for _ in range(7)]  # seven lists reused, each table its own ids
    began = time.perf_counter()
    for c in range(clubs):
        club = f"club-{c:03d}"
        store.add_club_code(f"{c:06d}", f"Verein {c + 1}", time.time() + 600)
        store.pair_club(f"{c:06d}", club, "ab" * 32, now=time.time())
        for t in range(tables):
            device = f"{club}-t{t + 1}"
            seq = 1
            players = tuple(NAMES[(t * 4 + i) % len(NAMES)] for i in range(4))
            for d, date in enumerate(dates):
                list_id = f"{device}-d{d + 1:03d}"  # fixed width: the events' ids (device, list, index) stay apart
                events = list_events(device, list_id, players, entries_per_table[(c + t + d) % 7], seq=seq)
                store.forward(club, device, f"Tisch {t + 1}", journal_entries(events), now=time.time())
                store.keep_list_meta(club, device, {list_id: ListMeta(club, date, 1, t + 1)})
                seq += len(events)
    took = time.perf_counter() - began
    store.close()
    return dates, took


def measure_season(directory: Path, clubs: int, days: int, tables: int, games: int, requests: int,
                   target: str = "") -> dict[str, float]:
    db: Path | str = target or directory / "season.sqlite3"
    dates, fill = fill_season(db, clubs, days, tables, games)
    league = League(db)
    try:
        began = time.perf_counter()
        Organiser(league.url, db)  # the organiser's password set: the pages as in use
        scored = _wait_scored(db, clubs * days * tables) - began  # the server scores in the background
        path = f"/wertung?tag={dates[-1]}"
        began = time.perf_counter()
        first = _get(league.url + path)
        cold = time.perf_counter() - began
        assert "Einzelwertung" in first
        times = []
        for _ in range(requests):
            began = time.perf_counter()
            _get(league.url + path)
            times.append(time.perf_counter() - began)
        began = time.perf_counter()
        assert "Vereinswertung" in _get(league.url + "/saison")
        season = time.perf_counter() - began
        changed = _one_more_list(db, dates[-1], games)  # a club forwards a list during the match day
        began = time.perf_counter()
        assert "Einzelwertung" in _get(league.url + path)
        after_change = time.perf_counter() - began
        assert changed
        league.stop()
        league.start()  # every list's summary is in the store: nothing is folded again
        began = time.perf_counter()
        _get(league.url + path)
        restarted = time.perf_counter() - began
    finally:
        league.stop()
    made = _season_made(db)
    return {"season_made_s": made, "fill_s": fill, "games": float(clubs * days * tables * games), "scored_s": scored, "page_cold_s": cold,
            "page_warm_s": statistics.mean(times), "page_rate": 1 / statistics.mean(times),
            "page_restart_s": restarted, "page_changed_s": after_change, "season_page_s": season}


def _one_more_list(db: Path | str, date: str, games: int) -> bool:
    """Another list of the first club on ``date``, forwarded through the store (as the server would)."""
    store = open_league_store(db)
    try:
        device = "club-000-t99"
        events = list_events(device, f"{device}-extra", tuple(NAMES[:4]), random_entries(random.Random(99), 4, games))
        result = store.forward("club-000", device, "Tisch 99", journal_entries(events), now=time.time())
        store.keep_list_meta("club-000", device, {f"{device}-extra": ListMeta("club-000", date, 2, 99)})
        return result.stored == len(events)
    finally:
        store.close()


def _season_made(db: Path | str) -> float:
    """How long the season's lines (players and clubs) take to make from every list: what the
    server's background does once after each change, so that the season page's request finds them."""
    store = open_league_store(db)
    try:
        model = LeagueModel(store)
        model.lists()
        began = time.perf_counter()
        model.season()
        return time.perf_counter() - began
    finally:
        store.close()


def _wait_scored(db: Path | str, lists: int) -> float:
    """When every list's summary is in the store (the server's background scoring done)."""
    store = open_league_store(db)
    try:
        while len(store.summaries()) < lists:
            time.sleep(0.05)
        return time.perf_counter()
    finally:
        store.close()


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=600) as answer:
        return str(answer.read().decode())


def report(figures: dict[str, Any]) -> str:
    lines = []
    if "ingest_s" in figures:
        lines.append(f"ingest: one club's match day ({figures['ingest_events']:.0f} events) at the league in "
                     f"{figures['ingest_s']:.2f} s = {figures['ingest_s'] / INGEST_GOAL:.2f} x goal ({INGEST_GOAL:.0f} s), "
                     f"from the league's first forward taken to its last ack; from the club process's start "
                     f"{figures['ingest_end_to_end_s']:.2f} s = {figures['ingest_end_to_end_s'] / INGEST_GOAL:.2f} x goal "
                     f"(the club listening after {figures['ingest_listening_s']:.2f} s); CPU used meanwhile: the league "
                     f"{figures['ingest_league_cpu_s']:.2f} s, the club {figures['ingest_club_cpu_s']:.2f} s "
                     "(its start-up included)")
    if "page_cold_s" in figures:
        lines.append(f"season: {figures['games']:.0f} games loaded in {figures['fill_s']:.1f} s "
                     f"({figures['games'] / figures['fill_s']:.0f} games/s through forward)")
        lines.append(f"every list folded and scored by the server in the background: {figures['scored_s']:.1f} s "
                     f"({figures['games'] / figures['scored_s']:.0f} games/s)")
        lines.append(f"ranking page: first {figures['page_cold_s']:.2f} s = {figures['page_cold_s'] / PAGE_GOAL:.2f} x goal; "
                     f"warm {figures['page_warm_s'] * 1000:.0f} ms = {figures['page_warm_s'] / PAGE_GOAL:.2f} x goal, "
                     f"{figures['page_rate']:.1f} requests/s = {RATE_GOAL / figures['page_rate']:.2f} x goal "
                     f"({RATE_GOAL:.0f}/s); after one more list arrived {figures['page_changed_s']:.2f} s = "
                     f"{figures['page_changed_s'] / PAGE_GOAL:.2f} x goal; after a restart {figures['page_restart_s']:.2f} s = "
                     f"{figures['page_restart_s'] / PAGE_GOAL:.2f} x goal")
        lines.append(f"season page (players and clubs over every match day), first request: "
                     f"{figures['season_page_s']:.2f} s = {figures['season_page_s'] / PAGE_GOAL:.2f} x goal "
                     f"(its lines made in the background after each change: {figures['season_made_s']:.2f} s)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else "")
    parser.add_argument("--clubs", type=int, default=10)
    parser.add_argument("--days", type=int, default=10)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--games", type=int, default=48)
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--figure", choices=("all", "ingest", "season"), default="all")
    parser.add_argument("--postgres", action="store_true", help="the league on a real PostgreSQL server (tests/pg_server)")
    args = parser.parse_args(argv)
    figures: dict[str, Any] = {}
    server: Any = None
    if args.postgres:
        from tests.pg_server import PostgresServer, missing_binaries

        if (why := missing_binaries()) is not None:
            print(why, file=sys.stderr)
            return 2
        server = PostgresServer(durable=True).start()  # fsync as in production, as SQLite's synchronous=FULL
    try:
        with tempfile.TemporaryDirectory(prefix="skattisch-league-bench-") as tmp:
            if args.figure in ("all", "ingest"):
                (Path(tmp) / "ingest").mkdir()
                figures.update(measure_ingest(Path(tmp) / "ingest", args.tables, args.games,
                                              server.new_database() if server else ""))
            if args.figure in ("all", "season"):
                figures.update(measure_season(Path(tmp), args.clubs, args.days, args.tables, args.games, args.requests,
                                              server.new_database() if server else ""))
    finally:
        if server is not None:
            server.stop()
    print(("PostgreSQL\n" if server else "SQLite\n") + report(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
