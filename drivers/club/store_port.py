"""The collector's store port: what the collector and its pages need from a store
(:class:`CollectorStore`), the values it answers with, and how a store is named (a SQLite
file's path or a ``postgresql://`` URL). The adapters: :mod:`drivers.club.sql_store` (SQLite,
and the SQL logic both engines share), :mod:`drivers.club.pg_store` (PostgreSQL);
:func:`drivers.club.store.open_store` opens either.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from device.journal import JournalEntry


@dataclass(frozen=True, slots=True)
class BatchResult:
    """A stored batch: the device's highest contiguous seq now, what was new, what was resent."""

    held: int
    stored: int
    duplicates: int


@dataclass(frozen=True, slots=True)
class TableInfo:
    device: str
    name: str
    paired: bool
    paired_at: float
    last_contact: float | None
    held: int
    conflicts: int
    conflict_sends: int = 0  # how often the conflicting entries were sent, retries included
    app_version: str | None = None  # the program version the table's last batch said it runs (None: not said)


@dataclass(frozen=True, slots=True)
class ListInfo:
    device: str
    list_id: str
    head: str
    count: int
    first_seq: int
    last_seq: int


@dataclass(frozen=True, slots=True)
class ConflictInfo:
    """A sent entry refused as a conflict: ``count`` times sent, first at ``at``, last at ``last_at``."""

    id: int
    device: str
    seq: int
    held_id: str
    sent: dict[str, Any]
    at: float
    count: int = 1
    last_at: float = 0.0


class CollectorStore(Protocol):
    """What the collector needs from its store (on SQLite or PostgreSQL: :func:`drivers.club.store.open_store`)."""

    # pairing
    def add_pairing_code(self, code: str, expires: float) -> None: ...
    def pair(self, code: str, device: str, name: str, secret: str, *, now: float, source: str = "") -> None: ...
    def secret(self, device: str) -> str | None: ...
    def ensure_device(self, device: str, name: str, *, now: float) -> None: ...
    def unpair(self, device: str) -> bool: ...
    def use_nonce(self, device: str, nonce: str, *, expires: float, now: float) -> bool: ...

    # events
    def store_batch(self, device: str, entries: Sequence[JournalEntry], *, now: float,
                    app_version: str | None = None) -> BatchResult: ...
    def held(self, device: str) -> int: ...
    def request_resend(self, device: str) -> bool: ...
    def resend_requested(self, device: str) -> bool: ...

    # what the ack carries
    def set_document(self, name: str, value: Any) -> None: ...
    def document(self, name: str) -> Any: ...

    # an evening's Preisskat money, by (evening id, part): "conditions", "kasse", "released"
    def set_money(self, evening: str, part: str, value: Any) -> None: ...
    def money(self, evening: str, part: str) -> Any: ...

    # reads (the dashboard's)
    def tables(self) -> list[TableInfo]: ...
    def lists(self, device: str | None = None) -> list[ListInfo]: ...
    def events(self, device: str, list_id: str) -> list[dict[str, Any]]: ...
    def entries(self, device: str, list_id: str) -> list[JournalEntry]: ...
    def device_events(self, device: str, after: int = 0) -> list[dict[str, Any]]: ...
    def device_entries(self, device: str, after: int = 0, limit: int | None = None) -> list[JournalEntry]: ...
    def event_at(self, device: str, seq: int) -> dict[str, Any] | None: ...
    def conflicts(self, device: str | None = None) -> list[ConflictInfo]: ...

    def close(self) -> None: ...

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(target: str | os.PathLike[str]) -> bool:
    """Whether ``target`` names a PostgreSQL database (``postgresql://…``) rather than a SQLite file."""
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


def redacted(target: str | os.PathLike[str]) -> str:
    """``target`` for messages: a URL without its password.

    >>> redacted("postgresql://liga:geheim@db.example/liga")
    'postgresql://liga:***@db.example/liga'
    """
    return re.sub(r"(://[^:/@]+):[^@/]*@", r"\1:***@", str(target))
