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


def _folded(text: str) -> str:
    return " ".join(text.split()).casefold()


def from_member_list(conditions: Conditions, category_of: Mapping[str, str], team_of: Mapping[str, str],
                     playing: Iterable[str]) -> Conditions:
    """``conditions`` with what the organiser left to the member list filled in: a fee category
    or category ranking without players gets the evening's ``playing`` players whose Kategorie
    (``category_of``: person -> "Damen, Senioren") names it (a player in two fee categories
    pays the first's fee); a team without players gets every member whose Mannschaft
    (``team_of``) is its name, but for those the organiser named in another of its teams; a team ranking without teams gets the teams of the evening's
    players. Refused (:class:`MoneyError`) as the organiser's own groups would be: a team of
    the member list without four players names the team.

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
    playing = sorted(set(playing), key=str.casefold)

    def in_category(name: str, taken: Iterable[str] = ()) -> tuple[str, ...]:
        wanted, skip = _folded(name), set(taken)
        return tuple(p for p in playing if p not in skip
                     and wanted in {_folded(c) for c in category_of.get(p, "").split(",")})

    def in_team(name: str, named: Iterable[str] = ()) -> tuple[str, ...]:
        skip = set(named)
        return tuple(sorted((p for p, t in team_of.items() if _folded(t) == _folded(name) and p not in skip),
                            key=str.casefold))

    categories: list[FeeCategory] = []
    for category in conditions.categories:
        named = category.players or in_category(category.name, (p for c in categories for p in c.players))
        categories.append(replace(category, players=named))
    extras = []
    for extra in conditions.extras:
        groups = extra.groups
        if not groups and extra.kind == "kategorie":
            groups = ((extra.name, ()),)
        elif not groups and extra.kind == "mannschaft":
            names = dict.fromkeys(team_of[p] for p in playing if team_of.get(p, "").strip())
            groups = tuple((name, ()) for name in sorted(names, key=str.casefold))
        draw = in_category if extra.kind == "kategorie" else in_team if extra.kind == "mannschaft" else None
        taken = [p for _, players in groups for p in players]  # the organiser's players stay where he put them
        groups = tuple((g, players or (draw(g, taken) if draw else ())) for g, players in groups)
        for group, players in groups:
            if KINDS[extra.kind] and len(players) != KINDS[extra.kind]:
                raise MoneyError(f"{extra.name}: {group}", f"hat {len(players)} Spieler, nicht {KINDS[extra.kind]}")
        extras.append(replace(extra, groups=groups))
    return replace(conditions, categories=tuple(categories), extras=tuple(extras))
