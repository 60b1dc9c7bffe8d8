"""Trick play (ISkO 2.3, 2.4, 4.1, 4.2, 4.4, 5.2.2) and a whole game rebuilt from its cards.

Card order is a function of the game, never of the cards alone: in suit and Grand games the
four jacks are the highest trumps (Kreuz, Pik, Herz, Karo Bube); in a suit game the trump suit
follows them as A T K Q 9 8 7; the other suits rank A T K Q 9 8 7. In Null there are no trumps,
jacks belong to their suit and the ten sits below the jack: A K Q J T 9 8 7.

>>> from device.cards import parse_cards
>>> from device.games import GameType
>>> trick_winner(parse_cards("HA CJ HT"), GameType.GRAND)
1
>>> trick_winner(parse_cards("HT HJ H9"), GameType.NULL)
1
>>> legal_cards(parse_cards("CJ SA S7 H7"), parse_cards("SK"), GameType.GRAND)
(Card.parse('SA'), Card.parse('S7'))
>>> matadors(GameType.HEARTS, parse_cards("CJ SJ DJ HA"))
2

Seats are numbered as in the game record: 0 Vorhand, 1 Mittelhand, 2 Hinterhand.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final, TypeAlias

from device.cards import DECK, Card, Rank, Suit, points
from device.errors import PlayError
from device.games import POSITION_NAMES, GameType

__all__ = [
    "SEAT_NAMES", "TRUMP", "FalseFollowing", "FollowClass", "PlayedGame", "PlayedTrick", "Trump",
    "beats", "follow_class", "is_trump", "legal_cards", "matadors", "next_to_play", "play_game",
    "sort_hand", "sort_key", "trick_leaders", "trick_winner", "trump_order",
]

SEAT_NAMES: Final = POSITION_NAMES
TRICKS_PER_GAME: Final = 10


class Trump(enum.Enum):
    """The trump class: what a trump lead asks for (the jacks included, except in Null)."""

    TRUMP = "trump"

    @property
    def german(self) -> str:
        return "Trumpf"


TRUMP: Final = Trump.TRUMP

#: What a card belongs to for following suit: the trump class or its printed suit.
FollowClass: TypeAlias = Suit | Trump

_JACKS = tuple(Card(s, Rank.JACK) for s in Suit)  # Suit is declared C, S, H, D: highest first
_PLAIN_RANKS = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.NINE, Rank.EIGHT, Rank.SEVEN)
_NULL_RANKS = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN, Rank.NINE, Rank.EIGHT,
               Rank.SEVEN)
_DECK_SET = frozenset(DECK)


def _trump_order(game: GameType) -> tuple[Card, ...]:
    if game.is_null:
        return ()
    suit = game.trump_suit
    side = tuple(Card(suit, r) for r in _PLAIN_RANKS) if suit is not None else ()
    return _JACKS + side


def _build_table(game: GameType) -> dict[Card, tuple[FollowClass, int]]:
    """Each card's follow class and its power within that class (higher wins)."""
    table: dict[Card, tuple[FollowClass, int]] = {}
    ranks = _NULL_RANKS if game.is_null else _PLAIN_RANKS
    for suit in Suit:
        for power, rank in enumerate(reversed(ranks)):
            table[Card(suit, rank)] = (suit, power)
    trumps = _trump_order(game)
    for power, card in enumerate(reversed(trumps)):
        table[card] = (TRUMP, power)
    return table


# Built once at import: 6 games x 32 cards, pure data.
_TABLES: Final = {game: _build_table(game) for game in GameType}
_TRUMP_ORDERS: Final = {game: _trump_order(game) for game in GameType}


def trump_order(game: GameType) -> tuple[Card, ...]:
    """The trumps of a game, highest first: 11 in a suit game, the 4 jacks in Grand, none in Null.

    >>> " ".join(map(str, trump_order(GameType.DIAMONDS)))
    'CJ SJ HJ DJ DA DT DK DQ D9 D8 D7'
    >>> trump_order(GameType.GRAND), trump_order(GameType.NULL)
    ((Card.parse('CJ'), Card.parse('SJ'), Card.parse('HJ'), Card.parse('DJ')), ())
    """
    return _TRUMP_ORDERS[game]


def follow_class(card: Card, game: GameType) -> FollowClass:
    """What ``card`` belongs to for following suit (ISkO 2.3, 4.2.1): ``TRUMP`` or its Suit.

    >>> from device.cards import Card
    >>> follow_class(Card.parse("CJ"), GameType.HEARTS), follow_class(Card.parse("CJ"), GameType.NULL)
    (<Trump.TRUMP: 'trump'>, <Suit.CLUBS: 'C'>)
    >>> follow_class(Card.parse("HA"), GameType.HEARTS), follow_class(Card.parse("HA"), GameType.GRAND)
    (<Trump.TRUMP: 'trump'>, <Suit.HEARTS: 'H'>)
    """
    return _TABLES[game][card][0]


def is_trump(card: Card, game: GameType) -> bool:
    """Whether ``card`` is a trump in ``game`` (never in Null).

    >>> is_trump(Card.parse("DJ"), GameType.CLUBS), is_trump(Card.parse("DA"), GameType.GRAND)
    (True, False)
    """
    return _TABLES[game][card][0] is TRUMP


def beats(challenger: Card, holder: Card, game: GameType) -> bool:
    """Whether ``challenger``, played later into a trick held by ``holder``, takes it over.

    It does when it is a higher card of the same class, or a trump on a non-trump (ISkO 4.4.2).
    A card of another suit that is no trump never takes a trick, however high.

    >>> from device.cards import Card
    >>> beats(Card.parse("H7"), Card.parse("SA"), GameType.HEARTS)
    True
    >>> beats(Card.parse("SA"), Card.parse("H7"), GameType.HEARTS)
    False
    >>> beats(Card.parse("CA"), Card.parse("D7"), GameType.GRAND)
    False
    >>> beats(Card.parse("SJ"), Card.parse("ST"), GameType.NULL)
    True
    """
    table = _TABLES[game]
    c_class, c_power = table[challenger]
    h_class, h_power = table[holder]
    if c_class is h_class:
        return c_power > h_power
    return c_class is TRUMP


def sort_key(card: Card, game: GameType) -> tuple[int, int]:
    """A key for showing a hand: trumps first, then the suits Kreuz, Pik, Herz, Karo, each
    highest first (grouped by suit and in order, as ISkO 2.2.5 asks of an open hand)."""
    klass, power = _TABLES[game][card]
    group = 0 if klass is TRUMP else 1 + list(Suit).index(klass)
    return group, -power


def sort_hand(cards: Iterable[Card], game: GameType) -> tuple[Card, ...]:
    """The cards in display order for ``game`` (see :func:`sort_key`).

    >>> from device.cards import parse_cards
    >>> hand = parse_cards("D7 HA CJ HJ SA C7 HT DT SK H9")
    >>> " ".join(map(str, sort_hand(hand, GameType.HEARTS)))
    'CJ HJ HA HT H9 C7 SA SK DT D7'
    >>> " ".join(map(str, sort_hand(hand, GameType.NULL)))
    'CJ C7 SA SK HA HJ HT H9 DT D7'
    """
    return tuple(sorted(cards, key=lambda c: sort_key(c, game)))


def legal_cards(hand: Iterable[Card], trick_so_far: Sequence[Card], game: GameType) -> tuple[Card, ...]:
    """The cards of ``hand`` that may be played now (ISkO 4.2.1, 4.2.2), in the hand's order.

    The leader may play anything. A follower must play a card of the led class if he has one:
    the led suit, or any trump (jacks included) when a trump was led; a jack led in Null asks
    for its suit. Only without one may he play any card. Raises PlayError if the trick is full.

    >>> from device.cards import parse_cards
    >>> legal_cards(parse_cards("DJ C7 H7"), parse_cards("HA"), GameType.HEARTS)
    (Card.parse('DJ'), Card.parse('H7'))
    >>> legal_cards(parse_cards("C7 HJ SA"), parse_cards("CJ"), GameType.NULL)
    (Card.parse('C7'),)
    >>> legal_cards(parse_cards("CJ S7"), parse_cards("CA"), GameType.HEARTS)
    (Card.parse('CJ'), Card.parse('S7'))
    """
    cards = tuple(hand)
    if len(trick_so_far) >= 3:
        raise PlayError(f"a trick has 3 cards and this one already has {len(trick_so_far)}: "
                        "nobody plays into it any more")
    if not trick_so_far:
        return cards
    led = follow_class(trick_so_far[0], game)
    following = tuple(c for c in cards if follow_class(c, game) is led)
    return following or cards


def trick_winner(cards: Sequence[Card], game: GameType) -> int:
    """The index (0 = the lead) of the card that holds the trick (ISkO 4.4.2).

    Works for a trick still being played (1 or 2 cards): the card that holds it so far.

    >>> from device.cards import parse_cards
    >>> trick_winner(parse_cards("SA H7 ST"), GameType.HEARTS)
    1
    >>> trick_winner(parse_cards("DA CJ SJ"), GameType.NULL)
    0
    """
    if not 1 <= len(cards) <= 3:
        raise PlayError(f"a trick has 1 to 3 cards, not {len(cards)}")
    best = 0
    for index in range(1, len(cards)):
        if beats(cards[index], cards[best], game):
            best = index
    return best


def matadors(game: GameType, cards: Iterable[Card]) -> int:
    """Spitzen (ISkO 2.4): +n "mit n", -n "ohne n", over the declarer's cards plus the skat.

    With the Kreuz Bube he counts his unbroken top trumps; without it, the top trumps missing
    before his highest one. A suit game counts up to 11 (4 jacks + 7 of the trump suit), Grand up
    to 4 (2.4.3). Null has no Spitzen: it returns 0 (its value is fixed, ISkO 5.1.2). Any
    collection of cards is accepted (the 12 cards, or just the trumps).

    >>> from device.cards import parse_cards
    >>> matadors(GameType.HEARTS, parse_cards("CJ SJ DJ HA"))   # mit 2
    2
    >>> matadors(GameType.HEARTS, parse_cards("DJ HA HT HK HQ H7"))   # ohne 3
    -3
    >>> matadors(GameType.CLUBS, parse_cards("SA ST SK HA HT DA DT D9 D8 D7 H7 H8"))   # ohne 11
    -11
    >>> matadors(GameType.GRAND, parse_cards("CJ SJ HJ DJ")), matadors(GameType.NULL, parse_cards("CJ"))
    (4, 0)
    """
    order = _TRUMP_ORDERS[game]
    if not order:
        return 0
    held = frozenset(cards)
    with_top = order[0] in held
    count = 0
    for card in order:
        if (card in held) is not with_top:
            break
        count += 1
    return count if with_top else -count


@dataclass(frozen=True, slots=True)
class PlayedTrick:
    """One trick as played: its cards from the lead on, who led it and who took it (seats).

    It iterates and indexes like its cards: ``sum(c.points for c in trick)``, ``trick[0]``.
    """

    cards: tuple[Card, ...]
    leader: int
    winner: int

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def __getitem__(self, index: int) -> Card:
        return self.cards[index]

    @property
    def seats(self) -> tuple[int, ...]:
        """The seat that played each card, in the trick's order."""
        return tuple((self.leader + i) % 3 for i in range(len(self.cards)))

    @property
    def winner_index(self) -> int:
        return (self.winner - self.leader) % 3

    @property
    def points(self) -> int:
        return points(self.cards)

    def card_of(self, seat: int) -> Card:
        """The card ``seat`` played into this trick."""
        return self.cards[(seat - self.leader) % 3]


@dataclass(frozen=True, slots=True)
class FalseFollowing:
    """The first card played against the duty to follow (ISkO 4.2.3, 4.2.4).

    ``trick_index`` counts from 0. ``held`` are the cards of the led class the same seat played
    later: the proof that he could have followed. The game counts as ended at this trick,
    against ``seat``'s party.
    """

    trick_index: int
    seat: int
    card: Card
    led: Card
    led_class: FollowClass
    held: tuple[Card, ...]
    by_declarer: bool

    @property
    def german(self) -> str:
        """E.g. ``'Falsch bedient im 3. Stich: Hinterhand gab Kreuz 7 auf Herz Ass, obwohl
        noch Herz vorhanden war (Herz 9)'``."""
        wanted = self.led_class.german
        proof = ", ".join(c.german for c in self.held)
        return (f"Falsch bedient im {self.trick_index + 1}. Stich: {SEAT_NAMES[self.seat]} gab "
                f"{self.card.german} auf {self.led.german}, obwohl noch {wanted} vorhanden war "
                f"({proof})")


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A game rebuilt from its skat and tricks: who led and took each trick, and the totals.

    ``points`` and ``trick_counts`` are per seat (0 Vorhand, 1 Mittelhand, 2 Hinterhand) and
    count tricks only; ``declarer_points`` adds the skat (ISkO 5.2.2). ``hands`` are the cards
    each seat played, in play order: for a ``complete`` game, his 10 cards. ``matadors`` is
    None unless the game is complete (the declarer's hand is only known then). ``violation`` is
    the first false following; the totals still count every trick as played.
    """

    game: GameType
    declarer: int
    skat: tuple[Card, ...]
    tricks: tuple[PlayedTrick, ...]
    hands: tuple[tuple[Card, ...], ...]
    points: tuple[int, ...]
    trick_counts: tuple[int, ...]
    skat_points: int
    declarer_points: int
    declarer_tricks: int
    matadors: int | None
    complete: bool
    violation: FalseFollowing | None

    @property
    def defender_points(self) -> int:
        """The two defenders' card points together (their tricks; the skat is the declarer's)."""
        return sum(p for seat, p in enumerate(self.points) if seat != self.declarer)

    @property
    def defender_tricks(self) -> int:
        return len(self.tricks) - self.declarer_tricks

    @property
    def trick_winners(self) -> tuple[int, ...]:
        """The seat that took each trick, in play order."""
        return tuple(t.winner for t in self.tricks)

    @property
    def next_leader(self) -> int:
        """Who leads the next trick: Vorhand before the first, then the last trick's winner."""
        return self.tricks[-1].winner if self.tricks else 0


def _describe(item: object) -> str:
    """A card as its code, anything else as safely as it can be shown."""
    if isinstance(item, Card) and item in _DECK_SET:
        return item.code
    try:
        return repr(item)
    except Exception:  # a half-built Card cannot even show itself
        return f"<{type(item).__name__}>"


def _checked_cards(items: Iterable[object], where: str, seen: dict[Card, str]) -> tuple[Card, ...]:
    """Check that every item is one of the 32 cards and none was seen before; record them."""
    cards: list[Card] = []
    for item in items:
        if not (isinstance(item, Card) and item in _DECK_SET):
            raise PlayError(f"{where} holds {_describe(item)}, which is not one of the 32 Skat "
                            "cards (parse card codes first, e.g. with parse_cards)")
        if item in seen:
            raise PlayError(f"card {item.code} appears twice: in {seen[item]} and in {where}")
        seen[item] = where
        cards.append(item)
    return tuple(cards)


def _checked_input(declarer: int, skat: Iterable[Card],
                   tricks: Iterable[Sequence[Card]]) -> tuple[tuple[Card, ...], list[tuple[Card, ...]]]:
    if isinstance(declarer, bool) or not isinstance(declarer, int) or not 0 <= declarer <= 2:
        raise PlayError(f"declarer seat {declarer!r} is not 0 (Vorhand), 1 (Mittelhand) "
                        "or 2 (Hinterhand)")
    skat_items = tuple(skat)
    if len(skat_items) != 2:
        raise PlayError(f"the skat has 2 cards, not {len(skat_items)}")
    trick_items = [tuple(t) for t in tricks]
    if len(trick_items) > TRICKS_PER_GAME:
        raise PlayError(f"a game has at most {TRICKS_PER_GAME} tricks, not {len(trick_items)}")
    for number, trick in enumerate(trick_items, start=1):
        if len(trick) != 3:
            raise PlayError(f"trick {number} has {len(trick)} cards; a trick has exactly 3")
    seen: dict[Card, str] = {}
    checked_skat = _checked_cards(skat_items, "the skat", seen)
    checked = [_checked_cards(t, f"trick {n}", seen) for n, t in enumerate(trick_items, start=1)]
    return checked_skat, checked


def _seat_tricks(game: GameType, tricks: Sequence[tuple[Card, ...]]) -> tuple[PlayedTrick, ...]:
    """Leaders and winners: Vorhand leads the first trick, each winner the next (ISkO 4.1.1)."""
    played: list[PlayedTrick] = []
    leader = 0
    for cards in tricks:
        winner = (leader + trick_winner(cards, game)) % 3
        played.append(PlayedTrick(cards=cards, leader=leader, winner=winner))
        leader = winner
    return tuple(played)


def _first_false_following(game: GameType, declarer: int,
                           tricks: Sequence[PlayedTrick]) -> FalseFollowing | None:
    """The first follower who did not follow although he played the led class later."""
    for number, trick in enumerate(tricks):
        led_class = follow_class(trick.cards[0], game)
        for card, seat in list(zip(trick.cards, trick.seats))[1:]:
            if follow_class(card, game) is led_class:
                continue
            held = tuple(t.card_of(seat) for t in tricks[number + 1:]
                         if follow_class(t.card_of(seat), game) is led_class)
            if held:
                return FalseFollowing(trick_index=number, seat=seat, card=card, led=trick.cards[0],
                                      led_class=led_class, held=held,
                                      by_declarer=seat == declarer)
    return None


def play_game(game: GameType, declarer: int, skat: Iterable[Card],
              tricks: Iterable[Sequence[Card]]) -> PlayedGame:
    """Rebuild a game from the skat and its tricks in play order, each from its lead on.

    ``declarer`` is a seat (0 Vorhand, 1 Mittelhand, 2 Hinterhand), ``skat`` the two cards
    lying in the skat at the end (the pushed ones in a skat game). 0 to 10 complete tricks are
    accepted: fewer than 10 is a game that ended early (a Null lost at the first trick taken, a
    concession, a rule violation); its totals count the tricks there are. The cards must be
    Card values (parse codes first). Raises PlayError naming the fault for a trick that has not
    exactly 3 cards, a card seen twice in skat and tricks, more than 10 tricks, a skat that is
    not 2 cards, a declarer seat outside 0..2, or anything that is not one of the 32 cards; so a
    complete game's 32 cards are exactly the deck.

    >>> from device.cards import parse_cards
    >>> tricks = [parse_cards(t) for t in ("CA C7 CT", "CK H7 C8", "CJ DJ H8")]
    >>> g = play_game(GameType.HEARTS, 1, parse_cards("S7 S8"), tricks)
    >>> [(t.leader, t.winner) for t in g.tricks]
    [(0, 0), (0, 1), (1, 1)]
    >>> g.points, g.declarer_points, g.declarer_tricks, g.complete, g.matadors
    ((21, 8, 0), 8, 2, False, None)
    """
    checked_skat, checked_tricks = _checked_input(declarer, skat, tricks)
    played = _seat_tricks(game, checked_tricks)
    hands = tuple(tuple(t.card_of(seat) for t in played) for seat in range(3))
    seat_points = tuple(sum(t.points for t in played if t.winner == seat) for seat in range(3))
    seat_tricks = tuple(sum(1 for t in played if t.winner == seat) for seat in range(3))
    complete = len(played) == TRICKS_PER_GAME
    skat_points = points(checked_skat)
    return PlayedGame(
        game=game,
        declarer=declarer,
        skat=checked_skat,
        tricks=played,
        hands=hands,
        points=seat_points,
        trick_counts=seat_tricks,
        skat_points=skat_points,
        declarer_points=seat_points[declarer] + skat_points,
        declarer_tricks=seat_tricks[declarer],
        matadors=matadors(game, hands[declarer] + checked_skat) if complete else None,
        complete=complete,
        violation=_first_false_following(game, declarer, played),
    )


def next_to_play(game: GameType, tricks: Iterable[Sequence[Card]],
                 current: Sequence[Card] = ()) -> int:
    """The seat whose turn it is, given the complete tricks so far and the cards of the trick
    being played (for a table taking cards one by one).

    >>> from device.cards import parse_cards
    >>> next_to_play(GameType.HEARTS, [], ()), next_to_play(GameType.HEARTS, [], parse_cards("CA"))
    (0, 1)
    >>> next_to_play(GameType.HEARTS, [parse_cards("CK H7 C8")], parse_cards("CJ"))
    2
    """
    leader = 0
    for number, trick in enumerate(tricks, start=1):
        if len(trick) != 3:
            raise PlayError(f"trick {number} has {len(trick)} cards; a trick has exactly 3")
        leader = (leader + trick_winner(trick, game)) % 3
    if len(current) >= 3:
        raise PlayError("the current trick is already complete: pass it with the tricks")
    return (leader + len(current)) % 3


class _LeadersMemo:
    """The leaders of the last complete tricks asked for (one entry). A card at the table asks
    for them several times (whose turn, who played what, the voids, the trick on view), and
    two cards of three leave the complete tricks as they were: without the memo each asked
    for every trick's winner again (a card's snapshot on a Pi). The key is compared by identity (tuples are
    immutable and kept here, so the same identity is the same tricks; a trick inside too)."""

    def __init__(self) -> None:
        self._entry: tuple[Sequence[Sequence[Card]], GameType, tuple[int, ...]] | None = None  # one object: thread-safe

    def get(self, tricks: Sequence[Sequence[Card]], game: GameType) -> tuple[int, ...]:
        entry = self._entry
        if entry is not None and entry[0] is tricks and entry[1] is game:
            return entry[2]
        leaders = [0]
        for trick in tricks:
            leaders.append((leaders[-1] + trick_winner(trick, game)) % 3)
        value = tuple(leaders)
        # kept only for tuples of tuples: a list (outer or a trick) may change in place
        if isinstance(tricks, tuple) and all(isinstance(trick, tuple) for trick in tricks):
            self._entry = (tricks, game, value)
        return value


_LEADERS = _LeadersMemo()


def trick_leaders(tricks: Sequence[Sequence[Card]], game: GameType) -> tuple[int, ...]:
    """The position (0 = Vorhand) that led each of the complete ``tricks``, then the leader
    of the trick after them.

    >>> from device.cards import parse_cards
    >>> trick_leaders((parse_cards("CK H7 C8"), parse_cards("SA S7 CJ")), GameType.HEARTS)
    (0, 1, 0)
    """
    return _LEADERS.get(tricks, game)
