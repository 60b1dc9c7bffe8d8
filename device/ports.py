"""Ports: the interfaces ``device/`` needs from the outside, implemented in ``drivers/``."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from device.hardware import PanelView, Tone

JSONDict = dict[str, Any]


class EventStore(Protocol):
    """Durable, append-only event storage: one stream of events per list (evening).

    ``append`` returns only when the events are durable (fsync'd); a power cut after it
    returns loses nothing. Events are JSON-compatible dicts.
    """

    def append(self, list_id: str, events: Sequence[Mapping[str, Any]]) -> None: ...

    def load(self, list_id: str) -> list[JSONDict]: ...

    def list_ids(self) -> list[str]: ...

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
