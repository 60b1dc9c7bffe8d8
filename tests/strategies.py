"""Random Skat deals and random legal play, for property tests and benchmarks of whole games.

Plain functions take a ``random.Random`` (seed it for a repeatable run); the hypothesis
strategies at the bottom are built on them.

Following suit and the trick winner are computed here by a small reference implementation
written independently of :mod:`device.tricks` (by candidate lists, not pairwise comparison),
so a property test that feeds these games to ``device.tricks`` checks one against the other.

>>> rng = random.Random(7)
>>> hands, skat = deal(rng)
>>> [len(h) for h in hands], len(skat)
([10, 10, 10], 2)
>>> tricks = play_random(rng, GameType.GRAND, hands)
>>> len(tricks), {c for t in tricks for c in t} == {c for h in hands for c in h}
(10, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from hypothesis import strategies as st

from device.cards import DECK, Card, Rank
from device.games import GameType

Hand = tuple[Card, ...]
Hands = tuple[Hand, Hand, Hand]
Trick = tuple[Card, Card, Card]

# Reference orders as plain strings, highest first (ISkO 1.2.1, 2.3.2-2.3.4).
_PLAIN = "ATKQ987"
_NULL = "AKQJT987"
_JACK_SUITS = "CSHD"


def reference_class(card: Card, game: GameType) -> str:
    """'trump' or the suit letter the card follows as (independent of device.tricks)."""
    if game is GameType.NULL:
        return card.suit.value
    if card.rank is Rank.JACK or card.suit is game.trump_suit:
        return "trump"
    return card.suit.value


def _reference_power(card: Card, game: GameType) -> int:
    if game is GameType.NULL:
        return -_NULL.index(card.rank.value)
    if card.rank is Rank.JACK:
        return 100 - _JACK_SUITS.index(card.suit.value)
    return -_PLAIN.index(card.rank.value)


def reference_legal(hand: Sequence[Card], trick: Sequence[Card], game: GameType) -> list[Card]:
    """The cards of ``hand`` one may play into ``trick`` (ISkO 4.2.1, 4.2.2)."""
    if not trick:
        return list(hand)
    led = reference_class(trick[0], game)
    same = [c for c in hand if reference_class(c, game) == led]
    return same if same else list(hand)


def reference_winner(trick: Sequence[Card], game: GameType) -> int:
    """Index of the winning card: the highest trump if any, else the highest of the led suit."""
    classes = [reference_class(c, game) for c in trick]
    wanted = "trump" if "trump" in classes else classes[0]
    candidates = [i for i, k in enumerate(classes) if k == wanted]
    return max(candidates, key=lambda i: _reference_power(trick[i], game))


def deal(rng: random.Random) -> tuple[Hands, tuple[Card, Card]]:
    """Shuffle the deck: 10 cards each for Vorhand, Mittelhand, Hinterhand, and 2 for the skat."""
    cards = list(DECK)
    rng.shuffle(cards)
    hands = (tuple(cards[0:10]), tuple(cards[10:20]), tuple(cards[20:30]))
    return hands, (cards[30], cards[31])


@dataclass(frozen=True, slots=True)
class Revoke:
    """The one deliberate false following a :func:`play_with_revoke` game contains."""

    trick_index: int
    seat: int
    card: Card
    led: Card


def _play(rng: random.Random, game: GameType, hands: Sequence[Sequence[Card]], n_tricks: int,
          revoke_from: int | None) -> tuple[list[Trick], Revoke | None]:
    if not 0 <= n_tricks <= 10:
        raise ValueError(f"0 to 10 tricks, not {n_tricks}")
    held = [list(h) for h in hands]
    if sorted(map(len, held)) != [10, 10, 10]:
        raise ValueError("three hands of 10 cards are needed")
    leader = 0
    tricks: list[Trick] = []
    revoke: Revoke | None = None
    for number in range(n_tricks):
        trick: list[Card] = []
        for position in range(3):
            seat = (leader + position) % 3
            legal = reference_legal(held[seat], trick, game)
            others = [c for c in held[seat] if c not in legal]
            if revoke is None and revoke_from is not None and number >= revoke_from and others:
                # He must follow and could: he plays another suit instead and keeps the one he owed.
                card = rng.choice(others)
                revoke = Revoke(trick_index=number, seat=seat, card=card, led=trick[0])
            else:
                card = rng.choice(legal)
            held[seat].remove(card)
            trick.append(card)
        tricks.append((trick[0], trick[1], trick[2]))
        leader = (leader + reference_winner(trick, game)) % 3
    return tricks, revoke


def play_random(rng: random.Random, game: GameType, hands: Sequence[Sequence[Card]], *,
                tricks: int = 10) -> list[Trick]:
    """Play random legal cards from the dealt ``hands`` (seat order) for ``tricks`` tricks.

    Vorhand leads the first trick, each trick's winner the next; each trick starts with its
    leader's card, as :func:`device.tricks.play_game` takes them.
    """
    return _play(rng, game, hands, tricks, None)[0]


def play_with_revoke(rng: random.Random, game: GameType, hands: Sequence[Sequence[Card]], *,
                     from_trick: int = 0) -> tuple[list[Trick], Revoke] | None:
    """A whole game of random legal play except ONE false following: at the first chance from
    trick ``from_trick`` (0-based) on, a follower who holds the led class plays another card.

    He keeps the card he owed, so he plays it later and the revoke is provable. Returns None
    if no follower ever had the chance (rare).
    """
    tricks, revoke = _play(rng, game, hands, 10, from_trick)
    return (tricks, revoke) if revoke is not None else None


@dataclass(frozen=True, slots=True)
class RandomGame:
    """A dealt and randomly (legally) played game, as :func:`random_games` draws it."""

    game: GameType
    declarer: int
    hands: Hands
    skat: tuple[Card, Card]
    tricks: tuple[Trick, ...]


game_types = st.sampled_from(list(GameType))


@st.composite
def random_games(draw: st.DrawFn, games: st.SearchStrategy[GameType] = game_types,
                 tricks: st.SearchStrategy[int] = st.just(10)) -> RandomGame:
    """Hypothesis strategy: a random deal of a random game type, played legally."""
    rng = draw(st.randoms(use_true_random=False))
    game = draw(games)
    declarer = draw(st.integers(0, 2))
    hands, skat = deal(rng)
    played = play_random(rng, game, hands, tricks=draw(tricks))
    return RandomGame(game=game, declarer=declarer, hands=hands, skat=skat, tricks=tuple(played))
