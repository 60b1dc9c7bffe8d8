"""The fake store: :class:`MemoryEventStore` behaves as the journal does (the same refusals,
order, chain heads, ``entries_after`` and checkpoints) for tests and ``skattisch run
--simulate``; :class:`MemoryDisk` is what it keeps across close and reopen."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from device.journal import GENESIS, JournalEntry, chain_hash
from device.ports import JSONDict
from drivers.store.errors import Recovery, StoreError, StoreNotice
from drivers.store.shared import OpenedStore
from drivers.store.values import _dump, _parse_json, check_list_id


@dataclass
class MemoryDisk:
    """What a :class:`MemoryEventStore` keeps across close and reopen: the fake's "disk".

    It holds JSON text, like the files do, so the fake refuses and returns exactly what the
    file store does. Tests may damage ``lists[list_id]`` to play a broken file.
    """

    lists: dict[str, str] = field(default_factory=dict)
    previous: dict[str, str] = field(default_factory=dict)
    moved_aside: dict[str, list[str]] = field(default_factory=dict)
    index: dict[str, str] = field(default_factory=dict)  # list id -> metadata JSON
    checkpoints: dict[str, tuple[int, str, bytes]] = field(default_factory=dict)
    device_id: str | None = None
    in_use: bool = False


class MemoryEventStore(OpenedStore):
    """The in-memory :class:`~device.ports.EventStore` with the file store's behaviour.

    Pass the same :class:`MemoryDisk` to a new store to "reopen" it. Thread-safe the same
    way; one open store per disk. The same refusals, order, chain heads, ``entries_after`` and
    checkpoints as the journal; a "file" damaged by a test is refused the same way, but
    ``recover`` restores the last good copy of the list (there are no lines to cut in memory).
    """

    def __init__(self, disk: MemoryDisk | None = None) -> None:
        self.disk = disk if disk is not None else MemoryDisk()
        if self.disk.in_use:
            raise StoreError("memory: is in use by another open store; close it first",
                             path="memory:")
        self.disk.in_use = True
        self._lock = threading.RLock()
        self._open = True
        self._written: dict[str, str] = {}  # list id -> the text this store last wrote (not parsed again)
        self.notices: list[StoreNotice] = []

    def __repr__(self) -> str:
        return f"MemoryEventStore({len(self.disk.index)} lists)"

    def append(self, list_id: str, events: Sequence[Mapping[str, Any]]) -> None:
        with self._lock:
            lid, docs = self._to_append(list_id, events)
            if not docs:
                return
            self.disk.index.setdefault(lid, "{}")
            text = self.disk.lists.get(lid)
            if text is not None and text is self._written.get(lid) and len(text) > 2:
                # The text this store wrote last (a test's damage is another string): its
                # array extended, the same text as dumping every event again, in O(events added).
                new = text[:-1] + "," + _dump(docs).decode("utf-8")[1:]
            else:
                stored = self._events(lid)  # refuses a damaged "file"
                new = _dump(stored + docs).decode("utf-8")
            if text is not None:
                self.disk.previous[lid] = text
            self.disk.lists[lid] = self._written[lid] = new

    def load(self, list_id: str) -> list[JSONDict]:
        with self._lock:
            self._check_open()
            return self._events(check_list_id(list_id))

    def list_ids(self) -> list[str]:
        with self._lock:
            self._check_open()
            return list(self.disk.index)

    def close(self) -> None:
        with self._lock:
            if self._open:
                self._open = False
                self.disk.in_use = False

    @property
    def closed(self) -> bool:
        return not self._open

    @property
    def _where(self) -> str:
        return "memory:"

    @property
    def device_id(self) -> str:
        with self._lock:
            if self.disk.device_id is None:
                self.disk.device_id = str(uuid.uuid4())
            return self.disk.device_id

    def head(self, list_id: str) -> str:
        with self._lock:
            self._check_open()
            head = GENESIS
            for event in self._events(check_list_id(list_id)):
                head = chain_hash(head, event)
            return head

    def entries_after(self, seq: int, limit: int | None = None) -> list[JournalEntry]:
        with self._lock:
            self._check_open()
            own = self.device_id
            found: list[JournalEntry] = []
            for lid in self.disk.index:
                head = GENESIS
                for event in self._events(lid):
                    entry = JournalEntry(head, chain_hash(head, event), event)
                    head = entry.hash
                    event_seq = event.get("seq")
                    if isinstance(event_seq, int) and event_seq > seq and event.get("device") in (None, own):
                        found.append(entry)
            found.sort(key=lambda e: int(e.event["seq"]))
            return found if limit is None else found[:limit]

    def save_checkpoint(self, list_id: str, count: int, payload: bytes) -> None:
        with self._lock:
            self._check_open()
            self.disk.checkpoints[check_list_id(list_id)] = (count, self._head_at(list_id, count), payload)

    def load_checkpoint(self, list_id: str) -> tuple[int, bytes] | None:
        with self._lock:
            self._check_open()
            found = self.disk.checkpoints.get(check_list_id(list_id))
            if found is None or self._head_at(list_id, found[0]) != found[1]:
                return None
            return found[0], found[2]

    def _head_at(self, list_id: str, count: int) -> str:
        head = GENESIS
        for event in self._events(list_id)[:count]:
            head = chain_hash(head, event)
        return head

    def recover(self, list_id: str) -> Recovery:
        with self._lock:
            self._check_open()
            lid = check_list_id(list_id)
            name = self._name(lid)
            try:
                count = len(self._events(lid))
            except StoreError as problem:
                prev = self.disk.previous.get(lid)
                if prev is None:
                    raise StoreError(f"cannot recover: {problem}, and there is no last good"
                                     f" copy ({name}.prev is missing); nothing was changed",
                                     path=name) from None
                try:
                    count = len(self._parse(f"{name}.prev", prev))
                except StoreError as damaged:
                    raise StoreError(f"cannot recover: {problem}, and the last good copy is"
                                     f" damaged too: {damaged}; nothing was changed",
                                     path=name) from None
                self.disk.moved_aside.setdefault(lid, []).append(self.disk.lists[lid])
                self.disk.lists[lid] = prev
                self.disk.index.setdefault(lid, "{}")
                aside = f"{name}.corrupt"
                return Recovery(lid, True, count, aside,
                                f"{problem}. Restored {name} from its last good copy"
                                f" ({count} events); the damaged file was kept as {aside}.")
            return Recovery(lid, False, count, None,
                            f"{name} is fine ({count} events); nothing to do.")

    @staticmethod
    def _name(lid: str) -> str:
        return f"memory:lists/{lid}.json"

    def _parse(self, name: str, text: str) -> list[JSONDict]:
        events = _parse_json(name, text.encode("utf-8"))
        if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
            raise StoreError(f"{name} does not hold store data (expected a list of events)",
                             path=name)
        return events

    def _events(self, lid: str) -> list[JSONDict]:
        text = self.disk.lists.get(lid)
        return [] if text is None else self._parse(self._name(lid), text)
