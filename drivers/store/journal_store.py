"""The durable event store: one append-only, hash-chained journal per list (evening).

Durability. :meth:`JournalEventStore.append` writes all its events with one ``write`` and one
``fdatasync``: when it returns they are on disk (group commit: the table service appends
once per pump). A new journal's directory is fsynced once, when the file is created. Nothing
is ever rewritten in place: the bytes written per event are the event's line, however long
the list is. A power cut mid-append leaves a torn last line: opening the store keeps every
whole line, moves the torn tail aside into ``<journal>.torn`` (never deleted) and says so in
the log and in :attr:`JournalEventStore.notices` (the status bar shows them).

Damage before the tail (a bad checksum, a broken chain, a line that is not JSON) is never
skipped: reading the list raises :class:`~drivers.store.errors.JournalDamage` naming the file, the line and what is
wrong (:mod:`drivers.store.recover` checks and repairs).

Order. Which list is current and the highest seq come from the journals themselves: lists
are ordered by their first event's ``seq`` (then its ``at``, then the id), never by file name.
Opening reads only each journal's first and last line; a list's whole journal is read (and
verified) when it is loaded. ``entries_after(seq)`` serves the sync from an index of
(seq, file offset) per journal, built when a journal is first read and extended on append.
"""

from __future__ import annotations

import bisect
import contextlib
import hashlib
import json
import logging
import os
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from device.journal import GENESIS, JournalEntry, hashed_journal_line
from device.ports import JSONDict
from drivers.store.errors import ListReport, Recovery, StoreError, StoreNotice
from drivers.store.files import (
    CHECKPOINT_SUFFIX, JOURNAL_DIR, JOURNAL_SUFFIX, _acquire_process_lock, _fsync_dir, _make_dirs,
    _temp_beside, default_directory,
)
from drivers.store.identity import device_id
from drivers.store.journal import _Journal, open_journal, read_from, read_journal
from drivers.store.migration import convert_old_store
from drivers.store.recover import check_journals, recover_journal
from drivers.store.shared import FolderStore
from drivers.store.values import _LIST_ID, _dump, check_list_id

log = logging.getLogger("drivers.store")


class JournalEventStore(FolderStore):
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
            self.notices.extend(convert_old_store(self.directory, self.path))
            for path in sorted(self._dir.glob(f"*{JOURNAL_SUFFIX}")):
                lid = path.name[: -len(JOURNAL_SUFFIX)]
                if _LIST_ID.fullmatch(lid):
                    self._journals[lid] = open_journal(lid, path, self.notices)
        except BaseException:
            self.close()
            raise
        for notice in self.notices:
            log.warning("store: %s", notice)

    # The EventStore port.

    def append(self, list_id: str, events: Sequence[Mapping[str, Any]]) -> None:
        """Store ``events`` at the end of the list with one write and one fsync."""
        with self._lock:
            lid, docs = self._to_append(list_id, events)
            if not docs:
                return
            journal = self._journals.get(lid) or self._new_journal(lid)
            if journal.problem is not None:
                raise StoreError(f"{journal.path} is damaged ({journal.problem}); nothing was"
                                 " written: run 'skattisch store recover'", path=journal.path)
            lines, entries, head = [], [], journal.head
            for doc in docs:
                line, line_hash = hashed_journal_line(head, doc)
                lines.append(line)
                entries.append(JournalEntry(head, line_hash, doc))
                head = line_hash
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
                for entry in read_from(journal, start):
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
            return check_journals(sorted(self._journals.values(), key=_Journal.order))

    def recover(self, list_id: str, *, unusable: tuple[int, str] | None = None) -> Recovery:
        """Keep every whole event before the first damaged line, move the rest aside (see
        :func:`drivers.store.recover.recover_journal`)."""
        with self._lock:
            self._check_open()
            lid = check_list_id(list_id)
            journal = self._journals.get(lid)
            if journal is None:
                return Recovery(lid, False, 0, None, f"{lid}: no such list; nothing to do.")
            self._drop_fd(lid)  # reopened on the next append
            recovery, self._journals[lid] = recover_journal(journal, unusable)
            return recovery

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

    def _read(self, journal: _Journal) -> list[JournalEntry]:
        return read_journal(journal)


TinyDBEventStore = JournalEventStore
"""The name this store had before the journal (kept for callers written then)."""


