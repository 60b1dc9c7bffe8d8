"""Check and recover: verify every journal line by line; keep every whole event before the
first damage and move the rest aside (``<journal>.damaged``, never deleted), keeping the
file's owner and mode."""

from __future__ import annotations

from collections.abc import Iterable

from drivers.store.errors import JournalDamage, ListReport, Recovery, StoreError
from drivers.store.files import DAMAGED_SUFFIX, _fsync_dir
from drivers.store.journal import _Journal, _move_tail_aside, open_journal, read_journal


def check_journals(journals: Iterable[_Journal]) -> list[ListReport]:
    """Read and verify each journal; one report per list, in the order given."""
    reports = []
    for journal in journals:
        try:
            count = len(read_journal(journal))
            reports.append(ListReport(journal.list_id, str(journal.path), count, journal.head, None))
        except StoreError as problem:
            kept = problem.kept if isinstance(problem, JournalDamage) else 0
            reports.append(ListReport(journal.list_id, str(journal.path), kept, journal.head, str(problem)))
    return reports


def recover_journal(journal: _Journal, unusable: tuple[int, str] | None = None) -> tuple[Recovery, _Journal]:
    """Keep every whole event before the first damaged line, move the rest aside; what was done
    and the journal as it is now. The caller closes its append handle on the file first.

    ``unusable``: (line, why) of a whole line the table cannot use (``store check`` replays
    the events): it and the lines after it are moved aside the same way.
    """
    lid = journal.list_id
    try:
        count = len(read_journal(journal))
        if unusable is not None and 0 < unusable[0] <= count:
            line, why = unusable
            raise JournalDamage(journal.path, line, journal.offsets[line - 1], why, line - 1)
    except JournalDamage as damage:
        aside = _move_tail_aside(journal.path, damage.offset, DAMAGED_SUFFIX)
        _fsync_dir(journal.path.parent)
        repaired = open_journal(lid, journal.path, [])
        count = len(read_journal(repaired))
        return Recovery(lid, True, count, str(aside),
                        f"{damage}. Kept the {count} events before it in {journal.path};"
                        f" the rest was moved to {aside}."), repaired
    return Recovery(lid, False, count, None, f"{journal.path} is fine ({count} events); nothing to do."), journal
