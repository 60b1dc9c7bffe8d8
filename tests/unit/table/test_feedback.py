"""The panel follows the table: dealer LED, seats sitting out, and a tone per scanned card."""

from __future__ import annotations

from device.cards import Card
from device.hardware import CardScanned, PanelView, Tone, UnknownCardScanned
from device.table.feedback import PanelFeedback
from drivers.panel import FakePanel
from tests.table_helpers import Table


def test_leds_follow_the_dealer_and_the_buzzer_each_card() -> None:
    table = Table("Anna", "Bernd", "Carla", "Dora")
    panel = FakePanel(lambda command: None)
    feedback = PanelFeedback(table.service, panel)
    assert panel.view == PanelView(dealer_seat=0, sitting_out=frozenset({0}), reader_connected=False, sync_ok=False)
    table.say("M 18", "V passe", "H passe")
    table.declare("clubs/hand")
    table.do(CardScanned(Card.parse("CJ"), raw="CJ"))
    table.do(CardScanned(Card.parse("CJ"), raw="CJ"))  # seen twice: refused
    table.do(UnknownCardScanned(raw="FFFF", reason="unbekannt"))
    assert panel.tones == [Tone.ACCEPTED, Tone.REFUSED, Tone.REFUSED]
    feedback.close()
    table.do(CardScanned(Card.parse("SJ"), raw="SJ"))
    assert panel.tones == [Tone.ACCEPTED, Tone.REFUSED, Tone.REFUSED]  # detached: silent


def test_a_refused_tap_on_the_screen_is_silent_and_the_next_dealer_lights() -> None:
    table = Table("Anna", "Bernd", "Carla")
    panel = FakePanel(lambda command: None)
    PanelFeedback(table.service, panel)
    table.say("M passe", "H passe", "V passe")  # eingepasst: Bernd deals next
    assert panel.view is not None and panel.view.dealer_seat == 1
    from device.table import Bid
    table.do(Bid(2, 18))  # out of turn: refused on screen, no tone
    assert panel.tones == []


def test_a_real_gpio_panel_on_gpiozeros_mock_pins_follows_the_table() -> None:
    """The whole chain: a button press on a pin undoes a bid; the dealer's LED pin is lit."""
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from drivers.panel import GpioPanel

    factory = MockFactory(pin_class=MockPWMPin)
    table = Table("Anna", "Bernd", "Carla")
    panel = GpioPanel(table.service.submit, pin_factory=factory, confirm=17, back=27, dealer_leds=(5, 6, 13))
    try:
        PanelFeedback(table.service, panel)
        assert [factory.pin(n).state for n in (5, 6, 13)] == [1, 0, 0]  # Anna (Platz 1) deals
        table.say("M passe", "H passe", "V passe")
        assert [factory.pin(n).state for n in (5, 6, 13)] == [0, 1, 0]
        factory.pin(27).drive_low()  # back: takes the eingepasst back
        factory.pin(27).drive_high()
        table.service.pump()
        assert [factory.pin(n).state for n in (5, 6, 13)] == [1, 0, 0]
    finally:
        panel.close()
        factory.close()
