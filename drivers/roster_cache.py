"""The laptop's roster kept on the table: the table seats members by card offline too.

Every ack carries the club's roster (short names, member ids, cards: no full names, no member
numbers); the table writes it to ``laptop-roster.json`` beside its store when it changes and
reads it back at start, so a table that starts without the laptop still knows the cards.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from drivers.deck import write_atomically

FILE = "laptop-roster.json"
log = logging.getLogger(__name__)


def load_roster(directory: Path | str) -> list[Any] | None:
    """The roster the laptop last sent (None if none was kept, or the file is damaged)."""
    path = Path(directory) / FILE
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:  # a damaged copy: the next ack brings it again
        log.warning("the kept roster %s cannot be read (%s): waiting for the laptop's", path, exc)
        return None
    return value if isinstance(value, list) else None


class RosterKeeper:
    """Writes the ack's roster to the store's folder when it differs from the kept one."""

    def __init__(self, directory: Path | str) -> None:
        self.path = Path(directory) / FILE
        self._kept = load_roster(directory)

    def keep(self, roster: object) -> bool:
        """Keep ``roster`` (an ack's ``roster``); True if it was written."""
        if not isinstance(roster, list) or roster == self._kept:
            return False
        try:
            write_atomically(self.path, json.dumps(roster, ensure_ascii=False, sort_keys=True))
        except OSError as exc:
            log.warning("the laptop's roster could not be kept in %s: %s", self.path, exc)
            return False
        self._kept = roster
        return True
