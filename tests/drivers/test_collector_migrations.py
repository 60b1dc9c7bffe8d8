"""The collector's schema is the program's: a SQLite file as the first collector wrote it (no
nonces, a conflict row per retry, no schema_version) opens with its data, takes the numbered
migrations once, and works on; PostgreSQL gets the same migrations from empty."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from device.sync import BatchConflict, journal_entries
from drivers.club.migrations import LATEST, MIGRATIONS, Migration, SchemaError, migrate
from drivers.club.store import SqliteCollectorStore, open_store
from tests.drivers.test_collector_store import DEVICE, events, rows

FIRST_SCHEMA = """
CREATE TABLE IF NOT EXISTS devices (
    device TEXT PRIMARY KEY, name TEXT NOT NULL, secret TEXT, paired_at REAL NOT NULL,
    last_contact REAL, held INTEGER NOT NULL DEFAULT 0, resend INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS events (
    device TEXT NOT NULL, seq INTEGER NOT NULL, id TEXT NOT NULL, list_id TEXT NOT NULL,
    prev TEXT NOT NULL, hash TEXT NOT NULL, event TEXT NOT NULL, received REAL NOT NULL,
    PRIMARY KEY (device, seq), UNIQUE (device, id));
CREATE INDEX IF NOT EXISTS events_by_list ON events (device, list_id, seq);
CREATE TABLE IF NOT EXISTS lists (
    device TEXT NOT NULL, list_id TEXT NOT NULL, head TEXT NOT NULL, count INTEGER NOT NULL,
    first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL, PRIMARY KEY (device, list_id));
CREATE TABLE IF NOT EXISTS conflicts (
    id INTEGER PRIMARY KEY AUTOINCREMENT, device TEXT NOT NULL, seq INTEGER NOT NULL,
    held_id TEXT NOT NULL, sent TEXT NOT NULL, at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS pair_codes (
    code TEXT PRIMARY KEY, expires REAL NOT NULL, tries INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS documents (name TEXT PRIMARY KEY, body TEXT NOT NULL);
"""  # drivers/club/store.py's SCHEMA as the first collector (2d00ea5 … 6bf8378) created it


def first_collectors_file(path: Path) -> list[str]:
    """A database as the first collector left it: a paired table, a list of 3, a conflict sent twice."""
    entries = journal_entries(events(3))
    sent = json.dumps({"prev": "0" * 64, "hash": "f" * 64, "event": events(1, tag="x")[0]})
    with sqlite3.connect(path) as db:
        db.executescript(FIRST_SCHEMA)
        db.execute("INSERT INTO devices VALUES (?, 'Tisch 7', 'geheim', 100.0, 200.0, 3, 0)", (DEVICE,))
        db.executemany("INSERT INTO events VALUES (?, ?, ?, 'liste-1', ?, ?, ?, 150.0)",
                       [(DEVICE, e.event["seq"], e.event["id"], e.prev, e.hash, json.dumps(e.event)) for e in entries])
        db.execute("INSERT INTO lists VALUES (?, 'liste-1', ?, 3, 1, 3)", (DEVICE, entries[-1].hash))
        db.executemany("INSERT INTO conflicts (device, seq, held_id, sent, at) VALUES (?, 1, 'e1', ?, ?)",
                       [(DEVICE, sent, 160.0), (DEVICE, sent, 170.0)])
        db.execute("INSERT INTO documents VALUES ('roster', '{\"members\": []}')")
    db.close()
    return [e.hash for e in entries]


def test_the_first_collectors_file_opens_migrated_and_works_on(tmp_path: Path) -> None:
    path = tmp_path / "club.sqlite3"
    hashes = first_collectors_file(path)
    store = open_store(path)
    try:
        assert isinstance(store, SqliteCollectorStore) and store.schema_version() == LATEST
        assert [(t.device, t.held, t.conflicts, t.conflict_sends) for t in store.tables()] == [(DEVICE, 3, 1, 2)]
        assert [e.hash for e in store.entries(DEVICE, "liste-1")] == hashes
        assert store.secret(DEVICE) == "geheim" and store.document("roster") == {"members": []}
        assert store.use_nonce(DEVICE, "n1", expires=1e10, now=1.0)  # the nonces table came with migration 1
        more = journal_entries(events(2, start=4), prev=hashes[-1])
        assert [t.app_version for t in store.tables()] == [None]  # the first collector's tables said none
        assert store.store_batch(DEVICE, more, now=300.0, app_version="0.1.0").held == 5
        assert [t.app_version for t in store.tables()] == ["0.1.0"]  # kept in migration 5's column
        with pytest.raises(BatchConflict):
            store.store_batch(DEVICE, journal_entries(events(1, tag="y")), now=310.0)
        assert [c.count for c in store.conflicts(DEVICE)] == [2, 1]
    finally:
        store.close()
    recorded = rows(str(path), "SELECT version, title FROM schema_version ORDER BY version")
    assert recorded == [(m.version, m.title) for m in MIGRATIONS]


def test_postgres_takes_the_same_numbered_migrations(pg_url: str) -> None:
    store = open_store(pg_url)
    store.close()
    assert rows(pg_url, "SELECT version, title FROM schema_version ORDER BY version") == [
        (m.version, m.title) for m in MIGRATIONS]
    columns = dict(rows(pg_url, "SELECT column_name, data_type FROM information_schema.columns "
                                "WHERE table_name = 'devices'"))
    assert columns["last_contact"] == columns["paired_at"] == "double precision"  # not 4-byte REAL
    assert columns["app_version"] == "text"


def test_two_processes_opening_a_new_postgres_database_at_once_migrate_it_once(pg_url: str) -> None:
    import threading

    errors: list[BaseException] = []

    def open_and_close() -> None:
        try:
            open_store(pg_url).close()
        except BaseException as exc:  # noqa: BLE001 - shown below
            errors.append(exc)

    threads = [threading.Thread(target=open_and_close) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    assert [v for v, in rows(pg_url, "SELECT version FROM schema_version ORDER BY version")] == list(
        range(1, LATEST + 1))


def test_another_schema_in_the_same_database_is_versioned_in_its_own_table(tmp_path: Path) -> None:
    path = tmp_path / "club.sqlite3"
    open_store(path).close()
    league = (Migration(1, "clubs", lambda db, dialect: db.execute("CREATE TABLE league_clubs (club TEXT)")),
              Migration(2, "seasons", lambda db, dialect: db.execute("CREATE TABLE league_seasons (season TEXT)")))
    with sqlite3.connect(path) as db:
        assert migrate(db, "sqlite", now=5.0, migrations=league, table="league_schema_version") == [1, 2]
        assert migrate(db, "sqlite", now=6.0, migrations=league, table="league_schema_version") == []
        with pytest.raises(SchemaError, match="schema version 2 .league_schema_version., .* up to 1"):
            migrate(db, "sqlite", now=7.0, migrations=league[:1], table="league_schema_version")
    db.close()
    assert rows(str(path), "SELECT version, title FROM league_schema_version") == [(1, "clubs"), (2, "seasons")]
    assert rows(str(path), "SELECT MAX(version) FROM schema_version") == [(LATEST,)]  # the collector's own
