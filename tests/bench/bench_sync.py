"""An evening of 30 tables × 48 games synced to the laptop over loopback (issue 9).

Each table's evening is a four-table list of 48 games with every card scanned (about 1,800
events; recorded once through the table service, then given each table's own device id and
event ids, the chain computed anew). The collector (``skattisch club serve``: uvicorn, SQLite)
runs in its own process on 127.0.0.1; the 30 tables are sync clients (``drivers.sync``) in
threads of this process, each over its own journal.

* **live**: the laptop is reachable all evening; the tables record their events at a steady
  pace over ``--evening`` seconds, each client woken by each new game. Reported: the time from
  the last event recorded to the last acknowledgement. Goal: within 2 s.
* **backlog**: the laptop was away all evening; it comes up with every event waiting.
  Reported: the time from the first send to the last acknowledgement, and events per second
  at the collector. Goal: the whole backlog (~54,000 events) within 10 s.

Ratios are against those goals (below 1.0: met), measured in the same run.

    .venv/bin/python -m tests.bench.bench_sync                   # 30 tables × 48 games
    .venv/bin/python -m tests.bench.bench_sync --tables 3 --games 4 --evening 2
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from device.journal import JournalEntry
from device.sync import journal_entries
from device.table import TableService
from drivers.club.app import new_pairing_code
from drivers.club.store import SqliteCollectorStore
from drivers.sync import STATE_FILE, SyncClient, SyncStateFile, pair_with_laptop
from tests.e2e.service_crash_writer import next_command
from tests.e2e.sync_helpers import Collector
from tests.table_helpers import ListStore

PLAYERS = ("Anna", "Bernd", "Carla", "Dora")
LIVE_GOAL = 2.0
BACKLOG_GOAL = 10.0


def one_evening(games: int) -> list[dict[str, Any]]:
    """The events of ``games`` card-by-card games at a four-table (one list), as recorded."""
    store = ListStore()
    service = TableService(store, device_id="vorlage")
    done = 0
    while done < games:
        command = next_command(service, done + 1, players=PLAYERS, length=48, card_by_card_every=1)
        for single in command if isinstance(command, list) else [command]:
            service.submit(single)
        done += sum(1 for e in service.pump().events if e.type == "game_recorded")
    return [event for list_id in store.list_ids() for event in store.load(list_id)]


def table_events(template: list[dict[str, Any]], table: int) -> list[dict[str, Any]]:
    device = f"tisch-{table:02d}"
    return [dict(e, device=device, id=f"{device}-{e['id']}", list_id=f"{device}-{e['list_id']}") for e in template]


class Journal:
    """A table's journal in memory: entries appear as the table records them."""

    def __init__(self, events: list[dict[str, Any]]) -> None:
        self.all = journal_entries(events)
        self.recorded = 0
        self.lock = threading.Lock()

    def record(self, upto: int) -> None:
        with self.lock:
            self.recorded = upto

    def entries_after(self, seq: int, limit: int | None = None) -> list[JournalEntry]:
        with self.lock:
            wanted = self.all[seq:self.recorded]
        return wanted if limit is None else wanted[:limit]


def start_tables(tmp: Path, collector: Collector, evenings: list[list[dict[str, Any]]]) -> list[tuple[Journal, SyncClient, list[float]]]:
    store = SqliteCollectorStore(collector.db)
    tables = []
    for number, events in enumerate(evenings, start=1):
        device = events[0]["device"]
        state = pair_with_laptop(collector.url, new_pairing_code(store, now=time.time()), device)
        state_file = SyncStateFile(tmp / f"{device}-{STATE_FILE}")
        state_file.save(state)
        acked_at: list[float] = []
        journal = Journal(events)

        def submit(command: object, acked_at: list[float] = acked_at, journal: Journal = journal) -> None:
            if getattr(command, "seq", None) == len(journal.all):
                acked_at.append(time.perf_counter())

        tables.append((journal, SyncClient(journal, state_file, device=device, submit=submit, timeout=30,
                                           backoff=(0.05, 0.5), idle_poll=5.0), acked_at))
    store.close()
    return tables


def wait_all(tables: list[tuple[Journal, SyncClient, list[float]]], timeout: float) -> float:
    deadline = time.perf_counter() + timeout
    while not all(acked for _, _, acked in tables):
        if time.perf_counter() > deadline:
            raise AssertionError(f"not all acknowledged within {timeout} s")
        time.sleep(0.01)
    return max(acked[0] for _, _, acked in tables)


def check_laptop(db: Path, evenings: list[list[dict[str, Any]]]) -> None:
    store = SqliteCollectorStore(db)
    try:
        for events in evenings:
            device = events[0]["device"]
            assert store.device_events(device) == events, device
    finally:
        store.close()


def measure(tables: int, games: int, evening: float) -> dict[str, float]:
    template = one_evening(games)
    evenings = [table_events(template, n) for n in range(1, tables + 1)]
    total = sum(len(e) for e in evenings)
    figures: dict[str, float] = {"tables": tables, "games": games, "events": total}
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        # live: reachable all evening, events recorded game by game at a steady pace
        collector = Collector(tmp / "live.sqlite3")
        try:
            live = start_tables(tmp, collector, evenings)
            game_ends = [i + 1 for i, e in enumerate(template) if e["type"] == "game_recorded"]
            for _, client, _ in live:
                client.start()
            began = time.perf_counter()
            for step, end in enumerate(game_ends, start=1):
                time.sleep(max(0.0, began + evening * step / len(game_ends) - time.perf_counter()))
                for journal, client, _ in live:
                    journal.record(len(journal.all) if step == len(game_ends) else end)
                    client.wake()
            last_event = time.perf_counter()
            last_ack = wait_all(live, timeout=120)
            for _, client, _ in live:
                client.close()
            figures["live_lag_s"] = max(0.0, last_ack - last_event)
        finally:
            collector.stop()
        check_laptop(tmp / "live.sqlite3", evenings)
        # backlog: the laptop was away all evening
        collector = Collector(tmp / "backlog.sqlite3")
        try:
            backlog = start_tables(tmp, collector, evenings)
            for journal, _, _ in backlog:
                journal.record(len(journal.all))
            began = time.perf_counter()
            for _, client, _ in backlog:
                client.start()
            last_ack = wait_all(backlog, timeout=300)
            for _, client, _ in backlog:
                client.close()
            figures["backlog_s"] = last_ack - began
            figures["events_per_s"] = total / figures["backlog_s"]
        finally:
            collector.stop()
        check_laptop(tmp / "backlog.sqlite3", evenings)
    return figures


def report(figures: dict[str, float]) -> str:
    return "\n".join([
        f"{figures['tables']:.0f} tables × {figures['games']:.0f} games, every card scanned: "
        f"{figures['events']:.0f} events",
        f"live (laptop reachable): last ack {figures['live_lag_s']:.2f} s after the last event "
        f"= {figures['live_lag_s'] / LIVE_GOAL:.2f} x goal ({LIVE_GOAL:.0f} s)",
        f"backlog (laptop away all evening): {figures['backlog_s']:.2f} s from first send to last ack "
        f"= {figures['backlog_s'] / BACKLOG_GOAL:.2f} x goal ({BACKLOG_GOAL:.0f} s); "
        f"{figures['events_per_s']:.0f} events/s at the collector",
    ])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--games", type=int, default=48)
    parser.add_argument("--evening", type=float, default=20.0, help="seconds the live evening is squeezed into")
    args = parser.parse_args(argv)
    print(report(measure(args.tables, args.games, args.evening)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
