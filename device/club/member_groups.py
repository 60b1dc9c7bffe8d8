"""The Preisskat's categories and teams as the club's member list gives them.

The organiser may leave a fee category, a category ranking or a team ranking's players to the
member list's ``Kategorie`` and ``Mannschaft`` columns (:class:`device.club.roster.Person`);
:func:`from_member_list` fills them in for one evening, so the conditions as stored stay as the
organiser wrote them and the member list may change until the evening is settled.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from device.club.money import KINDS, Conditions, ExtraRanking, FeeCategory, MoneyError, PrizePlan

__all__ = ["from_member_list"]


def from_member_list(conditions: Conditions, category_of: Mapping[str, str], team_of: Mapping[str, str],
                     playing: Iterable[str]) -> Conditions:
    """``conditions`` with what the organiser left to the member list filled in.

    A fee category or a category ranking without players gets the evening's ``playing``
    players whose Kategorie (``category_of``: person -> "Damen, Senioren") names it (a player in
    two fee categories pays the first's fee). A team without players gets every member whose
    Mannschaft (``team_of``) is its name, but for those the organiser named in another team; a
    team ranking without teams gets the teams of the evening's players. Refused
    (:class:`MoneyError`) as the organiser's own groups would be: a team of the member list
    without four players names the team.

    >>> c = Conditions(categories=(FeeCategory("Jugend", 0, ()),), extras=(
    ...     ExtraRanking("Damen", "kategorie", 200, (), PrizePlan(places=1, amounts=(100,))),
    ...     ExtraRanking("Mannschaft", "mannschaft", 400, (), PrizePlan(places=1, amounts=(100,)))))
    >>> cats = {"Eva": "Damen", "Kurt": "Jugend", "Lisa": "jugend, damen"}
    >>> teams = {n: "Asse" for n in ("Eva", "Kurt", "Lisa", "Otto")}
    >>> drawn = from_member_list(c, cats, teams, ["Eva", "Kurt", "Lisa", "Max"])
    >>> drawn.categories[0].players, drawn.extras[0].groups, drawn.extras[1].groups
    (('Kurt', 'Lisa'), (('Damen', ('Eva', 'Lisa')),), (('Asse', ('Eva', 'Kurt', 'Lisa', 'Otto')),))
    >>> from_member_list(c, cats, {"Eva": "Asse"}, ["Eva"])
    Traceback (most recent call last):
    ...
    device.club.money.MoneyError: Mannschaft: Asse: hat 1 Spieler, nicht 4
    """
    columns = _Columns(sorted(set(playing), key=str.casefold), category_of, team_of)
    categories: list[FeeCategory] = []
    for category in conditions.categories:
        taken = [p for c in categories for p in c.players]
        categories.append(replace(category, players=category.players or columns.in_category(category.name, taken)))
    return replace(conditions, categories=tuple(categories), extras=tuple(columns.extra(e) for e in conditions.extras))


class _Columns:
    """The member list's Kategorie and Mannschaft of the evening's players."""

    def __init__(self, playing: list[str], category_of: Mapping[str, str], team_of: Mapping[str, str]) -> None:
        self.playing = playing
        self.category_of = category_of
        self.team_of = team_of

    def in_category(self, name: str, taken: Iterable[str]) -> tuple[str, ...]:
        """The evening's players in category ``name`` but ``taken``."""
        wanted, skip = _folded(name), set(taken)
        return tuple(p for p in self.playing if p not in skip
                     and wanted in {_folded(c) for c in self.category_of.get(p, "").split(",")})

    def in_team(self, name: str, taken: Iterable[str]) -> tuple[str, ...]:
        """Every member of team ``name`` (here tonight or not) but ``taken``."""
        skip = set(taken)
        return tuple(sorted((p for p, t in self.team_of.items() if _folded(t) == _folded(name) and p not in skip),
                            key=str.casefold))

    def extra(self, extra: ExtraRanking) -> ExtraRanking:
        """``extra`` with its groups' players; the organiser's players stay where he put them."""
        if extra.kind not in ("kategorie", "mannschaft"):
            return extra
        groups = extra.groups or self._groups(extra)
        draw = self.in_category if extra.kind == "kategorie" else self.in_team
        taken = [p for _, players in groups for p in players]
        groups = tuple((g, players or draw(g, taken)) for g, players in groups)
        size = KINDS[extra.kind]
        for group, players in groups:
            if size and len(players) != size:
                raise MoneyError(f"{extra.name}: {group}", f"hat {len(players)} Spieler, nicht {size}")
        return replace(extra, groups=groups)

    def _groups(self, extra: ExtraRanking) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """A category ranking: the one group of its name; a team ranking: the evening's teams."""
        if extra.kind == "kategorie":
            return ((extra.name, ()),)
        teams = dict.fromkeys(self.team_of[p] for p in self.playing if self.team_of.get(p, "").strip())
        return tuple((team, ()) for team in sorted(teams, key=str.casefold))


def _folded(text: str) -> str:
    return " ".join(text.split()).casefold()
