"""Members sit down by tapping their cards: the next free seat gets the roster's
short name, a second tap stands him up, an unknown card is told to register at the laptop, a
playing card at setup and a member card during play are told apart; the list gets the ids."""

from __future__ import annotations

from device.cards import Card
from device.hardware import CardScanned, UnknownCardScanned
from device.table import OpenList, RosterReceived
from tests.table_helpers import Table, german

ROSTER = [{"name": "Jürgen", "short": "Jürgen", "id": "pJ", "card": "04A1B2C3"},
          {"name": "Anna", "short": "Anna", "id": "pA", "card": "0012345678"},
          {"name": "Bernd", "short": "Bernd", "id": "pB", "card": "4006381333931"},  # a barcode
          {"name": "Carla", "short": "Carla", "id": "pC"}]


def seated_table() -> Table:
    table = Table(open=False)
    received = RosterReceived.from_ack(ROSTER)
    assert received is not None
    table.ok(received)
    return table


def test_cards_seat_members_in_the_order_tapped_and_a_second_tap_stands_one_up() -> None:
    table = seated_table()
    for raw in ("04a1b2c3\r", "0012345678", "4006381333931"):  # as the three reader kinds report them
        table.ok(UnknownCardScanned(raw, "unbekannt"))
    assert table.snap.setup.card_seats == ("Jürgen", "Anna", "Bernd")
    table.ok(UnknownCardScanned("0012345678", "unbekannt"))
    assert table.snap.setup.card_seats == ("Jürgen", "Bernd")
    table.ok(UnknownCardScanned("0012345678", "unbekannt"))
    assert table.snap.setup.card_seats == ("Jürgen", "Bernd", "Anna")


def test_an_unknown_card_and_a_playing_card_at_setup_are_told_apart() -> None:
    table = seated_table()
    unknown = table.refused(UnknownCardScanned("DEADBEEF", "unbekannt"), "unknown_member_card")
    assert german(unknown) == "Karte unbekannt: bitte am Laptop anmelden"
    playing = table.refused(CardScanned(Card.parse("CJ"), raw="CJ"), "playing_card_at_setup")
    assert "Mitgliedskarte" in german(playing)
    assert table.snap.setup.card_seats == ()


def test_the_list_opened_gets_the_member_ids_and_a_member_card_in_play_is_refused() -> None:
    table = seated_table()
    for raw in ("04A1B2C3", "0012345678"):
        table.ok(UnknownCardScanned(raw, "unbekannt"))
    opened = table.ok(OpenList(("Jürgen", "Anna", "Gast", "Carla"))).events[0].body
    assert opened.members == ("pJ", "pA", "", "pC")  # Carla picked from the roster by name: her id too
    assert table.snap.setup.card_seats == ()
    during = table.refused(UnknownCardScanned("04A1B2C3", "unbekannt"), "member_card_in_play")
    assert german(during) == "Mitgliedskarte von Jürgen: jetzt wird eine Spielkarte erwartet"
    # a card neither deck nor roster knows, during play: the reader's own words as before
    assert table.refused(UnknownCardScanned("FFFF", "nicht im Kartensatz"), "unknown_card")


def test_without_a_laptop_roster_lists_open_as_before() -> None:
    table = Table(open=False)
    opened = table.ok(OpenList(("Anna", "Bernd", "Carla"))).events[0]
    assert opened.body.members == () and "members" not in opened.to_json()["data"]


def test_while_the_laptop_assigns_a_card_the_next_unknown_one_goes_there_once() -> None:
    from device.table import CardWanted

    table = seated_table()
    sent: list[str] = []
    table.service.report_cards_to(sent.append)
    table.ok(CardWanted(True))
    assert table.refused(UnknownCardScanned(" 0000ffff ", "unbekannt"), "card_to_laptop")
    assert sent == ["0000FFFF"]
    table.ok(UnknownCardScanned("04A1B2C3", "unbekannt"))  # a roster card still seats its member
    assert table.refused(UnknownCardScanned("0000EEEE", "unbekannt"), "unknown_member_card")  # one card only
    assert sent == ["0000FFFF"] and table.snap.setup.card_seats == ("Jürgen",)


def test_a_member_on_another_tables_open_list_is_told_where_and_a_second_tap_seats_him() -> None:
    from device.table import SeatedElsewhere

    table = seated_table()
    table.ok(SeatedElsewhere.from_ack({"pJ": "Tisch 3", "pX": "Tisch 2"}))
    told = table.refused(UnknownCardScanned("04A1B2C3", "unbekannt"), "seated_elsewhere")
    assert german(told) == "Jürgen sitzt laut Laptop an Tisch 3: noch einmal auflegen, um hier Platz zu nehmen"
    table.ok(UnknownCardScanned("04A1B2C3", "unbekannt"))
    assert table.snap.setup.card_seats == ("Jürgen",)
