"""Who deals, who sits out, who is Vorhand: the dealer rotation of a list (ISkO 3.1, 3.2, 3.3.7).

Seats are numbered from 0 in the order the players sit, clockwise (seat 0 is "Platz 1");
the next seat is the left neighbour. Seat 0 deals first (3.2.1), then each left neighbour;
a round ends when every player has dealt once. An eingepasst game counts as a deal, so the
next player deals after it and nobody deals twice in a row (3.3.7, SkWO 9.4).

Cards go out from the dealer's left neighbour (3.2.6): he is Vorhand. At three the dealer
plays as Hinterhand; at four he sits out (3.2.7); at five he and the player across sit out:
"seine beiden linken Nachbarn und der rechte" play.

>>> active_seats(0, 3), active_seats(2, 3)
((1, 2, 0), (0, 1, 2))
>>> active_seats(0, 4), sitting_out(0, 4)
((1, 2, 3), (0,))
>>> active_seats(0, 5), sitting_out(0, 5)
((1, 2, 4), (0, 3))
>>> [Rotation().advance(3).advance(3).advance(3)]
[Rotation(round_no=2, deal_in_round=0)]
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from device.errors import SkatError
from device.games import POSITION_NAMES

__all__ = [
    "POSITION_NAMES", "TABLE_SIZES", "TOURNAMENT_LENGTHS", "Rotation", "RotationError",
    "active_seats", "dealer_seat", "draw_seating", "sitting_out", "tournament_length",
]

TABLE_SIZES = (3, 4, 5)
#: Games per series in tournaments: 36 at a three-table, 48 at a four-table (12 rounds).
TOURNAMENT_LENGTHS = {3: 36, 4: 48}


class RotationError(SkatError, ValueError):
    """A table size or seat that the rotation cannot work with."""


def _check_size(table_size: int) -> None:
    if table_size not in TABLE_SIZES:
        raise RotationError(f"a Skat table seats 3, 4 or 5 players, not {table_size}")


def dealer_seat(deal_in_round: int, table_size: int) -> int:
    """The seat that deals the ``deal_in_round``-th game of a round (0-based): seat 0 first.

    >>> [dealer_seat(n, 4) for n in range(4)]
    [0, 1, 2, 3]
    """
    _check_size(table_size)
    if not 0 <= deal_in_round < table_size:
        raise RotationError(f"a round at {table_size} has deals 0 to {table_size - 1}, not {deal_in_round}")
    return deal_in_round


def active_seats(dealer: int, table_size: int) -> tuple[int, int, int]:
    """The seats of Vorhand, Mittelhand and Hinterhand when ``dealer`` deals (ISkO 3.2.6, 3.2.7)."""
    _check_size(table_size)
    if not 0 <= dealer < table_size:
        raise RotationError(f"seat {dealer} is not at a table of {table_size}")
    right = table_size - 1 if table_size > 3 else 0  # at three the dealer himself is Hinterhand
    return ((dealer + 1) % table_size, (dealer + 2) % table_size, (dealer + right) % table_size)


def sitting_out(dealer: int, table_size: int) -> tuple[int, ...]:
    """The seats that get no cards: none at three, the dealer at four, the dealer and the
    player across at five."""
    playing = set(active_seats(dealer, table_size))
    return tuple(seat for seat in range(table_size) if seat not in playing)


@dataclass(frozen=True, slots=True)
class Rotation:
    """Where the list stands in its rounds: round number (1-based) and the deal within it."""

    round_no: int = 1
    deal_in_round: int = 0

    @property
    def at_round_start(self) -> bool:
        """A new player may join only now (ISkO 3.1.2)."""
        return self.deal_in_round == 0

    def dealer(self, table_size: int) -> int:
        return dealer_seat(self.deal_in_round, table_size)

    def advance(self, table_size: int) -> Rotation:
        """After a deal (a game or eingepasst): the next player deals; a new round after the last."""
        following = self.deal_in_round + 1
        if following >= table_size:
            return Rotation(self.round_no + 1, 0)
        return Rotation(self.round_no, following)

    def back(self, table_size: int) -> Rotation:
        """Before the last deal (for withdrawing an eingepasst row entered by a wrong tap)."""
        if self.deal_in_round > 0:
            return Rotation(self.round_no, self.deal_in_round - 1)
        if self.round_no <= 1:
            raise RotationError("the list has no deal to go back to")
        return Rotation(self.round_no - 1, table_size - 1)


def tournament_length(table_size: int) -> int:
    """The tournament series length: 36 games at three, 48 at four (12 rounds).

    >>> tournament_length(3), tournament_length(4)
    (36, 48)
    """
    _check_size(table_size)
    try:
        return TOURNAMENT_LENGTHS[table_size]
    except KeyError:
        raise RotationError(f"tournaments have no series length for {table_size} players: give a number") from None


def draw_seating(names: Sequence[str], rng: random.Random) -> tuple[str, ...]:
    """Auslosen (ISkO 3.1.1): the players in a random seat order, drawn with ``rng``.

    >>> draw_seating(["Anna", "Bernd", "Carla"], random.Random(1))
    ('Bernd', 'Carla', 'Anna')
    """
    order = list(names)
    rng.shuffle(order)
    return tuple(order)
