"""Club variants as pure rules: Kontra/Re, Bock rounds, Schenken and Spitze (rule text 001).

Everything here reads its switches from a :class:`~device.profile.RuleProfile`; with the
ISkO profile every variant is refused. Ramsch lives in :mod:`device.ramsch`.

Kontra doubles the score, Re doubles it again; the game value and the overbid stay as they
are (001, "Kontra und Re": bid 20, Karo mit 1, Kontra, 85 Augen: overbid, lost at 27, minus
2 x 27 x 2 = 108):

>>> from device.declaration import Declaration
>>> from device.profile import find_profile
>>> from device.value import Play, score_game
>>> kneipe = find_profile("kneipe")
>>> m = kontra_multiplier(True, False, kneipe)
>>> score_game(Declaration.make(GameType.DIAMONDS), 20, Play(85, 7, 1), multiplier=m).score
-108
>>> kontra_multiplier(True, False, find_profile("isko"))
Traceback (most recent call last):
...
device.variants.VariantError: Kontra is not played under the rule profile 'isko'

Bock rounds as a fold over the deals (three players: a round is three deals):

>>> state = BockState.start(3, kneipe)
>>> state = state.after_deal((BockTrigger.SIXTY_SIXTY,))
>>> state.multiplier, state.bock_deals_left, state.german
(2, 3, 'Bock (noch 3 Spiele)')
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from device.bidding import LOWEST_BID, Auction, Bid, Hold, Pass, Role
from device.cards import Card
from device.declaration import Declaration, Level
from device.errors import SkatError
from device.games import POSITION_NAMES, GameType
from device.profile import (
    ISKO, BockRules, BockStacking, BockTrigger, KontraTiming, RuleProfile,
)
from device.tricks import PlayedGame, trump_order
from device.value import PLAYED_OUT, SCHENKEN_WORDS, EndedBy, Ending, GameResult, Play, score_game

__all__ = [
    "BOCK_FACTOR", "BockState", "BockTrigger", "Schenken", "VariantError", "bock_triggers",
    "check_kontra", "check_re", "check_spitze", "is_automatic_gift", "kontra_multiplier",
    "may_say_kontra", "may_say_re", "passed_up_18", "score_schenken", "score_spitze",
    "spitze_cards", "spitze_made", "total_triggers",
]

#: One open Bock round doubles the score (001: "für den doppelten Einsatz").
BOCK_FACTOR = 2


class VariantError(SkatError, ValueError):
    """A variant the rule profile does not allow, or said against its rules (Re without Kontra).

    ``german`` is the reason in the table's words, where the check gave one.
    """

    def __init__(self, reason: str, german: str = "") -> None:
        super().__init__(reason)
        self.german = german


# --------------------------------------------------------------------------- Kontra and Re


def kontra_multiplier(kontra: bool, re: bool, profile: RuleProfile = ISKO) -> int:
    """The score multiplier of Kontra (2) and Re (4); 1 without them.

    Refuses Kontra when the profile does not play it, and Re without Kontra.

    >>> from device.profile import find_profile
    >>> kontra_multiplier(False, False), kontra_multiplier(True, True, find_profile("kneipe"))
    (1, 4)
    >>> kontra_multiplier(False, True, find_profile("kneipe"))
    Traceback (most recent call last):
    ...
    device.variants.VariantError: Re answers a Kontra: without Kontra there is no Re
    """
    if re and not kontra:
        raise VariantError("Re answers a Kontra: without Kontra there is no Re")
    if kontra and not profile.kontra:
        raise VariantError(f"Kontra is not played under the rule profile {profile.name!r}")
    return (2 if kontra else 1) * (2 if re else 1)


def passed_up_18(auction: Auction, seat: int) -> bool:
    """Whether ``seat`` passed when it could still have said or held 18 (and never said or held
    any value): 001's example, "A ist Vorhand, B reizt 18 für A, und A passt; C passt
    ebenfalls. A darf nun kein Kontra ... ansagen ... C kann Kontra ansagen, da C mindestens mit
    20 hätte reizen müssen".

    >>> from device.bidding import parse_action, replay
    >>> a = replay(map(parse_action, ["M 18", "V passe", "H passe"]))
    >>> passed_up_18(a, 0), passed_up_18(a, 2)
    (True, False)
    """
    state = Auction()
    for action in auction.actions:
        if action.seat == seat:
            if isinstance(action, (Bid, Hold)):
                return False
            if isinstance(action, Pass):
                options = state.options()
                lowest = options.current if options.role is Role.ANSWERING else options.min_value
                return lowest == LOWEST_BID
        state = state.apply(action)
    return False


def check_kontra(profile: RuleProfile, *, seat: int, declarer: int, cards_played: int,
                 auction: Auction | None = None) -> None:
    """Refuse a Kontra the profile does not allow now, saying why.

    ``seat`` says Kontra against ``declarer`` (seats 0 Vorhand, 1 Mittelhand, 2 Hinterhand);
    ``cards_played`` counts the cards played so far (Vorhand leads the first trick, so seat s
    plays the card number s + 1 of the game). ``auction`` is needed for
    ``no_kontra_after_passing_18``.

    >>> from device.profile import find_profile
    >>> check_kontra(find_profile("kneipe"), seat=2, declarer=0, cards_played=2)
    >>> check_kontra(find_profile("kneipe"), seat=1, declarer=0, cards_played=2)
    Traceback (most recent call last):
    ...
    device.variants.VariantError: Mittelhand has already played to the first trick: too late for Kontra
    """
    if not profile.kontra:
        raise VariantError(f"Kontra is not played under the rule profile {profile.name!r}")
    if seat == declarer or seat not in (0, 1, 2) or declarer not in (0, 1, 2):
        raise VariantError(f"only a defender says Kontra: seat {seat} is not a defender of seat {declarer}")
    rules = profile.kontra_rules
    if rules.timing is KontraTiming.BEFORE_LEAD and cards_played > 0:
        raise VariantError("Kontra only before the first card is led, and the first card is out")
    if cards_played > seat:
        raise VariantError(f"{POSITION_NAMES[seat]} has already played to the first trick: too late for Kontra")
    if rules.no_kontra_after_passing_18:
        if auction is None:
            raise VariantError("give the bidding: whoever passed up 18 may not say Kontra under this profile")
        if passed_up_18(auction, seat):
            raise VariantError(f"{POSITION_NAMES[seat]} passed at 18 and so may not say Kontra")


def may_say_kontra(profile: RuleProfile, *, seat: int, declarer: int, cards_played: int,
                   auction: Auction | None = None) -> bool:
    """Whether :func:`check_kontra` lets ``seat`` say Kontra now (for showing the button)."""
    try:
        check_kontra(profile, seat=seat, declarer=declarer, cards_played=cards_played, auction=auction)
    except VariantError:
        return False
    return True


def check_re(profile: RuleProfile, *, seat: int, declarer: int, kontra_said: bool,
             cards_since_kontra: int) -> None:
    """Refuse a Re the profile does not allow now. 001: "Der Alleinspieler kann sofort mit Re
    antworten": only the declarer, only after a Kontra, before the next card is played.

    >>> from device.profile import find_profile
    >>> check_re(find_profile("kneipe"), seat=1, declarer=1, kontra_said=True, cards_since_kontra=0)
    >>> may_say_re(find_profile("kneipe"), seat=1, declarer=1, kontra_said=True, cards_since_kontra=1)
    False
    """
    if not profile.kontra:
        raise VariantError(f"Kontra and Re are not played under the rule profile {profile.name!r}")
    if seat != declarer:
        raise VariantError("only the declarer answers a Kontra with Re")
    if not kontra_said:
        raise VariantError("Re answers a Kontra: without Kontra there is no Re")
    if cards_since_kontra > 0:
        raise VariantError("Re comes at once after the Kontra: a card has been played since")


def may_say_re(profile: RuleProfile, *, seat: int, declarer: int, kontra_said: bool,
               cards_since_kontra: int) -> bool:
    """Whether :func:`check_re` lets the declarer say Re now."""
    try:
        check_re(profile, seat=seat, declarer=declarer, kontra_said=kontra_said,
                 cards_since_kontra=cards_since_kontra)
    except VariantError:
        return False
    return True


# --------------------------------------------------------------------------- Bock triggers


def bock_triggers(result: GameResult, profile: RuleProfile, *, kontra: bool = False, re: bool = False,
                  new_totals: Sequence[int] = ()) -> tuple[BockTrigger, ...]:
    """The Bock triggers a scored game fires under ``profile`` (none when Bock is off).

    ``kontra``/``re``: whether they were said. ``new_totals``: the running totals, after this
    game, of the players whose total it changed (the declarer on a classic list), for the
    total-score triggers. In trigger order; show them with ``.german``.

    >>> from device.declaration import Declaration
    >>> from device.profile import find_profile
    >>> from device.value import Play, score_game
    >>> r = score_game(Declaration.make(GameType.GRAND, hand=True), 24, Play(60, 5, 2))
    >>> [t.german for t in bock_triggers(r, find_profile("kneipe"), kontra=True)]
    ['60 zu 60', 'Kontra gewonnen']
    """
    if not profile.bock:
        return ()
    decl = result.declaration
    played_suit_or_grand = result.ended_by is EndedBy.PLAYED and not decl.game.is_null
    fired = {
        BockTrigger.SIXTY_SIXTY: played_suit_or_grand and result.declarer_points == 60,
        BockTrigger.KONTRA_WON: kontra and not result.won,
        BockTrigger.GRAND_HAND_WON: decl.game is GameType.GRAND and decl.hand and result.won,
        BockTrigger.RE: re,
        BockTrigger.ALL_POINTS: played_suit_or_grand and result.declarer_points in (0, 120),
        BockTrigger.OVERBID: result.overbid,
        BockTrigger.VALUE_100: result.value >= 100,
    }
    chosen = profile.bock_rules.triggers
    from_game = tuple(t for t in BockTrigger if fired.get(t, False) and t in chosen)
    return from_game + total_triggers(new_totals, profile)


def total_triggers(new_totals: Sequence[int], profile: RuleProfile) -> tuple[BockTrigger, ...]:
    """The total-score triggers (001: "ein Mehrfaches von 100 oder eine Zahl, in der 3 oder mehr
    Ziffern identisch sind, wie z. B. 222") reached by any of ``new_totals``; each at most once.
    Also for Ramsch results, which fire no game trigger.

    >>> from device.profile import BockTrigger, find_profile
    >>> p = find_profile("kneipe")
    >>> p = p.with_(bock_rules=p.bock_rules.__class__(triggers=frozenset(BockTrigger)))
    >>> [t.german for t in total_triggers([300, -222, 0], p)]
    ['Hunderter erreicht', 'Schnapszahl']
    """
    if not profile.bock:
        return ()
    chosen = profile.bock_rules.triggers
    out = []
    if BockTrigger.HUNDRED in chosen and any(t != 0 and t % 100 == 0 for t in new_totals):
        out.append(BockTrigger.HUNDRED)
    if BockTrigger.SCHNAPSZAHL in chosen and any(_is_schnapszahl(t) for t in new_totals):
        out.append(BockTrigger.SCHNAPSZAHL)
    return tuple(out)


def _is_schnapszahl(total: int) -> bool:
    digits = str(abs(total))
    return len(digits) >= 3 and len(set(digits)) == 1


# --------------------------------------------------------------------------- Bock rounds


@dataclass(frozen=True, slots=True)
class BockState:
    """Open Bock rounds and an obligatory Ramsch round, as a pure fold over the deals.

    Start with :meth:`start`; after each deal (a game, a Ramsch or an eingepasst deal: every
    deal counts) call :meth:`after_deal` with the triggers it fired. The deal *being* played
    is Bock when :attr:`multiplier` > 1 (read it before the deal); rounds a deal brings start
    with the next deal. ``rounds``: the deals left in each open round (sequential: the first
    is the one being played; concurrent: all run at once). ``ramsch_left``: deals of an
    obligatory Ramsch round still to play; it comes right after the Bock round that called
    for it, and the open Bock rounds wait for it (its deals are not Bock deals).
    """

    players: int
    rules: BockRules
    enabled: bool = True
    rounds: tuple[int, ...] = ()
    completed: int = 0
    ramsch_left: int = 0

    @classmethod
    def start(cls, players: int, profile: RuleProfile) -> BockState:
        """No Bock open yet, at a table of ``players`` (3, 4 or 5: the deals in one round)."""
        if isinstance(players, bool) or players not in (3, 4, 5):
            raise VariantError(f"a table has 3, 4 or 5 players, not {players!r}")
        return cls(players=players, rules=profile.bock_rules, enabled=profile.bock)

    @property
    def is_ramsch(self) -> bool:
        """Whether the coming deal belongs to an obligatory Ramsch round (Schieberamsch)."""
        return self.ramsch_left > 0

    @property
    def multiplier(self) -> int:
        """The Bock multiplier of the coming deal: 1, 2, or 2**n for n concurrent rounds."""
        if not self.rounds or self.is_ramsch:
            return 1
        if self.rules.stacking is BockStacking.CONCURRENT:
            factor: int = BOCK_FACTOR ** len(self.rounds)
            return factor
        return BOCK_FACTOR

    @property
    def bock_deals_left(self) -> int:
        """How many deals are still to be played in Bock (the coming one included)."""
        if self.rules.stacking is BockStacking.CONCURRENT:
            return max(self.rounds, default=0)
        return sum(self.rounds)

    @property
    def must_play_on(self) -> bool:
        """Whether open Bock or Ramsch rounds keep the list from closing (``finish_open_rounds``)."""
        return self.rules.finish_open_rounds and (self.bock_deals_left > 0 or self.ramsch_left > 0)

    @property
    def german(self) -> str:
        """A status line for the screen ('' when nothing is open)."""
        if self.is_ramsch:
            return f"Ramschrunde (noch {_games(self.ramsch_left)})"
        if not self.rounds:
            return ""
        factor = self.multiplier
        head = "Bock" if factor == BOCK_FACTOR else f"Bock ×{factor}"
        return f"{head} (noch {_games(self.bock_deals_left)})"

    def after_deal(self, triggers: Iterable[BockTrigger] = (), *, counts: bool = True) -> BockState:
        """The state after one deal that fired ``triggers``.

        ``counts=False`` for a Grand Hand in an obligatory Ramsch round: 001, "Ein Grand-Hand
        zählt nicht zu der Ramschrunde. Nach einem Grand-Hand gibt derselbe Spieler erneut aus."
        """
        fired = tuple(triggers)
        if not self.enabled:
            return self
        state = self._count_deal() if counts else self
        new_rounds = len(fired) if self.rules.each_trigger_counts else min(1, len(fired))
        added = (self.players,) * (new_rounds * self.rules.rounds_per_trigger)
        return replace(state, rounds=state.rounds + added)

    def _count_deal(self) -> BockState:
        if self.is_ramsch:
            return replace(self, ramsch_left=self.ramsch_left - 1)
        if not self.rounds:
            return self
        if self.rules.stacking is BockStacking.CONCURRENT:
            left = tuple(n - 1 for n in self.rounds)
        else:
            left = (self.rounds[0] - 1, *self.rounds[1:])
        finished = sum(1 for n in left if n == 0)
        every = self.rules.ramsch_round_every
        ramsch_rounds = sum(1 for k in range(self.completed + 1, self.completed + finished + 1)
                            if every and k % every == 0)
        return replace(self, rounds=tuple(n for n in left if n > 0), completed=self.completed + finished,
                       ramsch_left=self.ramsch_left + ramsch_rounds * self.players)


def _games(n: int) -> str:
    return f"{n} Spiel" if n == 1 else f"{n} Spiele"


# --------------------------------------------------------------------------- Schenken


class Schenken(enum.Enum):
    """Where a Schenken ended (001, "Schenken"); the value is the record's name for it."""

    #: The defenders conceded and the declarer accepted: won simple ("mit 61-89 Augen").
    GIFT = "geschenkt"
    #: He refused and played on: he must make Schneider; scored as Schneider announced.
    PLAY_ON = "weiterspielen"
    #: Conceded again and accepted: won Schneider (scored as Schneider announced).
    GIFT_SCHNEIDER = "schneider_geschenkt"
    #: He refused again and played on for Schwarz: scored as Schwarz announced.
    PLAY_ON_SCHWARZ = "weiterspielen_schwarz"

    @property
    def level(self) -> Level:
        """The level the outcome scores as announced (at least)."""
        return _SCHENKEN_LEVEL[self]

    @property
    def is_gift(self) -> bool:
        """Whether the game ended by the accepted concession (no further play)."""
        return self in (Schenken.GIFT, Schenken.GIFT_SCHNEIDER)

    @property
    def german(self) -> str:
        return _SCHENKEN_GERMAN[self]


_SCHENKEN_LEVEL = {
    Schenken.GIFT: Level.SIMPLE, Schenken.PLAY_ON: Level.SCHNEIDER,
    Schenken.GIFT_SCHNEIDER: Level.SCHNEIDER, Schenken.PLAY_ON_SCHWARZ: Level.SCHWARZ,
}
_SCHENKEN_GERMAN = {outcome: SCHENKEN_WORDS[outcome.value][0] for outcome in Schenken}


def score_schenken(declaration: Declaration, bid: int, outcome: Schenken, play: Play, *,
                   defender_points: int = 0, defender_tricks: int = 0, ending: Ending = PLAYED_OUT,
                   multiplier: int = 1, profile: RuleProfile = ISKO) -> GameResult:
    """Score a game that ended in ``outcome`` of a Schenken (a :class:`GameResult` of
    :func:`~device.value.score_game`).

    A gift (``GIFT``, ``GIFT_SCHNEIDER``) ends the game as conceded by the defenders: ``play``
    holds the declarer's counts so far (0, 0 and his matadors at the start) and
    ``defender_points``/``defender_tricks`` theirs. A gift must reach the bid: if the gifted
    level is worth less, the declarer cannot accept it and has to play on (VariantError).
    After playing on (``PLAY_ON``, ``PLAY_ON_SCHWARZ``) ``play`` is the played result and the
    game counts as Schneider (Schwarz) announced, with Hand only in a hand game. A Null game
    can only be gifted (won at its value). An announced level is never lowered.

    Kreuz mit 2 after the skat, bid 18, gifted: "mit 2, Spiel 3 x 12" = 36; played on and
    made Schneider: "mit 2, Spiel 3, Schneider 4, angesagt 5 x 12" = 60.

    >>> from device.profile import find_profile
    >>> kneipe, kreuz = find_profile("kneipe"), Declaration.make(GameType.CLUBS)
    >>> score_schenken(kreuz, 18, Schenken.GIFT, Play(0, 0, 2), profile=kneipe).score
    36
    >>> score_schenken(kreuz, 18, Schenken.PLAY_ON, Play(95, 8, 2), profile=kneipe).score
    60
    >>> score_schenken(kreuz, 18, Schenken.PLAY_ON, Play(85, 8, 2), profile=kneipe).score
    -120
    """
    if not profile.schenken:
        raise VariantError(f"Schenken is not played under the rule profile {profile.name!r} (SkWO 9.5)")
    gave_up = Ending(EndedBy.DEFENDERS_GAVE_UP, defender_points, defender_tricks)
    if declaration.game.is_null:
        if outcome is not Schenken.GIFT:
            raise VariantError("a Null game can only be gifted: there is no Schneider to play on for")
        return score_game(declaration, bid, play, ending=gave_up, multiplier=multiplier, profile=profile)
    level = max(declaration.announced, outcome.level)
    # Schneider "angesagt" by playing on needs no hand game here (001: "jedoch ohne den
    # Hand-Multiplikator, wenn es sich nicht um ein Handspiel handelt"), which a Declaration
    # cannot express: score the hand form and take its Hand level out again.
    as_hand = Declaration.make(declaration.game, hand=True, ouvert=declaration.ouvert, announced=level)
    end = gave_up if outcome.is_gift else ending
    # A gift is worth its own level; only a game played on and then ended by the defenders owes
    # the level the bid needs (4.1.5), and only a hand game can be scored with the real bid.
    core_bid = bid if not outcome.is_gift and end.by.by_defenders and declaration.hand else LOWEST_BID
    core = score_game(as_hand, core_bid, play, ending=end, multiplier=multiplier, profile=profile)
    factor, levels, shown = core.factor, core.levels, as_hand
    if not declaration.hand:
        factor, levels, shown = factor - 1, tuple(w for w in levels if w != "Hand"), declaration
    if outcome.is_gift:
        if not core.won:
            raise VariantError(f"the defenders already have {defender_points} points: they cannot give {outcome.german}",
                               f"die Gegner haben schon {defender_points} Augen: {outcome.german} geht nicht mehr")
        if core.base_value * factor < bid:
            worth = core.base_value * factor
            raise VariantError(
                f"{declaration.describe_de()} {outcome.german} is worth {worth}, less than the "
                f"bid {bid}: the declarer cannot accept it and plays on",
                f"{declaration.describe_de()} {outcome.german} zählt {worth}, weniger als das Reizgebot {bid}: "
                "der Alleinspieler kann es nicht annehmen und muss weiterspielen")
    return _refit(core, shown, bid, factor=factor, levels=levels, won=core.won, multiplier=multiplier,
                  profile=profile)


def _highest_value(profile: RuleProfile) -> int:
    """The cap of an overbid loss: the highest game, Grand ouvert mit 4, under ``profile``."""
    grand_ouvert = Declaration.make(GameType.GRAND, hand=True, ouvert=True)
    return score_game(grand_ouvert, LOWEST_BID, Play(120, 10, 4), profile=profile).value


def _refit(core: GameResult, declaration: Declaration, bid: int, *, factor: int, levels: tuple[str, ...],
           won: bool, multiplier: int, profile: RuleProfile) -> GameResult:
    """``core`` with another Summe der Fälle: value, overbid (5.4.1) and score worked out anew."""
    value = core.base_value * factor
    overbid = value < bid
    if overbid:
        won, value = False, min(_highest_value(profile), -(-bid // core.base_value) * core.base_value)
    lost_factor = 1 if (declaration.hand and not profile.lost_hand_doubled) else 2
    score = (value if won else -lost_factor * value) * multiplier
    return replace(core, declaration=declaration, bid=bid, won=won, value=value, score=score, overbid=overbid,
                   factor=factor, levels=levels)


def is_automatic_gift(declaration: Declaration, bid: int, *, kontra: bool = False, spitze: int = 0,
                      profile: RuleProfile = ISKO) -> bool:
    """Whether the game is conceded without asking (``schenken_rules.automatic``): Karo at 18,
    Karo or Herz at 20, unless Kontra was said or the declarer announced more (Schneider,
    Schwarz, ouvert or Spitze). Score it with :func:`score_schenken` and ``Schenken.GIFT``.

    >>> from device.profile import SchenkenRules, find_profile
    >>> p = find_profile("kneipe").with_(schenken_rules=SchenkenRules(automatic=True))
    >>> herz = Declaration.make(GameType.HEARTS)
    >>> is_automatic_gift(herz, 20, profile=p), is_automatic_gift(herz, 18, profile=p)
    (True, False)
    >>> is_automatic_gift(herz, 20, kontra=True, profile=p)
    False
    """
    if not (profile.schenken and profile.schenken_rules.automatic):
        return False
    if kontra or spitze or declaration.ouvert or declaration.announced is not Level.SIMPLE:
        return False
    low = {18: (GameType.DIAMONDS,), 20: (GameType.DIAMONDS, GameType.HEARTS)}
    return declaration.game in low.get(bid, ())


# --------------------------------------------------------------------------- Spitze


def spitze_cards(game: GameType, count: int = 1) -> tuple[Card, ...]:
    """The ``count`` lowest trumps, the lowest first: what a Spitze of that size must take the
    last tricks with (001: "bei einem Farbspiel die 7 oder in einem Grand-Spiel der Karo-Bube").

    >>> spitze_cards(GameType.HEARTS, 3), spitze_cards(GameType.GRAND)
    ((Card.parse('H7'), Card.parse('H8'), Card.parse('H9')), (Card.parse('DJ'),))
    """
    order = trump_order(game)
    if not order:
        raise VariantError(f"{game.german} has no trumps: no Spitze")
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= len(order):
        raise VariantError(f"a Spitze in {game.german} is 1 to {len(order)} cards, not {count!r}")
    return tuple(reversed(order))[:count]


def check_spitze(declaration: Declaration, count: int, hand: Iterable[Card], profile: RuleProfile) -> None:
    """Refuse a Spitze of ``count`` cards the profile does not allow, or whose cards the
    declarer does not hold in ``hand`` (his ten cards after the skat: a card in the skat can
    take no trick).

    >>> from device.cards import parse_cards
    >>> from device.profile import SpitzeRules, find_profile
    >>> p = find_profile("kneipe").with_(spitze=True, spitze_rules=SpitzeRules(max_cards=3))
    >>> check_spitze(Declaration.make(GameType.HEARTS), 2, parse_cards("H7 H8 CJ"), p)
    >>> check_spitze(Declaration.make(GameType.HEARTS), 3, parse_cards("H7 H8 CJ"), p)
    Traceback (most recent call last):
    ...
    device.variants.VariantError: Spitze 3 needs Herz 9, which the declarer does not hold
    """
    if not profile.spitze:
        raise VariantError(f"Spitze is not played under the rule profile {profile.name!r}")
    most = profile.spitze_rules.max_cards
    if isinstance(count, bool) or not isinstance(count, int) or count < 1 or count > most:
        raise VariantError(f"a Spitze is 1 to {most} card{'s' if most > 1 else ''} under this profile, not {count!r}")
    held = frozenset(hand)
    for card in spitze_cards(declaration.game, count):
        if card not in held:
            raise VariantError(f"Spitze {count} needs {card.german}, which the declarer does not hold")


def spitze_made(played: PlayedGame, count: int = 1) -> bool:
    """Whether the declarer took the last ``count`` tricks with the ``count`` lowest trumps, the
    very last with the lowest (001: "eine nicht unterbrochene Serie von Stichen mit diesen").

    >>> from device.cards import parse_cards
    >>> from device.tricks import play_game
    >>> tricks = [parse_cards(t) for t in ("CA C7 CT", "CK H7 C8", "CJ DJ H8")]
    >>> spitze_made(play_game(GameType.HEARTS, 1, parse_cards("S7 S8"), tricks))
    False
    """
    cards = spitze_cards(played.game, count)
    if len(played.tricks) < 10:
        return False
    last = played.tricks[-count:]
    if any(t.winner != played.declarer for t in last):
        return False
    used = {t.card_of(played.declarer) for t in last}
    return used == set(cards) and last[-1].card_of(played.declarer) == cards[0]


def score_spitze(declaration: Declaration, bid: int, play: Play, count: int, made: bool, *,
                 ending: Ending = PLAYED_OUT, multiplier: int = 1, profile: RuleProfile = ISKO) -> GameResult:
    """Score a suit or Grand game with a Spitze of ``count`` cards announced.

    The Spitze adds ``count x levels_per_card`` levels to the Summe der Fälle, won or lost.
    The game is won only when the Spitze is ``made`` and the game is won as usual (001: "Wenn
    Ihnen eine dieser beiden Aktionen misslingt, verlieren Sie"); an overbid is judged on the
    value with the Spitze. When the defenders ended the game early (4.1.5) the Spitze counts
    as made and the level they owe is decided as by :func:`~device.value.score_game`.

    001: "Herz ohne 2, Spiel 3, Musik 5: 5 x 10 = 50" (Musik: two levels per card):

    >>> from device.profile import SpitzeRules, find_profile
    >>> musik = find_profile("kneipe").with_(spitze=True, spitze_rules=SpitzeRules(levels_per_card=2))
    >>> r = score_spitze(Declaration.make(GameType.HEARTS), 18, Play(70, 6, -2), 1, True, profile=musik)
    >>> r.won, r.value, r.levels
    (True, 50, ('ohne 2', 'Spiel', 'Spitze', 'Spitze'))
    """
    if not profile.spitze:
        raise VariantError(f"Spitze is not played under the rule profile {profile.name!r}")
    if declaration.game.is_null:
        raise VariantError("Null has no trumps: no Spitze")
    spitze_cards(declaration.game, count)  # refuses a count the game cannot have
    if count > profile.spitze_rules.max_cards:
        raise VariantError(f"a Spitze is at most {profile.spitze_rules.max_cards} cards under this profile, not {count}")
    by_defenders = ending.by.by_defenders
    # The plain game, judged without the overbid (the Spitze may cover the bid), except when
    # the defenders ended it: then the level they owe depends on the real bid (4.1.5).
    core = score_game(declaration, bid if by_defenders else LOWEST_BID, play, ending=ending,
                      multiplier=multiplier, profile=profile)
    extra = count * profile.spitze_rules.levels_per_card
    return _refit(core, declaration, bid, factor=core.factor + extra, levels=core.levels + ("Spitze",) * extra,
                  won=core.won and (made or by_defenders), multiplier=multiplier, profile=profile)
