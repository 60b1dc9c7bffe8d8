"""What the store reports: its errors (each names the file and why) and what check, recover
and opening did."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from device.errors import SkatError


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


