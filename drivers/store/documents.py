"""Small documents (settings, the sync state): TinyDB files written with
:class:`AtomicJSONStorage` (temp file, fsync, ``os.replace``, fsync of the directory)."""

from __future__ import annotations

import os
from pathlib import Path

from tinydb.storages import Storage

from drivers.store.errors import StoreError
from drivers.store.files import PREV_SUFFIX, _identity, _keep_previous, _read_file, atomic_write
from drivers.store.values import Tables, _decode_tables, _dump


class AtomicJSONStorage(Storage):
    """TinyDB storage that never rewrites its file in place (see the module docstring).

    ``read`` refuses a damaged file with :class:`StoreError`; ``write`` refuses to replace a
    file that changed since this storage last read or wrote it (so a file that was never
    read successfully is never overwritten), keeps the current file as ``<file>.prev``, then
    replaces the file atomically.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        super().__init__()
        self.path = Path(path)
        self._known: tuple[int, int, int, int] | None = None

    def read(self) -> Tables | None:
        found = _read_file(self.path)
        if found is None:
            prev = self.path.with_name(self.path.name + PREV_SUFFIX)
            if prev.exists():
                raise StoreError(
                    f"{self.path} is missing but its last good copy {prev} exists;"
                    " recover it before writing",
                    path=self.path,
                )
            self._known = None
            return None
        data, stat = found
        tables = _decode_tables(str(self.path), data)
        self._known = _identity(stat)
        return tables

    def write(self, data: Tables) -> None:
        payload = _dump(data)
        try:
            current: tuple[int, int, int, int] | None = _identity(os.stat(self.path))
        except FileNotFoundError:
            current = None
        except OSError as exc:
            raise StoreError(f"{self.path} cannot be read: {exc.strerror or exc}",
                             path=self.path) from exc
        if current != self._known:
            raise StoreError(
                f"{self.path} changed on disk since it was last read; not overwriting it",
                path=self.path,
            )
        if current is not None:
            try:
                _keep_previous(self.path)
            except StoreError:
                raise
            except OSError as exc:
                raise StoreError(f"{self.path} could not be kept as last good copy:"
                                 f" {exc.strerror or exc}", path=self.path) from exc
        self._known = _identity(atomic_write(self.path, payload))


