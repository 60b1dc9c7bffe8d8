"""The bidding step by step and the declaration with only valid options (ISkO 3.3, 3.4)."""

from __future__ import annotations

from device.cards import Card
from device.declaration import Level
from device.games import GameType
from device.hardware import CardScanned
from device.table.commands import Bid, Confirm, Declare, EnterMatadors, Hold, Pass, PushSkat, TakeSkat, Undo
from tests.table_helpers import Table, english, german
from ui.i18n import option_reason


def table() -> Table:
    return Table("Anna", "Bernd", "Carla")  # Anna deals: Vorhand Bernd, Mittelhand Carla, Hinterhand Anna


def test_the_snapshot_says_who_speaks_and_what_he_may_say() -> None:
    t = table()
    b = t.snap.bidding
    assert b is not None
    assert b.prompt == "Mittelhand (Carla) sagt … — an Vorhand (Bernd)"
    assert (b.speaker, b.speaker_name, b.role, b.may_hold, b.may_pass) == (1, "Carla", "bidding", False, True)
    assert b.values[:4] == (18, 20, 22, 23) and b.values[-1] == 264
    t.bid("M", 18)
    b = t.snap.bidding
    assert b is not None and b.role == "answering" and b.values == () and b.may_hold
    assert b.prompt == "Mittelhand (Carla) sagt 18 — Vorhand (Bernd): ja / passe"
    assert b.history == ("Mittelhand (Carla): 18",)


def test_bidding_out_of_turn_is_refused_with_a_reason() -> None:
    t = table()
    refusal = t.refused(Bid(2, 18), "not_your_turn")
    assert "Hinterhand (Anna) ist nicht an der Reihe" in german(refusal)
    assert "Mittelhand" in english(refusal)
    t.refused(Pass(0), "not_your_turn")  # Vorhand waits for a value first (3.3.6)


def test_wrong_bids_are_refused_with_reasons() -> None:
    t = table()
    assert "kein Reizwert" in german(t.refused(Bid(1, 19), "bad_bid"))
    t.refused(Hold(1), "bad_bid")
    t.say("M 20", "V ja")
    refusal = t.refused(Bid(1, 20), "bad_bid")
    assert "mehr als 20" in german(refusal) and "22" in german(refusal)
    t.say("M passe")
    assert "gepasst" in german(t.refused(Bid(1, 30), "not_your_turn"))
    t.refused(Bid(0, 22), "not_your_turn")  # Hinterhand bids now
    t.say("H 22")
    assert "antwortet" in german(t.refused(Bid(0, 23), "bad_bid"))


def test_vorhand_alone_plays_for_18_or_passes() -> None:
    t = table()
    t.say("M passe", "H passe")
    b = t.snap.bidding
    assert b is not None and b.role == "deciding" and b.values == (18,)
    assert "18" in german(t.refused(Bid(0, 20), "bad_bid"))
    t.say("V 18")
    d = t.snap.declaration
    assert d is not None and (d.declarer_name, d.bid) == ("Bernd", 18)


def test_all_passed_is_eingepasst_and_the_next_player_deals() -> None:
    t = table()
    t.say("M passe", "H passe", "V passe")
    t.assert_list_entry(1, kind="passed_in", dealer="Anna")
    snap = t.snap
    assert snap.phase == "bidding" and snap.dealer_name == "Bernd" and snap.game_no == 2
    assert snap.positions == ("Carla", "Anna", "Bernd")


def test_undo_takes_back_a_bid_and_even_a_wrong_last_passe() -> None:
    t = table()
    t.say("M 18", "V ja")
    t.undo()
    assert t.snap.bidding is not None and t.snap.bidding.history == ("Mittelhand (Carla): 18",)
    t.undo()
    assert t.snap.bidding is not None and t.snap.bidding.history == ()
    t.refused(Undo(), "nothing_to_undo")
    t.say("M passe", "H passe", "V passe")
    assert t.snap.may_undo
    t.undo()  # the wrong "passe" of Vorhand: back to Vorhand's decision, no entry on the list
    snap = t.snap
    assert snap.list is not None and snap.list.rows == ()
    assert snap.dealer_name == "Anna" and snap.bidding is not None and snap.bidding.role == "deciding"
    t.say("V 18")
    assert t.snap.phase == "declaring"


def test_before_the_skat_only_hand_games_and_after_it_no_hand_game() -> None:
    t = table()
    t.say("M 18", "V passe", "H passe")  # Carla plays for 18
    d = t.snap.declaration
    assert d is not None and d.may_take_skat and not d.skat_taken
    options = {o.key: o for o in d.options}
    assert len(options) == 29
    assert options["clubs/hand"].allowed and options["grand/hand/ouvert"].allowed and options["null/hand"].allowed
    assert not options["clubs"].allowed and "Skat aufnehmen" in option_reason(options["clubs"], "de")
    assert options["grand/hand/ouvert"].label == "Grand ouvert" and options["grand/hand/ouvert"].announced == "schwarz"
    refusal = t.refused(Declare(GameType.SPADES), "bad_declaration")
    assert "Skat aufnehmen" in german(refusal)
    t.ok(TakeSkat())
    d = t.snap.declaration
    assert d is not None and d.skat_taken and not d.may_take_skat
    options = {o.key: o for o in d.options}
    assert options["clubs"].allowed and options["null/ouvert"].allowed and options["null"].allowed
    for key in ("clubs/hand", "hearts/hand/schneider", "grand/hand/ouvert", "null/hand/ouvert"):
        assert not options[key].allowed and "3.4.4" in option_reason(options[key], "de")
    assert "3.4.4" in german(t.refused(Declare(GameType.HEARTS, hand=True), "bad_declaration"))
    t.refused(Declare(GameType.HEARTS, announced=Level.SCHNEIDER), "bad_declaration")
    t.refused(TakeSkat(), "skat_taken")


def test_a_null_below_the_bid_is_declared_and_lost_at_once_as_the_cheapest_suit_game() -> None:
    """ISkO 3.4.4 Satz 4 (with 3.4.1: an announcement stands): Null (23) after 24 is not
    refused; the game ends at once and is lost as the suit or Grand game that reaches 24 with
    the declarer's Spitzen, which the table enters."""
    t = table()
    t.say("M 24", "V passe", "H passe")  # Carla plays for 24
    options = {o.key: o for o in t.snap.declaration.options}  # type: ignore[union-attr]
    assert options["null/hand"].allowed and not options["null/hand"].lost_at_once  # Null Hand is 35 >= 24
    t.ok(TakeSkat())
    t.push("S7", "S8")
    options = {o.key: o for o in t.snap.declaration.options}  # type: ignore[union-attr]
    null = options["null"]
    assert null.allowed and null.lost_at_once == (23, 24)
    assert not options["null/ouvert"].lost_at_once  # Null ouvert is 46
    t.declare("null")
    t.assert_phase("result")
    result = t.snap.result
    assert result is not None and result.needs_matadors and result.score is None
    assert result.matador_choices[:3] == (1, 2, 3) and len(result.matador_choices) == 22  # as in a suit game
    assert "3.4.4" in (result.ending or "") and "am knappsten erreicht" in (result.note or "")
    t.refused(Confirm(t.seat("Carla")), "needs_matadors")
    t.refused(EnterMatadors(12), "bad_result")
    t.ok(EnterMatadors(1))
    result = t.snap.result
    assert result is not None and result.score == -48 and not result.won
    assert "verloren als Kreuz mit 1, Spiel 2 = 24" in result.text and "Null (23)" in result.text
    t.confirm("Carla", "Anna")
    row = t.assert_list_entry(1, declarer="Carla", score=-48, text="nicht durchführbar (ISkO 3.4.4)")
    assert row.matadors == 1
    record = t.service.state.rows[0].record
    assert record is not None and record["game"] == "null" and record["matadors"] == 1 and record["lost_as"] == "clubs"
    assert "tricks" not in record and "declarer_points" not in record


def test_an_overbid_null_hand_is_lost_without_the_skat_and_undo_takes_the_announcement_back() -> None:
    t = table()
    t.say("M 36", "V passe", "H passe")
    assert {o.key: o for o in t.snap.declaration.options}["null/hand"].lost_at_once  # type: ignore[union-attr]
    t.declare("null/hand")
    t.assert_phase("result")
    t.undo()  # a mistyped declaration is taken back as any step (the table's entry, not the game)
    t.assert_phase("declaring")
    t.declare("null/hand")
    t.ok(EnterMatadors(-2))
    result = t.snap.result
    assert result is not None and result.score == -72 and "Kreuz ohne 2, Spiel 3 = 36" in result.text


def test_every_option_key_parses_back_to_its_declaration() -> None:
    t = table()
    t.say("M 18", "V passe", "H passe")
    for option in t.snap.declaration.options:  # type: ignore[union-attr]
        assert Declare.parse(option.key).key == option.key


def test_pushed_cards_are_scanned_after_taking_up_the_skat() -> None:
    t = table()
    t.say("M 18", "V passe", "H passe")
    t.refused(CardScanned(Card.parse("S7")), "no_card_expected")  # the skat is not taken yet
    t.take_skat()
    t.scan("S7")
    t.refused(PushSkat(Card.parse("S7")), "card_seen")
    t.scan("S8")
    assert t.snap.declaration is not None and t.snap.declaration.skat == ("S7", "S8")
    t.refused(PushSkat(Card.parse("S9")), "skat_full")
    t.declare("hearts")
    play = t.snap.play
    # hidden information: the pushed cards are neither shown as seen nor counted on screen
    assert play is not None and play.declarer_points == 0 and "S7" not in play.cards_seen
    # ... but a pushed card still cannot be played
    assert "Skat" in german(t.refused(CardScanned(Card.parse("S8")), "card_seen"))
