"""The real GPIO panel on a Raspberry Pi: a person watches the LEDs and presses the buttons.

Opt-in, on the Pi only, with the panel wired as the config in force says::

    SKATTISCH_HARDWARE=1 .venv/bin/python -m pytest tests/hardware/test_panel_pi.py -s -m hardware

(``-s`` shows the instructions; SKATTISCH_CONFIG picks another config file.) Stop the table
first (``sudo systemctl stop skattisch``): it holds the pins.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from device.hardware import Button, ButtonPressed, PanelView, Tone
from device.inbox import Inbox
from drivers.config import GpioConfig, load_config
from drivers.panel import GpioPanel, open_panel

PRESS_TIMEOUT = 30.0  # seconds a person gets for each press


def on_a_pi() -> bool:
    model = Path("/proc/device-tree/model")
    return model.is_file() and "Raspberry Pi" in model.read_text(errors="replace")


pytestmark = [
    pytest.mark.hardware,
    pytest.mark.skipif(os.environ.get("SKATTISCH_HARDWARE") != "1", reason="set SKATTISCH_HARDWARE=1 to run"),
    pytest.mark.skipif(not on_a_pi(), reason="needs a Raspberry Pi"),
    pytest.mark.timeout(600),
]


@pytest.fixture(scope="module")
def gpio() -> GpioConfig:
    config = load_config().gpio
    if not config.enabled or not config.pins():
        pytest.skip(f"no panel in the config ({load_config().source})")
    return config


@pytest.fixture
def inbox() -> Inbox[object]:
    return Inbox()


@pytest.fixture
def panel(gpio: GpioConfig, inbox: Inbox[object]) -> Iterator[GpioPanel]:
    built = open_panel(gpio, inbox.submit)
    assert isinstance(built, GpioPanel)
    with built:
        yield built


def ask(capsys: pytest.CaptureFixture[str], text: str) -> None:
    with capsys.disabled():
        print(f"\n>>> {text}", flush=True)


def wait_for(inbox: Inbox[object], button: Button) -> None:
    inbox.drain()  # forget presses from before the question
    got = inbox.get(timeout=PRESS_TIMEOUT)
    assert got == ButtonPressed(button), f"expected {button.name}, got {got}"


def test_each_led_lights_and_a_press_confirms(
    panel: GpioPanel, gpio: GpioConfig, inbox: Inbox[object], capsys: pytest.CaptureFixture[str]
) -> None:
    if gpio.confirm is None:
        pytest.skip("no confirm button fitted")
    leds = [(f"dealer LED of Platz {seat + 1}", led) for seat, led in enumerate(panel.dealer_leds)]
    status = (("reader LED", panel.reader_led), ("sync LED", panel.sync_led))
    leds += [(name, led) for name, led in status if led is not None]
    for name, led in leds:
        led.on()
        ask(capsys, f"The {name} is lit (and only it)? Press CONFIRM briefly if so.")
        wait_for(inbox, Button.CONFIRM)
        led.off()


def test_the_view_lights_the_dealer_and_blinks_who_sits_out(
    panel: GpioPanel, gpio: GpioConfig, inbox: Inbox[object], capsys: pytest.CaptureFixture[str]
) -> None:
    if len(gpio.dealer_leds) < 2 or gpio.confirm is None:
        pytest.skip("needs two dealer LEDs and a confirm button")
    panel.show(PanelView(dealer_seat=0, sitting_out=frozenset({0, 1}), reader_connected=True, sync_ok=True))
    ask(capsys, "Platz 1 lit steadily, Platz 2 blinking, reader and sync LEDs lit? Press CONFIRM.")
    wait_for(inbox, Button.CONFIRM)


def test_back_and_a_long_press(
    panel: GpioPanel, gpio: GpioConfig, inbox: Inbox[object], capsys: pytest.CaptureFixture[str]
) -> None:
    if gpio.back is not None:
        ask(capsys, "Press BACK.")
        wait_for(inbox, Button.BACK)
    if gpio.confirm is not None:
        ask(capsys, f"Hold CONFIRM down for {gpio.hold_seconds + 0.5:g} seconds, then let go.")
        wait_for(inbox, Button.MENU)
        assert inbox.get(timeout=2.0) is None, "a long press must send MENU only"


def test_the_buzzer_tones(
    panel: GpioPanel, gpio: GpioConfig, inbox: Inbox[object], capsys: pytest.CaptureFixture[str]
) -> None:
    if gpio.buzzer is None or gpio.confirm is None:
        pytest.skip("no buzzer (or no confirm button) fitted")
    sounds = {Tone.ACCEPTED: "one short chirp", Tone.REFUSED: "two beeps", Tone.ERROR: "three long beeps"}
    for tone, sound in sounds.items():
        panel.beep(tone)
        ask(capsys, f"Did you hear {sound} ({tone.value})? Press CONFIRM.")
        wait_for(inbox, Button.CONFIRM)
