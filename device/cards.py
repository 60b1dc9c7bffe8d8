"""Cards: the 32-card French/German deck with its codes and card points (Augen).

A card code is suit + rank: suit ``C S H D`` (Kreuz, Pik, Herz, Karo), rank
``7 8 9 T J Q K A`` (``T`` is the ten).

>>> card = Card.parse("HT")
>>> card
Card.parse('HT')
>>> str(card), card.points
('HT', 10)
>>> sum(c.points for c in DECK), len(DECK)
(120, 32)
>>> Card.parse("XJ")
Traceback (most recent call last):
...
device.errors.CardError: unknown card code 'XJ': a card is a suit C, S, H or D followed by a rank 7, 8, 9, T, J, Q, K or A (e.g. 'CJ', 'HT', 'D7')
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from device.errors import CardError


class Suit(enum.Enum):
    """The four suits, highest first (Kreuz, Pik, Herz, Karo)."""

    CLUBS = "C"
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"

    # Members are singletons: identity hashing is correct and much cheaper than Enum's
    # name hashing (cards are hashed constantly in trick play).
    __hash__ = object.__hash__

    @property
    def german(self) -> str:
        return _SUIT_GERMAN[self]

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOL[self]


_SUIT_GERMAN = {Suit.CLUBS: "Kreuz", Suit.SPADES: "Pik", Suit.HEARTS: "Herz", Suit.DIAMONDS: "Karo"}
_SUIT_SYMBOL = {Suit.CLUBS: "♣", Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦"}


class Rank(enum.Enum):
    """The eight ranks in their natural order, lowest first."""

    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"

    __hash__ = object.__hash__

    @property
    def points(self) -> int:
        """Card points (Augen): A 11, T 10, K 4, Q 3, J 2, else 0."""
        return _RANK_POINTS.get(self, 0)

    @property
    def german(self) -> str:
        return _RANK_GERMAN[self]


_RANK_POINTS = {Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2}
_RANK_GERMAN = {
    Rank.SEVEN: "7", Rank.EIGHT: "8", Rank.NINE: "9", Rank.TEN: "10",
    Rank.JACK: "Bube", Rank.QUEEN: "Dame", Rank.KING: "König", Rank.ACE: "Ass",
}
_SUITS = {s.value: s for s in Suit}
_RANKS = {r.value: r for r in Rank}


@dataclass(frozen=True, slots=True)
class Card:
    """One card. Order depends on the game, so cards have no ``<``: see :mod:`device.tricks`."""

    suit: Suit
    rank: Rank

    @classmethod
    def parse(cls, code: str) -> Card:
        """Parse a card code such as ``'CJ'``; lower case and surrounding blanks are accepted."""
        text = code.strip().upper() if isinstance(code, str) else code
        if not isinstance(text, str) or len(text) != 2 or text[0] not in _SUITS or text[1] not in _RANKS:
            raise CardError(
                f"unknown card code {code!r}: a card is a suit C, S, H or D followed by a rank "
                "7, 8, 9, T, J, Q, K or A (e.g. 'CJ', 'HT', 'D7')"
            )
        return _BY_CODE[text]

    @property
    def code(self) -> str:
        return self.suit.value + self.rank.value

    @property
    def points(self) -> int:
        return self.rank.points

    @property
    def is_jack(self) -> bool:
        return self.rank is Rank.JACK

    @property
    def german(self) -> str:
        """How players say it, e.g. ``'Kreuz Bube'``."""
        return f"{self.suit.german} {self.rank.german}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"


DECK: tuple[Card, ...] = tuple(Card(s, r) for s in Suit for r in Rank)
_BY_CODE = {c.code: c for c in DECK}


def parse_cards(codes: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse several codes, given as an iterable or one blank-separated string.

    >>> parse_cards("CJ SJ HA")
    (Card.parse('CJ'), Card.parse('SJ'), Card.parse('HA'))
    """
    items = codes.split() if isinstance(codes, str) else list(codes)
    return tuple(Card.parse(c) for c in items)


def points(cards: Iterable[Card]) -> int:
    """The card points (Augen) of some cards."""
    return sum(c.points for c in cards)
