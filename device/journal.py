"""The journal's hash chain: one definition for the table's store, its check and the laptop.

A list's journal is a file of JSON lines, one event per line. Each line carries the hash of
the line before it (``prev``) and its own ``hash``, a SHA-256 over that previous hash and the
event's canonical JSON. The hash is the line's checksum and its link at once: changing any
character of any event, dropping, swapping or inserting a line breaks the chain from there on.
The last line's hash is the chain's *head*: the players' closing confirmations name it, and the
laptop verifies a synced list against it.

>>> event = {"type": "list_opened", "seq": 1, "id": "e1"}
>>> line = journal_line(GENESIS, event)
>>> entry = parse_line(line, prev=GENESIS)
>>> entry.event == event and entry.prev == GENESIS and entry.hash == chain_hash(GENESIS, event)
True
>>> parse_line(line.replace(b'"e1"', b'"e2"'), prev=GENESIS)
Traceback (most recent call last):
...
device.journal.ChainError: the line's checksum does not match its content
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from device.errors import SkatError

__all__ = [
    "GENESIS", "ChainError", "JournalEntry", "canonical_json", "chain_hash", "hashed_journal_line", "journal_line",
    "parse_line", "verify_chain",
]

GENESIS = "0" * 64
"""The ``prev`` of a list's first event: the chain starts from nothing."""


class ChainError(SkatError, ValueError):
    """A journal line or a chain of events is damaged: bad JSON, checksum or link."""


@dataclass(frozen=True, slots=True)
class JournalEntry:
    """One whole, verified journal line."""

    prev: str
    hash: str
    event: dict[str, Any]


def canonical_json(event: Mapping[str, Any]) -> bytes:
    """The event's bytes that the hash covers: sorted keys, no spaces, UTF-8.

    >>> canonical_json({"b": 1, "a": "ü"})
    b'{"a":"\\xc3\\xbc","b":1}'
    """
    return json.dumps(event, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def chain_hash(prev: str, event: Mapping[str, Any]) -> str:
    """The hash of a line: SHA-256 over the previous line's hash, a newline and the event."""
    return canonical_hash(prev, canonical_json(event))


def canonical_hash(prev: str, canonical: bytes) -> str:
    """:func:`chain_hash` of an event already as its :func:`canonical_json` bytes."""
    digest = hashlib.sha256(prev.encode("ascii"))
    digest.update(b"\n")
    digest.update(canonical)
    return digest.hexdigest()


def journal_line(prev: str, event: Mapping[str, Any]) -> bytes:
    """The whole line (with its newline) that appends ``event`` after the line hashed ``prev``."""
    return hashed_journal_line(prev, event)[0]


def hashed_journal_line(prev: str, event: Mapping[str, Any]) -> tuple[bytes, str]:
    """:func:`journal_line` and the line's hash (:func:`chain_hash`), the hash computed once."""
    line_hash = chain_hash(prev, event)
    body = {"prev": prev, "hash": line_hash, "event": dict(event)}
    line = json.dumps(body, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8") + b"\n"
    return line, line_hash


def _is_hash(value: object) -> bool:
    return isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)


def parse_line(line: bytes | str, *, prev: str | None = None) -> JournalEntry:
    """Parse and verify one line; ``prev`` (if given) is the hash the line must link to.

    Raises :class:`ChainError` naming what is wrong.
    """
    try:
        data = json.loads(line)
    except (ValueError, RecursionError) as exc:
        raise ChainError(f"the line is not whole JSON ({exc})") from None
    if not isinstance(data, dict) or set(data) != {"prev", "hash", "event"}:
        raise ChainError("the line is not a journal entry (prev, hash, event)")
    line_prev, line_hash, event = data["prev"], data["hash"], data["event"]
    if not _is_hash(line_prev) or not _is_hash(line_hash) or not isinstance(event, dict):
        raise ChainError("the line's prev, hash or event has the wrong form")
    try:
        expected = chain_hash(line_prev, event)
    except ValueError as exc:
        raise ChainError(f"the event cannot be hashed ({exc})") from None
    if expected != line_hash:
        raise ChainError("the line's checksum does not match its content")
    if prev is not None and line_prev != prev:
        raise ChainError("the chain is broken: the line does not follow the one before it")
    return JournalEntry(line_prev, line_hash, event)


def verify_chain(links: Iterable[tuple[str, str, Mapping[str, Any]]], *, prev: str = GENESIS) -> str:
    """Check ``(prev, hash, event)`` links in order, starting after ``prev``; return the head.

    Raises :class:`ChainError` naming the position (0-based) of the first bad link.

    >>> a = {"seq": 1}; b = {"seq": 2}
    >>> ha = chain_hash(GENESIS, a); hb = chain_hash(ha, b)
    >>> verify_chain([(GENESIS, ha, a), (ha, hb, b)]) == hb
    True
    >>> verify_chain([(GENESIS, ha, a), (GENESIS, hb, b)])
    Traceback (most recent call last):
    ...
    device.journal.ChainError: link 1: the chain is broken: it does not follow the one before it
    """
    head = prev
    for position, (link_prev, link_hash, event) in enumerate(links):
        if link_prev != head:
            raise ChainError(f"link {position}: the chain is broken: it does not follow the one before it")
        try:
            expected = chain_hash(link_prev, event)
        except ValueError as exc:
            raise ChainError(f"link {position}: the event cannot be hashed ({exc})") from None
        if expected != link_hash:
            raise ChainError(f"link {position}: the checksum does not match the event")
        head = link_hash
    return head
