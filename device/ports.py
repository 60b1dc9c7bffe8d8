"""Ports: the interfaces ``device/`` needs from the outside, implemented in ``drivers/``."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from device.hardware import PanelView, Tone
from device.journal import JournalEntry

JSONDict = dict[str, Any]


class EventStore(Protocol):
    """Durable, append-only event storage: one hash-chained stream of events per list (evening).

    ``append`` returns only when the events are durable (fsync'd); a power cut after it
    returns loses nothing. Events are JSON-compatible dicts. ``list_ids`` gives the lists
    oldest first (by their own first event). ``head`` is the list's chain head
    (:mod:`device.journal`: :data:`~device.journal.GENESIS` for a new list);
    ``entries_after(seq)`` this device's entries with a higher event seq, in seq order across
    lists (what the sync ships). A checkpoint is a cache of the folded state after a list's
    first ``count`` events: ``load_checkpoint`` gives it back only while it matches the list.
    """

    def append(self, list_id: str, events: Sequence[Mapping[str, Any]]) -> None: ...

    def load(self, list_id: str) -> list[JSONDict]: ...

    def list_ids(self) -> list[str]: ...

    def head(self, list_id: str) -> str: ...

    def entries_after(self, seq: int, limit: int | None = None) -> list[JournalEntry]: ...

    def save_checkpoint(self, list_id: str, count: int, payload: bytes) -> None: ...

    def load_checkpoint(self, list_id: str) -> tuple[int, bytes] | None: ...

    def close(self) -> None: ...


class Panel(Protocol):
    """The GPIO panel: shows a :class:`PanelView`, sounds tones."""

    def show(self, view: PanelView) -> None: ...

    def beep(self, tone: Tone) -> None: ...

    def close(self) -> None: ...


class CardReader(Protocol):
    """A card reader that submits commands (``CardScanned`` …) through ``submit``."""

    def start(self, submit: Callable[[object], None]) -> None: ...

    def close(self) -> None: ...
