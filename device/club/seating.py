"""The next series' tables: the seat draw (Auslosen) or seeding, by SkWO 7.1.1.

Every table has four seats and at most three tables may seat three players (7.1.1): ``n``
players sit at ``ceil(n / 4)`` tables, of which ``4 * tables - n`` (0 to 3) are three-tables,
placed last. Five players fit neither rule (a five-table is not a tournament table): the draw
refuses them, as it refuses fewer than three.

>>> table_sizes(4), table_sizes(6), table_sizes(7), table_sizes(9), table_sizes(13)
((4,), (3, 3), (4, 3), (3, 3, 3), (4, 3, 3, 3))

A seeded series deals the order (the standings, or the club's Setzliste) out in a snake,
1-4-5-8 at the first of two tables and 2-3-6-7 at the second, so every table gets strong and
weak players alike; the seat order at each table is drawn:

>>> [sorted(t.players) for t in seeded_draw(list("12345678"), seed=1)]
[['1', '4', '5', '8'], ['2', '3', '6', '7']]

The same seed gives the same draw, on every machine:

>>> random_draw(list("ABCDEFG"), seed=3) == random_draw(list("ABCDEFG"), seed=3)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from device.errors import SkatError

__all__ = ["SeatingError", "TableAssignment", "random_draw", "seeded_draw", "snake", "swap", "table_sizes"]

SEATS = 4
MAX_THREE_TABLES = 3


class SeatingError(SkatError, ValueError):
    """Players that cannot be seated at tournament tables, or a swap that makes no sense."""


@dataclass(frozen=True, slots=True)
class TableAssignment:
    """One table of a series: its number and its players in seat order (Platz 1 first)."""

    table: int
    players: tuple[str, ...]


def table_sizes(players: int) -> tuple[int, ...]:
    """The tables' sizes for ``players`` people: four-tables first, then up to three three-tables.

    >>> table_sizes(5)
    Traceback (most recent call last):
    ...
    device.club.seating.SeatingError: 5 Spieler lassen sich nicht an Dreier- und Vierertische setzen: einer setzt aus oder einer kommt dazu
    """
    if players < 3:
        raise SeatingError(f"{players} Spieler sind zu wenige für einen Tisch: mindestens 3")
    tables = -(-players // SEATS)
    threes = SEATS * tables - players
    if threes > MAX_THREE_TABLES or threes > tables:
        raise SeatingError(f"{players} Spieler lassen sich nicht an Dreier- und Vierertische setzen: "
                           "einer setzt aus oder einer kommt dazu")
    return (SEATS,) * (tables - threes) + (3,) * threes


def _check_names(players: Sequence[str]) -> None:
    if len(set(players)) != len(players):
        twice = sorted({p for p in players if players.count(p) > 1})
        raise SeatingError(f"{', '.join(twice)} steht zweimal auf der Liste")


def random_draw(players: Sequence[str], *, seed: int) -> tuple[TableAssignment, ...]:
    """Draw tables and seats at random (Auslosen der Tischplatzkarten), reproducible by ``seed``."""
    _check_names(players)
    sizes = table_sizes(len(players))
    shuffled = list(players)
    random.Random(seed).shuffle(shuffled)
    tables, start = [], 0
    for number, size in enumerate(sizes, start=1):
        tables.append(TableAssignment(number, tuple(shuffled[start:start + size])))
        start += size
    return tuple(tables)


def snake(count: int, sizes: Sequence[int]) -> list[int]:
    """The table index (0-based) for each place 1..count dealt out in a snake over ``sizes``.

    Full tables are skipped, so three-tables simply stop taking players.

    >>> snake(8, (4, 4))
    [0, 1, 1, 0, 0, 1, 1, 0]
    >>> snake(7, (4, 3))
    [0, 1, 1, 0, 0, 1, 0]
    """
    room = list(sizes)
    order = list(range(len(sizes)))
    out: list[int] = []
    while len(out) < count:
        for index in order:
            if room[index] and len(out) < count:
                room[index] -= 1
                out.append(index)
        order.reverse()
    return out


def seeded_draw(order: Sequence[str], *, seed: int) -> tuple[TableAssignment, ...]:
    """Seed the tables by ``order`` (best first): a snake 1-4-5-8 …; seats drawn by ``seed``."""
    _check_names(order)
    sizes = table_sizes(len(order))
    members: list[list[str]] = [[] for _ in sizes]
    for name, index in zip(order, snake(len(order), sizes), strict=True):
        members[index].append(name)
    rng = random.Random(seed)
    for seats in members:
        rng.shuffle(seats)
    return tuple(TableAssignment(number, tuple(seats)) for number, seats in enumerate(members, start=1))


def swap(tables: Sequence[TableAssignment], first: str, second: str) -> tuple[TableAssignment, ...]:
    """The tables with two players' seats exchanged (the organiser's hand, SkWO 7.1.2).

    >>> t = (TableAssignment(1, ("A", "B", "C")), TableAssignment(2, ("D", "E", "F")))
    >>> swap(t, "A", "F")
    (TableAssignment(table=1, players=('F', 'B', 'C')), TableAssignment(table=2, players=('D', 'E', 'A')))
    """
    seated = {name for t in tables for name in t.players}
    for name in (first, second):
        if name not in seated:
            raise SeatingError(f"{name} sitzt in dieser Serie an keinem Tisch")
    exchange = {first: second, second: first}
    return tuple(TableAssignment(t.table, tuple(exchange.get(p, p) for p in t.players)) for t in tables)
