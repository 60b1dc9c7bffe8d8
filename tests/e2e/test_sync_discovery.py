"""Discovery: the laptop advertises ``_skattisch._tcp`` by mDNS; a table with nothing
configured finds it, pairs and syncs. On the loopback interface (zeroconf bound to 127.0.0.1),
the collector in its own process."""

from __future__ import annotations

import time
from pathlib import Path

from drivers.club.app import new_pairing_code
from drivers.club.mdns import find_laptop
from drivers.club.store import SqliteCollectorStore
from drivers.sync import STATE_FILE, LaptopError, SyncClient, SyncStateFile, StoreEntries
from tests.e2e.service_crash_writer import next_command
from tests.e2e.sync_helpers import Collector
from tests.table_helpers import Table

import pytest

LOOPBACK = ["127.0.0.1"]


def a_table_with_games(games: int) -> Table:
    table = Table(open=False)
    done = 0
    while done < games:
        command = next_command(table.service, done + 1)
        table.ok(*(command if isinstance(command, list) else [command]))
        done += sum(1 for e in table.last.events if e.type == "game_recorded")
    return table


def client_for(table: Table, directory: Path, **options: object) -> SyncClient:
    return SyncClient(StoreEntries(table.store, table.service.device_id), SyncStateFile(directory / STATE_FILE),
                      device=table.service.device_id, submit=table.service.submit, **options)  # type: ignore[arg-type]


def test_a_table_with_nothing_configured_finds_the_laptop_pairs_and_syncs(tmp_path: Path) -> None:
    collector = Collector(tmp_path / "club.sqlite3", mdns=True)
    try:
        assert find_laptop(timeout=5, interfaces=LOOPBACK) == collector.url
        table = a_table_with_games(3)
        client = client_for(table, tmp_path, discover=lambda: find_laptop(timeout=5, interfaces=LOOPBACK))
        store = SqliteCollectorStore(collector.db)
        code = new_pairing_code(store, now=time.time())
        client.pair(code)
        assert client.state.paired and client.state.url == collector.url
        while client.sync_once():
            pass
        table.service.pump()
        assert client.state.acked == table.service.last_seq == store.held(table.service.device_id) > 0
        assert table.snap.sync.synced_games == 3
        store.close()
    finally:
        collector.stop()
    assert find_laptop(timeout=1.5, interfaces=LOOPBACK) is None  # the record is withdrawn when it stops


def test_without_discovery_the_configured_address_is_used(tmp_path: Path) -> None:
    collector = Collector(tmp_path / "club.sqlite3")
    try:
        table = a_table_with_games(1)
        client = client_for(table, tmp_path, discover=lambda: None, fallback_url=collector.url)
        store = SqliteCollectorStore(collector.db)
        client.pair(new_pairing_code(store, now=time.time()))
        assert not client.sync_once() and client.state.acked == table.service.last_seq
        store.close()
        lonely = client_for(a_table_with_games(1), tmp_path / "other", discover=lambda: None)
        with pytest.raises(LaptopError) as none:
            lonely.pair("123456")
        assert none.value.code == "no_laptop"
    finally:
        collector.stop()
