"""Migration from the store written before the journal: every old list becomes a journal, the
old files move into ``before-journal/``; nothing is deleted."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from device.journal import GENESIS, chain_hash, journal_line
from drivers.store.errors import InvalidEventError, StoreError, StoreNotice
from drivers.store.files import LEGACY_DIR, _free_name, _fsync_dir, atomic_write
from drivers.store.legacy import has_legacy_lists, read_legacy_lists
from drivers.store.values import _events_to_json


def convert_old_store(directory: Path, journal_path: Callable[[str], Path]) -> list[StoreNotice]:
    """Turn a store written before the journal into journals (``journal_path(list_id)`` names
    each); keep the old files aside. What was done, for the log and the status bar."""
    if not has_legacy_lists(directory):
        return []
    lists, notes, old = read_legacy_lists(directory)
    for lid, events in lists:
        head, lines = GENESIS, []
        try:
            docs = _events_to_json(events)
        except InvalidEventError as exc:
            raise StoreError(f"cannot convert the old list {lid}: {exc}", path=directory) from None
        for doc in docs:
            lines.append(journal_line(head, doc))
            head = chain_hash(head, doc)
        atomic_write(journal_path(lid), b"".join(lines))
    aside = _free_name(directory / LEGACY_DIR, "")
    aside.mkdir()
    for path in old:
        os.rename(path, aside / path.name)
    _fsync_dir(aside)
    _fsync_dir(directory)
    total = sum(len(events) for _, events in lists)
    return [StoreNotice("converted", f"converted the old store ({len(lists)} lists, {total}"
                        f" events) into journals; the old files are kept in {aside}"),
            *(StoreNotice("old_copy", note) for note in notes)]
