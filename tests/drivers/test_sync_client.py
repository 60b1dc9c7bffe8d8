"""The table's sync client (drivers/sync.py) against a real collector process on 127.0.0.1:
entries from the store (the fallback chain), durable state, a laptop that is away, a Pi whose
clock is an hour off, the laptop asking for everything again, and the client thread."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from device.table import SyncStatus
from drivers.club.app import new_pairing_code
from drivers.club.store import SqliteCollectorStore
from drivers.store import TinyDBEventStore
from drivers.sync import STATE_FILE, LaptopError, StoreEntries, SyncClient, SyncState, SyncStateFile, make_client
from tests.e2e.service_crash_writer import next_command
from tests.e2e.sync_helpers import ROOT, Collector
from tests.table_helpers import ListStore, Table, make_service


def a_table(device: str, store: object = None) -> Table:
    """A table with its own device id (the laptop keys everything by device)."""
    store = store if store is not None else ListStore()
    return Table(store=store, service=make_service(store, device=device), open=False)


def play(table: Table, games: int) -> None:
    done = sum(1 for e in table.service.events if e.type == "game_recorded")
    target = done + games
    while done < target:
        command = next_command(table.service, done + 1, length=4)
        table.ok(*(command if isinstance(command, list) else [command]))
        done += sum(1 for e in table.last.events if e.type == "game_recorded")


@pytest.fixture(scope="module")
def collector(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Collector]:
    collector = Collector(tmp_path_factory.mktemp("laptop") / "club.sqlite3")
    yield collector
    collector.stop()


def paired_client(collector: Collector, table: Table, directory: Path, **options: object) -> SyncClient:
    client = SyncClient(StoreEntries(table.store, table.service.device_id), SyncStateFile(directory / STATE_FILE),
                        device=table.service.device_id, submit=table.service.submit, **options)  # type: ignore[arg-type]
    store = SqliteCollectorStore(collector.db)
    try:
        client.pair(new_pairing_code(store, now=time.time()), collector.url)
    finally:
        store.close()
    return client


def test_the_state_is_durable_private_and_a_damaged_file_means_unpaired(tmp_path: Path) -> None:
    state_file = SyncStateFile(tmp_path / STATE_FILE)
    assert state_file.load() == SyncState()
    state_file.save(SyncState("http://127.0.0.1:1", "ab" * 32, "Vereinsheim", 17))
    assert SyncStateFile(tmp_path / STATE_FILE).load() == SyncState("http://127.0.0.1:1", "ab" * 32, "Vereinsheim", 17)
    assert (tmp_path / STATE_FILE).stat().st_mode & 0o077 == 0  # the secret is the owner's only
    (tmp_path / STATE_FILE).write_text("{torn")
    assert not SyncStateFile(tmp_path / STATE_FILE).load().paired


def test_a_laptop_that_is_away_changes_nothing_and_a_pi_clock_an_hour_off_is_corrected(
        collector: Collector, tmp_path: Path) -> None:
    table = a_table("tisch-uhr")
    play(table, 2)
    client = paired_client(collector, table, tmp_path, clock=lambda: time.time() - 3600, timeout=2)
    away = SyncClient(client._source, SyncStateFile(tmp_path / STATE_FILE), device=table.service.device_id,
                      fallback_url="http://127.0.0.1:9")  # nothing listens on port 9
    away._state = SyncState("http://127.0.0.1:9", client.state.secret)
    with pytest.raises(LaptopError) as unreachable:
        away.sync_once()
    assert unreachable.value.code == "unreachable" and client.state.acked == 0
    assert not client.sync_once()  # the first request is stale; the laptop's time sets the clock
    assert abs(client._offset - 3600) < 60
    table.service.pump()
    assert client.state.acked == table.service.last_seq and table.snap.sync.synced_games == 2
    assert SyncStateFile(tmp_path / STATE_FILE).load().acked == table.service.last_seq  # durable


def test_discovery_that_cannot_start_leaves_the_paired_address(collector: Collector, tmp_path: Path,
                                                               caplog: pytest.LogCaptureFixture) -> None:
    from drivers.club.mdns import find_laptop

    table = a_table("tisch-ohne-mdns")
    play(table, 1)
    paired = paired_client(collector, table, tmp_path)
    # zeroconf itself fails to start (here: an interface it cannot use), not just "nothing found"
    with pytest.raises(ValueError):
        find_laptop(timeout=0.2, interfaces=["no-such-interface"])
    client = SyncClient(paired._source, SyncStateFile(tmp_path / STATE_FILE), device=table.service.device_id,
                        submit=table.service.submit,
                        discover=lambda: find_laptop(timeout=0.2, interfaces=["no-such-interface"]))
    with caplog.at_level("WARNING", logger="drivers.sync"):
        while client.sync_once():
            pass
    assert client.state.acked == table.service.last_seq and client.url == collector.url
    assert "looking for the laptop by mDNS failed" in caplog.text


def test_the_laptop_asks_for_everything_again(collector: Collector, tmp_path: Path) -> None:
    table = a_table("tisch-nochmal")
    play(table, 1)
    client = paired_client(collector, table, tmp_path)
    while client.sync_once():
        pass
    subprocess.run([sys.executable, "-m", "ui.cli", "club", "resend", table.service.device_id, "--db",
                    str(collector.db)], cwd=ROOT, check=True, capture_output=True)
    assert client.sync_once() and client.state.acked == 0  # asked: start again from the first event
    batches = client.sent_batches
    while client.sync_once():
        pass
    assert client.state.acked == table.service.last_seq and client.sent_batches == batches + 1
    store = SqliteCollectorStore(collector.db)
    try:
        assert not store.resend_requested(table.service.device_id)
        assert store.device_events(table.service.device_id) == [e.to_json() for e in table.service.events]
    finally:
        store.close()


def test_the_thread_syncs_new_games_and_reports_the_laptop(collector: Collector, tmp_path: Path) -> None:
    store = TinyDBEventStore(tmp_path / "store")
    table = a_table(store.device_id, store)
    paired = paired_client(collector, table, tmp_path / "store")
    commands: list[object] = []
    client = make_client(store, tmp_path / "store", table.service.device_id,
                         lambda c: (commands.append(c), table.service.submit(c)), idle_poll=0.2)
    assert client.state == paired.state  # the same sync.json beside the store
    table.service.subscribe(lambda result: client.wake() if result.events else None)
    client.start()
    try:
        play(table, 3)
        deadline = time.monotonic() + 20
        while table.snap.sync.acked_seq < table.service.last_seq:
            assert time.monotonic() < deadline, table.snap.sync
            time.sleep(0.05)
            table.service.pump()
    finally:
        client.close()
        store.close()
    assert table.snap.sync.synced_games == 3 and table.snap.sync.laptop == "Skattisch"
    assert SyncStatus(laptop="Skattisch", reachable=True) in commands
    assert os.path.exists(tmp_path / "store" / STATE_FILE)


def test_the_table_pairs_under_its_table_name_so_the_laptop_can_number_its_tile(collector: Collector, tmp_path: Path) -> None:
    table = a_table("pair-name-device-7f3")
    client = SyncClient(StoreEntries(table.store, table.service.device_id), SyncStateFile(tmp_path / STATE_FILE),
                        device=table.service.device_id, submit=table.service.submit)
    store = SqliteCollectorStore(collector.db)
    try:
        client.pair(new_pairing_code(store, now=time.time()), collector.url, name="Tisch 7")
        names = {t.device: t.name for t in store.tables()}
    finally:
        store.close()
    assert names[table.service.device_id] == "Tisch 7"  # not the device id, whose digits read as a table number


def test_making_the_client_leaves_the_version_lookup_to_the_first_batch(tmp_path: Path) -> None:
    """The table makes its sync client before its first frame: reading the installed version
    (importlib.metadata, some 30 ms) waits for the first batch, in the sync thread."""
    script = ("import sys\nfrom drivers.store import MemoryEventStore\n"
              "from drivers.sync import SyncClient, SyncStateFile, entry_source\n"
              f"client = SyncClient(entry_source(MemoryEventStore(), 't1'), SyncStateFile({str(tmp_path / 's.json')!r}),"
              " device='t1')\n"
              "print('importlib.metadata' in sys.modules)\n"
              "print(client._make_body('t1', []).decode())\n")
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    from drivers.version import skattisch_version

    assert result.stdout.splitlines() == [
        "False", f'{{"app_version":"{skattisch_version()}","device":"t1","entries":[],"v":1}}'], result.stderr
