"""Ramsch (device.ramsch): scoring per seat, from counts and from the cards.

The worked examples of rule text 001 live in tests/data/variants/ramsch.json, each naming its
source; then targeted tests and hypothesis properties over random Ramsch games played in
Grand order (tests.strategies plays them with its own reference rules).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from device.cards import Card, parse_cards
from device.errors import PlayError
from device.games import GameType
from device.profile import (
    ISKO, KNEIPE, BockRules, RamschRules, RamschTie, RamschValue, RuleProfile, SkatTo, find_profile,
)
from device.ramsch import (
    RamschCounts, RamschError, check_push, ramsch_counts, ramsch_rules, score_ramsch, score_ramsch_cards,
)
from device.tricks import play_game
from tests.strategies import deal, play_random

DATA = Path(__file__).resolve().parents[1] / "data" / "variants"
CASES: list[dict[str, Any]] = json.loads((DATA / "ramsch.json").read_text(encoding="utf-8"))["cases"]


def profile_of(spec: str | dict[str, Any]) -> RuleProfile:
    return find_profile(spec) if isinstance(spec, str) else RuleProfile.from_json(spec)


def counts_of(raw: dict[str, Any]) -> RamschCounts:
    return RamschCounts(points=tuple(raw["points"]), tricks=tuple(raw["tricks"]),
                        skat_points=raw["skat_points"], last_trick=raw["last_trick"],
                        trick_winners=tuple(raw.get("trick_winners", ())))


@pytest.mark.parametrize("case", CASES, ids=lambda c: str(c["source"])[:70])
def test_ramsch_cases(case: dict[str, Any]) -> None:
    profile = profile_of(case["profile"])
    kwargs = {"pushes": case.get("pushes", 0), "multiplier": case.get("multiplier", 1)}
    if "error" in case:
        with pytest.raises(RamschError, match=case["error"]):
            score_ramsch(counts_of(case["counts"]), profile, **kwargs)
        return
    r = score_ramsch(counts_of(case["counts"]), profile, **kwargs)
    assert list(r.points) == case["points"]
    assert list(r.losers) == case["losers"]
    assert list(r.scores) == case["scores"]
    assert r.describe_de() == case["text"]


# --------------------------------------------------------------------------- from the cards

# A Ramsch in Grand order, dealt
#   Vorhand    HA HT HK H9 CA CT SA ST DA DT
#   Mittelhand H7 H8 HQ C7 C8 C9 S7 S8 S9 D7
#   Hinterhand CJ SJ HJ DJ CK CQ SK SQ DK DQ      skat D8 D9
# Trick 1: Hinterhand has no Herz (the Herz Bube is a trump, as in Grand) and trumps Vorhand's
# Herz Ass with it; he draws the other jacks, then Vorhand takes every trick left.
_TRICKS = [
    "HA H7 HJ",   # V leads, H takes with the Herz Bube: 13
    "CJ H9 C7",   # H leads trumps, nobody else has one: 2
    "SJ HK C8",   # H: 6
    "DJ HT C9",   # H: 12            -> Hinterhand 33 in 4 tricks
    "CK CA S7",   # H leads Kreuz, V's Ass takes it: 15
    "SA S8 SK",   # V: 15
    "ST S9 SQ",   # V: 13
    "DA D7 DK",   # V: 15
    "DT HQ DQ",   # V: 16
    "CT H8 CQ",   # V: 13            -> Vorhand 87 in 6 tricks, Mittelhand none
]
_SKAT = "D8 D9"


def test_ramsch_from_cards_in_grand_order() -> None:
    tricks = [parse_cards(t) for t in _TRICKS]
    assert play_game(GameType.GRAND, 0, parse_cards(_SKAT), tricks).violation is None  # a legal game
    counts = ramsch_counts(parse_cards(_SKAT), tricks)
    assert counts == RamschCounts(points=(87, 0, 33), tricks=(6, 0, 4), skat_points=0, last_trick=0,
                                  trick_winners=(2, 2, 2, 2, 0, 0, 0, 0, 0, 0))
    r = score_ramsch_cards(parse_cards(_SKAT), tricks, KNEIPE)
    assert (r.skat_to, r.losers, r.jungfrauen, r.scores) == (0, (0,), (1,), (-174, 0, 0))
    assert r.describe_de() == "Ramsch: Vorhand verliert mit 87 Augen, −174 (Jungfrau: Mittelhand)"


def test_ramsch_needs_all_ten_tricks() -> None:
    tricks = [parse_cards(t) for t in _TRICKS[:9]]
    with pytest.raises(RamschError, match="all 10 tricks"):
        ramsch_counts(parse_cards(_SKAT), tricks)


def test_bad_cards_are_a_play_error() -> None:
    tricks = [parse_cards(t) for t in _TRICKS]
    with pytest.raises(PlayError, match="appears twice"):
        ramsch_counts(parse_cards("HA D9"), tricks)


# --------------------------------------------------------------------------- counts refused


@pytest.mark.parametrize("points, tricks, skat, last, field", [
    ((60, 40, 10), (5, 5, 1), 10, 0, "tricks"),
    ((60, 40, 10), (5, 4, 1), 0, 0, "points"),
    ((60, 50, 10), (5, 5, 0), 0, 0, "points"),   # 10 points without a trick
    ((60, 40, 10), (5, 4, 1), 10, 3, "last_trick"),
    ((60, 50, 0), (5, 5, 0), 10, 2, "last_trick"),
    ((60, 40, -10), (5, 4, 1), 30, 0, "points"),
    ((50, 40, 7), (5, 4, 1), 23, 0, "skat_points"),
    ((60, 40, 10), (5, 4, True), 10, 0, "tricks"),
])
def test_impossible_counts_are_refused(points: Any, tricks: Any, skat: int, last: int, field: str) -> None:
    with pytest.raises(RamschError) as info:
        RamschCounts(points, tricks, skat, last)
    assert info.value.field == field
    assert isinstance(info.value, PlayError)


def test_options_refused() -> None:
    counts = RamschCounts((50, 40, 20), (4, 3, 3), 10, 0)
    with pytest.raises(RamschError, match="0 to 3 players"):
        score_ramsch(counts, KNEIPE, pushes=4)
    with pytest.raises(RamschError, match="not a multiplier"):
        score_ramsch(counts, KNEIPE, multiplier=0)
    with pytest.raises(RamschError, match="plays no Ramsch"):
        score_ramsch(counts, find_profile("pre1999"))


# --------------------------------------------------------------------------- rules in force


def test_ramsch_round_after_bock_is_schieberamsch_with_grand_hand() -> None:
    profile = ISKO.with_(bock=True, bock_rules=BockRules(ramsch_round_every=1))
    with pytest.raises(RamschError, match="plays no Ramsch"):
        ramsch_rules(profile)  # no Ramsch instead of eingepasst
    rules = ramsch_rules(profile, ramsch_round=True)
    assert rules.schieben and rules.grand_hand
    r = score_ramsch(RamschCounts((50, 40, 20), (4, 3, 3), 10, 0), profile, pushes=1, ramsch_round=True)
    assert r.scores == (-120, 0, 0)
    with pytest.raises(RamschError, match="plays no Ramsch"):
        ramsch_rules(ISKO, ramsch_round=True)


def test_check_push() -> None:
    check_push(parse_cards("CJ HA"), KNEIPE)  # jacks may be passed on by default
    with pytest.raises(RamschError, match="no Schieben"):
        check_push(parse_cards("SA HA"), ISKO.with_(ramsch=True))
    with pytest.raises(RamschError, match="two different cards"):
        check_push([Card.parse("SA"), Card.parse("SA")], KNEIPE)
    with pytest.raises(RamschError, match="two different cards"):
        check_push(parse_cards("SA"), KNEIPE)


def test_list_scores_and_names() -> None:
    r = score_ramsch(RamschCounts((58, 52, 0), (6, 4, 0), 10, 1), KNEIPE)
    assert r.list_scores == {1: -124}
    assert r.describe_de(("Anna", "Bernd", "Dieter")) == "Ramsch: Bernd verliert mit 62 Augen, −124 (Jungfrau: Dieter)"
    tie = score_ramsch(RamschCounts((40, 40, 30), (4, 3, 3), 10, 2), KNEIPE)
    assert tie.list_scores == {}
    bock = score_ramsch(RamschCounts((50, 40, 20), (4, 3, 3), 10, 0), KNEIPE, pushes=1, multiplier=4)
    assert bock.scores[0] == -480 and bock.describe_de().endswith("(1× geschoben; Bock ×4)")


# --------------------------------------------------------------------------- properties


rules_strategy = st.builds(
    RamschRules,
    skat_to=st.sampled_from(SkatTo), value=st.sampled_from([RamschValue.POINTS, RamschValue.FIXED]), jungfrau=st.booleans(),
    durchmarsch=st.booleans(), tie=st.sampled_from(RamschTie), schieben=st.just(True),
)


@given(st.integers(0, 2**32), rules_strategy, st.integers(0, 3), st.sampled_from([1, 2, 4]))
def test_random_ramsch_games(seed: int, rules: RamschRules, pushes: int, bock: int) -> None:
    rng = random.Random(seed)
    hands, skat = deal(rng)
    tricks = play_random(rng, GameType.GRAND, hands)
    counts = ramsch_counts(skat, tricks)
    # Every card point is somewhere: in a seat's tricks or in the skat.
    assert sum(counts.points) + counts.skat_points == 120
    assert sum(counts.tricks) == 10
    r = score_ramsch(counts, ISKO.with_(ramsch=True, ramsch_rules=rules), pushes=pushes, multiplier=bock)
    assert sum(r.points) + (counts.skat_points if r.skat_to is None else 0) == 120
    assert r.multiplier == 2 ** pushes * bock
    top = max(r.points)
    if r.durchmarsch is not None:
        assert counts.tricks[r.durchmarsch] == 10 and r.losers == ()
        assert r.scores[r.durchmarsch] > 0 and sorted(r.scores)[:2] == [0, 0]
        return
    # The loser(s) are exactly those with the most points, unless all three tie.
    most = tuple(s for s in range(3) if r.points[s] == top)
    assert r.losers == (most if len(most) < 3 else ())
    for seat in range(3):
        assert (r.scores[seat] < 0) == (seat in r.losers)
        assert r.scores[seat] % r.multiplier == 0
    if len(r.losers) == 1 and rules.value is RamschValue.POINTS:
        doubling = 2 ** len(r.jungfrauen) if rules.jungfrau else 1
        assert r.scores[r.losers[0]] == -top * doubling * r.multiplier
    assert set(r.jungfrauen) == ({s for s in range(3) if counts.tricks[s] == 0} if rules.jungfrau else set())


@given(st.integers(0, 2**32))
def test_ramsch_points_follow_grand_order(seed: int) -> None:
    """The seat that takes each trick is the Grand winner: jacks are the only trumps."""
    rng = random.Random(seed)
    hands, skat = deal(rng)
    tricks = play_random(rng, GameType.GRAND, hands)
    counts = ramsch_counts(skat, tricks)
    leader, taken = 0, [0, 0, 0]
    for trick in tricks:
        jacks = [i for i, c in enumerate(trick) if c.rank.value == "J"]
        if jacks:
            best = min(jacks, key=lambda i: "CSHD".index(trick[i].suit.value))
        else:
            led = trick[0].suit
            best = max((i for i, c in enumerate(trick) if c.suit is led), key=lambda i: "789QKTA".index(trick[i].rank.value))
        leader = (leader + best) % 3
        taken[leader] += 1
    assert counts.tricks == tuple(taken) and counts.last_trick == leader


# --------------------------------------------------------------------------- Texas-Skat


@given(st.integers(0, 2**32))
def test_random_texas_ramsch_games(seed: int) -> None:
    """001 "Texas-Skat": exactly one seat scores; +10/+20 to the fewest Augen (the seat without a
    trick gets 20), or -30 to the seat that took every trick."""
    rng = random.Random(seed)
    hands, skat = deal(rng)
    counts = ramsch_counts(skat, play_random(rng, GameType.GRAND, hands))
    r = score_ramsch(counts, find_profile("texas"))
    assert r.skat_to == counts.last_trick
    assert sum(1 for score in r.scores if score) == 1
    if 10 in counts.tricks:
        assert r.losers == (counts.tricks.index(10),) and min(r.scores) == -30
        return
    assert r.winner is not None and r.points[r.winner] == min(r.points)
    assert r.scores[r.winner] == (20 if counts.tricks[r.winner] == 0 else 10)


@pytest.mark.parametrize("order", [(0,) * 9, (0, 1, 2, 1, 0, 1, 2, 0, 1, 1), (0, 1, 2, 1, 0, 1, 2, 2, 1, 0, 0), (0, 1, 2, 1, 0, 1, 3, 0, 1, 2)])
def test_trick_winners_must_fit_the_counts(order: tuple[int, ...]) -> None:
    with pytest.raises(RamschError, match="trick_winners"):
        RamschCounts((30, 60, 30), (3, 4, 3), 0, 2, trick_winners=order)
