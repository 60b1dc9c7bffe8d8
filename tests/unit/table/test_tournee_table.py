"""Tournée-Skat (rules/001, section "Tournee-Skat") played at the table: bids from 10, the skat
card turned up (the first, or the second after taking the first up unseen) deciding the trump
(a jack: its suit or Grand), Solo, Guckser, Null and Grand ouvert, the records the list keeps
(tournee first/second, turned_card, solo, guckser) and refusals naming the profile."""

from __future__ import annotations

from device.cards import Card
from device.hardware import CardScanned
from device.table.commands import Declare, EnterResult, ProposeCorrection, TurnCard
from tests.table_helpers import Table, english, german


def tournee() -> Table:
    # Anna deals: Vorhand Bernd, Mittelhand Carla, Hinterhand Anna
    return Table("Anna", "Bernd", "Carla", profile="tournee")


def options(t: Table) -> dict[str, object]:
    return {o.key: o for o in t.snap.declaration.options}  # type: ignore[union-attr]


def test_bids_start_at_10_and_vorhand_alone_plays_for_10() -> None:
    t = tournee()
    bidding = t.snap.bidding
    assert bidding is not None and bidding.values[:4] == (10, 12, 14, 15)
    t.say("M passe", "H passe")
    assert t.snap.bidding is not None and t.snap.bidding.values == (10,)
    from ui.table_words import bidding_prompt
    assert bidding_prompt(t.snap.bidding, ("Bernd", "Carla", "Anna"), "de").endswith("(10) / passe")
    t.say("V 10")
    assert t.snap.declaration is not None and t.snap.declaration.bid == 10


def test_a_tournee_with_the_first_card_turned_decides_the_trump() -> None:
    t = tournee()
    t.say("M 18", "V passe", "H passe")
    before = options(t)
    assert before["hearts/tournee"].refused == "turn_card_first"  # type: ignore[attr-defined]
    assert before["clubs/hand/solo"].allowed and before["clubs/hand/solo"].label == "Kreuz Solo"  # type: ignore[attr-defined]
    assert before["grand/guckser"].refused == "skat_or_hand"  # type: ignore[attr-defined]
    t.ok(CardScanned(Card.parse("H7"), raw="H7", source="reader"))  # scanned: the card turned up
    view = t.snap.declaration
    assert view is not None and (view.turned, view.turned_second, view.may_turn) == ("H7", False, True)
    now = options(t)
    assert now["clubs/hand/solo"].refused == "hand_after_turn"  # type: ignore[attr-defined]
    t.take_skat()
    now = options(t)
    assert now["hearts/tournee"].allowed and now["hearts/tournee"].label == "Herz Tournee"  # type: ignore[attr-defined]
    assert now["spades/tournee"].refused == "turned_card_decides"  # type: ignore[attr-defined]
    assert dict(now["spades/tournee"].refused_values)["card"] == "H7"  # type: ignore[attr-defined]
    assert now["hearts/tournee2"].refused == "turned_first"  # type: ignore[attr-defined]
    refusal = t.refused(Declare.parse("spades/tournee"), "bad_declaration")
    assert german(refusal) == "Herz 7 aufgedeckt: diese Karte bestimmt den Trumpf"
    t.declare("hearts/tournee")
    t.ok(EnterResult(6, 70, 2))
    result = t.snap.result
    assert result is not None and result.score == 18, result.text
    assert result.text == "Carla: Herz Tournee mit 2, Spiel 3 = 18, gewonnen +18"
    t.confirm("Carla", "Bernd")
    row = t.service.state.rows[-1]
    assert row.record is not None and row.record["tournee"] == "first" and row.record["turned_card"] == "H7"
    assert row.record["hand"] is False


def test_the_second_card_a_jack_allows_grand_and_a_lost_game_counts_double() -> None:
    t = tournee()
    t.say("M 24", "V passe", "H passe")
    t.ok(TurnCard(Card.parse("D7")))
    t.ok(TurnCard(Card.parse("SJ")))  # the first taken up unseen, the second turned
    t.refused(TurnCard(Card.parse("C7")), "not_now")
    t.take_skat()
    now = options(t)
    assert now["grand/tournee2"].allowed and now["spades/tournee2"].allowed  # type: ignore[attr-defined]
    assert now["grand/tournee"].refused == "turned_second"  # type: ignore[attr-defined]
    assert now["diamonds/tournee2"].refused == "turned_card_decides"  # type: ignore[attr-defined]
    t.declare("grand/tournee2")
    t.ok(EnterResult(5, 50, 1))
    result = t.snap.result
    assert result is not None and result.score == -48, result.text  # mit 1, Spiel 2 x 12 = 24, doubled


def test_solo_guckser_null_and_grand_ouvert() -> None:
    t = tournee()
    t.say("M 18", "V passe", "H passe")
    assert {k for k, o in options(t).items() if o.allowed} == {  # type: ignore[attr-defined]
        *(f"{g}/hand/solo" for g in ("clubs", "spades", "hearts", "diamonds", "grand")),
        *(f"{g}/hand/{w}/solo" for g in ("clubs", "spades", "hearts", "diamonds", "grand") for w in ("schneider", "schwarz")),
        "grand/hand/ouvert", "null/hand", "null/hand/ouvert"}
    t.declare("clubs/hand/solo")
    t.ok(EnterResult(4, 50, 1))
    assert t.snap.result is not None and t.snap.result.score == -24  # mit 1, Spiel 2 x 12, lost single
    guckser = tournee()
    guckser.say("M 18", "V passe", "H passe")
    guckser.take_skat()
    assert {k for k, o in options(guckser).items() if o.allowed} == {"grand/guckser"}  # type: ignore[attr-defined]
    guckser.declare("grand/guckser")
    guckser.ok(EnterResult(5, 40, 1))
    assert guckser.snap.result is not None and guckser.snap.result.score == -64  # 2 x 16, doubled
    assert guckser.snap.result.text.startswith("Carla: Guckser mit 1")


def test_turning_a_card_is_refused_naming_the_profile_elsewhere() -> None:
    t = Table("Anna", "Bernd", "Carla")
    t.say("M 18", "V passe", "H passe")
    refusal = t.refused(TurnCard(Card.parse("H7")), "not_in_profile")
    assert german(refusal) == "Eine Skatkarte aufdecken gibt es nur im Tournee-Skat, nicht nach der ISkO"
    assert english(refusal) == "turning a skat card is Tournee Skat's, not played under the ISkO"


def test_a_kreuz_hand_is_refused_in_a_correction_naming_the_profile() -> None:
    t = tournee()
    t.say("M 18", "V passe", "H passe")
    t.declare("clubs/hand/solo")
    t.ok(EnterResult(6, 70, 1))
    t.confirm("Carla", "Bernd")
    kreuz_hand = {"game": "clubs", "hand": True, "ouvert": False, "announced": None, "bid": 18, "matadors": 1,
                  "declarer_points": 70, "declarer_tricks": 6}
    refusal = t.refused(ProposeCorrection(1, kreuz_hand, 2, 0), "not_in_profile")
    assert german(refusal) == "Im Tournee-Skat nicht erlaubt — Kreuz Hand"


def test_a_turned_card_scanned_sounds_accepted_and_a_third_refused() -> None:
    from device.hardware import Tone
    from device.table.feedback import tones_for

    t = tournee()
    t.say("M 18", "V passe", "H passe")
    assert tones_for(t.do(CardScanned(Card.parse("D7"), raw="D7", source="reader"))) == (Tone.ACCEPTED,)
    assert tones_for(t.do(CardScanned(Card.parse("SJ"), raw="SJ", source="reader"))) == (Tone.ACCEPTED,)
    assert tones_for(t.do(CardScanned(Card.parse("C7"), raw="C7", source="reader"))) == (Tone.REFUSED,)
    assert t.snap.declaration is not None and t.snap.declaration.turned == "SJ"


def test_a_null_after_a_bid_above_its_value_is_refused() -> None:
    t = tournee()
    t.say("M 24", "V passe", "H passe")
    now = options(t)
    assert now["null/hand"].refused == "null_overbid_not_in_profile"  # type: ignore[attr-defined]
    assert now["null/hand/ouvert"].allowed  # 40
    refusal = t.refused(Declare.parse("null/hand"), "bad_declaration")
    assert german(refusal) == "Null ist im Tournee-Skat nach diesem Reizwert nicht spielbar: überreizt"
