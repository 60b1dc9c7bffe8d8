"""Game types and their fixed values (ISkO 5.1).

>>> GameType.parse("hearts").base_value, GameType.GRAND.base_value
(10, 24)
>>> GameType.HEARTS.trump_suit
<Suit.HEARTS: 'H'>
"""

from __future__ import annotations

import enum

from device.cards import Suit
from device.errors import DeclarationError


class GameType(enum.Enum):
    """Suit games, Grand and Null; the value is the name used in game records."""

    CLUBS = "clubs"
    SPADES = "spades"
    HEARTS = "hearts"
    DIAMONDS = "diamonds"
    GRAND = "grand"
    NULL = "null"

    @classmethod
    def parse(cls, name: str) -> GameType:
        try:
            return cls(name)
        except ValueError:
            allowed = ", ".join(g.value for g in cls)
            raise DeclarationError(f"unknown game {name!r}: one of {allowed}") from None

    @property
    def trump_suit(self) -> Suit | None:
        """The trump suit of a suit game (jacks are trumps too); None for Grand and Null."""
        return _TRUMP_SUIT.get(self)

    @property
    def is_suit_game(self) -> bool:
        return self in _TRUMP_SUIT

    @property
    def is_null(self) -> bool:
        return self is GameType.NULL

    @property
    def base_value(self) -> int:
        """Grundwert (ISkO 5.1.1): Karo 9, Herz 10, Pik 11, Kreuz 12, Grand 24; Null has none (0)."""
        return _BASE_VALUE[self]

    @property
    def german(self) -> str:
        return _GERMAN[self]


_TRUMP_SUIT = {
    GameType.CLUBS: Suit.CLUBS, GameType.SPADES: Suit.SPADES,
    GameType.HEARTS: Suit.HEARTS, GameType.DIAMONDS: Suit.DIAMONDS,
}
_BASE_VALUE = {
    GameType.CLUBS: 12, GameType.SPADES: 11, GameType.HEARTS: 10, GameType.DIAMONDS: 9,
    GameType.GRAND: 24, GameType.NULL: 0,
}
_GERMAN = {
    GameType.CLUBS: "Kreuz", GameType.SPADES: "Pik", GameType.HEARTS: "Herz",
    GameType.DIAMONDS: "Karo", GameType.GRAND: "Grand", GameType.NULL: "Null",
}

#: The positions in a game, as players name them: 0 Vorhand, 1 Mittelhand, 2 Hinterhand.
POSITION_NAMES = ("Vorhand", "Mittelhand", "Hinterhand")

# Null's fixed values (ISkO 5.1.2), keyed by (hand, ouvert).
NULL_VALUES = {(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59}
