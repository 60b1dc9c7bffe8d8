"""The card reader: framing (pure), debounce, and the reader over a real pseudo-terminal.

The pty is a real serial device for pyserial. It sits behind a symlink standing in for
``/dev/serial/by-id/...``: unplugging closes the pty and removes the link, replugging points
the link at a new pty. Results are awaited with bounded waits on the Inbox; "nothing else
came" is checked by sending a marker payload and collecting everything up to it (the reader
handles bytes in order, so the marker comes last).
"""

from __future__ import annotations

import doctest
import errno
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import tty
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import drivers.deck
import drivers.reader
from device.cards import Card
from device.hardware import CardScanned, ReaderStatus, UnknownCardScanned
from device.inbox import Inbox
from device.ports import CardReader
from drivers.deck import Deck
from drivers.reader import (
    Backoff,
    BadFrame,
    BarcodeFraming,
    Debouncer,
    Fault,
    Mode,
    Payload,
    Rdm6300Framing,
    ReaderCounters,
    SerialCardReader,
    SerialPort,
    UidFraming,
    find_port,
    open_serial,
    rdm6300_frame,
)

ROOT = Path(__file__).resolve().parents[2]
WAIT = 5.0  # seconds: the bound on any wait for the reader; never reached when things work
FAST_RETRY = Backoff(first=0.005, factor=2.0, cap=0.02)


# -- helpers: a pty serial device, a clock, a reader -----------------------------------------


class PtyDevice:
    """A pseudo-terminal pair acting as a USB serial reader behind a by-id style symlink."""

    def __init__(self, folder: Path, name: str = "usb-Skattisch_Kartenleser_0001-if00") -> None:
        by_id = folder / "serial" / "by-id"
        by_id.mkdir(parents=True, exist_ok=True)
        self.link = by_id / name
        self.master = self.slave = -1
        self.plug()

    @property
    def path(self) -> str:
        return str(self.link)

    def plug(self) -> None:
        """Connect a fresh pty and (re)point the link at it, atomically."""
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # bytes pass unchanged: no CR/LF translation, no echo
        fresh = self.link.with_name(self.link.name + ".new")
        os.symlink(os.ttyname(self.slave), fresh)
        os.replace(fresh, self.link)

    def unplug(self) -> None:
        """The device vanishes: its tty hangs up and its by-id link goes."""
        self._close_fds()
        self.link.unlink()

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def close(self) -> None:
        self._close_fds()
        self.link.unlink(missing_ok=True)

    def _close_fds(self) -> None:
        for fd in (self.master, self.slave):
            if fd >= 0:
                os.close(fd)
        self.master = self.slave = -1


class ReadLog:
    """Opens the real port (pyserial) and notes every byte the reader reads from it.

    This tells a test that the reader has taken bytes off the tty, e.g. to make sure the
    two halves of a frame arrive in separate reads.
    """

    def __init__(self) -> None:
        self.total = 0
        self._changed = threading.Condition()

    def open(self, url: str, baud: int) -> SerialPort:
        return _LoggedPort(open_serial(url, baud), self)

    def noted(self, n: int) -> None:
        with self._changed:
            self.total += n
            self._changed.notify_all()

    def wait_for(self, total: int) -> None:
        """Wait (bounded) until the reader has read ``total`` bytes in all."""
        with self._changed:
            assert self._changed.wait_for(lambda: self.total >= total, timeout=WAIT), (
                f"the reader read {self.total} bytes, not {total}")


class _LoggedPort:
    def __init__(self, port: SerialPort, log: ReadLog) -> None:
        self._port = port
        self._log = log

    @property
    def in_waiting(self) -> int:
        return self._port.in_waiting

    def read(self, size: int = 1) -> bytes:
        data = self._port.read(size)
        self._log.noted(len(data))
        return data

    def cancel_read(self) -> None:
        self._port.cancel_read()  # type: ignore[attr-defined]

    def close(self) -> None:
        self._port.close()


class FakeClock:
    """The debouncer's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def take(inbox: Inbox[object], n: int = 1) -> list[object]:
    """The next ``n`` commands, each awaited for at most WAIT seconds."""
    items: list[object] = []
    for _ in range(n):
        item = inbox.get(timeout=WAIT)
        assert item is not None, f"waited {WAIT}s for a command; got so far {items}"
        items.append(item)
    return items


def take_status(inbox: Inbox[object], connected: bool) -> ReaderStatus:
    (status,) = take(inbox)
    assert isinstance(status, ReaderStatus) and status.connected is connected, status
    return status


class Marker:
    """Distinct payloads to send after a test's bytes: what comes before the marker is all."""

    def __init__(self, mode: Mode) -> None:
        self.mode = mode
        self.count = 0

    def bytes(self) -> tuple[str, bytes]:
        self.count += 1
        if self.mode is Mode.RDM6300:
            raw = f"FF{self.count:08X}"
            return raw, rdm6300_frame(raw)
        raw = f"MARK{self.count}" if self.mode is Mode.BARCODE else f"FFFFFF{self.count:02X}"
        return raw, raw.encode() + b"\n"


def until_marker(device: PtyDevice, inbox: Inbox[object], marker: Marker) -> list[object]:
    """Send a marker; return every command that came before it."""
    raw, data = marker.bytes()
    device.write(data)
    items: list[object] = []
    while True:
        (item,) = take(inbox)
        if isinstance(item, UnknownCardScanned) and item.raw == raw:
            return items
        items.append(item)


def reader_threads(port: str) -> list[threading.Thread]:
    """The live reader threads of a port (their names carry the port)."""
    return [t for t in threading.enumerate() if t.name == f"card reader {port}" and t.is_alive()]


def cards(items: list[object]) -> list[str]:
    return [i.card.code for i in items if isinstance(i, CardScanned)]


def bare(counters: ReaderCounters, **expected: int) -> None:
    """Counters as expected (the markers' frames and unknowns taken off)."""
    got = {name: getattr(counters, name) for name in expected}
    assert got == expected, counters


DECK = Deck({"0A00C4E1F2": "CJ", "0A00C4E1F3": "SJ", "0A00C4E1F4": "HA", "0A00C4E1F5": "D7"}, source="test-deck")
TAG = {code: payload for payload, code in DECK.to_json()["cards"].items()}


@pytest.fixture
def device(tmp_path: Path) -> Iterator[PtyDevice]:
    dev = PtyDevice(tmp_path)
    yield dev
    dev.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def read_log() -> ReadLog:
    return ReadLog()


@pytest.fixture
def open_reader(
    device: PtyDevice, clock: FakeClock, read_log: ReadLog
) -> Iterator[Callable[..., tuple[SerialCardReader, Inbox[object]]]]:
    readers: list[SerialCardReader] = []

    def make(mode: Mode = Mode.RDM6300, **options: Any) -> tuple[SerialCardReader, Inbox[object]]:
        # These tests send each frame once: the two-frame rule has tests of its own
        # (test_reader_integrity.py), which pass confirm= themselves.
        options.setdefault("confirm", 0.0)
        options.setdefault("deck", DECK)
        options.setdefault("clock", clock)
        options.setdefault("backoff", FAST_RETRY)
        options.setdefault("open_port", read_log.open)
        reader = SerialCardReader(options.pop("port", device.path), mode=mode, **options)
        readers.append(reader)
        inbox: Inbox[object] = Inbox()
        port: CardReader = reader  # the service sees it through the port
        port.start(inbox.submit)
        return reader, inbox

    yield make
    for reader in readers:
        reader.close()


# -- framing, pure ---------------------------------------------------------------------------


def test_barcode_lines_end_in_cr_lf_or_crlf_and_crlf_gives_no_empty_line() -> None:
    frames = BarcodeFraming.decode(b"CJ\r", b"SA\n", b"HT\r\n", b"D7\r", b"\n", b"\r\nC8\n")
    assert frames == [Payload("CJ"), Payload("SA"), Payload("HT"), Payload("D7"), Payload("C8")]


def test_barcode_line_pieces_join_and_blanks_around_are_dropped() -> None:
    assert BarcodeFraming.decode(b"  4006", b"381333931 \r", b"\n") == [Payload("4006381333931")]


def test_barcode_garbage_is_reported_and_the_next_line_still_reads() -> None:
    long_line = b"x" * (BarcodeFraming.MAX_LENGTH + 40)
    frames = BarcodeFraming.decode(b"C\x00J\n", long_line[:100], long_line[100:] + b"\nSA\n")
    assert [type(f) for f in frames] == [BadFrame, BadFrame, Payload]
    assert all(f.fault is Fault.GARBAGE for f in frames[:2] if isinstance(f, BadFrame))
    assert frames[2] == Payload("SA")


def test_unfinished_line_is_garbage_on_reset() -> None:
    frames: list[object] = []
    framing = BarcodeFraming(frames.append)
    framing.feed(b"CJ\nS")
    framing.reset()
    framing.feed(b"A\n")
    assert frames[0] == Payload("CJ")
    assert isinstance(frames[1], BadFrame) and frames[1].data == b"S"
    assert frames[2] == Payload("A")  # the tail alone: never joined up into "SA"


def test_rdm6300_good_frame_and_known_checksum() -> None:
    # XOR of 01 02 03 04 05 is 01: worked by hand, not by the code under test.
    assert rdm6300_frame("0102030405") == b"\x02" + b"0102030405" + b"01" + b"\x03"
    assert Rdm6300Framing.decode(b"\x02010203040501\x03") == [Payload("0102030405")]


def test_rdm6300_bad_checksum_is_dropped_as_checksum_error() -> None:
    (frame,) = Rdm6300Framing.decode(b"\x02010203040502\x03")
    assert isinstance(frame, BadFrame) and frame.fault is Fault.CHECKSUM
    assert frame.data == b"\x02010203040502\x03"


def test_rdm6300_frame_split_anywhere_and_two_in_one_read() -> None:
    a, b = rdm6300_frame("0A00C4E1F2"), rdm6300_frame("0A00C4E1F3")
    for cut in range(1, len(a)):
        assert Rdm6300Framing.decode(a[:cut], a[cut:]) == [Payload("0A00C4E1F2")]
    assert Rdm6300Framing.decode(a + b) == [Payload("0A00C4E1F2"), Payload("0A00C4E1F3")]
    assert Rdm6300Framing.decode(*(bytes([x]) for x in a + b)) == [Payload("0A00C4E1F2"), Payload("0A00C4E1F3")]


def test_rdm6300_resyncs_after_garbage_and_broken_frames() -> None:
    good = rdm6300_frame("0A00C4E1F4")
    frames = Rdm6300Framing.decode(
        b"noise" + good  # garbage before a frame
        + b"\x020A00C4" + good  # a frame cut short by the next STX
        + b"\x020A00C4E1F4ZZZZ\x03" + good  # no ETX after 12 characters
        + b"\x020A00C4E1F4G1\x03" + good  # not hex
        + good + b"\r\n" + good  # CRLF after ETX (some clones): not garbage
    )
    payloads = [f for f in frames if isinstance(f, Payload)]
    bad = [f for f in frames if isinstance(f, BadFrame)]
    assert payloads == [Payload("0A00C4E1F4")] * 6
    assert [f.fault for f in bad] == [Fault.GARBAGE] * 5  # the ZZ\x03 after the 13th byte too
    assert bad[0].data == b"noise"


def test_rdm6300_lower_case_hex_reads_as_upper_case() -> None:
    assert Rdm6300Framing.decode(rdm6300_frame("0a00c4e1f2").lower()) == [Payload("0A00C4E1F2")]


def test_uid_lines_in_common_forms() -> None:
    frames = UidFraming.decode(b"04:A2:3B:1C\r\nuid: 04 a2 3b 1c 5d 6e 80\n0x04A23B1C\nCJ\n04A\n")
    assert frames[:3] == [Payload("04A23B1C"), Payload("04A23B1C5D6E80"), Payload("04A23B1C")]
    assert [f.fault for f in frames[3:] if isinstance(f, BadFrame)] == [Fault.GARBAGE, Fault.GARBAGE]


def test_debouncer_window_runs_from_last_sighting_per_key() -> None:
    d = Debouncer(1.0)
    assert d.accept("CJ", 0.0) and d.accept("SA", 0.1)
    assert not d.accept("CJ", 0.9)  # lying on the reader
    assert not d.accept("CJ", 1.8)  # still lying: 0.9 s since the last frame
    assert d.accept("CJ", 2.9)  # lifted, laid again later
    assert not d.accept("SA", 0.2)
    assert Debouncer(0.0).accept("CJ", 5.0) and Debouncer(0.0).accept("CJ", 5.0)
    with pytest.raises(ValueError):
        Debouncer(-1)


def test_debouncer_forgets_old_keys_but_not_recent_ones() -> None:
    d = Debouncer(1.0)
    for i in range(1000):
        assert d.accept(i, i * 0.01)
    assert not d.accept(999, 10.0)
    assert len(d._seen) <= Debouncer._PRUNE_AT + 1


def test_backoff_grows_to_its_cap() -> None:
    delays = Backoff(first=0.1, factor=3.0, cap=1.0).delays()
    assert [next(delays) for _ in range(5)] == pytest.approx([0.1, 0.3, 0.9, 1.0, 1.0])


def test_find_port_takes_the_only_by_id_device(tmp_path: Path) -> None:
    assert find_port(tmp_path / "absent") is None
    assert find_port(tmp_path) is None
    (tmp_path / "usb-a").touch()
    assert find_port(tmp_path) == str(tmp_path / "usb-a")
    (tmp_path / "usb-b").touch()
    assert find_port(tmp_path) is None


@pytest.mark.parametrize("module", [drivers.reader, drivers.deck])
def test_the_examples_in_the_docstrings_hold(module: ModuleType) -> None:
    # pytest's --doctest-modules covers device/ only (pyproject's testpaths), so run them here.
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


def test_importing_the_reader_opens_nothing() -> None:
    code = "import sys, drivers.reader, drivers.deck; sys.exit('serial' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0


# -- the reader over a pty -------------------------------------------------------------------


def test_barcode_reader_reads_each_line_ending_over_a_pty(
    device: PtyDevice, open_reader: Any, read_log: ReadLog
) -> None:
    reader, inbox = open_reader(Mode.BARCODE, deck=None)
    take_status(inbox, connected=True)
    device.write(b"CJ\rsa\nHT\r\n")
    read_log.wait_for(10)
    device.write(b"\n\r\nD7\r")  # the LF of a CRLF split off into the next read
    items = until_marker(device, inbox, Marker(Mode.BARCODE))
    assert items == [CardScanned(Card.parse(c), raw=r) for c, r in
                     [("CJ", "CJ"), ("SA", "sa"), ("HT", "HT"), ("D7", "D7")]]
    bare(reader.counters, cards=4, garbage=0, repeats=0)


def test_rdm6300_reader_good_bad_split_double_and_garbage(
    device: PtyDevice, open_reader: Any, read_log: ReadLog
) -> None:
    reader, inbox = open_reader()
    take_status(inbox, connected=True)
    device.write(rdm6300_frame(TAG["CJ"]))
    bad_checksum = bytearray(rdm6300_frame(TAG["SJ"]))
    bad_checksum[-2] ^= 0x01
    device.write(bytes(bad_checksum))
    split = rdm6300_frame(TAG["SJ"])
    device.write(split[:6])
    read_log.wait_for(3 * 14 - 8)  # the first half surely is a read of its own
    device.write(split[6:])
    device.write(b"\xff\x00garbage" + rdm6300_frame(TAG["HA"]) + rdm6300_frame(TAG["D7"]))
    items = until_marker(device, inbox, Marker(Mode.RDM6300))
    assert cards(items) == ["CJ", "SJ", "HA", "D7"]
    assert all(isinstance(i, CardScanned) and i.raw == TAG[i.card.code] for i in items)
    bare(reader.counters, cards=4, checksum_errors=1, garbage=1, repeats=0)


def test_unknown_tag_is_submitted_as_unknown_not_dropped(device: PtyDevice, open_reader: Any) -> None:
    _, inbox = open_reader()
    take_status(inbox, connected=True)
    device.write(rdm6300_frame("0BADC0FFEE"))
    (item,) = take(inbox)
    assert isinstance(item, UnknownCardScanned) and item.raw == "0BADC0FFEE"
    assert "0BADC0FFEE" in item.reason and "test-deck" in item.reason


def test_repeats_within_the_window_count_once_and_after_it_again(
    device: PtyDevice, open_reader: Any, clock: FakeClock, read_log: ReadLog
) -> None:
    reader, inbox = open_reader(debounce=1.0)
    marker = Marker(Mode.RDM6300)
    take_status(inbox, connected=True)
    frame = rdm6300_frame(TAG["CJ"])
    for n in range(1, 6):  # the tag lies on the reader for 2 s, a frame every 0.5 s
        device.write(frame)
        read_log.wait_for(n * 14)
        clock.advance(0.5)
    assert cards(until_marker(device, inbox, marker)) == ["CJ"]
    clock.advance(1.0)  # lifted for a while, then laid again
    device.write(frame + rdm6300_frame(TAG["SJ"]) + frame)
    assert cards(until_marker(device, inbox, marker)) == ["CJ", "SJ"]
    bare(reader.counters, cards=3, repeats=5)


def test_unplug_and_replug_lose_and_double_nothing(
    device: PtyDevice, open_reader: Any, clock: FakeClock, read_log: ReadLog
) -> None:
    reader, inbox = open_reader(debounce=1.0)
    marker = Marker(Mode.RDM6300)
    up = take_status(inbox, connected=True)
    assert up.port == device.path and reader.is_connected
    device.write(rdm6300_frame(TAG["CJ"]) + rdm6300_frame(TAG["SJ"]))
    assert cards(take(inbox, 2)) == ["CJ", "SJ"]
    device.write(rdm6300_frame(TAG["HA"])[:7])  # the plug is pulled in the middle of a frame
    read_log.wait_for(2 * 14 + 7)

    device.unplug()
    down = take_status(inbox, connected=False)
    assert down.port == device.path and down.detail
    device.plug()  # the by-id link now points at another tty
    take_status(inbox, connected=True)
    assert reader.is_connected

    clock.advance(0.5)
    device.write(rdm6300_frame(TAG["HA"])[7:])  # the rest of the cut frame: it joins no head
    device.write(rdm6300_frame(TAG["SJ"]))  # SJ still lies on the reader: held, not doubled
    device.write(rdm6300_frame(TAG["D7"]))
    assert cards(until_marker(device, inbox, marker)) == ["D7"]
    device.write(rdm6300_frame(TAG["HA"]))  # HA laid again, whole this time
    assert cards(until_marker(device, inbox, marker)) == ["HA"]
    bare(reader.counters, cards=4, repeats=0, held=1, disconnects=1, garbage=2)  # the cut frame's head and tail


def test_reader_waits_for_a_device_plugged_in_later(tmp_path: Path, open_reader: Any) -> None:
    device = PtyDevice(tmp_path / "later")
    device.unplug()
    try:
        _, inbox = open_reader(port=device.path)
        down = take_status(inbox, connected=False)
        assert "nicht erreichbar" in down.detail
        device.plug()
        take_status(inbox, connected=True)
        device.write(rdm6300_frame(TAG["D7"]))
        assert cards(take(inbox)) == ["D7"]
    finally:
        device.close()


def test_a_denied_port_is_reported_and_retried_until_it_opens(
    device: PtyDevice, open_reader: Any, read_log: ReadLog
) -> None:
    # what the kernel answers a service user outside the group that owns the tty (dialout):
    # the reader says so, keeps its thread and reads once the permission is there (udev, a group)
    denied = [2]

    def open_port(port: str, baud: int) -> Any:
        if denied[0]:
            denied[0] -= 1
            raise PermissionError(errno.EACCES, "Permission denied", port)
        return read_log.open(port, baud)

    reader, inbox = open_reader(open_port=open_port)
    down = take_status(inbox, connected=False)
    assert "nicht erreichbar" in down.detail and "Permission denied" in down.detail
    take_status(inbox, connected=True)
    assert denied == [0] and reader.failure is None
    device.write(rdm6300_frame(TAG["D7"]))
    assert cards(take(inbox)) == ["D7"]


def test_several_unplugs_each_report_once(device: PtyDevice, open_reader: Any, clock: FakeClock) -> None:
    reader, inbox = open_reader()
    take_status(inbox, connected=True)
    for code in ("CJ", "SJ", "HA"):
        device.unplug()
        take_status(inbox, connected=False)
        device.plug()
        take_status(inbox, connected=True)
        clock.advance(5.0)
        device.write(rdm6300_frame(TAG[code]))
        assert cards(take(inbox)) == [code]
    assert reader.counters.disconnects == 3


def test_close_is_idempotent_and_stops_the_thread_blocked_in_a_read(device: PtyDevice, open_reader: Any) -> None:
    reader, inbox = open_reader()
    take_status(inbox, connected=True)
    assert reader_threads(device.path)  # blocked in a read with nothing to read
    reader.close()
    reader.close()
    assert not reader_threads(device.path)
    assert not reader.is_connected
    device.write(rdm6300_frame(TAG["CJ"]))
    assert inbox.drain() == []  # nothing reads any more (the pty keeps the byte)
    with pytest.raises(RuntimeError):
        reader.start(inbox.submit)


def test_close_while_waiting_for_an_absent_port(tmp_path: Path) -> None:
    reader = SerialCardReader(str(tmp_path / "absent"), backoff=Backoff(first=30.0, cap=30.0))
    inbox: Inbox[object] = Inbox()
    with reader:
        reader.start(inbox.submit)
        take_status(inbox, connected=False)
        assert reader_threads(reader.port)  # waiting 30 s before the next try
    assert not reader_threads(reader.port)


def test_context_manager_and_close_before_start(device: PtyDevice) -> None:
    SerialCardReader(device.path).close()
    inbox: Inbox[object] = Inbox()
    with SerialCardReader(device.path, mode="barcode") as reader:
        reader.start(inbox.submit)
        take_status(inbox, connected=True)
        device.write(b"SA\n")
        assert cards(take(inbox)) == ["SA"]
    assert not reader.is_connected


def test_a_bad_url_is_reported_and_not_retried(open_reader: Any) -> None:
    _, inbox = open_reader(port="nosuchscheme://reader")
    down = take_status(inbox, connected=False)
    assert "nosuchscheme" in down.detail


def test_pyserial_url_spy_logs_the_traffic(device: PtyDevice, open_reader: Any, tmp_path: Path) -> None:
    log = tmp_path / "spy.txt"
    _, inbox = open_reader(port=f"spy://{device.path}?file={log}")
    take_status(inbox, connected=True)
    device.write(rdm6300_frame(TAG["HA"]))
    assert cards(take(inbox)) == ["HA"]
    assert "0A00C4E1F4" in log.read_text()


def test_a_failing_submit_does_not_stop_the_reader(device: PtyDevice, clock: FakeClock) -> None:
    inbox: Inbox[object] = Inbox()
    failures: list[CardScanned] = []

    def flaky(command: object) -> None:
        if isinstance(command, CardScanned) and command.card.code == "CJ" and not failures:
            failures.append(command)
            raise RuntimeError("the service fell over")
        inbox.submit(command)

    with SerialCardReader(device.path, mode=Mode.RDM6300, deck=DECK, clock=clock) as reader:
        reader.start(flaky)
        take_status(inbox, connected=True)
        device.write(rdm6300_frame(TAG["CJ"]) * 2 + rdm6300_frame(TAG["SJ"]) * 2)  # the default two-frame rule
        assert cards(take(inbox)) == ["SJ"]
    assert len(failures) == 1


def test_bad_frames_reach_the_watcher(device: PtyDevice, open_reader: Any) -> None:
    seen: queue.SimpleQueue[BadFrame] = queue.SimpleQueue()
    _, inbox = open_reader(on_bad_frame=seen.put)
    take_status(inbox, connected=True)
    device.write(b"\x020A00C4E1F2FF\x03")
    frame = seen.get(timeout=WAIT)
    assert frame.fault is Fault.CHECKSUM and frame.data == b"\x020A00C4E1F2FF\x03"


# -- skattisch reader-test -------------------------------------------------------------------


class Cli:
    """``skattisch ARGS`` as a subprocess; its stdout read line by line with bounded waits.
    Each of its pipes is read by a thread of its own to its end, and only by that thread (a
    ``communicate()`` beside the stdout thread closed the pipe under it at the test's end)."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "ui.cli", *args], cwd=ROOT, text=True,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        self._lines: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._err: list[str] = []
        self._readers = [threading.Thread(target=self._pump, daemon=True),
                         threading.Thread(target=self._read_err, daemon=True)]
        for reader in self._readers:
            reader.start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line.rstrip("\n"))
        self._lines.put(None)

    def _read_err(self) -> None:
        assert self.proc.stderr is not None
        self._err.append(self.proc.stderr.read())

    def _ended(self) -> None:
        """Wait for the process and for both pipes read to their end."""
        self.proc.wait(timeout=WAIT)
        for reader in self._readers:
            reader.join(timeout=WAIT)

    def line(self) -> str:
        try:
            line = self._lines.get(timeout=WAIT)
        except queue.Empty:
            raise AssertionError(f"no output from skattisch within {WAIT}s") from None
        assert line is not None, f"skattisch ended early: {self.finish()}"
        return line

    def json(self) -> dict[str, Any]:
        result: dict[str, Any] = json.loads(self.line())
        return result

    def interrupt(self) -> tuple[int, str]:
        self.proc.send_signal(signal.SIGINT)
        return self.finish()

    def finish(self) -> tuple[int, str]:
        self._ended()
        return self.proc.returncode, "".join(self._err)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self._ended()


@pytest.fixture
def cli() -> Iterator[Callable[..., Cli]]:
    started: list[Cli] = []

    def start(*args: str) -> Cli:
        started.append(Cli(*args))
        return started[-1]

    yield start
    for c in started:
        c.kill()


def test_reader_test_prints_json_lines_and_exits_0_on_ctrl_c(device: PtyDevice, cli: Any, tmp_path: Path) -> None:
    deck_file = tmp_path / "deck.json"
    DECK.save(deck_file)
    run = cli("reader-test", "--port", device.path, "--mode", "rdm6300", "--deck", str(deck_file),
              "--debounce-ms", "60000")
    up = run.json()
    assert up["reader"] == "connected" and up["port"] == device.path and "time" in up
    device.write(rdm6300_frame(TAG["CJ"]) * 4)  # lying on the reader: once
    device.write(b"\x020A00C4E1F2FF\x03")
    device.write(rdm6300_frame("0BADC0FFEE") * 2)  # two identical frames make a read
    device.write(b"zz" + rdm6300_frame(TAG["SJ"]) * 2)
    lines = [run.json() for _ in range(5)]
    assert {k: lines[0][k] for k in ("card", "raw", "name")} == {"card": "CJ", "raw": TAG["CJ"], "name": "Kreuz Bube"}
    assert lines[1]["kind"] == "checksum" and lines[1]["raw"] == "\x020A00C4E1F2FF\x03" and lines[1]["error"]
    assert lines[2]["kind"] == "unknown" and lines[2]["raw"] == "0BADC0FFEE"
    assert lines[3]["kind"] == "garbage" and lines[3]["raw"] == "zz"
    assert lines[4]["card"] == "SJ"
    assert all("time" in line for line in lines)
    code, err = run.interrupt()
    assert code == 0, err
    assert "Traceback" not in err and "2 Karten" in err and "2 Wiederholungen" in err


def test_reader_test_reports_unplug_and_replug(device: PtyDevice, cli: Any) -> None:
    run = cli("reader-test", "--port", device.path, "--mode", "barcode")
    assert run.json()["reader"] == "connected"
    device.unplug()
    assert run.json()["reader"] == "disconnected"
    device.plug()
    assert run.json()["reader"] == "connected"
    device.write(b"hA\r\n")
    assert run.json()["card"] == "HA"
    assert run.interrupt()[0] == 0


def test_reader_test_refuses_a_bad_deck_naming_it(device: PtyDevice, cli: Any, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"v": 1, "cards": {"0A00C4E1F2": "XJ"}}')
    code, err = cli("reader-test", "--port", device.path, "--deck", str(bad)).finish()
    assert code == 2 and str(bad) in err and "0A00C4E1F2" in err and "XJ" in err


@pytest.mark.parametrize("baud", ["7", "9601", "0", "fast"])
def test_reader_test_refuses_a_baud_rate_no_serial_reader_uses_naming_the_usual_ones(baud: str, cli: Any) -> None:
    code, err = cli("reader-test", "--port", "/nonexistent/tty", "--baud", baud).finish()
    assert code == 2 and "Traceback" not in err
    last = err.strip().splitlines()[-1]
    assert "--baud" in last and baud in last and "9600" in last and "1200" in last and "115200" in last, err


def test_reader_test_takes_a_standard_baud_rate(device: PtyDevice, cli: Any) -> None:
    run = cli("reader-test", "--port", device.path, "--baud", "115200")
    assert run.json()["reader"] == "connected"
    assert run.interrupt()[0] == 0
