"""Targeted tests of device.value and device.declaration: the edges of the rules and bad input.

Worked examples from the rule texts live in tests/data/values/ (test_value_examples.py); the
whole value table in test_value_table.py. Here: one rule edge per test, named by its paragraph.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from device.cards import parse_cards
from device.declaration import Declaration, Level
from device.errors import BidError, DeclarationError, PlayError, SkatError
from device.games import GameType
from device.profile import ISKO, PRE_1999
from device.tricks import trump_order
from device.value import (
    MAX_VALUE,
    EndedBy,
    Ending,
    GameResult,
    InvalidBidError,
    InvalidResultError,
    Play,
    level_reachable,
    missing_top_points,
    reachable_level,
    score_game,
)
from tests.strategies import RandomGame, random_games, reference_winner

CLUBS, SPADES, HEARTS, DIAMONDS = GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS
GRAND, NULL = GameType.GRAND, GameType.NULL


def decl(game: GameType, *, hand: bool = False, ouvert: bool = False, announced: Level = Level.SIMPLE) -> Declaration:
    return Declaration.make(game, hand=hand, ouvert=ouvert, announced=announced)


def score(d: Declaration, bid: int, points: int, tricks: int, matadors: int = 1, **kw: object) -> GameResult:
    return score_game(d, bid, Play(points, tricks, matadors), **kw)  # type: ignore[arg-type]


def defenders_ended(by: EndedBy, points: int, tricks: int, **kw: object) -> Ending:
    return Ending(by, defender_points=points, defender_tricks=tricks, **kw)  # type: ignore[arg-type]


# --- 5.2.2 / 5.2.3 / 5.2.4: einfach, Schneider, Schwarz ------------------------------------


@pytest.mark.parametrize(("points", "won", "schneider"), [
    (60, False, False), (61, True, False), (89, True, False), (90, True, True),  # declarer side
    (31, False, False), (30, False, True), (0, False, True),  # his own Schneider when lost
])
def test_schneider_lines_5_2_2_and_5_2_3(points: int, won: bool, schneider: bool) -> None:
    tricks = {60: 5, 61: 5, 89: 8, 90: 7, 31: 3, 30: 2, 0: 1}[points]
    r = score(decl(SPADES), 18, points, tricks, 2)
    assert (r.won, r.schneider, r.schwarz) == (won, schneider, False)
    factor = 2 + 1 + schneider  # mit 2, Spiel, Schneider
    assert r.value == 11 * factor and r.score == (r.value if won else -2 * r.value)


def test_a_trick_without_augen_saves_from_schwarz_5_2_4() -> None:
    r = score(decl(GRAND), 18, 120, 9, 2)
    assert (r.won, r.schneider, r.schwarz, r.value) == (True, True, False, 24 * 4)
    assert score(decl(GRAND), 18, 120, 10, 2).schwarz


def test_the_declarer_without_a_trick_is_schwarz_himself() -> None:
    r = score(decl(HEARTS), 18, 0, 0, -1)
    assert (r.won, r.schneider, r.schwarz, r.value, r.score) == (False, True, True, 40, -80)
    r = score(decl(HEARTS), 18, 0, 1, -1)  # one trick without Augen: only Schneider
    assert (r.schneider, r.schwarz, r.value) == (True, False, 30)


# --- 5.2.5: announced levels ----------------------------------------------------------------


def test_announced_schneider_is_reached_with_the_90th_auge() -> None:
    d = decl(CLUBS, hand=True, announced=Level.SCHNEIDER)
    r = score(d, 18, 90, 7, 1)
    assert (r.won, r.value, r.levels) == (True, 12 * 5, ("mit 1", "Spiel", "Hand", "Schneider", "Schneider angesagt"))
    r = score(d, 18, 89, 8, 1)
    assert (r.won, r.value, r.score) == (False, 60, -120)


def test_announced_schwarz_missed_with_all_120_augen_in_9_tricks() -> None:
    r = score(decl(CLUBS, hand=True, announced=Level.SCHWARZ), 18, 120, 9, 1)
    assert not r.won and r.schwarz and r.schneider
    assert r.levels == ("mit 1", "Spiel", "Hand", "Schneider", "Schneider angesagt", "Schwarz", "Schwarz angesagt")
    assert (r.value, r.score) == (12 * 7, -168)


def test_a_higher_level_than_announced_counts() -> None:
    r = score(decl(DIAMONDS, hand=True, announced=Level.SCHNEIDER), 18, 120, 10, 3)
    assert (r.won, r.value) == (True, 9 * (3 + 5))


def test_no_eigenschneider_a_lost_announced_schneider_counts_schneider_once() -> None:
    d = decl(HEARTS, hand=True, announced=Level.SCHNEIDER)
    missed, own_schneider = score(d, 18, 75, 6, 2), score(d, 18, 25, 2, 2)
    assert missed.levels == own_schneider.levels == ("mit 2", "Spiel", "Hand", "Schneider", "Schneider angesagt")
    assert missed.score == own_schneider.score == -2 * 10 * 6
    # Only his own Schwarz adds a level: he then lost Schwarz, which he did not announce.
    assert score(d, 18, 0, 0, 2).value == 10 * 7


def test_ouvert_lost_by_one_trick_counts_every_level() -> None:
    r = score(decl(GRAND, hand=True, ouvert=True), 18, 118, 9, 4)
    assert (r.won, r.value, r.score) == (False, 264, -528)


# --- 5.4: overbid ---------------------------------------------------------------------------


def test_hand_game_won_on_augen_but_overbid_by_a_top_trump_in_the_skat_5_4_2() -> None:
    # Herz Hand held as "ohne 3" (4 x 10 = 40 >= 36); the Kreuz Bube lay in the skat: mit 1.
    r = score(decl(HEARTS, hand=True), 36, 80, 7, 1)
    assert (r.won, r.overbid, r.value, r.score) == (False, True, 40, -80)
    assert r.describe_de() == "Herz Hand mit 1, überreizt = 40, verloren -80"


def test_schneider_rescues_an_overbid_hand_game() -> None:
    r = score(decl(CLUBS, hand=True), 46, 95, 8, 1)  # file 001, "Der Punktwert"
    assert (r.won, r.overbid, r.value) == (True, False, 48)
    r = score(decl(CLUBS, hand=True), 46, 74, 6, 1)
    assert (r.won, r.overbid, r.value, r.score) == (False, True, 48, -96)


@pytest.mark.parametrize(("game", "value"), [(CLUBS, 264), (SPADES, 264), (HEARTS, 264), (DIAMONDS, 264)])
def test_an_overbid_game_costs_at_most_528(game: GameType, value: int) -> None:
    """Court ruling on 5.4.2: 264 is the highest value, so never more than 528 minus points
    (Herz: 27 x 10 = 270 and Karo: 30 x 9 = 270 would be above)."""
    r = score(decl(game), 264, 61, 5, 1)
    assert (r.overbid, r.value, r.score) == (True, value, -2 * value) and value == MAX_VALUE


def test_an_overbid_game_is_lost_even_when_the_defenders_are_schwarz() -> None:
    r = score(decl(HEARTS), 50, 120, 10, 1)  # 5.4.1: Herz mit 1 can reach 40 at most
    assert (r.won, r.overbid, r.value, r.score) == (False, True, 50, -100)


def test_a_lost_game_already_worth_the_bid_is_not_overbid() -> None:
    r = score(decl(CLUBS), 30, 25, 2, 1)  # needed Schneider (36); lost Schneider is 36 too
    assert (r.won, r.overbid, r.value, r.score) == (False, False, 36, -72)


def test_null_cannot_be_played_above_its_value() -> None:
    with pytest.raises(DeclarationError, match=r"^bid: Null is worth 23 and cannot be played after bidding 24"):
        score_game(decl(NULL), 24, Play(0, 0))
    assert score_game(decl(NULL, hand=True, ouvert=True), 59, Play(0, 0)).score == 59


def test_null_lost_and_its_points_do_not_matter() -> None:
    r = score_game(decl(NULL, ouvert=True), 46, Play(0, 1))
    assert (r.won, r.value, r.score, r.factor, r.levels) == (False, 46, -92, 0, ())
    # Points are no part of a Null result: left out (0) they are never "impossible".
    assert score_game(decl(NULL), 23, Play(0, 6)).score == -46
    assert score_game(decl(NULL), 23, Play(0, 0)).describe_de() == "Null = 23, gewonnen +23"


# --- profiles and multipliers ---------------------------------------------------------------


def test_pre1999_lost_hand_games_count_single() -> None:
    assert score(decl(CLUBS, hand=True), 18, 40, 3, 1, profile=PRE_1999).score == -36
    assert score(decl(CLUBS), 18, 40, 3, 1, profile=PRE_1999).score == -48  # with the skat: double
    assert score_game(decl(NULL, hand=True), 18, Play(0, 1), profile=PRE_1999).score == -35
    assert score_game(decl(NULL, hand=True, ouvert=True), 18, Play(0, 1), profile=PRE_1999).score == -59
    assert score(decl(CLUBS, hand=True), 18, 40, 3, 1, profile=ISKO).score == -72


@pytest.mark.parametrize(("matadors", "value"), [(1, 252), (2, 288), (3, 324), (4, 360)])
def test_pre1999_grand_ouvert_has_base_36_and_no_ouvert_level(matadors: int, value: int) -> None:
    """001, Varianten: "Bis Ende 1998 hatte der Grand Ouvert einen eigenen Grundwert von 36.
    Der Ouvert-Multiplikator wurde nicht gezählt"."""
    r = score(decl(GRAND, hand=True, ouvert=True), 18, 120, 10, matadors, profile=PRE_1999)
    assert (r.won, r.base_value, r.value) == (True, 36, value)
    assert "ouvert" not in r.levels
    lost = score(decl(GRAND, hand=True, ouvert=True), 18, 110, 9, matadors, profile=PRE_1999)
    assert lost.score == -value  # a hand game, lost single before 1999
    # ...while a suit ouvert still counts its ouvert level then.
    assert score(decl(CLUBS, hand=True, ouvert=True), 18, 120, 10, 2, profile=PRE_1999).value == 108


def test_pre1999_grand_ouvert_decides_with_its_own_base() -> None:
    # Defenders give up a pre-1999 Grand ouvert mit 1 bid to 240: 7 x 36 = 252 reaches it.
    ending = defenders_ended(EndedBy.DEFENDERS_GAVE_UP, 0, 0)
    r = score(decl(GRAND, hand=True, ouvert=True), 240, 0, 0, 1, ending=ending, profile=PRE_1999)
    assert (r.won, r.value) == (True, 252)


@pytest.mark.parametrize("multiplier", [1, 2, 4, 8])
def test_kontra_re_bock_multiply_the_score_not_the_value(multiplier: int) -> None:
    won = score(decl(GRAND), 18, 70, 6, 1, multiplier=multiplier)
    assert (won.value, won.score, won.multiplier) == (48, 48 * multiplier, multiplier)
    # 001, Kontra und Re: Karo mit 1 bid 20, 85 Augen, Kontra: overbid at 27, -54 x 2 = -108.
    overbid = score(decl(DIAMONDS), 20, 85, 7, 1, multiplier=multiplier)
    assert (overbid.overbid, overbid.value, overbid.score) == (True, 27, -54 * multiplier)


# --- 4.1-4.3: shortened games -----------------------------------------------------------------


def test_defenders_give_up_when_the_declarer_needed_schneider_it_is_awarded_4_1_5() -> None:
    d = decl(HEARTS, hand=True)  # held as ohne 2 (40), the Kreuz Bube in the skat: mit 1 (30)
    r = score(d, 40, 35, 3, 1, ending=defenders_ended(EndedBy.DEFENDERS_GAVE_UP, 30, 3))
    assert (r.won, r.schneider, r.value, r.score) == (True, True, 40, 40)


def test_defenders_with_31_augen_have_already_saved_themselves_from_schneider() -> None:
    d = decl(HEARTS, hand=True)
    r = score(d, 40, 35, 3, 1, ending=defenders_ended(EndedBy.DEFENDERS_VIOLATION, 31, 3))
    assert (r.won, r.overbid, r.value, r.score) == (False, True, 40, -80)


def test_defenders_give_up_a_game_they_have_already_won_with_60() -> None:
    r = score(decl(SPADES), 18, 30, 3, 1, ending=defenders_ended(EndedBy.DEFENDERS_GAVE_UP, 60, 4))
    assert (r.won, r.value, r.score) == (False, 22, -44)


def test_defenders_give_up_simple_game_won_simple_unless_he_already_has_schneider() -> None:
    r = score(decl(SPADES), 18, 40, 3, 1, ending=defenders_ended(EndedBy.DEFENDERS_GAVE_UP, 10, 1))
    assert (r.won, r.schneider, r.value) == (True, False, 22)
    r = score(decl(SPADES), 18, 90, 7, 1, ending=defenders_ended(EndedBy.DEFENDERS_GAVE_UP, 10, 1))
    assert (r.won, r.schneider, r.value) == (True, True, 33)


def test_needed_schwarz_is_awarded_only_while_the_defenders_have_no_trick() -> None:
    d = decl(GRAND, hand=True, announced=Level.SCHWARZ)
    r = score(d, 18, 60, 5, 1, ending=defenders_ended(EndedBy.DEFENDERS_GAVE_UP, 0, 0))
    assert (r.won, r.schwarz, r.value) == (True, True, 24 * 7)
    r = score(d, 18, 60, 4, 1, ending=defenders_ended(EndedBy.DEFENDERS_GAVE_UP, 0, 1))
    assert (r.won, r.value, r.score) == (False, 24 * 7, -336)


@pytest.mark.parametrize("by", [EndedBy.DEFENDERS_GAVE_UP, EndedBy.DEFENDERS_VIOLATION])
def test_a_level_the_matadors_rule_out_cannot_be_won_by_the_defenders_5_4_3(by: EndedBy) -> None:
    # Pik Hand ohne 1 bid 55 needs Schwarz (5 x 11), impossible "ohne": the 5.4.3 example.
    r = score(decl(SPADES, hand=True), 55, 0, 0, -1, ending=defenders_ended(by, 0, 0))
    assert (r.won, r.overbid, r.value, r.score) == (False, True, 55, -110)
    # Herz Hand ohne 7 bid 100 needs Schneider: the defenders hold 33 Augen in top trumps.
    r = score(decl(HEARTS, hand=True), 100, 0, 0, -7, ending=defenders_ended(by, 0, 0))
    assert (r.won, r.value) == (False, 100)
    # ohne 6 leaves Schneider possible (29 Augen): awarded.
    r = score(decl(HEARTS, hand=True), 90, 0, 0, -6, ending=defenders_ended(by, 0, 0))
    assert (r.won, r.value) == (True, 90)
    # and the caller may still say a level was out of reach for reasons of the cards.
    r = score(decl(HEARTS, hand=True), 90, 0, 0, -6, ending=defenders_ended(by, 0, 0, level_possible=False))
    assert not r.won


def test_reachability_of_levels_by_the_missing_top_trumps() -> None:
    assert [missing_top_points(CLUBS, -n) for n in range(1, 12)] == [2, 4, 6, 8, 19, 29, 33, 36, 36, 36, 36]
    assert [missing_top_points(GRAND, -n) for n in range(1, 5)] == [2, 4, 6, 8]
    assert all(missing_top_points(g, n) == 0 for g in (CLUBS, GRAND) for n in (1, 4))
    assert [level_reachable(CLUBS, -n, Level.SCHNEIDER) for n in (6, 7)] == [True, False]
    assert level_reachable(GRAND, -4, Level.SCHNEIDER) and not level_reachable(GRAND, -1, Level.SCHWARZ)
    assert all(level_reachable(CLUBS, m, Level.SIMPLE) for m in (-11, 11))


def test_declarer_violation_after_the_game_was_decided_for_him_4_1_3() -> None:
    ending = Ending(EndedBy.DECLARER_VIOLATION)
    r = score(decl(CLUBS), 18, 70, 5, 2, ending=ending)
    assert (r.won, r.value, r.score) == (True, 36, 36)


def test_declarer_violation_before_the_decision_loses_simple_4_1_4() -> None:
    ending = Ending(EndedBy.DECLARER_VIOLATION)
    r = score(decl(CLUBS), 18, 10, 1, 2, ending=ending)  # not Schneider, though he had 10 Augen
    assert (r.won, r.schneider, r.value, r.score) == (False, False, 36, -72)
    # "Eine höhere Gewinnstufe erfordert den Nachweis ...": a proven Schneider for the defenders.
    r = score(decl(CLUBS), 18, 10, 1, 2, ending=Ending(EndedBy.DECLARER_VIOLATION, proven_level=Level.SCHNEIDER))
    assert (r.schneider, r.value) == (True, 48)


def test_declarer_violation_with_61_does_not_win_a_game_that_needs_more() -> None:
    # Kreuz Hand mit 1 bid 46 needs Schneider (48); 70 Augen do not decide it for him.
    r = score(decl(CLUBS, hand=True), 46, 70, 5, 1, ending=Ending(EndedBy.DECLARER_VIOLATION))
    assert (r.won, r.overbid, r.value, r.score) == (False, True, 48, -96)
    # Announced Schwarz is never decided for him before the last trick.
    r = score(decl(CLUBS, hand=True, announced=Level.SCHWARZ), 18, 100, 8, 1, ending=Ending(EndedBy.DECLARER_VIOLATION))
    assert (r.won, r.value) == (False, 12 * 7)


def test_declarer_gives_up_at_least_the_bid_and_his_spitzen_4_3_1() -> None:
    gave_up = Ending(EndedBy.DECLARER_GAVE_UP)
    r = score(decl(CLUBS), 18, 0, 0, 3, ending=gave_up)  # einfach: not his own Schwarz
    assert (r.won, r.schwarz, r.value, r.score) == (False, False, 48, -96)
    r = score(decl(HEARTS), 30, 5, 0, 1, ending=gave_up)  # bid 30 > Herz mit 1 (20)
    assert (r.overbid, r.value, r.score) == (True, 30, -60)
    r = score(decl(HEARTS, hand=True, announced=Level.SCHNEIDER), 18, 0, 0, 1, ending=gave_up)
    assert (r.value, r.score) == (50, -100)  # at least the announced level (5.2.5)


def test_null_shortened_games() -> None:
    assert not score_game(decl(NULL), 23, Play(0, 0), ending=Ending(EndedBy.DECLARER_GAVE_UP)).won
    assert score_game(decl(NULL), 23, Play(0, 0), ending=Ending(EndedBy.DEFENDERS_VIOLATION)).won
    assert not score_game(decl(NULL), 23, Play(0, 1), ending=Ending(EndedBy.DEFENDERS_GAVE_UP)).won


def test_describe_de_reads_like_the_list() -> None:
    r = score(decl(CLUBS, hand=True), 18, 75, 6, 2)
    assert r.describe_de() == "Kreuz Hand mit 2, Spiel 3, Hand 4 = 48, gewonnen +48"
    r = score(decl(HEARTS), 50, 61, 5, 1)
    assert r.describe_de() == "Herz mit 1, überreizt = 50, verloren -100"


# --- bad input ----------------------------------------------------------------------------


@pytest.mark.parametrize("bid", [0, 17, 19, 21, 25, 265, 1000, -18])
def test_a_bid_that_is_not_a_bid_value_is_refused(bid: int) -> None:
    with pytest.raises(InvalidBidError) as info:
        score(decl(CLUBS), bid, 70, 6, 1)
    err = info.value
    assert isinstance(err, BidError) and isinstance(err, PlayError) and isinstance(err, ValueError)
    assert err.field == "bid" and str(bid) in err.reason and "not a bid value" in err.reason


@pytest.mark.parametrize(("points", "tricks", "field", "words"), [
    (50, 0, "declarer_points", "50 points cannot be in 0 tricks"),
    (100, 10, "declarer_points", "leaves the defenders"),
    (119, 10, "declarer_points", "leaves the defenders"),
    (119, 9, "declarer_points", "no 29 cards add up"),  # the defenders' trick would hold 1 Auge
    (1, 1, "declarer_points", "no 5 cards add up"),
    (9, 0, "declarer_points", "no 2 cards add up"),  # no two cards make 9
    (121, 10, "declarer_points", "0 to 120"),
    (-1, 0, "declarer_points", "0 to 120"),
    (70, 11, "declarer_tricks", "0 to 10"),
    (0, -1, "declarer_tricks", "0 to 10"),
])
def test_impossible_counts_are_refused(points: int, tricks: int, field: str, words: str) -> None:
    with pytest.raises(InvalidResultError) as info:
        score(decl(CLUBS), 18, points, tricks, 1)
    assert info.value.field == field and words in info.value.reason
    assert str(points if field == "declarer_points" else tricks) in info.value.reason


def test_a_shortened_game_is_checked_by_exact_totals_too() -> None:
    with pytest.raises(InvalidResultError, match="^declarer_points: 0 points cannot be in 4 tricks and the skat: no 14"):
        score(decl(CLUBS), 18, 0, 4, 1, ending=Ending(EndedBy.DECLARER_GAVE_UP))  # only 12 blank cards
    assert score(decl(CLUBS), 18, 0, 3, 1, ending=Ending(EndedBy.DECLARER_GAVE_UP)).score == -48


@pytest.mark.parametrize(("game", "matadors"), [
    (CLUBS, 0), (CLUBS, 12), (CLUBS, -12), (DIAMONDS, 99), (GRAND, 5), (GRAND, -5), (GRAND, 0),
])
def test_impossible_matadors_are_refused(game: GameType, matadors: int) -> None:
    with pytest.raises(InvalidResultError) as info:
        score(decl(game), 18, 70, 6, matadors)
    most = 4 if game is GRAND else 11
    assert info.value.field == "matadors"
    assert f"{matadors} is not possible in {game.german}" in info.value.reason and f"1 to {most}" in info.value.reason


def test_null_has_no_matadors() -> None:
    with pytest.raises(InvalidResultError, match="^matadors: Null games have no matadors"):
        score_game(decl(NULL), 23, Play(0, 0, 1))


def test_results_the_missing_top_trumps_rule_out_are_refused() -> None:
    with pytest.raises(InvalidResultError, match=r"^declarer_tricks: 10 tricks 'ohne 1'.*Kreuz Bube"):
        score(decl(GRAND, hand=True), 18, 120, 10, -1)
    with pytest.raises(InvalidResultError, match=r"^declarer_points: 90 points 'ohne 7'.* at least 33"):
        score(decl(CLUBS), 18, 90, 7, -7)
    # ...only in a game played to the end: remaining tricks may be awarded (4.1.9, 4.3.5).
    r = score(decl(CLUBS), 18, 120, 10, -1, ending=defenders_ended(EndedBy.DEFENDERS_VIOLATION, 0, 0))
    assert r.won


def test_a_game_the_defenders_ended_needs_their_counts() -> None:
    with pytest.raises(InvalidResultError) as info:
        score(decl(CLUBS), 18, 40, 3, 1, ending=Ending(EndedBy.DEFENDERS_GAVE_UP))
    assert info.value.field == "ending" and "defender_points" in info.value.reason
    with pytest.raises(InvalidResultError, match="^ending.defender_tricks: 8 tricks do not fit"):
        score(decl(CLUBS), 18, 40, 3, 1, ending=defenders_ended(EndedBy.DEFENDERS_GAVE_UP, 20, 8))
    with pytest.raises(InvalidResultError, match="^ending.defender_points: 90 points and the declarer's 40"):
        score(decl(CLUBS), 18, 40, 3, 1, ending=defenders_ended(EndedBy.DEFENDERS_GAVE_UP, 90, 6))
    with pytest.raises(InvalidResultError, match="^ending.defender_points: 40 points cannot be in 1 tricks"):
        score(decl(CLUBS), 18, 40, 3, 1, ending=defenders_ended(EndedBy.DEFENDERS_GAVE_UP, 40, 1))


@pytest.mark.parametrize("multiplier", [0, -2])
def test_a_multiplier_below_one_is_refused(multiplier: int) -> None:
    with pytest.raises(InvalidResultError, match=f"^multiplier: {multiplier} is not a multiplier"):
        score(decl(CLUBS), 18, 70, 6, 1, multiplier=multiplier)


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"game": CLUBS, "ouvert": True}, "Kreuz ouvert is always a hand game"),
    ({"game": GRAND, "ouvert": True}, "Grand ouvert is always a hand game"),
    ({"game": HEARTS, "announced": Level.SCHNEIDER}, "Schneider angesagt is only possible in a hand game"),
    ({"game": HEARTS, "announced": Level.SCHWARZ}, "Schwarz angesagt is only possible in a hand game"),
    ({"game": NULL, "hand": True, "announced": Level.SCHNEIDER}, "Null games have no Schneider or Schwarz"),
    ({"game": NULL, "announced": Level.SCHWARZ}, "Null games have no Schneider or Schwarz"),
])
def test_contradictory_declarations_are_refused(kwargs: dict[str, Any], words: str) -> None:
    builders: tuple[Callable[..., Declaration], ...] = (Declaration.make, Declaration)
    for build in builders:
        with pytest.raises(DeclarationError) as info:
            build(**kwargs)
        assert words in str(info.value) and isinstance(info.value, SkatError)


def test_a_direct_declaration_must_be_complete() -> None:
    with pytest.raises(DeclarationError, match="Pik ouvert is announced Schwarz"):
        Declaration(SPADES, hand=True, ouvert=True)
    assert Declaration(SPADES, True, True, Level.SCHWARZ) == Declaration.make(SPADES, hand=True, ouvert=True)


def test_declarations_complete_and_describe_themselves() -> None:
    d = Declaration.make(GRAND, hand=True, ouvert=True, announced=Level.SCHNEIDER)
    assert d.announced is Level.SCHWARZ and d.describe_de() == "Grand ouvert"
    assert Declaration.make(CLUBS, hand=True, announced=Level.SCHWARZ).describe_de() == "Kreuz Hand Schwarz angesagt"
    assert Declaration.make(NULL, hand=True, ouvert=True).describe_de() == "Null ouvert Hand"
    assert Declaration.make(NULL, hand=True).null_value == 35 and Declaration.make(CLUBS).null_value == 0
    with pytest.raises(DeclarationError, match="not possible after taking up the skat"):
        Declaration.make(CLUBS, hand=True).check_skat(skat_taken=True)
    Declaration.make(CLUBS).check_skat(skat_taken=True)


@pytest.mark.parametrize("name", ["Schneider", "schneider ", "ouvert", ""])
def test_unknown_announcements_are_refused(name: str) -> None:
    with pytest.raises(DeclarationError, match=f"unknown announcement {name!r}"):
        Level.parse(name)
    assert Level.parse(None) is Level.SIMPLE and Level.parse("schwarz") is Level.SCHWARZ
    assert [level.record_name for level in Level] == [None, "schneider", "schwarz"]


# --- real games are never refused ---------------------------------------------------------


def reference_matadors(game: GameType, cards: set[str]) -> int:
    """Spitzen by the rule text (001, "Spitzen"), over the declarer's cards and the skat."""
    order = ["CJ", "SJ", "HJ", "DJ"]
    if game is not GRAND:
        order += [game.trump_suit.value + rank for rank in "ATKQ987"]  # type: ignore[union-attr]
    with_top = order[0] in cards
    count = 0
    for code in order:
        if (code in cards) is not with_top:
            break
        count += 1
    return count if with_top else -count


@settings(max_examples=400, deadline=None)
@given(random_games(games=st.sampled_from([CLUBS, SPADES, HEARTS, DIAMONDS, GRAND])))
def test_every_real_game_is_accepted_and_scored_by_its_augen(g: RandomGame) -> None:
    """The impossibility checks (exact Augen totals, "ohne" limits) never refuse a real game."""
    leader, points, tricks = 0, sum(c.points for c in g.skat), 0
    for trick in g.tricks:
        winner = (leader + reference_winner(trick, g.game)) % 3
        if winner == g.declarer:
            points, tricks = points + sum(c.points for c in trick), tricks + 1
        leader = winner
    matadors = reference_matadors(g.game, {str(c) for c in (*g.hands[g.declarer], *g.skat)})
    r = score_game(decl(g.game), 18, Play(points, tricks, matadors))
    assert r.won == (points >= 61 and r.value >= 18)
    assert r.schneider == (points >= 90 or points <= 30) and r.schwarz == (tricks in (0, 10))
    assert r.value == g.game.base_value * (abs(matadors) + 1 + r.schneider + r.schwarz)


def test_a_declarer_who_breaks_a_rule_after_winning_keeps_only_the_level_he_needed() -> None:
    """Court ruling on ISkO 4.1.3: an illegal lead gives only the simple win; the guilty
    party cannot prove a higher level (4.1.4). A game already won stays won."""
    from device.declaration import Declaration
    from device.games import GameType
    from device.value import EndedBy, Ending, Play, score_game

    clubs = Declaration.make(GameType.CLUBS)
    violation = Ending(by=EndedBy.DECLARER_VIOLATION)
    simple = score_game(clubs, 18, Play(95, 7, 1), ending=violation)
    assert (simple.won, simple.schneider, simple.value) == (True, False, 24)
    # Bid 36 needs Schneider (mit 1: 3 x 12): already reached, so it is kept.
    needed = score_game(clubs, 36, Play(95, 7, 1), ending=violation)
    assert (needed.won, needed.schneider, needed.value, needed.overbid) == (True, True, 36, False)


# --- ISkO 5.4.3 from the cards ----------------------------------------------------------


def _court_schwarz_possible(game: GameType, mine: set[str]) -> bool:
    """The minimum holdings for Schwarz in rules/002 on 5.4.3 (all with the Kreuz Bube)."""
    if "CJ" not in mine:
        return False
    if game is GRAND:
        return len(mine & {"SJ", "HJ", "DJ"}) >= 1
    suit = {CLUBS: "C", SPADES: "S", HEARTS: "H"}.get(game, "D")
    s, h, d, a, t = "SJ" in mine, "HJ" in mine, "DJ" in mine, suit + "A" in mine, suit + "T" in mine
    n = len(mine)
    return (n >= 9 or (n == 8 and (s or h)) or (n == 7 and (s or (h and d)))
            or (n == 6 and ((s and a) or (h and d and a))) or (n == 5 and ((s and h) or (s and d and a) or (h and d and a and t)))
            or (n == 4 and s and h and d))


@pytest.mark.parametrize("game", [GRAND, HEARTS])
def test_5_4_3_schwarz_from_the_cards_never_takes_away_what_the_court_allows(game: GameType) -> None:
    """Every holding of trumps with the Kreuz Bube (the rest of the trumps with the defenders):
    where the court's table (rules/002 on 5.4.3) says Schwarz is possible, the cards leave it
    reachable; in a Grand the two agree exactly ("Kreuz-Bube i. V. m. einem beliebigen weiteren
    Buben"); in a suit game the cards are more lenient only where two defenders' trumps can fall
    on one of his (see device.value.reachable_level)."""
    trumps = [c.code for c in trump_order(game)]
    more_lenient = 0
    for size in range(0, len(trumps)):
        for others in combinations(trumps[1:], size):
            mine = {"CJ", *others}
            theirs = [c for c in trumps if c not in mine]
            cards = reachable_level(game, parse_cards(" ".join(sorted(mine))), parse_cards(" ".join(theirs)) if theirs else [])
            court = _court_schwarz_possible(game, mine)
            assert cards is Level.SCHWARZ or not court, (sorted(mine), cards)
            more_lenient += cards is Level.SCHWARZ and not court
    assert more_lenient == 0 if game is GRAND else more_lenient > 0
    # without the Kreuz Bube (and it not in the skat) never
    assert reachable_level(game, parse_cards("SJ HJ DJ"), parse_cards("CJ")) is not Level.SCHWARZ
