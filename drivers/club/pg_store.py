"""The collector's store on PostgreSQL (psycopg 3): the same port and logic as the SQLite store.

Everything but the connections is :class:`~drivers.club.store.SqlCollectorStore`'s. A write
runs in one transaction on the process's write connection (behind a lock, as on SQLite); across
processes the device's row is locked for a batch (``FOR UPDATE``), so two collectors on one
database never store the same seq twice, and the migrations take an advisory lock. Reads use a
connection per thread, autocommitted. Times are ``DOUBLE PRECISION``, the events' JSON is kept
as text: the canonical JSON the chain's hashes are over (``jsonb`` would change its bytes).

Needs ``pip install "skattisch[postgres]"`` (psycopg with its own libpq).
"""

from __future__ import annotations

import functools
import re
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from typing import Any

from drivers.club.migrations import StoreError, StoreUnavailable, migrate
from drivers.club.sql_store import SqlCollectorStore
from drivers.club.store_port import redacted

try:
    import psycopg
except ModuleNotFoundError:  # pragma: no cover - the laptop without the extra
    psycopg = None  # type: ignore[assignment]

PLAIN_INSERT = re.compile(r"INSERT INTO (?P<table>\w+) \((?P<columns>[\w, ]+)\) VALUES \((?:\?, )*\?\)")
MIGRATION_LOCK = 0x5C47_7115  # pg_advisory_xact_lock's key: one process migrates at a time


@functools.lru_cache(maxsize=256)
def _placeholders(sql: str) -> str:
    """The store's ``?`` placeholders as psycopg's ``%s`` (the store's SQL has no other ``?`` or ``%``)."""
    return sql.replace("?", "%s")


class _Connection:
    """A psycopg connection speaking the store's placeholders, with ``executemany`` as sqlite3 has it.

    After the server went away (restarted, a network break) the connection is broken: the next
    transaction starts on a new one (:meth:`usable`), and a read (``reader``: SELECTs outside a
    transaction only) is tried once more on a new one. A write is never repeated here: whether
    its commit arrived is not known, the table sends its batch again.
    """

    def __init__(self, url: str, *, reader: bool) -> None:
        self.url = url
        self.reader = reader
        self.connection = self._open()

    def _open(self) -> Any:
        try:
            return psycopg.connect(self.url, autocommit=True)
        except psycopg.OperationalError as exc:  # the server is not there (down, restarting, unreachable)
            raise StoreUnavailable(f"cannot connect to {redacted(self.url)}: {str(exc).strip()}") from None
        except psycopg.Error as exc:
            raise StoreError(f"cannot connect to {redacted(self.url)}: {str(exc).strip()}") from None

    def lost(self, exc: Exception) -> StoreUnavailable:
        """The error to raise for ``exc`` on a connection the server cut (the next use opens a new one)."""
        return StoreUnavailable(f"the connection to {redacted(self.url)} broke: {str(exc).strip()}")

    @contextmanager
    def transaction(self) -> Iterator[_Connection]:
        """One transaction; a connection found cut at its BEGIN (the server restarted since the last
        use) is opened anew once, as nothing of the transaction was sent yet."""
        with ExitStack() as stack:
            try:
                stack.enter_context(self.usable().connection.transaction())
            except psycopg.OperationalError:
                if not self.connection.broken:
                    raise
                self.connection = self._open()
                stack.enter_context(self.connection.transaction())
            yield self

    def close(self) -> None:
        self.connection.close()

    def usable(self) -> _Connection:
        if self.connection.closed:  # broken connections are closed by psycopg
            self.connection = self._open()
        return self

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        try:
            return self.usable().connection.execute(_placeholders(sql), params)
        except psycopg.OperationalError as exc:
            if not self.connection.broken:
                raise
            if not self.reader:
                raise self.lost(exc) from None
            self.connection = self._open()
            try:
                return self.connection.execute(_placeholders(sql), params)
            except psycopg.OperationalError as again:
                if self.connection.broken:
                    raise self.lost(again) from None
                raise

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """A plain ``INSERT INTO t (columns) VALUES (?, …)`` as one ``COPY`` (a batch's events: one
        round trip, not one per row; a duplicate key fails it as the INSERT would); others row by row."""
        plain = PLAIN_INSERT.fullmatch(sql.strip())
        if plain is None:
            with self.connection.cursor() as cursor:
                cursor.executemany(_placeholders(sql), rows)
            return
        with self.connection.cursor() as cursor, cursor.copy(f"COPY {plain['table']} ({plain['columns']}) "
                                                              "FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)


class PostgresCollectorStore(SqlCollectorStore):
    """The collector's store in a PostgreSQL database named by ``url`` (``postgresql://user@host/db``)."""

    dialect = "postgres"
    _lock_device = " FOR UPDATE"

    def __init__(self, url: str) -> None:
        if psycopg is None:
            raise StoreError('the PostgreSQL store needs psycopg: pip install "skattisch[postgres]"')
        self.url = url
        self._integrity_errors = (psycopg.IntegrityError,)
        self._lock = threading.Lock()
        self._local = threading.local()
        self._readers: list[_Connection] = []
        self._write = _Connection(url, reader=False)
        try:
            self._migrate()
        except BaseException:
            self._write.connection.close()
            raise

    def _migrate(self) -> None:
        with self._transaction() as db:
            db.execute("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))
            migrate(db, self.dialect, now=time.time())

    @contextmanager
    def _transaction(self) -> Iterator[_Connection]:
        with self._lock:
            try:
                with self._write.transaction() as db:
                    yield db
            except psycopg.OperationalError as exc:
                if not self._write.connection.broken:
                    raise
                raise self._write.lost(exc) from None

    def _reader(self) -> _Connection:
        return _Connection(self.url, reader=True)
