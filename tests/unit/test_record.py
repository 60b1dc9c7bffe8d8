"""The game record (JSON): both forms, errors naming the field, cards form == counted form."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from device.errors import RecordError
from device.games import GameType
from device.record import result_to_json, score_record
from tests.strategies import deal, play_random


def cards_record(seed: int, game: GameType, *, declarer: int = 0, bid: int = 18, **extra: Any) -> dict[str, Any]:
    rng = random.Random(seed)
    hands, skat = deal(rng)
    tricks = play_random(rng, game, hands)
    return {"v": 1, "game": game.value, "bid": bid, "declarer": declarer, "skat": [c.code for c in skat],
            "tricks": [[c.code for c in t] for t in tricks], **extra}


def counted(record: dict[str, Any], out: dict[str, Any]) -> dict[str, Any]:
    keep = {k: v for k, v in record.items() if k not in ("declarer", "skat", "tricks")}
    return {**keep, "matadors": out["matadors"], "declarer_points": out["declarer_points"],
            "declarer_tricks": out["declarer_tricks"]}


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), game=st.sampled_from(list(GameType)), declarer=st.integers(0, 2),
       bid=st.sampled_from([18, 20, 23, 24, 36, 48]))
def test_the_cards_form_and_the_counted_form_of_a_game_score_the_same(seed: int, game: GameType, declarer: int, bid: int) -> None:
    if game is GameType.NULL:
        bid = min(bid, 23)
    record = cards_record(seed, game, declarer=declarer, bid=bid)
    out = result_to_json(score_record(record))
    again = result_to_json(score_record(counted(record, out)))
    assert out == again
    assert out["value"] > 0
    if game is not GameType.NULL:
        assert out["value"] % out["base_value"] == 0
    else:
        assert out["value"] in (23, 35, 46, 59)
    assert out["score"] in (out["value"], -2 * out["value"])
    assert (out["score"] > 0) == out["won"]


def test_points_from_the_cards_add_up_to_120_with_the_skat() -> None:
    for seed in range(50):
        scored = score_record(cards_record(seed, GameType.GRAND))
        assert scored.played is not None
        assert sum(scored.played.points) + scored.played.skat_points == 120


def test_a_counted_record_gives_every_documented_output_field() -> None:
    out = result_to_json(score_record({"game": "clubs", "hand": True, "bid": 18, "matadors": 2,
                                       "declarer_points": 75, "declarer_tricks": 6}))
    for field in ("won", "value", "score", "overbid", "matadors", "multiplier", "schneider", "schwarz",
                  "declarer_points", "declarer_tricks"):
        assert field in out
    assert (out["won"], out["value"], out["score"], out["text"]) == (
        True, 48, 48, "Kreuz Hand mit 2, Spiel 3, Hand 4 = 48, gewonnen +48")


def test_kontra_re_and_bock_multiply_the_score_where_the_profile_plays_them() -> None:
    from device.profile import find_profile

    kneipe = find_profile("kneipe")
    base = {"game": "spades", "bid": 18, "matadors": 1, "declarer_points": 50, "declarer_tricks": 4}
    assert result_to_json(score_record(base))["score"] == -44
    assert result_to_json(score_record({**base, "kontra": True}, profile=kneipe))["score"] == -88
    assert result_to_json(score_record({**base, "kontra": True, "re": True}, profile=kneipe))["score"] == -176
    for refused in ({**base, "kontra": True}, {**base, "bock": 2}):
        with pytest.raises(RecordError, match="not played under the rule profile 'isko'"):
            score_record(refused)
    out = result_to_json(score_record({**base, "kontra": True, "bock": 2}, profile=kneipe))
    assert (out["score"], out["multiplier"]) == (-176, 4)


def test_false_following_in_the_cards_ends_the_game_against_that_party() -> None:
    # Vorhand (declarer in Grand) leads HA; Mittelhand discards S7 although he plays H7 later.
    record = {"game": "grand", "bid": 18, "declarer": 0, "skat": ["D7", "D8"], "tricks": [
        ["HA", "S7", "H8"], ["CJ", "SJ", "HJ"], ["DJ", "H7", "H9"], ["CA", "C7", "C8"], ["CT", "C9", "CK"],
        ["SA", "S8", "S9"], ["ST", "SK", "SQ"], ["HT", "HK", "HQ"], ["DA", "D9", "DT"], ["CQ", "DK", "DQ"]]}
    scored = score_record(record)
    out = result_to_json(scored)
    assert out["false_following"] == {"trick": 1, "seat": 1, "card": "S7", "by": "defenders"}
    assert out["ended_by"] == "defenders_violation"
    assert out["won"] is True


@pytest.mark.parametrize(("record", "field", "words"), [
    ({"game": "null", "bid": 23, "matadors": 0}, "declarer_tricks", "missing"),  # suit games may leave the tricks out
    ({"game": "kreuz", "bid": 18, "matadors": 1, "declarer_points": 70, "declarer_tricks": 6}, "game", "unknown game"),
    ({"game": "clubs", "bid": 17, "matadors": 1, "declarer_points": 70, "declarer_tricks": 6}, "bid", "not a bid value"),
    ({"game": "clubs", "bid": "18", "matadors": 1, "declarer_points": 70, "declarer_tricks": 6}, "bid", "whole number"),
    ({"game": "clubs", "bid": 18, "matadors": 0, "declarer_points": 70, "declarer_tricks": 6}, "matadors", "not possible"),
    ({"game": "grand", "bid": 18, "matadors": 5, "declarer_points": 70, "declarer_tricks": 6}, "matadors", "1 to 4"),
    ({"game": "clubs", "bid": 18, "matadors": 1, "declarer_points": 50, "declarer_tricks": 0}, "declarer_points", "cannot be"),
    ({"game": "clubs", "bid": 18, "matadors": 1, "declarer_points": 119, "declarer_tricks": 10}, "declarer_points", "leaves"),
    ({"game": "clubs", "bid": 18, "announced": "schneider", "matadors": 1, "declarer_points": 95, "declarer_tricks": 8},
     "announced", "hand game"),
    ({"game": "clubs", "bid": 18, "ouvert": True, "matadors": 1, "declarer_points": 120, "declarer_tricks": 10}, "ouvert", "hand game"),
    ({"game": "null", "bid": 24, "declarer_tricks": 0}, "matadors", "lost as a suit or Grand game"),
    ({"game": "null", "bid": 24, "matadors": 1, "declarer_tricks": 2}, "declarer_tricks", "nothing was played"),
    ({"game": "null", "bid": 24, "matadors": 1, "lost_as": "null"}, "lost_as", "one of diamonds"),
    ({"game": "null", "bid": 24, "matadors": 5, "lost_as": "grand"}, "matadors", "Grand"),
    ({"game": "null", "bid": 23, "declarer_tricks": 0, "lost_as": "clubs"}, "lost_as", "only an overbid Null"),
    ({"game": "clubs", "bid": 18, "matadors": 1, "declarer_points": 70, "declarer_tricks": 6, "lost_as": "grand"},
     "lost_as", "only an overbid Null"),
    ({"game": "null", "announced": "schneider", "hand": True, "bid": 18, "declarer_tricks": 0}, "announced", "no Schneider"),
    ({"game": "clubs", "bid": 18, "matadors": 1, "declarer_points": 70, "declarer_tricks": 6, "color": "red"}, "color", "unknown field"),
    ({"game": "clubs", "bid": 18, "declarer": 3, "skat": ["CJ", "SJ"], "tricks": []}, "declarer", "0 (Vorhand)"),
    ({"game": "clubs", "bid": 18, "declarer": 0, "skat": ["CJ", "XX"], "tricks": []}, "skat", "unknown card code 'XX'"),
    ({"game": "clubs", "bid": 18, "declarer": 0, "skat": ["CJ", "SJ"], "tricks": [["CJ", "HA", "H7"]]}, "tricks", "twice"),
    ({"game": "clubs", "bid": 18, "declarer": 0, "skat": ["CJ", "SJ"], "tricks": [["HA", "H7"]]}, "tricks", "exactly 3"),
    ({"game": "clubs", "bid": 18, "declarer": 0, "skat": ["CJ", "SJ"], "tricks": [["HA", "H7", "H8"]]}, "tricks", "needs 'ending'"),
    ({"game": "clubs", "bid": 18, "declarer": 0, "skat": ["CJ", "SJ"], "tricks": [["HA", "H7", "H8"]],
      "ending": {"by": "declarer_gave_up"}}, "matadors", "missing"),
    ({"game": "clubs", "bid": 18, "matadors": 1, "declarer_points": 10, "declarer_tricks": 1,
      "ending": {"by": "defenders_gave_up"}}, "ending", "defender_points"),
    ({"game": "clubs", "bid": 18, "matadors": 1, "declarer_points": 10, "declarer_tricks": 1,
      "ending": {"by": "nobody"}}, "ending.by", "one of"),
    ({"game": "clubs", "bid": 18, "matadors": 1, "declarer_points": 70, "declarer_tricks": 6, "re": True}, "re", "Re answers a Kontra"),
    ({"game": "clubs", "bid": 18, "matadors": 1, "declarer_points": 70, "declarer_tricks": 6, "v": 2}, "v", "not supported"),
    ([1, 2], "record", "JSON object"),
])
def test_a_bad_record_names_the_field_and_the_reason(record: Any, field: str, words: str) -> None:
    with pytest.raises(RecordError) as info:
        score_record(record)
    assert info.value.field == field
    assert words in info.value.reason


def test_a_shortened_game_in_the_cards_form_takes_its_counts_from_the_tricks_played() -> None:
    record = {"game": "hearts", "bid": 20, "declarer": 0, "skat": ["D7", "D8"], "matadors": 1,
              "tricks": [["CJ", "H7", "H8"], ["HA", "H9", "HQ"]],
              "ending": {"by": "defenders_gave_up"}}
    out = result_to_json(score_record(record))
    assert (out["won"], out["declarer_points"], out["declarer_tricks"], out["value"]) == (True, 16, 2, 20)
