"""The durable event store: one TinyDB file per list (evening), written atomically.

Implements :class:`device.ports.EventStore`. :class:`TinyDBEventStore` keeps the events on
disk; :class:`MemoryEventStore` is the fake with the same behaviour for tests and
``skattisch run --simulate``.

Layout of a store directory (by default ``$XDG_DATA_HOME/skattisch``, else
``~/.local/share/skattisch``)::

    index.json                 the lists in the order they were created, with their metadata
    index.json.prev            the index as it was before its last write
    lists/<list_id>.json       one list: its events in order (TinyDB's layout, table "events")
    lists/<list_id>.json.prev  the last good copy: the list as it was before its last write
    lists/<list_id>.json.corrupt[-n]  a damaged file that ``recover`` moved aside
    device-id                  this table's stable id (a uuid), created once, never changed
    .lock                      held (``flock``) while a store is open: one process per directory

Durability. TinyDB's own ``JSONStorage`` rewrites its file in place (TinyDB issue #467): a
power cut in the middle leaves a torn, unreadable file. :class:`AtomicJSONStorage` instead
writes a temporary file in the same directory, flushes and fsyncs it, ``os.replace``\\ s it
over the old file and fsyncs the directory. A reader therefore sees either the old or the new
file, never a mix, and when :meth:`TinyDBEventStore.append` returns the events are on disk.
No write cache (TinyDB's ``CachingMiddleware``) is used anywhere.

Bounded writes. An append reads and rewrites one list's file only, never the whole history;
the index is written only when a list is created or its metadata changes.

Damaged files. A file that is empty, not UTF-8, not JSON, or not shaped like a store file is
never overwritten: reading or appending raises :class:`StoreError`, whose message names the
file and what is wrong ("…/lists/2026-11-22-a.json is not valid JSON at line 1 column 4017
(…)"). Before each replace the current (good) file is hard-linked to ``<file>.prev`` (copied
where hard links are not possible), so the last good copy costs no extra write.
:meth:`TinyDBEventStore.recover` moves the damaged file aside to ``<file>.corrupt`` (it is
never deleted) and restores ``<file>.prev``. Because ``.prev`` is the file before its last
write, recovery loses at most that one write (the one that was in flight or got damaged).
If the last good copy is missing or damaged too, ``recover`` changes nothing and raises
:class:`StoreError` saying so: a person has to look at the files. ``recover_index`` restores
the index the same way, or rebuilds it from the list files (losing only metadata), and adds
any list file the index does not know.

Decisions:

* A list exists once events were appended to it or metadata was set; ``list_ids`` gives the
  lists in the order they were created. ``load`` of a list that does not exist gives ``[]``.
* List ids are 1–100 ASCII letters, digits, ``-``, ``_`` or ``.``, starting with a letter or
  digit (they are file names: no ``/``, no ``..``, no hidden files).
* Events must be JSON: mappings with text keys, lists, text, numbers (finite), booleans,
  ``None``. Tuples are accepted and come back as lists; anything else (a non-text key, NaN,
  a ``datetime``) is refused with :class:`InvalidEventError` before anything is written, since
  JSON would silently change it. The store does not look inside events otherwise.
* ``append(list_id, [])`` does nothing. One ``append`` is one atomic write: all its events are
  stored or none.
* Files are created readable by their owner only (``mkstemp``'s mode 0600): scores are the
  club's data, and the table runs as one user.

Threads and processes. All public methods take one re-entrant lock, so calls from several
threads are serialized (the table service appends from its own thread only; a UI thread may
load). One process per store directory: an open store holds an exclusive ``flock`` on
``.lock``, and a second store on the same directory (in this or another process) is refused
with :class:`StoreError` until the first is closed. The kernel drops the lock when a process
dies, so a crash never leaves the store locked.
"""

from __future__ import annotations

import contextlib
import copy
import fcntl
import json
import math
import os
import re
import tempfile
import threading
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

from tinydb import Query, TinyDB
from tinydb.storages import Storage
from tinydb.table import Table

from device.errors import SkatError
from device.ports import JSONDict

__all__ = [
    "AtomicJSONStorage",
    "InvalidEventError",
    "InvalidListIdError",
    "MemoryDisk",
    "MemoryEventStore",
    "Recovery",
    "StoreError",
    "TinyDBEventStore",
    "check_list_id",
    "default_directory",
    "device_id",
]

EVENTS_TABLE = "events"
INDEX_TABLE = "lists"
INDEX_FILE = "index.json"
LISTS_DIR = "lists"
DEVICE_ID_FILE = "device-id"
LOCK_FILE = ".lock"
PREV_SUFFIX = ".prev"
CORRUPT_SUFFIX = ".corrupt"

Tables = dict[str, dict[str, Any]]


# --- errors -------------------------------------------------------------------------------


class StoreError(SkatError, OSError):
    """A store file that cannot be read or written safely; the message names the file and why."""

    def __init__(self, message: str, *, path: str | os.PathLike[str] | None = None) -> None:
        super().__init__(message)
        self.path = None if path is None else str(path)


class InvalidListIdError(SkatError, ValueError):
    """A list id that cannot name a list file (empty, a path, hidden, too long)."""


class InvalidEventError(SkatError, ValueError):
    """An event that is not JSON (or would not come back from JSON unchanged)."""


@dataclass(frozen=True, slots=True)
class Recovery:
    """What ``recover``/``recover_index`` did: ``message`` in words, the rest as data.

    ``list_id`` is ``None`` for the index; ``entries`` counts the events of the list (the
    lists of the index) after recovery; ``moved_aside`` is where the damaged file went.
    """

    list_id: str | None
    restored: bool
    entries: int
    moved_aside: str | None
    message: str


# --- validation shared by both stores -----------------------------------------------------

_LIST_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")


def check_list_id(list_id: object) -> str:
    """Return ``list_id`` if it can name a list file, else raise :class:`InvalidListIdError`.

    >>> check_list_id("2026-11-22-tisch-3")
    '2026-11-22-tisch-3'
    >>> check_list_id("../x")
    Traceback (most recent call last):
    ...
    drivers.store.InvalidListIdError: list id '../x' is not allowed: use 1 to 100 letters, digits, '-', '_' or '.', starting with a letter or digit
    """
    if isinstance(list_id, str) and _LIST_ID.fullmatch(list_id):
        return list_id
    raise InvalidListIdError(
        f"list id {list_id!r} is not allowed: use 1 to 100 letters, digits, '-', '_' or '.',"
        " starting with a letter or digit"
    )


def _to_json(value: object, where: str) -> Any:
    """A plain JSON copy of ``value``; :class:`InvalidEventError` names the first bad part."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        return str.__str__(value)  # plain text, also for str-based enums
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidEventError(f"{where} is {value!r}, which JSON cannot hold")
        return float(value)
    if isinstance(value, Mapping):
        result: dict[str, Any] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise InvalidEventError(f"{where} has the key {key!r}: JSON keys must be text")
            result[str.__str__(key)] = _to_json(item, f"{where}.{key}")
        return result
    if isinstance(value, (list, tuple)):
        return [_to_json(item, f"{where}[{i}]") for i, item in enumerate(value)]
    raise InvalidEventError(f"{where} is a {type(value).__name__}, not a JSON value")


def _events_to_json(events: Sequence[Mapping[str, Any]]) -> list[JSONDict]:
    if isinstance(events, (Mapping, str, bytes)) or not isinstance(events, Sequence):
        raise InvalidEventError("append takes a list of events (dicts), not a single value")
    docs: list[JSONDict] = []
    for i, event in enumerate(events):
        if not isinstance(event, Mapping):
            raise InvalidEventError(f"event {i} is a {type(event).__name__}, not a dict")
        docs.append(_to_json(event, f"event {i}"))
    return docs


def _meta_to_json(meta: Mapping[str, Any]) -> JSONDict:
    if not isinstance(meta, Mapping):
        raise InvalidEventError(f"metadata must be a dict, not a {type(meta).__name__}")
    result: JSONDict = _to_json(meta, "metadata")
    return result


def _parse_json(name: str, data: bytes) -> Any:
    """Parse a store file's bytes; :class:`StoreError` says what is wrong in words."""
    if not data:
        raise StoreError(f"{name} is empty (0 bytes)", path=name)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise StoreError(f"{name} is not UTF-8 text (bad byte at offset {exc.start})",
                         path=name) from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise StoreError(
            f"{name} is not valid JSON at line {exc.lineno} column {exc.colno} ({exc.msg})",
            path=name,
        ) from exc


def _decode_tables(name: str, data: bytes) -> Tables:
    """Parse a TinyDB file: a JSON object of tables, each mapping document ids to objects."""
    tables = _parse_json(name, data)
    if not isinstance(tables, dict):
        raise StoreError(f"{name} does not hold store data (expected a JSON object of tables)",
                         path=name)
    for table_name, table in tables.items():
        if not isinstance(table, dict) or not all(
            key.isascii() and key.isdigit() and isinstance(doc, dict) for key, doc in table.items()
        ):
            raise StoreError(
                f"{name} does not hold store data (table {table_name!r} is not a set of"
                " numbered documents)",
                path=name,
            )
    return tables


def _dump(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"),
                      allow_nan=False).encode("utf-8")


# --- files --------------------------------------------------------------------------------


def default_directory() -> Path:
    """The store directory: ``$XDG_DATA_HOME/skattisch``, else ``~/.local/share/skattisch``.

    >>> default_directory().name
    'skattisch'
    """
    xdg = os.environ.get("XDG_DATA_HOME", "")
    # The XDG spec says to ignore a relative value.
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".local" / "share"
    return base / "skattisch"


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _make_dirs(directory: Path) -> None:
    """Create ``directory`` and its parents, fsyncing each parent so the entry survives."""
    missing: list[Path] = []
    for path in (directory, *directory.parents):
        if path.exists():
            break
        missing.append(path)
    for path in reversed(missing):
        with contextlib.suppress(FileExistsError):
            path.mkdir()
        _fsync_dir(path.parent)


def _temp_beside(path: Path) -> tuple[int, Path]:
    """A new temp file in ``path``'s directory (same filesystem, so ``os.replace`` is atomic)."""
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    return fd, Path(name)


def _write_temp(path: Path, data: bytes) -> tuple[Path, os.stat_result]:
    """Write ``data`` to a temp file beside ``path``, flushed and fsync'd."""
    fd, temp = _temp_beside(path)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
            stat = os.fstat(handle.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise
    return temp, stat


def atomic_write(path: Path, data: bytes) -> os.stat_result:
    """Replace ``path`` by ``data`` so that a crash leaves the old or the new file, whole.

    Temp file in the same directory, flush + fsync, ``os.replace``, fsync the directory.
    Returns the new file's stat.
    """
    try:
        temp, stat = _write_temp(path, data)
        try:
            os.replace(temp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                temp.unlink()
            raise
        _fsync_dir(path.parent)
    except StoreError:
        raise
    except OSError as exc:
        raise StoreError(f"{path} could not be written: {exc.strerror or exc}", path=path) from exc
    return stat


def _keep_previous(path: Path) -> None:
    """Make ``<path>.prev`` the current ``path`` (a hard link: no copy, no extra fsync)."""
    prev = path.with_name(path.name + PREV_SUFFIX)
    link = prev.with_name(f".{prev.name}.{uuid.uuid4().hex}.tmp")
    try:
        os.link(path, link)
        os.replace(link, prev)
    except OSError:
        with contextlib.suppress(OSError):
            link.unlink()
        # A filesystem without hard links (FAT on a USB stick): copy instead.
        atomic_write(prev, path.read_bytes())


def _identity(stat: os.stat_result) -> tuple[int, int, int, int]:
    return (stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns)


def _read_file(path: Path) -> tuple[bytes, os.stat_result] | None:
    """The bytes and stat of ``path`` (one open), ``None`` if it does not exist."""
    try:
        with open(path, "rb") as handle:
            stat = os.fstat(handle.fileno())
            return handle.read(), stat
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StoreError(f"{path} cannot be read: {exc.strerror or exc}", path=path) from exc


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


# --- device id ----------------------------------------------------------------------------


def device_id(directory: str | os.PathLike[str] | None = None) -> str:
    """This table's stable id: a uuid created once in ``<directory>/device-id``.

    Created atomically (temp file, fsync, hard link that fails if another process won the
    race); a damaged id file is never replaced: :class:`StoreError` names it.
    """
    base = Path(directory) if directory is not None else default_directory()
    path = base / DEVICE_ID_FILE
    found = _read_file(path)
    if found is None:
        try:
            _make_dirs(base)
            temp, _ = _write_temp(path, f"{uuid.uuid4()}\n".encode("ascii"))
            try:
                os.link(temp, path)  # fails if the id exists: the first one stays
            except FileExistsError:
                pass
            finally:
                temp.unlink()
            _fsync_dir(base)
        except OSError as exc:
            if isinstance(exc, StoreError):
                raise
            raise StoreError(f"{path} could not be created: {exc.strerror or exc}",
                             path=path) from exc
        found = _read_file(path)
        assert found is not None  # it was just linked; nobody deletes it
    text = found[0].decode("ascii", errors="replace").strip()
    try:
        return str(uuid.UUID(text))
    except ValueError:
        raise StoreError(f"{path} does not hold a device id (a uuid): {text[:40]!r}",
                         path=path) from None


# --- the file store -----------------------------------------------------------------------


def _acquire_process_lock(directory: Path) -> int:
    path = directory / LOCK_FILE
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode("ascii", errors="replace").strip()
        os.close(fd)
        raise StoreError(
            f"{directory} is in use by another open store (process {holder or '?'}); close it"
            " first",
            path=path,
        ) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
    return fd


def _free_name(path: Path, suffix: str) -> Path:
    """``path`` + ``suffix``, or + ``suffix-2``, ``-3``… : a name nothing uses yet."""
    candidate = path.with_name(path.name + suffix)
    number = 2
    while candidate.exists():
        candidate = path.with_name(f"{path.name}{suffix}-{number}")
        number += 1
    return candidate


class TinyDBEventStore:
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

    def __repr__(self) -> str:
        return f"TinyDBEventStore({str(self.directory)!r})"

    def __enter__(self) -> TinyDBEventStore:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    # The EventStore port.

    def append(self, list_id: str, events: Sequence[Mapping[str, Any]]) -> None:
        """Store ``events`` at the end of the list, durably, all or none."""
        with self._lock:
            self._check_open()
            lid = check_list_id(list_id)
            docs = _events_to_json(events)
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
    def closed(self) -> bool:
        return self._lock_fd is None

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

    def _check_open(self) -> None:
        if self._lock_fd is None:
            raise StoreError(f"the store at {self.directory} is closed", path=self.directory)

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


# --- the fake -----------------------------------------------------------------------------


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
    device_id: str | None = None
    in_use: bool = False


class MemoryEventStore:
    """The in-memory :class:`~device.ports.EventStore` with the file store's behaviour.

    Pass the same :class:`MemoryDisk` to a new store to "reopen" it. Thread-safe the same
    way; one open store per disk.
    """

    def __init__(self, disk: MemoryDisk | None = None) -> None:
        self.disk = disk if disk is not None else MemoryDisk()
        if self.disk.in_use:
            raise StoreError("memory: is in use by another open store; close it first",
                             path="memory:")
        self.disk.in_use = True
        self._lock = threading.RLock()
        self._open = True

    def __repr__(self) -> str:
        return f"MemoryEventStore({len(self.disk.index)} lists)"

    def __enter__(self) -> MemoryEventStore:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def append(self, list_id: str, events: Sequence[Mapping[str, Any]]) -> None:
        with self._lock:
            self._check_open()
            lid = check_list_id(list_id)
            docs = _events_to_json(events)
            if not docs:
                return
            self.disk.index.setdefault(lid, "{}")
            stored = self._events(lid)  # refuses a damaged "file"
            if lid in self.disk.lists:
                self.disk.previous[lid] = self.disk.lists[lid]
            self.disk.lists[lid] = _dump(stored + docs).decode("utf-8")

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
    def device_id(self) -> str:
        with self._lock:
            if self.disk.device_id is None:
                self.disk.device_id = str(uuid.uuid4())
            return self.disk.device_id

    def set_meta(self, list_id: str, meta: Mapping[str, Any]) -> None:
        with self._lock:
            self._check_open()
            lid = check_list_id(list_id)
            self.disk.index[lid] = _dump(_meta_to_json(meta)).decode("utf-8")

    def meta(self, list_id: str) -> JSONDict:
        with self._lock:
            self._check_open()
            found: JSONDict = json.loads(self.disk.index.get(check_list_id(list_id), "{}"))
            return found

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

    def _check_open(self) -> None:
        if not self._open:
            raise StoreError("the store at memory: is closed", path="memory:")

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
