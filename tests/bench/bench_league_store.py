"""Benchmark: one club's match day ingested by the collector's store, PostgreSQL against SQLite.

    .venv/bin/python -m tests.bench.bench_league_store                 # 8 tables × 48 games, median of 3
    .venv/bin/python -m tests.bench.bench_league_store --tables 2 --games 2 --reps 1
    .venv/bin/python -m tests.bench.bench_league_store --url postgresql://…   # an existing, empty server

A match day: 8 four-tables, each one list of 48 games with every card scanned (about 1,800
events per table, recorded once through the table service, then given each table its own
device id and event ids; ``bench_sync``'s template). The store takes them as the collector
does per sync request: the request's nonce (``use_nonce``), then the batch (``store_batch``;
50 entries, the tables' default, and 500, a laptop forwarding what it holds), the tables'
batches interleaved as they would arrive. Each
repetition goes into a fresh database; measured is the wall time of the ingest, nothing of
the set-up. Afterwards each table's events are read back and compared with what was sent.

PostgreSQL: a server of this benchmark's own (``initdb``, ``pg_ctl``; tests/pg_server.py) with
``fsync`` on as in production, over TCP on 127.0.0.1; SQLite: WAL, ``synchronous=FULL``, as
the laptop runs it. Both on the same disk in the same run: the ratio is the point. Goal:
one club's match day into PostgreSQL within 2 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.journal import JournalEntry
from device.sync import journal_entries
from drivers.club.store import open_store
from tests.bench.bench_sync import one_evening, table_events

BATCH = 50
GOAL_S = 2.0


@dataclass(frozen=True, slots=True)
class Figures:
    tables: int
    games: int
    events: int
    batches: int
    batch: int
    sqlite_s: float
    postgres_s: float

    @property
    def ratio(self) -> float:
        return self.postgres_s / self.sqlite_s


def match_day(tables: int, games: int) -> list[list[JournalEntry]]:
    """Each table's journal entries (its own device, ids and chain)."""
    template = one_evening(games)
    return [journal_entries(table_events(template, table)) for table in range(1, tables + 1)]


def arrivals(journals: list[list[JournalEntry]], batch: int = BATCH) -> list[tuple[str, list[JournalEntry]]]:
    """The batches as they arrive: one of each table in turn."""
    queues = [[(str(j[0].event["device"]), j[i:i + batch]) for i in range(0, len(j), batch)] for j in journals]
    return [queue[n] for n in range(max(map(len, queues))) for queue in queues if n < len(queue)]


def ingest(target: str, journals: list[list[JournalEntry]], batch: int = BATCH) -> float:
    """Seconds to store the match day into the fresh database ``target``; then checks it."""
    store = open_store(target)
    try:
        devices = [str(j[0].event["device"]) for j in journals]
        for device in devices:
            store.ensure_device(device, device, now=1.0)
        batches = arrivals(journals, batch)
        started = time.perf_counter()
        for number, (device, entries) in enumerate(batches):
            store.use_nonce(device, f"n{number}", expires=9e9, now=2.0)
            store.store_batch(device, entries, now=2.0)
        elapsed = time.perf_counter() - started
        for device, journal in zip(devices, journals):
            assert store.held(device) == len(journal)
            assert store.device_events(device) == [e.event for e in journal]
        return elapsed
    finally:
        store.close()


def measure(tables: int, games: int, reps: int, sqlite_target: Callable[[int], str],
            postgres_target: Callable[[int], str], *, batch: int = BATCH,
            journals: list[list[JournalEntry]] | None = None) -> Figures:
    """Median of ``reps`` ingests into each engine, taking turns (each into a fresh database)."""
    journals = journals or match_day(tables, games)
    sqlite_times, postgres_times = [], []
    for rep in range(reps):
        sqlite_times.append(ingest(sqlite_target(rep), journals, batch))
        postgres_times.append(ingest(postgres_target(rep), journals, batch))
    return Figures(tables, games, sum(map(len, journals)), len(arrivals(journals, batch)), batch,
                   statistics.median(sqlite_times), statistics.median(postgres_times))


def report(f: Figures) -> str:
    return "\n".join([
        f"match day: {f.tables} tables × {f.games} games, every card: {f.events} events in {f.batches} batches "
        f"of up to {f.batch} (each with its nonce)",
        f"SQLite (WAL, synchronous=FULL): {f.sqlite_s:.2f} s, {f.events / f.sqlite_s:,.0f} events/s",
        f"PostgreSQL (fsync on, TCP 127.0.0.1): {f.postgres_s:.2f} s, {f.events / f.postgres_s:,.0f} events/s",
        f"ratio PostgreSQL / SQLite: {f.ratio:.2f}x; PostgreSQL vs the goal ({GOAL_S:.0f} s): "
        f"{f.postgres_s / GOAL_S:.2f}x goal",
    ])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--games", type=int, default=48)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--batch", type=int, action="append",
                        help=f"entries per batch (repeatable; default {BATCH}, as the tables send, and 500)")
    parser.add_argument("--url", help="an existing PostgreSQL server's empty database (one rep, one --batch: it is "
                                      "filled once)")
    args = parser.parse_args(argv)
    from tests.pg_server import PostgresServer, missing_binaries

    server: Any = None
    if args.url is None:
        why = missing_binaries()
        if why:
            print(f"bench_league_store: {why}", file=sys.stderr)
            return 2
        server = PostgresServer(durable=True).start()
    try:
        journals = match_day(args.tables, args.games)
        for batch in args.batch or [BATCH, 500]:
            with tempfile.TemporaryDirectory(prefix="skattisch-league-bench-") as tmp:
                figures = measure(args.tables, args.games, 1 if args.url else args.reps,
                                  lambda rep: str(Path(tmp) / f"club-{rep}.sqlite3"),
                                  (lambda rep: str(args.url)) if args.url else (lambda rep: server.new_database("bench")),
                                  batch=batch, journals=journals)
            print(report(figures), flush=True)
    finally:
        if server is not None:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
