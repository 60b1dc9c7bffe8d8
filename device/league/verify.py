"""What the league checks in a forwarded list beyond its hash chain.

The chain itself is checked as the collector checks it (:func:`device.sync.plan_batch`). On
top, each player's confirmation (``list_confirmed``) and the closing (``list_closed``) name
the chain head the players signed: it must be the head just before that event, its ``prev``.
A club that rewrote a list and hashed it anew would have to make every signature name the
new head too; a confirmation naming another head is refused and kept aside.

>>> from device.sync import journal_entries
>>> entries = journal_entries([{"seq": 1, "type": "list_opened", "data": {}},
...                            {"seq": 2, "type": "list_confirmed", "data": {"seat": 0, "head": "x" * 64}}])
>>> check_confirmations(entries)
Traceback (most recent call last):
...
device.sync.SyncRefused: bad_confirmation: seq 2: the confirmation names another chain head than the list's (xxxxxxxxxxxx… instead of 033e1182a05c…)
"""

from __future__ import annotations

from collections.abc import Sequence

from device.journal import JournalEntry
from device.sync import SyncRefused

__all__ = ["SIGNING_TYPES", "check_confirmations"]

SIGNING_TYPES = frozenset({"list_confirmed", "list_closed"})


def check_confirmations(entries: Sequence[JournalEntry]) -> None:
    """Raise ``bad_confirmation`` for a signature whose head is not the chain's just before it."""
    for entry in entries:
        event = entry.event
        if event.get("type") not in SIGNING_TYPES:
            continue
        data = event.get("data")
        head = data.get("head", "") if isinstance(data, dict) else ""
        if head and head != entry.prev:
            raise SyncRefused("bad_confirmation", f"seq {event.get('seq')}: the confirmation names another chain "
                                                  f"head than the list's ({str(head)[:12]}… instead of "
                                                  f"{entry.prev[:12]}…)", 422)
