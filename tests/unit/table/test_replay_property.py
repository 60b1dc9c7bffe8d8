"""Property: the state is a pure fold of the events, after every step of any command sequence.

Hypothesis drives a table with commands drawn from what the snapshot offers (and some it does
not: out of turn, cards seen twice, wrong confirmers), so refusals, undo, false-following
questions, early ends, corrections and closing all occur.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.cards import DECK
from device.hardware import Button, ButtonPressed, CardScanned
from device.table.commands import (
    AcceptFalseFollowing, Bid, Confirm, ConfirmList, ConsentCorrection, Declare, EndGame, EndHow, EnterBidding,
    EndSeries, EnterMatadors, EnterResult, Hold, JoinPlayer, Pass, ProposeCorrection, PushSkat,
    RejectCard, TakeSkat, Undo,
)
from device.table.events import Event
from device.table.state import replay
from tests.table_helpers import Table


def candidates(table: Table, data: st.DataObject) -> list[object]:
    snap = table.snap
    size = snap.table_size
    anywhere: list[object] = [Undo(), ButtonPressed(Button.CONFIRM), ButtonPressed(Button.BACK),
                              Confirm(data.draw(st.integers(0, size - 1))), EndSeries()]
    if snap.bidding is not None:
        b = snap.bidding
        said: list[object] = [Pass(b.speaker), Pass((b.speaker + 1) % 3), Hold(b.speaker)]
        if b.values:
            said.append(Bid(b.speaker, data.draw(st.sampled_from(b.values[:6]))))
        said.append(EnterBidding(data.draw(st.integers(0, 2)), data.draw(st.sampled_from([18, 20, 19, 48]))))
        return said * 6 + anywhere + [JoinPlayer("Neu")]
    if snap.declaration is not None:
        options = [Declare.parse(o.key) for o in snap.declaration.options]
        allowed = [Declare.parse(o.key) for o in snap.declaration.options if o.allowed]
        return [TakeSkat()] * 4 + [data.draw(st.sampled_from(allowed)) for _ in range(4)] + [
            data.draw(st.sampled_from(options)), CardScanned(data.draw(st.sampled_from(DECK)))] + anywhere
    if snap.play is not None:
        cards = [CardScanned(data.draw(st.sampled_from(DECK))) for _ in range(6)]
        tricks, points = data.draw(st.sampled_from([(6, 75), (3, 40), (10, 120), (0, 0), (5, 61)]))
        extra: list[object] = [EndGame(data.draw(st.sampled_from(list(EndHow))), data.draw(st.sampled_from([None, 1]))),
                               EnterResult(tricks, points, data.draw(st.sampled_from([None, 1, -2, 4]))),
                               EnterResult(data.draw(st.integers(0, 1))),
                               EnterResult(None, data.draw(st.sampled_from([75, 0, 120, 1])), 2)] * 2
        if snap.play.question is not None:
            extra += [AcceptFalseFollowing(), RejectCard()] * 3
        if snap.play.may_push_skat:
            extra.append(PushSkat(data.draw(st.sampled_from(DECK))))
        return cards * 3 + extra + anywhere
    if snap.result is not None:
        seats = [Confirm(s) for s in range(size)]
        return seats * 4 + [EnterMatadors(data.draw(st.sampled_from([1, -1, 3, 12])))] * 3 + [
                            CardScanned(data.draw(st.sampled_from(DECK)))] + anywhere
    rows = len(snap.list.rows) if snap.list is not None else 0
    return ([ConfirmList(data.draw(st.integers(0, size - 1)))] * 3
            + [ProposeCorrection(max(rows, 1), None, None, 0), ConsentCorrection(data.draw(st.integers(0, size - 1)))]
            + anywhere)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), players=st.sampled_from([("A", "B", "C"), ("A", "B", "C", "D"), ("A", "B", "C", "D", "E")]),
       length=st.sampled_from([None, 2, 3]))
def test_replay_of_the_events_equals_the_live_state_after_every_step(
        data: st.DataObject, players: tuple[str, ...], length: int | None) -> None:
    table = Table(*players, series_length=length)
    for _ in range(data.draw(st.integers(10, 70))):
        command = data.draw(st.sampled_from(candidates(table, data)))
        table.do(command)
        assert replay(table.service.events) == table.service.state
        if table.snap.phase == "closed":
            break
    round_tripped = [Event.from_json(json.loads(json.dumps(e.to_json()))) for e in table.service.events]
    assert replay(round_tripped) == table.service.state
    seqs = [e.seq for e in table.service.events]
    assert seqs == list(range(1, len(seqs) + 1))
