"""What the club tells the league about the members on its lists: whom each member id means
and the one name the league may show for that person (the players' consent, as the roster says).

    {member id on a list: {"person": the person's id now, "name": the name, or null}}

``name`` is what the club's own public pages show (the full name only if the member allowed
it, else the short name the club chose), null when the member is marked "in der Liga nicht
veröffentlichen" or is no longer in the roster (erased): the league then shows "Spieler N
(Verein)". ``person``: the id the roster keeps the person under (a merge folds other ids into
it), so the league counts one person once. Only members seated on the club's lists are sent;
guests (no member id) are named by the lists themselves.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from device.club.roster import Roster


def seated_members(season_results: Mapping[str, Any]) -> set[str]:
    """The member ids on the club's scored lists (the Evening's ``season_results``)."""
    return {str(m) for entry in season_results.values() if isinstance(entry, dict)
            for m in (entry.get("members") or {}).values() if m}


def league_people(roster: Roster, members: set[str]) -> dict[str, dict[str, str | None]]:
    """Each member id's person and league name (None: not to be named in the league).

    >>> r = Roster.from_json([{"name": "Jürgen Meier", "short": "Jürgen", "publish": False, "id": "p1"},
    ...                       {"name": "Anna Adler", "short": "Anna", "id": "p2", "former": ["p9"]},
    ...                       {"name": "Bernd Bube", "short": "Bernd", "id": "p3", "league": False}])
    >>> league_people(r, {"p1", "p9", "p3", "p7"})
    {'p1': {'person': 'p1', 'name': 'Jürgen'}, 'p3': {'person': 'p3', 'name': None}, 'p7': {'person': 'p7', 'name': None}, 'p9': {'person': 'p2', 'name': 'Anna Adler'}}
    """
    out: dict[str, dict[str, str | None]] = {}
    for member in sorted(members):
        person = roster.find("", member)
        out[member] = ({"person": person.id, "name": person.league_name} if person is not None
                       else {"person": member, "name": None})
    return out
