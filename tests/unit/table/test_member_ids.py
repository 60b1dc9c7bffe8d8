"""Member ids beside the names: the list's events and the list document carry them;
lists without them read and write exactly as before."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from device.listdoc import ListDocumentError, parse_list_document, to_list_document
from device.table import JoinPlayer, NextSeriesOffered, OpenList, OpenNextSeries
from device.table.events import Event, ListOpened, PlayerJoined
from device.table.state import replay
from tests.table_helpers import Table

EXAMPLE = json.loads((Path(__file__).resolve().parents[3] / "examples" / "list-4.json").read_text(encoding="utf-8"))
OLD_OPENED = {"v": 1, "type": "list_opened", "id": "a1", "seq": 1, "device": "pi", "list_id": "L", "at": None,
              "data": {"players": ["Anna", "Bernd", "Carla"], "drawn": False, "series_length": 36,
                       "scoring": "seeger_fabian", "bierlachs_limit": None, "profile": "isko", "stake": "0"}}


def test_an_old_list_opened_reads_without_ids_and_writes_the_same_json() -> None:
    event = Event.from_json(OLD_OPENED)
    assert isinstance(event.body, ListOpened) and event.body.members == ()
    assert event.to_json() == OLD_OPENED  # no "members": an older laptop still reads it
    assert replay([event]).member_of("Anna") == ""


def test_ids_go_with_the_names_into_the_events_and_the_state() -> None:
    raw = copy.deepcopy(OLD_OPENED)
    raw["data"]["members"] = ["p1", "", "p3"]
    event = Event.from_json(raw)
    assert event.to_json() == raw
    joined = Event("a2", 2, "pi", "L", PlayerJoined("Dora", 3, None, "p4"))
    assert Event.from_json(joined.to_json()).body == joined.body
    state = replay([event, joined])
    assert [state.member_of(n) for n in ("Anna", "Bernd", "Carla", "Dora")] == ["p1", "", "p3", "p4"]
    bad = copy.deepcopy(raw)
    bad["data"]["members"] = "p1"
    with pytest.raises(ValueError, match="data.members"):
        Event.from_json(bad)


def test_the_table_keeps_each_id_with_its_player_when_seats_are_drawn() -> None:
    table = Table(open=False)
    opened = table.ok(OpenList(("Anna", "Bernd", "Carla", "Dora"), draw=True,
                               members=("pA", "", "pC", "pD"))).events[0].body
    assert dict(zip(opened.players, opened.members, strict=True)) == {"Anna": "pA", "Bernd": "", "Carla": "pC",
                                                                        "Dora": "pD"}
    table2 = Table(open=False)
    table2.refused(OpenList(("Anna", "Bernd", "Carla"), members=("p1", "p1", "")), "bad_setup")
    table2.refused(OpenList(("Anna", "Bernd", "Carla"), members=("p1",)), "bad_setup")


def test_the_laptops_next_series_brings_the_ids_into_the_list() -> None:
    table = Table(open=False)
    table.ok(NextSeriesOffered.from_ack({"v": 1, "series": 2, "table": 1, "players": ["Jürgen", "Gast", "Anna"],
                                        "members": ["pJ", "", "pA"], "text": "Serie 2 · Tisch 1"}))
    opened = table.ok(OpenNextSeries()).events[0].body
    assert opened.players == ("Jürgen", "Gast", "Anna") and opened.members == ("pJ", "", "pA")


def test_a_joining_member_brings_his_id() -> None:
    table = Table("Anna", "Bernd", "Carla")
    event = table.ok(JoinPlayer("Dora", member="pD")).events[0]
    assert event.to_json()["data"]["member"] == "pD" and table.service.state.member_of("Dora") == "pD"


def test_the_list_document_carries_ids_and_older_documents_still_load() -> None:
    assert parse_list_document(EXAMPLE).members == () and "members" not in to_list_document(parse_list_document(EXAMPLE))
    with_ids = {**EXAMPLE, "members": ["p1", "", "p3", "p4"]}
    document = parse_list_document(with_ids)
    assert document.members == ("p1", "", "p3", "p4")
    assert parse_list_document(to_list_document(document)).members == document.members
    for members, where in ((["p1"], "members"), (["p1", "", "p1", "p4"], "members[2]"), ("p1", "members"),
                           ([1, 2, 3, 4], "members")):
        with pytest.raises(ListDocumentError) as caught:
            parse_list_document({**EXAMPLE, "members": members})
        assert caught.value.where == where
