"""One name per person on the league's pages, as the club allows it.

A list names its players as typed at the table and carries each member's id (``members``);
the club says per member id who that is and which name the league may show
(:mod:`drivers.league.people`). So the pages show, for a seat:

* a guest (no member id): the name as typed;
* a member the club names: that name (the same for every spelling typed at the tables, so
  "Jürgen" and "Jürgen Z." on two match days are one player of the season);
* a member the league may not name (no consent, erased at the club, or not yet told):
  "Spieler N", N counted per club (the ranking adds the club: "Spieler 3 (SC Herz)").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import replace

from drivers.league.people import pseudonym
from ui.club.paper import PaperList

People = Mapping[tuple[str, str], tuple[str, str | None]]


class LeagueNames:
    """The shown name of each seat: :meth:`name` (club id, name as typed, member id)."""

    def __init__(self, people: People, pseudonyms: Mapping[tuple[str, str], int]) -> None:
        self.people = people
        self.pseudonyms = pseudonyms

    @staticmethod
    def unnamed(people: People, seats: Iterable[tuple[str, str]]) -> set[tuple[str, str]]:
        """The (club, person) of the seats (club, member id) the league may not name: they need a pseudonym."""
        out = set()
        for club, member in seats:
            person, name = people.get((club, member), (member, None))
            if name is None:
                out.add((club, person))
        return out

    def name(self, club: str, typed: str, member: str) -> str:
        """
        >>> names = LeagueNames({("c1", "p9"): ("p2", "Anna Adler"), ("c1", "p3"): ("p3", None)}, {("c1", "p3"): 1})
        >>> [names.name("c1", t, m) for t, m in (("Anna", "p9"), ("Bernd", "p3"), ("Gast", ""))]
        ['Anna Adler', 'Spieler 1', 'Gast']
        """
        if not member:
            return typed
        person, name = self.people.get((club, member), (member, None))
        if name is not None:
            return name
        n = self.pseudonyms.get((club, person))
        return pseudonym(n) if n is not None else "Spieler ?"

    def of_list(self, club: str, members: Mapping[str, str]) -> dict[str, str]:
        """Each typed name of one list (``members``: typed name -> member id) -> the shown name."""
        return {typed: self.name(club, typed, member) for typed, member in members.items()}


def renamed_paper(paper: PaperList, shown: Mapping[str, str]) -> PaperList:
    """The paper list with each player's name as the league shows it (every place it appears)."""
    if not shown:
        return paper

    def one(name: str) -> str:
        return shown.get(name, name)

    pattern = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(n) for n in sorted(shown, key=len, reverse=True)) + r")(?!\w)")

    def within(text: str) -> str:
        return pattern.sub(lambda m: shown[m.group(0)], text)

    rows = tuple(replace(r, dealer=one(r.dealer), declarer=one(r.declarer)) for r in paper.rows)
    return replace(paper, players=tuple(one(p) for p in paper.players), rows=rows,
                   confirmed=tuple(one(c) for c in paper.confirmed), in_progress=within(paper.in_progress),
                   notes=tuple(within(n) for n in paper.notes))
