"""The members' names a club lets the league show: the body of ``POST /api/v1/people``.

    {"v": 1, "people": {member id on a list: {"person": the person's id, "name": text or null}}}

Outside the signed lists on purpose: the tables' chains keep the seats as typed and stay
verifiable, while what the league *shows* for a member follows the club's roster now (a
member who withdrew consent, or was erased at the club, is "Spieler N (Verein)" from the next
send on). A club sends its whole map each time; members missing from it are not named.
"""

from __future__ import annotations

import json
from typing import Any

from device.sync import SyncRefused

__all__ = ["MAX_PEOPLE", "parse_people", "people_map", "pseudonym"]

MAX_PEOPLE = 20_000
"""More member ids than any club's lists carry: a bigger map is refused."""


def pseudonym(n: int) -> str:
    """The name of a member the league may not name: "Spieler 3" (the club is added by the ranking)."""
    return f"Spieler {n}"


def _text(value: Any, limit: int) -> str | None:
    return value if isinstance(value, str) and 0 < len(value) <= limit and value == value.strip() else None


def parse_people(body: bytes) -> dict[str, tuple[str, str | None]]:
    """member id -> (person id, league name or None), each part checked; a bad body is refused in words.

    >>> parse_people(b'{"v": 1, "people": {"p9": {"person": "p2", "name": "Anna Adler"}, "p3": {"person": "p3", "name": null}}}')
    {'p9': ('p2', 'Anna Adler'), 'p3': ('p3', None)}
    >>> parse_people(b'{"v": 1, "people": {"p9": {"person": "", "name": "Anna"}}}')
    Traceback (most recent call last):
    ...
    device.sync.SyncRefused: bad_payload: the member p9: "person" must be an id of 1 to 64 characters
    """
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise SyncRefused("bad_json", "the request's body is not JSON") from None
    return people_map(data.get("people") if isinstance(data, dict) else None)


def people_map(people: Any) -> dict[str, tuple[str, str | None]]:
    """A people map as a club sends it (alone, or with a forward: the members its entries seat), checked."""
    if not isinstance(people, dict) or len(people) > MAX_PEOPLE:
        raise SyncRefused("bad_payload", f'people must map at most {MAX_PEOPLE} member ids to {{"person", "name"}}')
    out: dict[str, tuple[str, str | None]] = {}
    for member, value in people.items():
        if _text(member, 64) is None or not isinstance(value, dict):
            raise SyncRefused("bad_payload", f"the member {str(member)[:64]!r} is not an id with an object")
        person, name = _text(value.get("person"), 64), value.get("name")
        if person is None:
            raise SyncRefused("bad_payload", f'the member {member}: "person" must be an id of 1 to 64 characters')
        if name is not None and _text(name, 100) is None:
            raise SyncRefused("bad_payload", f'the member {member}: "name" must be text of 1 to 100 characters or null')
        out[member] = (person, name)
    return out
