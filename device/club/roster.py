"""The club's members as the laptop keeps them: one person, one name everywhere.

The roster document (the collector's ``roster``) is a list of objects; every field but
``name`` is optional, so older rosters (``{"name", "short", "publish"}``) still load:

    name     the full name ("Jürgen Meier"); shown on the public pages only if ``publish``
    short    the short name the tables show and the lists carry ("Jürgen")
    publish  whether the full name may be shown (default true); else the short name is
    member   the club's member number (Mitgliedsnummer), "" for a guest
    card     the member card's id (an RFID UID or a barcode), "" for none
    aliases  other spellings typed at tables that mean this person (kept by a merge or a rename)
    id       the person's member id in the lists: opaque ("p3f9c…"), made once from the name
             and kept through renames; a list's ``members`` carry it, never the member number
    former   ids of entries merged into this one (their lists count for this person)
    first    the first name (Vorname) as the member list gave it, to write the list back
    league   whether the league may name this member (default true): else the league shows
             "Spieler N (Verein)"; if it may, it shows the name the club's pages show (``shown``)
    category the member list's Kategorie ("Damen", "Senioren, Jugend"): the Preisskat's fees and
             category rankings draw their players from it; public only if ``publish``
    team     the member list's Mannschaft: a team ranking's players unless the organiser names them

Lists name their players as typed at the table (the short name, the full name or another
spelling); :meth:`Roster.person` finds whom a name (or a list's member id) means, so the
ranking and the season add up by the person, and :meth:`Roster.shown` gives the one name the
pages, exports and chart show. A name no entry knows is a guest, kept by that name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
import hashlib
from dataclasses import dataclass, field, replace
from typing import Any

from device.club.members_csv import MAX_SHORT, MemberRow

__all__ = ["Person", "Roster", "RosterError", "fold", "new_id"]


class RosterError(ValueError):
    """A roster change that cannot be made, in words for the organiser."""


def fold(name: str) -> str:
    """A name for matching: blanks collapsed, case ignored.

    >>> fold("  Jürgen   MEIER ")
    'jürgen meier'
    """
    return " ".join(name.split()).casefold()


def new_id(name: str) -> str:
    """A person's id in the lists, made from the name the entry first had (opaque, stable
    once stored: a rename keeps it).

    >>> new_id("Jürgen Meier") == new_id(" jürgen  meier"), len(new_id("x"))
    (True, 11)
    """
    return "p" + hashlib.sha256(fold(name).encode("utf-8")).hexdigest()[:10]


@dataclass(frozen=True, slots=True)
class Person:
    """One member (or a guest the organiser entered) of the roster."""

    name: str
    short: str
    publish: bool = True
    member: str = ""
    card: str = ""
    aliases: tuple[str, ...] = field(default=())
    id: str = ""
    former: tuple[str, ...] = field(default=())
    first: str = ""
    league: bool = True
    category: str = ""
    team: str = ""

    def __post_init__(self) -> None:
        if not self.id:
            object.__setattr__(self, "id", new_id(self.name))

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Person:
        name = " ".join(str(raw.get("name", "")).split())
        if not name:
            raise RosterError("ein Eintrag ohne Namen")
        short = " ".join(str(raw.get("short") or "").split()) or name.split()[0]
        aliases = tuple(str(a) for a in raw.get("aliases") or () if str(a).strip())
        former = tuple(str(a) for a in raw.get("former") or () if str(a).strip())
        return cls(name, short, bool(raw.get("publish", True)), str(raw.get("member") or "").strip(),
                   str(raw.get("card") or "").strip(), aliases, str(raw.get("id") or "").strip(), former,
                   str(raw.get("first") or "").strip(), bool(raw.get("league", True)), _cell(raw.get("category")),
                   _cell(raw.get("team")))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "short": self.short, "publish": self.publish, "id": self.id}
        if self.member:
            out["member"] = self.member
        if self.card:
            out["card"] = self.card
        if self.aliases:
            out["aliases"] = list(self.aliases)
        if self.former:
            out["former"] = list(self.former)
        if self.first:
            out["first"] = self.first
        if not self.league:
            out["league"] = False
        if self.category:
            out["category"] = self.category
        if self.team:
            out["team"] = self.team
        return out

    def in_category(self, category: str) -> bool:
        """Whether the member list puts this person in ``category`` (case ignored).

        >>> Person("Erika Ernst", "Erika", category="Damen, Senioren").in_category("senioren")
        True
        """
        return fold(category) in {fold(c) for c in self.category.split(",") if c.strip()}

    @property
    def first_and_last(self) -> tuple[str, str]:
        """(Vorname, Name) for the member list: as imported, else split at the first blank."""
        if self.first and self.name.startswith(self.first + " "):
            return self.first, self.name[len(self.first) + 1:]
        first, _, last = self.name.partition(" ")
        return (first, last) if last else ("", first)

    @property
    def shown(self) -> str:
        """The name the public pages show: the full name if published, else the short name."""
        return self.name if self.publish else self.short

    @property
    def league_name(self) -> str | None:
        """The name the league may show (None: "Spieler N" there): as the club's pages, if allowed.

        >>> Person("Jürgen Meier", "Jürgen", publish=False).league_name
        'Jürgen'
        >>> Person("Anna Adler", "Anna", league=False).league_name is None
        True
        """
        return self.shown if self.league else None

    def spellings(self) -> tuple[str, ...]:
        return (self.name, self.short, *self.aliases)


class Roster:
    """The roster, looked up by member number, card and any spelling of a name.

    >>> r = Roster.from_json([{"name": "Jürgen Meier", "short": "Jürgen", "publish": False, "member": "17"},
    ...                       {"name": "Anna Adler", "short": "Anna", "aliases": ["A. Adler"]}])
    >>> r.person("juergen", new_id("Jürgen Meier")), r.person("Jürgen"), r.person("a. adler"), r.person("Gast")
    ('Jürgen Meier', 'Jürgen Meier', 'Anna Adler', 'Gast')
    >>> r.shown("Jürgen Meier"), r.shown("Jürgen"), r.shown("Anna"), r.shown("Gast")
    ('Jürgen', 'Jürgen', 'Anna Adler', 'Gast')
    """

    def __init__(self, people: Iterable[Person] = ()) -> None:
        self.people: tuple[Person, ...] = tuple(people)
        self._by_member = {p.member: p for p in reversed(self.people) if p.member}
        self._by_id = {i: p for p in reversed(self.people) for i in (*p.former, p.id)}
        self._by_card = {p.card: p for p in reversed(self.people) if p.card}
        self._by_name: dict[str, Person] = {}
        for rank in (lambda p: (p.name,), lambda p: (p.short,), lambda p: p.aliases):  # full names win over short
            for person in self.people:
                for spelling in rank(person):
                    self._by_name.setdefault(fold(spelling), person)

    @classmethod
    def from_json(cls, raw: object) -> Roster:
        """The roster document (a list of objects; a bare string is a name); None: empty."""
        if not isinstance(raw, list):
            return cls()
        return cls(Person.from_json(item if isinstance(item, dict) else {"name": item}) for item in raw
                   if isinstance(item, dict) and item.get("name") or isinstance(item, str) and item.strip())

    def to_json(self) -> list[dict[str, Any]]:
        return [p.to_json() for p in self.people]

    def find(self, name: str, member: str = "") -> Person | None:
        """The entry a list's name (and member id, if the list has one) means, or None: a guest."""
        if member and member in self._by_id:
            return self._by_id[member]
        return self._by_name.get(fold(name))

    def by_member(self, number: str) -> Person | None:
        """The entry with this member number (Mitgliedsnummer)."""
        return self._by_member.get(number.strip())

    def by_card(self, card: str) -> Person | None:
        return self._by_card.get(card.strip())

    def person(self, name: str, member: str = "") -> str:
        """The key the ranking and the season add up by: the entry's full name, else the name."""
        found = self.find(name, member)
        return found.name if found is not None else " ".join(name.split())

    def shown(self, name: str, member: str = "") -> str:
        """The one name the pages, exports and chart show for ``name`` (a key or any spelling)."""
        found = self.find(name, member)
        return found.shown if found is not None else name

    def short(self, name: str, member: str = "") -> str:
        """The short name a table shows for ``name`` (a guest: the name as given)."""
        found = self.find(name, member)
        return found.short if found is not None else name

    def table_roster(self) -> list[dict[str, str]]:
        """What the tables get with each ack: short names and card ids only (no full names,
        no member numbers). ``name`` carries the short name for tables that read only ``name``."""
        return [{"name": p.short, "short": p.short, "id": p.id, **({"card": p.card} if p.card else {})}
                for p in self.people]

    def ids(self, names: Iterable[str]) -> list[str]:
        """The member ids for a table's players ("" for a guest), as a list's ``members``."""
        return [found.id if (found := self.find(n)) is not None else "" for n in names]

    # -- the organiser's changes ------------------------------------------------------------

    def put(self, person: Person, *, was: str = "") -> Roster:
        """``person`` added, or replacing the entry named ``was`` (a rename keeps the old
        spellings as aliases, so the season stays with the person)."""
        old = self.find(was) if was else None
        if old is not None:
            person = replace(person, id=old.id, former=old.former)
            kept = tuple(dict.fromkeys(a for a in (*old.aliases, old.name, old.short, *person.aliases)
                                       if fold(a) not in (fold(person.name), fold(person.short))))
            person = replace(person, aliases=kept)
        self._check_unique(person, old)
        if old is None:
            return Roster((*self.people, person))
        return Roster(person if p is old else p for p in self.people)

    def remove(self, name: str) -> Roster:
        gone = self.find(name)
        return Roster(p for p in self.people if p is not gone)

    def merge(self, keep: str, other: str) -> Roster:
        """``other`` folded into ``keep``: one person with both spellings (and a member number
        or card ``keep`` lacks); every list of either counts for ``keep`` from now on. ``other``
        may be a guest's name the roster does not know (a spelling typed at a table)."""
        kept, gone = self.find(keep), self.find(other)
        if kept is None:
            raise RosterError(f"„{keep}“ steht nicht in der Spielerliste")
        if gone is None:
            if not other.strip():
                raise RosterError("Wen zusammenführen? Zwei Einträge wählen")
            spelled = replace(kept, aliases=tuple(dict.fromkeys((*kept.aliases, " ".join(other.split())))))
            return Roster(spelled if p is kept else p for p in self.people)
        if kept is gone:
            raise RosterError(f"„{keep}“ und „{other}“ sind schon dieselbe Person")
        for what in ("member", "card"):
            if getattr(kept, what) and getattr(gone, what) and getattr(kept, what) != getattr(gone, what):
                word = "Mitgliedsnummern" if what == "member" else "Karten"
                raise RosterError(f"{kept.name} und {gone.name} haben verschiedene {word} "
                                  f"({getattr(kept, what)}, {getattr(gone, what)}): erst eine entfernen")
        aliases = tuple(dict.fromkeys(a for a in (*kept.aliases, gone.name, gone.short, *gone.aliases)
                                      if fold(a) not in (fold(kept.name), fold(kept.short))))
        merged = replace(kept, member=kept.member or gone.member, card=kept.card or gone.card, aliases=aliases,
                         category=kept.category or gone.category, team=kept.team or gone.team,
                         former=tuple(dict.fromkeys((*kept.former, gone.id, *gone.former))))
        return Roster(merged if p is kept else p for p in self.people if p is not gone)

    def imported(self, rows: Iterable[MemberRow]) -> Roster:
        """The roster after the club's member list: a member found by number (else a guest
        entry of the same full name) is updated, a rename keeping his old spellings and his id;
        everyone else is added (full name not published until the organiser says so). A card
        or short name another person holds is refused with the file's line: nothing changes."""
        roster = self
        for row in rows:
            old = (roster.by_member(row.member) if row.member else None) or next(
                (p for p in roster.people if not p.member and fold(p.name) == fold(row.name)), None)
            short = row.short or (old.short if old is not None else "") or _free_short(roster, row, old)
            person = Person(row.name, short, row.publish if row.publish is not None else (old.publish if old else False),
                            row.member, row.card or (old.card if old is not None else ""), first=row.first,
                            league=old.league if old is not None else True,
                            category=_kept(row.category, old.category if old is not None else ""),
                            team=_kept(row.team, old.team if old is not None else ""))
            try:
                roster = roster.put(person, was=old.name if old is not None else "")
            except RosterError as exc:
                raise RosterError(f"Zeile {row.line}: {exc}") from None
            taken = next((p for p in roster.people if p.name != person.name and fold(p.short) == fold(short)), None)
            if row.short and taken is not None:
                raise RosterError(f"Zeile {row.line}: den Kurznamen {short} hat schon {taken.name}")
        return roster

    def _check_unique(self, person: Person, old: Person | None) -> None:
        for p in self.people:
            if p is old:
                continue
            if person.member and p.member == person.member:
                raise RosterError(f"Mitgliedsnummer {person.member} hat schon {p.name}")
            if person.card and p.card == person.card:
                raise RosterError(f"Karte {person.card} gehört schon {p.name}")
            if fold(p.name) == fold(person.name):
                raise RosterError(f"{person.name} steht schon in der Spielerliste (zusammenführen statt doppelt)")


def _cell(value: object) -> str:
    return " ".join(str(value or "").split())


def _kept(given: str | None, had: str) -> str:
    """A member-list column's value, or what the roster had when the file has no such column."""
    return had if given is None else given


def _free_short(roster: Roster, row: MemberRow, old: Person | None) -> str:
    """The first name as the short name, with the surname's initial if another person has it
    ("Peter M."), cut to :data:`MAX_SHORT` characters."""
    taken = {fold(p.short) for p in roster.people if p is not old}
    first = (row.first or row.last)[:MAX_SHORT]
    if fold(first) not in taken or not row.last or not row.first:
        return first
    return f"{row.first[:MAX_SHORT - 3]} {row.last[0]}."
