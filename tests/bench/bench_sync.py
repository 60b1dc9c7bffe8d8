"""An evening of 30 tables × 48 games synced to the laptop over loopback.

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

Those two take each table's events from an in-memory template: no table service, journal or
``entries_after`` is in the timed path. The **table path** is the second figure, with all of it:
each table is the table app's own wiring (``ui/commands/run.py``): a :class:`TableService`
recording into its :class:`~drivers.store.JournalEventStore` on disk (one append and fsync per
pump), its sync client made by :func:`drivers.sync.make_client` and woken by the service after
each pump, reading the journal back with ``entries_after``. The tables play in threads of this
process, each game at a steady pace over ``--evening`` seconds (on 2 shared cores the 30
tables' recording takes longer than that: the time it took is reported). A game's lag here
includes waiting for the other tables' recording in this one process (one interpreter lock,
two cores for 30 tables), which a Pi per table does not have: an upper bound.

* **table path, live**: per game, the time from its last event being recorded (the pump
  returned: appended and fsynced) to the acknowledgement of that seq reaching the table:
  median, p99 and max over every game of every table, against the live goal (2 s); and the
  last ack after the last event recorded.
* **table path, backlog**: the same journals opened again (a table restarted), paired with a
  laptop that has nothing: every event read back from disk by ``entries_after`` and sent;
  from the first send to the last ack, against the backlog goal (10 s).

Ratios are against those goals (below 1.0: met), measured in the same run.

    .venv/bin/python -m tests.bench.bench_sync                   # 30 tables × 48 games, both figures
    .venv/bin/python -m tests.bench.bench_sync --figure table    # only the table path
    .venv/bin/python -m tests.bench.bench_sync --tables 3 --games 4 --evening 2
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from device.journal import JournalEntry
from device.sync import journal_entries
from device.table import SyncAcknowledged, TableService
from drivers.club.app import new_pairing_code
from drivers.club.store import SqliteCollectorStore
from drivers.store import JournalEventStore
from drivers.sync import STATE_FILE, SyncClient, SyncStateFile, make_client, pair_with_laptop
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
    for game in range(1, games + 1):
        play_game(service, game)
    return [event for list_id in store.list_ids() for event in store.load(list_id)]


def play_game(service: TableService, game: int) -> None:
    """Game number ``game`` card by card, one pump per step as the table does."""
    done = game - 1
    while done < game:
        command = next_command(service, game, players=PLAYERS, length=48, card_by_card_every=1)
        for single in command if isinstance(command, list) else [command]:
            service.submit(single)
        done += sum(1 for e in service.pump().events if e.type == "game_recorded")


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


# -- the table path ----------------------------------------------------------------------------


@dataclass
class Table:
    """A table as the table app wires it: service → journal store ← sync client → laptop."""

    directory: Path
    store: JournalEventStore
    service: TableService
    client: SyncClient
    recorded: list[tuple[float, int]] = field(default_factory=list)  # per game: when recorded, its last seq
    acks: list[tuple[float, int]] = field(default_factory=list)  # when an ack reached the table, its seq


def open_table(directory: Path, collector: Collector, codes: SqliteCollectorStore) -> Table:
    """Open the table's journal in ``directory``, pair it with ``collector`` and make its client."""
    store = JournalEventStore(directory)
    device = store.device_id
    service = TableService(store, device_id=device)
    acks: list[tuple[float, int]] = []

    def submit(command: object) -> None:
        if isinstance(command, SyncAcknowledged):
            acks.append((time.perf_counter(), command.seq))
        service.submit(command)

    SyncStateFile(directory / STATE_FILE).save(
        pair_with_laptop(collector.url, new_pairing_code(codes, now=time.time()), device))
    client = make_client(store, directory, device, submit, timeout=30, backoff=(0.05, 0.5), idle_poll=5.0)
    service.subscribe(lambda result: client.wake() if result.events else None)
    return Table(directory, store, service, client, acks=acks)


def open_tables(directories: list[Path], collector: Collector) -> list[Table]:
    codes = SqliteCollectorStore(collector.db)
    try:
        return [open_table(directory, collector, codes) for directory in directories]
    finally:
        codes.close()


def play_evening(table: Table, games: int, began: float, evening: float) -> None:
    """The table's games, each begun on time for a steady pace over ``evening`` seconds."""
    for game in range(1, games + 1):
        time.sleep(max(0.0, began + evening * (game - 1) / games - time.perf_counter()))
        play_game(table.service, game)
        table.recorded.append((time.perf_counter(), table.service.last_seq))


def acked_at(table: Table, seq: int) -> float | None:
    return next((when for when, acked in table.acks if acked >= seq), None)


def ack_time(table: Table, seq: int) -> float:
    when = acked_at(table, seq)
    assert when is not None, f"seq {seq} of {table.directory.name} was not acknowledged"
    return when


def wait_acked(tables: list[Table], timeout: float) -> None:
    deadline = time.perf_counter() + timeout
    while any(acked_at(t, t.service.last_seq) is None for t in tables):
        if time.perf_counter() > deadline:
            raise AssertionError(f"not all acknowledged within {timeout} s")
        time.sleep(0.01)


def close_tables(tables: list[Table]) -> None:
    for table in tables:
        table.client.close()
        table.store.close()


def check_table_path(db: Path | str, tables: list[Table]) -> None:
    """The laptop holds every table's journal as the journal holds it."""
    store = SqliteCollectorStore(db)
    try:
        for table in tables:
            device = table.store.device_id
            assert store.device_events(device) == [e.event for e in table.store.entries_after(0)], device
    finally:
        store.close()


def measure_table_path(tables: int, games: int, evening: float) -> dict[str, float]:
    """The second figure: the table service, its journal and ``entries_after`` in the timed path."""
    figures: dict[str, float] = {"path_tables": tables, "path_games": games, "path_evening_s": evening}
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        directories = [tmp / f"tisch-{n:02d}" for n in range(1, tables + 1)]
        collector = Collector(tmp / "path-live.sqlite3")
        try:
            live = open_tables(directories, collector)
            for table in live:
                table.client.start()
            began = time.perf_counter()
            players = [threading.Thread(target=play_evening, args=(t, games, began, evening)) for t in live]
            for thread in players:
                thread.start()
            for thread in players:
                thread.join()
            last_event = max(t.recorded[-1][0] for t in live)
            figures["path_recording_s"] = last_event - began
            wait_acked(live, timeout=120)
            lags = sorted(max(0.0, ack_time(t, seq) - when) for t in live for when, seq in t.recorded)
            figures["path_events"] = sum(t.service.last_seq for t in live)
            figures["path_lag_median_s"] = statistics.median(lags)
            figures["path_lag_p99_s"] = lags[min(len(lags) - 1, round(0.99 * (len(lags) - 1)))]
            figures["path_lag_max_s"] = lags[-1]
            figures["path_live_lag_s"] = max(0.0, max(ack_time(t, t.service.last_seq) for t in live) - last_event)
            check_table_path(collector.db, live)
            close_tables(live)
        finally:
            collector.stop()
        # backlog: the same journals opened again, a laptop that has nothing of them
        collector = Collector(tmp / "path-backlog.sqlite3")
        try:
            backlog = open_tables(directories, collector)
            began = time.perf_counter()
            for table in backlog:
                table.client.start()
            wait_acked(backlog, timeout=300)
            figures["path_backlog_s"] = max(ack_time(t, t.service.last_seq) for t in backlog) - began
            check_table_path(collector.db, backlog)
            close_tables(backlog)
        finally:
            collector.stop()
    return figures


def report(figures: dict[str, float]) -> str:
    lines = report_template(figures) if "live_lag_s" in figures else []
    if "path_live_lag_s" in figures:
        lines += report_table_path(figures)
    return "\n".join(lines)


def report_table_path(figures: dict[str, float]) -> list[str]:
    return [
        f"table path ({figures['path_tables']:.0f} tables × {figures['path_games']:.0f} games, "
        f"{figures['path_events']:.0f} events: service → journal on disk → entries_after → laptop), "
        f"recorded in {figures['path_recording_s']:.1f} s (paced for {figures['path_evening_s']:.0f} s)",
        f"table path, live: game recorded to its ack median {figures['path_lag_median_s']:.2f} s, "
        f"p99 {figures['path_lag_p99_s']:.2f} s, max {figures['path_lag_max_s']:.2f} s "
        f"= {figures['path_lag_max_s'] / LIVE_GOAL:.2f} x goal ({LIVE_GOAL:.0f} s); "
        f"last ack {figures['path_live_lag_s']:.2f} s after the last event",
        f"table path, backlog (journals read back from disk): {figures['path_backlog_s']:.2f} s from first send "
        f"to last ack = {figures['path_backlog_s'] / BACKLOG_GOAL:.2f} x goal ({BACKLOG_GOAL:.0f} s); "
        f"{figures['path_events'] / figures['path_backlog_s']:.0f} events/s",
    ]


def report_template(figures: dict[str, float]) -> list[str]:
    return [
        f"{figures['tables']:.0f} tables × {figures['games']:.0f} games, every card scanned: "
        f"{figures['events']:.0f} events",
        f"live (laptop reachable): last ack {figures['live_lag_s']:.2f} s after the last event "
        f"= {figures['live_lag_s'] / LIVE_GOAL:.2f} x goal ({LIVE_GOAL:.0f} s)",
        f"backlog (laptop away all evening): {figures['backlog_s']:.2f} s from first send to last ack "
        f"= {figures['backlog_s'] / BACKLOG_GOAL:.2f} x goal ({BACKLOG_GOAL:.0f} s); "
        f"{figures['events_per_s']:.0f} events/s at the collector",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--games", type=int, default=48)
    parser.add_argument("--evening", type=float, default=20.0, help="seconds the live evening is squeezed into")
    parser.add_argument("--figure", choices=("all", "template", "table"), default="all",
                        help="template: events from memory (the first figure); table: the table path")
    args = parser.parse_args(argv)
    figures: dict[str, float] = {}
    if args.figure in ("all", "template"):
        figures |= measure(args.tables, args.games, args.evening)
    if args.figure in ("all", "table"):
        figures |= measure_table_path(args.tables, args.games, args.evening)
    print(report(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
