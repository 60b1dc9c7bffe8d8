"""Group commit and the signed head: everything one pump produced is one append, a
failed append undoes the whole pump, and the list's confirmations name the chain head they sign."""

from __future__ import annotations

from pathlib import Path

from device.journal import GENESIS, chain_hash
from device.table import Bid, ConfirmList, EndSeries, Hold, OpenList, Pass, TableService
from drivers.store import JournalEventStore
from tests.table_helpers import DEVICE, ListStore, Table, make_service


def test_one_pump_is_one_append_however_many_commands() -> None:
    store = ListStore()
    table = Table("Anna", "Bernd", "Carla", store=store)
    before = store.appends
    result = table.ok(Bid(1, 18), Hold(0), Bid(1, 20), Pass(0))
    assert len(result.events) == 4 and store.appends == before + 1


def test_a_failed_append_refuses_every_command_of_the_pump_and_changes_nothing() -> None:
    store = ListStore()
    table = Table("Anna", "Bernd", "Carla", store=store)
    state, seq, events = table.service.state, table.service.last_seq, table.service.events
    store.fail_next = True
    result = table.do(Bid(1, 18), Hold(0), Bid(1, 20))
    assert [r.code for r in result.refusals] == ["store_failed"] * 3 and not result.events
    assert (table.service.state, table.service.last_seq, table.service.events) == (state, seq, events)
    table.ok(Bid(1, 18), Hold(0))  # tried again: the same seqs, now stored
    assert [e.seq for e in table.service.events[-2:]] == [seq + 1, seq + 2]
    assert store.load(table.service.list_id or "")[-1]["seq"] == seq + 2


def test_a_pump_that_closes_one_list_and_opens_the_next_writes_each_list_once() -> None:
    store = ListStore()
    table = Table("Anna", "Bernd", "Carla", store=store)
    table.say("M passe", "H passe", "V passe")
    table.ok(EndSeries())
    before, first = store.appends, table.service.list_id
    table.ok(*(ConfirmList(seat) for seat in range(3)), OpenList(("Anna", "Bernd", "Dora")))
    assert store.appends == before + 2 and table.service.list_id != first
    assert [e["type"] for e in store.load(first or "")][-2:] == ["list_confirmed", "list_closed"]
    assert store.load(table.service.list_id or "")[0]["type"] == "list_opened"


def test_each_confirmation_of_the_list_names_the_chain_head_it_signs(tmp_path: Path) -> None:
    store = JournalEventStore(tmp_path)
    service = make_service(store)
    table = Table(service=service, store=store, open=False)
    table.ok(OpenList(("Anna", "Bernd", "Carla")))
    table.say("M passe", "H passe", "V passe")
    table.ok(EndSeries())
    table.ok(ConfirmList(0))
    table.ok(ConfirmList(1), ConfirmList(2))
    list_id = service.list_id or ""
    events = store.load(list_id)
    head = GENESIS
    signed = []
    for event in events:
        if event["type"] in ("list_confirmed", "list_closed"):
            assert event["data"]["head"] == head  # the list exactly as it stood when signed
            signed.append(event["type"])
        head = chain_hash(head, event)
    assert signed == ["list_confirmed"] * 3 + ["list_closed"]
    assert head == store.head(list_id) == service.head
    store.close()
    again = TableService(JournalEventStore(tmp_path), device_id=DEVICE)
    assert again.head == head and again.state == service.state


def test_a_restart_from_a_checkpoint_equals_the_full_replay(tmp_path: Path) -> None:
    from device.table.state import replay

    store = JournalEventStore(tmp_path)
    table = Table("Anna", "Bernd", "Carla", store=store)
    for _ in range(10):  # ten eingepasst games: a checkpoint at entry 8
        table.say("M passe", "H passe", "V passe")
    table.say("M 18")
    list_id = table.service.list_id or ""
    store.close()
    store = JournalEventStore(tmp_path)
    found = store.load_checkpoint(list_id)
    assert found is not None and 0 < found[0] < len(store.load(list_id))
    again = TableService(store, device_id=DEVICE)
    assert again.state == replay(again.events) == table.service.state
    store.close()
