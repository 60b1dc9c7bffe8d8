"""Benchmark: the time to record one game durably, against history size and two baselines.

    .venv/bin/python -m tests.bench.bench_store            # full: 1, 100, 10,000 games
    .venv/bin/python -m tests.bench.bench_store --smoke    # tiny, a second or two
    .venv/bin/python -m tests.bench.bench_store --dir /mnt/sd   # measure on that disk

For each history size H the store first holds H games in lists of 40 (written one list per
append, which gives the same files as one game per append). Then a new list ("tonight") is
started and ``--reps`` games are recorded into it one ``append`` each; we report the median
time of one append. The two baselines record the same games:

* bare write: writing the bytes of tonight's list file as it is after that append to a file
  with write + flush + fsync, nothing else (no temp file, no rename, no directory fsync, no
  JSON). The floor for any durable store that rewrites the list.
* TinyDB default: TinyDB's own ``JSONStorage`` (in-place rewrite, also fsync'd) holding the
  same history in one file, one table per list, tonight's games inserted into a new table.
  Every insert rewrites the whole history, so its cost grows with H.

The figures depend on the disk: fsync is far slower on an SD card than on a laptop SSD.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tinydb import TinyDB

from drivers.store import TinyDBEventStore

LIST_SIZE = 40
FULL_SIZES = (1, 100, 10_000)
SMOKE_SIZES = (1, 10, 50)
CARDS = [s + r for s in "CSHD" for r in "789TJQKA"]


def game_events(game: int, first_seq: int) -> list[dict[str, Any]]:
    """One game as the table service records it: four events, about 1.3 kB of JSON."""
    base = {"device": "3f2b8c1e-0000-4000-8000-00000000beef", "game": game}
    tricks = [[CARDS[(game + 3 * t + i) % 32] for i in range(3)] for t in range(10)]
    return [
        {**base, "id": f"{game:08d}-0000-4000-8000-{first_seq:012d}", "seq": first_seq,
         "kind": "bid", "bids": [18, 20, 22, 23, 24], "passed": [1, 2]},
        {**base, "id": f"{game:08d}-0000-4000-8000-{first_seq + 1:012d}", "seq": first_seq + 1,
         "kind": "declared", "game_type": "grand", "hand": False, "ouvert": False,
         "announced": None, "skat": ["D7", "H8"]},
        {**base, "id": f"{game:08d}-0000-4000-8000-{first_seq + 2:012d}", "seq": first_seq + 2,
         "kind": "played", "declarer": game % 3, "tricks": tricks},
        {**base, "id": f"{game:08d}-0000-4000-8000-{first_seq + 3:012d}", "seq": first_seq + 3,
         "kind": "scored", "won": True, "value": 48, "score": 48, "matadors": 2,
         "declarer_points": 71, "players": ["Jürgen", "Zoë", "Åsa"]},
    ]


def history(games: int) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """``games`` games split into lists of :data:`LIST_SIZE`: (list id, events) pairs."""
    for first in range(1, games + 1, LIST_SIZE):
        last = min(first + LIST_SIZE - 1, games)
        yield (f"list-{first // LIST_SIZE + 1:05d}",
               [e for game in range(first, last + 1) for e in game_events(game, 4 * game - 3)])


def settle() -> None:
    """Start timing from a quiet state: setup's dirty pages written, its garbage gone."""
    gc.collect()
    os.sync()


def timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def bare_write(path: Path, data: bytes) -> None:
    with open(path, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


@dataclass(frozen=True, slots=True)
class Row:
    """Median seconds per recorded game with ``games`` games of history."""

    games: int
    store: float
    bare: float
    tinydb_default: float
    list_bytes: int  # tonight's list file after the last append
    default_bytes: int  # TinyDB default's one file after the last append


def measure(games: int, reps: int, directory: Path) -> Row:
    tonight = [game_events(games + 1 + n, 4 * (games + n) + 1) for n in range(reps + 1)]

    store_dir = directory / f"store-{games}"
    with TinyDBEventStore(store_dir) as store:
        for list_id, events in history(games):
            store.append(list_id, events)
        store.append("tonight", tonight[0])  # creating the list writes the index: not timed
        settle()
        store_times, bare_times = [], []
        scratch = directory / f"bare-{games}.json"
        for events in tonight[1:]:
            store_times.append(timed(lambda: store.append("tonight", events)))
            data = store.path("tonight").read_bytes()
            bare_times.append(timed(lambda: bare_write(scratch, data)))
        list_bytes = store.path("tonight").stat().st_size
        assert len(store.load("tonight")) == 4 * (reps + 1)

    # TinyDB's own storage, history written straight in its format (building it through
    # TinyDB would rewrite the growing file once per list).
    default_path = directory / f"default-{games}.json"
    tables = {list_id: {str(i): event for i, event in enumerate(events, start=1)}
              for list_id, events in history(games)}
    default_path.write_text(json.dumps(tables), encoding="utf-8")
    del tables
    with TinyDB(default_path) as db:
        table = db.table("tonight")
        table.insert_multiple(tonight[0])
        settle()
        default_times = [timed(lambda: table.insert_multiple(events)) for events in tonight[1:]]
        assert len(table) == 4 * (reps + 1)
    return Row(games, statistics.median(store_times), statistics.median(bare_times),
               statistics.median(default_times), list_bytes, default_path.stat().st_size)


def run(sizes: Sequence[int], reps: int, directory: Path) -> list[Row]:
    return [measure(games, reps, directory) for games in sizes]


def report(rows: Sequence[Row]) -> str:
    lines = [
        f"{'history (games)':>16} {'store ms':>9} {'bare ms':>8} {'store/bare':>10}"
        f" {'default ms':>11} {'default/store':>13} {'list kB':>8} {'default kB':>10}",
    ]
    for row in rows:
        lines.append(
            f"{row.games:>16,} {row.store * 1e3:>9.2f} {row.bare * 1e3:>8.2f}"
            f" {row.store / row.bare:>10.1f} {row.tinydb_default * 1e3:>11.2f}"
            f" {row.tinydb_default / row.store:>13.1f} {row.list_bytes / 1e3:>8.1f}"
            f" {row.default_bytes / 1e3:>10.1f}")
    first, last = rows[0], rows[-1]
    lines += [
        "",
        f"store:          {last.games:,} vs {first.games:,} games of history:"
        f" {last.store / first.store:.2f}x the time per game",
        f"TinyDB default: {last.games:,} vs {first.games:,} games of history:"
        f" {last.tinydb_default / first.tinydb_default:.1f}x the time per game",
        f"store vs bare fsync'd write of the same bytes:"
        f" {min(r.store / r.bare for r in rows):.1f}x"
        f" to {max(r.store / r.bare for r in rows):.1f}x",
    ]
    return "\n".join(lines)


def filesystem(path: Path) -> str:
    """The filesystem type under ``path`` (from /proc/mounts), for reading the figures."""
    try:
        mounts = [line.split() for line in Path("/proc/mounts").read_text().splitlines()]
    except OSError:
        return "unknown"
    best = max((m for m in mounts if str(path.resolve()).startswith(m[1])),
               key=lambda m: len(m[1]), default=None)
    return "unknown" if best is None else f"{best[2]} on {best[1]}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.bench_store",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, a second or two")
    parser.add_argument("--reps", type=int, help="games recorded per size (default 21, smoke 3)")
    parser.add_argument("--dir", type=Path, help="where to write (default: a temp dir)")
    args = parser.parse_args(argv)
    sizes = SMOKE_SIZES if args.smoke else FULL_SIZES
    reps = args.reps or (3 if args.smoke else 21)
    with tempfile.TemporaryDirectory(prefix="bench-store-", dir=args.dir) as temp:
        directory = Path(temp)
        print(f"recording one game ({reps} times, median) on {filesystem(directory)},"
              f" lists of {LIST_SIZE} games")
        rows = run(sizes, reps, directory)
    print(report(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
