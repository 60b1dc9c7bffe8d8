"""Ramsch (rule text 001, "Ramsch"; "Bockrunden und Ramschrunden"): scored per seat.

When everybody passes, a club with Ramsch on plays it instead of throwing the cards in
(the ISkO forbids it: SkWO 9.4). Cards rank and count as in Grand, jacks are the only trumps,
every player plays for himself and "der Spieler mit den meisten Augen am Ende verliert das
Spiel". The options (who gets the skat, Augenramsch or a fixed amount, Jungfrau, Durchmarsch,
ties, Schieberamsch) come from :class:`~device.profile.RamschRules`.

Seats are as in a game: 0 Vorhand, 1 Mittelhand, 2 Hinterhand.

>>> from device.profile import find_profile
>>> kneipe = find_profile("kneipe")
>>> counts = RamschCounts(points=(58, 52, 0), tricks=(6, 4, 0), skat_points=10, last_trick=1)
>>> r = score_ramsch(counts, kneipe)
>>> r.points, r.losers, r.jungfrauen, r.scores
((58, 62, 0), (1,), (2,), (0, -124, 0))
>>> r.describe_de(("Anna", "Bernd", "Dieter"))
'Ramsch: Bernd verliert mit 62 Augen, −124 (Jungfrau: Dieter)'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from device.cards import Card, Rank
from device.errors import PlayError
from device.games import POSITION_NAMES, GameType
from device.profile import RamschRules, RamschTie, RamschValue, RuleProfile, SkatTo
from device.tricks import play_game

__all__ = [
    "SEAT_NAMES", "RamschCounts", "RamschError", "RamschResult", "check_push", "ramsch_counts",
    "ramsch_rules", "score_ramsch", "score_ramsch_cards",
]

SEAT_NAMES = POSITION_NAMES
DURCHMARSCH_POINTS = 120  # 001: "dass ein Spieler, der alle Stiche im Augenramsch gewinnt, 120 Punkte erhält"
MAX_PUSHES = 3  # Vorhand, Mittelhand and Hinterhand may each pass the skat on unseen
_CARD_VALUES = sorted([11] * 4 + [10] * 4 + [4] * 4 + [3] * 4 + [2] * 4 + [0] * 12, reverse=True)
_MINUS = "\u2212"  # the typographic minus, as on a written list


class RamschError(PlayError):
    """Ramsch counts or options that cannot be; ``field`` names the culprit."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


@dataclass(frozen=True, slots=True)
class RamschCounts:
    """What a Ramsch ended with: card points and tricks per seat (tricks only, the skat apart),
    the skat's card points, and the seat that took the last trick (it may get the skat).

    >>> RamschCounts(points=(60, 40, 10), tricks=(5, 4, 1), skat_points=10, last_trick=0).points
    (60, 40, 10)
    >>> RamschCounts(points=(60, 40, 10), tricks=(5, 5, 1), skat_points=10, last_trick=0)
    Traceback (most recent call last):
    ...
    device.ramsch.RamschError: tricks: (5, 5, 1) make 11 tricks; a game has 10
    """

    points: tuple[int, int, int]
    tricks: tuple[int, int, int]
    skat_points: int
    last_trick: int
    #: The seat that took each trick, in play order (optional; Texas-Skat needs it when two
    #: tie for the fewest Augen: "der Spieler, der den letzten Stich dieser beiden Spieler
    #: nicht gewonnen hat").
    trick_winners: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        for name in ("points", "tricks"):
            values = getattr(self, name)
            if len(values) != 3 or not all(_is_count(v) for v in values):
                raise RamschError(name, f"{values!r}: three whole numbers of 0 or more, one per seat")
        if sum(self.tricks) != 10:
            raise RamschError("tricks", f"{self.tricks} make {sum(self.tricks)} tricks; a game has 10")
        if not _is_count(self.skat_points) or self.skat_points > _most_points(2):
            raise RamschError("skat_points", f"{self.skat_points!r}: two cards hold 0 to {_most_points(2)} points")
        if sum(self.points) + self.skat_points != 120:
            raise RamschError("points", f"{self.points} and the skat's {self.skat_points} make "
                                        f"{sum(self.points) + self.skat_points}, not 120")
        for seat, (pts, tricks) in enumerate(zip(self.points, self.tricks)):
            if pts > _most_points(3 * tricks):
                raise RamschError("points", f"{SEAT_NAMES[seat]} cannot have {pts} points in {tricks} tricks")
        if isinstance(self.last_trick, bool) or self.last_trick not in (0, 1, 2):
            raise RamschError("last_trick", f"{self.last_trick!r}: the seat 0, 1 or 2")
        if self.tricks[self.last_trick] == 0:
            raise RamschError("last_trick", f"{SEAT_NAMES[self.last_trick]} took no trick, so not the last one")
        if self.trick_winners:
            order = self.trick_winners
            if len(order) != 10 or any(isinstance(s, bool) or s not in (0, 1, 2) for s in order):
                raise RamschError("trick_winners", f"{order!r}: the seat (0, 1, 2) that took each of the 10 tricks")
            if tuple(order.count(seat) for seat in range(3)) != self.tricks or order[-1] != self.last_trick:
                raise RamschError("trick_winners", f"{order!r} does not fit the tricks {self.tricks} and the last trick")


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _most_points(cards: int) -> int:
    return sum(_CARD_VALUES[: max(0, cards)])


def ramsch_counts(skat: Iterable[Card], tricks: Iterable[Sequence[Card]]) -> RamschCounts:
    """The counts of a Ramsch played out from its cards: 10 tricks in play order, each from its
    lead on (Vorhand leads the first), taken in Grand order (001: "Der Rang und der Wert der
    Karten entsprechen dem Grand"), and the two cards in the skat at the end.

    >>> from device.cards import DECK, parse_cards
    >>> tricks = [parse_cards(t) for t in ["CJ SJ HJ", "DJ C7 C8", "CA CT CK", "SA ST SK",
    ...           "HA HT HK", "DA DT DK", "CQ C9 SQ", "S9 S8 S7", "HQ H9 H8", "DQ D9 D8"]]
    >>> c = ramsch_counts(parse_cards("H7 D7"), tricks)
    >>> c.points, c.tricks, c.skat_points, c.last_trick
    ((120, 0, 0), (10, 0, 0), 0, 0)
    """
    played = play_game(GameType.GRAND, 0, skat, tricks)
    if not played.complete:
        raise RamschError("tricks", f"a Ramsch is scored when all 10 tricks are played, not {len(played.tricks)}")
    p, t = played.points, played.trick_counts
    return RamschCounts(points=(p[0], p[1], p[2]), tricks=(t[0], t[1], t[2]), skat_points=played.skat_points,
                        last_trick=played.tricks[-1].winner, trick_winners=tuple(t.winner for t in played.tricks))


def ramsch_rules(profile: RuleProfile, *, ramsch_round: bool = False) -> RamschRules:
    """The Ramsch rules in force: the profile's, or for an obligatory Ramsch round after Bock
    the same played as Schieberamsch with Grand Hand allowed (001: "Ramschrunden werden nach
    den Regeln des Schieberamsch gespielt, einschließlich der Möglichkeit, ein Grand-Hand zu
    spielen"). Refuses a profile without Ramsch.

    >>> from device.profile import find_profile
    >>> ramsch_rules(find_profile("isko"))
    Traceback (most recent call last):
    ...
    device.ramsch.RamschError: profile: the rule profile 'isko' plays no Ramsch (SkWO 9.4: eingepasst, the next player deals)
    """
    allowed = profile.has_ramsch if ramsch_round else profile.ramsch
    if not allowed:
        raise RamschError("profile", f"the rule profile {profile.name!r} plays no Ramsch "
                                     "(SkWO 9.4: eingepasst, the next player deals)")
    if ramsch_round:
        return replace(profile.ramsch_rules, schieben=True, grand_hand=True)
    return profile.ramsch_rules


def check_push(cards: Sequence[Card], profile: RuleProfile, *, ramsch_round: bool = False) -> None:
    """Refuse two cards a player may not lay away for the next in Schieberamsch.

    >>> from device.cards import parse_cards
    >>> from device.profile import RamschRules, find_profile
    >>> strict = find_profile("kneipe").with_(ramsch_rules=RamschRules(schieben=True, push_jacks=False))
    >>> check_push(parse_cards("SA HT"), strict)
    >>> check_push(parse_cards("CJ HT"), strict)
    Traceback (most recent call last):
    ...
    device.ramsch.RamschError: skat: jacks may not be passed on under this profile (Kreuz Bube)
    """
    rules = ramsch_rules(profile, ramsch_round=ramsch_round)
    if not rules.schieben:
        raise RamschError("skat", "this Ramsch has no Schieben: everybody plays the cards dealt")
    if len(cards) != 2 or len(set(cards)) != 2:
        raise RamschError("skat", f"two different cards are passed on, not {len(cards)}")
    jacks = [c for c in cards if c.rank is Rank.JACK]
    if jacks and not rules.push_jacks:
        raise RamschError("skat", f"jacks may not be passed on under this profile ({', '.join(c.german for c in jacks)})")


@dataclass(frozen=True, slots=True)
class RamschResult:
    """A scored Ramsch, per seat.

    ``points``: card points with the skat where it went (``skat_to``, None if nobody got it);
    ``losers``: the seats with the most points (two on a tie; none on a three-way tie or a
    Durchmarsch); ``jungfrauen``: seats without a trick; ``durchmarsch``: the seat that took
    every trick and wins by it (None otherwise); ``pushes``: the players who passed the skat on
    unseen; ``multiplier``: 2 per push times Bock; ``scores``: the signed list entry per seat.
    """

    counts: RamschCounts
    points: tuple[int, int, int]
    skat_to: int | None
    losers: tuple[int, ...]
    jungfrauen: tuple[int, ...]
    durchmarsch: int | None
    pushes: int
    multiplier: int
    scores: tuple[int, int, int]
    #: Texas Ramsch: the seat with the fewest Augen, who wins (None otherwise).
    winner: int | None = None

    @property
    def list_scores(self) -> dict[int, int]:
        """The seats whose list changes, with their entry ({} when nobody scores)."""
        return {seat: score for seat, score in enumerate(self.scores) if score}

    def describe_de(self, names: Sequence[str] = SEAT_NAMES) -> str:
        """The list entry in words, e.g. 'Ramsch: Bernd verliert mit 58 Augen, −58'."""
        if self.durchmarsch is not None:
            head = f"Durchmarsch von {names[self.durchmarsch]}, {_signed(self.scores[self.durchmarsch])}"
        elif self.winner is not None:
            seat = self.winner
            head = (f"{names[seat]} gewinnt mit {self.points[seat]} Augen"
                    f"{' ohne Stich' if seat in self.jungfrauen else ''}, {_signed(self.scores[seat])}")
        elif not self.losers:
            head = f"alle drei mit {self.points[0]} Augen, keine Wertung"
        elif len(self.losers) == 1:
            seat = self.losers[0]
            head = f"{names[seat]} verliert mit {self.points[seat]} Augen, {_signed(self.scores[seat])}"
        else:
            a, b = self.losers
            head = (f"{names[a]} und {names[b]} verlieren mit je {self.points[a]} Augen, "
                    f"je {_signed(self.scores[a])}")
        notes = []
        if self.jungfrauen and self.durchmarsch is None and self.losers:
            notes.append("Jungfrau: " + ", ".join(names[s] for s in self.jungfrauen))
        if self.pushes:
            notes.append(f"{self.pushes}× geschoben")
        bock = self.multiplier // 2 ** self.pushes
        if bock > 1:
            notes.append("Bock" if bock == 2 else f"Bock ×{bock}")
        return f"Ramsch: {head}" + (f" ({'; '.join(notes)})" if notes else "")

    def describe_en(self, names: Sequence[str] = SEAT_NAMES) -> str:
        """:meth:`describe_de` in English ("Augen" are points; Jungfrau, Durchmarsch, Bock stay).

        >>> from device.profile import find_profile
        >>> kneipe = find_profile("kneipe")
        >>> r = score_ramsch(RamschCounts((45, 45, 30), (4, 3, 3), 0, 0), kneipe, pushes=1)
        >>> r.describe_en(("Anna", "Bernd", "Dieter"))
        'Ramsch: Anna and Bernd lose with 45 points each, −90 each (pushed 1×)'
        >>> r = score_ramsch(RamschCounts((58, 52, 0), (6, 4, 0), 10, 1), kneipe)
        >>> r.describe_en(("Anna", "Bernd", "Dieter"))
        'Ramsch: Bernd loses with 62 points, −124 (Jungfrau: Dieter)'
        >>> score_ramsch(RamschCounts((40, 40, 30), (4, 3, 3), 10, 2), kneipe).describe_en()
        'Ramsch: all three with 40 points, no score'
        """
        if self.durchmarsch is not None:
            head = f"Durchmarsch by {names[self.durchmarsch]}, {_signed(self.scores[self.durchmarsch])}"
        elif self.winner is not None:
            seat = self.winner
            head = (f"{names[seat]} wins with {self.points[seat]} points"
                    f"{' without a trick' if seat in self.jungfrauen else ''}, {_signed(self.scores[seat])}")
        elif not self.losers:
            head = f"all three with {self.points[0]} points, no score"
        elif len(self.losers) == 1:
            seat = self.losers[0]
            head = f"{names[seat]} loses with {self.points[seat]} points, {_signed(self.scores[seat])}"
        else:
            a, b = self.losers
            head = (f"{names[a]} and {names[b]} lose with {self.points[a]} points each, "
                    f"{_signed(self.scores[a])} each")
        notes = []
        if self.jungfrauen and self.durchmarsch is None and self.losers:
            notes.append("Jungfrau: " + ", ".join(names[s] for s in self.jungfrauen))
        if self.pushes:
            notes.append(f"pushed {self.pushes}×")
        bock = self.multiplier // 2 ** self.pushes
        if bock > 1:
            notes.append("Bock" if bock == 2 else f"Bock ×{bock}")
        return f"Ramsch: {head}" + (f" ({'; '.join(notes)})" if notes else "")


def _signed(score: int) -> str:
    return f"+{score}" if score > 0 else f"{_MINUS}{-score}" if score < 0 else "0"


def score_ramsch(counts: RamschCounts, profile: RuleProfile, *, pushes: int = 0, multiplier: int = 1,
                 ramsch_round: bool = False) -> RamschResult:
    """Score a Ramsch under ``profile``'s :class:`~device.profile.RamschRules`.

    ``pushes``: how many players passed the skat on without looking (Schieberamsch; each
    doubles). ``multiplier``: Bock (1, 2, ...). ``ramsch_round``: an obligatory Ramsch round
    after Bock (Schieberamsch rules). The loser's minus: his points (Augenramsch) or the fixed
    amount, doubled per Jungfrau (in einfacher Ramsch 10/15/20); a tie of two for the most:
    both lose the full amount, or half each (rounded up); three equal: no score (001).

    >>> from device.profile import find_profile
    >>> r = score_ramsch(RamschCounts((45, 45, 30), (4, 3, 3), 0, 0), find_profile("kneipe"), pushes=1)
    >>> r.losers, r.scores, r.describe_de()
    ((0, 1), (-90, -90, 0), 'Ramsch: Vorhand und Mittelhand verlieren mit je 45 Augen, je −90 (1× geschoben)')
    """
    rules = ramsch_rules(profile, ramsch_round=ramsch_round)
    if isinstance(pushes, bool) or not isinstance(pushes, int) or not 0 <= pushes <= MAX_PUSHES:
        raise RamschError("pushes", f"{pushes!r}: 0 to {MAX_PUSHES} players pass the skat on")
    if pushes and not rules.schieben:
        raise RamschError("pushes", "this Ramsch has no Schieben, so nobody passed the skat on")
    if isinstance(multiplier, bool) or not isinstance(multiplier, int) or multiplier < 1:
        raise RamschError("multiplier", f"{multiplier!r} is not a multiplier: 1 or more")
    factor = 2 ** pushes * multiplier
    skat_to = _skat_to(counts, rules.skat_to)
    points = tuple(p + (counts.skat_points if seat == skat_to else 0) for seat, p in enumerate(counts.points))
    final = (points[0], points[1], points[2])
    if rules.value is RamschValue.TEXAS:
        return _score_texas(counts, final, skat_to, rules, pushes, factor)
    jungfrauen = tuple(seat for seat, t in enumerate(counts.tricks) if t == 0)
    taker = next((seat for seat, t in enumerate(counts.tricks) if t == 10), None)
    scores = [0, 0, 0]
    losers: tuple[int, ...] = ()
    durchmarsch = None
    if taker is not None and rules.durchmarsch:
        durchmarsch = taker
        won = DURCHMARSCH_POINTS if rules.value is RamschValue.POINTS else rules.fixed_values[2]
        scores[taker] = won * factor
    else:
        top = max(final)
        tied = tuple(seat for seat in range(3) if final[seat] == top)
        if len(tied) < 3:
            losers = tied
            amount = _loss(top, len(jungfrauen) if rules.jungfrau else 0, rules)
            if len(losers) == 2 and rules.tie is RamschTie.SHARE:
                amount = -(-amount // 2)  # half each, a half point rounded up
            for seat in losers:
                scores[seat] = -amount * factor
    return RamschResult(counts=counts, points=final, skat_to=skat_to, losers=losers,
                        jungfrauen=jungfrauen if rules.jungfrau else (), durchmarsch=durchmarsch,
                        pushes=pushes, multiplier=factor, scores=(scores[0], scores[1], scores[2]))


def _score_texas(counts: RamschCounts, final: tuple[int, int, int], skat_to: int | None, rules: RamschRules,
                 pushes: int, factor: int) -> RamschResult:
    """001 "Texas-Skat", Ramsch: "Wenn alle Spieler mindestens einen Stich gewinnen, erhält der
    Spieler, der die wenigsten Augen bekommen hat, 10 Spielpunkte. Wenn zwei Spieler gleich
    wenig Augen haben, erhält der Spieler, der den letzten Stich dieser beiden Spieler nicht
    gewonnen hat, 10 Spielpunkte. Bei Gleichstand aller drei Spieler mit 40 erhält die Vorhand
    10 Spielpunkte. Wenn ein Spieler keinen Stich gewonnen hat, erhält dieser Spieler 20 anstatt
    10 Punkte. Wenn zwei Spieler keinen Stich gewonnen haben, verliert der Spieler, der alle
    Stiche gewonnen hat, 30 Punkte."

    A player without a trick has 0 Augen, so he has the fewest (a tie with a player whose tricks
    hold no Augen goes to him: he did not take the later trick of the two).
    """
    no_trick = tuple(seat for seat, t in enumerate(counts.tricks) if t == 0)
    win, single_trickless, all_tricks = rules.fixed_values
    scores = [0, 0, 0]
    if len(no_trick) == 2:
        taker = counts.tricks.index(10)
        scores[taker] = -all_tricks * factor
        return RamschResult(counts=counts, points=final, skat_to=skat_to, losers=(taker,), jungfrauen=no_trick,
                            durchmarsch=None, pushes=pushes, multiplier=factor,
                            scores=(scores[0], scores[1], scores[2]))
    fewest = min(final)
    tied = [seat for seat in range(3) if final[seat] == fewest]
    winner = 0 if len(tied) == 3 else tied[0] if len(tied) == 1 else _not_the_later_trick(counts, tied[0], tied[1])
    scores[winner] = (single_trickless if winner in no_trick else win) * factor
    return RamschResult(counts=counts, points=final, skat_to=skat_to, losers=(), jungfrauen=no_trick,
                        durchmarsch=None, pushes=pushes, multiplier=factor, scores=(scores[0], scores[1], scores[2]),
                        winner=winner)


def _not_the_later_trick(counts: RamschCounts, a: int, b: int) -> int:
    """Of two seats tied for the fewest Augen, the one that did not take the later trick of the two."""
    if counts.tricks[a] == 0 or counts.tricks[b] == 0:
        return a if counts.tricks[a] == 0 else b
    if not counts.trick_winners:
        raise RamschError("trick_winners", f"{SEAT_NAMES[a]} and {SEAT_NAMES[b]} tie with the fewest Augen: Texas-Skat "
                                           "gives the 10 to the one who did not take the later trick of the two, "
                                           "so give the trick winners in play order")
    later = next(seat for seat in reversed(counts.trick_winners) if seat in (a, b))
    return b if later == a else a


def _skat_to(counts: RamschCounts, rule: SkatTo) -> int | None:
    if rule is SkatTo.LAST_TRICK:
        return counts.last_trick
    if rule is SkatTo.MOST_POINTS:
        top = max(counts.points)
        leaders = [seat for seat, p in enumerate(counts.points) if p == top]
        return leaders[0] if len(leaders) == 1 else None  # a tie: both lose anyway, nobody gets it
    return None


def _loss(points: int, jungfrauen: int, rules: RamschRules) -> int:
    if rules.value is RamschValue.FIXED:
        return rules.fixed_values[jungfrauen]
    return points << jungfrauen  # doubled per Jungfrau


def score_ramsch_cards(skat: Iterable[Card], tricks: Iterable[Sequence[Card]], profile: RuleProfile, *,
                       pushes: int = 0, multiplier: int = 1, ramsch_round: bool = False) -> RamschResult:
    """:func:`score_ramsch` of a Ramsch given by its cards (see :func:`ramsch_counts`)."""
    return score_ramsch(ramsch_counts(skat, tricks), profile, pushes=pushes, multiplier=multiplier,
                        ramsch_round=ramsch_round)
