"""The store before the journal: one TinyDB file per list plus an index (kept to read old stores).

Stores written by skattisch before the journal hold ``index.json`` and
``lists/<list_id>.json`` (TinyDB's layout, table "events", each file replaced atomically with a
``.prev`` copy beside it). :mod:`drivers.store.migration` converts such a store on its
first start with :func:`read_legacy_lists`; :class:`LegacyTinyDBStore` is the old store itself,
unchanged, so tests can write a store exactly as the old code did.
"""

from __future__ import annotations

import contextlib
import copy
import os
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tinydb import Query, TinyDB
from tinydb.table import Table

from device.ports import JSONDict
from drivers.store.documents import AtomicJSONStorage
from drivers.store.errors import Recovery, StoreError
from drivers.store.files import (
    CORRUPT_SUFFIX, PREV_SUFFIX, _acquire_process_lock, _free_name, _fsync_dir, _make_dirs, _read_file,
    atomic_write, default_directory,
)
from drivers.store.identity import device_id
from drivers.store.shared import FolderStore
from drivers.store.values import (
    _LIST_ID, Tables, _decode_tables, _dump, _meta_to_json, check_list_id,
)

__all__ = ["LegacyTinyDBStore", "read_legacy_lists", "has_legacy_lists"]

EVENTS_TABLE = "events"
INDEX_TABLE = "lists"
INDEX_FILE = "index.json"
LISTS_DIR = "lists"


def has_legacy_lists(directory: Path) -> bool:
    """Whether ``directory`` holds a store written before the journal."""
    return (directory / INDEX_FILE).exists() or any((directory / LISTS_DIR).glob("*.json"))


def _legacy_events(path: Path) -> tuple[list[JSONDict], str | None]:
    """The events of one old list file, or of its last good copy if the file is damaged."""
    try:
        tables = AtomicJSONStorage(path).read() or {}
        note = None
    except StoreError as problem:
        prev = path.with_name(path.name + PREV_SUFFIX)
        found = _read_file(prev)
        if found is None:
            raise StoreError(f"cannot convert the old store: {problem}, and it has no last good copy",
                             path=path) from None
        tables = _decode_tables(str(prev), found[0])
        note = f"{problem}; took its last good copy {prev.name}"
    rows = tables.get(EVENTS_TABLE, {})
    return [dict(rows[key]) for key in sorted(rows, key=int)], note


def read_legacy_lists(directory: Path) -> tuple[list[tuple[str, list[JSONDict]]], list[str], list[Path]]:
    """Every old list with its events (index order, then lists the index misses), notes on what
    was damaged, and the old files to move aside once converted."""
    index_path = directory / INDEX_FILE
    order: list[str] = []
    try:
        tables = AtomicJSONStorage(index_path).read() or {}
        order = [lid for lid, _ in LegacyTinyDBStore._index_entries(index_path, tables)]
    except StoreError:
        pass  # the lists' own first events order them in the journal; the index only adds names
    files = sorted((directory / LISTS_DIR).glob("*.json"))
    order += [p.name[: -len(".json")] for p in files if p.name[: -len(".json")] not in order]
    lists: list[tuple[str, list[JSONDict]]] = []
    notes: list[str] = []
    for lid in order:
        path = directory / LISTS_DIR / f"{lid}.json"
        if not _LIST_ID.fullmatch(lid) or not (path.exists() or path.with_name(path.name + PREV_SUFFIX).exists()):
            continue
        events, note = _legacy_events(path)
        if note:
            notes.append(note)
        lists.append((lid, events))
    old = [p for p in directory.glob(f"{INDEX_FILE}*")]
    if (directory / LISTS_DIR).is_dir():
        old.append(directory / LISTS_DIR)
    return lists, notes, old


class LegacyTinyDBStore(FolderStore):
    """The durable :class:`~device.ports.EventStore`: one atomic TinyDB file per list.

    ``directory`` defaults to :func:`default_directory`. Nothing is read until first use, so
    a damaged index can still be repaired with :meth:`recover_index`.
    """

    def __init__(self, directory: str | os.PathLike[str] | None = None) -> None:
        self.directory = Path(directory) if directory is not None else default_directory()
        self._lock = threading.RLock()
        self._lists_dir = self.directory / LISTS_DIR
        try:
            _make_dirs(self._lists_dir)
            self._lock_fd: int | None = _acquire_process_lock(self.directory)
        except StoreError:
            raise
        except OSError as exc:
            raise StoreError(f"{self.directory} cannot be used as store: {exc.strerror or exc}",
                             path=self.directory) from exc
        self._remove_stale_temps()
        self._dbs: dict[str, TinyDB] = {}
        self._index_db: TinyDB | None = None
        self._index: dict[str, JSONDict] | None = None  # list id -> metadata, created order

    # The EventStore port.

    def append(self, list_id: str, events: Sequence[Mapping[str, Any]]) -> None:
        """Store ``events`` at the end of the list, durably, all or none."""
        with self._lock:
            lid, docs = self._to_append(list_id, events)
            if not docs:
                return
            self._ensure_listed(lid)
            self._table(lid).insert_multiple(docs)

    def load(self, list_id: str) -> list[JSONDict]:
        """The list's events in the order they were appended (``[]`` for a new list)."""
        with self._lock:
            self._check_open()
            docs = self._table(check_list_id(list_id)).all()
            return [dict(doc) for doc in sorted(docs, key=lambda doc: doc.doc_id)]

    def list_ids(self) -> list[str]:
        """Every list, in the order the lists were created."""
        with self._lock:
            self._check_open()
            return list(self._read_index())

    def close(self) -> None:
        """Release the files and the directory lock; closing twice is fine."""
        with self._lock:
            if self._lock_fd is None:
                return
            for db in self._dbs.values():
                db.close()
            self._dbs.clear()
            if self._index_db is not None:
                self._index_db.close()
            self._index_db, self._index = None, None
            os.close(self._lock_fd)
            self._lock_fd = None

    # Beyond the port.

    @property
    def device_id(self) -> str:
        """This table's stable id (see :func:`device_id`)."""
        return device_id(self.directory)

    def path(self, list_id: str) -> Path:
        """The file that holds ``list_id``."""
        return self._lists_dir / f"{check_list_id(list_id)}.json"

    def set_meta(self, list_id: str, meta: Mapping[str, Any]) -> None:
        """Replace the list's metadata (a title, the table …); creates the list if new."""
        with self._lock:
            self._check_open()
            lid = check_list_id(list_id)
            clean = _meta_to_json(meta)
            index = self._read_index()
            table = self._index_table()
            if lid in index:
                table.update({"meta": clean}, Query().list_id == lid)
            else:
                table.insert({"list_id": lid, "meta": clean})
            index[lid] = clean

    def meta(self, list_id: str) -> JSONDict:
        """The list's metadata (``{}`` if none was set)."""
        with self._lock:
            self._check_open()
            found = self._read_index().get(check_list_id(list_id), {})
            return copy.deepcopy(found)

    def recover(self, list_id: str) -> Recovery:
        """Repair a damaged list file from its last good copy; see the module docstring."""
        with self._lock:
            self._check_open()
            lid = check_list_id(list_id)
            path = self.path(lid)
            try:
                tables = AtomicJSONStorage(path).read()
            except StoreError as problem:
                self._drop(lid)
                prev_tables, prev_bytes = self._last_good_copy(path, problem)
                aside = self._move_aside(path)
                atomic_write(path, prev_bytes)
                self._ensure_listed(lid)
                count = len(prev_tables.get(EVENTS_TABLE, {}))
                kept = f"; the damaged file was kept as {aside}" if aside else ""
                return Recovery(lid, True, count, None if aside is None else str(aside),
                                f"{problem}. Restored {path} from its last good copy"
                                f" ({count} events){kept}.")
            count = len((tables or {}).get(EVENTS_TABLE, {}))
            return Recovery(lid, False, count, None,
                            f"{path} is fine ({count} events); nothing to do.")

    def recover_index(self) -> Recovery:
        """Repair the index from its last good copy (or rebuild it from the list files) and
        add list files it does not know; see the module docstring."""
        with self._lock:
            self._check_open()
            path = self.directory / INDEX_FILE
            done: list[str] = []
            aside: Path | None = None
            try:
                tables = AtomicJSONStorage(path).read() or {}
                entries = self._index_entries(path, tables)
            except StoreError as problem:
                done.append(str(problem))
                aside = self._move_aside(path)
                if aside is not None:
                    done.append(f"the damaged file was kept as {aside}")
                entries = self._index_from_prev(path, done)
            known = {lid for lid, _ in entries}
            found = sorted(p.name[: -len(".json")] for p in self._lists_dir.glob("*.json"))
            added = [lid for lid in found if _LIST_ID.fullmatch(lid) and lid not in known]
            if added:
                entries += [(lid, {}) for lid in added]
                done.append(f"added lists the index did not know: {', '.join(added)}")
            if not done:
                return Recovery(None, False, len(entries), None,
                                f"{path} is fine ({len(entries)} lists); nothing to do.")
            if self._index_db is not None:
                self._index_db.close()
            self._index_db, self._index = None, None
            rows = {str(n): {"list_id": lid, "meta": meta}
                    for n, (lid, meta) in enumerate(entries, start=1)}
            atomic_write(path, _dump({INDEX_TABLE: rows}))
            return Recovery(None, True, len(entries), None if aside is None else str(aside),
                            "; ".join(done) + f". The index now lists {len(entries)} lists.")

    # Inside.

    def _remove_stale_temps(self) -> None:
        """Temp files left by a crash are never part of the store; we hold the lock."""
        for pattern, directory in ((".*.tmp", self._lists_dir),
                                   (f".{INDEX_FILE}*.tmp", self.directory)):
            for temp in directory.glob(pattern):
                with contextlib.suppress(OSError):
                    temp.unlink()

    def _table(self, lid: str) -> Table:
        db = self._dbs.get(lid)
        if db is None:
            db = TinyDB(self.path(lid), storage=AtomicJSONStorage)
            self._dbs[lid] = db
        return db.table(EVENTS_TABLE, cache_size=0)

    def _drop(self, lid: str) -> None:
        db = self._dbs.pop(lid, None)
        if db is not None:
            db.close()

    def _index_table(self) -> Table:
        if self._index_db is None:
            self._index_db = TinyDB(self.directory / INDEX_FILE, storage=AtomicJSONStorage)
        return self._index_db.table(INDEX_TABLE, cache_size=0)

    def _read_index(self) -> dict[str, JSONDict]:
        if self._index is None:
            path = self.directory / INDEX_FILE
            self._index = dict(self._index_entries(path, AtomicJSONStorage(path).read() or {}))
        return self._index

    @staticmethod
    def _index_entries(path: Path, tables: Tables) -> list[tuple[str, JSONDict]]:
        rows = tables.get(INDEX_TABLE, {})
        entries: list[tuple[str, JSONDict]] = []
        for key in sorted(rows, key=int):
            row = rows[key]
            lid, meta = row.get("list_id"), row.get("meta")
            if not isinstance(lid, str) or not _LIST_ID.fullmatch(lid) or not isinstance(
                    meta, dict):
                raise StoreError(f"{path} entry {key} is not a list entry: {row!r:.80}",
                                 path=path)
            entries.append((lid, meta))
        return entries

    def _ensure_listed(self, lid: str) -> None:
        # The index entry is written before the list's first events, so every list file
        # has an entry; a crash in between leaves an empty list, which loads as [].
        index = self._read_index()
        if lid not in index:
            self._index_table().insert({"list_id": lid, "meta": {}})
            index[lid] = {}

    @staticmethod
    def _last_good_copy(path: Path, problem: StoreError) -> tuple[Tables, bytes]:
        prev = path.with_name(path.name + PREV_SUFFIX)
        found = _read_file(prev)
        if found is None:
            raise StoreError(f"cannot recover: {problem}, and there is no last good copy"
                             f" ({prev} is missing); nothing was changed", path=path)
        try:
            return _decode_tables(str(prev), found[0]), found[0]
        except StoreError as damaged:
            raise StoreError(f"cannot recover: {problem}, and the last good copy is damaged"
                             f" too: {damaged}; nothing was changed", path=path) from None

    def _move_aside(self, path: Path) -> Path | None:
        if not path.exists():
            return None
        aside = _free_name(path, CORRUPT_SUFFIX)
        try:
            os.rename(path, aside)
            _fsync_dir(path.parent)
        except OSError as exc:
            raise StoreError(f"{path} could not be moved aside to {aside}:"
                             f" {exc.strerror or exc}", path=path) from exc
        return aside

    def _index_from_prev(self, path: Path, done: list[str]) -> list[tuple[str, JSONDict]]:
        prev = path.with_name(path.name + PREV_SUFFIX)
        found = _read_file(prev)
        if found is not None:
            try:
                entries = self._index_entries(prev, _decode_tables(str(prev), found[0]))
            except StoreError as damaged:
                done.append(f"its last good copy is damaged too ({damaged}); rebuilt the index"
                            " from the list files, without their metadata")
                return []
            done.append(f"restored it from its last good copy {prev}")
            return entries
        done.append("there is no last good copy; rebuilt the index from the list files,"
                    " without their metadata")
        return []

