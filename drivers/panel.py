"""The GPIO panel beside the screen: two buttons, a dealer LED per seat, status LEDs, a buzzer.

:class:`GpioPanel` drives the real parts through gpiozero; :class:`FakePanel` stands in for it
in tests and in ``skattisch run --simulate`` (the on-screen buttons call :meth:`FakePanel.press`).
Both implement :class:`device.ports.Panel` and turn presses into
:class:`device.hardware.ButtonPressed` commands handed to ``submit`` (e.g. ``Inbox.submit``):
on a Pi, gpiozero calls back on its own threads, so ``submit`` must be thread-safe, and the
panel never calls into the service otherwise.

Nothing here touches a pin at import time; every gpiozero device is built with the pin
factory handed in (:func:`open_panel` picks it by name from the config).

>>> from device.inbox import Inbox
>>> inbox = Inbox()
>>> with FakePanel(inbox.submit) as panel:
...     panel.press("confirm")
...     panel.show(PanelView(dealer_seat=2))
...     panel.beep(Tone.ACCEPTED)
>>> inbox.drain()
[ButtonPressed(button=<Button.CONFIRM: 'confirm'>, source='panel')]
>>> panel.view.dealer_seat, panel.tones
(2, [<Tone.ACCEPTED: 'accepted'>])
"""

from __future__ import annotations

import enum
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType, TracebackType
from typing import TYPE_CHECKING, Any

from device.errors import SkatError
from device.hardware import Button, ButtonPressed, PanelView, Tone

if TYPE_CHECKING:  # gpiozero is imported only when a panel is built; the config only for the types
    from drivers.config import GpioConfig
    from gpiozero import LED
    from gpiozero import Button as GpioButton
    from gpiozero import Buzzer

Submit = Callable[[object], None]


class PanelError(SkatError, RuntimeError):
    """The GPIO panel could not be set up (pin in use, no GPIO library, not a Pi)."""


@dataclass(frozen=True, slots=True)
class Beep:
    """A buzzer pattern: ``count`` beeps of ``on_seconds``, each followed by ``off_seconds``."""

    on_seconds: float
    off_seconds: float
    count: int

    @property
    def seconds(self) -> float:
        return self.count * (self.on_seconds + self.off_seconds)


# Distinct by ear without looking: one short chirp for a card taken, two for a card refused,
# three long ones for an error that needs attention. All short enough not to hold up play.
DEFAULT_TONES: Mapping[Tone, Beep] = MappingProxyType(
    {
        Tone.ACCEPTED: Beep(0.06, 0.0, 1),
        Tone.REFUSED: Beep(0.12, 0.1, 2),
        Tone.ERROR: Beep(0.4, 0.15, 3),
    }
)
BLINK_SECONDS = 0.5  # on and off time of a sitting-out seat's LED
BOUNCE_SECONDS = 0.02  # switch bounce filtered by the pin library (the mock ignores it)


class _Led(enum.Enum):
    OFF = "off"
    ON = "on"
    BLINK = "blink"


class GpioPanel:
    """The real panel. Parts whose pin is None are not fitted and simply do nothing.

    Confirm sends ``CONFIRM`` when released, or ``MENU`` (instead, not as well) once it has
    been held ``hold_seconds``; back sends ``BACK`` when pressed. Buttons connect the pin to
    ground (internal pull-up); LEDs and an active buzzer are driven high.

    ``show`` lights the dealer's LED steadily and blinks those of seats sitting out (seat
    indices 0..4 are Platz 1..5; the dealer's own LED stays steady even when he sits out);
    the reader and sync LEDs are lit while all is well. ``beep`` plays a tone's pattern in
    the background, cutting short one still playing. After ``close`` (idempotent) the panel
    shows, sounds and sends nothing.
    """

    def __init__(
        self,
        submit: Submit,
        *,
        pin_factory: Any,
        confirm: int | None = None,
        back: int | None = None,
        dealer_leds: Sequence[int] = (),
        reader_led: int | None = None,
        sync_led: int | None = None,
        buzzer: int | None = None,
        hold_seconds: float = 1.0,
        blink_seconds: float = BLINK_SECONDS,
        bounce_seconds: float | None = BOUNCE_SECONDS,
        tones: Mapping[Tone, Beep] = DEFAULT_TONES,
        close_factory: bool = False,
    ) -> None:
        self._submit = submit
        self._factory = pin_factory
        self._close_factory = close_factory
        self._blink_seconds = blink_seconds
        self._tones = dict(tones)
        self._lock = threading.RLock()
        self._closed = False
        self._confirm_held = False  # the current confirm press has sent MENU already
        self._shown: dict[LED, _Led] = {}
        self._devices: list[Any] = []
        try:
            self._confirm = self._button(confirm, hold_seconds, bounce_seconds)
            self._back = self._button(back, hold_seconds, bounce_seconds)
            self.dealer_leds: tuple[LED, ...] = tuple(self._led(pin) for pin in dealer_leds)
            self.reader_led = self._led(reader_led) if reader_led is not None else None
            self.sync_led = self._led(sync_led) if sync_led is not None else None
            self.buzzer = self._buzzer(buzzer) if buzzer is not None else None
        except Exception as exc:
            self._close_devices()  # free the pins taken so far; the factory is the caller's
            raise PanelError(f"GPIO panel: {exc}") from exc
        if self._confirm is not None:
            self._confirm.when_pressed = self._on_confirm_pressed
            self._confirm.when_held = self._on_confirm_held
            self._confirm.when_released = self._on_confirm_released
        if self._back is not None:
            self._back.when_pressed = self._on_back_pressed

    @classmethod
    def from_config(
        cls, config: GpioConfig, submit: Submit, *, pin_factory: Any, close_factory: bool = False
    ) -> GpioPanel:
        """The panel wired as ``config`` says (see ``deploy/skattisch.example.toml``)."""
        return cls(
            submit,
            pin_factory=pin_factory,
            confirm=config.confirm,
            back=config.back,
            dealer_leds=config.dealer_leds,
            reader_led=config.reader_led,
            sync_led=config.sync_led,
            buzzer=config.buzzer,
            hold_seconds=config.hold_seconds,
            close_factory=close_factory,
        )

    # -- building the parts ------------------------------------------------------------------

    def _button(
        self, pin: int | None, hold_seconds: float, bounce_seconds: float | None
    ) -> GpioButton | None:
        if pin is None:
            return None
        from gpiozero import Button as GpioButton

        button = GpioButton(
            pin, pull_up=True, bounce_time=bounce_seconds, hold_time=hold_seconds, pin_factory=self._factory
        )
        self._devices.append(button)
        return button

    def _led(self, pin: int) -> LED:
        from gpiozero import LED

        led = LED(pin, pin_factory=self._factory)
        self._devices.append(led)
        return led

    def _buzzer(self, pin: int) -> Buzzer:
        from gpiozero import Buzzer

        buzzer = Buzzer(pin, pin_factory=self._factory)
        self._devices.append(buzzer)
        return buzzer

    # -- buttons (called on gpiozero's threads on a Pi, on the caller's with the mock) ---------

    def _on_confirm_pressed(self) -> None:
        with self._lock:
            self._confirm_held = False

    def _on_confirm_held(self) -> None:
        with self._lock:
            if self._closed or self._confirm_held:
                return
            self._confirm_held = True
            self._submit(ButtonPressed(Button.MENU))

    def _on_confirm_released(self) -> None:
        # The lock orders this against a hold firing at the same moment: one command per press.
        with self._lock:
            held, self._confirm_held = self._confirm_held, False
            if not held and not self._closed:
                self._submit(ButtonPressed(Button.CONFIRM))

    def _on_back_pressed(self) -> None:
        with self._lock:
            if not self._closed:
                self._submit(ButtonPressed(Button.BACK))

    # -- the Panel port ------------------------------------------------------------------------

    def show(self, view: PanelView) -> None:
        wanted: dict[LED, _Led] = {}
        for seat, led in enumerate(self.dealer_leds):
            if seat == view.dealer_seat:
                wanted[led] = _Led.ON
            elif seat in view.sitting_out:
                wanted[led] = _Led.BLINK
            else:
                wanted[led] = _Led.OFF
        if self.reader_led is not None:
            wanted[self.reader_led] = _Led.ON if view.reader_connected else _Led.OFF
        if self.sync_led is not None:
            wanted[self.sync_led] = _Led.ON if view.sync_ok else _Led.OFF
        with self._lock:
            if not self._closed:
                self._apply(wanted)

    def _apply(self, wanted: dict[LED, _Led]) -> None:
        # Touch only the LEDs that change, so that a repeated view does not restart blinking;
        # when the set of blinking LEDs changes, restart them all so they blink in step.
        blinking = {led for led, state in wanted.items() if state is _Led.BLINK}
        was_blinking = {led for led, state in self._shown.items() if state is _Led.BLINK}
        for led, state in wanted.items():
            restart = state is _Led.BLINK and blinking != was_blinking
            if self._shown.get(led) is state and not restart:
                continue
            if state is _Led.BLINK:
                led.blink(on_time=self._blink_seconds, off_time=self._blink_seconds)
            elif state is _Led.ON:
                led.on()
            else:
                led.off()
            self._shown[led] = state

    def beep(self, tone: Tone) -> None:
        pattern = self._tones[tone]
        with self._lock:
            if self.buzzer is not None and not self._closed:
                self.buzzer.beep(
                    on_time=pattern.on_seconds, off_time=pattern.off_seconds, n=pattern.count, background=True
                )

    @property
    def pin_factory(self) -> Any:
        """The gpiozero pin factory the parts run on (None: gpiozero's default)."""
        return self._factory

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        if self._close_devices() and self._close_factory and self._factory is not None:
            self._factory.close()

    def _close_devices(self) -> bool:
        """Close every part (once); True if this call did it."""
        with self._lock:
            if self._closed:
                return False
            self._closed = True
            devices, self._devices = self._devices, []
        for device in reversed(devices):  # outside the lock: closing joins gpiozero's threads
            device.close()
        return True

    def __enter__(self) -> GpioPanel:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


class FakePanel:
    """A panel without hardware: records what it is shown and sounds; ``press`` simulates a
    button (the on-screen buttons of ``--simulate``, and the tests' ``press("confirm")``)."""

    def __init__(self, submit: Submit, *, source: str = "panel") -> None:
        self._submit = submit
        self._source = source
        self.views: list[PanelView] = []
        self.tones: list[Tone] = []
        self.closed = False

    @property
    def view(self) -> PanelView | None:
        """What the panel shows now (None before the first ``show``)."""
        return self.views[-1] if self.views else None

    def press(self, button: Button | str) -> None:
        """Press ``button`` (a :class:`Button` or its name: "confirm", "back", "menu")."""
        command = ButtonPressed(Button(button) if isinstance(button, str) else button, self._source)
        if not self.closed:
            self._submit(command)

    def show(self, view: PanelView) -> None:
        if not self.closed:
            self.views.append(view)

    def beep(self, tone: Tone) -> None:
        if not self.closed:
            self.tones.append(tone)

    def close(self) -> None:
        self.closed = True

    def __enter__(self) -> FakePanel:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def make_pin_factory(name: str) -> Any:
    """The gpiozero pin factory called ``name`` ("auto": None, gpiozero's own choice)."""
    if name == "auto":
        return None
    if name == "mock":
        from gpiozero.pins.mock import MockFactory

        return MockFactory()
    if name == "lgpio":
        try:
            from gpiozero.pins.lgpio import LGPIOFactory
        except ImportError as exc:
            raise PanelError(
                'gpio.pin_factory = "lgpio" needs the lgpio package: pip install ".[pi]" '
                f"(or apt install python3-lgpio): {exc}"
            ) from exc
        try:
            return LGPIOFactory()
        except Exception as exc:
            raise PanelError(f"GPIO panel: cannot open the GPIO chip with lgpio: {exc}") from exc
    raise PanelError(f"unknown gpio.pin_factory {name!r}: one of auto, lgpio, mock")


def open_panel(config: GpioConfig, submit: Submit) -> GpioPanel | FakePanel:
    """The panel the config asks for: a :class:`FakePanel` when GPIO is disabled, else a
    :class:`GpioPanel` on the named pin factory (which it closes when closed)."""
    if not config.enabled:
        return FakePanel(submit)
    factory = make_pin_factory(config.pin_factory)
    try:
        return GpioPanel.from_config(config, submit, pin_factory=factory, close_factory=factory is not None)
    except PanelError as exc:
        if factory is not None:
            factory.close()
        if config.pin_factory == "auto":
            raise PanelError(
                f"{exc} (no GPIO here? set gpio.enabled = false, or run 'skattisch run --simulate')"
            ) from exc
        raise
