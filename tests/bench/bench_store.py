"""Benchmark: a whole evening through the table service into the real store.

    .venv/bin/python -m tests.bench.bench_store              # 48 games at a four-table
    .venv/bin/python -m tests.bench.bench_store --legacy     # also the store before the journal
    .venv/bin/python -m tests.bench.bench_store --games 4    # a smoke run
    .venv/bin/python -m tests.bench.bench_store --dir /mnt/sd   # measure on that disk

A four-table plays ``--games`` games with every card scanned, command by command as the
table does (one pump, one ``append`` per command): the list grows to about 1,800 events.
Measured for the journal store, in the same run:

* bytes the process wrote (``wchar`` of /proc/self/io, and ``write_bytes``: what reached the
  block layer), fsync calls (``fsync`` + ``fdatasync``), and the store's time per event in
  game 1 and in the last game (median over the game's appends, wall and CPU: the wall time
  is mostly the disk's fsync, the CPU time the store's own work);
* the baseline: the same events appended as JSON lines (``json.dumps`` + newline), one write
  and one fsync per event, in a file on the same disk.

Goals: bytes ≤ 1.5× the baseline; time per event in the last game ≤ 1.2× game 1.
The time per event is also measured taking turns: game 1's appends into a list as it stood at
game 1 and the last game's into a list as it stood then, alternately, so the disk's and the
machine's changing load (an evening takes minutes) weighs on both alike.
``--legacy`` replays the same appends into the TinyDB store the journal replaced (one atomic
rewrite of the whole list per append), for the before/after figure.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from device.journal import JournalEntry
from device.table import TableService
from drivers.store.legacy import LegacyTinyDBStore
from drivers.store import JournalEventStore
from tests.e2e.service_crash_writer import next_command

PLAYERS = ("Anna", "Bernd", "Carla", "Dora")


def proc_io() -> dict[str, int]:
    """This process's I/O counters (Linux)."""
    fields = dict(line.split(": ") for line in Path("/proc/self/io").read_text().splitlines())
    return {key: int(value) for key, value in fields.items()}


@contextmanager
def counting_fsyncs() -> Iterator[list[int]]:
    """Count os.fsync and os.fdatasync calls in this process while the block runs."""
    count = [0]
    real_fsync, real_fdatasync = os.fsync, os.fdatasync

    def fsync(fd: Any) -> None:
        count[0] += 1
        real_fsync(fd)

    def fdatasync(fd: Any) -> None:
        count[0] += 1
        real_fdatasync(fd)

    os.fsync, os.fdatasync = fsync, fdatasync  # type: ignore[assignment]
    try:
        yield count
    finally:
        os.fsync, os.fdatasync = real_fsync, real_fdatasync  # type: ignore[assignment]


@dataclass
class TimedStore:
    """The real store behind the port, timing each append and booking it to the current game."""

    inner: JournalEventStore
    game: int = 1
    wall: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))  # per event, per append
    cpu: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))
    events: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    appends: list[tuple[str, list[dict[str, Any]]]] = field(default_factory=list)
    games_of: list[int] = field(default_factory=list)  # the game of each append

    def append(self, list_id: str, events: Sequence[Mapping[str, Any]]) -> None:
        wall, cpu = time.perf_counter(), time.thread_time()
        self.inner.append(list_id, events)
        self.cpu[self.game].append((time.thread_time() - cpu) / len(events))
        self.wall[self.game].append((time.perf_counter() - wall) / len(events))
        self.events[self.game] += len(events)
        self.appends.append((list_id, [dict(e) for e in events]))
        self.games_of.append(self.game)

    def load(self, list_id: str) -> list[dict[str, Any]]:
        return self.inner.load(list_id)

    def list_ids(self) -> list[str]:
        return self.inner.list_ids()

    def head(self, list_id: str) -> str:
        return self.inner.head(list_id)

    def entries_after(self, seq: int, limit: int | None = None) -> list[JournalEntry]:
        return self.inner.entries_after(seq, limit)

    def save_checkpoint(self, list_id: str, count: int, payload: bytes) -> None:
        self.inner.save_checkpoint(list_id, count, payload)

    def load_checkpoint(self, list_id: str) -> tuple[int, bytes] | None:
        return self.inner.load_checkpoint(list_id)

    def close(self) -> None:
        self.inner.close()


@dataclass(frozen=True, slots=True)
class Figures:
    games: int
    events: int
    appends: int
    wchar: int
    write_bytes: int
    fsyncs: int
    first_wall: float   # seconds per event in game 1
    last_wall: float    # … in the last game
    first_cpu: float
    last_cpu: float
    base_wchar: int
    base_write_bytes: int
    base_fsyncs: int
    base_first: float
    base_last: float
    side_first: float = 0.0  # interleaved: seconds per event, game 1's appends on a list at game 1
    side_last: float = 0.0   # … the last game's appends on a list at the last game
    legacy_wchar: int | None = None
    legacy_write_bytes: int | None = None


def play_evening(store: TimedStore, games: int) -> None:
    """The evening, one command per pump, every card scanned."""
    service = TableService(store, device_id=store.inner.device_id)
    done = 0
    while done < games:
        store.game = done + 1
        command = next_command(service, done + 1, players=PLAYERS, length=games, card_by_card_every=1)
        for single in command if isinstance(command, list) else [command]:
            result = service.handle(single)
            done += sum(1 for e in result.events if e.body.TYPE == "game_recorded")


def measured(action: Callable[[], None]) -> tuple[int, int, int]:
    """(wchar, write_bytes, fsyncs) of ``action``, its dirty pages flushed before and after."""
    os.sync()
    before = proc_io()
    with counting_fsyncs() as fsyncs:
        action()
    after = proc_io()
    return after["wchar"] - before["wchar"], after["write_bytes"] - before["write_bytes"], fsyncs[0]


def baseline(path: Path, games: dict[int, list[dict[str, Any]]]) -> tuple[int, int, int, float, float]:
    """The same events as JSON lines, one write + fsync each; seconds per event in game 1 and last."""
    times: dict[int, float] = {}  # median seconds per event

    def append_all() -> None:
        with open(path, "ab") as handle:
            for game, events in games.items():
                each = []
                for event in events:
                    began = time.perf_counter()
                    handle.write(json.dumps(event).encode("utf-8") + b"\n")
                    handle.flush()
                    os.fsync(handle.fileno())
                    each.append(time.perf_counter() - began)
                times[game] = statistics.median(each)

    wchar, write_bytes, fsyncs = measured(append_all)
    return wchar, write_bytes, fsyncs, times[min(times)], times[max(times)]


def legacy(directory: Path, appends: list[tuple[str, list[dict[str, Any]]]]) -> tuple[int, int]:
    """The same appends into the store before the journal: (wchar, write_bytes)."""
    with LegacyTinyDBStore(directory) as store:
        wchar, write_bytes, _ = measured(lambda: [store.append(lid, events) for lid, events in appends])
    return wchar, write_bytes


def side_by_side(directory: Path, appends: list[tuple[int, str, list[dict[str, Any]]]], first: int, last: int,
                 rounds: int = 3) -> tuple[float, float]:
    """Game ``first``'s appends into a list holding what came before it, and game ``last``'s
    into a list holding what came before that, taking turns (so a busy disk or CPU weighs on
    both alike). Median seconds per event of each."""
    times: dict[int, list[float]] = {first: [], last: []}
    for turn in range(rounds):
        stores, batches = {}, {}
        for game in (first, last):
            store = JournalEventStore(directory / f"side-{turn}-{game}")
            before = [(lid, e) for g, lid, events in appends if g < game for e in events]
            for lid in dict.fromkeys(lid for lid, _ in before):
                store.append(lid, [e for l, e in before if l == lid])  # the history, in one go
            stores[game] = store
            batches[game] = [(lid, events) for g, lid, events in appends if g == game]
        for step in range(max(len(b) for b in batches.values())):
            for game in (first, last):
                if step < len(batches[game]):
                    lid, events = batches[game][step]
                    began = time.perf_counter()
                    stores[game].append(lid, events)
                    times[game].append((time.perf_counter() - began) / len(events))
        for store in stores.values():
            store.close()
    return statistics.median(times[first]), statistics.median(times[last])


def measure(games: int, directory: Path, *, with_legacy: bool = False) -> Figures:
    store = TimedStore(JournalEventStore(directory / "journal-store"))
    try:
        wchar, write_bytes, fsyncs = measured(lambda: play_evening(store, games))
    finally:
        store.close()
    flat = [e for _, events in store.appends for e in events]
    by_game: dict[int, list[dict[str, Any]]] = {}
    position = 0
    for game, count in sorted(store.events.items()):  # appends happen in game order
        by_game[game] = flat[position:position + count]
        position += count
    base = baseline(directory / "baseline.jsonl", by_game)
    first, last = min(store.events), max(store.events)
    side = side_by_side(directory, [(g, lid, events) for g, (lid, events) in zip(store.games_of, store.appends)],
                        first, last)
    legacy_figures = legacy(directory / "legacy-store", store.appends) if with_legacy else (None, None)
    return Figures(
        games, len(flat), len(store.appends), wchar, write_bytes, fsyncs,
        statistics.median(store.wall[first]), statistics.median(store.wall[last]),
        statistics.median(store.cpu[first]), statistics.median(store.cpu[last]),
        base[0], base[1], base[2], base[3], base[4], *side, *legacy_figures)


def report(f: Figures) -> str:
    lines = [
        f"{f.games}-game evening at a four-table, every card scanned: {f.events} events in {f.appends} appends",
        f"{'':32} {'wchar kB':>10} {'written kB':>11} {'fsyncs':>7}",
        f"{'journal store':32} {f.wchar / 1e3:>10.1f} {f.write_bytes / 1e3:>11.1f} {f.fsyncs:>7}",
        f"{'baseline: JSON lines, fsync each':32} {f.base_wchar / 1e3:>10.1f} {f.base_write_bytes / 1e3:>11.1f}"
        f" {f.base_fsyncs:>7}",
    ]
    if f.legacy_wchar is not None and f.legacy_write_bytes is not None:
        lines.append(f"{'store before the journal':32} {f.legacy_wchar / 1e3:>10.1f}"
                     f" {f.legacy_write_bytes / 1e3:>11.1f}")
    lines += [
        "",
        f"bytes written (wchar): {f.wchar / f.base_wchar:.3f}x the baseline (goal <= 1.5x)",
        f"bytes reaching the disk (write_bytes): {f.write_bytes / max(1, f.base_write_bytes):.2f}x the baseline",
        f"store time per event, game {f.games} vs game 1, taking turns: {f.side_last / f.side_first:.2f}x"
        f" ({f.side_first * 1e3:.3f} -> {f.side_last * 1e3:.3f} ms) (goal <= 1.2x)",
        f"  the same during the evening: {f.last_wall / f.first_wall:.2f}x wall"
        f" ({f.first_wall * 1e3:.3f} -> {f.last_wall * 1e3:.3f} ms), {f.last_cpu / f.first_cpu:.2f}x CPU"
        f" ({f.first_cpu * 1e3:.3f} -> {f.last_cpu * 1e3:.3f} ms) (the machine's load drifts meanwhile)",
        f"baseline time per event, game {f.games} vs game 1: {f.base_last / f.base_first:.2f}x"
        f" ({f.base_first * 1e3:.3f} -> {f.base_last * 1e3:.3f} ms)",
    ]
    if f.legacy_wchar is not None:
        lines.append(f"store before the journal: {f.legacy_wchar / f.wchar:.0f}x the journal's bytes (wchar)")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.bench_store", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=48)
    parser.add_argument("--legacy", action="store_true", help="also the TinyDB store before the journal (slow)")
    parser.add_argument("--dir", type=Path, help="where to write (default: a temp dir)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-store-", dir=args.dir) as temp:
        figures = measure(args.games, Path(temp), with_legacy=args.legacy)
    print(report(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
