"""The serial card reader: barcode scanners and RFID readers behind a serial port.

(One module over 600 lines on purpose: the one reader adapter, its three layers below each usable
alone and tested alone.)

Three layers, each usable alone:

1. **Framing** (pure, no port): a :class:`Framing` turns the bytes read into frames and hands
   each to its hook, as pyserial's ``serial.threaded`` protocols do, but typed. There is one per
   :class:`Mode`: :class:`BarcodeFraming` (a line per card ending in CR, LF or CRLF),
   :class:`UidFraming` (an NFC reader's hex UID per line) and :class:`Rdm6300Framing`
   (125 kHz frames ``STX`` + 10 hex + 2 hex XOR checksum + ``ETX``).
2. **Confirmer** and **Debouncer** (pure, clock given): a payload counts only when the frame
   before it, within a short window, was the same (RDM6300 by default: one checksum byte lets
   some two-bit errors through as another card); a card seen again within the window counts once.
3. :class:`SerialCardReader`: a thread that opens the port (a path such as
   ``/dev/serial/by-id/usb-...``, or any pyserial URL such as ``spy:///dev/ttyUSB0``), feeds the
   framing, looks payloads up in the :class:`~drivers.deck.Deck`, debounces, and submits
   :mod:`device.hardware` commands; it reconnects after an unplug. Nothing opens a port before
   :meth:`SerialCardReader.start`.

>>> frames = Rdm6300Framing.decode(rdm6300_frame("0A00C4E1F2") + b"junk" + rdm6300_frame("0102030405"))
>>> [str(f) for f in frames]
['0A00C4E1F2', 'garbage: 4 bytes outside a frame', '0102030405']
>>> BarcodeFraming.decode(b"CJ\\r\\nsa\\n\\r")
[Payload(raw='CJ'), Payload(raw='sa')]
"""

from __future__ import annotations

import abc
import enum
import functools
import logging
import operator
import re
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, ClassVar, Protocol

from device.errors import SkatError
from device.hardware import CardScanned, ReaderStatus, UnknownCardScanned
from drivers.barcode import Symbology, check_line
from drivers.deck import Deck, normalize_payload

log = logging.getLogger(__name__)


# -- frames -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Payload:
    """A well-formed frame's payload: a barcode's text or a tag's UID in upper-case hex."""

    raw: str

    def __str__(self) -> str:
        return self.raw


class Fault(enum.Enum):
    CHECKSUM = "checksum"
    GARBAGE = "garbage"


@dataclass(frozen=True, slots=True)
class BadFrame:
    """Bytes that are no card: a frame with a wrong checksum, or garbage. ``detail`` says why."""

    fault: Fault
    data: bytes
    detail: str

    def __str__(self) -> str:
        return f"{self.fault.value}: {self.detail}"


Frame = Payload | BadFrame
FrameHook = Callable[[Frame], None]


class Framing(abc.ABC):
    """Cuts a reader's byte stream into frames: ``feed`` bytes, the hook gets each frame.

    One instance per stream; it keeps a partial frame between ``feed`` calls, so a frame may
    arrive in any number of pieces.
    """

    def __init__(self, handle: FrameHook) -> None:
        self.handle = handle

    @abc.abstractmethod
    def feed(self, data: bytes) -> None:
        """Take the next bytes read; call the hook for every frame they complete."""

    @abc.abstractmethod
    def reset(self) -> None:
        """Drop a partial frame (reported as garbage): the stream broke, e.g. on an unplug."""

    @classmethod
    def decode(cls, *chunks: bytes) -> list[Frame]:
        """Every frame in some chunks of bytes (a test and REPL helper)."""
        frames: list[Frame] = []
        framing = cls(frames.append)
        for chunk in chunks:
            framing.feed(chunk)
        return frames


class LineFraming(Framing):
    """One payload per line; a line ends in CR, LF or CRLF (blank lines are skipped)."""

    TERMINATOR: ClassVar[re.Pattern[bytes]] = re.compile(rb"[\r\n]")
    MAX_LENGTH: ClassVar[int] = 128

    def __init__(self, handle: FrameHook) -> None:
        super().__init__(handle)
        self._buffer = bytearray()
        self._overflow = False  # dropping the rest of a line that was too long

    def feed(self, data: bytes) -> None:
        *complete, rest = self.TERMINATOR.split(data)
        for piece in complete:
            if self._overflow:
                self._overflow = False  # the end of the long line, already reported
            else:
                self._line(bytes(self._buffer + piece))
            self._buffer.clear()
        if not self._overflow:
            self._buffer += rest
            if len(self._buffer) > self.MAX_LENGTH:
                self._bad(bytes(self._buffer), f"a line longer than {self.MAX_LENGTH} bytes")
                self._buffer.clear()
                self._overflow = True

    def reset(self) -> None:
        if self._buffer.strip():
            self._bad(bytes(self._buffer), "an unfinished line")
        self._buffer.clear()
        self._overflow = False

    def _line(self, line: bytes) -> None:
        text = line.strip()
        if not text:
            return  # the LF of a CRLF, or a blank line
        if len(line) > self.MAX_LENGTH:
            self._bad(line, f"a line longer than {self.MAX_LENGTH} bytes")
            return
        if not all(0x20 <= b < 0x7F for b in text):
            self._bad(line, "a line with bytes that are not printable ASCII")
            return
        try:
            self.handle(Payload(self.parse(text.decode("ascii"))))
        except ValueError as exc:
            self._bad(line, str(exc))

    def _bad(self, data: bytes, detail: str) -> None:
        self.handle(BadFrame(Fault.GARBAGE, data, detail))

    def parse(self, text: str) -> str:
        """The payload of a line of printable text; raise ``ValueError`` to refuse it."""
        return text


class BarcodeFraming(LineFraming):
    """A barcode scanner in serial mode: the line is the payload, checked for its symbology.

    >>> BarcodeFraming.decode(b"CJ\\n")
    [Payload(raw='CJ')]
    >>> frames = []
    >>> BarcodeFraming(frames.append, Symbology.EAN13).feed(b"4006381333931\\n4006381333932\\nCJ\\n")
    >>> [str(f) for f in frames]  # doctest: +NORMALIZE_WHITESPACE
    ['4006381333931', "garbage: check digit 2 is wrong for ean13 '4006381333932' (expected 1)",
     "garbage: not a ean13 code (13 digits): 'CJ'"]
    """

    def __init__(self, handle: FrameHook, symbology: Symbology = Symbology.TEXT) -> None:
        super().__init__(handle)
        self.symbology = symbology

    def parse(self, text: str) -> str:
        return check_line(text, self.symbology)


class UidFraming(LineFraming):
    """An NFC reader printing one UID per line, e.g. ``04:A2:3B:1C``, ``UID: 04a23b1c``.

    A UID carries no checksum on the line, so only well-formed ones pass: hex, and one of the
    ISO/IEC 14443 UID sizes, 4, 7 or 10 bytes (a dropped or doubled character gives another
    length and is refused).

    >>> [str(f) for f in UidFraming.decode(b"UID: 04:a2:3b:1c\\n04A23B1C\\n04A23B1C0\\n04A23B1C05\\n")]
    ['04A23B1C', '04A23B1C', "garbage: not a tag UID (4, 7 or 10 bytes in hex): '04A23B1C0'", \
"garbage: not a tag UID (4, 7 or 10 bytes in hex): '04A23B1C05'"]
    """

    _LABEL = re.compile(r"^(?:UID\s*[:=]?\s*)?(?:0X)?")
    _SEPARATORS = re.compile(r"[\s:\-]")
    _UID = re.compile(r"[0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20}")

    def parse(self, text: str) -> str:
        uid = self._SEPARATORS.sub("", self._LABEL.sub("", text.upper(), count=1))
        if not self._UID.fullmatch(uid):
            raise ValueError(f"not a tag UID (4, 7 or 10 bytes in hex): {text!r}")
        return uid


def rdm6300_checksum(data: bytes) -> int:
    """The XOR of the data bytes, as an RDM6300 frame carries it.

    >>> hex(rdm6300_checksum(bytes.fromhex("0102030405")))
    '0x1'
    """
    return functools.reduce(operator.xor, data, 0)


def rdm6300_frame(payload: str) -> bytes:
    """The frame an RDM6300 sends for a tag (10 hex characters): for tests and fakes.

    >>> rdm6300_frame("0102030405")
    b'\\x02010203040501\\x03'
    """
    data = bytes.fromhex(payload)
    if len(data) != 5:
        raise ValueError(f"an RDM6300 payload is 5 bytes (10 hex characters), not {payload!r}")
    return b"\x02" + payload.upper().encode("ascii") + b"%02X\x03" % rdm6300_checksum(data)


class Rdm6300Framing(Framing):
    """125 kHz RDM6300-type frames: STX, 10 hex data, 2 hex XOR checksum of the 5 data bytes, ETX.

    The reader repeats the frame while a tag lies on it (the debouncer deals with that).
    Bytes outside frames are garbage, except CR and LF, which some clones send after ETX.
    """

    START: ClassVar[int] = 0x02
    STOP: ClassVar[int] = 0x03
    BODY: ClassVar[int] = 12
    IGNORED: ClassVar[bytes] = b"\r\n"
    MAX_GARBAGE_RUN: ClassVar[int] = 64  # report a run of garbage at least this often
    _HEX = re.compile(rb"[0-9A-Fa-f]{12}")

    def __init__(self, handle: FrameHook) -> None:
        super().__init__(handle)
        self._frame: bytearray | None = None  # None: waiting for STX
        self._junk = bytearray()

    def feed(self, data: bytes) -> None:
        for byte in data:
            frame = self._frame
            if byte == self.START:
                self._flush_junk()
                if frame is not None:
                    self._bad(frame, "a frame cut short by the next start byte")
                self._frame = bytearray()
            elif frame is None:
                if byte not in self.IGNORED:
                    self._junk.append(byte)
                    if len(self._junk) >= self.MAX_GARBAGE_RUN:
                        self._flush_junk()
            elif byte == self.STOP:
                self._frame = None
                self._end(frame)
            elif len(frame) == self.BODY:
                frame.append(byte)
                self._frame = None
                self._bad(frame, f"no end byte after {self.BODY} characters")
            else:
                frame.append(byte)

    def reset(self) -> None:
        self._flush_junk()
        if self._frame is not None:
            self._bad(self._frame, "an unfinished frame")
        self._frame = None

    def _end(self, body: bytearray) -> None:
        if not self._HEX.fullmatch(body):
            self._bad(body + bytes([self.STOP]), f"a frame without {self.BODY} hex characters")
            return
        data = bytes.fromhex(body[:10].decode("ascii"))
        sent = int(body[10:], 16)
        if rdm6300_checksum(data) != sent:
            wire = bytes([self.START]) + body + bytes([self.STOP])
            detail = f"checksum {sent:02X} does not match the data (expected {rdm6300_checksum(data):02X})"
            self.handle(BadFrame(Fault.CHECKSUM, wire, detail))
            return
        self.handle(Payload(body[:10].decode("ascii").upper()))

    def _bad(self, body: bytes | bytearray, detail: str) -> None:
        self.handle(BadFrame(Fault.GARBAGE, bytes([self.START]) + bytes(body), detail))

    def _flush_junk(self) -> None:
        if self._junk:
            self.handle(BadFrame(Fault.GARBAGE, bytes(self._junk), f"{len(self._junk)} bytes outside a frame"))
            self._junk.clear()


class Mode(enum.Enum):
    """What kind of reader sits on the port, as named in config and on the command line."""

    BARCODE = "barcode"
    RDM6300 = "rdm6300"
    UID = "uid"

    @property
    def framing(self) -> type[Framing]:
        return _FRAMING[self]

    @property
    def default_confirm(self) -> float:
        """The two-frame window (seconds) a mode gets unless told: only the RDM6300 repeats
        its frame while a tag lies on it; a scanner sends a code once."""
        return DEFAULT_CONFIRM if self is Mode.RDM6300 else 0.0

    def make_framing(self, handle: FrameHook, symbology: Symbology = Symbology.TEXT) -> Framing:
        if self is Mode.BARCODE:
            return BarcodeFraming(handle, symbology)
        return self.framing(handle)


DEFAULT_CONFIRM = 0.2  # seconds: an RDM6300 repeats its 14.6 ms frame every ~15-50 ms


_FRAMING: dict[Mode, type[Framing]] = {
    Mode.BARCODE: BarcodeFraming, Mode.RDM6300: Rdm6300Framing, Mode.UID: UidFraming,
}


# -- confirm and debounce ---------------------------------------------------------------------


class Verdict(enum.Enum):
    CONFIRMED = "confirmed"  # the frame before it, within the window, was the same
    PENDING = "pending"  # first of its kind: wait for the next frame
    DISAGREEMENT = "disagreement"  # differs from an unconfirmed frame just before it


class Confirmer:
    """Passes a payload only when the frame just before it, at most ``window`` seconds earlier,
    was the same: one corrupted frame that happens to decode (and check) as another card is
    never a card. A window of 0 passes every frame. :meth:`interrupt` (a bad frame, an unplug)
    means the next frame starts afresh.

    >>> c = Confirmer(0.2)
    >>> [c.offer(key, t).value for key, t in [("A", 0.0), ("A", 0.05), ("B", 0.1), ("C", 0.15), ("C", 0.5)]]
    ['pending', 'confirmed', 'pending', 'disagreement', 'pending']
    """

    def __init__(self, window: float) -> None:
        if window < 0:
            raise ValueError(f"the confirm window cannot be negative: {window}")
        self.window = window
        self._last: tuple[Hashable, float, bool] | None = None  # key, time, confirmed

    def offer(self, key: Hashable, now: float) -> Verdict:
        last = self._last
        if self.window == 0:
            verdict = Verdict.CONFIRMED
        elif last is None or now - last[1] > self.window:
            verdict = Verdict.PENDING
        elif last[0] == key:
            verdict = Verdict.CONFIRMED
        else:
            verdict = Verdict.PENDING if last[2] else Verdict.DISAGREEMENT
        self._last = (key, now, verdict is Verdict.CONFIRMED)
        return verdict

    def interrupt(self) -> None:
        self._last = None



class Debouncer:
    """Counts a key once while it keeps coming within ``window`` seconds of its last sighting.

    The window runs from the *last* time the key was seen, so a tag lying on an RDM6300 (which
    repeats its frame) counts once however long it lies there.

    >>> d = Debouncer(1.0)
    >>> [d.accept("CJ", t) for t in (0.0, 0.5, 1.4, 2.5)]
    [True, False, False, True]
    """

    _PRUNE_AT = 256

    def __init__(self, window: float) -> None:
        if window < 0:
            raise ValueError(f"the debounce window cannot be negative: {window}")
        self.window = window
        self._seen: dict[Hashable, float] = {}

    def accept(self, key: Hashable, now: float) -> bool:
        """Whether ``key`` seen at ``now`` is new (True) or a repeat (False)."""
        last = self._seen.get(key)
        self._seen[key] = now
        if len(self._seen) > self._PRUNE_AT:
            self._seen = {k: t for k, t in self._seen.items() if now - t < self.window}
        return last is None or now - last >= self.window


# -- the serial reader ------------------------------------------------------------------------


class SerialPort(Protocol):
    """What the reader needs of a pyserial ``Serial`` (a fake may stand in)."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def close(self) -> None: ...


OpenPort = Callable[[str, int], SerialPort]

READ_TIMEOUT = 0.5  # seconds; close() interrupts a read at once where pyserial can


def open_serial(url: str, baud: int) -> SerialPort:
    """Open a path or pyserial URL; ``exclusive`` keeps a second program off the reader."""
    import serial  # type: ignore[import-untyped]  # imported here: no port work at import time

    port: SerialPort = serial.serial_for_url(url, baudrate=baud, timeout=READ_TIMEOUT, exclusive=True)
    return port


class PortError(SkatError, ValueError):
    """A reader port that can never be opened, e.g. a URL whose scheme pyserial does not know."""


def check_port(url: str) -> None:
    """Refuse a pyserial URL with an unknown scheme now, not after the reader thread started.

    A plain path is left to the reader (a device may be plugged in later).
    """
    if "://" not in url:
        return
    import serial

    try:
        serial.serial_for_url(url, do_not_open=True)
    except (ValueError, serial.SerialException) as exc:
        raise PortError(f"Kartenleser {url}: {exc}") from None


def find_port(by_id: Path = Path("/dev/serial/by-id")) -> str | None:
    """The one serial device under ``/dev/serial/by-id``, if there is exactly one."""
    try:
        entries = sorted(by_id.iterdir())
    except OSError:
        return None
    return str(entries[0]) if len(entries) == 1 else None


@dataclass(frozen=True, slots=True)
class Backoff:
    """Waits between attempts to reopen the port: ``first``, times ``factor``, at most ``cap``.

    >>> import itertools
    >>> list(itertools.islice(Backoff(0.1, 2.0, 0.5).delays(), 5))
    [0.1, 0.2, 0.4, 0.5, 0.5]
    """

    first: float = 0.1
    factor: float = 2.0
    cap: float = 2.0

    def delays(self) -> Iterator[float]:
        delay = self.first
        while True:
            yield min(delay, self.cap)
            delay = min(delay * self.factor, self.cap)


@dataclass(frozen=True, slots=True)
class ReaderCounters:
    """What the reader has seen since it started."""

    frames: int = 0  # well-formed frames, repeats included
    cards: int = 0  # CardScanned submitted
    unknown: int = 0  # UnknownCardScanned submitted
    repeats: int = 0  # frames dropped by the debouncer
    unconfirmed: int = 0  # frames waiting for their twin (the two-frame rule)
    disagreements: int = 0  # frames unlike the unconfirmed frame just before them
    held: int = 0  # frames of the card last accepted, lying there since before a reconnect
    checksum_errors: int = 0
    garbage: int = 0
    disconnects: int = 0


Submit = Callable[[object], None]


class SerialCardReader:
    """A card reader on a serial port; implements :class:`device.ports.CardReader`.

    ``start(submit)`` starts the reader thread, which opens ``port`` and submits
    :class:`~device.hardware.CardScanned`, :class:`~device.hardware.UnknownCardScanned` and
    :class:`~device.hardware.ReaderStatus` through ``submit`` (from its own thread: give it a
    thread-safe queue such as :meth:`device.inbox.Inbox.submit`). Bad frames are dropped and
    counted in :attr:`counters`; ``on_bad_frame`` may watch them (on the reader thread).

    When the port fails (unplugged), the reader submits ``ReaderStatus(connected=False)``, tries
    to reopen it with ``backoff`` and submits ``ReaderStatus(connected=True)`` when it is back.
    After a reconnect the card accepted last, if it was still lying there when the port failed
    (seen within ``debounce`` seconds), is ignored until it has been lifted (not seen for
    ``debounce`` seconds), however long the unplug: a tag still lying there is not doubled.
    A port that can never open (an unknown URL scheme) is refused by the constructor
    (:class:`PortError`); one that fails otherwise for good ends the thread and sets
    :attr:`failure`.

    ``confirm`` is the two-frame window in seconds (None: the mode's default,
    :attr:`Mode.default_confirm`; 0: every frame counts). ``symbology`` checks barcode lines
    (None: the deck's, see :mod:`drivers.barcode`).
    """

    def __init__(
        self,
        port: str,
        *,
        mode: Mode | str = Mode.BARCODE,
        baud: int = 9600,
        deck: Deck | None = None,
        debounce: float = 1.0,
        confirm: float | None = None,
        symbology: Symbology | None = None,
        clock: Callable[[], float] = time.monotonic,
        backoff: Backoff = Backoff(),
        on_bad_frame: Callable[[BadFrame], None] | None = None,
        open_port: OpenPort = open_serial,
    ) -> None:
        if baud <= 0:
            raise ValueError(f"the baud rate must be positive, not {baud}")
        if open_port is open_serial:
            check_port(port)
        self.port = port
        self.mode = Mode(mode)
        self.baud = baud
        self.deck = deck if deck is not None else Deck()
        self._clock = clock
        self._backoff = backoff
        self._on_bad_frame = on_bad_frame
        self._open_port = open_port
        self._debouncer = Debouncer(debounce)
        self._confirmer = Confirmer(self.mode.default_confirm if confirm is None else confirm)
        self.symbology = symbology if symbology is not None else self.deck.barcode
        self._framing = self.mode.make_framing(self._on_frame, self.symbology)
        self._last_accepted: Hashable | None = None
        self._last_accepted_seen = 0.0  # when a frame of it last came
        self._lying: Hashable | None = None  # the card accepted last, if it lay there at the unplug
        self._held: Hashable | None = None  # the card lying on the reader through an unplug
        self._held_seen: float | None = None
        self.failure: str | None = None  # why the reader stopped for good
        self._counts = {f.name: 0 for f in fields(ReaderCounters)}
        self._submit: Submit | None = None
        self._lock = threading.Lock()  # guards _current (against close()) and _counts
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._current: SerialPort | None = None
        self._connected = False

    # -- public ------------------------------------------------------------------------------

    def start(self, submit: Submit) -> None:
        """Start reading on a thread of its own; the port is opened there."""
        with self._lock:
            if self._thread is not None or self._stop.is_set():
                raise RuntimeError("a card reader can be started once")
            self._submit = submit
            self._thread = threading.Thread(target=self._run, name=f"card reader {self.port}", daemon=True)
            self._thread.start()

    def close(self) -> None:
        """Stop the thread and close the port; safe to call any number of times."""
        with self._lock:
            self._stop.set()
            thread = self._thread
            self._cancel_read()
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=READ_TIMEOUT + 1.0)

    def __enter__(self) -> SerialCardReader:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def is_connected(self) -> bool:
        return self._connected

    @property
    def counters(self) -> ReaderCounters:
        with self._lock:
            return ReaderCounters(**self._counts)

    def __repr__(self) -> str:
        return f"SerialCardReader({self.port!r}, mode={self.mode.value!r}, baud={self.baud})"

    # -- the reader thread -------------------------------------------------------------------

    def _run(self) -> None:
        delays: Iterator[float] | None = None
        down_reported = False
        while not self._stop.is_set():
            try:
                port = self._open_port(self.port, self.baud)
            except OSError as exc:  # absent, unplugged, busy; pyserial's SerialException is one too
                if not down_reported:
                    self._status(False, f"Kartenleser {self.port} nicht erreichbar: {exc}")
                    down_reported = True
                delays = delays or self._backoff.delays()
                self._stop.wait(next(delays))
                continue
            except Exception as exc:  # noqa: BLE001 - a bad URL or setting: retrying will not help
                log.error("cannot open card reader %s: %s", self.port, exc)
                self.failure = f"Kartenleser {self.port} lässt sich nicht öffnen: {exc}"
                self._status(False, self.failure)
                return
            delays = None
            with self._lock:
                if self._stop.is_set():
                    _close_quietly(port)
                    return
                self._current = port
            self._connected = True
            if down_reported:  # a reconnect: what lay on the reader at the unplug may still lie there
                self._held, self._held_seen = self._lying, None
            self._status(True, f"Kartenleser {self.port} verbunden")
            failure = self._pump(port)
            self._connected = False
            with self._lock:
                self._current = None
            _close_quietly(port)
            # A frame cut by the unplug must not join up with bytes read after the replug.
            self._framing.reset()
            self._confirmer.interrupt()
            recent = self._clock() - self._last_accepted_seen < self._debouncer.window
            self._lying = self._last_accepted if recent else None
            if failure is None:
                return
            self._count("disconnects")
            self._status(False, failure)
            down_reported = True

    def _pump(self, port: SerialPort) -> str | None:
        """Read until stopped (None) or until the port fails (the reason, in words)."""
        while not self._stop.is_set():
            try:
                data = port.read(port.in_waiting or 1)
            except OSError as exc:
                return None if self._stop.is_set() else f"Kartenleser {self.port} getrennt: {exc}"
            except Exception as exc:  # noqa: BLE001 - a dead reader thread would go unnoticed
                log.exception("card reader %s failed", self.port)
                return f"Kartenleser {self.port} gestört: {exc}"
            if data:
                self._framing.feed(data)
        return None

    def _cancel_read(self) -> None:
        """Wake a blocked read (called with the lock held, so the port cannot close under us)."""
        cancel = getattr(self._current, "cancel_read", None)
        if cancel is not None:
            try:
                cancel()
            except (OSError, ValueError):
                pass  # the read times out within READ_TIMEOUT anyway

    def _on_frame(self, frame: Frame) -> None:
        if isinstance(frame, BadFrame):
            self._confirmer.interrupt()
            self._count("checksum_errors" if frame.fault is Fault.CHECKSUM else "garbage")
            if self._on_bad_frame is not None:
                _guarded(self._on_bad_frame, frame)
            return
        self._count("frames")
        card = self.deck.lookup(frame.raw)
        key: Hashable = card if card is not None else normalize_payload(frame.raw)
        now = self._clock()
        if key == self._last_accepted:
            self._last_accepted_seen = now
        verdict = self._confirmer.offer(key, now)
        if verdict is not Verdict.CONFIRMED:
            self._count("disagreements" if verdict is Verdict.DISAGREEMENT else "unconfirmed")
            return
        if self._still_held(key, now):
            self._count("held")
            return
        if not self._debouncer.accept(key, now):
            self._count("repeats")
            return
        self._last_accepted, self._last_accepted_seen = key, now
        if card is not None:
            self._count("cards")
            self._emit(CardScanned(card, raw=frame.raw))
        else:
            self._count("unknown")
            self._emit(UnknownCardScanned(frame.raw, reason=self._unknown_reason(frame.raw)))

    def _still_held(self, key: Hashable, now: float) -> bool:
        """Whether ``key`` is the card that lay on the reader through an unplug and has not been
        lifted since (seen again within the debounce window each time)."""
        if self._held is None:
            return False
        if key == self._held and (self._held_seen is None or now - self._held_seen < self._debouncer.window):
            self._held_seen = now
            return True
        self._held = None  # lifted, or another card came: the hold is over
        return False

    def _unknown_reason(self, raw: str) -> str:
        if len(self.deck) == 0:
            return f"Karte {raw!r} nicht erkannt: keine Kartendatei geladen und kein Kartencode"
        return f"Karte {raw!r} nicht erkannt: steht nicht in der Kartendatei {self.deck.source}"

    def _status(self, connected: bool, detail: str) -> None:
        self._emit(ReaderStatus(connected=connected, port=self.port, detail=detail))

    def _emit(self, command: object) -> None:
        assert self._submit is not None
        _guarded(self._submit, command)

    def _count(self, name: str) -> None:
        with self._lock:
            self._counts[name] += 1


def _guarded(callback: Callable[[Any], None], value: object) -> None:
    """Call a callback from the reader thread; its failure must not stop the reader."""
    try:
        callback(value)
    except Exception:  # noqa: BLE001
        log.exception("card reader callback %r failed", callback)


def _close_quietly(port: SerialPort) -> None:
    try:
        port.close()
    except OSError:
        pass
