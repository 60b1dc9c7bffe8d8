"""Start-up of the table: a full 48-game list from the journal store (issues 3 and 8).

A four-table list of 48 games, every card scanned (about 1,800 events), is recorded into the
real journal store; then the table is started again and again over it. Reported: the start-up
time (open the store, load and verify the journal, fold from the checkpoint, first snapshot)
and, as its baseline, ``json.loads`` of the same events (one JSON text), measured in the same
run. Goal: start-up ≤ 5× the baseline. ``--no-checkpoint`` measures the full replay.

    .venv/bin/python -m tests.bench.bench_service            # 48 games, 20 restarts
    .venv/bin/python -m tests.bench.bench_service --games 6 --restarts 2
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from device.table import TableService
from drivers.store import JournalEventStore, device_id
from tests.e2e.service_crash_writer import next_command

PLAYERS = ("Anna", "Bernd", "Carla", "Dora")


def record_list(directory: Path, games: int) -> int:
    """Record ``games`` card-by-card games; return the number of stored events."""
    store = JournalEventStore(directory)
    service = TableService(store, device_id=device_id(directory))
    done = 0
    while done < games:
        command = next_command(service, done + 1, players=PLAYERS, length=games, card_by_card_every=1)
        for single in command if isinstance(command, list) else [command]:
            service.submit(single)
        done += sum(1 for e in service.pump().events if e.body.TYPE == "game_recorded")
    events = len(service.events)
    store.close()
    return events


def measure(games: int, restarts: int, *, checkpoint: bool = True) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        events = record_list(directory, games)
        if not checkpoint:
            for path in (directory / "journal").glob("*.checkpoint"):
                path.unlink()
        with JournalEventStore(directory) as store:
            text = json.dumps(store.load(store.list_ids()[-1]), ensure_ascii=False)
        starts, loads = [], []
        for _ in range(restarts):
            began = time.perf_counter()
            json.loads(text)
            loads.append(time.perf_counter() - began)
            began = time.perf_counter()
            store = JournalEventStore(directory)
            service = TableService(store, device_id=device_id(directory))
            service.snapshot()
            starts.append(time.perf_counter() - began)
            assert service.state.rows and len(service.state.rows) == games
            store.close()
    return {"games": games, "events": events, "start_s": statistics.median(starts),
            "load_s": statistics.median(loads)}


def report(figures: dict[str, float]) -> str:
    ratio = figures["start_s"] / figures["load_s"]
    return (f"{int(figures['games'])}-game list, {int(figures['events'])} events (median of restarts)\n"
            f"  json.loads of the same events (baseline) {figures['load_s'] * 1000:8.1f} ms\n"
            f"  table start-up: load + replay + snapshot {figures['start_s'] * 1000:8.1f} ms   {ratio:6.1f} x baseline"
            " (goal <= 5x)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=48)
    parser.add_argument("--restarts", type=int, default=20)
    parser.add_argument("--no-checkpoint", action="store_true", help="replay the whole list (no checkpoint)")
    args = parser.parse_args(argv)
    print(report(measure(args.games, args.restarts, checkpoint=not args.no_checkpoint)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
