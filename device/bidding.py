"""Bidding (Reizen, ISkO 3.3): the bid values and the auction as an immutable state machine.

A bid value (Reizwert) is a value some game can reach (ISkO 3.3.1, 5.1-5.3): a suit or
Grand base value times a factor (matadors + levels), or one of Null's fixed values. The
list is derived from those game values, never typed in:

>>> BID_VALUES[:16]
(18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 45, 46, 48, 50)
>>> BID_VALUES[16:20], BID_VALUES[-1], len(BID_VALUES)
((54, 55, 59, 60), 264, 63)
>>> GameType.CLUBS.base_value * max_factor(GameType.CLUBS)  # mit 11 ouvert
216
>>> GameType.GRAND.base_value * max_factor(GameType.GRAND)  # Grand ouvert mit 4 (5.2.6)
264
>>> next_bid(None), next_bid(18), next_bid(19), next_bid(264)
(18, 20, 20, None)
>>> require_bid_value(19)
Traceback (most recent call last):
...
device.errors.BidError: 19 is not a bid value: the nearest are 18 and 20

The auction runs between the seats 0 Vorhand, 1 Mittelhand, 2 Hinterhand. Each state is a
value; ``apply`` returns the next one, ``options`` says who speaks and what they may say.
Example 1 of the worked examples (file 001, "Das Reizen"):

>>> a = Auction()
>>> a.options().prompt_de
'Mittelhand sagt … — an Vorhand'
>>> a = a.apply(Bid(MIDDLEHAND, 18))
>>> a.options().prompt_de
'Mittelhand sagt 18 — Vorhand: ja / passe'
>>> a = a.apply(Hold(FOREHAND)).apply(Bid(MIDDLEHAND, 20)).apply(Hold(FOREHAND))
>>> a = a.apply(Pass(MIDDLEHAND))
>>> a.options().prompt_de, a.options().min_value
('Hinterhand sagt … — an Vorhand (bisher 20)', 22)
>>> a = replay([*a.actions, *map(parse_action, ["H 22", "V ja", "H 23", "V ja", "H 24", "V passe"])])
>>> a.is_finished, a.result
(True, AuctionResult(declarer=2, bid=24))
>>> a.result.german
'Hinterhand spielt, gereizt bis 24'
>>> a.apply(Pass(REARHAND))
Traceback (most recent call last):
...
device.errors.BidError: the bidding is over: Hinterhand spielt, gereizt bis 24
"""

from __future__ import annotations

import bisect
import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TypeAlias

from device.errors import BidError, DeclarationError
from device.games import NULL_VALUES, POSITION_NAMES, GameType

# --- bid values ---------------------------------------------------------------------------

FOREHAND, MIDDLEHAND, REARHAND = 0, 1, 2
SEATS = (FOREHAND, MIDDLEHAND, REARHAND)
SEAT_NAMES_DE = POSITION_NAMES
SEAT_LETTERS = ("V", "M", "H")

# The lowest factor is "mit/ohne 1, Spiel 2". Levels above Spiel (ISkO 5.2.1, 5.3.2): Hand,
# Schneider, Schneider angesagt, Schwarz, Schwarz angesagt, ouvert; with Spiel that is 7.
MIN_FACTOR = 2
_LEVELS = 7
# Most matadors: a suit game has 11 trumps (4 jacks + 7), Grand only the 4 jacks.
_MAX_MATADORS = {
    GameType.CLUBS: 11, GameType.SPADES: 11, GameType.HEARTS: 11, GameType.DIAMONDS: 11,
    GameType.GRAND: 4,
}
LOWEST_BID = 18  # Karo mit oder ohne 1, einfach gewonnen (ISkO 3.3.1)


def max_factor(game: GameType) -> int:
    """The highest factor a suit game or Grand can reach: 18 for suits, 11 for Grand.

    >>> max_factor(GameType.DIAMONDS), max_factor(GameType.GRAND)
    (18, 11)
    >>> max_factor(GameType.NULL)
    Traceback (most recent call last):
    ...
    device.errors.DeclarationError: Null has fixed values (23, 35, 46, 59), no factor
    """
    if game.is_null:
        fixed = ", ".join(str(v) for v in sorted(NULL_VALUES.values()))
        raise DeclarationError(f"Null has fixed values ({fixed}), no factor")
    return _MAX_MATADORS[game] + _LEVELS


def game_values(game: GameType) -> tuple[int, ...]:
    """Every value a game of this type can be worth when won, lowest first.

    >>> game_values(GameType.DIAMONDS)[:3], game_values(GameType.NULL)
    ((18, 27, 36), (23, 35, 46, 59))
    """
    if game.is_null:
        return tuple(sorted(NULL_VALUES.values()))
    return tuple(game.base_value * f for f in range(MIN_FACTOR, max_factor(game) + 1))


def _bid_values() -> tuple[int, ...]:
    values = {v for game in GameType for v in game_values(game)}
    return tuple(sorted(v for v in values if v >= LOWEST_BID))


BID_VALUES: tuple[int, ...] = _bid_values()
HIGHEST_BID = BID_VALUES[-1]
_BID_SET = frozenset(BID_VALUES)


def is_bid_value(n: int) -> bool:
    """Whether ``n`` is a valid bid value (18, 20, 22, 23, ... 264).

    >>> is_bid_value(18), is_bid_value(19), is_bid_value(59), is_bid_value(17)
    (True, False, True, False)
    """
    return n in _BID_SET


def next_bid(after: int | None, ladder: Sequence[int] = BID_VALUES) -> int | None:
    """The lowest bid value above ``after`` (18 when nobody bid yet); None above 264.
    ``ladder``: a rule profile's bid values, lowest first (device.value.bid_values).

    >>> next_bid(20), next_bid(59), next_bid(0), next_bid(24, (18, 20, 22, 24, 27, 30, 32))
    (22, 60, 18, 27)
    """
    if after is None:
        return ladder[0]
    i = bisect.bisect_right(ladder, after)
    return ladder[i] if i < len(ladder) else None


def require_bid_value(n: int, ladder: Sequence[int] = BID_VALUES) -> int:
    """Return ``n`` if it is a bid value, else raise BidError naming the nearest values.

    >>> require_bid_value(23)
    23
    >>> require_bid_value(17)
    Traceback (most recent call last):
    ...
    device.errors.BidError: 17 is below the lowest bid value 18
    >>> require_bid_value(300)
    Traceback (most recent call last):
    ...
    device.errors.BidError: 300 is above the highest bid value 264
    """
    # bool is an int: True would be a silent bid of 1.
    if not isinstance(n, int) or isinstance(n, bool):
        raise BidError(f"a bid is a whole number from {ladder[0]} to {ladder[-1]}, not {n!r}")
    if n < ladder[0]:
        raise BidError(f"{n} is below the lowest bid value {ladder[0]}")
    if n > ladder[-1]:
        raise BidError(f"{n} is above the highest bid value {ladder[-1]}")
    if n not in ladder:
        i = bisect.bisect_left(ladder, n)
        raise BidError(f"{n} is not a bid value: the nearest are {ladder[i - 1]} and {ladder[i]}")
    return n


def _check_seat(seat: int) -> None:
    if not isinstance(seat, int) or isinstance(seat, bool) or seat not in SEATS:
        raise BidError(f"seat {seat!r} is not a seat in the game: 0 Vorhand, 1 Mittelhand, 2 Hinterhand")


# --- actions -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Bid:
    """A seat says a value ("18"). Vorhand alone after two passes says 18 to play (the lowest
    bid of the profile). Any whole number from 1 is a Bid; the auction checks it against its
    profile's bid values (Tournée-Skat's lowest is 10)."""

    seat: int
    value: int

    def __post_init__(self) -> None:
        _check_seat(self.seat)
        if not isinstance(self.value, int) or isinstance(self.value, bool) or self.value < 1:
            require_bid_value(self.value)  # the auction checks the rest (Tournée-Skat bids from 10)

    def __str__(self) -> str:
        return f"{SEAT_LETTERS[self.seat]} {self.value}"

    @property
    def german(self) -> str:
        return f"{SEAT_NAMES_DE[self.seat]} sagt {self.value}"


@dataclass(frozen=True, slots=True)
class Hold:
    """The asked seat holds the value said to it ("ja")."""

    seat: int

    def __post_init__(self) -> None:
        _check_seat(self.seat)

    def __str__(self) -> str:
        return f"{SEAT_LETTERS[self.seat]} ja"

    @property
    def german(self) -> str:
        return f"{SEAT_NAMES_DE[self.seat]}: ja"


@dataclass(frozen=True, slots=True)
class Pass:
    """A seat passes ("passe"); irrevocable (ISkO 3.3.8)."""

    seat: int

    def __post_init__(self) -> None:
        _check_seat(self.seat)

    def __str__(self) -> str:
        return f"{SEAT_LETTERS[self.seat]} passe"

    @property
    def german(self) -> str:
        return f"{SEAT_NAMES_DE[self.seat]}: passe"


Action: TypeAlias = Bid | Hold | Pass

_SEAT_WORDS = {
    **{letter.lower(): s for s, letter in enumerate(SEAT_LETTERS)},
    **{name.lower(): s for s, name in enumerate(SEAT_NAMES_DE)},
    **{str(s): s for s in SEATS},
}


def parse_action(text: str, ladder: Sequence[int] = BID_VALUES) -> Action:
    """Read the table notation ``'M 18'``, ``'V ja'``, ``'H passe'`` (inverse of ``str``).

    Seats may be written V/M/H, 0/1/2 or in full; ``pass`` is read as ``passe``.

    >>> parse_action("M 18"), parse_action("vorhand ja"), parse_action("H pass")
    (Bid(seat=1, value=18), Hold(seat=0), Pass(seat=2))
    >>> str(parse_action(" m  20 "))
    'M 20'
    >>> parse_action("X 18")
    Traceback (most recent call last):
    ...
    device.errors.BidError: cannot read bid action 'X 18': write a seat (V, M or H) and a value, 'ja' or 'passe', e.g. 'M 18'
    """
    words = text.split() if isinstance(text, str) else []
    if len(words) != 2 or words[0].lower() not in _SEAT_WORDS:
        raise BidError(
            f"cannot read bid action {text!r}: write a seat (V, M or H) and a value, "
            "'ja' or 'passe', e.g. 'M 18'"
        )
    seat, word = _SEAT_WORDS[words[0].lower()], words[1].lower()
    if word == "ja":
        return Hold(seat)
    if word in ("passe", "pass"):
        return Pass(seat)
    if word.isdecimal():  # isdigit would let "²" through to int()
        return Bid(seat, require_bid_value(int(word), ladder))
    raise BidError(f"cannot read bid action {text!r}: after the seat comes a value, 'ja' or 'passe'")


# --- the auction ---------------------------------------------------------------------------


class Role(enum.Enum):
    """What the seat to speak does now."""

    BIDDING = "bidding"  # says a value to the other seat, or passes
    ANSWERING = "answering"  # holds the value said to it ("ja"), or passes
    DECIDING = "deciding"  # Vorhand alone after two passes: plays for 18, or passes (3.3.6)


@dataclass(frozen=True, slots=True)
class Options:
    """What ``seat`` may say now.

    ``partner`` is whom it speaks to (None when Vorhand decides alone), ``current`` the value
    on the table (the one to hold when answering), ``min_value``/``max_value`` the range of
    values it may say (None when it may say none).

    >>> o = Auction().apply(Bid(1, 18)).apply(Hold(0)).options()
    >>> o.role, o.seat, o.partner, o.current, o.min_value, o.values[:3]
    (<Role.BIDDING: 'bidding'>, 1, 0, 18, 20, (20, 22, 23))
    >>> o.allows(Bid(1, 20)), o.allows(Bid(1, 18)), o.allows(Hold(1)), o.allows(Pass(1))
    (True, False, False, True)
    """

    seat: int
    role: Role
    partner: int | None
    current: int | None
    min_value: int | None
    max_value: int | None
    may_hold: bool
    may_pass: bool
    #: The profile's bid values (the auction's ladder).
    ladder: tuple[int, ...] = field(default=BID_VALUES, repr=False, compare=False)

    @property
    def values(self) -> tuple[int, ...]:
        """The bid values this seat may say now, lowest first (the UI's number buttons)."""
        if self.min_value is None or self.max_value is None:
            return ()
        lo = bisect.bisect_left(self.ladder, self.min_value)
        hi = bisect.bisect_right(self.ladder, self.max_value)
        return self.ladder[lo:hi]

    def actions(self) -> tuple[Action, ...]:
        """Every action allowed now: the bids lowest first, then ``ja``, then ``passe``."""
        bids: tuple[Action, ...] = tuple(Bid(self.seat, v) for v in self.values)
        hold: tuple[Action, ...] = (Hold(self.seat),) if self.may_hold else ()
        passe: tuple[Action, ...] = (Pass(self.seat),) if self.may_pass else ()
        return bids + hold + passe

    def allows(self, action: Action) -> bool:
        if action.seat != self.seat:
            return False
        if isinstance(action, Bid):  # a Bid always holds a bid value, so a range check will do
            lo, hi = self.min_value, self.max_value
            return lo is not None and hi is not None and lo <= action.value <= hi
        if isinstance(action, Hold):
            return self.may_hold
        return self.may_pass

    @property
    def prompt_de(self) -> str:
        """One short line for the table screen, the way players say it."""
        name = SEAT_NAMES_DE[self.seat]
        if self.role is Role.DECIDING:
            return f"{name}: spielen ({self.ladder[0]}) / passe"
        assert self.partner is not None  # bidding and answering always have a partner
        partner = SEAT_NAMES_DE[self.partner]
        if self.role is Role.ANSWERING:
            return f"{partner} sagt {self.current} — {name}: ja / passe"
        if self.min_value is None:  # 264 is on the table: nothing left to say
            return f"{name}: passe — {partner} hat {self.current}"
        so_far = f" (bisher {self.current})" if self.current is not None else ""
        return f"{name} sagt … — an {partner}{so_far}"

    @property
    def prompt_en(self) -> str:
        """:attr:`prompt_de` in English; Vorhand, Mittelhand and Hinterhand stay, as players say them.

        >>> a = Auction()
        >>> a.options().prompt_en
        'Mittelhand says … — to Vorhand'
        >>> a = a.apply(Bid(MIDDLEHAND, 18))
        >>> a.options().prompt_en
        'Mittelhand says 18 — Vorhand: yes / pass'
        >>> a = a.apply(Hold(FOREHAND)).apply(Bid(MIDDLEHAND, 20)).apply(Hold(FOREHAND)).apply(Pass(MIDDLEHAND))
        >>> a.options().prompt_en
        'Hinterhand says … — to Vorhand (so far 20)'
        >>> replay(map(parse_action, ["M passe", "H passe"])).options().prompt_en
        'Vorhand: play (18) / pass'
        >>> replay(map(parse_action, ["M 264"])).apply(Hold(FOREHAND)).options().prompt_en
        'Mittelhand: pass — Vorhand has 264'
        """
        name = SEAT_NAMES_DE[self.seat]
        if self.role is Role.DECIDING:
            return f"{name}: play ({self.ladder[0]}) / pass"
        assert self.partner is not None  # bidding and answering always have a partner
        partner = SEAT_NAMES_DE[self.partner]
        if self.role is Role.ANSWERING:
            return f"{partner} says {self.current} — {name}: yes / pass"
        if self.min_value is None:  # 264 is on the table: nothing left to say
            return f"{name}: pass — {partner} has {self.current}"
        so_far = f" (so far {self.current})" if self.current is not None else ""
        return f"{name} says … — to {partner}{so_far}"


@dataclass(frozen=True, slots=True)
class AuctionResult:
    """How the bidding ended: the declarer and the bid, or both None when passed in."""

    declarer: int | None
    bid: int | None

    @property
    def passed_in(self) -> bool:
        """Eingepasst (ISkO 3.3.7): nobody plays, the next dealer deals."""
        return self.declarer is None

    @property
    def german(self) -> str:
        if self.declarer is None:
            return "eingepasst"
        return f"{SEAT_NAMES_DE[self.declarer]} spielt, gereizt bis {self.bid}"


@dataclass(frozen=True, slots=True)
class Auction:
    """One bidding as a value. ``Auction()`` is the start; ``apply`` gives the next state.

    Fields: ``actions`` said so far; ``value`` the highest value said and ``leader`` the seat
    that bid or held it (the declarer-to-be, ISkO 3.3.5); ``bidder`` says values to
    ``listener``; ``to_speak`` is the seat whose turn it is (None once finished); ``passed``
    the seats that passed; ``ladder`` the bid values of the rule profile, lowest first (the
    ISkO's by default; device.table.rules.start_auction for a profile). Build states with
    ``apply`` or ``replay``, not by hand.
    """

    actions: tuple[Action, ...] = ()
    value: int | None = None
    leader: int | None = None
    bidder: int | None = MIDDLEHAND  # ISkO 3.3.2: Mittelhand says values to Vorhand first
    listener: int | None = FOREHAND
    to_speak: int | None = MIDDLEHAND
    passed: frozenset[int] = frozenset()
    ladder: tuple[int, ...] = field(default=BID_VALUES, repr=False)

    @property
    def is_finished(self) -> bool:
        return self.to_speak is None

    @property
    def result(self) -> AuctionResult | None:
        """The declarer and bid, or passed in; None while the bidding goes on."""
        if not self.is_finished:
            return None
        return AuctionResult(self.leader, self.value if self.leader is not None else None)

    @property
    def role(self) -> Role | None:
        """What the seat to speak does now; None once finished."""
        if self.to_speak is None:
            return None
        if self.bidder is None:
            return Role.DECIDING
        return Role.BIDDING if self.to_speak == self.bidder else Role.ANSWERING

    def options(self) -> Options:
        """Who speaks now, to whom, and what they may say. BidError once finished."""
        role, seat = self.role, self.to_speak
        if role is None or seat is None:
            raise BidError(f"the bidding is over: {self._result_german()}")
        ladder = self.ladder
        if role is Role.DECIDING:
            return Options(seat, role, None, None, ladder[0], ladder[0], may_hold=False, may_pass=True, ladder=ladder)
        if role is Role.ANSWERING:
            return Options(seat, role, self.bidder, self.value, None, None, may_hold=True, may_pass=True, ladder=ladder)
        lowest = next_bid(self.value, ladder)
        highest = ladder[-1] if lowest is not None else None
        return Options(seat, role, self.listener, self.value, lowest, highest, may_hold=False, may_pass=True, ladder=ladder)

    def apply(self, action: Action) -> Auction:
        """The state after ``action``; BidError saying why if it is not allowed now."""
        self._check_turn(action)
        done = replace(self, actions=(*self.actions, action))
        role = self.role
        if role is Role.DECIDING:
            return done._decide(action)
        if role is Role.ANSWERING:
            return done._answer(action)
        return done._bid(action)

    @classmethod
    def settled(cls, declarer: int, bid: int, ladder: tuple[int, ...] = BID_VALUES) -> Auction:
        """A finished bidding entered by its outcome: ``declarer`` plays at ``bid``, the others passed.

        >>> Auction.settled(MIDDLEHAND, 20).result.german
        'Mittelhand spielt, gereizt bis 20'
        """
        _check_seat(declarer)
        require_bid_value(bid, ladder)
        return cls(value=bid, leader=declarer, bidder=None, listener=None, to_speak=None,
                   passed=frozenset(SEATS) - {declarer}, ladder=ladder)

    def undo(self) -> Auction:
        """The state before the last action (for a wrong tap, before the result is confirmed)."""
        if not self.actions:
            raise BidError("nothing to take back: nobody has said anything yet")
        return replay(self.actions[:-1], self.ladder)

    # -- transitions (called on the state that already records the action) --

    def _bid(self, action: Action) -> Auction:
        bidder, listener = self.bidder, self.listener
        assert bidder is not None and listener is not None  # the bidding role has both
        if isinstance(action, Hold):
            raise BidError(
                f"{SEAT_NAMES_DE[bidder]} says a value or passes: "
                f"'ja' is the answer of {SEAT_NAMES_DE[listener]}"
            )
        if isinstance(action, Bid):
            require_bid_value(action.value, self.ladder)
            self._check_above(action)
            return replace(self, value=action.value, leader=bidder, to_speak=listener)
        passed = self.passed | {action.seat}
        if bidder == MIDDLEHAND:  # 3.3.4: Hinterhand now bids to Vorhand
            return replace(self, passed=passed, bidder=REARHAND, listener=FOREHAND, to_speak=REARHAND)
        if self.value is None:  # 3.3.6: nobody bid, Vorhand decides alone
            return replace(self, passed=passed, bidder=None, listener=None, to_speak=FOREHAND)
        return replace(self, passed=passed, bidder=None, listener=None, to_speak=None)

    def _answer(self, action: Action) -> Auction:
        assert self.bidder is not None  # the answering role has a bidder
        if isinstance(action, Bid):
            raise BidError(
                f"{SEAT_NAMES_DE[action.seat]} is asked {self.value}: answer 'ja' or 'passe'; "
                f"{SEAT_NAMES_DE[self.bidder]} says the values"
            )
        if isinstance(action, Hold):
            return replace(self, leader=action.seat, to_speak=self.bidder)
        passed = self.passed | {action.seat}
        if self.bidder == MIDDLEHAND:  # 3.3.3: Hinterhand now bids to Mittelhand
            return replace(self, passed=passed, bidder=REARHAND, listener=MIDDLEHAND, to_speak=REARHAND)
        return replace(self, passed=passed, bidder=None, listener=None, to_speak=None)

    def _decide(self, action: Action) -> Auction:
        if isinstance(action, Hold):
            raise BidError(
                "nobody bid, so there is nothing to hold: Vorhand plays for 18 or passes (ISkO 3.3.6)"
            )
        if isinstance(action, Bid):
            lowest = self.ladder[0]  # 18; Tournée-Skat's lowest game is 10
            if action.value != lowest:
                raise BidError(
                    f"after Mittelhand and Hinterhand passed, Vorhand plays for {lowest}, "
                    f"not {action.value}: say {lowest} or 'passe' (ISkO 3.3.6)"
                )
            return replace(self, value=lowest, leader=FOREHAND, to_speak=None)
        return replace(self, passed=self.passed | {action.seat}, to_speak=None)

    # -- checks --

    def _check_turn(self, action: Action) -> None:
        seat = action.seat
        if self.to_speak is None:
            raise BidError(f"the bidding is over: {self._result_german()}")
        if seat == self.to_speak:
            return
        name = SEAT_NAMES_DE[seat]
        if seat in self.passed:
            raise BidError(f"{name} has passed and cannot speak again (ISkO 3.3.8)")
        now = self.options()
        if seat == FOREHAND and self.value is None and now.role is Role.BIDDING:
            raise BidError(
                f"Vorhand waits for a value from {SEAT_NAMES_DE[now.seat]} before passing or "
                "playing (ISkO 3.3.6)"
            )
        raise BidError(f"it is not {name}'s turn: {self._turn_de(now)}")

    def _check_above(self, bid: Bid) -> None:
        if self.value is None or bid.value > self.value:
            return
        name = SEAT_NAMES_DE[bid.seat]
        higher = next_bid(self.value, self.ladder)
        if higher is None:
            raise BidError(f"{self.value} is the highest bid value: {name} can only pass")
        raise BidError(f"{name} must say more than {self.value}: the lowest bid now is {higher}")

    def _turn_de(self, now: Options) -> str:
        name = SEAT_NAMES_DE[now.seat]
        if now.role is Role.DECIDING:
            return f"{name} plays for {self.ladder[0]} or passes"
        partner = SEAT_NAMES_DE[now.partner] if now.partner is not None else ""
        if now.role is Role.ANSWERING:
            return f"{name} answers {now.current} to {partner} ('ja' or 'passe')"
        return f"{name} says a value to {partner} or passes"

    def _result_german(self) -> str:
        result = self.result
        return result.german if result is not None else ""


def replay(actions: Iterable[Action], ladder: tuple[int, ...] = BID_VALUES) -> Auction:
    """The auction after ``actions`` from the start, checking each one.

    >>> replay(map(parse_action, ["M passe", "H passe", "V passe"])).result
    AuctionResult(declarer=None, bid=None)
    >>> replay(map(parse_action, ["M passe", "H passe", "V 18"])).result.german
    'Vorhand spielt, gereizt bis 18'
    """
    auction = Auction(ladder=ladder)
    for action in actions:
        auction = auction.apply(action)
    return auction
