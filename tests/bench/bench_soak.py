"""Soak: a whole evening through the real table screen on the journal store; does memory stay flat?

    .venv/bin/python -m tests.bench.bench_soak               # full run: a 100-game list, then a new list of 30
    .venv/bin/python -m tests.bench.bench_soak --smoke       # tiny (a 5-game list, a new list of 1): under a minute
    .venv/bin/python -m tests.bench.bench_soak --diagnose    # and what grew between game 30 and the last
                                                              # (objects by type, tracemalloc's lines; slower,
                                                              # and tracemalloc's own memory counts in VmRSS)

One ``skattisch run --simulate`` process (a journal store on disk, as a table has, 800×480 under a
private Xvfb) plays the evening through the script runner, as people tap and scan: every third
game played out card by card (the reader's scans), the others entered the quick way (bid,
declare, result entered, confirmed); after every fifth game someone opens the list; between
games the table is idle while the cards are dealt (what it does ahead when idle is done then).
Then the series is ended and confirmed, a new list set up and played. After every game the
process's resident memory (VmRSS) is taken, with the C heap's (glibc's ``mallinfo2``) and
the collector's counts; at the end, what is still held: the objects frozen out of the collector
that are garbage, and the rows, lines and drawn texts alive (only the new list's should be).

Figures: MiB per 10 games over games 30 to the last (a least-squares slope of VmRSS; the
evening's warm-up (screens built, buttons made ahead, fonts and texts drawn) lies before game
30), against the same slope of the warm-up (games 0-30) as the baseline; and what opening a new
list gives back (VmRSS on the end screen less with the new list's first deal).
Goal: <= 0.5 MiB per 10 games over games 30-100; the new list gives back what the old one's
screens held.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.bench.bench_ui import rss_kib

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ("Anna", "Bernd", "Carla", "Dieter")
# (game, Vorhand's tricks, card points, matadors): won and lost, every suit and the grand
GAMES = [("clubs", 7, 80, 1), ("hearts", 3, 40, 1), ("spades", 6, 75, 2), ("diamonds", 4, 50, 1),
         ("grand", 8, 90, 1)]
DEAL_SECONDS = 1.5  # idle between games (longer at a real table; enough for what is done ahead when idle)
WARM_UP = 30  # games: the slope is taken from here on
GOAL_MIB_PER_10 = 0.5
SMOKE = (5, 1)  # games on the first list, on the new one


# --------------------------------------------------------------------------- the script


def evening_script(first: int, second: int, *, deal: float = DEAL_SECONDS) -> tuple[list[str], dict[int, str]]:
    """The steps of an evening: a list of ``first`` games, its series ended and confirmed, a
    new list of ``second`` games; and the steps after which a mark is taken (step index ->
    mark: ``"1:5"`` after game 5 of the first list, ``"end"`` on the end screen, ``"2:0"``
    with the new list's first game screen). Every third game is played out card by card
    (the reader's scans), the others entered the quick way; after every fifth game someone
    looks at the list; between games the table is idle while the cards are dealt (``deal``
    seconds: what the table does ahead while idle is done then, as at a real table)."""
    from tests.ui.scenarios import direct_game, setup_steps

    steps = setup_steps(PLAYERS, length="length_open", stake="stake_1")
    marks: dict[int, str] = {len(steps) - 1: "1:0"}

    def games(count: int, series: int) -> None:
        for number in range(count):
            if number % 3 == 2:
                steps.extend(card_game(number))
            else:
                game, tricks, points, matadors = GAMES[number % len(GAMES)]
                steps.extend(direct_game(number, len(PLAYERS), game, tricks, points, matadors))
            steps.append("wait_screen game")  # the game entered, the next deal's screen up
            if number % 5 == 4:
                steps.extend(["tap list", "wait_screen list", "tap close_list", "wait_screen game"])
            if deal:
                steps.append(f"sleep {deal}")
            marks[len(steps) - 1] = f"{series}:{number + 1}"

    games(first, 1)
    steps += ["tap list", "wait_screen list", "tap end_series", "tap end_series_yes", "wait_screen end",
              *[f"tap confirm_list_{seat}" for seat in range(len(PLAYERS))],
              'expect_text "Die Liste ist abgeschlossen"']
    marks[len(steps) - 1] = "end"
    steps += ["tap new_list", "wait_screen setup", "tap setup_next",  # the same players and rules
              "wait_screen game"]
    if deal:
        steps.append(f"sleep {2 * deal}")  # the new list's first deal: what is done when idle is done
    marks[len(steps) - 1] = "2:0"
    games(second, 2)
    return steps, marks


def card_game(number: int) -> list[str]:
    """Game ``number`` (0-based) played out: Mittelhand takes it at 20 and plays Kreuz with
    the skat pushed again (the deal of tests/ui/test_games.py), every card scanned; the
    declarer and Vorhand confirm."""
    from tests.ui.scenarios import cards_steps, play_order

    dealer = number % len(PLAYERS)
    vorhand, mittelhand = (dealer + 1) % len(PLAYERS), (dealer + 2) % len(PLAYERS)
    order = play_order("clubs", ["SA ST SK SQ S9 S8 HA HT HK HQ", "CJ SJ HJ DJ CA CT CK CQ C9 C8",
                                 "H9 H8 H7 DA DT DK DQ D9 D8 D7"])
    return ["wait_screen game", "tap bid_18", "tap hold", "tap bid_20", "tap pass", "tap pass", "wait_screen declare",
            "tap take_skat", "card C7", "card S7", "tap picker_done", "tap game_clubs", "tap declare",
            "wait_screen play", *cards_steps(order, via="scan"), "wait_screen result",
            f"tap confirm_{mittelhand}", f"tap confirm_{vorhand}"]


# --------------------------------------------------------------------------- the child process


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                                                       "fsmblks", "uordblks", "fordblks", "keepcost")]


def malloc_kib() -> tuple[int, int]:
    """The C heap (glibc's malloc, which Python's own allocator, Kivy, SDL and Mesa draw from):
    KiB in use and KiB free but kept by malloc; (0, 0) without glibc's ``mallinfo2``."""
    try:
        mallinfo2 = ctypes.CDLL(None).mallinfo2
    except (OSError, AttributeError):
        return 0, 0
    mallinfo2.restype = _MallInfo2
    info = mallinfo2()
    return (info.uordblks + info.hblkhd) // 1024, info.fordblks // 1024


HELD_TYPES = ("RowView", "ListLine", "DrawnText")  # what the list's screen and snapshots hold per game


def held_at_the_end() -> dict[str, int]:
    """At the end of the run (it changes what the table froze): the objects in the collector's
    permanent generation (``gc.freeze``) that nothing reachable refers to any more
    (``frozen_garbage``: garbage a full collection would free, were it not frozen), and how
    many objects of :data:`HELD_TYPES` are alive (those the old list's screens held)."""
    gc.collect()  # the garbage among the objects not frozen first
    gc.unfreeze()
    found = gc.collect()
    alive = Counter(type(o).__name__ for o in gc.get_objects())
    gc.freeze()
    return {"frozen_garbage": found, **{name: alive[name] for name in HELD_TYPES}}


class Probe:
    """Takes the marks in the table's process: after each marked step of the script."""

    def __init__(self, marks: dict[int, str], diagnose: bool, diagnose_from: str) -> None:
        self.marks, self.diagnose, self.diagnose_from = marks, diagnose, diagnose_from
        self.samples: list[dict[str, Any]] = []
        self.types_from: Counter[str] | None = None
        self.heap_from: Any = None
        self.growth: dict[str, Any] = {}

    def take(self, runner: Any, index: int) -> None:
        mark = self.marks.get(index)
        if mark is None:
            return
        import tracemalloc

        counters = runner.app.counters
        used, free = malloc_kib()
        sample = {"mark": mark, "rss_kib": rss_kib(), "malloc_used_kib": used, "malloc_free_kib": free, "gc_objects": len(gc.get_objects()),
                  "frozen": gc.get_freeze_count(), "sent": len(counters.sent), "refusals": len(counters.refusals),
                  "at": time.perf_counter()}
        if self.diagnose:
            sample["traced_kib"] = tracemalloc.get_traced_memory()[0] // 1024
            if mark == self.diagnose_from:
                self.types_from = self.type_counts()
                self.heap_from = tracemalloc.take_snapshot()
            elif self.types_from is not None and mark == self.last_game_mark():
                self.growth = self.grown()
        if mark == self.last_mark():
            sample["held"] = held_at_the_end()
        self.samples.append(sample)

    def last_mark(self) -> str:
        return self.marks[max(self.marks)]

    def last_game_mark(self) -> str:
        return max((m for m in self.marks.values() if m.startswith("1:")), key=lambda m: int(m[2:]))

    @staticmethod
    def type_counts() -> Counter[str]:
        return Counter(type(o).__qualname__ for o in gc.get_objects())

    def grown(self) -> dict[str, Any]:
        import tracemalloc

        assert self.types_from is not None
        now = self.type_counts()
        types = sorted(((now[t] - self.types_from.get(t, 0), t) for t in now), reverse=True)[:25]
        stats = tracemalloc.take_snapshot().compare_to(self.heap_from, "lineno")[:25]
        return {"types": [[t, n] for n, t in types if n > 0],
                "lines": [str(s) for s in stats if s.size_diff > 0]}


def child(out: Path, store: Path, script: Path, marks: dict[int, str], *, diagnose: bool, diagnose_from: str) -> int:
    """The table as ``skattisch run --simulate --config`` starts it, the script's marks probed."""
    if diagnose:
        import tracemalloc

        tracemalloc.start(1)
    from ui.table import runner as runner_module

    probe = Probe(marks, diagnose, diagnose_from)
    done = runner_module.ScriptRunner._done

    def probed_done(runner: Any, step: Any, ok: bool, reason: str = "") -> None:
        if ok:
            probe.take(runner, runner.index)
        done(runner, step, ok, reason)

    runner_module.ScriptRunner._done = probed_done  # type: ignore[method-assign]
    config = store.parent / "skattisch.toml"
    config.write_text(f'[store]\npath = "{store}"\n', encoding="utf-8")
    from ui.cli import main as cli

    code = cli(["run", "--simulate", "--config", str(config), "--script", str(script), "--exit-when-done",
                "--seed", "1", "--size", "800x480", "--step-wait", "30"])
    out.write_text(json.dumps({"code": code, "samples": probe.samples, "growth": probe.growth}))
    return code


# --------------------------------------------------------------------------- the parent


@dataclass(frozen=True, slots=True)
class Soak:
    samples: list[dict[str, Any]]
    growth: dict[str, Any]
    first: int
    seconds: float

    def series(self, key: str, list_no: int = 1, start: int = 0) -> list[tuple[int, float]]:
        """(game, value) of list ``list_no`` from game ``start`` on."""
        found = []
        for sample in self.samples:
            number, _, game = sample["mark"].partition(":")
            if number == str(list_no) and int(game) >= start:
                found.append((int(game), float(sample[key])))
        return found

    def at(self, mark: str, key: str = "rss_kib") -> float:
        return float(next(s[key] for s in self.samples if s["mark"] == mark))

    def per_10_games(self, key: str = "rss_kib", list_no: int = 1, start: int = WARM_UP,
                     end: int | None = None) -> float:
        """The least-squares slope of ``key`` over games ``start``..``end`` of list ``list_no``, in
        MiB (of KiB values) per 10 games."""
        points = [(g, v) for g, v in self.series(key, list_no, start) if end is None or g <= end]
        return slope(points) * 10 / 1024


def slope(points: list[tuple[int, float]]) -> float:
    if len(points) < 2:
        return 0.0
    n = len(points)
    mx, my = sum(x for x, _ in points) / n, sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else 0.0


def run(first: int, second: int, *, diagnose: bool = False, keep: Path | None = None) -> Soak:
    from tests.ui.harness import xvfb_display

    with xvfb_display("bench_soak") as display:
        with tempfile.TemporaryDirectory(prefix="skattisch-soak-") as tmp:
            steps, marks = evening_script(first, second)
            script = Path(tmp) / "evening.txt"
            script.write_text("\n".join(steps) + "\n", encoding="utf-8")
            (Path(tmp) / "marks.json").write_text(json.dumps(marks))
            out = Path(tmp) / "result.json"
            env = {**os.environ, "DISPLAY": display, "KIVY_NO_ARGS": "1", "KIVY_HOME": str(Path(tmp) / "kivy"),
                   "XDG_DATA_HOME": str(Path(tmp) / "data"), "XDG_CONFIG_HOME": str(Path(tmp) / "config"),
                   "XDG_CACHE_HOME": str(Path(tmp) / "cache")}
            env.pop("SKATTISCH_CONFIG", None)
            env.pop("PYTHONDONTWRITEBYTECODE", None)  # byte-compiled, as installed
            env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
            began = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-m", "tests.bench.bench_soak", "--child", "--tmp", tmp,
                 "--diagnose-from", f"1:{min(WARM_UP, first)}", *(["--diagnose"] if diagnose else [])],
                cwd=ROOT, env=env, capture_output=True, text=True, timeout=60 * 60)
            if os.environ.get("BENCH_DEBUG"):
                print(done.stderr, file=sys.stderr)
            seconds = time.perf_counter() - began
            if not out.exists() or done.returncode != 0:
                raise SystemExit(f"the soak's table failed ({done.returncode}):\n{done.stdout[-3000:]}\n"
                                 f"{done.stderr[-3000:]}")
            data = json.loads(out.read_text())
            if keep is not None:
                keep.write_text(json.dumps(data, indent=1))
    return Soak(data["samples"], data["growth"], first, seconds)


def report(soak: Soak) -> str:
    first = soak.first
    start = min(WARM_UP, first // 2)
    second = max(g for g, _ in soak.series("rss_kib", 2))
    mib = lambda kib: kib / 1024  # noqa: E731
    later, warm = soak.per_10_games(start=start), soak.per_10_games(start=0, end=start)
    at_warm, at_last, at_end, at_new = soak.at(f"1:{start}"), soak.at(f"1:{first}"), soak.at("end"), soak.at("2:0")
    held = soak.samples[-1]["held"]
    lines = [
        f"soak: a {first}-game list, its series ended, a new list of {second} games; journal store, 800x480, "
        f"full speed ({soak.seconds:.0f} s)",
        f"resident memory (VmRSS), MiB: open {mib(soak.at('1:0')):.1f}, game {start} {mib(at_warm):.1f}, "
        f"game {first} {mib(at_last):.1f}, end screen {mib(at_end):.1f}, new list {mib(at_new):.1f}, "
        f"its game {second} {mib(soak.at(f'2:{second}')):.1f}",
        f"{'':46}{'evening':>9}{'warm-up':>9}{'ratio':>8}",
        f"{f'RSS MiB per 10 games (games {start}-{first}; 0-{start})':<46}{later:>9.2f}{warm:>9.2f}"
        f"{later / warm if warm else 0:>7.2f}x",
        f"goal <= {GOAL_MIB_PER_10} MiB per 10 games over games {start}-{first}: "
        f"{'met' if later <= GOAL_MIB_PER_10 else 'NOT met'}",
        f"the new list gives back {mib(at_end - at_new):.1f} MiB (end screen -> new list); it starts "
        f"{mib(at_new - at_warm):+.1f} MiB from the old list at game {start}",
        f"C heap (malloc) MiB per 10 games, games {start}-{first}: in use "
        f"{soak.per_10_games('malloc_used_kib', start=start):.2f}, free but kept "
        f"{soak.per_10_games('malloc_free_kib', start=start):.2f}",
        f"objects frozen out of the collector: game {start} {soak.at(f'1:{start}', 'frozen'):.0f}, game {first} "
        f"{soak.at(f'1:{first}', 'frozen'):.0f}; of them garbage at the end: {held['frozen_garbage']}",
        "alive at the end (the new list's): " + ", ".join(f"{name} {held[name]}" for name in HELD_TYPES),
        f"the App's commands kept at game {first}: {soak.at(f'1:{first}', 'sent'):.0f}",
    ]
    if "traced_kib" in soak.samples[0]:
        lines.append(f"Python heap (tracemalloc) MiB per 10 games, games {start}-{first}: "
                     f"{soak.per_10_games('traced_kib', start=start):.2f}")
    if soak.growth:
        lines.append(f"grown between game {start} and game {first}, by type (gc.get_objects: the objects not frozen):")
        lines += [f"  {name}: +{count}" for name, count in soak.growth["types"]]
        lines.append("and by line (tracemalloc):")
        lines += [f"  {line}" for line in soak.growth["lines"]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--smoke", action="store_true", help="tiny: a 5-game list, a new list of 1")
    parser.add_argument("--games", type=int, default=100, help="games on the first list")
    parser.add_argument("--second", type=int, default=30, help="games on the new list")
    parser.add_argument("--diagnose", action="store_true", help="what grew (by type, by line): slower")
    parser.add_argument("--keep", type=Path, help="write the samples as JSON here")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--tmp", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--diagnose-from", default=f"1:{WARM_UP}", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        marks = {int(k): v for k, v in json.loads((args.tmp / "marks.json").read_text()).items()}
        return child(args.tmp / "result.json", args.tmp / "store", args.tmp / "evening.txt", marks,
                     diagnose=args.diagnose, diagnose_from=args.diagnose_from)
    first, second = SMOKE if args.smoke else (args.games, args.second)
    soak = run(first, second, diagnose=args.diagnose, keep=args.keep)
    print(report(soak))
    return 0


if __name__ == "__main__":
    sys.exit(main())
