"""The service: one inbox from many threads, durable before reported, never raising from pump,
ids and sequence numbers for the sync, and a restart that continues exactly where it was."""

from __future__ import annotations

import random
import threading
from pathlib import Path

import pytest

from device.cards import Card
from device.hardware import ReaderStatus, UnknownCardScanned
from device.table import flow
from device.table.commands import ConfirmList, EnterResult, OpenList, SyncAcknowledged, SyncStatus
from device.table.events import Event
from device.table.service import PumpResult, TableService
from device.table.state import replay
from device.games import GameType
from drivers.store import MemoryDisk, MemoryEventStore, JournalEventStore
from tests.strategies import deal, play_random
from tests.table_helpers import DEVICE, ListStore, StepClock, Table, english, german, make_service, seeded_ids
from ui.i18n import sync_text


def test_commands_from_many_threads_are_each_processed_once() -> None:
    table = Table("Anna", "Bernd", "Carla")
    service = table.service
    refused: list[str] = []
    service.subscribe(lambda r: refused.extend(x.code for x in r.refusals))

    def reader(n: int) -> None:
        for i in range(100):
            service.submit(UnknownCardScanned(f"{n}-{i}", "test"))

    threads = [threading.Thread(target=reader, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    while any(t.is_alive() for t in threads) or len(service._inbox):  # the owning thread pumps
        service.pump()
    for t in threads:
        t.join()
    service.pump()
    assert refused == ["unknown_card"] * 400


def test_events_are_durable_before_listeners_hear_of_them() -> None:
    store = ListStore()
    table = Table("Anna", "Bernd", "Carla", store=store)
    seen: list[bool] = []

    def listener(result: PumpResult) -> None:
        stored = {d["id"] for d in store.load(table.service.list_id or "")}
        seen.extend(e.id in stored for e in result.events)

    table.service.subscribe(listener)
    table.say("M 18", "V ja")
    assert seen == [True, True]


def test_a_failing_store_refuses_the_command_and_changes_nothing() -> None:
    store = ListStore()
    table = Table("Anna", "Bernd", "Carla", store=store)
    before, seq = table.service.state, table.service.last_seq
    store.fail_next = True
    from device.table.commands import Bid
    result = table.do(Bid(1, 18))
    assert [r.code for r in result.refusals] == ["store_failed"] and not result.events
    assert "Speichern fehlgeschlagen" in german(result.refusals[0])
    assert table.service.state == before and table.service.last_seq == seq
    table.say("M 18")  # the next try works, with the next sequence number
    assert table.service.events[-1].seq == seq + 1


def test_a_bug_never_escapes_pump(monkeypatch: pytest.MonkeyPatch) -> None:
    table = Table("Anna", "Bernd", "Carla")

    def broken(state: object, command: object) -> flow.Decision:
        raise ZeroDivisionError("boom")

    monkeypatch.setattr("device.table.service.decide", broken)
    result = table.do(UnknownCardScanned("x", "y"))
    assert [r.code for r in result.refusals] == ["internal_error"] and "boom" in english(result.refusals[0])
    assert table.snap.refusal is not None and table.snap.refusal.code == "internal_error"


def test_a_listener_that_fails_does_not_stop_the_table() -> None:
    table = Table("Anna", "Bernd", "Carla")
    calls: list[int] = []
    table.service.subscribe(lambda r: 1 / 0)  # type: ignore[func-returns-value]
    unsubscribe = table.service.subscribe(lambda r: calls.append(len(r.events)))
    table.say("M 18")
    unsubscribe()
    table.say("V ja")
    assert calls == [1]


def test_every_event_has_a_unique_id_and_the_devices_contiguous_sequence_across_lists() -> None:
    table = Table("Anna", "Bernd", "Carla", series_length=1)
    table.say("M passe", "H passe", "V passe")  # eingepasst ends the series of one game
    table.ok(*(ConfirmList(s) for s in range(3)))
    first_list = table.service.list_id
    table.ok(OpenList(("Anna", "Bernd", "Carla", "Dora")))
    assert table.service.list_id != first_list
    events = [Event.from_json(d) for lid in table.store.list_ids() for d in table.store.load(lid)]
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert len({e.id for e in events}) == len(events) and all(len(e.id) == 32 for e in events)
    assert {e.device for e in events} == {DEVICE}
    assert {e.list_id for e in events} == {first_list, table.service.list_id}
    assert all(e.at is not None and e.at.startswith("2026-11-22T19:") for e in events)
    assert [e["seq"] for e in table.service.events_after(3)] == list(range(4, len(events) + 1))


def test_sync_progress_and_the_panel_view() -> None:
    table = Table("Anna", "Bernd", "Carla")
    table.say("M passe", "H passe", "V passe")
    assert sync_text(table.snap.sync, "de") == "ohne Laptop" and table.snap.sync.laptop == ""  # no laptop paired: no alarm
    table.ok(SyncStatus(laptop="Vereinsheim", reachable=True))
    assert sync_text(table.snap.sync, "de") == "nicht synchronisiert" and not table.service.panel_view().sync_ok
    table.ok(SyncAcknowledged(table.service.last_seq))
    assert table.snap.sync.synced_games == 1 and sync_text(table.snap.sync, "de") == "synchronisiert bis Spiel 1"
    assert table.service.panel_view().sync_ok
    table.ok(ReaderStatus(True, "/dev/skattisch-reader", "verbunden"))
    assert table.snap.reader.connected and table.service.panel_view().reader_connected


def test_the_snapshot_is_cached_until_something_changes() -> None:
    table = Table("Anna", "Bernd", "Carla")
    assert table.snap is table.snap
    before = table.snap
    table.say("M 18")
    assert table.snap is not before


def test_news_that_changes_nothing_keeps_the_snapshot() -> None:
    """The sync repeats its acknowledgement and status at every round, the reader its state:
    the same news leaves the same snapshot object (the table shows a new one at once)."""
    table = Table("Anna", "Bernd", "Carla")
    table.say("M passe", "H passe", "V passe")
    news = [SyncStatus(laptop="Vereinsheim", reachable=True), SyncAcknowledged(table.service.last_seq),
            ReaderStatus(True, "/dev/skattisch-reader", "verbunden")]
    for command in news:
        table.ok(command)
        before = table.snap
        table.ok(command)
        assert table.snap is before, command
    table.ok(SyncAcknowledged(0))  # an older acknowledgement: nothing new either
    assert table.snap is before
    table.ok(SyncStatus(laptop="Vereinsheim", reachable=False))
    assert table.snap is not before and not table.snap.sync.reachable


def half_a_game(store: object) -> tuple[TableService, list[tuple[Card, ...]]]:
    rng = random.Random(21)
    hands, skat = deal(rng)
    service = make_service(store)
    table = Table("Anna", "Bernd", "Carla", service=service, series_length=36)
    table.say("M passe", "H passe", "V passe")
    table.say("M 18", "V ja", "M 20", "V passe", "H passe")  # Carla deals: V Anna, M Bernd
    table.take_skat(); table.scan(*[c.code for c in skat]); table.declare("grand")
    tricks = [tuple(t) for t in play_random(rng, GameType.GRAND, hands)]
    table.play(tricks[:4])
    table.scan(tricks[4][0].code)
    return service, tricks


def continue_and_finish(service: TableService, tricks: list[tuple[Card, ...]]) -> Table:
    table = Table(service=service)
    table.scan(*[c.code for c in tricks[4][1:]])
    table.play(tricks[5:])
    table.confirm("Bernd", "Carla")
    return table


def test_a_new_service_over_the_same_store_continues_exactly_where_it_was(tmp_path: Path) -> None:
    reference, tricks = half_a_game(ListStore())
    store = JournalEventStore(tmp_path)
    old, _ = half_a_game(store)
    store.close()
    store = JournalEventStore(tmp_path)
    new = TableService(store, device_id=DEVICE, clock=StepClock(), rng=random.Random(1), new_id=seeded_ids(99))
    assert new.state == old.state and new.events == old.events
    assert new.last_seq == old.last_seq and new.snapshot() == old.snapshot()
    assert new.snapshot().play is not None and len(new.snapshot().play.trick.cards) == 1  # type: ignore[union-attr]
    finished = continue_and_finish(new, tricks)
    finished_ref = continue_and_finish(reference, tricks)
    assert finished.snap.list == finished_ref.snap.list
    assert [e.seq for e in new.events] == list(range(1, len(new.events) + 1))
    store.close()


def test_restart_over_the_memory_store_and_after_a_closed_list() -> None:
    disk = MemoryDisk()
    store = MemoryEventStore(disk)
    service, _ = half_a_game(store)
    table = Table(service=service)
    table.undo()  # an undo is an event too: the restarted table has it
    store.close()
    again = TableService(MemoryEventStore(disk), device_id=DEVICE)
    assert again.state == service.state and again.state.deal is not None
    assert len(again.state.deal.cards_played) == 12
    assert replay(again.events) == again.state
    Table(service=again).undo()  # and the restarted table undoes on from there
    assert again.state.deal is not None and len(again.state.deal.cards_played) == 11


def test_a_fresh_store_starts_in_setup_with_the_roster() -> None:
    service = TableService(ListStore(), device_id="t", roster=("Anna", "Bernd"))
    snap = service.snapshot()
    assert snap.phase == "setup" and snap.setup.roster == ("Anna", "Bernd") and "isko" in snap.setup.profiles
    assert "texas" in snap.setup.profiles  # played at the table (device/table/rules.py)
    with pytest.raises(ValueError):
        TableService(ListStore(), device_id="")
    assert service.handle(EnterResult(1)).refusals[0].code == "no_list"
