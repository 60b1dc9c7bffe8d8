"""``skattisch selftest``: the first-boot check a volunteer runs on the Pi, one line per part.

Each check is a :class:`Check` (a name and a function) that returns a :class:`Outcome`;
:data:`CHECKS` lists them in the order they run, and :func:`register_check` adds or replaces
one. The person at the table is an :class:`Operator`: it shows what to do and answers what
only eyes and ears can tell ("Leuchtet die LED?"). The checks run against whatever reader and
panel they are given: the real ones on a Pi, a pty and gpiozero's MockFactory in the tests;
the laptop check runs one round of the real sync client against the paired laptop.

>>> outcome = Outcome.passed("store", "written and read back")
>>> outcome.line()
'PASS  store    written and read back'
"""

from __future__ import annotations

import enum
import os
import queue
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from device.hardware import Button, ButtonPressed, CardScanned, PanelView, ReaderStatus, Tone, UnknownCardScanned
from drivers.config import Config

WAIT_SECONDS = 20.0  # for a button press or a card; the volunteer reads the prompt first
CARDS_TO_LAY = 3
EARLIEST_PLAUSIBLE_YEAR = 2025  # the Pi has no battery clock: before NTP it may say 1970


class Verdict(enum.Enum):
    PASS = "PASS"
    FAIL = "FAIL"
    SKIP = "SKIP"  # not fitted or not set up: nothing to check


@dataclass(frozen=True, slots=True)
class Outcome:
    name: str
    verdict: Verdict
    detail: str

    @classmethod
    def passed(cls, name: str, detail: str) -> Outcome:
        return cls(name, Verdict.PASS, detail)

    @classmethod
    def failed(cls, name: str, detail: str) -> Outcome:
        return cls(name, Verdict.FAIL, detail)

    @classmethod
    def skipped(cls, name: str, detail: str) -> Outcome:
        return cls(name, Verdict.SKIP, detail)

    def line(self) -> str:
        return f"{self.verdict.value:<5} {self.name:<8} {self.detail}"


class Operator(Protocol):
    """The person at the table."""

    def tell(self, text: str) -> None:
        """Show what to do now (lay cards, press a button)."""

    def confirm(self, question: str) -> bool:
        """Ask what only the person can see or hear; True for yes."""


@dataclass
class Context:
    """What the checks work with; ``inbox`` receives what the reader and the panel submit."""

    config: Config
    operator: Operator
    panel: Any = None  # drivers.panel.GpioPanel (or None: no panel fitted)
    reader: Any = None  # drivers.reader.SerialCardReader, started with submit=inbox.put
    inbox: queue.Queue[object] = field(default_factory=queue.Queue)
    wait_seconds: float = WAIT_SECONDS
    clock: Callable[[], float] = time.time

    def submit(self, command: object) -> None:
        self.inbox.put(command)

    def next_command(self, wanted: Callable[[object], bool]) -> object | None:
        """The next command ``wanted`` accepts within ``wait_seconds`` (others are dropped)."""
        deadline = time.monotonic() + self.wait_seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                command = self.inbox.get(timeout=left)
            except queue.Empty:
                return None
            if wanted(command):
                return command
        return None


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    run: Callable[[Context], Iterable[Outcome]]


# -- the checks ---------------------------------------------------------------------------------


def check_reader(ctx: Context) -> Iterable[Outcome]:
    if ctx.reader is None:
        yield Outcome.skipped("reader", "no card reader configured (reader.enabled = false)")
        return
    connected = lambda c: isinstance(c, ReaderStatus) and c.connected  # noqa: E731
    if not getattr(ctx.reader, "is_connected", True) and ctx.next_command(connected) is None:
        yield Outcome.failed("reader", f"cannot open {ctx.reader.port}: is it plugged in, is reader.port right?")
        return
    ctx.operator.tell(f"Lay {CARDS_TO_LAY} different cards on the reader, one after the other")
    seen: list[str] = []
    while len(seen) < CARDS_TO_LAY:
        command = ctx.next_command(lambda c: isinstance(c, (CardScanned, UnknownCardScanned)))
        if command is None:
            yield Outcome.failed("reader", f"{len(seen)} of {CARDS_TO_LAY} cards read in time on {ctx.reader.port}: "
                                           "is it plugged in, is reader.port right?")
            return
        if isinstance(command, UnknownCardScanned):
            yield Outcome.failed("reader", f"{command.reason}: teach the deck in (Einstellungen → Kartensatz anlernen)")
            return
        assert isinstance(command, CardScanned)
        if command.card.code not in seen:
            seen.append(command.card.code)
            ctx.operator.tell(f"  read {command.card.code}")
    yield Outcome.passed("reader", f"read {', '.join(seen)} on {ctx.reader.port}")


def check_buttons(ctx: Context) -> Iterable[Outcome]:
    fitted = [(Button.CONFIRM, ctx.config.gpio.confirm), (Button.BACK, ctx.config.gpio.back)]
    if ctx.panel is None or all(pin is None for _, pin in fitted):
        yield Outcome.skipped("buttons", "no buttons fitted (gpio.confirm, gpio.back)")
        return
    for button, pin in fitted:
        name = f"button {button.value}"
        if pin is None:
            yield Outcome.skipped(name, "not fitted")
            continue
        ctx.operator.tell(f"Press the {button.value} button (GPIO{pin}) briefly")
        got = ctx.next_command(lambda c: isinstance(c, ButtonPressed))
        if got is None:
            yield Outcome.failed(name, f"no press on GPIO{pin} in time: check its wire to GND")
        elif isinstance(got, ButtonPressed) and got.button is not button:
            yield Outcome.failed(name, f"the {got.button.value} button answered instead: wires swapped?")
        else:
            yield Outcome.passed(name, f"GPIO{pin} pressed")


def check_leds(ctx: Context) -> Iterable[Outcome]:
    gpio = ctx.config.gpio
    leds: list[tuple[str, int, PanelView]] = [
        (f"LED Platz {seat + 1}", pin, PanelView(dealer_seat=seat)) for seat, pin in enumerate(gpio.dealer_leds)]
    if gpio.reader_led is not None:
        leds.append(("LED reader", gpio.reader_led, PanelView(reader_connected=True)))
    if gpio.sync_led is not None:
        leds.append(("LED sync", gpio.sync_led, PanelView(sync_ok=True)))
    if ctx.panel is None or not leds:
        yield Outcome.skipped("leds", "no LEDs fitted")
        return
    for name, pin, view in leds:
        ctx.panel.show(view)  # just this one lit
        lit = ctx.operator.confirm(f"Is {name} (GPIO{pin}) lit, and no other?")
        yield (Outcome.passed if lit else Outcome.failed)(name, f"GPIO{pin}" + ("" if lit else ": check the LED's "
                                                                                 "direction and its resistor"))
    ctx.panel.show(PanelView())


def check_buzzer(ctx: Context) -> Iterable[Outcome]:
    pin = ctx.config.gpio.buzzer
    if ctx.panel is None or pin is None:
        yield Outcome.skipped("buzzer", "no buzzer fitted (gpio.buzzer)")
        return
    ctx.panel.beep(Tone.REFUSED)
    heard = ctx.operator.confirm(f"Did the buzzer (GPIO{pin}) beep twice?")
    yield (Outcome.passed if heard else Outcome.failed)("buzzer", f"GPIO{pin}" + (
        "" if heard else ": an active buzzer (one that sounds on its own when powered)?"))


def check_store(ctx: Context) -> Iterable[Outcome]:
    folder = Path(ctx.config.store.path)
    probe = os.urandom(64).hex()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=".selftest-", dir=folder)
        try:
            with os.fdopen(fd, "w", encoding="ascii") as handle:
                handle.write(probe)
                handle.flush()
                os.fsync(handle.fileno())
            back = Path(name).read_text(encoding="ascii")
        finally:
            Path(name).unlink(missing_ok=True)
    except OSError as exc:
        yield Outcome.failed("store", f"{folder}: {exc.strerror or exc} (run the self-test as the table's user: "
                                      "sudo -u skattisch ...)")
        return
    if back != probe:
        yield Outcome.failed("store", f"{folder}: read back something else than was written: the SD card is failing")
    else:
        yield Outcome.passed("store", f"{folder}: written, synced and read back")


def check_clock(ctx: Context) -> Iterable[Outcome]:
    now = ctx.clock()
    year = time.gmtime(now).tm_year
    shown = time.strftime("%Y-%m-%d %H:%M", time.localtime(now))
    if year < EARLIEST_PLAUSIBLE_YEAR:
        yield Outcome.failed("clock", f"{shown}: not set (the Pi has no battery clock: it needs the network "
                                      "once after switching on, or a clock module)")
    else:
        yield Outcome.passed("clock", shown)


def check_laptop(ctx: Context) -> Iterable[Outcome]:
    """The paired laptop answers one sync round (what the table sends anyway); unpaired: SKIP."""
    from drivers.adapters import build_store
    from drivers.sync import STATE_FILE, LaptopError, SyncStateFile, make_client

    folder = Path(ctx.config.store.path)
    if not SyncStateFile(folder / STATE_FILE).load().paired:
        yield Outcome.skipped("laptop", "nicht gekoppelt")
        return
    store = build_store(ctx.config, simulate=False)
    try:
        client = make_client(store, folder, store.device_id, lambda command: None,
                             fallback_url=ctx.config.sync.url, timeout=ctx.wait_seconds)
        try:
            client.sync_once()
        except LaptopError as exc:
            yield Outcome.failed("laptop", f"{client.url or 'no address'}: {exc} (is the laptop on, "
                                           "'skattisch club serve' running, in the same network?)")
            return
        name = client.state.laptop or client.url
        yield Outcome.passed("laptop", f"{name} answers; it has this table's entries up to {client.state.acked}")
    finally:
        store.close()


CHECKS: list[Check] = [
    Check("reader", check_reader),
    Check("buttons", check_buttons),
    Check("leds", check_leds),
    Check("buzzer", check_buzzer),
    Check("store", check_store),
    Check("clock", check_clock),
    Check("laptop", check_laptop),
]


def register_check(check: Check) -> None:
    """Add ``check``, or replace the one of the same name (e.g. the laptop's)."""
    for index, old in enumerate(CHECKS):
        if old.name == check.name:
            CHECKS[index] = check
            return
    CHECKS.append(check)


def run_checks(ctx: Context, checks: Iterable[Check] | None = None,
               report: Callable[[Outcome], None] = lambda outcome: None) -> list[Outcome]:
    """Run the checks in order; a check that raises fails with the reason, the rest go on."""
    outcomes: list[Outcome] = []
    for check in CHECKS if checks is None else checks:
        try:
            found = list(check.run(ctx))
        except Exception as exc:  # one broken part must not hide the others' results
            found = [Outcome.failed(check.name, f"{type(exc).__name__}: {exc}")]
        for outcome in found:
            report(outcome)
            outcomes.append(outcome)
    return outcomes

