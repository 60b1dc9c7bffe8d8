"""The collector's store port, one contract for both engines: each test runs on a SQLite file and
on a real PostgreSQL server's database (tests/pg_server.py): pairing codes with their tries,
nonces, acks by (device, seq), conflicts kept aside with their count, the lists' heads,
documents, and two stores (as two processes) writing one database at once."""

from __future__ import annotations

import socket
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from device.journal import GENESIS, JournalEntry
from device.sync import BatchConflict, SyncRefused, journal_entries
from drivers.club.migrations import LATEST
from tests.pg_server import PostgresServer
from drivers.club.store import (PAIR_BUDGET, PAIR_TRIES, PAIR_WINDOW, BatchResult, CollectorStore, SchemaError, StoreError, is_postgres_url,
                                open_store)

DEVICE = "tisch-7"
ROOT = Path(__file__).resolve().parents[2]


def events(n: int, *, start: int = 1, list_id: str = "liste-1", tag: str = "") -> list[dict[str, Any]]:
    return [{"v": 1, "type": "bid_made", "id": f"e{seq}{tag}", "seq": seq, "device": DEVICE, "list_id": list_id,
             "at": None, "data": {"position": 1, "value": 18, "name": "Jürgen"}} for seq in range(start, start + n)]


def rows(target: str, sql: str) -> list[tuple[Any, ...]]:
    """The database's rows as its own client reads them (not through the store)."""
    if is_postgres_url(target):
        import psycopg

        with psycopg.connect(target) as db:
            return [tuple(r) for r in db.execute(sql).fetchall()]
    with sqlite3.connect(target) as lite:
        found = lite.execute(sql).fetchall()
    lite.close()
    return found


@pytest.fixture
def store(store_target: str) -> Iterator[CollectorStore]:
    club = open_store(store_target)
    yield club
    club.close()


def paired(store: CollectorStore, device: str = DEVICE) -> None:
    store.add_pairing_code("123456", 2000.0)
    store.pair("123456", device, "Tisch 7", "geheim", now=1000.0)


def test_a_pairing_code_is_taken_once_and_gives_the_table_its_secret(store: CollectorStore) -> None:
    paired(store)
    assert store.secret(DEVICE) == "geheim" and store.secret("tisch-8") is None
    with pytest.raises(SyncRefused, match="bad_code"):
        store.pair("123456", "tisch-8", "Tisch 8", "other", now=1001.0)
    assert [(t.device, t.name, t.paired, t.paired_at) for t in store.tables()] == [(DEVICE, "Tisch 7", True, 1000.0)]
    store.add_pairing_code("654321", 2000.0)
    store.pair("654321", DEVICE, "Tisch Sieben", "neu", now=1500.5)  # paired again: new name and secret
    assert store.secret(DEVICE) == "neu" and store.tables()[0].name == "Tisch Sieben"


def test_typos_elsewhere_leave_a_day_long_code_valid_and_lock_out_only_their_source(store: CollectorStore) -> None:
    store.add_pairing_code("111111", 1000.0 + 86_400)  # made for the day (the SD cards of new tables)
    for n in range(PAIR_TRIES + 1):  # one typo at each of six other tables: no code is voided by them
        with pytest.raises(SyncRefused, match="bad_code"):
            store.pair("999999", f"tisch-{n}", "Tisch", "s", now=1000.0, source=f"10.0.0.{n}")
    for _ in range(PAIR_TRIES):
        with pytest.raises(SyncRefused, match="bad_code"):
            store.pair("999998", DEVICE, "Tisch 7", "s", now=1001.0, source="10.0.0.99")
    with pytest.raises(SyncRefused, match="too_many_tries") as locked:  # that source waits, even with the right code
        store.pair("111111", DEVICE, "Tisch 7", "s", now=1002.0, source="10.0.0.99")
    assert locked.value.status == 429 and store.secret(DEVICE) is None
    store.pair("111111", DEVICE, "Tisch 7", "s", now=1003.0, source="10.0.0.50")  # the code still pairs
    assert store.secret(DEVICE) == "s"
    store.add_pairing_code("222222", 90_000.0)
    store.pair("222222", "tisch-8", "Tisch 8", "t", now=1001.0 + PAIR_WINDOW + 1, source="10.0.0.99")  # waited
    assert store.secret("tisch-8") == "t"


def test_a_code_is_void_after_its_budget_of_wrong_codes_from_anywhere_and_an_old_code_is_refused(
        store: CollectorStore) -> None:
    store.add_pairing_code("111111", 2000.0)
    for n in range(PAIR_BUDGET):  # guessing from many addresses: at most PAIR_BUDGET tries on a code
        with pytest.raises(SyncRefused, match="bad_code"):
            store.pair(f"{n:06d}", DEVICE, "Tisch 7", "s", now=1000.0, source=f"guess-{n}")
    with pytest.raises(SyncRefused, match="bad_code"):  # the right code, after the budget: void
        store.pair("111111", DEVICE, "Tisch 7", "s", now=1000.0, source="10.0.0.2")
    store.add_pairing_code("222222", 2000.0)
    with pytest.raises(SyncRefused, match="bad_code"):
        store.pair("222222", DEVICE, "Tisch 7", "s", now=2000.5)  # expired
    store.add_pairing_code("333333", 3000.0)
    store.add_pairing_code("333333", 3000.0)  # shown twice: still one code
    store.pair("333333", DEVICE, "Tisch 7", "s", now=2500.0)
    assert store.secret(DEVICE) == "s"


def test_unpairing_voids_the_secret_and_keeps_the_table(store: CollectorStore) -> None:
    paired(store)
    assert store.unpair(DEVICE) and not store.unpair(DEVICE) and not store.unpair("tisch-8")
    assert store.secret(DEVICE) is None
    assert [(t.device, t.paired) for t in store.tables()] == [(DEVICE, False)]
    store.ensure_device(DEVICE, "other name", now=5.0)  # known already: unchanged
    store.ensure_device("usb-tisch", "Tisch USB", now=5.0)
    assert [(t.device, t.name, t.paired) for t in store.tables()] == [(DEVICE, "Tisch 7", False),
                                                                      ("usb-tisch", "Tisch USB", False)]


def test_nonces_are_kept_until_stale_per_table_then_dropped(store: CollectorStore, store_target: str) -> None:
    assert store.use_nonce(DEVICE, "aa", expires=1600.0, now=1000.0)
    assert not store.use_nonce(DEVICE, "aa", expires=1600.0, now=1001.0)
    assert store.use_nonce("tisch-8", "aa", expires=1600.0, now=1001.0)
    assert store.use_nonce(DEVICE, "bb", expires=1900.0, now=1300.0)
    store.close()
    store = open_store(store_target)  # reopened: still known
    try:
        assert not store.use_nonce(DEVICE, "aa", expires=1600.0, now=1600.0)
        assert store.use_nonce(DEVICE, "cc", expires=2200.0, now=1600.5)  # past 1600: the "aa"s are stale
        assert sorted(rows(store_target, "SELECT nonce, expires FROM nonces")) == [("bb", 1900.0), ("cc", 2200.0)]
    finally:
        store.close()


def test_a_batch_is_acked_by_device_and_seq_and_a_resend_stores_nothing_twice(store: CollectorStore) -> None:
    with pytest.raises(SyncRefused, match="not_paired"):
        store.store_batch(DEVICE, journal_entries(events(2)), now=1.0)
    paired(store)
    first = journal_entries(events(3))
    assert store.store_batch(DEVICE, first, now=1_795_000_000.123456) == BatchResult(3, 3, 0)
    assert store.tables()[0].last_contact == 1_795_000_000.123456  # a time to the microsecond, on both
    more = journal_entries(events(2, start=4), prev=first[-1].hash)
    result = store.store_batch(DEVICE, first[1:] + more, now=1300.0)  # two resent, two new
    assert (result.held, result.stored, result.duplicates) == (5, 2, 2)
    assert store.held(DEVICE) == 5 and store.held("tisch-8") == 0
    assert [e["seq"] for e in store.device_events(DEVICE, after=3)] == [4, 5]
    assert store.entries(DEVICE, "liste-1") == first + more
    assert store.events(DEVICE, "liste-1")[0] == events(1)[0]  # as sent, umlauts and all
    assert store.event_at(DEVICE, 2) == events(2)[1] and store.event_at(DEVICE, 9) is None
    table = store.tables()[0]
    assert (table.held, table.last_contact, table.conflicts) == (5, 1300.0, 0)
    with pytest.raises(SyncRefused, match="out_of_order"):
        store.store_batch(DEVICE, journal_entries(events(1, start=7)), now=1400.0)
    assert store.held(DEVICE) == 5


def test_the_lists_heads_counts_and_seqs_follow_the_chains(store: CollectorStore) -> None:
    paired(store)
    one = journal_entries(events(2))
    two = journal_entries(events(2, start=3, list_id="liste-2"))
    store.store_batch(DEVICE, one + two, now=1.0)
    store.store_batch(DEVICE, journal_entries(events(1, start=5), prev=one[-1].hash), now=2.0)
    lists = {(i.list_id, i.count, i.first_seq, i.last_seq) for i in store.lists(DEVICE)}
    assert lists == {("liste-1", 3, 1, 5), ("liste-2", 2, 3, 4)}
    heads = {i.list_id: i.head for i in store.lists()}
    assert heads["liste-2"] == two[-1].hash and heads["liste-1"] == store.entries(DEVICE, "liste-1")[-1].hash
    with pytest.raises(SyncRefused, match="broken_chain"):  # does not continue liste-2's head
        store.store_batch(DEVICE, [JournalEntry(GENESIS, "x" * 64, events(1, start=6, list_id="liste-2")[0])], now=3.0)
    assert store.lists("tisch-8") == []
    after = store.device_entries(DEVICE, 1, 3)  # across the lists, in seq order (what the club forwards next)
    assert [(e.event["seq"], e.event["list_id"]) for e in after] == [(2, "liste-1"), (3, "liste-2"), (4, "liste-2")]
    assert after[1] == two[0] and store.device_entries(DEVICE, 4) == store.entries(DEVICE, "liste-1")[-1:]
    assert store.device_entries(DEVICE) == sorted(store.entries(DEVICE, "liste-1") + two, key=lambda e: e.event["seq"])


def test_a_conflict_is_kept_aside_once_per_content_with_its_count(store: CollectorStore) -> None:
    paired(store)
    store.store_batch(DEVICE, journal_entries(events(3)), now=1.0)
    other = journal_entries(events(3, tag="x"))
    for now in (10.0, 11.0, 12.0):
        with pytest.raises(BatchConflict):
            store.store_batch(DEVICE, other, now=now)
    with pytest.raises(BatchConflict):
        store.store_batch(DEVICE, journal_entries(events(2, tag="y")), now=13.0)
    conflicts = store.conflicts(DEVICE)
    assert [(c.seq, c.held_id, c.sent["event"]["id"], c.count, c.at, c.last_at) for c in conflicts] == [
        (1, "e1", "e1x", 3, 10.0, 12.0), (1, "e1", "e1y", 1, 13.0, 13.0)]
    assert store.conflicts() == conflicts and store.conflicts("tisch-8") == []
    table = store.tables()[0]
    assert (table.held, table.conflicts, table.conflict_sends) == (3, 2, 4)  # nothing of them stored
    assert [e["id"] for e in store.device_events(DEVICE)] == ["e1", "e2", "e3"]


def test_a_long_conflicting_entry_is_kept_too(store: CollectorStore) -> None:
    """PostgreSQL keys the conflict by its digest: an entry longer than an index row may be."""
    paired(store)
    store.store_batch(DEVICE, journal_entries(events(1)), now=1.0)
    long = events(1, tag="z")
    long[0]["data"]["note"] = "".join(f"{i:x}" for i in range(4000))  # ~15 kB, not compressible much
    for _ in range(2):
        with pytest.raises(BatchConflict):
            store.store_batch(DEVICE, journal_entries(long), now=2.0)
    assert [c.count for c in store.conflicts(DEVICE)] == [2]


def test_an_event_id_stored_under_another_seq_refuses_the_whole_batch(store: CollectorStore) -> None:
    paired(store)
    first = journal_entries(events(2))
    store.store_batch(DEVICE, first, now=1.0)
    again = events(2, start=3)
    again[1]["id"] = "e1"  # seq 4 carries seq 1's id
    with pytest.raises(SyncRefused, match="another seq"):
        store.store_batch(DEVICE, journal_entries(again, prev=first[-1].hash), now=2.0)
    assert store.held(DEVICE) == 2 and store.event_at(DEVICE, 3) is None  # seq 3 not stored either


def test_a_resend_request_waits_until_the_table_sends_from_seq_one(store: CollectorStore) -> None:
    paired(store)
    assert not store.request_resend("tisch-8")
    assert store.request_resend(DEVICE) and store.resend_requested(DEVICE)
    entries = journal_entries(events(2))
    store.store_batch(DEVICE, [], now=1.0)  # a contact without events
    assert store.resend_requested(DEVICE)
    store.store_batch(DEVICE, entries, now=2.0)
    assert not store.resend_requested(DEVICE)


def test_documents_are_kept_by_name_and_replaced(store: CollectorStore, store_target: str) -> None:
    assert store.document("roster") is None
    store.set_document("roster", {"members": [{"name": "Jürgen"}]})
    store.set_document("roster", {"members": []})
    store.set_document("next-series", [1, 2.5, None, "x"])
    store.close()
    store = open_store(store_target)
    try:
        assert store.document("roster") == {"members": []}
        assert store.document("next-series") == [1, 2.5, None, "x"]
    finally:
        store.close()


def test_two_stores_on_one_database_store_each_event_once(store_target: str) -> None:
    """Two collectors (here two stores in threads) get the same batches at once."""
    first = open_store(store_target)
    paired(first)
    entries = journal_entries(events(60))
    batches = [entries[:n] for n in range(10, 61, 10)]
    errors: list[BaseException] = []

    def send(club: CollectorStore) -> None:
        try:
            for batch in batches:
                club.store_batch(DEVICE, batch, now=1.0)
        except BaseException as exc:  # noqa: BLE001 - shown by the assertion below
            errors.append(exc)

    second = open_store(store_target)
    try:
        threads = [threading.Thread(target=send, args=(club,)) for club in (first, second)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert errors == [] and first.held(DEVICE) == 60
        assert rows(store_target, "SELECT COUNT(*), COUNT(DISTINCT seq) FROM events") == [(60, 60)]
    finally:
        first.close()
        second.close()


def test_the_schema_is_versioned_and_a_newer_database_is_refused(store: CollectorStore, store_target: str) -> None:
    assert LATEST >= 2
    assert [v for v, in rows(store_target, "SELECT version FROM schema_version ORDER BY version")] == list(
        range(1, LATEST + 1))
    store.close()
    open_store(store_target).close()  # opened again: nothing run twice
    assert rows(store_target, "SELECT COUNT(*), MAX(version) FROM schema_version") == [(LATEST, LATEST)]
    if is_postgres_url(store_target):
        import psycopg

        with psycopg.connect(store_target) as db:
            db.execute("INSERT INTO schema_version VALUES (%s, 'from the future', 0)", (LATEST + 1,))
    else:
        with sqlite3.connect(store_target) as lite:
            lite.execute("INSERT INTO schema_version VALUES (?, 'from the future', 0)", (LATEST + 1,))
        lite.close()
    with pytest.raises(SchemaError, match=f"schema version {LATEST + 1}.*update skattisch"):
        open_store(store_target)


def test_an_unreachable_postgres_is_named_without_its_password() -> None:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        url = f"postgresql://liga:geheim@127.0.0.1:{closed.getsockname()[1]}/liga"
    with pytest.raises(StoreError, match=r"cannot connect to postgresql://liga:\*\*\*@127\.0\.0\.1") as refused:
        open_store(url)
    assert "geheim" not in str(refused.value)
    done = subprocess.run([sys.executable, "-m", "ui.cli", "club", "tables", "--db", url], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "skattisch club: cannot connect to" in done.stderr and "geheim" not in done.stderr


def test_the_postgres_store_carries_on_after_the_server_restarted(postgres_server: PostgresServer) -> None:
    import psycopg

    url = postgres_server.new_database()
    store = open_store(url)
    try:
        paired(store)
        entries = journal_entries(events(4))
        store.store_batch(DEVICE, entries[:2], now=1.0)
        assert store.held(DEVICE) == 2  # the reader's connection is open now
        postgres_server.restart()  # every session cut
        assert store.held(DEVICE) == 2 and store.secret(DEVICE) == "geheim"  # a read is tried again
        try:
            store.store_batch(DEVICE, entries, now=2.0)
        except psycopg.OperationalError:  # the write that found the connection broken: the table sends again
            store.store_batch(DEVICE, entries, now=3.0)
        assert store.held(DEVICE) == 4 and store.entries(DEVICE, "liste-1") == entries
    finally:
        store.close()


def test_without_postgres_installed_its_tests_say_why_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests import pg_server

    monkeypatch.setattr(pg_server, "postgres_program", lambda name: None)
    assert pg_server.missing_binaries() == ("PostgreSQL not installed (initdb, pg_ctl missing): "
                                            "apt install postgresql")
