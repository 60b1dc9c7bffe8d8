"""The service's thread-safe command inbox: any thread submits, one thread pumps.

>>> inbox = Inbox()
>>> inbox.submit("a"); inbox.submit("b")
>>> inbox.drain()
['a', 'b']
>>> inbox.drain()
[]
"""

from __future__ import annotations

import queue
from typing import Generic, TypeVar

T = TypeVar("T")


class Inbox(Generic[T]):
    """A FIFO of commands. ``submit`` is safe from any thread (reader, GPIO, UI)."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[T] = queue.SimpleQueue()

    def submit(self, command: T) -> None:
        self._queue.put(command)

    def get(self, timeout: float | None = None) -> T | None:
        """Wait up to ``timeout`` seconds for one command; None if none came."""
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def drain(self) -> list[T]:
        """Take every command waiting now, oldest first, without blocking."""
        items: list[T] = []
        while True:
            try:
                items.append(self._queue.get_nowait())
            except queue.Empty:
                return items

    def __len__(self) -> int:
        return self._queue.qsize()
