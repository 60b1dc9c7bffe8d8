"""Spitze (rules/001, "Spitze") played at the table with the club profile's Spitze option:
announced with the declaration before the first card, checked against the scanned cards (the
lowest trump must take the last trick), asked for a result typed in, scored by score_spitze."""

from __future__ import annotations

from device.table.commands import (
    AnnounceSpitze, Confirm, ConsentCorrection, EnterResult, EnterSpitzeMade, OfferGift, ProposeCorrection,
)
from ui.table.viewmodels import corrected_record
from tests.table_helpers import Table, english, german

# Anna deals: Vorhand Bernd, Mittelhand Carla (the declarer, Grand), Hinterhand Anna.
# Carla: CJ SJ HJ DJ CA CT SA ST HA HT; skat C7 S7 pushed; she takes every trick, the last with DJ.
TRICKS = ["CK CA D7", "CJ D8 C8", "SJ D9 C9", "HJ DQ CQ", "CT DK SK", "SA DT SQ", "ST DA S9", "HA H7 HK",
          "HT H8 HQ", "DJ H9 S8"]


def grand_with_spitze(options: str = "+spitze", count: int = 1) -> Table:
    t = Table("Anna", "Bernd", "Carla", profile="kneipe" + options)
    t.say("M 18", "V passe", "H passe")
    t.take_skat()
    t.push("C7", "S7")
    t.declare("grand")
    t.ok(AnnounceSpitze(count))
    return t


def test_spitze_made_from_the_scanned_cards() -> None:
    """001: "Um zu gewinnen, müssen Sie den letzten Stich mit dem niedrigsten Trumpf gewinnen":
    Grand mit 4, Spiel 5, Schneider 6, Schwarz 7, Spitze 8 x 24 = 192."""
    t = grand_with_spitze()
    play = t.snap.play
    assert play is not None and play.spitze == 1 and play.spitze_cards == ("DJ",) and play.spitze_choices == ()
    for trick in TRICKS:
        t.scan(*trick.split())
        if t.snap.play is not None:
            assert not t.snap.play.spitze_lost
    result = t.snap.result
    assert result is not None and result.won and result.score == 192, result.text
    assert "Spitze 8" in result.text
    t.confirm("Carla", "Bernd")
    row = t.assert_list_entry(1, declarer="Carla", score=192)
    assert row.short == "Grand Sp"


def test_the_lowest_trump_too_early_loses_the_spitze_as_the_cards_show() -> None:
    t = grand_with_spitze()
    for trick in TRICKS[:8]:
        t.scan(*trick.split())
    t.scan("DJ", "H8", "HQ")  # the Karo-Bube in the ninth trick: the Spitze cannot be made
    play = t.snap.play
    assert play is not None and play.spitze_lost
    t.scan("HT", "H9", "S8")
    result = t.snap.result
    assert result is not None and not result.won and result.score == -384, result.text  # 8 x 24, lost double


def test_a_result_typed_in_asks_whether_the_spitze_was_made() -> None:
    t = Table("Anna", "Bernd", "Carla", profile="kneipe+spitze")
    t.say("M 18", "V passe", "H passe")
    t.take_skat()
    t.declare("hearts")
    play = t.snap.play
    assert play is not None and play.spitze_choices == (1, 2, 3, 4)
    t.ok(AnnounceSpitze(3), EnterResult(6, 70, 1))  # "die letzten 3 Stiche mit der Trumpf 9-8-7"
    result = t.snap.result
    assert result is not None and result.needs_spitze and result.text == ""
    assert german(t.refused(Confirm(t.seat("Carla")), "needs_spitze")) == "Erst angeben, ob die Spitze gemacht wurde"
    t.ok(EnterSpitzeMade(True))
    result = t.snap.result  # mit 1, Spiel 2, Spitze 3, 4, 5 x 10 = 50
    assert result is not None and result.won and result.score == 50, result.text
    t.undo()
    t.ok(EnterSpitzeMade(False))
    result = t.snap.result
    assert result is not None and not result.won and result.score == -100, result.text


def test_what_the_table_refuses() -> None:
    t = Table("Anna", "Bernd", "Carla", profile="kneipe")  # the club profile without the option
    t.say("M 18", "V passe", "H passe")
    t.take_skat()
    t.push("H7", "S7")
    t.declare("hearts")
    refusal = t.refused(AnnounceSpitze(1), "not_in_profile")
    assert german(refusal) == "Spitze gibt es nach den Kneipenregeln nicht"
    assert english(refusal) == "no Spitze under the pub rules"

    t = Table("Anna", "Bernd", "Carla", profile="kneipe+spitze")
    t.say("M 18", "V passe", "H passe")
    t.take_skat()
    t.push("H7", "S7")
    t.declare("hearts")
    assert german(t.refused(AnnounceSpitze(1), "bad_spitze")) == "Spitze geht nicht: Herz 7 liegt im Skat"
    assert t.snap.play.spitze_choices == ()  # type: ignore[union-attr]

    t = grand_with_spitze()
    assert "schon angesagt" in german(t.refused(AnnounceSpitze(2), "not_allowed"))
    assert german(t.refused(OfferGift(0), "not_allowed")).startswith("Mit Spitze wird nicht geschenkt")

    t = Table("Anna", "Bernd", "Carla", profile="kneipe+spitze")
    t.say("M 18", "V passe", "H passe")
    t.take_skat()
    t.declare("grand")
    t.refused(AnnounceSpitze(5), "bad_spitze")  # Grand has four trumps
    t.scan("CK")
    assert "vor der ersten Karte" in german(t.refused(AnnounceSpitze(1), "too_late"))


def test_a_correction_of_a_spitze_game_from_cards_keeps_what_the_cards_showed() -> None:
    t = grand_with_spitze()
    for trick in TRICKS:
        t.scan(*trick.split())
    t.confirm("Carla", "Bernd")
    record = t.service.state.rows[0].record
    assert record is not None and "spitze_made" not in record  # the cards form shows it
    corrected = corrected_record(record, declarer_tricks=9, declarer_points=110, matadors=4)
    assert corrected["spitze"] == 1 and corrected["spitze_made"] is True
    t.ok(ProposeCorrection(1, corrected, 2, 0), ConsentCorrection(1), ConsentCorrection(2))
    row = t.assert_list_entry(1, declarer="Carla", score=168)  # mit 4, Spiel 5, Schneider 6, Spitze 7 x 24
    assert row.corrected
