"""The pot (rules/001, "Spiel um einen Pot (Skat mit Pinke)") kept in the list of the club
profile with its pot option, and paid out in the settlement with the game points."""

from __future__ import annotations

from device.scoring import settle
from device.table.commands import EnterRamsch, EnterResult
from tests.table_helpers import Table


def test_the_pot_through_an_evening_and_into_the_settlement() -> None:
    t = Table("Anna", "Bernd", "Carla", profile="kneipe+pot", stake="1", series_length=None)
    # 1. Anna deals: Carla loses a Kreuz: everyone puts in 10 (the pot was empty), she 10 more
    t.say("M 18", "V passe", "H passe")
    t.take_skat()
    t.declare("clubs")
    t.ok(EnterResult(4, 50, 1))
    t.confirm("Carla", "Bernd")
    listed = t.snap.list
    assert listed is not None and listed.pot == 40 and listed.pot_net == (-10, -10, -20)
    assert t.entry(1).pot_note == "Einsatz 3 × 10, Carla zahlt 10 ein: 40"
    # 2. Bernd deals: Anna (Mittelhand) wins a Grand Hand and takes the pot
    t.say("M 18", "V passe", "H passe")
    t.declare("grand/hand")
    t.ok(EnterResult(6, 70, 1))
    t.confirm("Anna", "Carla")
    listed = t.snap.list
    assert listed is not None and listed.pot == 0 and listed.pot_net == (30, -10, -20)
    assert t.entry(2).pot_note == "Anna gewinnt den Pot (40): 0"
    assert t.entry(2).pot_note_en == "Anna wins the pot (40): 0"
    # 3. Carla deals, all pass: a Ramsch; the empty pot takes the ante again, Bernd loses and pays in
    t.say("M passe", "H passe", "V passe")
    t.ok(EnterRamsch((30, 60, 20), (3, 5, 2), 10, 1))
    t.confirm("Anna", "Bernd")
    listed = t.snap.list
    assert listed is not None and listed.pot == 40 and listed.pot_net == (20, -30, -30), listed.pot_net
    end = t.snap.end  # the settlement as it would stand (the Grand Hand's Bock round is still open)
    assert end is not None and end.pot_left == 40
    assert end.pot_net == (34, -17, -17)  # 40 back in equal shares, the odd point to Anna
    assert sum(end.amounts) == 0 and end.pot_amounts == (34, -17, -17)
    games = settle(listed.classic, 1).amounts  # the game points' money, and the pot's on top
    assert end.amounts == tuple(g + p for g, p in zip(games, (34, -17, -17)))
    assert sum(t.amount for t in end.transfers if t.payee == "Anna") == end.amounts[0]
    without = Table("Anna", "Bernd", "Carla", profile="kneipe", stake="1", store=None)
    assert without.snap.end is not None and without.snap.end.pot_amounts == ()


def test_no_pot_without_the_option() -> None:
    t = Table("Anna", "Bernd", "Carla", profile="kneipe", stake="1")
    listed = t.snap.list
    assert listed is not None and listed.pot is None and listed.pot_net == ()


def test_a_grand_hand_lost_doubles_the_pot() -> None:
    t = Table("Anna", "Bernd", "Carla", profile="kneipe+pot")
    t.say("M 18", "V passe", "H passe")
    t.declare("grand/hand")
    t.ok(EnterResult(4, 50, 1))
    t.confirm("Carla", "Bernd")
    listed = t.snap.list
    assert listed is not None and listed.pot == 60 and listed.pot_net == (-10, -10, -40)
    assert t.entry(1).pot_note == "Einsatz 3 × 10, Carla verdoppelt den Pot: 60"


def test_the_ouvert_options_score_as_the_text_says() -> None:
    """001 "Ouvert-Spiele": "Einige Spieler bewerten Spiele, die als Ouvert gespielt werden, mit
    dem doppelten Wert"; "Dies fügt dem Spielwert einen zusätzlichen Multiplikator hinzu"."""
    t = Table("Anna", "Bernd", "Carla", profile="kneipe+ouvert_doubles")
    t.say("M 18", "V passe", "H passe")
    t.declare("grand/hand/ouvert")
    t.ok(EnterResult(10, 120, 2))
    result = t.snap.result
    assert result is not None and result.score == 384 and "ouvert doppelt 16" in result.text, result.text
    t = Table("Anna", "Bernd", "Carla", profile="kneipe+ouvert_any")
    t.say("M 18", "V passe", "H passe")
    t.declare("clubs/hand/ouvert")
    t.ok(EnterResult(10, 120, 2))
    result = t.snap.result
    assert result is not None and result.score == 108 and "ouvert 9" in result.text, result.text
