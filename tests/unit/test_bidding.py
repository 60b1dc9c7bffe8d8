"""Bidding (Reizen, ISkO 3.3): bid values, the auction state machine, its German prompts.

The worked examples and the paragraphs of the rule texts live as data in
tests/data/bidding/ (each line names its source); the tests here walk them.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from device.bidding import (
    BID_VALUES,
    FOREHAND,
    HIGHEST_BID,
    LOWEST_BID,
    MIDDLEHAND,
    REARHAND,
    SEAT_NAMES_DE,
    SEATS,
    Action,
    Auction,
    AuctionResult,
    Bid,
    Hold,
    Options,
    Pass,
    Role,
    game_values,
    is_bid_value,
    max_factor,
    next_bid,
    parse_action,
    replay,
    require_bid_value,
)
from device.errors import BidError, SkatError
from device.games import GameType

DATA = Path(__file__).resolve().parents[1] / "data" / "bidding"

# Every bid is strictly higher than the one before, so there are at most len(BID_VALUES)
# bids, each answered at most once, plus at most three passes.
MAX_STEPS = 2 * len(BID_VALUES) + 3


def load(name: str) -> list[dict[str, Any]]:
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


AUCTION_CASES = load("auctions.jsonl")
VALUE_CASES = load("values.jsonl")


def walk(texts: list[str]) -> Auction:
    return replay(parse_action(t) for t in texts)


# --- bid values ----------------------------------------------------------------------------


def test_the_data_files_hold_cases_with_sources() -> None:
    assert len(AUCTION_CASES) >= 25 and len(VALUE_CASES) >= 15
    for case in AUCTION_CASES + VALUE_CASES:
        assert case["source"] and case["quote"]
    ids = [c["id"] for c in AUCTION_CASES]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("case", VALUE_CASES, ids=lambda c: f"{c['source']}:{c.get('value', 'first')}")
def test_value_cases_from_the_rules(case: dict[str, Any]) -> None:
    if "first" in case:
        assert list(BID_VALUES[: len(case["first"])]) == case["first"]
        return
    value = case["value"]
    assert is_bid_value(value) is case["is_bid"]
    if "next" in case:
        # for a non-bid number: the value the Skat court counts it as (002, 3.3.1 ruling)
        assert next_bid(value) == case["next"]
    if case.get("lowest"):
        assert value == LOWEST_BID == BID_VALUES[0]
    if case.get("highest"):
        assert value == HIGHEST_BID == BID_VALUES[-1]
    if "game" in case:
        game = GameType.parse(case["game"])
        assert value in game_values(game)
        if "factor" in case:
            assert game.base_value * case["factor"] == value
        if case.get("max_factor"):
            assert case["factor"] == max_factor(game)
            assert game.base_value * (case["factor"] + 1) not in game_values(game)
    if case["is_bid"]:
        assert require_bid_value(value) == value
    else:
        with pytest.raises(BidError) as caught:
            require_bid_value(value)
        for fragment in case["error"]:
            assert fragment in str(caught.value)


def test_bid_values_equal_an_independent_enumeration_of_won_games() -> None:
    # Enumerate games as players count them: matadors ("mit/ohne n") plus the levels
    # actually reached or announced, times the base value; Null's four fixed values.
    levels = {
        "einfach": 1, "Hand": 2, "Hand Schneider": 3, "Hand Schneider angesagt": 4,
        "Hand Schwarz": 5, "Hand Schwarz angesagt": 6, "ouvert": 7,
    }
    found = {23, 35, 46, 59}
    for base, trumps in ((9, 11), (10, 11), (11, 11), (12, 11), (24, 4)):
        for matadors, level in itertools.product(range(1, trumps + 1), levels.values()):
            found.add(base * (matadors + level))
    assert BID_VALUES == tuple(sorted(v for v in found if v >= 18))
    assert len(BID_VALUES) == 63 and len(set(BID_VALUES)) == 63


def test_factor_limits() -> None:
    assert {g: max_factor(g) for g in GameType if not g.is_null} == {
        GameType.CLUBS: 18, GameType.SPADES: 18, GameType.HEARTS: 18,
        GameType.DIAMONDS: 18, GameType.GRAND: 11,
    }
    # the lowest factor is "mit/ohne 1, Spiel 2"
    assert [min(game_values(g)) for g in GameType] == [24, 22, 20, 18, 48, 23]
    assert max(game_values(GameType.CLUBS)) == 216
    assert max(game_values(GameType.DIAMONDS)) == 162
    assert max(game_values(GameType.GRAND)) == 264
    assert 228 not in BID_VALUES  # 12 x 19 would break the factor limit
    assert 288 not in BID_VALUES  # Grand x 12 does not exist
    with pytest.raises(SkatError, match="Null has fixed values"):
        max_factor(GameType.NULL)


def test_next_bid_is_the_smallest_value_above() -> None:
    assert next_bid(None) == 18
    for n in range(-5, 300):
        above = [v for v in BID_VALUES if v > n]
        assert next_bid(n) == (above[0] if above else None)


@pytest.mark.parametrize(
    ("value", "fragments"),
    [
        (0, ["0 is below the lowest bid value 18"]),
        (17, ["17 is below the lowest bid value 18"]),
        (19, ["19 is not a bid value", "the nearest are 18 and 20"]),
        (47, ["47 is not a bid value", "the nearest are 46 and 48"]),
        (217, ["217 is not a bid value", "the nearest are 216 and 240"]),
        (265, ["265 is above the highest bid value 264"]),
        (True, ["a bid is a whole number from 18 to 264, not True"]),
        (18.0, ["not 18.0"]),
    ],
)
def test_require_bid_value_names_the_number_and_the_nearest_values(value: Any, fragments: list[str]) -> None:
    with pytest.raises(BidError) as caught:
        require_bid_value(value)
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, SkatError)
    for fragment in fragments:
        assert fragment in str(caught.value)


# --- actions and their notation ------------------------------------------------------------


def test_notation_round_trips_and_reads_like_the_table() -> None:
    every = [Bid(s, v) for s in SEATS for v in BID_VALUES] + [Hold(s) for s in SEATS] + [Pass(s) for s in SEATS]
    for action in every:
        assert parse_action(str(action)) == action
    assert [str(a) for a in (Bid(1, 18), Hold(0), Pass(2))] == ["M 18", "V ja", "H passe"]
    assert [a.german for a in (Bid(1, 18), Hold(0), Pass(2))] == [
        "Mittelhand sagt 18", "Vorhand: ja", "Hinterhand: passe"]
    assert parse_action("Hinterhand 24") == parse_action("2 24") == Bid(REARHAND, 24)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "cannot read bid action ''"),
        ("M", "cannot read bid action 'M'"),
        ("Q 18", "cannot read bid action 'Q 18'"),
        ("M 18 20", "cannot read bid action 'M 18 20'"),
        ("M nein", "after the seat comes a value, 'ja' or 'passe'"),
        ("M ²", "after the seat comes a value, 'ja' or 'passe'"),
        ("M 19", "19 is not a bid value: the nearest are 18 and 20"),
        ("M 12", "12 is below the lowest bid value 18"),
    ],
)
def test_parse_action_refuses_unreadable_text(text: str, fragment: str) -> None:
    with pytest.raises(BidError) as caught:
        parse_action(text)
    assert fragment in str(caught.value)


@pytest.mark.parametrize("make", [lambda: Bid(3, 18), lambda: Hold(-1), lambda: Pass(True), lambda: Bid("M", 18)])  # type: ignore[arg-type]
def test_actions_refuse_seats_outside_the_game(make: Any) -> None:
    with pytest.raises(BidError, match="is not a seat in the game: 0 Vorhand, 1 Mittelhand, 2 Hinterhand"):
        make()


def test_actions_are_frozen_values() -> None:
    bid = Bid(MIDDLEHAND, 18)
    with pytest.raises(AttributeError):
        bid.value = 20  # type: ignore[misc]
    assert bid == Bid(1, 18) and hash(bid) == hash(Bid(1, 18))
    assert SEAT_NAMES_DE == ("Vorhand", "Mittelhand", "Hinterhand")


# --- worked examples and paragraphs as data -------------------------------------------------


@pytest.mark.parametrize("case", AUCTION_CASES, ids=lambda c: c["id"])
def test_auction_cases_from_the_rules(case: dict[str, Any]) -> None:
    auction = Auction()
    prompts: list[str] = []
    for text in case["actions"]:
        action = parse_action(text)
        options = auction.options()
        prompts.append(options.prompt_de)
        assert options.allows(action) and action in options.actions(), (text, options)
        auction = auction.apply(action)
    if "prompts" in case:
        assert prompts == case["prompts"]
    if "illegal" in case:
        # A number that is no bid value is refused already when the action is made.
        with pytest.raises(BidError) as caught:
            illegal = parse_action(case["illegal"])
            if not auction.is_finished:
                assert not auction.options().allows(illegal)
            auction.apply(illegal)
        for fragment in case["error"]:
            assert fragment in str(caught.value), (fragment, str(caught.value))
        return
    assert auction.is_finished and auction.to_speak is None
    result = auction.result
    assert result is not None
    if case["result"] == "eingepasst":
        assert result.passed_in and result == AuctionResult(None, None)
        assert auction.passed == frozenset(SEATS)
    else:
        assert (result.declarer, result.bid) == (case["result"]["declarer"], case["result"]["bid"])
        assert not result.passed_in
        assert auction.passed == frozenset(SEATS) - {result.declarer}
    if "result_de" in case:
        assert result.german == case["result_de"]
    assert replay(auction.actions) == auction


# --- options, prompts and the rest of the state machine -------------------------------------


def test_the_start_asks_mittelhand_to_bid_to_vorhand() -> None:
    auction = Auction()
    assert auction.to_speak == MIDDLEHAND and not auction.is_finished and auction.result is None
    options = auction.options()
    assert options == Options(MIDDLEHAND, Role.BIDDING, FOREHAND, None, 18, 264, may_hold=False, may_pass=True)
    assert options.values == BID_VALUES
    assert options.actions() == (*(Bid(1, v) for v in BID_VALUES), Pass(1))


def test_answering_offers_ja_and_passe_only() -> None:
    options = walk(["M passe", "H 27"]).options()
    assert (options.seat, options.role, options.partner, options.current) == (FOREHAND, Role.ANSWERING, REARHAND, 27)
    assert options.values == () and options.actions() == (Hold(0), Pass(0))
    assert options.prompt_de == "Hinterhand sagt 27 — Vorhand: ja / passe"


def test_vorhand_alone_may_play_for_18_or_pass() -> None:
    auction = walk(["M passe", "H passe"])
    options = auction.options()
    assert (options.seat, options.role, options.partner, options.current) == (FOREHAND, Role.DECIDING, None, None)
    assert options.actions() == (Bid(0, 18), Pass(0))
    assert auction.apply(Bid(0, 18)).result == AuctionResult(FOREHAND, 18)
    assert auction.apply(Pass(0)).result == AuctionResult(None, None)


def test_after_264_the_bidder_can_only_pass() -> None:
    options = walk(["M 18", "V passe", "H 264", "M ja"]).options()
    assert (options.seat, options.min_value, options.values) == (REARHAND, None, ())
    assert options.actions() == (Pass(REARHAND),)
    assert options.prompt_de == "Hinterhand: passe — Mittelhand hat 264"


def test_options_of_a_finished_auction_say_it_is_over() -> None:
    with pytest.raises(BidError, match="the bidding is over: eingepasst"):
        walk(["M passe", "H passe", "V passe"]).options()
    with pytest.raises(BidError, match="the bidding is over: Mittelhand spielt, gereizt bis 18"):
        walk(["M 18", "V passe", "H passe"]).options()


@pytest.mark.parametrize(
    ("before", "illegal", "fragment"),
    [
        ([], "V ja", "Vorhand waits for a value from Mittelhand before passing or playing"),
        ([], "V 18", "Vorhand waits for a value from Mittelhand"),
        (["M 18"], "H 20", "it is not Hinterhand's turn: Vorhand answers 18 to Mittelhand ('ja' or 'passe')"),
        (["M 18"], "M 20", "it is not Mittelhand's turn: Vorhand answers 18"),
        (["M passe", "H passe"], "H 18", "Hinterhand has passed and cannot speak again"),
        (["M 18", "V ja", "M passe"], "V ja", "it is not Vorhand's turn: Hinterhand says a value to Vorhand or passes"),
        (["M 18", "V ja", "M passe", "H 20"], "H 22", "it is not Hinterhand's turn: Vorhand answers 20 to Hinterhand"),
        (["M passe", "H 20"], "H ja", "it is not Hinterhand's turn"),
        (["M passe"], "H ja", "Hinterhand says a value or passes: 'ja' is the answer of Vorhand"),
        (["M 18", "V passe"], "H ja", "'ja' is the answer of Mittelhand"),
        (["M 18", "V passe", "H 20"], "M 22", "Mittelhand is asked 20: answer 'ja' or 'passe'; Hinterhand says the values"),
        (["M passe", "H passe"], "V 264", "Vorhand plays for 18, not 264"),
        (["M passe", "H passe", "V 18"], "V passe", "the bidding is over: Vorhand spielt, gereizt bis 18"),
        (["M 18", "V ja", "M 20"], "V 22", "Vorhand is asked 20"),
    ],
)
def test_each_illegal_action_is_refused_with_its_reason(before: list[str], illegal: str, fragment: str) -> None:
    auction = walk(before)
    action = parse_action(illegal)
    with pytest.raises(BidError) as caught:
        auction.apply(action)
    assert fragment in str(caught.value)
    if not auction.is_finished:
        assert not auction.options().allows(action)


def test_the_longest_auction_stays_within_the_bound() -> None:
    texts = [t for v in BID_VALUES for t in (f"M {v}", "V ja")] + ["M passe", "H passe"]
    auction = walk(texts)
    assert auction.result == AuctionResult(FOREHAND, 264)
    assert len(auction.actions) == 2 * len(BID_VALUES) + 2 <= MAX_STEPS


def test_undo_takes_back_the_last_action() -> None:
    auction = walk(["M 18", "V ja", "M 20"])
    assert auction.undo() == walk(["M 18", "V ja"])
    assert auction.undo().undo().undo() == Auction()
    with pytest.raises(BidError, match="nothing to take back"):
        Auction().undo()


def test_states_are_frozen_and_apply_leaves_the_old_one_alone() -> None:
    start = Auction()
    after = start.apply(Bid(MIDDLEHAND, 18))
    assert start == Auction() and start.actions == () and after.value == 18
    with pytest.raises(AttributeError):
        after.value = 20  # type: ignore[misc]


# --- properties over random legal auctions --------------------------------------------------


def random_auction(data: st.DataObject) -> list[Auction]:
    """Every state of one random auction made of legal actions drawn from ``options()``."""
    states = [Auction()]
    for _ in range(MAX_STEPS + 1):
        if states[-1].is_finished:
            return states
        legal = states[-1].options().actions()
        # Half the time take the smallest step (lowest bid / ja) so long auctions occur too.
        action = legal[0] if data.draw(st.booleans(), label="small step") else data.draw(st.sampled_from(legal))
        states.append(states[-1].apply(action))
    raise AssertionError(f"not finished after {MAX_STEPS} steps: {[str(a) for a in states[-1].actions]}")


def expected_result(actions: tuple[Action, ...]) -> AuctionResult:
    """Oracle, from the spoken actions alone: the highest value said wins (ISkO 3.3.5)."""
    bids = [(i, a) for i, a in enumerate(actions) if isinstance(a, Bid)]
    if not bids:
        return AuctionResult(None, None)
    i, top = max(bids, key=lambda pair: pair[1].value)
    held = i + 1 < len(actions) and isinstance(actions[i + 1], Hold)
    return AuctionResult(actions[i + 1].seat if held else top.seat, top.value)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_random_legal_auctions_finish_with_the_highest_value(data: st.DataObject) -> None:
    states = random_auction(data)
    final = states[-1]
    actions = final.actions
    assert len(actions) <= MAX_STEPS
    values = [a.value for a in actions if isinstance(a, Bid)]
    assert values == sorted(set(values))  # every bid strictly above the one before
    result = final.result
    assert result is not None and result == expected_result(actions)
    if result.passed_in:
        assert actions == (Pass(MIDDLEHAND), Pass(REARHAND), Pass(FOREHAND))
    else:
        assert result.bid == max(values)
        assert final.passed == frozenset(SEATS) - {result.declarer}
    assert replay(actions) == final
    assert [parse_action(str(a)) for a in actions] == list(actions)
    for before, after in zip(states, states[1:]):
        assert after.undo() == before


UNIVERSE: tuple[Action, ...] = (
    *(Bid(s, v) for s in SEATS for v in BID_VALUES),
    *(Hold(s) for s in SEATS),
    *(Pass(s) for s in SEATS),
)


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_apply_accepts_exactly_what_options_allow(data: st.DataObject) -> None:
    for state in random_auction(data)[:-1]:
        options = state.options()
        assert options.seat == state.to_speak and options.actions()
        for action in UNIVERSE:
            try:
                state.apply(action)
            except BidError as error:
                assert not options.allows(action), (str(action), str(error))
                assert str(error)
            else:
                assert options.allows(action), str(action)
        assert set(options.actions()) == {a for a in UNIVERSE if options.allows(a)}
