"""The durable event store: one append-only, hash-chained journal per list (evening).

Implements :class:`device.ports.EventStore`. :class:`JournalEventStore` keeps the events on
disk; :class:`MemoryEventStore` is the fake with the same behaviour for tests and
``skattisch run --simulate``.

Layout of a store directory (by default ``$XDG_DATA_HOME/skattisch``, else
``~/.local/share/skattisch``)::

    journal/<list_id>.jsonl            one list: one JSON line per event (see device.journal)
    journal/<list_id>.jsonl.torn[-n]   a torn last line (power cut mid-append), moved aside
    journal/<list_id>.jsonl.damaged[-n]  what ``recover`` cut off after damage, moved aside
    journal/<list_id>.checkpoint       the folded table state at a confirmed game (a cache)
    device-id                          this table's stable id (a uuid), never changed
    before-journal/                    the files of a store written before the journal
    .lock                              held (``flock``) while a store is open

The journal. Each line is ``{"prev", "hash", "event"}`` (:func:`device.journal.journal_line`):
the hash covers the previous line's hash and the event's canonical JSON, so a changed
character anywhere, a lost, swapped or inserted line breaks the chain from there on. The event
is written with sorted keys, so its bytes in the line *are* its canonical JSON and reading
verifies a line with one SHA-256 over a slice (no re-encoding); a line in any other form is
verified the slow way by :func:`device.journal.parse_line`.

Durability. :meth:`JournalEventStore.append` writes all its events with one ``write`` and one
``fdatasync``: when it returns they are on disk (group commit: the table service appends
once per pump). A new journal's directory is fsynced once, when the file is created. Nothing
is ever rewritten in place: the bytes written per event are the event's line, however long
the list is. A power cut mid-append leaves a torn last line: opening the store keeps every
whole line, moves the torn tail aside into ``<journal>.torn`` (never deleted) and says so in
the log and in :attr:`JournalEventStore.notices` (the status bar shows them).

Damage before the tail (a bad checksum, a broken chain, a line that is not JSON) is never
skipped: reading the list raises :class:`JournalDamage` naming the file, the line and what is
wrong; :meth:`JournalEventStore.check` reports it, :meth:`JournalEventStore.recover` keeps
every line before the damage and moves the rest into ``<journal>.damaged`` (never deleted),
keeping the file's owner and mode.

Order. Which list is current and the highest seq come from the journals themselves: lists
are ordered by their first event's ``seq`` (then its ``at``, then the id), never by file name.
Opening reads only each journal's first and last line; a list's whole journal is read (and
verified) when it is loaded. ``entries_after(seq)`` serves the sync from an index of
(seq, file offset) per journal, built when a journal is first read and extended on append.

Old stores. A store written before the journal (``index.json``, ``lists/*.json``, TinyDB
files) is converted on first open: every list becomes a journal, the old files move into
``before-journal/``; nothing is deleted.

Decisions:

* A list exists once events were appended to it; ``load`` of a list that does not exist
  gives ``[]``.
* List ids are 1–100 ASCII letters, digits, ``-``, ``_`` or ``.``, starting with a letter or
  digit (they are file names: no ``/``, no ``..``, no hidden files).
* Events must be JSON: mappings with text keys, lists, text, numbers (finite), booleans,
  ``None``. Tuples are accepted and come back as lists; anything else (a non-text key, NaN,
  a ``datetime``) is refused with :class:`InvalidEventError` before anything is written.
* ``append(list_id, [])`` does nothing. One ``append`` is one write: after a crash all its
  whole lines are there, and a torn rest is moved aside.
* Files are created readable by their owner only (mode 0600): scores are the club's data,
  and the table runs as one user.
* Small documents (settings, the sync state) belong in TinyDB files written with
  :class:`AtomicJSONStorage` (temp file, fsync, ``os.replace``, fsync of the directory).

Threads and processes. All public methods take one re-entrant lock. One process per store
directory: an open store holds an exclusive ``flock`` on ``.lock``; a second one is refused
with :class:`StoreError` until the first is closed. The kernel drops the lock when a process
dies, so a crash never leaves the store locked.
"""

from __future__ import annotations

import bisect
import contextlib
import fcntl
import hashlib
import json
import logging
import math
import os
import re
import stat as stat_module
import tempfile
import threading
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

from tinydb.storages import Storage

from device.errors import SkatError
from device.journal import GENESIS, ChainError, JournalEntry, chain_hash, journal_line, parse_line
from device.ports import JSONDict

__all__ = [
    "AtomicJSONStorage",
    "InvalidEventError",
    "InvalidListIdError",
    "JournalDamage",
    "JournalEventStore",
    "ListReport",
    "MemoryDisk",
    "MemoryEventStore",
    "Recovery",
    "StoreError",
    "StoreInUseError",
    "StoreNotice",
    "TinyDBEventStore",
    "check_list_id",
    "default_directory",
    "device_id",
    "act_as_store_owner",
    "repair_device_id",
]

log = logging.getLogger(__name__)

JOURNAL_DIR = "journal"
JOURNAL_SUFFIX = ".jsonl"
TORN_SUFFIX = ".torn"
DAMAGED_SUFFIX = ".damaged"
CHECKPOINT_SUFFIX = ".checkpoint"
LEGACY_DIR = "before-journal"
DEVICE_ID_FILE = "device-id"
LOCK_FILE = ".lock"
PREV_SUFFIX = ".prev"
CORRUPT_SUFFIX = ".corrupt"
TAIL_CHUNK = 64 * 1024

Tables = dict[str, dict[str, Any]]


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name}, which is not a number a list can hold")


# --- errors -------------------------------------------------------------------------------


REPAIR_HINT = ("Stop the table, run 'skattisch store check' to see what is damaged, then"
               " 'skattisch store recover' (it keeps every event before the damage and moves the"
               " rest aside, nothing is deleted).")


class StoreError(SkatError, OSError):
    """A store file that cannot be read or written safely; the message names the file and why,
    ``hint`` what the volunteer can do about this error."""

    def __init__(self, message: str, *, path: str | os.PathLike[str] | None = None,
                 hint: str = REPAIR_HINT) -> None:
        super().__init__(message)
        self.path = None if path is None else str(path)
        self.hint = hint


class StoreInUseError(StoreError):
    """Another open store (another skattisch process) holds the store directory."""


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


# --- validation shared by the stores -----------------------------------------------------

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
        for key in value:
            if not isinstance(key, str):
                raise InvalidEventError(f"{where} has the key {key!r}: JSON keys must be text")
        # Sorted keys: the event's bytes in a journal line are then its canonical JSON.
        return {str.__str__(key): _to_json(value[key], f"{where}.{key}") for key in sorted(value)}
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
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise StoreError(
            f"{name} is not valid JSON at line {exc.lineno} column {exc.colno} ({exc.msg})",
            path=name,
        ) from exc
    except RecursionError:
        raise StoreError(f"{name} is nested too deeply to be store data", path=name) from None
    except ValueError as exc:  # NaN, Infinity
        raise StoreError(f"{name} holds {exc}", path=name) from None


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
        # A lost id file with journals present: the journals' own device field, never a new id
        # (a new one would make the table forget its list and restart its seq).
        known = _device_in_journals(base / JOURNAL_DIR)
        try:
            _make_dirs(base)
            temp, _ = _write_temp(path, f"{known or uuid.uuid4()}\n".encode("ascii"))
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
        known = _device_in_journals(base / JOURNAL_DIR)
        hint = (f": the journals say this table is {known} ('skattisch store recover' writes it)"
                if known else ": if this table never recorded a list, delete it and a new id is made")
        raise StoreError(f"{path} does not hold a device id (a uuid): {text[:40]!r}", path=path,
                         hint=f"Repair the file {path}{hint}. The table keeps its lists meanwhile.") from None


def repair_device_id(directory: str | os.PathLike[str]) -> str | None:
    """Restore a missing or damaged ``device-id`` from the journals; say what was done.

    A damaged file is moved aside (``device-id.corrupt``), never deleted. ``None``: nothing
    to do (the id is fine, or no journal names this table and a missing id is simply made).
    """
    base = Path(directory)
    path = base / DEVICE_ID_FILE
    missing = not path.exists()
    try:
        restored = device_id(base)
        if missing:
            known = _device_in_journals(base / JOURNAL_DIR)
            return (f"{path} was missing; restored the id {restored} from the journals" if known
                    else f"{path} was missing; made a new id {restored} (no journal names this table)")
        return None
    except StoreError as problem:
        known = _device_in_journals(base / JOURNAL_DIR)
        if known is None:
            raise StoreError(f"{problem}; no journal names this table, so it cannot be restored",
                             path=path, hint=problem.hint) from None
        like = os.stat(path)
        aside = _free_name(path, CORRUPT_SUFFIX)
        os.rename(path, aside)
        atomic_write(path, f"{known}\n".encode("ascii"))
        _set_like(path, like)
        return f"{problem}; restored the id {known} from the journals (the damaged file is kept as {aside.name})"


def act_as_store_owner(directory: str | os.PathLike[str], command: str = "skattisch store ...") -> str | None:
    """Run as root (sudo), become the owner of the store ``directory`` before touching a file.

    Sets the owner's groups, group and user for the rest of the process, so every file a
    maintenance command writes belongs to the table's user as the files beside it do. Returns
    the owner's name when it switched, ``None`` when not root or the store belongs to root.
    """
    if os.geteuid() != 0:
        return None
    owner = os.stat(directory)
    if owner.st_uid == 0:
        return None
    import pwd

    try:
        name = pwd.getpwuid(owner.st_uid).pw_name
        groups = os.getgrouplist(name, owner.st_gid)
    except KeyError:
        name, groups = str(owner.st_uid), [owner.st_gid]
    try:
        os.setgroups(groups)
        os.setgid(owner.st_gid)
        os.setuid(owner.st_uid)
    except OSError as exc:
        raise StoreError(f"cannot act as the store's owner {name}: {exc.strerror or exc}", path=directory,
                         hint=f"Run it as the store's owner: sudo -u {name} {command}") from exc
    return name


def _first_line(path: Path) -> bytes:
    with open(path, "rb") as handle:
        return handle.readline(TAIL_CHUNK)


def _device_in_journals(journals: Path) -> str | None:
    """The device of the newest journal's first event (by its seq), if any journal has one."""
    best: tuple[int, str] | None = None
    for path in journals.glob(f"*{JOURNAL_SUFFIX}"):
        with contextlib.suppress(OSError, ChainError):
            event = parse_line(_first_line(path)).event
            seq, device = event.get("seq"), event.get("device")
            if isinstance(seq, int) and isinstance(device, str) and (best is None or seq > best[0]):
                best = (seq, device)
    return None if best is None else best[1]


# --- the file store -----------------------------------------------------------------------


def _acquire_process_lock(directory: Path) -> int:
    path = directory / LOCK_FILE
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode("ascii", errors="replace").strip()
        os.close(fd)
        raise StoreInUseError(
            f"{directory} is in use by another open store (process {holder or '?'}); close it"
            " first",
            path=path,
            hint="Another skattisch program uses this store: on the table stop the service"
                 " first ('sudo systemctl stop skattisch'), or close the other window; then try"
                 " again. Nothing was changed.",
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




# --- the journal --------------------------------------------------------------------------

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


class JournalDamage(StoreError):
    """A journal line before the end is damaged: ``line`` (1-based) and ``offset`` say where."""

    def __init__(self, path: Path, line: int, offset: int, what: str, kept: int) -> None:
        super().__init__(f"{path} line {line} is damaged: {what} ({kept} events before it are whole)",
                         path=path)
        self.line, self.offset, self.what, self.kept = line, offset, what, kept


class StoreNotice(str):
    """What opening the store repaired or converted, in words (English, for the log), with a
    ``kind`` for the screen to say it in its own language: "torn" (a torn last line moved
    aside), "converted" (an old store turned into journals), "old_copy" (an old list taken from
    its last good copy while converting)."""

    kind: str

    def __new__(cls, kind: str, text: str) -> StoreNotice:
        notice = super().__new__(cls, text)
        notice.kind = kind
        return notice


@dataclass(frozen=True, slots=True)
class ListReport:
    """What ``check`` found for one list: ``problem`` is ``None`` when every line is whole."""

    list_id: str
    path: str
    events: int
    head: str
    problem: str | None


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


def _set_like(path: Path, like: os.stat_result) -> None:
    """Give ``path`` the owner and mode of a file it stands beside (recover, run as root)."""
    os.chmod(path, stat_module.S_IMODE(like.st_mode))
    if os.geteuid() == 0 and (like.st_uid, like.st_gid) != (0, 0):
        os.chown(path, like.st_uid, like.st_gid)


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


class JournalEventStore:
    """The durable :class:`~device.ports.EventStore`: one hash-chained journal per list.

    ``directory`` defaults to :func:`default_directory`. Opening converts an old store,
    moves torn tails aside (see :attr:`notices`) and reads each journal's first and last line.
    """

    def __init__(self, directory: str | os.PathLike[str] | None = None) -> None:
        self.directory = Path(directory) if directory is not None else default_directory()
        self._lock = threading.RLock()
        self._dir = self.directory / JOURNAL_DIR
        self.notices: list[StoreNotice] = []
        """What opening repaired or converted (the log and the status bar show it)."""
        self._lock_fd: int | None = None
        self._fds: dict[str, int] = {}
        self._journals: dict[str, _Journal] = {}
        self._device: str | None = None
        try:
            if self.directory.exists() and not self.directory.is_dir():
                raise StoreError(f"{self.directory} is a file, not a folder", path=self.directory,
                                 hint="Set store.path in the config to a folder (or move the file away).")
            _make_dirs(self._dir)
            self._lock_fd = _acquire_process_lock(self.directory)
        except StoreError:
            raise
        except OSError as exc:
            raise StoreError(f"{self.directory} cannot be used as store: {exc.strerror or exc}",
                             path=self.directory,
                             hint="The folder must be writable by the table's user: run as that user"
                                  f" or give it the folder ('sudo chown -R USER {self.directory}').") from exc
        try:
            for temp in self._dir.glob(".*.tmp"):  # a crash's leftovers; we hold the lock
                with contextlib.suppress(OSError):
                    temp.unlink()
            self._convert_old_store()
            for path in sorted(self._dir.glob(f"*{JOURNAL_SUFFIX}")):
                lid = path.name[: -len(JOURNAL_SUFFIX)]
                if _LIST_ID.fullmatch(lid):
                    self._journals[lid] = self._open_journal(lid, path)
        except BaseException:
            self.close()
            raise
        for notice in self.notices:
            log.warning("store: %s", notice)

    def __repr__(self) -> str:
        return f"JournalEventStore({str(self.directory)!r})"

    def __enter__(self) -> JournalEventStore:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    # The EventStore port.

    def append(self, list_id: str, events: Sequence[Mapping[str, Any]]) -> None:
        """Store ``events`` at the end of the list with one write and one fsync."""
        with self._lock:
            self._check_open()
            lid = check_list_id(list_id)
            docs = _events_to_json(events)
            if not docs:
                return
            journal = self._journals.get(lid) or self._new_journal(lid)
            if journal.problem is not None:
                raise StoreError(f"{journal.path} is damaged ({journal.problem}); nothing was"
                                 " written: run 'skattisch store recover'", path=journal.path)
            lines, entries, head = [], [], journal.head
            for doc in docs:
                lines.append(journal_line(head, doc))
                entries.append(JournalEntry(head, chain_hash(head, doc), doc))
                head = entries[-1].hash
            self._write(journal, b"".join(lines))
            offset = journal.size
            for line, entry in zip(lines, entries):
                journal.index(entry, offset)
                journal.note_event(entry.event)
                offset += len(line)
            journal.size, journal.head = offset, head

    def load(self, list_id: str) -> list[JSONDict]:
        """The list's events in order, every line verified (``[]`` for a new list)."""
        with self._lock:
            self._check_open()
            journal = self._journals.get(check_list_id(list_id))
            return [] if journal is None else [e.event for e in self._read(journal)]

    def list_ids(self) -> list[str]:
        """Every list with events, oldest first by its own first event."""
        with self._lock:
            self._check_open()
            return [j.list_id for j in sorted(self._journals.values(), key=_Journal.order)
                    if j.size > 0]

    def head(self, list_id: str) -> str:
        """The hash of the list's last line (:data:`~device.journal.GENESIS` for a new list)."""
        with self._lock:
            self._check_open()
            journal = self._journals.get(check_list_id(list_id))
            return GENESIS if journal is None else journal.head

    def entries_after(self, seq: int, limit: int | None = None) -> list[JournalEntry]:
        """This device's entries with an event seq above ``seq``, in seq order across lists."""
        with self._lock:
            self._check_open()
            own = self.device_id
            found: list[JournalEntry] = []
            for journal in sorted(self._journals.values(), key=_Journal.order):
                if journal.last_seq is None or journal.last_seq <= seq or journal.size == 0:
                    continue
                if journal.seqs is None:
                    self._read(journal)  # builds its index once; appends extend it
                assert journal.seqs is not None
                start = bisect.bisect_right(journal.seqs, seq)
                while start > 0 and journal.seqs[start - 1] > seq:  # foreign or seq-less lines
                    start -= 1
                for entry in self._read_from(journal, start):
                    event_seq, device = entry.event.get("seq"), entry.event.get("device")
                    if isinstance(event_seq, int) and event_seq > seq and device in (None, own):
                        found.append(entry)
            found.sort(key=lambda e: int(e.event["seq"]))
            return found if limit is None else found[:limit]

    def close(self) -> None:
        """Release the files and the directory lock; closing twice is fine."""
        with self._lock:
            for fd in self._fds.values():
                os.close(fd)
            self._fds.clear()
            if self._lock_fd is not None:
                os.close(self._lock_fd)
                self._lock_fd = None

    # Beyond the port.

    @property
    def closed(self) -> bool:
        return self._lock_fd is None

    @property
    def device_id(self) -> str:
        """This table's stable id (see :func:`device_id`)."""
        if self._device is None:
            self._device = device_id(self.directory)
        return self._device

    def path(self, list_id: str) -> Path:
        """The journal that holds ``list_id``."""
        return self._dir / f"{check_list_id(list_id)}{JOURNAL_SUFFIX}"

    def check(self) -> list[ListReport]:
        """Read and verify every journal; one report per list, oldest first."""
        with self._lock:
            self._check_open()
            reports = []
            for journal in sorted(self._journals.values(), key=_Journal.order):
                try:
                    count = len(self._read(journal))
                    reports.append(ListReport(journal.list_id, str(journal.path), count, journal.head, None))
                except StoreError as problem:
                    kept = problem.kept if isinstance(problem, JournalDamage) else 0
                    reports.append(ListReport(journal.list_id, str(journal.path), kept, journal.head,
                                              str(problem)))
            return reports

    def recover(self, list_id: str, *, unusable: tuple[int, str] | None = None) -> Recovery:
        """Keep every whole event before the first damaged line, move the rest aside.

        ``unusable``: (line, why) of a whole line the table cannot use (``store check`` replays
        the events): it and the lines after it are moved aside the same way.
        """
        with self._lock:
            self._check_open()
            lid = check_list_id(list_id)
            journal = self._journals.get(lid)
            if journal is None:
                return Recovery(lid, False, 0, None, f"{lid}: no such list; nothing to do.")
            try:
                count = len(self._read(journal))
                if unusable is not None and 0 < unusable[0] <= count:
                    line, why = unusable
                    raise JournalDamage(journal.path, line, journal.offsets[line - 1], why, line - 1)
            except JournalDamage as damage:
                self._drop_fd(lid)
                aside = _move_tail_aside(journal.path, damage.offset, DAMAGED_SUFFIX)
                _fsync_dir(self._dir)
                self._journals[lid] = self._open_journal(lid, journal.path)
                count = len(self._read(self._journals[lid]))
                return Recovery(lid, True, count, str(aside),
                                f"{damage}. Kept the {count} events before it in {journal.path};"
                                f" the rest was moved to {aside}.")
            return Recovery(lid, False, count, None, f"{journal.path} is fine ({count} events); nothing to do.")

    def save_checkpoint(self, list_id: str, count: int, payload: bytes) -> None:
        """Keep ``payload`` (the folded state after the list's first ``count`` events) as a
        cache beside the journal: written without fsync, ignored when it disagrees."""
        with self._lock:
            self._check_open()
            journal = self._journals.get(check_list_id(list_id))
            if journal is None or journal.seqs is None or not 0 < count <= len(journal.hashes):
                return
            header = {"count": count, "head": journal.hashes[count - 1],
                      "sha256": hashlib.sha256(payload).hexdigest()}
            target = journal.path.with_name(journal.list_id + CHECKPOINT_SUFFIX)
            fd, temp = _temp_beside(target)
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(_dump(header) + b"\n" + payload)
                os.replace(temp, target)
            except OSError as exc:  # a cache: the table goes on without it
                log.warning("store: checkpoint %s not written: %s", target, exc)
                with contextlib.suppress(OSError):
                    temp.unlink()

    def load_checkpoint(self, list_id: str) -> tuple[int, bytes] | None:
        """``(count, payload)`` of the list's checkpoint if it matches the journal, else None."""
        with self._lock:
            self._check_open()
            journal = self._journals.get(check_list_id(list_id))
            if journal is None:
                return None
            try:
                data = journal.path.with_name(journal.list_id + CHECKPOINT_SUFFIX).read_bytes()
                first, _, payload = data.partition(b"\n")
                header = json.loads(first)
                count, head, digest = header["count"], header["head"], header["sha256"]
            except (OSError, ValueError, KeyError, TypeError):
                return None
            if journal.seqs is None:
                self._read(journal)
            assert journal.seqs is not None
            if (not isinstance(count, int) or not 0 < count <= len(journal.hashes)
                    or journal.hashes[count - 1] != head or hashlib.sha256(payload).hexdigest() != digest):
                return None
            return count, payload

    # Inside.

    def _check_open(self) -> None:
        if self._lock_fd is None:
            raise StoreError(f"the store at {self.directory} is closed", path=self.directory)

    def _new_journal(self, lid: str) -> _Journal:
        journal = _Journal(lid, self.path(lid), seqs=[])
        self._journals[lid] = journal
        return journal

    def _fd(self, journal: _Journal) -> int:
        fd = self._fds.get(journal.list_id)
        if fd is None:
            created = not journal.path.exists()
            fd = os.open(journal.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            if created:
                _fsync_dir(self._dir)  # the file's name must survive a power cut too
            self._fds[journal.list_id] = fd
        return fd

    def _drop_fd(self, lid: str) -> None:
        fd = self._fds.pop(lid, None)
        if fd is not None:
            os.close(fd)

    def _write(self, journal: _Journal, data: bytes) -> None:
        try:
            fd = self._fd(journal)
            written = 0
            while written < len(data):
                written += os.write(fd, data[written:])
            os.fdatasync(fd)
        except OSError as exc:
            # Cut a partial write off again, so the journal ends with a whole line.
            with contextlib.suppress(OSError):
                os.truncate(journal.path, journal.size)
            raise StoreError(f"{journal.path} could not be written: {exc.strerror or exc}",
                             path=journal.path) from exc

    def _open_journal(self, lid: str, path: Path) -> _Journal:
        """Read a journal's first and last line; move a torn tail aside."""
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
            self.notices.append(StoreNotice("torn", f"{path}: the last line was torn (a power cut while"
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

    def _read(self, journal: _Journal) -> list[JournalEntry]:
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

    def _read_from(self, journal: _Journal, start: int) -> list[JournalEntry]:
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

    def _convert_old_store(self) -> None:
        """Turn a store written before the journal into journals; keep the old files aside."""
        from drivers.legacy_store import has_legacy_lists, read_legacy_lists

        if not has_legacy_lists(self.directory):
            return
        lists, notes, old = read_legacy_lists(self.directory)
        for lid, events in lists:
            head, lines = GENESIS, []
            try:
                docs = _events_to_json(events)
            except InvalidEventError as exc:
                raise StoreError(f"cannot convert the old list {lid}: {exc}", path=self.directory) from None
            for doc in docs:
                lines.append(journal_line(head, doc))
                head = chain_hash(head, doc)
            atomic_write(self.path(lid), b"".join(lines))
        aside = _free_name(self.directory / LEGACY_DIR, "")
        aside.mkdir()
        for path in old:
            os.rename(path, aside / path.name)
        _fsync_dir(aside)
        _fsync_dir(self.directory)
        total = sum(len(events) for _, events in lists)
        self.notices.append(StoreNotice("converted", f"converted the old store ({len(lists)} lists, {total}"
                                        f" events) into journals; the old files are kept in {aside}"))
        self.notices.extend(StoreNotice("old_copy", note) for note in notes)


TinyDBEventStore = JournalEventStore
"""The name this store had before the journal (kept for callers written then)."""


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
    checkpoints: dict[str, tuple[int, str, bytes]] = field(default_factory=dict)
    device_id: str | None = None
    in_use: bool = False


class MemoryEventStore:
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
        self.notices: list[StoreNotice] = []

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
