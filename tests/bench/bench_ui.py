"""Benchmark: the table screen against a bare Kivy app that shows one label, under Xvfb.

    .venv/bin/python -m tests.bench.bench_ui            # full run (48-game list, 90 cards)
    .venv/bin/python -m tests.bench.bench_ui --smoke    # tiny, a few seconds

One run measures both apps, each in its own processes (Kivy runs one App per process), on
the same private Xvfb display at 800×480, and prints each figure with its ratio to the bare
app's:

* **cold start**: from starting the process to the first frame on screen after the app is
  up (the first interactive frame). Median of ``--starts`` processes each.
* **card to frame (p99)**: a card is submitted from another thread, as the reader's thread
  does; the time until the frame that shows it is on screen (after the swap). The bare app
  does the same with its label: a value submitted from a thread, taken up by a 30 ms clock
  pump like the table's, shown in the label. The table shows each card in the trick (nine
  tricks), then takes them all back, and again.
* **resident memory after a 48-game list**: VmRSS with a 48-game list open on the list
  screen, against the bare app's VmRSS after its first frame.
* **the store's share** (issue 8): the table's card-to-frame p99 on the real journal store
  against the same table run with the same list in the memory store (``MemoryEventStore``):
  what writing each card durably costs the screen. Goal: ≤ 1.1×.

Software rendering (Mesa llvmpipe under Xvfb) makes the absolute figures slower than on the
Pi's GPU; the ratios are the point.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SIZE = (800, 480)
PUMP_SECONDS = 0.03


# --------------------------------------------------------------------------- the child processes


def _kivy_setup() -> None:
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    os.environ.setdefault("KIVY_CLIPBOARD", "sdl2")
    from kivy.config import Config

    Config.set("graphics", "width", str(SIZE[0]))
    Config.set("graphics", "height", str(SIZE[1]))
    Config.set("graphics", "resizable", "0")
    Config.set("graphics", "vsync", "0")
    Config.set("graphics", "multisamples", "0")
    Config.set("kivy", "log_level", "error")


def rss_kib() -> int:
    """This process's resident memory (VmRSS) in KiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class FlipWatch:
    """Calls the waiting callback after the next buffer swap (the frame is on screen)."""

    def __init__(self) -> None:
        from kivy.core.window import Window

        self.window = Window
        self._flip = Window.flip
        self.waiting: list[Any] = []  # called once, after the next swap
        self.always: list[Any] = []  # called after every swap
        self.first_frame_at: float | None = None
        self._armed = False
        Window.flip = self._flipped

    def arm(self) -> None:
        """The app is up: the next swapped frame is its first interactive one."""
        self._armed = True

    def _flipped(self) -> None:
        self._flip()
        now = time.time()
        if self._armed and self.first_frame_at is None:
            self.first_frame_at = now
        waiting, self.waiting = self.waiting, []
        for callback in waiting + self.always:
            callback(now)


def child_bare(samples: int) -> dict[str, Any]:
    """One label; values come from a thread through a queue pumped every 30 ms."""
    _kivy_setup()
    import queue

    from kivy.app import App
    from kivy.clock import Clock
    from kivy.uix.label import Label

    watch = FlipWatch()
    inbox: queue.SimpleQueue[tuple[str, float]] = queue.SimpleQueue()
    result: dict[str, Any] = {"latencies": []}

    class Bare(App):
        def build(self) -> Label:
            self.label = Label(text="Skattisch", font_size=40)
            Clock.schedule_interval(self.pump, PUMP_SECONDS)
            Clock.schedule_once(self.started, 0)
            return self.label

        def started(self, _dt: float) -> None:
            watch.arm()
            watch.waiting.append(lambda _now: Clock.schedule_once(self.measure_start, 0))

        def measure_start(self, _dt: float) -> None:
            result["first_frame_at"] = watch.first_frame_at
            result["rss_kib"] = rss_kib()
            self.next_sample(0)

        def next_sample(self, n: int) -> None:
            if n >= samples:
                self.stop()
                return
            self.n = n
            value = f"card {n}"
            threading.Thread(target=lambda: inbox.put((value, time.time()))).start()

        def pump(self, _dt: float) -> None:
            while not inbox.empty():
                value, sent = inbox.get()
                self.label.text = value

                def shown(now: float, sent: float = sent) -> None:
                    result["latencies"].append(now - sent)
                    Clock.schedule_once(lambda _dt: self.next_sample(self.n + 1), 0)

                watch.waiting.append(shown)

    Bare().run()
    return result


def child_table(store_dir: str, samples: int, *, memory: bool = False) -> dict[str, Any]:
    """The table app restarted on a store holding a long list, then cards from a reader-like
    thread. ``memory``: the same list copied into the memory store first."""
    _kivy_setup()
    from kivy.clock import Clock

    from device.cards import Card
    from device.hardware import CardScanned
    from device.table import commands as cmd
    from device.table.service import TableService
    from drivers.panel import FakePanel
    from drivers.store import JournalEventStore, MemoryDisk, MemoryEventStore
    from tests.ui.scenarios import play_order
    from ui.table.app import TableApp

    store: JournalEventStore | MemoryEventStore = JournalEventStore(store_dir)
    if memory:
        lists = [(list_id, store.load(list_id)) for list_id in store.list_ids()]
        device = store.device_id
        store.close()
        store = MemoryEventStore(MemoryDisk(device_id=device))
        for list_id, events in lists:
            store.append(list_id, events)
    service = TableService(store, device_id=store.device_id)
    order = play_order("clubs", ["SA ST SK SQ S9 S8 HA HT HK HQ", "CJ SJ HJ DJ CA CT CK CQ C9 C8",
                                 "H9 H8 H7 DA DT DK DQ D9 D8 D7"], tricks=9)
    result: dict[str, Any] = {"latencies": []}
    watch = FlipWatch()
    app: TableApp

    def log(*a: Any) -> None:
        if os.environ.get("BENCH_DEBUG"):
            print("BENCH", *a, file=sys.stderr, flush=True)

    def started(table: TableApp) -> None:
        log("started")
        watch.arm()
        watch.waiting.append(lambda _now: Clock.schedule_once(show_list, 0))

    def show_list(_dt: float) -> None:
        app.show_list()  # the whole list on screen: its widgets count in the memory figure
        watch.waiting.append(lambda _now: Clock.schedule_once(list_shown, 0.05))

    def list_shown(_dt: float) -> None:
        log("list shown")
        result["first_frame_at"] = watch.first_frame_at
        result["rows"] = len(app.snapshot.list.rows)
        result["rss_kib"] = rss_kib()
        app.close_overlay()
        for command in (cmd.Bid(1, 18), cmd.Hold(0), cmd.Bid(1, 20), cmd.Pass(0), cmd.Pass(2), cmd.TakeSkat(),
                        CardScanned(Card.parse("C7")), CardScanned(Card.parse("S7")), cmd.Declare.parse("clubs")):
            app.submit(command, "bench")
        Clock.schedule_once(lambda _dt: play(0), 0.2)

    def play(n: int) -> None:
        if n >= samples:
            app.stop()
            return
        index = n % len(order)
        if index == 0 and n > 0:  # take the nine tricks back and play them again
            for _ in order:
                app.submit(cmd.Undo(), "bench")
            Clock.schedule_once(lambda _dt: send(n, order[index]), 0.2)
            return
        send(n, order[index])

    pending: list[tuple[int, float, str, int]] = []  # (refreshes before, sent at, card, sample)

    def send(n: int, code: str) -> None:
        log("send", n, code, app.snapshot.phase)
        pending.append((app.counters.refreshes, time.time(), code, n))
        threading.Thread(target=app.reader_submit, args=(CardScanned(Card.parse(code), source="reader"),)).start()

    def after_flip(now: float) -> None:
        """The first frame swapped after the refresh that took the card in shows it."""
        if not pending or app.counters.refreshes == pending[0][0]:
            return
        _before, sent, code, n = pending.pop(0)
        play_view = app.snapshot.play
        cards = {c.card for c in play_view.trick.cards} | (
            {c.card for c in play_view.last_trick.cards} if play_view.last_trick else set())
        assert code in cards, f"{code} not on screen"
        result["latencies"].append(now - sent)
        Clock.schedule_once(lambda _dt: play(n + 1), 0)

    watch.always.append(after_flip)
    app = TableApp(service, simulate=True, on_started=started)
    app.panel = FakePanel(app.panel_submit)
    try:
        app.run()
    finally:
        store.close()
    return result


def prepare_store(directory: Path, games: int) -> None:
    """A store holding an open-ended four-player list with ``games`` entries."""
    import random

    from device.table import commands as cmd
    from device.table.service import TableService
    from drivers.store import JournalEventStore

    with JournalEventStore(directory) as store:
        service = TableService(store, device_id=store.device_id, rng=random.Random(1))
        service.handle(cmd.OpenList(("Anna", "Bernd", "Carla", "Dieter"), series_length=None, stake="1/4"))
        for game in range(games):
            _one_game(service, game)
        assert len(service.state.rows) == games


def _one_game(service: Any, game: int) -> None:
    """A declarer game entered by its counted result, confirmed; every fifth one eingepasst."""
    from device.table import commands as cmd

    if game % 5 == 4:
        for passing in (cmd.Pass(1), cmd.Pass(2), cmd.Pass(0)):
            service.handle(passing)
        return
    command: object
    for command in (cmd.Bid(1, 18), cmd.Hold(0), cmd.Pass(1), cmd.Pass(2), cmd.TakeSkat(),
                    cmd.Declare.parse(("clubs", "spades", "hearts", "grand")[game % 4]),
                    cmd.EnterResult(7 if game % 3 else 3, 80 if game % 3 else 40, 1)):
        service.handle(command)
    seats = service.snapshot().result.may_confirm
    for seat in seats[:2]:
        service.handle(cmd.Confirm(seat))
    snap = service.snapshot()
    if snap.result is not None:  # the declarer was not among the first two: confirm him too
        for seat in snap.result.may_confirm:
            service.handle(cmd.Confirm(seat))


# --------------------------------------------------------------------------- the parent


@dataclass(frozen=True, slots=True)
class Figures:
    start_s: float
    p99_s: float
    median_s: float
    rss_mib: float
    samples: int


def _child(kind: str, display: str, store: Path, samples: int) -> tuple[float, dict[str, Any]]:
    with tempfile.TemporaryDirectory(prefix="skattisch-bench-") as tmp:
        out = Path(tmp) / "result.json"
        copy = Path(tmp) / "store"
        shutil.copytree(store, copy, ignore=shutil.ignore_patterns(".lock"))
        env = {**os.environ, "DISPLAY": display, "KIVY_HOME": str(store.parent / "kivy"), "KIVY_NO_ARGS": "1"}
        started = time.time()
        subprocess.run([sys.executable, "-m", "tests.bench.bench_ui", "--child", kind, "--store", str(copy),
                        "--samples", str(samples), "--out", str(out)], cwd=ROOT, env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=180)
        return started, json.loads(out.read_text())


def measure(kind: str, display: str, store: Path, *, games: int, samples: int, starts: int) -> Figures:
    start_times, latencies, rss = [], [], []
    _child(kind, display, store, 1)  # once unmeasured: Kivy sets up its home, the disk cache is warm
    for _ in range(starts):
        spawned, data = _child(kind, display, store, samples)
        start_times.append(data["first_frame_at"] - spawned)
        latencies += data["latencies"]
        rss.append(data["rss_kib"])
        if kind.startswith("table"):
            assert data["rows"] == games, data["rows"]
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(round(0.99 * (len(latencies) - 1))))]
    return Figures(statistics.median(start_times), p99, statistics.median(latencies),
                   statistics.median(rss) / 1024, len(latencies))


def run(*, games: int, samples: int, starts: int) -> tuple[Figures, Figures, Figures]:
    from tests.ui.harness import start_xvfb

    started = start_xvfb()
    if started is None:
        raise SystemExit("Xvfb is needed (apt install xvfb)")
    process, display = started
    try:
        with tempfile.TemporaryDirectory(prefix="skattisch-bench-") as tmp:
            store = Path(tmp) / "store"
            prepare_store(store, games)
            bare = measure("bare", display, store, games=games, samples=samples, starts=starts)
            table = measure("table", display, store, games=games, samples=samples, starts=starts)
            memory = measure("table-memory", display, store, games=games, samples=samples, starts=starts)
    finally:
        process.terminate()
        process.wait(timeout=10)
    return bare, table, memory


def report(bare: Figures, table: Figures, games: int, memory: Figures | None = None) -> str:
    def line(name: str, value: float, base: float, unit: str) -> str:
        return f"{name:<34}{value:>9.3f} {unit:<4}{base:>9.3f} {unit:<4}{value / base:>7.2f}x"

    lines = [
        f"{'':34}{'table':>14}{'bare label':>14}{'ratio':>8}",
        line("cold start to first frame", table.start_s, bare.start_s, "s"),
        line(f"card to frame, p99 ({table.samples} cards)", table.p99_s * 1000, bare.p99_s * 1000, "ms"),
        line("card to frame, median", table.median_s * 1000, bare.median_s * 1000, "ms"),
        line(f"resident memory, {games}-game list", table.rss_mib, bare.rss_mib, "MiB"),
    ]
    if memory is not None:
        lines += [
            "",
            f"{'':34}{'journal':>14}{'memory store':>14}{'ratio':>8}",
            line(f"card to frame, p99, {games}-game list", table.p99_s * 1000, memory.p99_s * 1000, "ms"),
            line("card to frame, median, same list", table.median_s * 1000, memory.median_s * 1000, "ms"),
        ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--smoke", action="store_true", help="tiny: 3 games, 6 cards, one start")
    parser.add_argument("--games", type=int, default=48)
    parser.add_argument("--samples", type=int, default=90, help="cards per process")
    parser.add_argument("--starts", type=int, default=3, help="processes per app")
    parser.add_argument("--child", choices=("bare", "table", "table-memory"), help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    parser.add_argument("--store", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        data = (child_bare(args.samples) if args.child == "bare"
                else child_table(args.store, args.samples, memory=args.child == "table-memory"))
        Path(args.out).write_text(json.dumps(data))
        return 0
    games, samples, starts = (3, 6, 1) if args.smoke else (args.games, args.samples, args.starts)
    bare, table, memory = run(games=games, samples=samples, starts=starts)
    print(report(bare, table, games, memory))
    return 0


if __name__ == "__main__":
    sys.exit(main())
