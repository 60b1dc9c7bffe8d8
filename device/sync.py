"""The sync protocol's pure parts: request signing, batch validation and the laptop's check.

A table sends its journal entries (``{"prev", "hash", "event"}``, see :mod:`device.journal`)
in seq order; the laptop stores each event once, keyed by (device, seq), and acknowledges the
highest contiguous seq it holds. Everything here is plain data in and out, shared by the
table's sync client (``drivers/sync.py``) and the laptop's collector (``drivers/club/``); the
docs/reference/sync.md is the reference.

Signing: every request after pairing carries the device id, a timestamp, a nonce and an
HMAC-SHA256 with the table's secret over method, path, timestamp, nonce and the body's hash.

>>> secret = "00" * 32
>>> headers = sign_request(secret, "t1", "POST", "/api/v1/events", b"{}", now=1000.0, nonce="ab" * 8)
>>> verify_request(secret, "POST", "/api/v1/events", b"{}", headers, now=1010.0) == "t1"
True
>>> verify_request(secret, "POST", "/api/v1/events", b"{ }", headers, now=1010.0)
Traceback (most recent call last):
...
device.sync.SyncRefused: bad_signature: the request's signature does not match (wrong secret or changed on the way)
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from device.errors import SkatError
from device.journal import GENESIS, JournalEntry, canonical_hash, canonical_json, chain_hash

__all__ = [
    "API", "BatchPlan", "MAX_BATCH", "MAX_BODY", "MAX_SKEW", "PROTOCOL_VERSION", "SyncRefused", "TableBatch",
    "check_device_id", "journal_entries", "parse_batch", "parse_pair_request", "parse_table_batch", "plan_batch",
    "require_signed", "sign_request", "signing_text", "verify_request",
]

PROTOCOL_VERSION = 1
API = "/api/v1"
MAX_BODY = 1024 * 1024
"""Largest request body the laptop reads (1 MiB); larger ones are refused unread."""
MAX_BATCH = 500
"""Most entries a table puts in one batch (a batch of every-card events stays far below 1 MiB)."""
MAX_SKEW = 300.0
"""Seconds a request's timestamp may differ from the laptop's clock (replays older are stale)."""

H_DEVICE = "x-skattisch-device"
H_TIME = "x-skattisch-time"
H_NONCE = "x-skattisch-nonce"
H_SIGNATURE = "x-skattisch-signature"

_DEVICE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}")
_HEX = re.compile(r"[0-9a-f]+")
_APP_VERSION = re.compile(r"[0-9A-Za-z][0-9A-Za-z.+!_-]{0,39}")  # a version as pip writes it (PEP 440)


class SyncRefused(SkatError, ValueError):
    """A request the laptop refuses: ``code`` for machines, ``reason`` in words, the HTTP ``status``."""

    def __init__(self, code: str, reason: str, status: int = 400) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason
        self.status = status

    def to_json(self) -> dict[str, Any]:
        return {"v": PROTOCOL_VERSION, "error": self.code, "reason": self.reason}


def check_device_id(value: object) -> str:
    """A device id as the protocol allows it (1–100 letters, digits, ``_ . : -``).

    >>> check_device_id("3f2a-tisch")
    '3f2a-tisch'
    >>> check_device_id("../x")
    Traceback (most recent call last):
    ...
    device.sync.SyncRefused: bad_device: the device id '../x' is not allowed
    """
    if isinstance(value, str) and _DEVICE_ID.fullmatch(value):
        return value
    raise SyncRefused("bad_device", f"the device id {value!r} is not allowed")


# --- signing ------------------------------------------------------------------------------


def signing_text(method: str, path: str, timestamp: str, nonce: str, body: bytes) -> bytes:
    """What the signature covers: one line each, the body by its SHA-256."""
    digest = hashlib.sha256(body).hexdigest()
    return "\n".join((method.upper(), path, timestamp, nonce, digest)).encode("utf-8")


def _mac(secret: str, text: bytes) -> str:
    return hmac.new(bytes.fromhex(secret), text, hashlib.sha256).hexdigest()


def sign_request(secret: str, device: str, method: str, path: str, body: bytes, *, now: float,
                 nonce: str) -> dict[str, str]:
    """The headers that sign one request (``now``: the table's idea of the laptop's time)."""
    timestamp = f"{now:.3f}"
    return {
        "X-Skattisch-Device": device, "X-Skattisch-Time": timestamp, "X-Skattisch-Nonce": nonce,
        "X-Skattisch-Signature": _mac(secret, signing_text(method, path, timestamp, nonce, body)),
    }


def request_device(headers: Mapping[str, str]) -> str:
    """The device a request says it comes from (before its signature is checked)."""
    device = _header(headers, H_DEVICE)
    if device is None:
        raise SyncRefused("unsigned", "the request is not signed (no device, time and signature headers)", 401)
    return check_device_id(device)


def require_signed(headers: Mapping[str, str]) -> str:
    """The sender of a request that carries every signing header (checked before its secret is
    looked up: a request without them is refused on its headers alone)."""
    device = request_device(headers)
    if any(_header(headers, h) is None for h in (H_TIME, H_NONCE, H_SIGNATURE)):
        raise SyncRefused("unsigned", "the request is not signed (time, nonce or signature header missing)", 401)
    return device


def _header(headers: Mapping[str, str], name: str) -> str | None:
    for key, value in headers.items():
        if key.lower() == name:
            return value
    return None


def verify_request(secret: str | None, method: str, path: str, body: bytes, headers: Mapping[str, str], *,
                   now: float, max_skew: float = MAX_SKEW) -> str:
    """Check a request's signature and freshness; return its device id or raise :class:`SyncRefused`.

    ``secret`` is the device's secret (``None``: the device is not paired). Replays within
    the window are the caller's to refuse (by nonce); older ones are stale here.
    """
    device = request_device(headers)
    timestamp, nonce, signature = (_header(headers, h) for h in (H_TIME, H_NONCE, H_SIGNATURE))
    if timestamp is None or nonce is None or signature is None:
        raise SyncRefused("unsigned", "the request is not signed (time, nonce or signature header missing)", 401)
    if secret is None:
        raise SyncRefused("not_paired", f"the table {device} is not paired with this laptop: pair it again", 401)
    if not (0 < len(nonce) <= 64 and _HEX.fullmatch(nonce)):
        raise SyncRefused("unsigned", "the request's nonce is not hex", 401)
    expected = _mac(secret, signing_text(method, path, timestamp, nonce, body))
    if not hmac.compare_digest(expected, signature.lower()):
        raise SyncRefused("bad_signature",
                          "the request's signature does not match (wrong secret or changed on the way)", 401)
    try:
        sent = float(timestamp)
    except ValueError:
        raise SyncRefused("stale", f"the request's time {timestamp!r} is not a number", 401) from None
    if not abs(now - sent) <= max_skew:
        raise SyncRefused("stale", f"the request's time is {now - sent:.0f} s away from the laptop's clock "
                                   f"(at most {max_skew:.0f} s allowed): an old or replayed request", 401)
    return device


# --- payloads -----------------------------------------------------------------------------


def _load_object(body: bytes) -> dict[str, Any]:
    if len(body) > MAX_BODY:
        raise SyncRefused("too_large", f"the request has {len(body)} bytes, more than {MAX_BODY}", 413)
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise SyncRefused("bad_json", "the request's body is not JSON") from None
    if not isinstance(data, dict):
        raise SyncRefused("bad_payload", "the request's body must be a JSON object")
    if data.get("v") != PROTOCOL_VERSION:
        raise SyncRefused("bad_version", f"protocol version {data.get('v')!r} is not supported: "
                                         f"this laptop speaks version {PROTOCOL_VERSION}")
    return data


def parse_pair_request(body: bytes) -> tuple[str, str, str]:
    """``(code, device, name)`` of a pairing request.

    >>> parse_pair_request(b'{"v": 1, "code": "123456", "device": "t1", "name": "Tisch 1"}')
    ('123456', 't1', 'Tisch 1')
    """
    data = _load_object(body)
    code, name = data.get("code"), data.get("name", "")
    if not (isinstance(code, str) and len(code) == 6 and code.isdigit() and code.isascii()):
        raise SyncRefused("bad_payload", "the pairing code must be six digits")
    if not isinstance(name, str) or len(name) > 100:
        raise SyncRefused("bad_payload", "the table's name must be text of at most 100 characters")
    return code, check_device_id(data.get("device")), name


def _entry(raw: object, position: int, device: str) -> JournalEntry:
    if not isinstance(raw, dict) or set(raw) != {"prev", "hash", "event"}:
        raise SyncRefused("bad_payload", f"entry {position} is not a journal entry (prev, hash, event)")
    prev, hash_, event = raw["prev"], raw["hash"], raw["event"]
    if not all(isinstance(h, str) and len(h) == 64 and _HEX.fullmatch(h) for h in (prev, hash_)):
        raise SyncRefused("bad_payload", f"entry {position}: prev and hash must be 64 hex digits")
    if not isinstance(event, dict):
        raise SyncRefused("bad_payload", f"entry {position}: the event must be a JSON object")
    seq, event_id, list_id = event.get("seq"), event.get("id"), event.get("list_id")
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
        raise SyncRefused("bad_payload", f"entry {position}: the event's seq must be a whole number from 1")
    if not isinstance(event_id, str) or not event_id or len(event_id) > 100:
        raise SyncRefused("bad_payload", f"entry {position}: the event has no id")
    if not isinstance(list_id, str) or not _DEVICE_ID.fullmatch(list_id):
        raise SyncRefused("bad_payload", f"entry {position}: the event's list_id is missing or not allowed")
    if event.get("device") != device:
        raise SyncRefused("bad_payload", f"entry {position}: the event belongs to device {event.get('device')!r}, "
                                         f"not to {device!r} who sent it")
    return JournalEntry(prev, hash_, event)


def parse_batch(body: bytes, device: str) -> list[JournalEntry]:
    """The entries of a batch from ``device``: shape checked, seqs rising by one.

    >>> e1 = {"v": 1, "type": "x", "id": "a", "seq": 1, "device": "t1", "list_id": "L"}
    >>> entry = {"prev": GENESIS, "hash": chain_hash(GENESIS, e1), "event": e1}
    >>> body = json.dumps({"v": 1, "device": "t1", "entries": [entry]}).encode()
    >>> [e.event["seq"] for e in parse_batch(body, "t1")]
    [1]
    >>> parse_batch(body, "t2")
    Traceback (most recent call last):
    ...
    device.sync.SyncRefused: bad_payload: the batch names device 't1', but the request is signed by 't2'
    """
    return _batch_entries(_load_object(body), device)


@dataclass(frozen=True, slots=True)
class TableBatch:
    """A table's batch: its entries and the program version the table runs (``None``: the table
    does not say, as tables before the field did not)."""

    entries: list[JournalEntry]
    app_version: str | None


def parse_table_batch(body: bytes, device: str) -> TableBatch:
    """A batch from a table (:func:`parse_batch`) with the optional ``app_version`` it sends.

    >>> e1 = {"v": 1, "type": "x", "id": "a", "seq": 1, "device": "t1", "list_id": "L"}
    >>> entries = journal_entries([e1])
    >>> parse_table_batch(batch_body("t1", entries, app_version="0.2.0"), "t1").app_version
    '0.2.0'
    >>> parse_table_batch(batch_body("t1", entries), "t1").app_version is None
    True
    >>> parse_table_batch(batch_body("t1", entries, app_version="0.2 beta"), "t1")
    Traceback (most recent call last):
    ...
    device.sync.SyncRefused: bad_payload: the batch's app_version '0.2 beta' is not a version (at most 40 letters, digits and . + ! _ -)
    """
    data = _load_object(body)
    entries = _batch_entries(data, device)
    version = data.get("app_version")
    if version is not None and not (isinstance(version, str) and _APP_VERSION.fullmatch(version)):
        raise SyncRefused("bad_payload", f"the batch's app_version {version!r} is not a version "
                                         "(at most 40 letters, digits and . + ! _ -)")
    return TableBatch(entries, version)


def _batch_entries(data: dict[str, Any], device: str) -> list[JournalEntry]:
    if data.get("device") != device:
        raise SyncRefused("bad_payload", f"the batch names device {data.get('device')!r}, "
                                         f"but the request is signed by {device!r}")
    raw = data.get("entries")
    if not isinstance(raw, list):
        raise SyncRefused("bad_payload", "the batch has no list of entries")
    if len(raw) > MAX_BATCH:
        raise SyncRefused("too_large", f"the batch has {len(raw)} entries, at most {MAX_BATCH} are taken", 413)
    entries = [_entry(item, position, device) for position, item in enumerate(raw)]
    for position in range(1, len(entries)):
        if entries[position].event["seq"] != entries[position - 1].event["seq"] + 1:
            raise SyncRefused("out_of_order", f"entry {position}: seqs must rise by one within a batch "
                                              f"({entries[position - 1].event['seq']} then {entries[position].event['seq']})",
                              409)
    return entries


# --- the laptop's check -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Known:
    """What the laptop holds under one (device, seq): the event's id and its chain hash."""

    id: str
    hash: str


@dataclass(frozen=True, slots=True)
class BatchPlan:
    """What to store of a checked batch: the new entries in order, the new heads per list."""

    new: tuple[JournalEntry, ...]
    duplicates: int
    heads: dict[str, str] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    texts: tuple[str, ...] = ()  # each new entry's event as the canonical JSON its hash was checked over


@dataclass(frozen=True, slots=True)
class Conflict:
    """A sent entry whose (device, seq) the laptop holds with another id or content."""

    seq: int
    held: Known
    sent: JournalEntry


class BatchConflict(SyncRefused):
    """A refused batch that contains a conflicting (device, seq): kept aside, never stored."""

    def __init__(self, conflict: Conflict) -> None:
        super().__init__("conflict", f"seq {conflict.seq} is already stored with other content "
                                     f"(event {conflict.held.id}); the batch was refused and kept aside", 409)
        self.conflict = conflict


def plan_batch(entries: Sequence[JournalEntry], *, held: int, known: Mapping[int, Known],
               heads: Mapping[str, str], counts: Mapping[str, int] | None = None) -> BatchPlan:
    """Check a batch against what the laptop holds; return what to store, or raise.

    ``held``: the highest contiguous seq the laptop holds for the device; ``known``: the
    held events for the batch's seqs up to ``held``; ``heads``: the chain head of each list
    the batch touches (lists the laptop does not know start at GENESIS). A known seq with the
    same id and hash is a harmless resend; another id or hash is a :class:`BatchConflict`.
    A first new seq above ``held + 1`` is a gap (``out_of_order``); a new entry that does not
    extend its list's chain is ``broken_chain``.

    >>> a = {"seq": 1, "id": "a", "list_id": "L"}; b = {"seq": 2, "id": "b", "list_id": "L"}
    >>> ha = chain_hash(GENESIS, a); hb = chain_hash(ha, b)
    >>> batch = [JournalEntry(GENESIS, ha, a), JournalEntry(ha, hb, b)]
    >>> plan = plan_batch(batch, held=1, known={1: Known("a", ha)}, heads={"L": ha})
    >>> [e.event["id"] for e in plan.new], plan.duplicates, plan.heads == {"L": hb}
    (['b'], 1, True)
    >>> plan_batch(batch[1:], held=0, known={}, heads={})
    Traceback (most recent call last):
    ...
    device.sync.SyncRefused: out_of_order: the batch starts at seq 2, but the laptop holds up to seq 0: send from seq 1
    """
    heads_now = dict(heads)
    counts_now = dict(counts or {})
    new: list[JournalEntry] = []
    texts: list[str] = []
    duplicates = 0
    expected = held + 1
    for entry in entries:
        seq = int(entry.event["seq"])
        if seq <= held:
            have = known.get(seq)
            if have is None or have.id != entry.event["id"] or have.hash != entry.hash:
                raise BatchConflict(Conflict(seq, have or Known("?", "?"), entry))
            duplicates += 1
            continue
        if seq != expected:
            raise SyncRefused("out_of_order", f"the batch starts at seq {seq}, but the laptop holds up to seq "
                                              f"{held}: send from seq {held + 1}", 409)
        list_id = str(entry.event["list_id"])
        head = heads_now.get(list_id, GENESIS)
        text = canonical_json(entry.event)
        if entry.prev != head or canonical_hash(entry.prev, text) != entry.hash:
            raise SyncRefused("broken_chain", f"seq {seq} does not continue the hash chain of list {list_id}: "
                                              "the list was changed or an event is missing", 422)
        heads_now[list_id] = entry.hash
        counts_now[list_id] = counts_now.get(list_id, 0) + 1
        new.append(entry)
        texts.append(text.decode("utf-8"))
        expected += 1
    touched = {str(e.event["list_id"]) for e in new}
    return BatchPlan(tuple(new), duplicates, {k: heads_now[k] for k in touched},
                     {k: counts_now[k] for k in touched}, tuple(texts))


# --- the table's side ---------------------------------------------------------------------


def journal_entries(events: Iterable[Mapping[str, Any]], *, prev: str = GENESIS) -> list[JournalEntry]:
    """A list's events as journal entries: the chain from ``prev`` (GENESIS for a whole list).

    The same chain the journal writes (tests and benchmarks build batches with it).

    >>> entries = journal_entries([{"seq": 1}, {"seq": 2}])
    >>> entries[0].prev == GENESIS and entries[1].prev == entries[0].hash
    True
    """
    entries: list[JournalEntry] = []
    for event in events:
        entry = JournalEntry(prev, chain_hash(prev, event), dict(event))
        entries.append(entry)
        prev = entry.hash
    return entries


def entry_json(entry: JournalEntry) -> dict[str, Any]:
    """An entry as the batch carries it."""
    return {"prev": entry.prev, "hash": entry.hash, "event": entry.event}


def batch_body(device: str, entries: Sequence[JournalEntry], *, app_version: str | None = None) -> bytes:
    """The body of one batch request; ``app_version``: the program version the table runs (an
    optional field: a laptop takes batches with it and without it)."""
    body: dict[str, Any] = {"v": PROTOCOL_VERSION, "device": device, "entries": [entry_json(e) for e in entries]}
    if app_version is not None:
        body["app_version"] = app_version
    return canonical_json(body)
