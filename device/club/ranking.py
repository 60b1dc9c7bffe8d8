"""The evening's ranking across tables: per series and in total, by SkWO 5.1.

Every figure of a list comes from :func:`device.table.listing.figures` — the same code the
table's list screen and ``skattisch sheet`` use — scored by Seeger-Fabian whatever the table
chose for its own list (a Preisskat is ranked by the Leistung). A player's result at a list
is :class:`ListResult`; the ranking adds them up per player and orders by
:func:`device.scoring.rank`: higher Leistung, more won games, fewer lost games, then the lot.

Two four-tables of one series, Platz 1 dealing; Bernd wins a Grand with 2 (+72) at table 1,
Frida loses a Kreuz Hand with 2 (-96) at table 2:

>>> from device.table.state import Row
>>> from device.table.rotation import active_seats
>>> from device.record import score_record
>>> def game(seat, record, players):
...     r = score_record(record).result
...     return Row(1, "game", 0, active_seats(0, 4), players, record, seat, r)
>>> t1 = ("Anna", "Bernd", "Carla", "Dieter")
>>> t2 = ("Erik", "Frida", "Gert", "Hanna")
>>> grand = {"game": "grand", "bid": 18, "matadors": 2, "declarer_points": 70, "declarer_tricks": 6}
>>> lost = {"game": "clubs", "hand": True, "bid": 18, "matadors": 2, "declarer_points": 50, "declarer_tricks": 4}
>>> lists = [PlayedList(1, 1, t1, (game(1, grand, t1),)), PlayedList(1, 2, t2, (game(1, lost, t2),))]
>>> results = [r for l in lists for r in list_results(l)]
>>> for line in ranking(results, lot_seed="2026-11-26")[:4]:   # the lot by the evening's id
...     print(line.rank, line.player, line.leistung, line.points, line.won, line.lost)
1 Bernd 122 72 1 0
2 Gert 30 0 0 0
3 Erik 30 0 0 0
4 Hanna 30 0 0 0
>>> [line.by_lot for line in ranking(results, lot_seed="2026-11-26")[:4]]
[False, True, True, True]
>>> [(line.rank, line.player) for line in ranking(results)][-4:]   # no lot: places shared
[(5, 'Anna'), (5, 'Carla'), (5, 'Dieter'), (8, 'Frida')]
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from device.scoring import ScoringSystem, rank
from device.table.listing import figures
from device.table.state import Row

__all__ = ["ListResult", "PlayedList", "RankLine", "list_results", "lot_ticket", "ranking", "series_ranking"]


@dataclass(frozen=True, slots=True)
class PlayedList:
    """One table's list in one series: its seating at the start (Platz 1 first) and rows."""

    series: int
    table: int
    seating: tuple[str, ...]
    rows: tuple[Row, ...]


@dataclass(frozen=True, slots=True)
class ListResult:
    """One player's result at one list: Spielpunkte, own won/lost games, Leistung (SkWO 5.1)."""

    player: str
    series: int
    table: int
    points: int
    won: int
    lost: int
    leistung: int


@dataclass(frozen=True, slots=True)
class RankLine:
    """One line of a ranking. ``by_lot``: the place was decided by the lot (all else equal)."""

    rank: int
    player: str
    leistung: int
    points: int
    won: int
    lost: int
    lists: int
    tables: tuple[int, ...]
    by_lot: bool = False
    series_tables: tuple[tuple[int, int], ...] = ()  # (series, table) of each list, by series


def list_results(played: PlayedList) -> tuple[ListResult, ...]:
    """Each player's result at ``played``, from the list figures the table shows."""
    fig = figures(played.rows, played.seating, ScoringSystem.SEEGER_FABIAN)
    return tuple(
        ListResult(name, played.series, played.table, fig.classic[i], fig.won[i], fig.lost[i], fig.totals[i])
        for i, name in enumerate(fig.players))


def lot_ticket(seed: int | str, player: str) -> bytes:
    """``player``'s ticket in the lot seeded by ``seed`` (SkWO 5.1): the lower ticket draws the better place.

    The ticket depends on the whole seed (an evening's id) and the player's name only, not on
    who else is ranked: the Wertung of an evening and the season draw two equal players in the
    same order, and evenings whose ids share a prefix draw differently.

    >>> lot_ticket("2026-11-05", "Anna") != lot_ticket("2026-11-26", "Anna")
    True
    """
    return hashlib.sha256(f"{seed}\n{player}".encode("utf-8")).digest()


def ranking(results: Iterable[ListResult], *, lot_seed: int | str | None = None) -> tuple[RankLine, ...]:
    """The ranking of ``results`` added up per player (SkWO 5.1 with its tie-breaks).

    Without ``lot_seed`` equal players share the place; with one a reproducible lot
    (:func:`lot_ticket`) separates them and their lines say ``by_lot``.
    """
    players: dict[str, list[int]] = {}
    tables: dict[str, list[int]] = {}
    series_tables: dict[str, list[tuple[int, int]]] = {}
    for r in results:
        sums = players.setdefault(r.player, [0, 0, 0, 0, 0])
        sums[0] += r.leistung
        sums[1] += r.points
        sums[2] += r.won
        sums[3] += r.lost
        sums[4] += 1
        tables.setdefault(r.player, []).append(r.table)
        series_tables.setdefault(r.player, []).append((r.series, r.table))
    names = sorted(players)
    figures_ = [players[n] for n in names]
    standings = rank([f[0] for f in figures_], [f[2] for f in figures_], [f[3] for f in figures_])
    if lot_seed is not None:  # equal players (one shared place) drawn apart; places 1, 2, 3, ...
        standings = tuple(
            replace(s, rank=place) for place, s in enumerate(
                sorted(standings, key=lambda s: (s.rank, lot_ticket(lot_seed, names[s.player]))), start=1))
    merits = [(f[0], f[2], f[3]) for f in figures_]
    how_many = Counter(merits)
    lines = []
    for s in standings:
        f = figures_[s.player]
        tied = lot_seed is not None and how_many[merits[s.player]] > 1
        name = names[s.player]
        lines.append(RankLine(s.rank, name, f[0], f[1], f[2], f[3], f[4], tuple(tables[name]), tied,
                              tuple(sorted(series_tables[name]))))
    return tuple(lines)


def series_ranking(results: Sequence[ListResult], series: int, *,
                   lot_seed: int | str | None = None) -> tuple[RankLine, ...]:
    """The ranking of one series.

    >>> r = [ListResult("A", 1, 1, 10, 1, 0, 60), ListResult("B", 2, 1, 99, 2, 0, 199)]
    >>> [line.player for line in series_ranking(r, 1)]
    ['A']
    """
    return ranking((r for r in results if r.series == series), lot_seed=lot_seed)
