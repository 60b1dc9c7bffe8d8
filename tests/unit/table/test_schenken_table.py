"""Schenken (rules/001, "Schenken") played at the table of the club profile: the defenders'
"schenken" taps, the partner's agreeing or not, the declarer accepting or playing on for
Schneider and Schwarz, the list entry, a correction, and the ISkO's refusal (SkWO 9.5)."""

from __future__ import annotations

from device.cards import Card
from device.hardware import CardScanned
from device.table.commands import (
    AcceptGift, AutomaticGift, Confirm, ConsentCorrection, Kontra, DeclineGift, EnterMatadors, EnterResult, OfferGift, PlayOn, ProposeCorrection,
    Undo,
)
from device.table.state import Phase
from tests.table_helpers import Table, english, german
from ui.table_words import result_text


def kneipe() -> Table:
    """Anna deals: Vorhand Bernd, Mittelhand Carla (the declarer below), Hinterhand Anna."""
    t = Table("Anna", "Bernd", "Carla", profile="kneipe")
    t.say("M 18", "V passe", "H passe")
    t.take_skat()
    t.declare("clubs")
    return t


def test_given_and_accepted_is_won_simple() -> None:
    """001: "erhält er den einfachen Punktwert, so, als ob er das Spiel gewonnen hätte"."""
    t = kneipe()
    play = t.snap.play
    assert play is not None and play.may_offer_gift == (0, 2) and not play.may_accept_gift
    t.ok(OfferGift(0))
    play = t.snap.play
    assert play is not None and play.gift_offers == (0,) and play.may_offer_gift == (2,)
    assert play.may_decline_gift == (2,) and not play.may_accept_gift
    t.ok(OfferGift(2))
    play = t.snap.play
    assert play is not None and play.may_accept_gift and play.may_play_on and play.may_offer_gift == ()
    t.ok(AcceptGift(1))
    t.assert_phase(Phase.RESULT)
    result = t.snap.result
    assert result is not None and result.needs_matadors  # nothing was played: the table gives his Spitzen
    t.ok(EnterMatadors(2))
    result = t.snap.result
    assert result is not None and result.score == 36 and result.won, result.text
    assert result.text == "Carla: Kreuz mit 2, Spiel 3 = 36, geschenkt, gewonnen +36"
    assert result.text_en.endswith("= 36, given, won +36")
    t.confirm("Carla", "Bernd")
    row = t.assert_list_entry(1, declarer="Carla", score=36, text="geschenkt")
    assert row.text_en.endswith("given, won +36") and row.marks == ()  # the entry's text says it, once
    assert row.short == "Kreuz g"  # the paper list's short form


def test_played_on_must_make_schneider() -> None:
    """001: "In diesem Fall müssen die Gegner jedoch Schneider gespielt werden ... wie für einen
    angesagten Schneider (jedoch ohne den Hand-Multiplikator ...)": mit 2, Spiel 3, Schneider 4,
    angesagt 5 x 12 = 60; short of Schneider it is lost at that value."""
    t = kneipe()
    t.ok(OfferGift(2), OfferGift(0), PlayOn(1))
    play = t.snap.play
    assert play is not None and play.schenken == "weiterspielen" and play.gift_offers == ()
    assert play.may_offer_gift == (0, 2)  # they may give Schneider now
    t.ok(EnterResult(8, 95, 2))
    result = t.snap.result
    assert result is not None and result.score == 60, result.text
    assert "weitergespielt auf Schneider" in result.text
    t.confirm("Carla", "Bernd")
    assert t.entry(1).short == "Kreuz w S"
    t = kneipe()
    t.ok(OfferGift(2), OfferGift(0), PlayOn(1))
    t.ok(EnterResult(7, 85, 2))
    result = t.snap.result
    assert result is not None and result.score == -120 and not result.won, result.text


def test_schneider_given_after_playing_on_and_then_schwarz() -> None:
    t = kneipe()
    t.ok(OfferGift(0), OfferGift(2), PlayOn(1))
    t.scan("CA", "C7", "CT")  # a trick: the second offer may come while the game is played on
    t.ok(OfferGift(0), OfferGift(2))
    t.ok(AcceptGift(1), EnterMatadors(2))
    result = t.snap.result
    assert result is not None and result.score == 60 and "Schneider geschenkt" in result.text, result.text

    t = kneipe()
    t.ok(OfferGift(0), OfferGift(2), PlayOn(1), OfferGift(2), OfferGift(0), PlayOn(1))
    play = t.snap.play
    assert play is not None and play.schenken == "weiterspielen_schwarz" and play.may_offer_gift == ()
    assert "Schwarz" in german(t.refused(OfferGift(0), "not_allowed"))
    t.ok(EnterResult(10, 120, 2))
    result = t.snap.result  # mit 2, Spiel 3, Schneider 4, angesagt 5, Schwarz 6, angesagt 7 x 12
    assert result is not None and result.score == 84 and "weitergespielt auf Schwarz" in result.text, result.text


def test_the_partner_says_no_and_play_goes_on_as_if_nothing_happened() -> None:
    t = kneipe()
    t.ok(OfferGift(0))
    refusal = t.refused(CardScanned(Card.parse("CA")), "question_pending")
    assert german(refusal) == "Erst das Schenken beantworten (annehmen oder weiterspielen)"
    t.ok(DeclineGift(2))
    play = t.snap.play
    assert play is not None and play.gift_offers == () and play.schenken is None
    t.scan("CA")
    assert german(t.refused(OfferGift(2), "too_late")).startswith("Zu spät: geschenkt wird vor der ersten Karte")


def test_who_may_tap_what() -> None:
    t = kneipe()
    assert "Alleinspieler" in german(t.refused(OfferGift(1), "not_allowed"))
    t.refused(AcceptGift(1), "not_allowed")
    t.ok(OfferGift(0))
    t.refused(OfferGift(0), "not_allowed")
    t.refused(DeclineGift(0), "not_allowed")
    t.ok(OfferGift(2))
    assert "Alleinspieler" in german(t.refused(AcceptGift(0), "not_allowed"))
    t.refused(PlayOn(2), "not_allowed")


def test_a_gift_worth_less_than_the_bid_cannot_be_accepted() -> None:
    """score_schenken: the gifted game must reach the bid, else he must play on. Before the
    first card his Spitzen are not known yet: the result says so once they are given, and the
    gift is taken back to play on."""
    t = Table("Anna", "Bernd", "Carla", profile="kneipe")
    t.say("M 30", "V passe", "H passe")
    t.take_skat()
    t.declare("diamonds")
    t.ok(OfferGift(0), OfferGift(2), AcceptGift(1), EnterMatadors(1))  # Karo mit 1: 18, bid 30
    result = t.snap.result
    assert result is not None and result.problem is not None and "less than the bid 30" in result.problem
    assert result_text(result, "de") == ("Ergebnis nicht möglich: Karo geschenkt zählt 18, weniger als das Reizgebot 30: "
                                         "der Alleinspieler kann es nicht annehmen und muss weiterspielen")
    assert result_text(result, "en").startswith("Result not possible: schenken: Karo geschenkt is worth 18")
    refusal = t.refused(Confirm(t.seat("Carla")), "bad_result")
    assert german(refusal) == ("Das Ergebnis ist nicht möglich: Karo geschenkt zählt 18, weniger als das Reizgebot 30: "
                               "der Alleinspieler kann es nicht annehmen und muss weiterspielen")
    assert "Karo geschenkt is worth 18, less than the bid 30" in english(refusal)
    t.undo()
    t.undo()
    t.ok(PlayOn(1), EnterResult(9, 100, 1))  # mit 1, Spiel 2, Schneider 3, angesagt 4 x 9 = 36
    result = t.snap.result
    assert result is not None and result.score == 36, result.text


def test_a_gift_the_cards_show_short_of_the_bid_is_refused_at_the_accept() -> None:
    """Once the cards decide his Spitzen, the table refuses the accept itself, naming the value:
    Karo ohne 1 (his Pik Bube played, the Kreuz Bube theirs), Schneider given after playing on:
    ohne 1, Spiel 2, Schneider 3, angesagt 4 x 9 = 36, short of the bid 40; he plays on."""
    t = Table("Anna", "Bernd", "Carla", profile="kneipe")
    t.say("M 40", "V passe", "H passe")
    t.take_skat()
    t.declare("diamonds")
    t.ok(OfferGift(0), OfferGift(2), PlayOn(1))
    t.scan("CJ", "SJ", "HJ")
    t.ok(OfferGift(0), OfferGift(2))
    refusal = t.refused(AcceptGift(1), "bad_gift")
    assert german(refusal) == ("Das Geschenk geht nicht: Karo Schneider geschenkt zählt 36, weniger als das "
                               "Reizgebot 40: der Alleinspieler kann es nicht annehmen und muss weiterspielen")
    assert english(refusal).startswith("the gift cannot be accepted: Karo Schneider geschenkt is worth 36")
    play = t.snap.play
    assert play is not None and not play.may_accept_gift and play.may_play_on
    t.ok(PlayOn(1))
    t.assert_phase(Phase.PLAYING)


def test_a_null_is_only_given() -> None:
    t = Table("Anna", "Bernd", "Carla", profile="kneipe")
    t.say("M 18", "V passe", "H passe")
    t.take_skat()
    t.declare("null")
    t.ok(OfferGift(0), OfferGift(2))
    play = t.snap.play
    assert play is not None and play.may_accept_gift and not play.may_play_on
    assert "Null" in german(t.refused(PlayOn(1), "not_allowed"))
    t.ok(AcceptGift(1))
    result = t.snap.result
    assert result is not None and result.score == 23 and "geschenkt" in result.text, result.text


def test_the_isko_refuses_schenken_naming_the_profile_and_skwo_9_5() -> None:
    t = Table("Anna", "Bernd", "Carla")
    t.say("M 18", "V passe", "H passe")
    t.take_skat()
    t.declare("clubs")
    play = t.snap.play
    assert play is not None and play.may_offer_gift == ()
    refusal = t.refused(OfferGift(0), "not_in_profile")
    assert german(refusal) == "Schenken gibt es nach der ISkO nicht (SkWO 9.5)"
    assert english(refusal) == "no Schenken (giving a game) under the ISkO (SkWO 9.5)"
    t.ok(EnterResult(6, 70, 2))
    t.confirm("Carla", "Bernd")
    gift = {"v": 1, "game": "clubs", "hand": False, "ouvert": False, "announced": None, "bid": 18,
            "declarer_tricks": 0, "declarer_points": 0, "matadors": 2, "schenken": "geschenkt"}
    refusal = t.refused(ProposeCorrection(1, gift, 2, 0), "not_in_profile")
    assert german(refusal) == "Nach der ISkO nicht erlaubt — Schenken"


def test_a_correction_makes_a_played_game_a_gift() -> None:
    t = kneipe()
    t.ok(EnterResult(6, 70, 2))
    t.confirm("Carla", "Bernd")
    gift = {"v": 1, "game": "clubs", "hand": False, "ouvert": False, "announced": None, "bid": 18,
            "declarer_tricks": 0, "declarer_points": 0, "matadors": 2, "schenken": "geschenkt"}
    t.ok(ProposeCorrection(1, gift, 2, 0), ConsentCorrection(1), ConsentCorrection(2))
    row = t.assert_list_entry(1, declarer="Carla", score=36, text="geschenkt")
    assert row.corrected


def test_the_automatic_gift_of_the_club_option() -> None:
    """001: "Wenn der Reiz 18 und das Spiel Karo ist bzw. der Reiz 20 und das Spiel Karo oder Herz
    ist, wird das Spiel automatisch von den Gegnern aufgegeben ... es sei denn die Gegner sagen
    Kontra oder der Alleinspieler macht eine zusätzliche Ansage (z. B. Ouvert oder Spitze)"."""
    t = Table("Anna", "Bernd", "Carla", profile="kneipe+auto_gift")
    t.say("M 20", "V passe", "H passe")
    t.take_skat()
    t.declare("hearts")
    play = t.snap.play
    assert play is not None and play.may_automatic_gift
    t.ok(AutomaticGift(), EnterMatadors(1))
    result = t.snap.result
    assert result is not None and result.text == "Carla: Herz mit 1, Spiel 2 = 20, geschenkt, gewonnen +20"

    t = Table("Anna", "Bernd", "Carla", profile="kneipe+auto_gift")
    t.say("M 20", "V passe", "H passe")
    t.take_skat()
    t.declare("hearts")
    t.ok(Kontra(0))
    assert not t.snap.play.may_automatic_gift  # type: ignore[union-attr]
    assert "ohne Kontra" in german(t.refused(AutomaticGift(), "not_allowed"))

    t = kneipe()  # Kreuz at 18: never automatic; and the plain club profile has no automatic gift
    assert german(t.refused(AutomaticGift(), "not_in_profile")) == "Automatisches Schenken gibt es nach den Kneipenregeln nicht"
