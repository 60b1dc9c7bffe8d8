"""The arithmetic of the score list (Spielliste): totals, scoring systems, ranking, money.

(One module over 600 lines on purpose: the score list's arithmetic is one set of pure functions
over a ScoreSheet that build on each other: totals, systems, ranking, money.)

Everything here is a pure function of a :class:`ScoreSheet`: the players (3, 4 or 5, as
indices ``0 .. players-1``) and the list's entries in order — declarer games (:class:`Game`,
with the signed list score that ``skattisch score`` gives), eingepasst rows
(:class:`PassedIn`) and, for clubs that play it, Ramsch results (:class:`Ramsch`).

The worked example of the list-keeping text (rules/003, "Skatabrechnung"): A wins a Grand
with four, Schneider (+144), A loses a Karo ohne 2 (-54), C wins a Null ouvert (+46).

>>> sheet = ScoreSheet(3, (Game(0, 144, True), Game(0, -54, False), Game(2, 46, True)))
>>> running_totals(sheet)                               # classic list (ISkO 5.5.1)
((144, 0, 0), (90, 0, 0), (90, 0, 46))
>>> running_totals(sheet, ScoringSystem.SEEGER_FABIAN)  # +50 / -50, 40 per lost game
((194, 0, 0), (90, 40, 40), (90, 40, 136))
>>> running_totals(sheet, ScoringSystem.BIERLACHS)      # won games count against the others
((0, -144, -144), (-54, -144, -144), (-100, -190, -144))
>>> for s in standings(sheet, ScoringSystem.SEEGER_FABIAN):
...     print(s.rank, s.player, s.total, s.won, s.lost)
1 2 136 1 0
2 0 90 1 1
3 1 40 0 0

Money (ISkO 5.5.5, Quersummenverfahren) is settled on the classic totals; at 1 cent a
point A receives 134 cents, B pays 136 and C receives 2:

>>> settle(classic_totals(sheet), 1).amounts
(134, -136, 2)
"""

from __future__ import annotations

import enum
import itertools
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeAlias

from device.errors import SkatError

__all__ = [
    "BierlachsResult", "BierlachsRound", "Entry", "Game", "PassedIn", "Ramsch",
    "ScoreListError", "ScoreSheet", "ScoringSystem", "Settlement", "SettlementVariant",
    "Stake", "Standing", "Tally", "Transfer",
    "DEFENCE_CREDIT", "GAME_BONUS", "TABLE_SIZES",
    "bierlachs", "bierlachs_limit", "bierlachs_totals", "cash_amounts", "cash_totals",
    "classic_totals", "defence_credit", "endzahlen", "entry_points", "leistung", "rank",
    "running_totals", "seeger_fabian_totals", "settle", "settle_sheet", "settle_variant1",
    "settle_variant2", "settle_variant3", "standings", "tallies", "totals", "transfers",
]

TABLE_SIZES = (3, 4, 5)
GAME_BONUS = 50
"""Wertungspunkte for each own won game (added) and each own lost game (taken off), SkWO 5.1."""
DEFENCE_CREDIT = {3: 40, 4: 30, 5: 24}
"""Credit to each other player when a declarer loses (SkWO 5.1; 24 at five from the DSkV list)."""
_BIERLACHS_LIMITS = {3: 301, 4: 401}


class ScoreListError(SkatError, ValueError):
    """A score list, entry or stake that the list arithmetic cannot work with."""


# --------------------------------------------------------------------------- the input model


@dataclass(frozen=True, slots=True)
class Game:
    """One declarer game as the list enters it (ISkO 5.5.1).

    ``score`` is the signed list entry as ``skattisch score`` gives it: the game value when
    won, -2 x the value when lost, Kontra/Re/Bock already multiplied in. ``active`` are the
    three players at the game (declarer and both defenders): all three at a three-table; at
    four all but the dealer; at five the dealer's two left neighbours and his right one
    (ISkO 3.2.7). The default ``(0, 1, 2)`` only fits a three-table. The
    arithmetic does not need ``active`` (credits and debits go to every other player of the
    list); it is checked so that a mapping error shows up here.

    >>> Game(1, -120, False, (1, 2, 3)).value
    60
    >>> Game(0, -27, False, lost_factor=1).value  # pre-1999: a lost hand game counts single
    27
    >>> Game(0, -54, True)
    Traceback (most recent call last):
    ...
    device.scoring.ScoreListError: a won game is entered with a positive score, not -54
    """

    declarer: int
    score: int
    won: bool
    active: tuple[int, int, int] = (0, 1, 2)
    #: 2 by the ISkO (5.3.4); 1 for a lost hand game under the pre-1999 rules.
    lost_factor: int = 2

    def __post_init__(self) -> None:
        if len(set(self.active)) != 3 or len(self.active) != 3:
            raise ScoreListError(f"a game has three different active players, not {self.active}")
        if self.declarer not in self.active:
            raise ScoreListError(
                f"the declarer (player {self.declarer}) must be one of the active players "
                f"{self.active}")
        if self.won and self.score <= 0:
            raise ScoreListError(
                f"a won game is entered with a positive score, not {self.score}")
        if self.lost_factor not in (1, 2):
            raise ScoreListError(f"a lost game counts double (2) or, by the pre-1999 rules for hand games, single (1), not {self.lost_factor}")
        if not self.won and (self.score >= 0 or self.score % self.lost_factor):
            raise ScoreListError(
                f"a lost game is entered with minus {'twice ' if self.lost_factor == 2 else ''}its value "
                f"(a{'n even' if self.lost_factor == 2 else ''} negative score), not {self.score}")

    @property
    def value(self) -> int:
        """The game value with all multipliers, before a loss is doubled."""
        return self.score if self.won else -self.score // self.lost_factor


@dataclass(frozen=True, slots=True)
class PassedIn:
    """An eingepasst row (SkWO 9.4): nobody played, nothing is scored, the next player deals."""


@dataclass(frozen=True, slots=True)
class Ramsch:
    """A Ramsch result (a private variant, never in tournaments: SkWO 9.4).

    ``scores`` are (player, points) pairs, points signed as they go on the list. A Ramsch
    counts as list points only: it is nobody's won or lost game for Seeger-Fabian.

    >>> Ramsch.of({2: -37}).scores
    ((2, -37),)
    """

    scores: tuple[tuple[int, int], ...]

    def __post_init__(self) -> None:
        players = [player for player, _ in self.scores]
        if not players:
            raise ScoreListError("a Ramsch result names at least one player")
        if len(set(players)) != len(players):
            raise ScoreListError(f"a Ramsch result names each player once, not {players}")

    @classmethod
    def of(cls, scores: Mapping[int, int]) -> Ramsch:
        return cls(tuple(sorted(scores.items())))


Entry: TypeAlias = Game | PassedIn | Ramsch


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """A score list: the number of players and its entries in order.

    >>> ScoreSheet(4).add(Game(3, 48, True, (1, 2, 3))).entries
    (Game(declarer=3, score=48, won=True, active=(1, 2, 3), lost_factor=2),)
    >>> ScoreSheet(3, (Game(3, 18, True, (1, 2, 3)),))
    Traceback (most recent call last):
    ...
    device.scoring.ScoreListError: entry 1: player 3 is not on a list of 3 players (0 to 2)
    """

    players: int
    entries: tuple[Entry, ...] = ()

    def __post_init__(self) -> None:
        if self.players not in TABLE_SIZES:
            raise ScoreListError(f"a list has 3, 4 or 5 players, not {self.players}")
        object.__setattr__(self, "entries", tuple(self.entries))
        for number, entry in enumerate(self.entries, start=1):
            for player in _players_named(entry):
                if not 0 <= player < self.players:
                    raise ScoreListError(
                        f"entry {number}: player {player} is not on a list of "
                        f"{self.players} players (0 to {self.players - 1})")

    def add(self, *entries: Entry) -> ScoreSheet:
        """The list with more entries appended (the list itself stays as it is)."""
        return ScoreSheet(self.players, self.entries + entries)


def _players_named(entry: Entry) -> tuple[int, ...]:
    if isinstance(entry, Game):
        return entry.active
    if isinstance(entry, Ramsch):
        return tuple(player for player, _ in entry.scores)
    return ()


# --------------------------------------------------------------------------- classic list


def entry_points(entry: Entry, players: int) -> tuple[int, ...]:
    """What one entry writes on the classic list, per player (ISkO 5.5.1).

    >>> entry_points(Game(1, -96, False, (0, 1, 3)), 4)
    (0, -96, 0, 0)
    >>> entry_points(PassedIn(), 3)
    (0, 0, 0)
    """
    points = [0] * players
    if isinstance(entry, Game):
        points[entry.declarer] = entry.score
    elif isinstance(entry, Ramsch):
        for player, score in entry.scores:
            points[player] += score
    return tuple(points)


def _add(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def _seeger_fabian_points(entry: Entry, players: int) -> tuple[int, ...]:
    """One entry's Leistung per player: list points, +-50 for the declarer, credit if lost."""
    points = list(entry_points(entry, players))
    if isinstance(entry, Game):
        if entry.won:
            points[entry.declarer] += GAME_BONUS
        else:
            credit = DEFENCE_CREDIT[players]
            points = [p + credit for p in points]
            points[entry.declarer] -= GAME_BONUS + credit
    return tuple(points)


def _danish_points(entry: Entry, players: int) -> tuple[int, ...]:
    """001 "Dänischer Skat": "In Turnieren erhalten die Gegner eines nicht erfolgreichen
    Alleinspielers jeweils den Wert des Spiels": the declarer's list entry, and a lost game's
    value to each of his two defenders (not to a dealer sitting out).

    >>> _danish_points(Game(1, -160, False, (1, 2, 3)), 4)
    (0, -160, 80, 80)
    """
    points = list(entry_points(entry, players))
    if isinstance(entry, Game) and not entry.won:
        for player in entry.active:
            if player != entry.declarer:
                points[player] += entry.value
    return tuple(points)


def _bierlachs_points(entry: Entry, players: int) -> tuple[int, ...]:
    """A won game counts against every other player; a lost one against the declarer."""
    if isinstance(entry, Game) and entry.won:
        return tuple(0 if p == entry.declarer else -entry.score for p in range(players))
    return entry_points(entry, players)


# --------------------------------------------------------------------------- scoring systems


class ScoringSystem(enum.Enum):
    """How the list is scored; the value is the name used in list documents."""

    CLASSIC = "classic"
    """Spielpunkte only: each game's score at its declarer (ISkO 5.5.1)."""
    SEEGER_FABIAN = "seeger_fabian"
    """Erweitertes System nach Seeger und Fabian, the tournament Leistung (SkWO 5.1)."""
    BIERLACHS = "bierlachs"
    """A won game counts against the others; whoever falls below the limit loses (rules/003)."""
    DANISH = "danish"
    """Danish tournaments: each defender of a lost game receives its value (001 "Dänischer Skat")."""

    @classmethod
    def parse(cls, name: str) -> ScoringSystem:
        try:
            return cls(name.strip().lower().replace("-", "_"))
        except ValueError:
            allowed = ", ".join(s.value for s in cls)
            raise ScoreListError(f"unknown scoring system {name!r}: one of {allowed}") from None


def classic_totals(sheet: ScoreSheet) -> tuple[int, ...]:
    """Each player's Spielpunkte: the sum of the scores of his games (ISkO 5.5.1).

    >>> classic_totals(ScoreSheet(4, (Game(0, 60, True), Game(1, -48, False, (1, 2, 3)))))
    (60, -48, 0, 0)
    """
    return _fold(sheet, entry_points)


@dataclass(frozen=True, slots=True)
class Tally:
    """What SkWO 5.1 counts per player: Spielpunkte, own won and lost games, and the games
    the other players of the list lost (each of them earns this player a credit)."""

    points: int
    won: int
    lost: int
    others_lost: int


def tallies(sheet: ScoreSheet) -> tuple[Tally, ...]:
    """Per player: classic points, won and lost games, games lost by the others.

    >>> tallies(ScoreSheet(3, (Game(0, 144, True), Game(0, -54, False))))[1]
    Tally(points=0, won=0, lost=0, others_lost=1)
    """
    won = [0] * sheet.players
    lost = [0] * sheet.players
    for entry in sheet.entries:
        if isinstance(entry, Game):
            (won if entry.won else lost)[entry.declarer] += 1
    all_lost = sum(lost)
    return tuple(
        Tally(points, won[p], lost[p], all_lost - lost[p])
        for p, points in enumerate(classic_totals(sheet)))


def defence_credit(players: int) -> int:
    """The credit each other player gets when a declarer loses: 40, 30, or 24 at five.

    SkWO 5.1 names the three-table (40) and the four-table (30: both defenders and the
    dealer); the DSkV list prints 24 for a five-table (rules/003), given to all four others.

    >>> [defence_credit(n) for n in TABLE_SIZES]
    [40, 30, 24]
    """
    try:
        return DEFENCE_CREDIT[players]
    except KeyError:
        raise ScoreListError(f"a list has 3, 4 or 5 players, not {players}") from None


def leistung(tally: Tally, players: int) -> int:
    """The SkWO 5.1 Wertungsformel: Spielpunkte + Spielzahl + verlorene Spiele der Mitspieler.

    The SkWO's own example for the four-table: 937 Spielpunkte, 18 won, 3 lost, the three
    others lost 14 games together.

    >>> leistung(Tally(points=937, won=18, lost=3, others_lost=14), 4)
    2107
    """
    return (tally.points + GAME_BONUS * (tally.won - tally.lost)
            + defence_credit(players) * tally.others_lost)


def seeger_fabian_totals(sheet: ScoreSheet) -> tuple[int, ...]:
    """Each player's Leistung by the extended Seeger-Fabian system (SkWO 5.1, 8.12).

    Spielpunkte, +50 per own won game, -50 per own lost game, and for every game another
    player lost a credit of 40 (three-table), 30 (four-table) or 24 (five-table). A Ramsch
    counts as points only.

    >>> seeger_fabian_totals(ScoreSheet(3, (Game(0, 20, True), Game(0, 20, True),
    ...                                     Game(0, -40, False))))
    (50, 40, 40)
    """
    return tuple(leistung(t, sheet.players) for t in tallies(sheet))


def bierlachs_limit(players: int) -> int:
    """The usual Bierlachs limit: 301 at a three-table, 401 at a four-table (rules/003).

    The text gives none for five players; such a table has to agree one.

    >>> bierlachs_limit(3), bierlachs_limit(4)
    (301, 401)
    """
    try:
        return _BIERLACHS_LIMITS[players]
    except KeyError:
        raise ScoreListError(
            f"there is no usual Bierlachs limit for {players} players: agree one "
            "(e.g. 501) and give it") from None


@dataclass(frozen=True, slots=True)
class BierlachsRound:
    """One decided Bierlachs: entries ``first_entry .. last_entry`` (0-based, inclusive),
    the totals after the deciding entry, and who lost it (pays the round)."""

    first_entry: int
    last_entry: int
    totals: tuple[int, ...]
    losers: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BierlachsResult:
    """The evening by Bierlachs: the decided Bierlachs games and the one still running."""

    players: int
    limit: int
    rounds: tuple[BierlachsRound, ...]
    rows: tuple[tuple[int, ...], ...]
    """The Bierlachs totals after each entry of the list (a new Bierlachs starts at zero)."""
    final: tuple[int, ...] = ()
    """Where the running Bierlachs stands after the last entry (zeros right after a loss)."""

    @property
    def losses(self) -> tuple[int, ...]:
        """How many Bierlachs games each player lost: the result of the evening."""
        return tuple(sum(p in r.losers for r in self.rounds) for p in range(self.players))


def bierlachs(sheet: ScoreSheet, limit: int | None = None, *,
              start: Sequence[int] | None = None) -> BierlachsResult:
    """Play the list as Bierlachs (rules/003, "Bierlachs").

    As rules/003 describes it: a won game's value is written as minus points for *all* the
    other players of the list (at four the dealer who sits out as well; at five, by the same
    rule, all four others); a lost game is written as usual, -2 x the value at the declarer.
    The aim is not to fall below the agreed limit (301 at three, 401 at four): whoever falls
    below it ("Unterschreitung", so exactly -limit is still in) has lost the Bierlachs and
    pays the round of drinks.

    Choices the text leaves open, taken as clubs usually play them:

    - a won game can push several players below the limit at once: the lowest of them loses;
      if they stand equal they all lose (each pays a round);
    - the list goes on: the next entry starts a new Bierlachs at zero for everybody, so an
      evening is a series of Bierlachs games and its result is how many each player lost
      (:attr:`BierlachsResult.losses`);
    - a Ramsch result is written as it stands; an eingepasst row changes nothing;
    - ``start``: the running Bierlachs carried over from before (the same evening at a table
      that changed, ISkO 3.1.2); zeros by default.

    >>> sheet = ScoreSheet(3, (Game(2, 216, True), Game(1, 96, True), Game(0, 36, True)))
    >>> result = bierlachs(sheet)
    >>> result.rows
    ((-216, -216, 0), (-312, -216, -96), (0, -36, -36))
    >>> result.rounds
    (BierlachsRound(first_entry=0, last_entry=1, totals=(-312, -216, -96), losers=(0,)),)
    >>> result.losses
    (1, 0, 0)
    """
    if limit is None:
        limit = bierlachs_limit(sheet.players)
    if limit <= 0:
        raise ScoreListError(f"a Bierlachs limit is a positive number of points, not {limit}")
    zero = (0,) * sheet.players
    if start is not None and len(start) != sheet.players:
        raise ScoreListError(f"a Bierlachs start needs {sheet.players} totals, not {len(start)}")
    current, first, rows, rounds = (zero if start is None else tuple(start)), 0, [], []
    for index, entry in enumerate(sheet.entries):
        current = _add(current, _bierlachs_points(entry, sheet.players))
        rows.append(current)
        below = [p for p, total in enumerate(current) if total < -limit]
        if below:
            lowest = min(current[p] for p in below)
            losers = tuple(p for p in below if current[p] == lowest)
            rounds.append(BierlachsRound(first, index, current, losers))
            current, first = zero, index + 1
    return BierlachsResult(sheet.players, limit, tuple(rounds), tuple(rows), current)


def bierlachs_totals(sheet: ScoreSheet, limit: int | None = None) -> tuple[int, ...]:
    """The Bierlachs totals as the list shows them after its last entry (zeros if empty).

    >>> bierlachs_totals(ScoreSheet(4, (Game(0, 23, True),)))
    (0, -23, -23, -23)
    """
    rows = bierlachs(sheet, limit).rows
    return rows[-1] if rows else (0,) * sheet.players


def totals(sheet: ScoreSheet, system: ScoringSystem,
           *, bierlachs_limit: int | None = None) -> tuple[int, ...]:
    """Each player's final total under ``system``.

    >>> sheet = ScoreSheet(3, (Game(1, -46, False),))
    >>> [totals(sheet, s) for s in ScoringSystem]
    [(0, -46, 0), (40, -96, 40), (0, -46, 0), (23, -46, 23)]
    """
    if system is ScoringSystem.CLASSIC:
        return classic_totals(sheet)
    if system is ScoringSystem.SEEGER_FABIAN:
        return seeger_fabian_totals(sheet)
    if system is ScoringSystem.DANISH:
        return _fold(sheet, _danish_points)
    return bierlachs_totals(sheet, bierlachs_limit)


def running_totals(sheet: ScoreSheet, system: ScoringSystem = ScoringSystem.CLASSIC,
                   *, bierlachs_limit: int | None = None) -> tuple[tuple[int, ...], ...]:
    """The totals after each entry, one row per entry (the list's running columns).

    >>> running_totals(ScoreSheet(3, (Game(0, 18, True), PassedIn(), Game(2, -36, False))))
    ((18, 0, 0), (18, 0, 0), (18, 0, -36))
    """
    if system is ScoringSystem.BIERLACHS:
        return bierlachs(sheet, bierlachs_limit).rows
    step = {ScoringSystem.CLASSIC: entry_points, ScoringSystem.DANISH: _danish_points}.get(system, _seeger_fabian_points)
    rows = itertools.accumulate((step(e, sheet.players) for e in sheet.entries), _add)
    return tuple(rows)


def _fold(sheet: ScoreSheet, step: Callable[[Entry, int], tuple[int, ...]]) -> tuple[int, ...]:
    total = (0,) * sheet.players
    for entry in sheet.entries:
        total = _add(total, step(entry, sheet.players))
    return total


# --------------------------------------------------------------------------- ranking


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings: place, player, total (Leistung), own won and lost games."""

    rank: int
    player: int
    total: int
    won: int
    lost: int


def rank(totals: Sequence[int], won: Sequence[int], lost: Sequence[int],
         *, lot_seed: int | None = None) -> tuple[Standing, ...]:
    """Order players by the SkWO 5.1 tie-breaks.

    Higher total first; at equal total more won games; then fewer lost games; then the lot.
    Without ``lot_seed`` players still equal share the place (1, 2, 2, 4: the lot is left to
    the table); with a seed a reproducible lot (``random.Random(seed)``) separates them.
    Lines come in order of place, equal places by player index.

    >>> [(s.rank, s.player) for s in rank([100, 100, 100, 90], [3, 3, 4, 9], [1, 1, 0, 0])]
    [(1, 2), (2, 0), (2, 1), (4, 3)]
    >>> [(s.rank, s.player) for s in rank([100, 100], [3, 3], [1, 1], lot_seed=1)]
    [(1, 1), (2, 0)]
    """
    if not len(totals) == len(won) == len(lost):
        raise ScoreListError("totals, won and lost games must be given for every player")

    def merit(p: int) -> tuple[int, int, int]:
        return (-totals[p], -won[p], lost[p])

    players = range(len(totals))
    if lot_seed is None:
        order = sorted(players, key=lambda p: (merit(p), p))
        places: list[int] = []  # 1 + the number of better players: the index of the first equal one
        for index, p in enumerate(order):
            equal_before = index > 0 and merit(order[index - 1]) == merit(p)
            places.append(places[-1] if equal_before else index + 1)
    else:
        tickets = list(players)
        random.Random(lot_seed).shuffle(tickets)
        order = sorted(players, key=lambda p: (merit(p), tickets[p]))
        places = list(range(1, len(order) + 1))
    return tuple(Standing(place, p, totals[p], won[p], lost[p])
                 for place, p in zip(places, order, strict=True))


def standings(sheet: ScoreSheet, system: ScoringSystem, *, bierlachs_limit: int | None = None,
              lot_seed: int | None = None) -> tuple[Standing, ...]:
    """The list's standings under ``system`` with the SkWO 5.1 tie-breaks (see :func:`rank`).

    >>> sheet = ScoreSheet(3, (Game(0, 24, True), Game(1, 24, True)))
    >>> [(s.rank, s.player, s.total) for s in standings(sheet, ScoringSystem.CLASSIC)]
    [(1, 0, 24), (1, 1, 24), (3, 2, 0)]
    """
    counts = tallies(sheet)
    return rank(totals(sheet, system, bierlachs_limit=bierlachs_limit),
                [t.won for t in counts], [t.lost for t in counts], lot_seed=lot_seed)


# --------------------------------------------------------------------------- money

Stake: TypeAlias = Fraction | int
"""Money per list point in the smallest coin (cent, historically Pfennig): 1, Fraction(1, 4)."""


def _stake(stake: Stake) -> Fraction:
    if isinstance(stake, bool) or not isinstance(stake, (int, Fraction)):
        raise ScoreListError(
            f"a stake is a whole number or a fractions.Fraction of cents per point, "
            f"not {stake!r}")
    if stake < 0:
        raise ScoreListError(f"a stake cannot be negative: {stake}")
    return Fraction(stake)


def _round_up(amount: Fraction) -> int:
    """Bruchteile werden nach oben aufgerundet (ISkO 5.5.4): the amount's size is rounded up,
    its sign kept, so a debt rounds the same way as the equal credit: -18.75 is a debt of 19.

    "Nach oben" is read on the amount, not on the number line: 5.5.4 speaks of the
    "Betrag für ein verlorenes Spiel", which "erst nach dem Aufrunden verdoppelt" is, so the
    rounding acts on what is paid (a Betrag), before the loss gives it its sign; and a list
    that is the mirror image of another must settle as its mirror image. Rounding toward
    +infinity (-18.75 to -18) would let the one who owes pay less than the one who is owed
    receives.

    >>> _round_up(Fraction(-75, 4)), _round_up(Fraction(75, 4))
    (-19, 19)
    """
    size = math.ceil(abs(amount))
    return size if amount >= 0 else -size


def endzahlen(totals: Sequence[int], stake: Stake) -> tuple[int, ...]:
    """The list's end figures in coins: each total times the stake, fractions rounded up.

    ISkO 5.5.5 halves or quarters the Endzahlen first when the stake is below one Pfennig, and
    5.5.4 rounds fractions up; this is that step for any stake. Rounding here, before the
    Quersummenverfahren, keeps the settlement's zero sum exact.

    >>> endzahlen([90, 0, 46, -75], Fraction(1, 4))
    (23, 0, 12, -19)
    """
    rate = _stake(stake)
    return tuple(_round_up(total * rate) for total in totals)


def settle_variant1(endzahlen: Sequence[int]) -> tuple[int, ...]:
    """ISkO 5.5.5 Variante 1, for when the plus points outweigh (the Endzahlsumme is >= 0).

    Each Endzahl times the number of players, minus the Endzahlsumme (a debt each one owes the
    others). The ISkO's example at a four-table:

    >>> settle_variant1([196, 33, -12, 85])
    (482, -170, -350, 38)
    """
    total = sum(endzahlen)
    if total < 0:
        raise ScoreListError(
            f"Variante 1 is for a positive Endzahlsumme; this one is {total}: use Variante 2")
    players = len(endzahlen)
    return tuple(players * figure - total for figure in endzahlen)


def settle_variant2(endzahlen: Sequence[int]) -> tuple[int, ...]:
    """ISkO 5.5.5 Variante 2, for when the minus points outweigh (the Endzahlsumme is <= 0).

    Each Endzahl times the number of players, plus the size of the Endzahlsumme (a claim
    credited to each). The ISkO's example at a four-table:

    >>> settle_variant2([44, 33, -420, 130])
    (389, 345, -1467, 733)
    """
    total = sum(endzahlen)
    if total > 0:
        raise ScoreListError(
            f"Variante 2 is for a negative Endzahlsumme; this one is {total}: use Variante 1")
    players = len(endzahlen)
    claim = -total
    return tuple(players * figure + claim for figure in endzahlen)


def settle_variant3(endzahlen: Sequence[int]) -> tuple[int, ...]:
    """ISkO 5.5.5 Variante 3: every pair reckoned directly, the differences added up.

    >>> settle_variant3([120, -75, 200, -40])
    (275, -505, 595, -365)
    """
    amounts = [0] * len(endzahlen)
    for a, b in itertools.combinations(range(len(endzahlen)), 2):
        difference = endzahlen[a] - endzahlen[b]
        amounts[a] += difference
        amounts[b] -= difference
    return tuple(amounts)


class SettlementVariant(enum.IntEnum):
    """The three forms of the Quersummenverfahren (ISkO 5.5.5); they give the same amounts."""

    SUBTRACT_SUM = 1
    """Variante 1: n x Endzahl - Endzahlsumme (plus points outweigh)."""
    ADD_SUM = 2
    """Variante 2: n x Endzahl + |Endzahlsumme| (minus points outweigh)."""
    PAIRWISE = 3
    """Variante 3: the differences of every pair."""


_VARIANTS = {
    SettlementVariant.SUBTRACT_SUM: settle_variant1,
    SettlementVariant.ADD_SUM: settle_variant2,
    SettlementVariant.PAIRWISE: settle_variant3,
}


@dataclass(frozen=True, slots=True)
class Transfer:
    """One payment: ``payer`` gives ``payee`` ``amount`` coins."""

    payer: int
    payee: int
    amount: int


@dataclass(frozen=True, slots=True)
class Settlement:
    """The money after a list: each player's amount in coins (+ receives, - pays; the sum is
    zero), the rounded Endzahlen it came from, and who pays whom."""

    stake: Fraction
    endzahlen: tuple[int, ...]
    amounts: tuple[int, ...]
    transfers: tuple[Transfer, ...]


def transfers(amounts: Sequence[int]) -> tuple[Transfer, ...]:
    """Who pays whom: the biggest payer pays the biggest receiver first (at most n-1 payments).

    >>> for t in transfers([482, -170, -350, 38]):
    ...     print(t)
    Transfer(payer=2, payee=0, amount=350)
    Transfer(payer=1, payee=0, amount=132)
    Transfer(payer=1, payee=3, amount=38)
    """
    if sum(amounts) != 0:
        raise ScoreListError(f"amounts to pay and receive must cancel out; they sum to "
                             f"{sum(amounts)}")
    # [amount still open, player], biggest first, then by player index
    to_receive = sorted(([a, p] for p, a in enumerate(amounts) if a > 0),
                        key=lambda x: (-x[0], x[1]))
    to_pay = sorted(([-a, p] for p, a in enumerate(amounts) if a < 0),
                    key=lambda x: (-x[0], x[1]))
    result = []
    i = j = 0
    while i < len(to_pay) and j < len(to_receive):
        amount = min(to_pay[i][0], to_receive[j][0])
        result.append(Transfer(to_pay[i][1], to_receive[j][1], amount))
        to_pay[i][0] -= amount
        to_receive[j][0] -= amount
        i += to_pay[i][0] == 0
        j += to_receive[j][0] == 0
    return tuple(result)


def settle(totals: Sequence[int], stake: Stake = 1,
           *, variant: SettlementVariant | None = None) -> Settlement:
    """Settle a list's totals for money (ISkO 5.5.4, 5.5.5).

    ``stake`` is coins (cents) per point: an ``int`` or a ``Fraction`` (the ISkO names 0,
    1/4, 1/2 and 1 Pfennig; clubs today play e.g. 1/10 or 5 cents). The totals are scaled by
    the stake and fractions rounded up (:func:`endzahlen`), then the Quersummenverfahren
    runs; without ``variant`` the one ISkO 5.5.5 prescribes for the sign of the Endzahlsumme.
    Settle the classic totals: Seeger-Fabian points are not played for money (rules/003).

    >>> s = settle([90, 0, 46], Fraction(1, 2))
    >>> s.endzahlen, s.amounts
    ((45, 0, 23), (67, -68, 1))
    >>> s.transfers
    (Transfer(payer=1, payee=0, amount=67), Transfer(payer=1, payee=2, amount=1))
    """
    if len(totals) not in TABLE_SIZES:
        raise ScoreListError(f"a list has 3, 4 or 5 players, not {len(totals)}")
    figures = endzahlen(totals, stake)
    if variant is None:
        variant = (SettlementVariant.SUBTRACT_SUM if sum(figures) >= 0
                   else SettlementVariant.ADD_SUM)
    amounts = _VARIANTS[SettlementVariant(variant)](figures)
    return Settlement(_stake(stake), figures, amounts, transfers(amounts))


def settle_sheet(sheet: ScoreSheet, stake: Stake = 1,
                 *, variant: SettlementVariant | None = None) -> Settlement:
    """Settle a score list's classic totals for money (see :func:`settle`)."""
    return settle(classic_totals(sheet), stake, variant=variant)


def cash_amounts(entry: Entry, players: int, stake: Stake) -> tuple[int, ...]:
    """Bargeldskat: what one entry pays at once, per player, in coins (ISkO 5.5.4).

    The game value times the stake is rounded up first, and for a lost game that amount is
    then doubled ("erst nach dem Aufrunden verdoppelt"). The declarer of a won game receives
    it from every other player of the list, the declarer of a lost game pays the doubled
    amount to every other player: the dealer who sits out at four pays and receives like the
    defenders (rules/001, "Ein Nebeneffekt dieser Methode"), which is exactly what settling
    the list at the end would give. A Ramsch is paid the same way from its rounded points.

    >>> cash_amounts(Game(0, 18, True), 3, Fraction(1, 4))     # 4.5 -> 5 from each
    (10, -5, -5)
    >>> cash_amounts(Game(0, -36, False), 3, Fraction(1, 4))   # 5, doubled: 10 to each
    (-20, 10, 10)
    """
    rate = _stake(stake)
    if isinstance(entry, Game):
        amount = _round_up(entry.value * rate) * (1 if entry.won else -entry.lost_factor)
        figures = [0] * players
        figures[entry.declarer] = amount
    else:
        figures = [_round_up(p * rate) for p in entry_points(entry, players)]
    return settle_variant3(figures)


def cash_totals(sheet: ScoreSheet, stake: Stake) -> tuple[int, ...]:
    """Bargeldskat: each player's cash over the whole list, game by game.

    >>> cash_totals(ScoreSheet(3, (Game(0, 18, True), Game(0, -36, False))), Fraction(1, 4))
    (-10, 5, 5)
    """
    return _fold(sheet, lambda entry, players: cash_amounts(entry, players, stake))
