"""The durable event store: one append-only, hash-chained journal per list (evening).

Implements :class:`device.ports.EventStore`. :class:`JournalEventStore` keeps the events on
disk; :class:`MemoryEventStore` is the fake with the same behaviour for tests and
``skattisch run --simulate``. One module per responsibility:

* :mod:`~drivers.store.journal_store`: the journal store (append, load, order, ``entries_after``,
  checkpoints); :mod:`~drivers.store.journal`: one journal file, its lines and their checks;
* :mod:`~drivers.store.recover`: check and recover a damaged journal;
* :mod:`~drivers.store.documents`: small documents (settings, the sync state) in TinyDB files
  written atomically;
* :mod:`~drivers.store.identity`: this table's device id;
* :mod:`~drivers.store.migration`: converting a store written before the journal, read by
  :mod:`~drivers.store.legacy` (the old store itself);
* :mod:`~drivers.store.memory`: the fake;
* :mod:`~drivers.store.files`, :mod:`~drivers.store.values`, :mod:`~drivers.store.errors`,
  :mod:`~drivers.store.shared`: what they share (atomic files and locks; list ids and JSON;
  errors and reports; a store's open and closed life).

The old-store reader depends on the new code, never the other way.

Layout of a store directory (by default ``$XDG_DATA_HOME/skattisch``, else
``~/.local/share/skattisch``)::

    journal/<list_id>.jsonl            one list: one JSON line per event (see device.journal)
    journal/<list_id>.jsonl.torn[-n]   a torn last line (power cut mid-append), moved aside
    journal/<list_id>.jsonl.damaged[-n]  what ``recover`` cut off after damage, moved aside
    journal/<list_id>.checkpoint       the folded table state at a confirmed game (a cache)
    device-id                          this table's stable id (a uuid), never changed
    before-journal/                    the files of a store written before the journal
    .lock                              held (``flock``) while a store is open

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

Threads and processes. All public methods take one re-entrant lock. One process per store
directory: an open store holds an exclusive ``flock`` on ``.lock``; a second one is refused
with :class:`StoreError` until the first is closed. The kernel drops the lock when a process
dies, so a crash never leaves the store locked.
"""

from __future__ import annotations

from drivers.store.documents import AtomicJSONStorage
from drivers.store.errors import (
    REPAIR_HINT, InvalidEventError, InvalidListIdError, JournalDamage, ListReport, Recovery, StoreError,
    StoreInUseError, StoreNotice,
)
from drivers.store.files import (
    CHECKPOINT_SUFFIX, CORRUPT_SUFFIX, DAMAGED_SUFFIX, DEVICE_ID_FILE, JOURNAL_DIR, JOURNAL_SUFFIX,
    LEGACY_DIR, LOCK_FILE, PREV_SUFFIX, TAIL_CHUNK, TORN_SUFFIX, atomic_write, default_directory,
)
from drivers.store.identity import act_as_store_owner, device_id, repair_device_id
from drivers.store.journal import read_line
from drivers.store.journal_store import JournalEventStore, TinyDBEventStore
from drivers.store.memory import MemoryDisk, MemoryEventStore
from drivers.store.values import Tables, check_list_id

__all__ = [
    "AtomicJSONStorage",
    "CHECKPOINT_SUFFIX",
    "CORRUPT_SUFFIX",
    "DAMAGED_SUFFIX",
    "DEVICE_ID_FILE",
    "InvalidEventError",
    "InvalidListIdError",
    "JOURNAL_DIR",
    "JOURNAL_SUFFIX",
    "JournalDamage",
    "JournalEventStore",
    "LEGACY_DIR",
    "LOCK_FILE",
    "ListReport",
    "MemoryDisk",
    "MemoryEventStore",
    "PREV_SUFFIX",
    "REPAIR_HINT",
    "Recovery",
    "StoreError",
    "StoreInUseError",
    "StoreNotice",
    "TAIL_CHUNK",
    "TORN_SUFFIX",
    "Tables",
    "TinyDBEventStore",
    "act_as_store_owner",
    "atomic_write",
    "check_list_id",
    "default_directory",
    "device_id",
    "read_line",
    "repair_device_id",
]
