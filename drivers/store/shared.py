"""What the three event stores (the journal, the old TinyDB store, the fake in memory) share:
one lock for every call, use as a context manager, the refusal once closed, and an append's
list id and events checked before anything is written."""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from device.ports import JSONDict
from drivers.store.errors import StoreError
from drivers.store.values import _events_to_json, check_list_id


class OpenedStore:
    """A store's open and closed life: ``with store: ...`` closes it, a call on a closed store
    raises :class:`StoreError` naming it (``where``: its folder, or ``memory:``)."""

    _lock: threading.RLock

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        raise NotImplementedError

    @property
    def closed(self) -> bool:
        raise NotImplementedError

    @property
    def _where(self) -> str | os.PathLike[str]:
        """What a refusal names: the store's folder, or ``memory:``."""
        raise NotImplementedError

    def _check_open(self) -> None:
        if self.closed:
            raise StoreError(f"the store at {os.fspath(self._where)} is closed", path=self._where)

    def _to_append(self, list_id: str, events: Sequence[Mapping[str, Any]]) -> tuple[str, list[JSONDict]]:
        """The list id and the events as JSON, checked (the store open, the id a file name, every
        event JSON): what ``append`` writes, or the error that nothing was written for."""
        self._check_open()
        return check_list_id(list_id), _events_to_json(events)


class FolderStore(OpenedStore):
    """A store in a folder, which it holds locked (``_lock_fd``) while open: the journal and the
    old TinyDB store."""

    directory: Path
    _lock_fd: int | None

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self.directory)!r})"

    @property
    def closed(self) -> bool:
        return self._lock_fd is None

    @property
    def _where(self) -> Path:
        return self.directory
