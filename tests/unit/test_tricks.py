"""Tests for device.tricks: card order, following, trick winner, matadors, whole games.

Data cases live in tests/data/tricks/*.json, each naming its source; targeted tests and
hypothesis properties (random legal games from tests.strategies) follow.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from device.cards import DECK, Card, Rank, Suit, parse_cards
from device.errors import PlayError, SkatError
from device.games import GameType
from device.tricks import (
    TRUMP,
    FalseFollowing,
    PlayedGame,
    beats,
    follow_class,
    is_trump,
    legal_cards,
    matadors,
    next_to_play,
    play_game,
    sort_hand,
    trick_leaders,
    trick_winner,
    trump_order,
)
from tests.strategies import (
    deal,
    game_types,
    play_random,
    play_with_revoke,
    random_games,
    reference_class,
    reference_legal,
    reference_winner,
)

DATA = Path(__file__).resolve().parents[1] / "data" / "tricks"


def load(name: str, key: str) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads((DATA / name).read_text(encoding="utf-8"))[key]
    return cases


def case_id(case: dict[str, Any]) -> str:
    return str(case.get("name") or case.get("why") or f"{case['game']}:{case.get('trick', case.get('cards', ''))}")


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def codes(items: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(c.code for c in items)


# --- data cases ------------------------------------------------------------------------------


@pytest.mark.parametrize("case", load("winner.json", "cases"), ids=case_id)
def test_trick_winner_cases(case: dict[str, Any]) -> None:
    game = GameType.parse(case["game"])
    assert trick_winner(cards(case["trick"]), game) == case["winner"], case["source"]


@pytest.mark.parametrize("case", load("following.json", "cases"), ids=case_id)
def test_legal_cards_cases(case: dict[str, Any]) -> None:
    game = GameType.parse(case["game"])
    legal = legal_cards(cards(case["hand"]), cards(case["trick"]), game)
    assert codes(legal) == case["legal"], case["source"]


@pytest.mark.parametrize("case", load("sort.json", "cases"), ids=case_id)
def test_sort_hand_cases(case: dict[str, Any]) -> None:
    game = GameType.parse(case["game"])
    assert codes(sort_hand(cards(case["cards"]), game)) == case["sorted"], case["source"]


@pytest.mark.parametrize("case", load("matadors.json", "cases"), ids=case_id)
def test_matadors_cases(case: dict[str, Any]) -> None:
    game = GameType.parse(case["game"])
    assert matadors(game, cards(case["cards"])) == case["matadors"], case["source"]


def _play_case(case: dict[str, Any]) -> PlayedGame:
    return play_game(GameType.parse(case["game"]), case["declarer"], cards(case["skat"]),
                     [cards(t) for t in case["tricks"]])


@pytest.mark.parametrize("case", load("games.json", "games"), ids=case_id)
def test_game_cases(case: dict[str, Any]) -> None:
    played = _play_case(case)
    want = case["expect"]
    assert [t.leader for t in played.tricks] == want["leaders"]
    assert [t.winner for t in played.tricks] == want["winners"]
    assert list(played.trick_winners) == want["winners"]
    assert [t.points for t in played.tricks] == want["trick_points"]
    assert list(played.points) == want["points"]
    assert list(played.trick_counts) == want["trick_counts"]
    assert played.skat_points == want["skat_points"]
    assert played.declarer_points == want["declarer_points"]
    assert played.declarer_tricks == want["declarer_tricks"]
    assert played.defender_points == want["defender_points"]
    assert played.matadors == want["matadors"]
    assert played.complete is want["complete"]
    assert [codes(h) for h in played.hands] == want["hands"]
    if want["violation"] is None:
        assert played.violation is None
    else:
        v = want["violation"]
        assert played.violation is not None
        assert (played.violation.trick_index, played.violation.seat, played.violation.card.code,
                played.violation.led.code, codes(played.violation.held), played.violation.by_declarer) == (
            v["trick_index"], v["seat"], v["card"], v["led"], v["held"], v["by_declarer"])


@pytest.mark.parametrize("case", load("games.json", "errors"), ids=case_id)
def test_bad_games_raise_play_error(case: dict[str, Any]) -> None:
    with pytest.raises(PlayError, match=case["error"]):
        _play_case(case)


# --- card order ------------------------------------------------------------------------------

SUIT_GAMES = [GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS]


@pytest.mark.parametrize("game", SUIT_GAMES)
def test_suit_game_trumps_are_jacks_then_trump_suit(game: GameType) -> None:
    suit = game.trump_suit
    assert suit is not None
    want = ["CJ", "SJ", "HJ", "DJ"] + [suit.value + r for r in "ATKQ987"]
    assert [c.code for c in trump_order(game)] == want
    # Each trump beats every lower one, and every non-trump card.
    order = trump_order(game)
    for i, high in enumerate(order):
        for low in order[i + 1:]:
            assert beats(high, low, game) and not beats(low, high, game)
        for plain in DECK:
            if plain not in order:
                assert beats(high, plain, game) and not beats(plain, high, game)
    assert sum(is_trump(c, game) for c in DECK) == 11


def test_grand_has_only_the_jacks_as_trumps() -> None:
    assert [c.code for c in trump_order(GameType.GRAND)] == ["CJ", "SJ", "HJ", "DJ"]
    assert [c.code for c in DECK if is_trump(c, GameType.GRAND)] == ["CJ", "SJ", "HJ", "DJ"]
    assert follow_class(Card.parse("DA"), GameType.GRAND) is Suit.DIAMONDS


def test_null_has_no_trumps_and_the_ten_below_the_jack() -> None:
    assert trump_order(GameType.NULL) == ()
    assert not any(is_trump(c, GameType.NULL) for c in DECK)
    for suit in Suit:
        ranked = [Card(suit, Rank(r)) for r in "AKQJT987"]
        for i, high in enumerate(ranked):
            for low in ranked[i + 1:]:
                assert beats(high, low, GameType.NULL) and not beats(low, high, GameType.NULL)


@pytest.mark.parametrize("game", list(GameType))
def test_a_card_of_another_suit_never_takes_a_trick(game: GameType) -> None:
    for a in DECK:
        for b in DECK:
            if a != b and follow_class(a, game) is not follow_class(b, game) and not is_trump(a, game):
                assert not beats(a, b, game)


def test_follow_class_of_a_jack_depends_on_the_game() -> None:
    jack = Card.parse("HJ")
    assert follow_class(jack, GameType.CLUBS) is TRUMP
    assert follow_class(jack, GameType.GRAND) is TRUMP
    assert follow_class(jack, GameType.NULL) is Suit.HEARTS


def test_sort_hand_of_the_whole_deck_in_a_suit_game() -> None:
    ordered = sort_hand(reversed(DECK), GameType.SPADES)
    assert codes(ordered[:11]) == "CJ SJ HJ DJ SA ST SK SQ S9 S8 S7"
    assert codes(ordered[11:]) == ("CA CT CK CQ C9 C8 C7 HA HT HK HQ H9 H8 H7 "
                                   "DA DT DK DQ D9 D8 D7")


# --- legal cards and trick winner ------------------------------------------------------------


def test_legal_cards_refuses_a_full_trick() -> None:
    with pytest.raises(PlayError, match="already has 3"):
        legal_cards(cards("C7"), cards("CA CK CQ"), GameType.GRAND)


def test_legal_cards_of_an_empty_hand_is_empty() -> None:
    assert legal_cards((), cards("CA"), GameType.GRAND) == ()


@pytest.mark.parametrize("count", [0, 4])
def test_trick_winner_needs_one_to_three_cards(count: int) -> None:
    with pytest.raises(PlayError, match=f"not {count}"):
        trick_winner(DECK[:count], GameType.HEARTS)


def test_trick_winner_of_a_trick_being_played() -> None:
    assert trick_winner(cards("SA"), GameType.HEARTS) == 0
    assert trick_winner(cards("SA H7"), GameType.HEARTS) == 1


def test_errors_are_skat_errors_and_value_errors() -> None:
    with pytest.raises(SkatError):
        trick_winner((), GameType.HEARTS)
    with pytest.raises(ValueError):
        trick_winner((), GameType.HEARTS)


# --- play_game: targeted ---------------------------------------------------------------------


def test_false_following_speaks_german() -> None:
    case = next(c for c in load("games.json", "games") if c["name"] == "grand_hinterhand_false_following")
    violation = _play_case(case).violation
    assert isinstance(violation, FalseFollowing)
    assert violation.german == ("Falsch bedient im 3. Stich: Hinterhand gab Kreuz 7 auf Herz Ass, "
                                "obwohl noch Herz vorhanden war (Herz 9, Herz 8)")


def test_not_following_when_void_is_no_violation() -> None:
    # Mittelhand trumps Kreuz König at trick 2; he holds no club later (ISkO 4.2.2).
    case = next(c for c in load("games.json", "games") if c["name"] == "herz_mittelhand_mit_3")
    played = _play_case(case)
    assert played.tricks[1].card_of(1) == Card.parse("H7")
    assert played.violation is None


def test_of_two_revokes_in_one_trick_the_first_card_counts() -> None:
    # Trick 1: Kreuz Ass led, Mittelhand and Hinterhand both play off-suit and clubs later.
    played = play_game(GameType.GRAND, 0, cards("S7 S8"),
                       [cards("CA H7 D7"), cards("SA C7 C8")])
    assert played.violation is not None
    assert (played.violation.trick_index, played.violation.seat, played.violation.card) == (0, 1, Card.parse("H7"))
    assert played.violation.by_declarer is False


def test_an_unproven_revoke_in_an_early_ended_game_is_not_reported() -> None:
    # Hinterhand plays Karo 7 on Kreuz Dame; without his later Kreuz 9 nothing proves he held clubs.
    played = play_game(GameType.NULL, 1, cards("HK HQ"), [cards("CQ CJ D7"), cards("S7 S8 SA")])
    assert played.violation is None


def test_played_trick_reads_like_its_cards() -> None:
    played = play_game(GameType.HEARTS, 1, cards("S7 S8"), [cards("CA C7 CT"), cards("CK H7 C8")])
    second = played.tricks[1]
    assert list(second) == list(cards("CK H7 C8")) and len(second) == 3 and second[1] == Card.parse("H7")
    assert second.seats == (0, 1, 2) and second.winner_index == 1
    assert played.next_leader == 1 and played.defender_tricks == 1


def test_not_a_card_is_refused() -> None:
    with pytest.raises(PlayError, match="trick 1 holds 'CA', which is not one of the 32 Skat cards"):
        play_game(GameType.HEARTS, 0, cards("S7 S8"), [["CA", "C7", "CT"]])  # type: ignore[list-item]


def test_a_half_built_card_is_refused() -> None:
    bogus = Card("X", Rank.ACE)  # type: ignore[arg-type]
    with pytest.raises(PlayError, match="the skat holds .* not one of the 32 Skat cards"):
        play_game(GameType.HEARTS, 0, (bogus, Card.parse("S8")), [])


def test_declarer_must_be_a_seat_number() -> None:
    with pytest.raises(PlayError, match="declarer seat True"):
        play_game(GameType.HEARTS, True, cards("S7 S8"), [])
    with pytest.raises(PlayError, match="declarer seat '1'"):
        play_game(GameType.HEARTS, "1", cards("S7 S8"), [])  # type: ignore[arg-type]


def test_a_complete_game_is_exactly_the_deck() -> None:
    rng = random.Random(1)
    hands, skat = deal(rng)
    played = play_game(GameType.CLUBS, 0, skat, play_random(rng, GameType.CLUBS, hands))
    seen = list(played.skat) + [c for t in played.tricks for c in t]
    assert sorted(seen, key=DECK.index) == list(DECK)


def test_next_to_play() -> None:
    tricks = [cards("CA C7 CT"), cards("CK H7 C8")]  # Vorhand, then Mittelhand take them
    assert next_to_play(GameType.HEARTS, tricks) == 1
    assert next_to_play(GameType.HEARTS, tricks, cards("CJ DJ")) == 0
    with pytest.raises(PlayError, match="already complete"):
        next_to_play(GameType.HEARTS, tricks, cards("CJ DJ H8"))
    with pytest.raises(PlayError, match="trick 2 has 2 cards"):
        next_to_play(GameType.HEARTS, [cards("CA C7 CT"), cards("CK H7")])


# --- properties over random legal games ------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(random_games())
def test_random_legal_game_adds_up(g: Any) -> None:
    played = play_game(g.game, g.declarer, g.skat, g.tricks)
    assert sum(played.points) + played.skat_points == 120
    assert sum(played.trick_counts) == 10 and played.complete
    assert played.violation is None
    assert played.declarer_points == played.points[g.declarer] + played.skat_points
    assert played.declarer_points + played.defender_points == 120
    # Seats rebuilt from the winners match the deal: every seat played exactly his hand.
    for seat in range(3):
        assert set(played.hands[seat]) == set(g.hands[seat])
    assert played.matadors == matadors(g.game, g.hands[g.declarer] + g.skat)
    for trick in played.tricks:
        assert trick.winner_index == reference_winner(trick.cards, g.game)


@settings(max_examples=150, deadline=None)
@given(st.randoms(use_true_random=False), game_types, st.integers(0, 2), st.integers(0, 8))
def test_one_revoke_is_reported_at_exactly_its_trick(rng: random.Random, game: GameType,
                                                      declarer: int, from_trick: int) -> None:
    hands, skat = deal(rng)
    result = play_with_revoke(rng, game, hands, from_trick=from_trick)
    assume(result is not None)
    assert result is not None
    tricks, revoke = result
    played = play_game(game, declarer, skat, tricks)
    v = played.violation
    assert v is not None
    assert (v.trick_index, v.seat, v.card, v.led) == (revoke.trick_index, revoke.seat, revoke.card, revoke.led)
    assert v.by_declarer is (revoke.seat == declarer)
    assert v.held and all(follow_class(c, game) is follow_class(revoke.led, game) for c in v.held)
    # The totals still count every trick as played.
    assert sum(played.points) + played.skat_points == 120 and played.complete


@settings(max_examples=100, deadline=None)
@given(st.randoms(use_true_random=False), game_types, st.integers(0, 2), st.integers(0, 10))
def test_a_game_ended_early_counts_what_was_played(rng: random.Random, game: GameType,
                                                    declarer: int, n: int) -> None:
    hands, skat = deal(rng)
    tricks = play_random(rng, game, hands, tricks=n)
    played = play_game(game, declarer, skat, tricks)
    assert played.complete is (n == 10)
    assert (played.matadors is None) is (n < 10)
    assert sum(played.trick_counts) == n
    assert sum(played.points) == sum(c.points for t in tricks for c in t)
    assert [len(h) for h in played.hands] == [n, n, n]
    assert played.violation is None
    assert next_to_play(game, tricks) == played.next_leader


@settings(max_examples=300, deadline=None)
@given(st.randoms(use_true_random=False), game_types, st.integers(1, 10), st.integers(0, 2))
def test_legal_cards_agree_with_the_reference(rng: random.Random, game: GameType, size: int,
                                              in_trick: int) -> None:
    pool = list(DECK)
    rng.shuffle(pool)
    hand, trick = pool[:size], pool[size:size + in_trick]
    assert list(legal_cards(hand, trick, game)) == reference_legal(hand, trick, game)
    for card in hand:
        assert (follow_class(card, game) is TRUMP) is (reference_class(card, game) == "trump")
    full = pool[:3]
    assert trick_winner(full, game) == reference_winner(full, game)


def test_trick_leaders_follow_each_winner_and_are_not_kept_for_other_tricks() -> None:
    """The leaders are remembered for the last tricks asked for (by identity): the same
    tricks give the same leaders, other tricks (even equal ones, or a list changed in place)
    their own, as next_to_play computes them."""
    first = (parse_cards("CK H7 C8"), parse_cards("SA S7 CJ"))
    assert trick_leaders(first, GameType.HEARTS) == (0, 1, 0)
    assert trick_leaders(first, GameType.HEARTS) == (0, 1, 0)
    assert trick_leaders(first, GameType.NULL) == (0, 0, 0)  # the same tricks in another game
    longer = (*first, parse_cards("D7 DA D8"))
    assert trick_leaders(longer, GameType.HEARTS) == (0, 1, 0, 1)
    assert trick_leaders(longer, GameType.HEARTS)[-1] == next_to_play(GameType.HEARTS, longer)
    growing = [list(first[0])]
    assert trick_leaders(growing, GameType.HEARTS) == (0, 1)
    growing.append(list(first[1]))
    assert trick_leaders(growing, GameType.HEARTS) == (0, 1, 0)
    trick = list(first[0])
    inner = (trick,)  # a tuple, but its trick a list
    assert trick_leaders(inner, GameType.HEARTS) == (0, 1)
    trick[:] = parse_cards("C7 CA H7")  # now Hinterhand's Herz 7 takes it
    assert trick_leaders(inner, GameType.HEARTS) == (0, 2)
