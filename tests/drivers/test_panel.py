"""The GPIO panel on gpiozero's own mock pins: press, then look at what lit up and sounded."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from gpiozero import LED, Device
from gpiozero.pins.mock import MockFactory, MockPin

from device.hardware import Button, ButtonPressed, PanelView, Tone
from device.inbox import Inbox
from drivers.config import GpioConfig, load_config
from drivers.panel import DEFAULT_TONES, Beep, FakePanel, GpioPanel, PanelError, open_panel

ROOT = Path(__file__).resolve().parents[2]

CONFIRM, BACK, BUZZER, READER_LED, SYNC_LED = 17, 27, 18, 22, 23
DEALER_LEDS = (5, 6, 13, 19, 26)
HOLD = 0.05  # seconds: a long press in these tests
BLINK = 0.02
WAIT = 2.0  # the most a test waits for something that must happen
TEST_TONES = {
    Tone.ACCEPTED: Beep(0.01, 0.0, 1),
    Tone.REFUSED: Beep(0.01, 0.01, 2),
    Tone.ERROR: Beep(0.04, 0.01, 3),
}


class WatchedPin(MockPin):
    """A mock pin that wakes waiting tests when its state changes, so nobody sleeps."""

    def __init__(self, factory: MockFactory, info: object) -> None:
        self.changed = threading.Condition()
        super().__init__(factory, info)

    def _change_state(self, value: bool) -> bool:
        with self.changed:
            did_change: bool = super()._change_state(value)
            self.changed.notify_all()
        return did_change

    def wait_until(self, predicate: Callable[[WatchedPin], bool], timeout: float = WAIT) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: predicate(self), timeout)

    def history(self) -> list[bool]:
        return [bool(change.state) for change in self.states]


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    # Device.pin_factory stays None for the test: a device built without the test's factory
    # would set it, and the check after the test catches that.
    saved, Device.pin_factory = Device.pin_factory, None
    mock = MockFactory(pin_class=WatchedPin)
    try:
        yield mock
    finally:
        mock.close()
        leaked, Device.pin_factory = Device.pin_factory, saved
    assert leaked is None, "a gpiozero device was built without the pin factory handed in"


@pytest.fixture
def inbox() -> Inbox[object]:
    return Inbox()


@pytest.fixture
def panel(factory: MockFactory, inbox: Inbox[object]) -> Iterator[GpioPanel]:
    with GpioPanel(
        inbox.submit,
        pin_factory=factory,
        confirm=CONFIRM,
        back=BACK,
        dealer_leds=DEALER_LEDS,
        reader_led=READER_LED,
        sync_led=SYNC_LED,
        buzzer=BUZZER,
        hold_seconds=HOLD,
        blink_seconds=BLINK,
        tones=TEST_TONES,
    ) as built:
        yield built


def pin(factory: MockFactory, number: int) -> WatchedPin:
    found = factory.pin(number)
    assert isinstance(found, WatchedPin)
    return found


def press(factory: MockFactory, number: int) -> None:
    pin(factory, number).drive_low()  # the button connects the pin to ground


def release(factory: MockFactory, number: int) -> None:
    pin(factory, number).drive_high()


def pressed(button: Button) -> ButtonPressed:
    return ButtonPressed(button, "panel")


# -- buttons -----------------------------------------------------------------------------------


def test_a_short_press_on_confirm_sends_one_confirm(
    panel: GpioPanel, factory: MockFactory, inbox: Inbox[object]
) -> None:
    press(factory, CONFIRM)
    assert inbox.drain() == []  # confirm waits for the release: it might become a long press
    release(factory, CONFIRM)
    assert inbox.drain() == [pressed(Button.CONFIRM)]
    assert inbox.get(timeout=4 * HOLD) is None  # and no MENU comes after it


def test_a_long_press_on_confirm_sends_menu_only(
    panel: GpioPanel, factory: MockFactory, inbox: Inbox[object]
) -> None:
    press(factory, CONFIRM)
    assert inbox.get(timeout=WAIT) == pressed(Button.MENU)  # while still held
    assert inbox.get(timeout=4 * HOLD) is None  # once, however long it is held
    release(factory, CONFIRM)
    assert inbox.drain() == []  # and no CONFIRM on release


def test_a_short_press_after_a_long_one_is_a_confirm_again(
    panel: GpioPanel, factory: MockFactory, inbox: Inbox[object]
) -> None:
    press(factory, CONFIRM)
    assert inbox.get(timeout=WAIT) == pressed(Button.MENU)
    release(factory, CONFIRM)
    press(factory, CONFIRM)
    release(factory, CONFIRM)
    assert inbox.drain() == [pressed(Button.CONFIRM)]


def test_back_sends_back_when_pressed(panel: GpioPanel, factory: MockFactory, inbox: Inbox[object]) -> None:
    press(factory, BACK)
    assert inbox.drain() == [pressed(Button.BACK)]
    release(factory, BACK)
    assert inbox.get(timeout=4 * HOLD) is None  # holding back does nothing more


def test_every_press_is_one_command_in_order(
    panel: GpioPanel, factory: MockFactory, inbox: Inbox[object]
) -> None:
    for number in (CONFIRM, BACK, CONFIRM, CONFIRM, BACK):
        press(factory, number)
        release(factory, number)
    expected = (Button.CONFIRM, Button.BACK, Button.CONFIRM, Button.CONFIRM, Button.BACK)
    assert inbox.drain() == [pressed(button) for button in expected]


def test_presses_on_another_thread_reach_the_inbox(
    panel: GpioPanel, factory: MockFactory, inbox: Inbox[object]
) -> None:
    # On a Pi gpiozero calls back on its own threads; the panel only hands commands to submit.
    def presses() -> None:
        for _ in range(20):
            press(factory, BACK)
            release(factory, BACK)

    worker = threading.Thread(target=presses)
    worker.start()
    worker.join(WAIT)
    assert inbox.drain() == [pressed(Button.BACK)] * 20


# -- LEDs ---------------------------------------------------------------------------------------


def test_the_dealer_is_lit_and_seats_sitting_out_blink(panel: GpioPanel, factory: MockFactory) -> None:
    # Five at the table: the dealer (Platz 1) and the player across (Platz 3) sit out.
    panel.show(PanelView(dealer_seat=0, sitting_out=frozenset({0, 2})))
    dealer, across = pin(factory, DEALER_LEDS[0]), pin(factory, DEALER_LEDS[2])
    assert across.wait_until(lambda p: len(p.states) >= 4), "the LED of a seat sitting out blinks"
    assert across.history()[:4] == [False, True, False, True]
    assert dealer.history() == [False, True]  # lit once, steadily
    for seat in (1, 3, 4):
        assert pin(factory, DEALER_LEDS[seat]).state is False


def test_a_new_view_moves_the_dealer_and_stops_blinking(panel: GpioPanel, factory: MockFactory) -> None:
    panel.show(PanelView(dealer_seat=0, sitting_out=frozenset({0, 2})))
    across = pin(factory, DEALER_LEDS[2])
    assert across.wait_until(lambda p: len(p.states) >= 3)
    panel.show(PanelView(dealer_seat=1, sitting_out=frozenset({1})))
    assert [pin(factory, n).state for n in DEALER_LEDS] == [False, True, False, False, False]
    changes = len(across.states)
    assert not across.wait_until(lambda p: len(p.states) > changes, timeout=5 * BLINK)


def test_status_leds_show_reader_and_sync(panel: GpioPanel, factory: MockFactory) -> None:
    panel.show(PanelView(reader_connected=True, sync_ok=False))
    assert (pin(factory, READER_LED).state, pin(factory, SYNC_LED).state) == (True, False)
    panel.show(PanelView(reader_connected=False, sync_ok=True))
    assert (pin(factory, READER_LED).state, pin(factory, SYNC_LED).state) == (False, True)


def test_a_dealer_seat_without_led_lights_nothing(factory: MockFactory, inbox: Inbox[object]) -> None:
    with GpioPanel(inbox.submit, pin_factory=factory, dealer_leds=DEALER_LEDS[:3]) as three:
        three.show(PanelView(dealer_seat=4))
        assert [led.is_lit for led in three.dealer_leds] == [False, False, False]
        three.show(PanelView(dealer_seat=2))
        assert [led.is_lit for led in three.dealer_leds] == [False, False, True]


# -- buzzer ------------------------------------------------------------------------------------


@pytest.mark.parametrize("tone", list(Tone))
def test_each_tone_plays_its_pattern(panel: GpioPanel, factory: MockFactory, tone: Tone) -> None:
    buzzer, pattern = pin(factory, BUZZER), TEST_TONES[tone]
    buzzer.clear_states()
    panel.beep(tone)
    assert buzzer.wait_until(lambda p: len(p.states) >= 1 + 2 * pattern.count)
    assert buzzer.history() == [False] + [True, False] * pattern.count
    # each "off" entry says how long the buzzer was on before it
    on_times = [change.timestamp for change in buzzer.states[2::2]]
    assert all(seconds >= pattern.on_seconds * 0.9 for seconds in on_times)


def test_the_default_tones_differ_and_are_short() -> None:
    assert set(DEFAULT_TONES) == set(Tone)
    shapes = {(beep.count, beep.on_seconds) for beep in DEFAULT_TONES.values()}
    assert len(shapes) == len(Tone), "each tone must sound different"
    assert all(0 < beep.seconds <= 2.0 for beep in DEFAULT_TONES.values())


def test_a_new_tone_cuts_the_old_one_short(factory: MockFactory, inbox: Inbox[object]) -> None:
    tones = {**TEST_TONES, Tone.ERROR: Beep(WAIT * 2, 0.0, 1)}  # an error tone of 4 s
    with GpioPanel(inbox.submit, pin_factory=factory, buzzer=BUZZER, tones=tones) as panel:
        panel.beep(Tone.ERROR)
        buzzer = pin(factory, BUZZER)
        assert buzzer.wait_until(lambda p: p.state is True)
        panel.beep(Tone.ACCEPTED)  # takes over while the buzzer sounds, ends after its chirp
        assert buzzer.wait_until(lambda p: p.state is False), "the error tone was not cut short"
        assert buzzer.history() == [False, True, False]


# -- parts, closing, errors ----------------------------------------------------------------


def test_parts_left_out_are_absent(factory: MockFactory, inbox: Inbox[object]) -> None:
    with GpioPanel(inbox.submit, pin_factory=factory, confirm=CONFIRM) as bare:
        bare.show(PanelView(dealer_seat=0, reader_connected=True, sync_ok=True))
        bare.beep(Tone.ERROR)
        assert {info.name for info in factory.pins} == {f"GPIO{CONFIRM}"}
        assert (bare.dealer_leds, bare.reader_led, bare.sync_led, bare.buzzer) == ((), None, None, None)


def test_close_is_idempotent_frees_the_pins_and_silences_the_panel(
    panel: GpioPanel, factory: MockFactory, inbox: Inbox[object]
) -> None:
    panel.show(PanelView(dealer_seat=0, sitting_out=frozenset({1})))
    panel.close()
    panel.close()
    assert panel.closed
    panel.show(PanelView(dealer_seat=2))  # a closed panel shows, sounds and sends nothing
    panel.beep(Tone.ERROR)
    assert pin(factory, DEALER_LEDS[2]).state is False
    with LED(CONFIRM, pin_factory=factory), LED(DEALER_LEDS[1], pin_factory=factory):
        pass  # the pins are free again
    assert inbox.drain() == []


def test_a_pin_in_use_is_a_panel_error_and_frees_what_it_took(
    factory: MockFactory, inbox: Inbox[object]
) -> None:
    with GpioPanel(inbox.submit, pin_factory=factory, confirm=CONFIRM):
        with pytest.raises(PanelError, match="GPIO17"):
            GpioPanel(inbox.submit, pin_factory=factory, back=BACK, buzzer=CONFIRM)
        with GpioPanel(inbox.submit, pin_factory=factory, back=BACK) as again:
            press(factory, BACK)
            assert again.closed is False and inbox.drain() == [pressed(Button.BACK)]


def test_the_panel_is_built_from_the_config(factory: MockFactory, inbox: Inbox[object]) -> None:
    config = GpioConfig(confirm=4, back=25, dealer_leds=(5, 6, 13), sync_led=23, hold_seconds=HOLD)
    with GpioPanel.from_config(config, inbox.submit, pin_factory=factory) as built:
        press(factory, 25)
        built.show(PanelView(dealer_seat=2, sync_ok=True))
        assert inbox.drain() == [pressed(Button.BACK)]
        assert (pin(factory, 13).state, pin(factory, 23).state) == (True, True)
        press(factory, 4)
        assert inbox.get(timeout=WAIT) == pressed(Button.MENU)  # the configured hold time


def test_the_example_configs_wiring_builds_a_panel(factory: MockFactory, inbox: Inbox[object]) -> None:
    gpio = load_config(ROOT / "deploy" / "skattisch.example.toml").gpio
    with GpioPanel.from_config(gpio, inbox.submit, pin_factory=factory) as built:
        assert gpio.confirm is not None
        press(factory, gpio.confirm)
        release(factory, gpio.confirm)
        assert inbox.drain() == [pressed(Button.CONFIRM)]
        assert len(built.dealer_leds) == len(gpio.dealer_leds) == 5


def test_open_panel_picks_the_factory_by_name(inbox: Inbox[object]) -> None:
    panel = open_panel(GpioConfig(pin_factory="mock", confirm=CONFIRM, buzzer=BUZZER), inbox.submit)
    assert isinstance(panel, GpioPanel)
    with panel:
        factory = panel.pin_factory
        assert isinstance(factory, MockFactory)
        factory.pin(CONFIRM).drive_low()
        factory.pin(CONFIRM).drive_high()
        assert inbox.drain() == [pressed(Button.CONFIRM)]
    assert factory.pins == {}  # the panel closed the factory it opened


def test_open_panel_without_gpio_gives_a_fake(inbox: Inbox[object]) -> None:
    panel = open_panel(GpioConfig(enabled=False, confirm=CONFIRM), inbox.submit)
    assert isinstance(panel, FakePanel)


def test_open_panel_with_no_parts_touches_no_hardware(factory: MockFactory, inbox: Inbox[object]) -> None:
    with open_panel(GpioConfig(pin_factory="auto"), inbox.submit) as panel:
        panel.show(PanelView(dealer_seat=0))
        panel.beep(Tone.ACCEPTED)
    # the factory fixture checks that gpiozero never chose a default pin factory


@pytest.mark.skipif(importlib.util.find_spec("lgpio") is not None, reason="lgpio is installed here")
def test_lgpio_without_the_package_says_what_to_install(inbox: Inbox[object]) -> None:
    with pytest.raises(PanelError, match=r'lgpio package: pip install "\.\[pi\]"'):
        open_panel(GpioConfig(pin_factory="lgpio", confirm=CONFIRM), inbox.submit)


def test_importing_the_panel_touches_no_gpio_library() -> None:
    code = "import sys, drivers.panel; print([m for m in sys.modules if m.startswith(('gpiozero', 'lgpio'))])"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


# -- the fake ----------------------------------------------------------------------------------


def test_the_fake_panel_presses_and_records(inbox: Inbox[object]) -> None:
    with FakePanel(inbox.submit) as fake:
        fake.press("confirm")
        fake.press(Button.MENU)
        fake.press("back")
        assert fake.view is None
        fake.show(PanelView(dealer_seat=1))
        fake.show(PanelView(dealer_seat=2, sync_ok=True))
        fake.beep(Tone.REFUSED)
    assert inbox.drain() == [pressed(Button.CONFIRM), pressed(Button.MENU), pressed(Button.BACK)]
    assert [view.dealer_seat for view in fake.views] == [1, 2]
    assert fake.view == PanelView(dealer_seat=2, sync_ok=True)
    assert fake.tones == [Tone.REFUSED]
    fake.press("confirm")
    fake.beep(Tone.ERROR)
    assert fake.closed and inbox.drain() == [] and fake.tones == [Tone.REFUSED]


def test_the_fake_panel_refuses_an_unknown_button(inbox: Inbox[object]) -> None:
    with pytest.raises(ValueError, match="'okay'"):
        FakePanel(inbox.submit).press("okay")
