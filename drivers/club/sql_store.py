"""The collector store's logic over SQL, shared by both engines, and the SQLite adapter.

Every check-and-write of a batch is one transaction, so the collector stays stateless over its
store and a league can run several collector processes on one PostgreSQL database
(:mod:`drivers.club.pg_store`). The schema is created and upgraded on opening by numbered
migrations (:mod:`drivers.club.migrations`).

SQLite (stdlib): one file (by default ``club.sqlite3`` under the user's data directory), WAL,
``synchronous=FULL`` (an acknowledged event is on disk), one write connection behind a lock,
a read connection per thread. Tables::

    devices    device, name, secret (NULL once unpaired), paired_at, last_contact, held, resend,
               app_version (the program version the table's last batch said it runs)
    events     (device, seq) primary key, id (unique per device), list_id, prev, hash, event (its canonical
               JSON: the bytes its hash is over)
    lists      (device, list_id): head (chain hash of its last event), count, first and last seq
    conflicts  refused entries whose (device, seq) was held with other content, kept aside: one row
               per (device, seq, content) with how often it was sent, first and last time
    nonces     the signed requests' nonces until their time is stale (a replay is refused across restarts)
    pair_codes one-time six-digit codes with their expiry and wrong tries
    pair_tries wrong pairing codes by the address they came from, kept ten minutes
    documents  what the laptop hands the tables with each ack (roster, next series), by name
    evening_money  an evening's Preisskat parts as JSON, by (evening, part): "conditions",
               "kasse" (what was ticked paid), "released" (the prizes shown publicly)
    schema_version  the migrations the database has had
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

from device.journal import JournalEntry
from device.sync import BatchConflict, Known, SyncRefused, plan_batch
from drivers.club.migrations import CONFLICT_KEY, Db, Dialect, canonical, migrate, schema_version
from drivers.club.store_port import BatchResult, ConflictInfo, ListInfo, TableInfo

PAIR_TRIES = 5
"""Wrong pairing codes from one source (a client's address) within :data:`PAIR_WINDOW`; then it
waits (``too_many_tries``, even with the right code), and no open code is touched."""
PAIR_WINDOW = 600.0
PAIR_BUDGET = 50
"""Wrong codes from anywhere while a code is open before it is void: guessing one of a
million codes succeeds at most 50 times in a million, however many sources guess; a few
typos elsewhere leave a day-long code valid."""


def refuse_locked_source(db: Db, source: str, now: float) -> None:
    """Refuse a pairing try from ``source`` while it has had :data:`PAIR_TRIES` wrong codes in the
    last :data:`PAIR_WINDOW` seconds (inside the pairing's transaction; stale tries are dropped)."""
    db.execute("DELETE FROM pair_tries WHERE at < ?", (now - PAIR_WINDOW,))
    wrong = int(db.execute("SELECT COUNT(*) FROM pair_tries WHERE source = ?", (source,)).fetchone()[0])
    if wrong >= PAIR_TRIES:
        raise SyncRefused("too_many_tries", f"{wrong} wrong pairing codes from here in the last "
                                            f"{PAIR_WINDOW / 60:.0f} minutes: wait, then try again "
                                            "(the codes shown stay valid)", 429)


def count_wrong_try(db: Db, source: str, now: float, codes: str) -> None:
    """A wrong code from ``source``: counted for it, and once on each open code of table ``codes``."""
    db.execute("INSERT INTO pair_tries (source, at) VALUES (?, ?)", (source, now))
    db.execute(f"UPDATE {codes} SET tries = tries + 1")


class SqlCollectorStore:
    """The store's logic over SQL, for both engines; a subclass brings the connections.

    A subclass sets :attr:`dialect`, opens its connections, and gives :meth:`_transaction` (one
    write transaction at a time, committed on leaving, rolled back on an exception) and
    :meth:`_reader` (a new connection for one thread's reads, autocommitted; :meth:`_read` keeps
    one per thread and :meth:`close` closes them all). Statements use ``?`` placeholders
    and the SQL both engines speak (``ON CONFLICT … DO``); what differs is in :attr:`_lock_device`
    and :data:`~drivers.club.migrations.CONFLICT_KEY`.
    """

    dialect: Dialect = "sqlite"
    _lock_device = ""  # locks the device's row for the batch (PostgreSQL: several processes may write)
    _integrity_errors: tuple[type[Exception], ...] = (sqlite3.IntegrityError,)

    def _transaction(self) -> AbstractContextManager[Db]:
        raise NotImplementedError

    _lock: threading.Lock
    _local: threading.local
    _readers: list[Any]  # every thread's read connection, closed with the store
    _write: Any

    def _reader(self) -> Any:
        """A new connection for one thread's reads."""
        raise NotImplementedError

    def _read(self) -> Db:
        """This thread's read connection (opened on its first read)."""
        connection: Db | None = getattr(self._local, "connection", None)
        if connection is None:
            connection = self._reader()
            self._local.connection = connection
            with self._lock:
                self._readers.append(connection)
        return connection

    def _migrate(self) -> None:
        with self._transaction() as db:
            migrate(db, self.dialect, now=time.time())

    def schema_version(self) -> int:
        """The highest migration this database has had."""
        with self._transaction() as db:
            return schema_version(db, self.dialect)

    # -- pairing -----------------------------------------------------------------------------

    def add_pairing_code(self, code: str, expires: float) -> None:
        with self._transaction() as db:
            db.execute("INSERT INTO pair_codes (code, expires, tries) VALUES (?, ?, 0) "
                       "ON CONFLICT (code) DO UPDATE SET expires = excluded.expires, tries = 0", (code, expires))

    def pair(self, code: str, device: str, name: str, secret: str, *, now: float, source: str = "") -> None:
        """Take a pairing code (once) and give ``device`` its secret. A wrong code counts against
        ``source`` (the client's address: :func:`refuse_locked_source`) and once on every open code
        (void after :data:`PAIR_BUDGET`); kept: the refusal is raised after the transaction."""
        with self._transaction() as db:
            refuse_locked_source(db, source, now)
            db.execute("DELETE FROM pair_codes WHERE expires < ? OR tries >= ?", (now, PAIR_BUDGET))
            taken = int(db.execute("DELETE FROM pair_codes WHERE code = ?", (code,)).rowcount) == 1
            if taken:
                db.execute(
                    "INSERT INTO devices (device, name, secret, paired_at) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (device) DO UPDATE SET name = excluded.name, secret = excluded.secret, "
                    "paired_at = excluded.paired_at", (device, name, secret, now))
            else:
                count_wrong_try(db, source, now, "pair_codes")
        if not taken:
            raise SyncRefused("bad_code", "this pairing code is not valid (wrong, used or expired): "
                                          "show a new one with 'skattisch club pair'", 403)

    def secret(self, device: str) -> str | None:
        row = self._read().execute("SELECT secret FROM devices WHERE device = ?", (device,)).fetchone()
        return None if row is None else row[0]

    def ensure_device(self, device: str, name: str, *, now: float) -> None:
        """Know ``device`` without pairing it (its lists came on a USB stick)."""
        with self._transaction() as db:
            self.ensure_device_in(db, device, name, now=now)

    @staticmethod
    def ensure_device_in(db: Db, device: str, name: str, *, now: float) -> None:
        """:meth:`ensure_device` inside the caller's transaction ``db``."""
        db.execute("INSERT INTO devices (device, name, secret, paired_at) VALUES (?, ?, NULL, ?) "
                   "ON CONFLICT (device) DO NOTHING", (device, name, now))

    def unpair(self, device: str) -> bool:
        with self._transaction() as db:
            return int(db.execute("UPDATE devices SET secret = NULL WHERE device = ? AND secret IS NOT NULL",
                                  (device,)).rowcount) > 0

    def use_nonce(self, device: str, nonce: str, *, expires: float, now: float) -> bool:
        """Keep a signed request's nonce until ``expires``; ``False`` if it was seen (a replay).

        Kept on disk, so a replay is refused after a restart too; nonces past their expiry (their
        requests are refused as stale anyway) are dropped here.
        """
        with self._transaction() as db:
            db.execute("DELETE FROM nonces WHERE expires < ?", (now,))
            return int(db.execute("INSERT INTO nonces (device, nonce, expires) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                                  (device, nonce, expires)).rowcount) == 1

    # -- events ------------------------------------------------------------------------------

    def store_batch(self, device: str, entries: Sequence[JournalEntry], *, now: float,
                    app_version: str | None = None) -> BatchResult:
        """Check ``entries`` against what is held and store the new ones, all or nothing; the
        table's ``app_version`` (if it said one) is noted with its contact."""
        with self._transaction() as db:
            result, conflict = self.store_batch_in(db, device, entries, now=now, app_version=app_version)
        if conflict is not None:  # the conflict is kept (committed); the batch is not
            raise conflict
        return result

    def store_batch_in(self, db: Db, device: str, entries: Sequence[JournalEntry], *, now: float,
                       app_version: str | None = None) -> tuple[BatchResult, BatchConflict | None]:
        """:meth:`store_batch` inside the caller's transaction ``db`` (the league stores a forward
        with its own rows in one): on a conflict the conflict's row is written, nothing else, and
        the conflict returned for the caller to raise once that is committed."""
        row = db.execute("SELECT held FROM devices WHERE device = ?" + self._lock_device, (device,)).fetchone()
        if row is None:
            raise SyncRefused("not_paired", f"the table {device} is not paired with this laptop", 401)
        held = int(row[0])
        heads, counts = self._lists_state(db, device, entries)
        try:
            plan = plan_batch(entries, held=held, known=self._known(db, device, entries, held),
                              heads=heads, counts=counts)
        except BatchConflict as exc:
            c = exc.conflict
            db.execute("INSERT INTO conflicts (device, seq, held_id, sent, at, last_at) VALUES (?, ?, ?, ?, ?, ?) "
                       f"ON CONFLICT {CONFLICT_KEY[self.dialect]} DO UPDATE SET count = conflicts.count + 1, "
                       "last_at = excluded.last_at", (device, c.seq, c.held.id, canonical(_entry_dict(c.sent)), now, now))
            self._touch_device(db, device, entries, held, now, app_version)
            return BatchResult(held, 0, 0), exc
        self._insert(db, device, plan.new, plan.texts, now)
        for list_id, head in plan.heads.items():
            seqs = [int(e.event["seq"]) for e in plan.new if e.event["list_id"] == list_id]
            db.execute(
                "INSERT INTO lists (device, list_id, head, count, first_seq, last_seq) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (device, list_id) DO UPDATE SET head = excluded.head, count = excluded.count, "
                "last_seq = excluded.last_seq",
                (device, list_id, head, plan.counts[list_id], min(seqs), max(seqs)))
        held += len(plan.new)
        self._touch_device(db, device, entries, held, now, app_version)
        return BatchResult(held, len(plan.new), plan.duplicates), None

    @staticmethod
    def _touch_device(db: Db, device: str, entries: Sequence[JournalEntry], held: int, now: float,
                      app_version: str | None) -> None:
        from_start = bool(entries) and int(entries[0].event["seq"]) == 1  # a resend request is answered
        db.execute("UPDATE devices SET last_contact = ?, held = ?, resend = CASE WHEN ? THEN 0 ELSE resend END, "
                   "app_version = COALESCE(?, app_version) WHERE device = ?",
                   (now, held, from_start, app_version, device))

    @staticmethod
    def _known(db: Db, device: str, entries: Sequence[JournalEntry], held: int) -> dict[int, Known]:
        seqs = [int(e.event["seq"]) for e in entries if int(e.event["seq"]) <= held]
        if not seqs:
            return {}
        rows = db.execute("SELECT seq, id, hash FROM events WHERE device = ? AND seq BETWEEN ? AND ?",
                          (device, min(seqs), max(seqs)))
        return {seq: Known(event_id, hash_) for seq, event_id, hash_ in rows}

    @staticmethod
    def _lists_state(db: Db, device: str,
                     entries: Sequence[JournalEntry]) -> tuple[dict[str, str], dict[str, int]]:
        """The chain head and event count the laptop holds for each list the batch touches."""
        heads, counts = {}, {}
        for list_id in {str(e.event["list_id"]) for e in entries}:
            row = db.execute("SELECT head, count FROM lists WHERE device = ? AND list_id = ?",
                             (device, list_id)).fetchone()
            if row is not None:
                heads[list_id], counts[list_id] = str(row[0]), int(row[1])
        return heads, counts

    def _insert(self, db: Db, device: str, entries: Sequence[JournalEntry], texts: Sequence[str], now: float) -> None:
        """The new entries, each event kept as the canonical JSON its hash was checked over."""
        try:
            db.executemany(
                "INSERT INTO events (device, seq, id, list_id, prev, hash, event, received) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(device, int(e.event["seq"]), str(e.event["id"]), str(e.event["list_id"]), e.prev, e.hash, text, now)
                 for e, text in zip(entries, texts, strict=True)])
        except self._integrity_errors:
            raise SyncRefused("conflict", "an event id of this batch is already stored under another seq", 409) from None

    def held(self, device: str) -> int:
        row = self._read().execute("SELECT held FROM devices WHERE device = ?", (device,)).fetchone()
        return 0 if row is None else int(row[0])

    def request_resend(self, device: str) -> bool:
        """Ask the table to send everything again with its next contact."""
        with self._transaction() as db:
            return int(db.execute("UPDATE devices SET resend = 1 WHERE device = ?", (device,)).rowcount) > 0

    def resend_requested(self, device: str) -> bool:
        row = self._read().execute("SELECT resend FROM devices WHERE device = ?", (device,)).fetchone()
        return bool(row and row[0])

    # -- documents ---------------------------------------------------------------------------

    def set_document(self, name: str, value: Any) -> None:
        with self._transaction() as db:
            db.execute("INSERT INTO documents (name, body) VALUES (?, ?) "
                       "ON CONFLICT (name) DO UPDATE SET body = excluded.body", (name, json.dumps(value)))

    def document(self, name: str) -> Any:
        row = self._read().execute("SELECT body FROM documents WHERE name = ?", (name,)).fetchone()
        return None if row is None else json.loads(row[0])

    # -- the evening's money (conditions, Kasse) ------------------------------------------------

    def set_money(self, evening: str, part: str, value: Any) -> None:
        with self._transaction() as db:
            db.execute("INSERT INTO evening_money (evening, part, body) VALUES (?, ?, ?) "
                       "ON CONFLICT (evening, part) DO UPDATE SET body = excluded.body",
                       (evening, part, json.dumps(value)))

    def money(self, evening: str, part: str) -> Any:
        row = self._read().execute("SELECT body FROM evening_money WHERE evening = ? AND part = ?",
                                   (evening, part)).fetchone()
        return None if row is None else json.loads(row[0])

    # -- reads -------------------------------------------------------------------------------

    def tables(self) -> list[TableInfo]:
        rows = self._read().execute(
            "SELECT d.device, d.name, d.secret IS NOT NULL, d.paired_at, d.last_contact, d.held, "
            "(SELECT COUNT(*) FROM conflicts c WHERE c.device = d.device), "
            "(SELECT COALESCE(SUM(c.count), 0) FROM conflicts c WHERE c.device = d.device), d.app_version "
            "FROM devices d ORDER BY d.name, d.device")
        return [TableInfo(r[0], r[1], bool(r[2]), r[3], r[4], r[5], r[6], r[7], r[8]) for r in rows]

    def lists(self, device: str | None = None) -> list[ListInfo]:
        query = "SELECT device, list_id, head, count, first_seq, last_seq FROM lists"
        rows = (self._read().execute(query + " ORDER BY device, first_seq") if device is None else
                self._read().execute(query + " WHERE device = ? ORDER BY first_seq", (device,)))
        return [ListInfo(*r) for r in rows]

    def events(self, device: str, list_id: str) -> list[dict[str, Any]]:
        """A list's events as the table recorded them, in order."""
        rows = self._read().execute("SELECT event FROM events WHERE device = ? AND list_id = ? ORDER BY seq",
                                    (device, list_id))
        return [json.loads(r[0]) for r in rows]

    def entries(self, device: str, list_id: str) -> list[JournalEntry]:
        rows = self._read().execute(
            "SELECT prev, hash, event FROM events WHERE device = ? AND list_id = ? ORDER BY seq", (device, list_id))
        return [JournalEntry(r[0], r[1], json.loads(r[2])) for r in rows]

    def event_at(self, device: str, seq: int) -> dict[str, Any] | None:
        """The event ``device`` recorded as ``seq`` (None if the laptop does not hold it)."""
        row = self._read().execute("SELECT event FROM events WHERE device = ? AND seq = ?", (device, seq)).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def device_events(self, device: str, after: int = 0) -> list[dict[str, Any]]:
        rows = self._read().execute("SELECT event FROM events WHERE device = ? AND seq > ? ORDER BY seq",
                                    (device, after))
        return [json.loads(r[0]) for r in rows]

    def device_entries(self, device: str, after: int = 0, limit: int | None = None) -> list[JournalEntry]:
        """The table's entries after seq ``after`` in seq order, at most ``limit`` (what the club
        forwards to the league next: one read of the rows sent, not of every list)."""
        query = "SELECT prev, hash, event FROM events WHERE device = ? AND seq > ? ORDER BY seq"
        rows = (self._read().execute(query, (device, after)) if limit is None else
                self._read().execute(query + " LIMIT ?", (device, after, limit)))
        return [JournalEntry(r[0], r[1], json.loads(r[2])) for r in rows]

    def conflicts(self, device: str | None = None) -> list[ConflictInfo]:
        query = "SELECT id, device, seq, held_id, sent, at, count, last_at FROM conflicts"
        rows = (self._read().execute(query + " ORDER BY id") if device is None else
                self._read().execute(query + " WHERE device = ? ORDER BY id", (device,)))
        return [ConflictInfo(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5], r[6], r[7]) for r in rows]

    def close(self) -> None:
        with self._lock:
            for connection in (self._write, *self._readers):
                connection.close()
            self._readers.clear()
        self._local = threading.local()


def _entry_dict(entry: JournalEntry) -> dict[str, Any]:
    return {"prev": entry.prev, "hash": entry.hash, "event": entry.event}


class SqliteCollectorStore(SqlCollectorStore):
    """The collector's store in one SQLite file (see the module docstring)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._local = threading.local()
        self._readers: list[sqlite3.Connection] = []
        self._write = self._connect()
        try:
            self._migrate()
        except BaseException:
            self._write.close()
            raise

    def _connect(self) -> sqlite3.Connection:
        connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=FULL")
        connection.execute("PRAGMA busy_timeout=30000")
        return connection

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            db = self._write
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def _reader(self) -> sqlite3.Connection:
        return self._connect()
