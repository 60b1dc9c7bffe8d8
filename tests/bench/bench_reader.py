"""Card reader latency (the reader's benchmark, against the two-frame rule): tag laid -> command queued.

Over a real pseudo-terminal read by pyserial, one card at a time. An RDM6300 repeats its frame
while the tag lies on it, and the reader accepts a tag only after two identical frames (issue
13): write the first frame to the pty master, note the time when the write returns (its last
byte is in: the earliest the card could be known), write the second frame one wire time later
(back to back, as the reader sends them), and wait for the reader's ``CardScanned`` in the
service's :class:`~device.inbox.Inbox`. Barcode lines are sent once (no rule for them). The
debounce window is 0 so every read counts (the debouncer still runs). Figures are
p50/p99/max and their ratio to the baseline: the frame's wire time at 9600 baud (10 bits a
byte; 14 bytes for an RDM6300 frame, about 14.6 ms). With the rule the latency is one wire
time (the second frame) plus what the software adds, so ~1.0x is the floor; ``--confirm-ms 0``
measures the single-frame reader for comparison (``main`` runs both for RDM6300).

    .venv/bin/python -m tests.bench.bench_reader                  # 10,000 reads, RDM6300 frames
    .venv/bin/python -m tests.bench.bench_reader --reads 2000 --mode barcode
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import tty

from device.cards import DECK
from device.hardware import CardScanned, ReaderStatus
from device.inbox import Inbox
from drivers.deck import Deck
from drivers.reader import Mode, SerialCardReader, rdm6300_frame

WIRE_BAUD = 9600
BITS_PER_BYTE = 10  # start + 8 data + stop
TIMEOUT = 5.0


def wire_time(frame: bytes, baud: int = WIRE_BAUD) -> float:
    """Seconds the frame takes on the wire at ``baud``."""
    return len(frame) * BITS_PER_BYTE / baud


def frames_for(mode: Mode) -> tuple[Deck | None, list[tuple[str, bytes]]]:
    """One frame per card: (card code, bytes as the reader sends them)."""
    if mode is Mode.RDM6300:
        tags = [f"0A0000{i:04X}" for i in range(len(DECK))]
        return Deck(zip(tags, DECK)), [(c.code, rdm6300_frame(t)) for t, c in zip(tags, DECK)]
    return None, [(c.code, c.code.encode() + b"\r\n") for c in DECK]


def measure(reads: int, mode: Mode = Mode.RDM6300, confirm: float | None = None) -> dict[str, float]:
    """Latencies of ``reads`` cards; ``confirm`` is the reader's two-frame window (None: the
    mode's default). When the rule is on, each card's frame is sent twice, one wire time apart."""
    deck, frames = frames_for(mode)
    master, slave = os.openpty()
    tty.setraw(slave)
    inbox: Inbox[object] = Inbox()
    latencies: list[float] = []
    extra = 0  # frames sent beyond two because the first two did not confirm in time
    window = mode.default_confirm if confirm is None else confirm
    try:
        with SerialCardReader(os.ttyname(slave), mode=mode, baud=WIRE_BAUD, deck=deck, debounce=0.0,
                              confirm=window) as reader:
            reader.start(inbox.submit)
            status = inbox.get(timeout=TIMEOUT)
            if not (isinstance(status, ReaderStatus) and status.connected):
                raise RuntimeError(f"the reader did not connect: {status!r}")
            for i in range(reads):
                code, frame = frames[i % len(frames)]
                os.write(master, frame)
                written = time.perf_counter()
                if window:
                    _until(written + wire_time(frame))  # the repeat's last byte is on the wire
                    os.write(master, frame)
                command = inbox.get(timeout=TIMEOUT if not window else window + 0.05)
                while command is None and window and extra < reads:  # as the tag still lies there
                    extra += 1  # the reader thread was held up past the window: a third frame
                    os.write(master, frame)
                    command = inbox.get(timeout=TIMEOUT)
                latencies.append(time.perf_counter() - written)
                if not (isinstance(command, CardScanned) and command.card.code == code):
                    raise RuntimeError(f"read {i}: expected {code}, got {command!r}")
    finally:
        os.close(master)
        os.close(slave)
    q = statistics.quantiles(latencies, n=100, method="inclusive")
    return {
        "reads": reads, "frame_bytes": len(frames[0][1]), "wire_s": wire_time(frames[0][1]), "confirm_s": window, "extra_frames": extra,
        "p50_s": q[49], "p99_s": q[98], "max_s": max(latencies), "mean_s": statistics.fmean(latencies),
    }


def _until(deadline: float) -> None:
    """Wait until ``deadline`` (perf_counter): sleep most of it, spin the rest for precision."""
    while (left := deadline - time.perf_counter()) > 0:
        if left > 0.002:
            time.sleep(left - 0.001)


def report(figures: dict[str, float], mode: Mode = Mode.RDM6300) -> str:
    wire = figures["wire_s"]
    rule = (f"two identical frames within {figures['confirm_s'] * 1000:.0f} ms, the second one wire time "
            f"after the first ({int(figures['extra_frames'])} cards needed a third)"
            if figures["confirm_s"] else "each frame counts (no two-frame rule)")
    out = [f"{int(figures['reads'])} reads, {mode.value} frames of {int(figures['frame_bytes'])} bytes, "
           f"pty -> pyserial -> Inbox; {rule}; baseline: wire time at {WIRE_BAUD} baud = {wire * 1000:.1f} ms"]
    for name in ("p50", "p99", "max", "mean"):
        seconds = figures[f"{name}_s"]
        out.append(f"  {name:5s} {seconds * 1000:8.3f} ms   {seconds / wire:7.3f} x wire time")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reads", type=int, default=10_000)
    parser.add_argument("--mode", choices=[m.value for m in Mode], default=Mode.RDM6300.value)
    parser.add_argument("--confirm-ms", type=int, default=None,
                        help="the two-frame window (default: the mode's; for rdm6300 also a run with 0)")
    args = parser.parse_args(argv)
    mode = Mode(args.mode)
    windows = [None if args.confirm_ms is None else args.confirm_ms / 1000]
    if args.confirm_ms is None and mode.default_confirm:
        windows.append(0.0)  # the same run measures the single-frame reader for comparison
    print("\n".join(report(measure(args.reads, mode, window), mode) for window in windows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
