"""The season across evenings: per player series, points, Leistung, won/lost, average.

A club ranks its season by the average Leistung per series (SkWO 5.1 figures), counting only
players with at least ``minimum_series`` series and dropping each player's ``dropped_worst``
worst series (Streichwerte) while he keeps at least one. Ties as in SkWO 5.1: more won games,
then fewer lost games (over the counted series), then the lot.

>>> r = [SeriesResult("1", 1, "Anna", 100, 3, 1, 300), SeriesResult("1", 2, "Anna", 0, 0, 2, -100),
...      SeriesResult("1", 1, "Bernd", 50, 2, 0, 250), SeriesResult("2", 1, "Carla", 900, 9, 0, 1350)]
>>> for line in season_ranking(r, SeasonRules(minimum_series=2, dropped_worst=1)):
...     print(line.rank, line.player, line.series, line.counted, line.average, line.leistung)
1 Anna 2 1 300 200
None Carla 1 1 1350 1350
None Bernd 1 1 250 250
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

from device.club.ranking import lot_ticket
from device.errors import SkatError

__all__ = ["SeasonError", "SeasonLine", "SeasonRules", "SeriesResult", "season_chart", "season_ranking"]


class SeasonError(SkatError, ValueError):
    """Season settings that cannot work (a negative minimum, …)."""


class SeriesResult(NamedTuple):
    """One player's result in one series of one evening (his lists of that series added up).

    A named tuple, not a dataclass: a season holds thousands of them (40 evenings x 2 series x
    60 players) and a tuple is made several times faster, immutable all the same.
    """

    evening: str
    series: int
    player: str
    points: int
    won: int
    lost: int
    leistung: int


@dataclass(frozen=True, slots=True)
class SeasonRules:
    """The club's season settings: the minimum number of series and the worst ones dropped."""

    minimum_series: int = 0
    dropped_worst: int = 0

    def __post_init__(self) -> None:
        if self.minimum_series < 0 or self.dropped_worst < 0:
            raise SeasonError("Mindestzahl der Serien und Streichwerte sind 0 oder mehr")


@dataclass(frozen=True, slots=True)
class SeasonLine:
    """A player's season. Totals over every series played; ``average`` over the counted ones.

    ``rank`` is None for players below the minimum number of series (listed after the ranked).
    ``dropped`` are the Leistungen of the dropped series.
    """

    rank: int | None
    player: str
    series: int
    points: int
    leistung: int
    won: int
    lost: int
    counted: int
    average: Fraction
    dropped: tuple[int, ...]
    by_lot: bool = False


def _line(player: str, series: Sequence[SeriesResult], rules: SeasonRules) -> SeasonLine:
    ordered = sorted(series, key=lambda s: (s.leistung, -s.won, s.lost))
    drop = min(rules.dropped_worst, len(ordered) - 1)
    counted = ordered[drop:]
    return SeasonLine(
        rank=None, player=player, series=len(series), points=sum(s.points for s in series),
        leistung=sum(s.leistung for s in series), won=sum(s.won for s in counted), lost=sum(s.lost for s in counted),
        counted=len(counted), average=Fraction(sum(s.leistung for s in counted), len(counted)),
        dropped=tuple(s.leistung for s in ordered[:drop]))


def season_ranking(results: Iterable[SeriesResult], rules: SeasonRules = SeasonRules(), *,
                   lot_seed: int | str | None = None) -> tuple[SeasonLine, ...]:
    """The season table: qualified players by average, then the others by average.

    A player's results in the same series of the same evening are added up first (a player
    who changed tables mid-series). Without ``lot_seed`` equal players share the place.
    """
    per_player: dict[str, dict[tuple[str, int], SeriesResult]] = {}
    for r in results:
        mine = per_player.setdefault(r.player, {})
        key = (r.evening, r.series)
        old = mine.get(key)
        mine[key] = r if old is None else SeriesResult(
            r.evening, r.series, r.player, old.points + r.points, old.won + r.won, old.lost + r.lost,
            old.leistung + r.leistung)
    lines = [_line(player, list(series.values()), rules) for player, series in sorted(per_player.items())]
    # the evening's lot (device.club.ranking.lot_ticket): equal players come in the Wertung's order
    tickets = [lot_ticket(lot_seed, line.player) if lot_seed is not None else b"" for line in lines]
    merits = [(-line.average, -line.won, line.lost) for line in lines]
    qualified = sorted((i for i, line in enumerate(lines) if line.series >= rules.minimum_series),
                       key=lambda i: (merits[i], tickets[i]))
    others = sorted((i for i, line in enumerate(lines) if line.series < rules.minimum_series),
                    key=lambda i: (merits[i], tickets[i]))
    equal = Counter(merits[i] for i in qualified)
    ranked: list[SeasonLine] = []
    place = 0
    for position, i in enumerate(qualified, start=1):
        if lot_seed is not None or position == 1 or merits[i] != merits[qualified[position - 2]]:
            place = position  # without the lot, equal players share the first of their places
        ranked.append(_with_rank(lines[i], place, lot_seed is not None and equal[merits[i]] > 1))
    return tuple(ranked) + tuple(lines[i] for i in others)


def _with_rank(line: SeasonLine, place: int, by_lot: bool) -> SeasonLine:
    return SeasonLine(place, line.player, line.series, line.points, line.leistung, line.won, line.lost,
                      line.counted, line.average, line.dropped, by_lot)


def season_chart(results: Iterable[SeriesResult], evenings: Sequence[str]) -> dict[str, list[int]]:
    """Each player's running total Leistung after each evening of ``evenings`` (for the chart).

    >>> r = [SeriesResult("a", 1, "X", 0, 0, 0, 10), SeriesResult("b", 1, "X", 0, 0, 0, -4)]
    >>> season_chart(r, ["a", "b"])
    {'X': [10, 6]}
    """
    index = {evening: i for i, evening in enumerate(evenings)}
    per: dict[str, list[int]] = {}
    for r in results:
        if r.evening in index:
            per.setdefault(r.player, [0] * len(evenings))[index[r.evening]] += r.leistung
    chart: dict[str, list[int]] = {}
    for player in sorted(per):
        running, total = [], 0
        for value in per[player]:
            total += value
            running.append(total)
        chart[player] = running
    return chart
