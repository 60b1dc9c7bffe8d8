"""Every event type serialises to a JSON dict and back unchanged; bad dicts are named."""

from __future__ import annotations

import json

import pytest

from device.cards import Card
from device.table.events import (
    EVENT_TYPES, BidMade, BiddingEntered, BockAdded, CardPlayed, CardWithdrawn, CorrectionApplied,
    CorrectionConsented, CorrectionProposed, CorrectionWithdrawn, Declared, Event, EventBody,
    EventFormatError, FalseFollowingAccepted, FalseFollowingQueried, GameEnded, GameRecorded,
    KontraSaid, ListClosed, ListConfirmed, ListOpened, MatadorsEntered, PassedIn,
    PassedInWithdrawn, PlayerJoined, PlayerLeft, RamschEntered, RamschRecorded, ReSaid, SchenkenSaid, SpitzeAnnounced, SpitzeMadeEntered,
    ResultConfirmed, ResultEntered, SeriesEnded, SkatCardAdded, CardTurned, SkatTaken, StepUndone,
)

CJ, HA, S7 = Card.parse("CJ"), Card.parse("HA"), Card.parse("S7")
RECORD = {"v": 1, "game": "clubs", "hand": True, "ouvert": False, "announced": None, "bid": 18,
          "matadors": 2, "declarer_points": 75, "declarer_tricks": 6, "seat": 1, "player": "Bernd"}

EXAMPLES: list[EventBody] = [
    ListOpened(("Anna", "Bernd", "Carla"), True, 36, "seeger_fabian", None, "isko", "1/4"),
    ListOpened(("A", "B", "C", "D"), False, None, "bierlachs", 401, "pre1999", "0"),
    PlayerJoined("Dora", 3, None), PlayerJoined("Emil", 1, "Bernd"), PlayerLeft(2, "Carla"),
    GameRecorded(4, RECORD, 1, 0, (1, 2, 0)), PassedIn(5, 1, (2, 0, 1)), PassedInWithdrawn(5),
    RamschRecorded(6, (-37, 0, 0), 2, (0, 1, 2)), BockAdded(3),
    CorrectionProposed(4, RECORD, 1, 2), CorrectionProposed(4, None, None, 0),
    CorrectionConsented(1), CorrectionWithdrawn(), CorrectionApplied(4), SeriesEnded("complete"),
    ListConfirmed(2), ListClosed(),
    BidMade(1, "bid", 18), BidMade(0, "hold", None), BidMade(2, "pass", None), BiddingEntered(1, 20), SkatTaken(),
    SkatCardAdded(S7, "reader"), Declared("null", True, True, None), Declared("hearts", True, False, "schwarz"),
    CardTurned(S7, True, "reader"), Declared("hearts", False, False, None, "second"),
    KontraSaid(0), ReSaid(1), SchenkenSaid(2, "offer"), SchenkenSaid(1, "automatic"), SpitzeAnnounced(2), SpitzeMadeEntered(True), CardPlayed(2, HA, "screen"),
    FalseFollowingQueried(1, HA, "reader", 2, Card.parse("HK"), S7), FalseFollowingAccepted(), CardWithdrawn(),
    GameEnded("declarer_gave_up", None), GameEnded("defenders_violation", -3),
    ResultEntered(None, 1, None), ResultEntered(61, 5, 2), ResultEntered(75, None, 2), MatadorsEntered(-11), RamschEntered((60, 40, 10), (5, 4, 1), 10, 0, 1),
    ResultConfirmed(2), StepUndone("f" * 32),
]


def test_every_event_type_has_an_example() -> None:
    assert {type(b).TYPE for b in EXAMPLES} == set(EVENT_TYPES)


@pytest.mark.parametrize("body", EXAMPLES, ids=lambda b: type(b).TYPE)
def test_every_event_type_round_trips_through_json_text(body: EventBody) -> None:
    event = Event(id="0123abcd" * 4, seq=42, device="tisch-3", list_id="list-1", body=body,
                  at="2026-11-22T19:00:01+00:00")
    data = event.to_json()
    assert data["v"] == 1 and data["type"] == body.TYPE and data["seq"] == 42
    text = json.dumps(data)  # plain JSON: no tuples, cards or enums left
    assert Event.from_json(json.loads(text)) == event


def test_cards_are_codes_and_tuples_are_lists_in_json() -> None:
    data = Event("i", 1, "d", "l", FalseFollowingQueried(1, HA, "reader", 2, CJ, S7)).to_json()
    assert data["data"] == {"position": 1, "card": "HA", "source": "reader", "trick_index": 2, "led": "CJ",
                            "discarded": "S7"}
    opened = Event("i", 1, "d", "l", EXAMPLES[0]).to_json()["data"]
    assert opened["players"] == ["Anna", "Bernd", "Carla"]


GOOD = Event("i", 1, "d", "l", CardPlayed(2, HA, "screen")).to_json()


@pytest.mark.parametrize("change, field", [
    ({"v": 2}, "v"),
    ({"type": "card_eaten"}, "type"),
    ({"data": None}, "data"),
    ({"seq": "1"}, "seq"),
    ({"seq": True}, "seq"),
    ({"data": {"position": 2, "card": "XX", "source": "screen"}}, "data.card"),
    ({"data": {"position": 2, "card": "HA"}}, "data.source"),
    ({"data": {"position": 2, "card": "HA", "source": "screen", "extra": 1}}, "data.extra"),
    ({"data": {"position": "2", "card": "HA", "source": "screen"}}, "data.position"),
])
def test_a_bad_event_dict_is_refused_naming_the_field(change: dict[str, object], field: str) -> None:
    with pytest.raises(EventFormatError) as error:
        Event.from_json({**GOOD, **change})
    assert error.value.field == field
    assert isinstance(error.value, ValueError)


def test_tuple_fields_check_their_length() -> None:
    data = Event("i", 1, "d", "l", PassedIn(1, 0, (1, 2, 0))).to_json()
    data["data"]["active"] = [1, 2]
    with pytest.raises(EventFormatError, match="data.active"):
        Event.from_json(data)
