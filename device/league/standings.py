"""The league's rankings: a match day across clubs, per player and per club, and the season.

Every figure is the club's own (:mod:`device.club.ranking`: SkWO 5.1 from each list's rows);
the league only adds lists of several clubs together. A player is known by name and club
("Anna Adler (SC Herz)"): two clubs' Annas are two players. A club's result on a match day
is the sum of its players' results there (Leistung, then won and lost games, then the lot);
its season counts each match day as one series, so the league's Streichwerte drop a club's
worst match days as they drop a player's worst series.

>>> a = LeagueList("SC A", "t1", "l1", "2026-11-26", 1, 1, (ListResult("Anna", 1, 1, 72, 1, 0, 122),
...                                                            ListResult("Bernd", 1, 1, 0, 0, 0, 30)))
>>> b = LeagueList("SC B", "t9", "l1", "2026-11-26", 1, 1, (ListResult("Anna", 1, 1, -96, 0, 1, -146),))
>>> [(l.rank, l.player, l.leistung) for l in player_ranking([a, b], "2026-11-26")]
[(1, 'Anna (SC A)', 122), (2, 'Bernd (SC A)', 30), (3, 'Anna (SC B)', -146)]
>>> [(l.rank, l.player, l.leistung) for l in club_ranking([a, b], "2026-11-26")]
[(1, 'SC A', 152), (2, 'SC B', -146)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from device.club.ranking import ListResult, RankLine, ranking
from device.club.season import SeasonLine, SeasonRules, SeriesResult, season_ranking

__all__ = ["LeagueList", "club_ranking", "club_season", "player_key", "player_ranking", "player_season"]


@dataclass(frozen=True, slots=True)
class LeagueList:
    """One table's list as the league counts it: whose, which match day, and its results."""

    club: str  # the club's name
    device: str
    list_id: str
    matchday: str  # the match day's date ("" when it belongs to none)
    series: int
    table: int
    results: tuple[ListResult, ...]


def player_key(name: str, club: str) -> str:
    return f"{name} ({club})"


def _of(lists: Iterable[LeagueList], matchday: str | None) -> list[LeagueList]:
    """The lists of ``matchday`` (None: of every match day) in one order, whatever order the store
    gave them in: by match day, series, table number, then club, table and list (so a ranking's
    ``tables`` and every export are the same bytes for the same lists)."""
    return sorted((item for item in lists if item.matchday and (matchday is None or item.matchday == matchday)),
                  key=lambda i: (i.matchday, i.series, i.table, i.club, i.device, i.list_id))


def player_ranking(lists: Iterable[LeagueList], matchday: str) -> tuple[RankLine, ...]:
    """The match day's individual ranking across clubs (the lot by the match day's date)."""
    return ranking((replace(r, player=player_key(r.player, item.club)) for item in _of(lists, matchday)
                    for r in item.results), lot_seed=matchday)


def club_ranking(lists: Iterable[LeagueList], matchday: str) -> tuple[RankLine, ...]:
    """The match day's club ranking: each club's players added up."""
    return ranking((replace(r, player=item.club) for item in _of(lists, matchday) for r in item.results),
                   lot_seed=matchday)


def player_season(lists: Sequence[LeagueList], rules: SeasonRules) -> tuple[SeasonLine, ...]:
    """The season per player over every match day, with the league's minimum and Streichwerte."""
    counted = _of(lists, None)
    results = [SeriesResult(item.matchday, item.series, player_key(r.player, item.club), r.points, r.won, r.lost,
                            r.leistung) for item in counted for r in item.results]
    return season_ranking(results, rules, lot_seed=max((i.matchday for i in counted), default=""))


def club_season(lists: Sequence[LeagueList], rules: SeasonRules) -> tuple[SeasonLine, ...]:
    """The season per club: each match day one series (its players added up)."""
    counted = _of(lists, None)
    days: dict[tuple[str, str], list[int]] = {}  # added up here: one result per club and match day, not per player
    for item in counted:
        total = days.setdefault((item.club, item.matchday), [0, 0, 0, 0])
        for r in item.results:
            total[0] += r.points
            total[1] += r.won
            total[2] += r.lost
            total[3] += r.leistung
    results = [SeriesResult(day, 1, club, *total) for (club, day), total in days.items()]
    return season_ranking(results, rules, lot_seed=max((i.matchday for i in counted), default=""))
