"""The fast path: the bidding's outcome entered at once, and a counted
result that asks only what decides the value (the Augen and mit/ohne; tricks only for Schwarz)."""

from __future__ import annotations

import subprocess
import sys
import json

from device.record import score_record
from device.table.commands import Bid, Confirm, EnterBidding, EnterResult, Undo
from device.table.events import BiddingEntered, Event, ResultEntered
from device.table.state import replay
from tests.table_helpers import Table, english, german


def table() -> Table:
    return Table("Anna", "Bernd", "Carla", "Dieter")  # Anna deals and sits out


def test_the_bidding_outcome_entered_at_once_makes_the_declarer() -> None:
    t = table()
    t.ok(EnterBidding(1, 20))  # Mittelhand (Carla) plays, gereizt bis 20
    events = [e.body for e in t.service.events]
    assert events[-1] == BiddingEntered(1, 20)
    d = t.snap.declaration
    assert d is not None and t.snap.phase == "declaring"
    deal = t.service.state.deal
    assert deal is not None and (deal.declarer, deal.bid) == (1, 20)
    assert t.service.state.seating[deal.declarer_seat] == "Carla"
    assert replay(t.service.events) == t.service.state
    assert [Event.from_json(e.to_json()) for e in t.service.events] == list(t.service.events)


def test_a_wrong_bidding_outcome_is_refused_in_german_and_undo_takes_it_back() -> None:
    t = table()
    assert "kein Reizwert" in german(t.refused(EnterBidding(1, 19), "bad_bid"))
    t.refused(EnterBidding(3, 18), "bad_position")
    t.ok(EnterBidding(2, 48))
    t.refused(EnterBidding(1, 20), "not_now")
    t.ok(Undo())
    assert t.snap.bidding is not None and t.snap.bidding.history == ()
    t.ok(Bid(1, 18))  # the step-by-step bidding is still there
    t.ok(EnterBidding(0, 18))  # and its outcome may still be entered over the steps so far
    deal = t.service.state.deal
    assert deal is not None and (deal.declarer, deal.bid) == (0, 18)


def test_kreuz_mit_2_75_augen_without_counting_the_tricks() -> None:
    t = table()
    t.ok(EnterBidding(1, 20))
    t.take_skat()
    t.declare("clubs")
    t.ok(EnterResult(None, 75, 2))
    assert t.service.events[-1].body == ResultEntered(75, None, 2)
    result = t.snap.result
    assert result is not None and result.value == 36 and result.won
    assert result.declarer_points == 75 and result.declarer_tricks is None  # shown as entered
    t.ok(Confirm(t.seat("Carla")), Confirm(t.seat("Bernd")))
    row = t.snap.list.rows[-1]  # type: ignore[union-attr]
    assert row.score == 36 and row.declarer_tricks is None
    record = t.service.state.rows[-1].record
    assert record is not None and "declarer_tricks" not in record and record["declarer_points"] == 75
    assert replay(t.service.events) == t.service.state


def test_schneider_follows_from_the_augen_and_schwarz_needs_the_tricks() -> None:
    record = {"game": "clubs", "bid": 18, "matadors": 2}
    assert score_record({**record, "declarer_points": 95}).result.value == 48  # Schneider: Spiel 3 + 1
    assert score_record({**record, "declarer_points": 120}).result.value == 48  # not all tricks
    assert score_record({**record, "declarer_points": 120, "declarer_tricks": 10}).result.value == 60  # Schwarz
    assert score_record({**record, "declarer_points": 0, "declarer_tricks": 0}).result.score == -2 * 60
    assert score_record({**record, "declarer_points": 0}).result.score == -2 * 48


def test_a_null_is_entered_as_won_or_lost() -> None:
    t = table()
    t.ok(EnterBidding(0, 23))
    t.take_skat()
    t.declare("null")
    t.ok(EnterResult(None))  # "verloren": the tricks not counted
    result = t.snap.result
    assert result is not None and not result.won and result.score == -46 and result.declarer_tricks is None
    t.ok(Confirm(t.seat("Bernd")), Confirm(t.seat("Carla")))
    record = t.service.state.rows[-1].record
    assert record is not None and record["declarer_tricks"] is None
    assert replay(t.service.events) == t.service.state
    assert score_record({"game": "null", "bid": 23, "declarer_tricks": 0}).result.won


def test_skattisch_score_takes_a_counted_record_without_tricks() -> None:
    record = {"v": 1, "game": "clubs", "bid": 20, "matadors": 2, "declarer_points": 75}
    done = subprocess.run([sys.executable, "-m", "ui.cli", "score", "--text"], input=json.dumps(record),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Kreuz mit 2, Spiel 3 = 36, gewonnen +36" in done.stdout


def test_a_refused_direct_result_says_why_in_plain_german_and_english() -> None:
    """Item 10: no developer English ("declarer_points: …") on the screen."""
    t = table()
    t.ok(EnterBidding(1, 20))
    t.take_skat()
    t.declare("clubs")
    refusal = t.refused(EnterResult(0, 75, 2), "bad_result")
    assert german(refusal) == ("Dieses Ergebnis ist nicht möglich: 75 Augen passen nicht in 0 Stiche und den Skat "
                                 "(höchstens 22)")
    assert english(refusal) == "this result is not possible: 75 points cannot be in 0 tricks and the skat"
    for command in (EnterResult(4, 0, 2), EnterResult(None, 95, -7), EnterResult(10, 120, -1)):
        words = german(t.refused(command, "bad_result"))
        assert "declarer_" not in words and "points" not in words and "tricks" not in words, words
    assert "Kreuz-Buben" in german(t.refused(EnterResult(10, 120, -1), "bad_result"))
