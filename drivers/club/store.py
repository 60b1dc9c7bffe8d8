"""The collector's store: open it by name (:func:`open_store`), on SQLite or PostgreSQL.

The port and its values are in :mod:`drivers.club.store_port`, the SQL logic both engines
share and the SQLite adapter in :mod:`drivers.club.sql_store`, the PostgreSQL adapter in
:mod:`drivers.club.pg_store`, the schema's numbered migrations in :mod:`drivers.club.migrations`;
all of it is importable from here. SQLite is the laptop's embedded default; a league (or a
club that wants it) runs the same collector on PostgreSQL with ``--db postgresql://…``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from drivers.club.migrations import SchemaError, StoreError
from drivers.club.sql_store import PAIR_BUDGET, PAIR_TRIES, PAIR_WINDOW, SqlCollectorStore, SqliteCollectorStore
from drivers.club.store_port import (BatchResult, CollectorStore, ConflictInfo, ListInfo, TableInfo, is_postgres_url,
                                     redacted)

__all__ = [
    "PAIR_BUDGET", "PAIR_TRIES", "PAIR_WINDOW",
    "BatchResult", "CollectorStore", "ConflictInfo", "ListInfo", "SchemaError", "SqlCollectorStore",
    "SqliteCollectorStore", "StoreError", "TableInfo", "default_database", "is_postgres_url", "open_store", "redacted",
]


def default_database() -> Path:
    """``club.sqlite3`` in the user's data directory (Windows, macOS, Linux/XDG)."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        xdg = os.environ.get("XDG_DATA_HOME", "")
        base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".local" / "share"
    return base / "skattisch" / "club.sqlite3"


def open_store(target: str | os.PathLike[str]) -> CollectorStore:
    """The collector's store at ``target``: a ``postgresql://…`` URL or a SQLite file's path.

    The schema is created or brought up to date on opening (the program's own migrations).
    """
    if is_postgres_url(target):
        from drivers.club.pg_store import PostgresCollectorStore

        return PostgresCollectorStore(str(target))
    return SqliteCollectorStore(target)
