"""Texas-Skat (rules/001, section "Texas-Skat") played at the table: its bid values, the
announcements after taking up the skat, ouvert doubling, a Null worth 20, its Ramsch when all
pass, and a record or bid the profile forbids refused naming the field and the profile."""

from __future__ import annotations

import random

from device.declaration import Level
from device.games import GameType
from device.table.commands import (
    Declare, EnterBidding, EnterMatadors, EnterRamsch, EnterResult, Kontra, ProposeCorrection,
)
from device.value import bid_values
from device.profile import TEXAS
from tests.strategies import deal, play_random
from tests.table_helpers import Table, english, german

GAMES = {"clubs": GameType.CLUBS, "grand": GameType.GRAND, "null": GameType.NULL}


def texas() -> Table:
    return Table("Anna", "Bernd", "Carla", profile="texas")  # Anna deals: Vorhand Bernd, Mittelhand Carla


def test_the_bid_buttons_are_the_texas_values() -> None:
    t = texas()
    bidding = t.snap.bidding
    assert bidding is not None
    assert bidding.values[:8] == (18, 20, 22, 24, 27, 30, 32, 33) and bidding.values[-1] == 408
    assert set(bidding.values) == bid_values(TEXAS) and 23 not in bidding.values
    assert bidding.settle_values[:7] == (18, 20, 22, 24, 27, 30, 32) and len(bidding.settle_values) == 24
    refusal = t.refused(EnterBidding(1, 23), "bad_bid")
    assert german(refusal) == "23 ist im Texas-Skat kein Reizwert (18, 20, 22, 24, 27, 30, …)"
    assert english(refusal) == "23 is not a bid value in Texas Skat (18, 20, 22, 24, 27, 30, …)"
    assert german(Table("Anna", "Bernd", "Carla").refused(EnterBidding(1, 32), "bad_bid")).startswith(
        "32 ist nach der ISkO kein Reizwert")
    t.say("M 32", "V ja", "M 40", "V passe", "H 48", "M ja", "H 288", "M passe")
    declaration = t.snap.declaration
    assert declaration is not None and (declaration.declarer_name, declaration.bid) == ("Anna", 288)


def test_schneider_schwarz_and_ouvert_are_announced_after_taking_up_the_skat() -> None:
    t = texas()
    t.say("M 18", "V passe", "H passe")
    options = {o.key: o for o in t.snap.declaration.options}  # type: ignore[union-attr]
    assert not options["clubs/schneider"].allowed and options["clubs/schneider"].refused == "skat_or_hand"
    t.take_skat()
    options = {o.key: o for o in t.snap.declaration.options}  # type: ignore[union-attr]
    for key in ("clubs/schneider", "clubs/schwarz", "grand/ouvert", "clubs"):
        assert options[key].allowed, key
    assert options["grand/ouvert"].label == "Grand ouvert nach Skataufnahme"
    assert options["clubs/schneider"].label_en == "Clubs Schneider announced"
    assert not options["clubs/hand/schneider"].allowed
    t.declare("clubs/schneider")
    t.ok(EnterResult(8, 95, 1))
    result = t.snap.result
    assert result is not None and result.score == 48, result.text  # mit 1, Spiel 2, Schneider 3, angesagt 4
    assert "Kreuz Schneider angesagt" in result.text
    t.confirm("Carla", "Bernd")
    t.assert_list_entry(1, declarer="Carla", score=48)


def test_the_isko_table_still_refuses_an_announcement_after_the_skat() -> None:
    t = Table("Anna", "Bernd", "Carla")
    t.say("M 18", "V passe", "H passe")
    t.take_skat()
    assert "clubs/schneider" not in {o.key for o in t.snap.declaration.options}  # type: ignore[union-attr]
    assert "Handspiel" in german(t.refused(Declare(GameType.CLUBS, announced=Level.SCHNEIDER), "bad_declaration"))


def test_grand_ouvert_mit_vier_is_the_text_s_288() -> None:
    """001: "mit vier, Spiel 5, Schneider 6, Schneider angesagt 7, Schwarz 8, Schwarz angesagt 9,
    offen (Ouvert) 18; 18-mal 16 ergibt 288 Punkte"."""
    t = texas()
    t.say("M 18", "V passe", "H passe")
    t.take_skat()
    t.declare("grand/ouvert")
    t.ok(EnterResult(10, 120, 4))
    result = t.snap.result
    assert result is not None and result.score == 288 and result.text.endswith("ouvert doppelt 18 = 288, gewonnen +288")


def test_a_null_is_worth_20_and_lost_at_once_after_22() -> None:
    t = texas()
    t.say("M 20", "V passe", "H passe")
    t.ok(Declare(GameType.NULL, hand=True))  # Null Hand 30
    t.ok(EnterResult(0, None, None))
    assert t.snap.result is not None and t.snap.result.score == 30
    t.confirm("Carla", "Bernd")
    t.say("M 22", "V passe", "H passe")  # Bernd deals: Mittelhand Anna
    t.take_skat()
    option = next(o for o in t.snap.declaration.options if o.key == "null")  # type: ignore[union-attr]
    assert option.allowed and option.lost_at_once == (20, 22)
    t.declare("null")
    t.ok(EnterMatadors(1))
    result = t.snap.result
    assert result is not None and result.overbid_null == (20, 22), result.overbid_null
    assert result.text.startswith("Anna: Null (20) bei Reizwert 22") and result.score == -44, result.text


def test_a_whole_texas_game_from_scanned_cards() -> None:
    rng = random.Random(5)
    hands, skat = deal(rng)
    t = texas()
    t.say("M 18", "V passe", "H passe")
    t.take_skat()
    t.scan(*(c.code for c in skat))
    t.declare("grand/schneider")
    tricks = [tuple(trick) for trick in play_random(rng, GameType.GRAND, hands)]
    skat_codes = tuple(c.code for c in skat)
    assert t.snap.play.discards == skat_codes  # type: ignore[union-attr]
    t.play(tricks[:1])
    assert t.snap.play.discards == skat_codes  # type: ignore[union-attr]  # until the second trick's first card
    t.play([tricks[1][:1]])
    assert t.snap.play.discards == ()  # type: ignore[union-attr]
    t.play([tricks[1][1:], *tricks[2:]])
    t.assert_phase("result")
    result = t.snap.result
    assert result is not None and result.text.startswith("Carla: Grand Schneider angesagt")
    assert abs(result.score) % 16 == 0  # Grand 16


def test_kontra_is_refused_naming_texas() -> None:
    t = texas()
    t.say("M 18", "V passe", "H passe")
    t.take_skat()
    t.declare("clubs")
    refusal = t.refused(Kontra(0), "not_in_profile")
    assert german(refusal) == "Kontra und Re werden im Texas-Skat nicht gespielt"


def test_all_pass_plays_the_texas_ramsch() -> None:
    t = texas()
    t.say("M passe", "H passe", "V passe")
    t.assert_phase("ramsch")
    t.ok(EnterRamsch((58, 52, 0), (6, 4, 0), 10, 1))
    result = t.snap.result
    assert result is not None and "Anna" in result.text and "+20" in result.text, result.text
    t.confirm("Anna", "Bernd")
    assert t.assert_list_entry(1, kind="ramsch").points == (20, 0, 0)  # by seat: Anna is Platz 1


def test_a_correction_the_profile_forbids_names_the_field_and_the_profile() -> None:
    t = texas()
    t.say("M 18", "V passe", "H passe")
    t.take_skat()
    t.declare("clubs")
    t.ok(EnterResult(6, 70, 1))
    t.confirm("Carla", "Bernd")
    bid_23 = {"v": 1, "game": "clubs", "hand": False, "ouvert": False, "announced": None, "bid": 23,
              "declarer_tricks": 6, "declarer_points": 70, "matadors": 1}
    refusal = t.refused(ProposeCorrection(1, bid_23, 2, 0), "not_in_profile")
    assert german(refusal) == "Im Texas-Skat nicht erlaubt — Reizwert 23"
    assert english(refusal) == "not allowed in Texas Skat: bid 23"
    kontra = {**bid_23, "bid": 18, "kontra": True}
    assert german(t.refused(ProposeCorrection(1, kontra, 2, 0), "not_in_profile")) == "Im Texas-Skat nicht erlaubt — Kontra"
    impossible = {**bid_23, "bid": 18, "declarer_points": 130}
    t.refused(ProposeCorrection(1, impossible, 2, 0), "bad_correction")  # no profile allows that
    t.ok(ProposeCorrection(1, {**bid_23, "bid": 18, "declarer_points": 91, "declarer_tricks": 8}, 2, 0))


def test_the_isko_table_never_shows_the_discards() -> None:
    rng = random.Random(5)
    _, skat = deal(rng)
    t = Table("Anna", "Bernd", "Carla")
    t.say("M 18", "V passe", "H passe")
    t.take_skat()
    t.scan(*(c.code for c in skat))
    t.declare("grand")
    assert t.snap.play.discards == ()  # type: ignore[union-attr]  # ISkO 3.4.8


def test_a_texas_ramsch_tie_for_the_fewest_asks_who_took_the_later_trick() -> None:
    """001: "Wenn zwei Spieler gleich wenig Augen haben, erhält der Spieler, der den letzten Stich
    dieser beiden Spieler nicht gewonnen hat, 10 Spielpunkte." Vorhand Bernd and Mittelhand Carla
    tie with 30; Hinterhand Anna took the last trick (and the skat's 20)."""
    t = texas()
    t.say("M passe", "H passe", "V passe")
    refusal = t.refused(EnterRamsch((30, 30, 40), (3, 3, 4), 20, 2), "ramsch_question")
    assert german(refusal) == "Gleich wenige Augen: wer von Bernd und Carla hatte den späteren Stich?"
    t.refused(EnterRamsch((30, 30, 40), (3, 3, 4), 20, 2, later_trick=2), "bad_result")  # Anna is not tied
    t.ok(EnterRamsch((30, 30, 40), (3, 3, 4), 20, 2, later_trick=1))  # Carla took the later one
    result = t.snap.result
    assert result is not None and result.text.startswith("Ramsch: Bernd gewinnt"), result.text
    t.confirm("Anna", "Bernd")
    assert t.assert_list_entry(1, kind="ramsch").points == (0, 10, 0)  # by seat: Bernd is Platz 2
    events = t.store.load(t.service.state.list_id)  # type: ignore[arg-type]
    assert any(e["data"].get("later_trick") == 1 for e in events if e["type"] == "ramsch_entered")


def test_a_texas_ramsch_tie_decided_by_the_last_trick_asks_nothing() -> None:
    t = texas()
    t.say("M passe", "H passe", "V passe")
    t.ok(EnterRamsch((20, 60, 30), (3, 4, 3), 10, 0))  # Bernd 20 + the skat's 10 = Anna's 30; Bernd took the last
    result = t.snap.result
    assert result is not None and result.text.startswith("Ramsch: Anna gewinnt"), result.text
