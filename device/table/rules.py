"""What the table's flow reads from its rule profile: the bid values said at the table, the
declarations it offers and how it reads one, and looking at the discards.

The ISkO's bid values are 18, 20, 22, 23 … 264 (ISkO 3.3.1). A profile with other game values
bids those instead (001 "Texas-Skat": Null 20/30/40/60, Grand 16, a doubling ouvert: 32 is
Grand mit 1, 23 is no bid, 408 the highest). Texas lets Schneider, Schwarz and ouvert be
announced after taking up the skat too, and the declarer look at his discards before the
second trick's first card.

>>> from device.profile import ISKO, find_profile
>>> texas = find_profile("texas")
>>> bid_ladder(texas)[:8], bid_ladder(texas)[-1], bid_ladder(ISKO)[-1]
((18, 20, 22, 24, 27, 30, 32, 33), 408, 264)
>>> start_auction(texas).options().values[:3]
(18, 20, 22)
>>> [d.key for d in declaration_variants(texas) if d.game is GameType.GRAND]
['grand', 'grand/hand', 'grand/hand/schneider', 'grand/hand/schwarz', 'grand/hand/ouvert', 'grand/schneider', 'grand/schwarz', 'grand/ouvert']
>>> make_declaration(texas, Declare(GameType.CLUBS, announced=Level.SCHNEIDER)).describe_de()
'Kreuz Schneider angesagt'

Danish Skat (001 "Dänischer Skat"): ouvert is one more level of any game, after the skat too;
its Null games are Nul, Nul ouvert (both with the skat) and Dækker (Null ouvert Hand); a Null
Hand is none of them (the Århus club plays it, 46):

>>> danish = find_profile("danish")
>>> [d.key for d in declaration_variants(danish) if d.game is GameType.HEARTS]
['hearts', 'hearts/hand', 'hearts/hand/schneider', 'hearts/hand/schwarz', 'hearts/hand/ouvert', 'hearts/ouvert', 'hearts/hand/ouvert/schneider', 'hearts/hand/ouvert/schwarz']
>>> [make_declaration(danish, d).describe_de() for d in declaration_variants(danish) if d.game is GameType.NULL]
['Nul', 'Nul Hand', 'Nul ouvert', 'Dækker']
>>> profile_refusal(danish, make_declaration(danish, Declare(GameType.NULL, hand=True)))
'Nul Hand'
>>> profile_refusal(find_profile("danish_aarhus"), make_declaration(danish, Declare(GameType.NULL, hand=True))) is None
True
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from device.bidding import Auction
from device.cards import Card
from device.declaration import Declaration, Level, may_look_at_discards
from device.errors import DeclarationError, SkatError
from device.games import GameType
from device.profile import PROFILES, RamschValue, RuleProfile, SkatTo
from device.skatform import SkatForm, TourneeGame
from device.ramsch import RamschCounts, RamschError
from device.record import score_record
from device.table.commands import Declare
from device.tournee import turned_trumps
from device.value import bid_values, check_declaration

__all__ = ["LaterTrickNeeded", "allowed_elsewhere", "bid_ladder", "declaration_variants", "entered_ramsch_counts",
           "make_declaration", "may_look_now", "profile_refusal", "start_auction", "tournee_refusal",
           "turned_trumps"]

@functools.cache
def bid_ladder(profile: RuleProfile) -> tuple[int, ...]:
    """The profile's bid values, lowest first (the auction's ladder, the screen's buttons)."""
    return tuple(sorted(bid_values(profile)))


def start_auction(profile: RuleProfile) -> Auction:
    """A bidding's start under the profile: its bid values, Mittelhand to say one to Vorhand."""
    return Auction(ladder=bid_ladder(profile))


def declaration_variants(profile: RuleProfile) -> tuple[Declare, ...]:
    """Every declaration the screen lists: the ISkO's (3.4.4, 5.2.5, 5.2.6) and, where the
    profile lets them follow the skat (001 "Texas-Skat"), Schneider, Schwarz and ouvert
    announced after taking it up."""
    if profile.form is SkatForm.TOURNEE:
        return _tournee_variants()
    variants: list[Declare] = []
    for game in GameType:
        if game.is_null:
            variants += [Declare(game), Declare(game, hand=True), Declare(game, ouvert=True),
                         Declare(game, hand=True, ouvert=True)]
        else:
            variants += [Declare(game), Declare(game, hand=True),
                         Declare(game, hand=True, announced=Level.SCHNEIDER),
                         Declare(game, hand=True, announced=Level.SCHWARZ),
                         Declare(game, hand=True, ouvert=True)]
            if profile.announce_after_skat:
                variants += [Declare(game, announced=Level.SCHNEIDER), Declare(game, announced=Level.SCHWARZ),
                             Declare(game, ouvert=True)]
            elif profile.ouvert_any:  # ouvert after the skat (001 "Dänischer Skat" 4, "Ouvert-Spiele")
                variants.append(Declare(game, ouvert=True))
                if profile.form is SkatForm.DANISH:  # a Danish hand ouvert needs no Schwarz: announced or not
                    variants += [Declare(game, hand=True, ouvert=True, announced=Level.SCHNEIDER),
                                 Declare(game, hand=True, ouvert=True, announced=Level.SCHWARZ)]
    return tuple(variants)


def _tournee_variants() -> tuple[Declare, ...]:
    """001 "Tournee-Skat": "Es gibt keine Skatspiele im üblichen Sinn": a Tournee with the first
    or the second skat card and a Guckser take up the skat; a Solo (announced Schneider or
    Schwarz too), Null, Null ouvert and Grand ouvert are played without it."""
    variants: list[Declare] = []
    for game in GameType:
        if game.is_null:
            variants += [Declare(game, hand=True), Declare(game, hand=True, ouvert=True)]
            continue
        variants += [Declare(game, tournee=TourneeGame.FIRST), Declare(game, tournee=TourneeGame.SECOND),
                     Declare(game, hand=True, tournee=TourneeGame.SOLO),
                     Declare(game, hand=True, announced=Level.SCHNEIDER, tournee=TourneeGame.SOLO),
                     Declare(game, hand=True, announced=Level.SCHWARZ, tournee=TourneeGame.SOLO)]
        if game is GameType.GRAND:
            variants += [Declare(game, tournee=TourneeGame.GUCKSER), Declare(game, hand=True, ouvert=True)]
    return tuple(variants)


def tournee_refusal(declaration: Declaration, *, turned: Card | None, second: bool, skat_taken: bool) -> str | None:
    """Why a Tournée game cannot be declared now (a refusal key), or None: a Tournee needs its
    card turned (the first or the second, as declared) and its trump; a Guckser takes the skat
    without turning a card; a game without the skat cannot follow a turned card."""
    kind = declaration.tournee
    if kind in (TourneeGame.FIRST, TourneeGame.SECOND):
        if turned is None:
            return "turn_card_first"
        if second != (kind is TourneeGame.SECOND):
            return "turned_second" if second else "turned_first"
        if declaration.game not in turned_trumps(turned):
            return "turned_card_decides"
        return None
    if turned is not None:
        return "turned_card_decides" if kind is TourneeGame.GUCKSER else "hand_after_turn"
    return None


def make_declaration(profile: RuleProfile, declare: Declare) -> Declaration:
    """The declaration ``declare`` makes under the profile (DeclarationError if it cannot be)."""
    announced = declare.announced
    if profile.ouvert_any and profile.form is SkatForm.GERMAN and declare.ouvert and declare.hand and not declare.game.is_null:
        # the club option (001 "Ouvert-Spiele"): ouvert one level more, a hand ouvert still the ISkO's
        # Schwarz angesagt (5.2.6); Danish Skat's needs no Schwarz ("nicht erforderlich ...")
        announced = Level.SCHWARZ
    return Declaration.make(declare.game, hand=declare.hand, ouvert=declare.ouvert, announced=announced,
                            late_announcements=profile.announce_after_skat, ouvert_any=profile.ouvert_any,
                            form=profile.form, tournee=declare.tournee)


def profile_refusal(profile: RuleProfile, declaration: Declaration) -> str | None:
    """The declaration as the table names it when the rule profile does not play it (a Danish
    Null Hand), else None: the refusal names it and the profile."""
    try:
        check_declaration(declaration, profile)
    except DeclarationError:
        return declaration.describe_de()
    return None


def may_look_now(profile: RuleProfile, *, skat_taken: bool, cards_played: int, hand: bool) -> bool:
    """Whether the declarer may look at his discards now (a hand game has none of his)."""
    return not hand and may_look_at_discards(profile, skat_taken=skat_taken, cards_played=cards_played)


def allowed_elsewhere(record: Mapping[str, Any], profile: RuleProfile) -> bool:
    """Whether a record refused under ``profile`` scores under another registered one: then it
    is the profile that forbids it (a bid of 23 or a Kontra in Texas-Skat, an ouvert after the
    skat by the ISkO), and the table says so naming the field and the profile.

    >>> from device.profile import TEXAS
    >>> allowed_elsewhere({"game": "clubs", "bid": 23, "matadors": 1, "declarer_points": 70, "declarer_tricks": 6}, TEXAS)
    True
    >>> allowed_elsewhere({"game": "clubs", "bid": 19, "matadors": 1, "declarer_points": 70, "declarer_tricks": 6}, TEXAS)
    False
    """
    for other in PROFILES.values():
        if other.name == profile.name:
            continue
        try:
            score_record(record, profile=other)
        except (SkatError, TypeError, ValueError):
            continue
        return True
    return False


class LaterTrickNeeded(RamschError):
    """A Texas Ramsch in which two tie for the fewest Augen, both with tricks, and the third took
    the last trick: the table says which of the two took the later trick (``seats``)."""

    def __init__(self, seats: tuple[int, int]) -> None:
        super().__init__("later_trick", f"positions {seats[0]} and {seats[1]} tie with the fewest Augen: which of "
                                        "the two took the later trick?")
        self.seats = seats


def entered_ramsch_counts(points: tuple[int, int, int], tricks: tuple[int, int, int], skat_points: int,
                          last_trick: int, later_trick: int | None, profile: RuleProfile) -> RamschCounts:
    """The counts of a Ramsch entered at the table, ready for device.ramsch.score_ramsch.

    The table enters counts, not tricks; a Texas Ramsch tied for the fewest Augen needs one
    fact more (001: "erhält der Spieler, der den letzten Stich dieser beiden Spieler nicht
    gewonnen hat"): which of the two took the later trick. That is the last trick's taker when
    he is one of them; otherwise ``later_trick`` (LaterTrickNeeded asks for it). The order of
    trick winners given to the scoring says just that and no more: the later trick's taker,
    then the last trick's, at the end.

    >>> from device.profile import TEXAS
    >>> entered_ramsch_counts((20, 60, 30), (3, 4, 3), 10, 0, None, TEXAS).trick_winners[-1]
    0
    >>> entered_ramsch_counts((30, 30, 40), (3, 3, 4), 20, 2, 1, TEXAS).trick_winners[-2:]
    (1, 2)
    >>> entered_ramsch_counts((30, 30, 40), (3, 3, 4), 20, 2, None, TEXAS)
    Traceback (most recent call last):
    ...
    device.table.rules.LaterTrickNeeded: later_trick: positions 0 and 1 tie with the fewest Augen: which of the two took the later trick?
    """
    counts = RamschCounts(points, tricks, skat_points, last_trick)
    tied = _texas_tie(counts, profile)
    if tied is None:
        if later_trick is not None:
            raise RamschError("later_trick", "only asked when two tie with the fewest Augen in a Texas Ramsch")
        return counts
    later = later_trick if later_trick is not None else last_trick if last_trick in tied else None
    if later is None:
        raise LaterTrickNeeded(tied)
    if isinstance(later, bool) or later not in tied:
        raise RamschError("later_trick", f"{later!r}: one of the two tied positions {tied}")
    rest = list(tricks)
    ending = [later, last_trick] if later != last_trick else [last_trick]
    for seat in ending:
        rest[seat] -= 1
    order = [seat for seat in range(3) for _ in range(rest[seat])] + ending
    return RamschCounts(points, tricks, skat_points, last_trick, trick_winners=tuple(order))


def _texas_tie(counts: RamschCounts, profile: RuleProfile) -> tuple[int, int] | None:
    """The two positions tied for the fewest Augen (skat counted), both with tricks, in a Texas Ramsch."""
    rules = profile.ramsch_rules
    if rules.value is not RamschValue.TEXAS:
        return None
    final = list(counts.points)
    if rules.skat_to is SkatTo.LAST_TRICK:
        final[counts.last_trick] += counts.skat_points
    fewest = min(final)
    tied = [seat for seat in range(3) if final[seat] == fewest]
    if len(tied) != 2 or any(counts.tricks[seat] == 0 for seat in tied):
        return None
    return tied[0], tied[1]
