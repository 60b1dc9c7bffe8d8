"""One journal file: its lines, how they are verified, and what the store knows of it.

Each line is ``{"prev", "hash", "event"}`` (:func:`device.journal.journal_line`): the hash
covers the previous line's hash and the event's canonical JSON, so a changed character
anywhere, a lost, swapped or inserted line breaks the chain from there on. The event is
written with sorted keys, so its bytes in the line *are* its canonical JSON and reading
verifies a line with one SHA-256 over a slice (no re-encoding); a line in any other form is
verified the slow way by :func:`device.journal.parse_line`.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from device.journal import GENESIS, ChainError, JournalEntry, parse_line
from device.ports import JSONDict
from drivers.store.errors import JournalDamage, StoreError, StoreNotice
from drivers.store.files import TAIL_CHUNK, TORN_SUFFIX, _free_name, _first_line, _set_like, atomic_write
from drivers.store.values import _refuse_constant

# A line as journal_line writes it from a sorted event: the event's bytes are canonical JSON.
_FAST_LINE = re.compile(rb'\{"prev":"([0-9a-f]{64})","hash":"([0-9a-f]{64})","event":(\{.*\})\}',
                        re.DOTALL)


def _loads_event(data: bytes) -> JSONDict:
    try:
        event = json.loads(data, parse_constant=_refuse_constant)
    except (ValueError, RecursionError) as exc:
        raise ChainError(f"the event is not JSON a table can read ({exc})") from None
    if not isinstance(event, dict):
        raise ChainError("the event is not a JSON object")
    return event


def read_line(line: bytes, prev: str) -> JournalEntry:
    """Verify one journal line (without its newline) that must follow ``prev``.

    The quick way for lines this store writes (one SHA-256 over the event's bytes), else
    :func:`device.journal.parse_line`; both raise :class:`~device.journal.ChainError`.
    """
    try:
        return _read_line(line, prev)
    except RecursionError:
        raise ChainError("the line is nested too deeply to be an event") from None


def _read_line(line: bytes, prev: str) -> JournalEntry:
    match = _FAST_LINE.fullmatch(line)
    if match is not None:
        body = match.group(3)
        line_prev, line_hash = match.group(1).decode("ascii"), match.group(2).decode("ascii")
        digest = hashlib.sha256(match.group(1) + b"\n" + body).hexdigest()
        if digest == line_hash:
            if line_prev != prev:
                raise ChainError("the chain is broken: the line does not follow the one before it")
            return JournalEntry(line_prev, line_hash, _loads_event(body))
    entry = parse_line(line, prev=prev)
    # parse_line accepts NaN inside JSON text only if it hashes; refuse it like the quick way.
    _loads_event(json.dumps(entry.event, allow_nan=False).encode("utf-8"))
    return entry


_EVENTS = json.JSONDecoder(parse_constant=_refuse_constant)


def _quick_entries(lines: list[tuple[int, bytes]]) -> list[JournalEntry] | None:
    """Every line verified the quick way and all events parsed at once, or ``None`` if any
    line needs the careful way (then :func:`read_line` finds and names it)."""
    prevs, hashes, bodies = [], [], []
    prev = GENESIS.encode("ascii")
    for _, line in lines:
        match = _FAST_LINE.fullmatch(line)
        if match is None or match.group(1) != prev:
            return None
        line_prev, line_hash, body = match.groups()
        if hashlib.sha256(line_prev + b"\n" + body).hexdigest().encode("ascii") != line_hash:
            return None
        prevs.append(line_prev.decode("ascii"))
        hashes.append(line_hash.decode("ascii"))
        bodies.append(body)
        prev = line_hash
    try:
        events = _EVENTS.decode("[" + b",".join(bodies).decode("utf-8") + "]")
    except (ValueError, RecursionError):
        return None
    if len(events) != len(bodies) or not all(isinstance(event, dict) for event in events):
        return None
    return [JournalEntry(p, h, e) for p, h, e in zip(prevs, hashes, events)]



@dataclass
class _Journal:
    """What the store knows of one journal without holding its events."""

    list_id: str
    path: Path
    size: int = 0
    head: str = GENESIS
    first_seq: int | None = None
    first_at: str = ""
    last_seq: int | None = None
    problem: str | None = None        # first or last line unreadable at open
    seqs: list[int] | None = None     # per line: the event's seq (-1 if none); None until read
    offsets: list[int] = field(default_factory=list)  # per line: where it starts
    hashes: list[str] = field(default_factory=list)   # per line: its hash

    def order(self) -> tuple[bool, int, str, str]:
        return (self.first_seq is None, self.first_seq or 0, self.first_at, self.list_id)

    def note_event(self, event: Mapping[str, Any]) -> None:
        seq = event.get("seq")
        if isinstance(seq, int) and not isinstance(seq, bool):
            if self.first_seq is None:
                self.first_seq = seq
                at = event.get("at")
                self.first_at = at if isinstance(at, str) else ""
            self.last_seq = seq if self.last_seq is None else max(self.last_seq, seq)

    def index(self, entry: JournalEntry, offset: int) -> None:
        if self.seqs is not None:
            seq = entry.event.get("seq")
            self.seqs.append(seq if isinstance(seq, int) and not isinstance(seq, bool) else -1)
            self.offsets.append(offset)
            self.hashes.append(entry.hash)


def _move_tail_aside(path: Path, cut: int, suffix: str) -> Path:
    """Copy ``path``'s bytes from ``cut`` into a new file beside it, then cut them off."""
    like = os.stat(path)
    with open(path, "rb") as handle:
        handle.seek(cut)
        tail = handle.read()
    aside = _free_name(path, suffix)
    atomic_write(aside, tail)
    _set_like(aside, like)
    with open(path, "r+b") as handle:
        handle.truncate(cut)
        os.fsync(handle.fileno())
    return aside


def _split_lines(data: bytes) -> tuple[list[tuple[int, bytes]], bytes]:
    """(offset, line) for each whole line, and the torn rest after the last newline."""
    lines: list[tuple[int, bytes]] = []
    start = 0
    while True:
        end = data.find(b"\n", start)
        if end < 0:
            return lines, data[start:]
        lines.append((start, data[start:end]))
        start = end + 1




def open_journal(lid: str, path: Path, notices: list[StoreNotice]) -> _Journal:
    """Read a journal's first and last line; move a torn tail aside (and say so in ``notices``)."""
    journal = _Journal(lid, path)
    size = path.stat().st_size
    if size == 0:
        journal.seqs = []
        return journal
    with open(path, "rb") as handle:
        handle.seek(max(0, size - TAIL_CHUNK))
        tail = handle.read()
    cut = tail.rfind(b"\n")
    if not tail.endswith(b"\n"):
        if cut < 0 and size > len(tail):  # a last line longer than the chunk
            data = path.read_bytes()
            cut, tail = data.rfind(b"\n"), data
        start = size - len(tail) + cut + 1
        aside = _move_tail_aside(path, start, TORN_SUFFIX)
        notices.append(StoreNotice("torn", f"{path}: the last line was torn (a power cut while"
                                   f" writing); kept every whole line, moved the torn rest"
                                   f" ({size - start} bytes) to {aside.name}"))
        size = start
        tail = tail[: cut + 1]
    journal.size = size
    if size == 0:
        journal.seqs = []
        return journal
    try:
        last = tail[tail.rfind(b"\n", 0, len(tail) - 1) + 1: -1]
        if size > len(tail) and b"\n" not in tail[:-1]:
            raise ChainError("its last line is too long to be an event")
        last_entry = parse_line(last)
        first_entry = parse_line(_first_line(path).rstrip(b"\n"), prev=GENESIS)
    except (ChainError, RecursionError) as exc:
        journal.problem = str(exc) if isinstance(exc, ChainError) else "nested too deeply"
        return journal
    journal.head = last_entry.hash
    journal.note_event(first_entry.event)
    journal.note_event(last_entry.event)
    return journal


def read_journal(journal: _Journal) -> list[JournalEntry]:
    """Read and verify the whole journal; rebuild its index on the way."""
    try:
        data = journal.path.read_bytes() if journal.size else b""
    except OSError as exc:
        raise StoreError(f"{journal.path} cannot be read: {exc.strerror or exc}", path=journal.path) from exc
    lines, rest = _split_lines(data[: journal.size])
    entries = _quick_entries(lines)
    if entries is None:  # some line is not in the quick form, or damaged: line by line
        entries = []
        prev = GENESIS
        for number, (offset, line) in enumerate(lines, start=1):
            try:
                entry = read_line(line, prev)
            except ChainError as exc:
                raise JournalDamage(journal.path, number, offset, str(exc), len(entries)) from None
            entries.append(entry)
            prev = entry.hash
    if rest:
        raise JournalDamage(journal.path, len(lines) + 1, journal.size - len(rest),
                            "the line is not whole", len(entries))
    seqs = [seq if type(seq := e.event.get("seq")) is int else -1 for e in entries]
    journal.seqs, journal.offsets = seqs, [offset for offset, _ in lines]
    journal.hashes = [e.hash for e in entries]
    journal.head, journal.problem = entries[-1].hash if entries else GENESIS, None
    first = next((e.event for e, seq in zip(entries, seqs) if seq >= 0), None)
    journal.first_seq = journal.last_seq = None
    if first is not None:
        journal.note_event(first)
        journal.last_seq = max(seqs)
    return entries


def read_from(journal: _Journal, start: int) -> list[JournalEntry]:
    """The entries from line ``start`` (0-based) on, read from their offsets and verified."""
    if start >= len(journal.offsets):
        return []
    offset = journal.offsets[start]
    with open(journal.path, "rb") as handle:
        handle.seek(offset)
        data = handle.read(journal.size - offset)
    lines, _ = _split_lines(data)
    prev = journal.hashes[start - 1] if start else GENESIS
    entries = []
    for number, (at, line) in enumerate(lines, start=start + 1):
        try:
            entry = read_line(line, prev)
        except ChainError as exc:
            raise JournalDamage(journal.path, number, offset + at, str(exc), number - 1) from None
        entries.append(entry)
        prev = entry.hash
    return entries
