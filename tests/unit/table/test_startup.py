"""Start-up reads the current list only, however long the table's history is."""

from __future__ import annotations

from typing import Any

from device.table import ConfirmList, EndSeries, OpenList
from tests.table_helpers import ListStore, Table, make_service


class CountingStore(ListStore):
    def __init__(self) -> None:
        super().__init__()
        self.loaded: list[str] = []

    def load(self, list_id: str) -> list[dict[str, Any]]:
        self.loaded.append(list_id)
        return super().load(list_id)


def test_a_restart_reads_only_the_newest_list_and_continues_its_seq() -> None:
    store = CountingStore()
    table = Table(store=store, open=False)
    for evening in range(5):
        table.ok(OpenList(("Anna", "Bernd", "Carla")))
        table.say("M passe", "H passe", "V passe")
        table.ok(EndSeries(), *(ConfirmList(seat) for seat in range(3)))
    table.ok(OpenList(("Anna", "Bernd", "Dora")))
    last_seq = table.service.last_seq
    store.loaded.clear()
    again = make_service(store, seed=7)
    assert store.loaded == [store.list_ids()[-1]]
    assert again.last_seq == last_seq
    assert again.state.seating == ("Anna", "Bernd", "Dora")
    Table(service=again).say("M passe")
    assert again.last_seq == last_seq + 1
