"""``skattisch club backup`` and ``restore`` as the organiser runs them (real processes), on SQLite
and on a real PostgreSQL server: a database with every kind of row is backed up, restored into a
fresh database, and the two hold the same rows, table by table; the restored one works on. A
database that holds tables is never restored over; a file of the other engine is refused."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from device.sync import BatchConflict, journal_entries
from drivers.club.store import CollectorStore, is_postgres_url, open_store
from tests.drivers.test_collector_store import DEVICE, events, paired, rows

ROOT = Path(__file__).resolve().parents[2]
TABLES = ("devices", "events", "lists", "conflicts", "pair_codes", "documents", "nonces", "schema_version")


def club(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ui.cli", "club", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)


def contents(target: str) -> dict[str, list[tuple[Any, ...]]]:
    return {table: sorted(rows(target, f"SELECT * FROM {table}"), key=repr) for table in TABLES}


def a_club_evening(store: CollectorStore) -> None:
    """A row in every table: a paired table's list, a conflict sent twice, a nonce, a code, documents."""
    paired(store)
    store.ensure_device("usb-tisch", "Tisch USB", now=1001.0)
    store.store_batch(DEVICE, journal_entries(events(5)), now=1002.25)
    for now in (1003.0, 1004.0):
        with pytest.raises(BatchConflict):
            store.store_batch(DEVICE, journal_entries(events(2, tag="x")), now=now)
    store.use_nonce(DEVICE, "n-1", expires=9e9, now=1005.0)
    store.add_pairing_code("424242", 9e9)
    store.set_document("roster", {"members": [{"name": "Jürgen Müller", "card": "04A1"}]})


def fresh_target(request: pytest.FixtureRequest, like: str, tmp_path: Path) -> str:
    if is_postgres_url(like):
        return str(request.getfixturevalue("postgres_server").new_database("restored"))
    return str(tmp_path / "restored" / "club.sqlite3")


def test_a_backup_restored_into_a_fresh_database_holds_the_same_rows(
        store_target: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    store = open_store(store_target)
    try:
        a_club_evening(store)
    finally:
        store.close()
    file = tmp_path / "sicherung.backup"
    done = club("backup", str(file), "--db", store_target)
    assert done.returncode == 0 and "backed up" in done.stdout, done.stderr
    assert not file.with_name(file.name + ".partial").exists()
    restored = fresh_target(request, store_target, tmp_path)
    done = club("restore", str(file), "--db", restored)
    assert done.returncode == 0 and "restored" in done.stdout, done.stderr

    original = contents(store_target)
    assert all(original[table] for table in TABLES)  # the comparison compares something
    assert contents(restored) == original
    store = open_store(restored)  # and it works on: the next batch, the code, the nonce
    try:
        assert store.store_batch(DEVICE, journal_entries(events(6))[5:], now=2000.0).held == 6
        assert not store.use_nonce(DEVICE, "n-1", expires=9e9, now=2000.0)
        assert [c.count for c in store.conflicts(DEVICE)] == [2]
    finally:
        store.close()


def test_a_database_that_holds_tables_is_not_restored_over(store_target: str, tmp_path: Path) -> None:
    store = open_store(store_target)
    try:
        a_club_evening(store)
    finally:
        store.close()
    file = tmp_path / "sicherung.backup"
    assert club("backup", str(file), "--db", store_target).returncode == 0
    before = contents(store_target)
    done = club("restore", str(file), "--db", store_target)
    assert done.returncode == 2 and "already holds tables" in done.stderr, done.stderr
    assert contents(store_target) == before


def test_a_file_that_is_no_backup_of_this_engine_is_refused(
        store_target: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    wrong = tmp_path / "liste.csv"
    wrong.write_text("Name;Punkte\n", encoding="utf-8")
    done = club("restore", str(wrong), "--db", fresh_target(request, store_target, tmp_path))
    engine = "PostgreSQL" if is_postgres_url(store_target) else "SQLite"
    assert done.returncode == 2 and f"is not a {engine} backup" in done.stderr, done.stderr
    missing = club("backup", str(tmp_path / "x.backup"), "--db", str(tmp_path / "nowhere.sqlite3"))
    assert missing.returncode == 2 and "there is no database" in missing.stderr
