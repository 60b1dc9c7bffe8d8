"""The table's decisions: a command and the state give new events, or a refusal saying why.

:func:`decide` is pure: it reads the state and returns a :class:`Decision`; the service stores
the events and folds them into the state. A refused command never raises: it gives a
:class:`Refusal` with a ``code`` for programs and what happened (``key`` and ``values``); the
words, German and English, are the table's (``ui/i18n.py``). A card that can only be false following (ISkO 4.2.4) is not refused outright
either: it gives a question event for the table to decide *and* a refusal (the card is not
played until the table says so).
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from device.bidding import Auction, Role, is_bid_value
from device.bidding import Bid as AuctionBid
from device.bidding import Hold as AuctionHold
from device.bidding import Pass as AuctionPass
from device.cards import Card
from device.declaration import Declaration
from device.errors import BidError, DeclarationError, RecordError
from device.hardware import Button, ButtonPressed, CardScanned, UnknownCardScanned
from device.profile import ProfileError, find_profile
from device.ramsch import RamschCounts, RamschError, score_ramsch
from device.record import score_record
from device.scoring import ScoreListError, ScoringSystem, bierlachs_limit
from device.table.commands import (
    AcceptFalseFollowing, AddBock, Bid, Confirm, ConfirmList, ConsentCorrection, Declare,
    EndGame, EndHow, EndSeries, EnterBidding, EnterMatadors, EnterRamsch, EnterResult, Hold, JoinPlayer,
    Kontra, LeavePlayer, OpenList, Pass, PlayCard, ProposeCorrection, PushSkat, Re, RejectCard,
    TakeSkat, Undo, WithdrawCorrection,
)
from device.table.events import (
    BidMade, BiddingEntered, BockAdded, CardPlayed, CardWithdrawn, CorrectionApplied, CorrectionConsented,
    CorrectionProposed, CorrectionWithdrawn, Declared, EventBody, FalseFollowingAccepted,
    FalseFollowingQueried, GameEnded, GameRecorded, KontraSaid, ListClosed, ListConfirmed,
    ListOpened, MatadorsEntered, PassedIn, PassedInWithdrawn, PlayerJoined, PlayerLeft,
    RamschEntered, RamschRecorded, ReSaid, ResultConfirmed, ResultEntered, SeriesEnded,
    SkatCardAdded, SkatTaken, StepUndone,
)
from device.table.outcome import entry_matador_choices, game_record, known_matadors, preview
from device.table.rotation import TABLE_SIZES, draw_seating
from device.table.state import Deal, Phase, TableState
from device.tricks import follow_class
from device.variants import VariantError, check_kontra, check_re

__all__ = ["Decision", "Refusal", "decide", "open_list", "parse_stake", "unsafe_name_characters"]

MAX_NAME = 30
MAX_SERIES = 999
MAX_STAKE = 100  # coins (cents) per point: a euro a point is beyond any club's stake
MAX_BIERLACHS = 9999


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a command was not carried out. ``code`` for programs and tests (e.g.
    ``"card_seen"``); ``key`` names what happened more closely (one code may have several, e.g.
    ``"bad_setup"``: ``"bad_table_size"``, ``"bad_name_length"`` …) and ``values`` are its
    particulars (a seat, a card code, a number); the screen words them (``ui/i18n.py``)."""

    code: str
    key: str
    values: Mapping[str, Any] = field(default_factory=dict)
    command: object = None

    def __str__(self) -> str:
        """For logs: the key and its values, e.g. ``not_a_bid_value value=19``."""
        return " ".join([self.key, *(f"{name}={value!r}" for name, value in self.values.items())])


@dataclass(frozen=True, slots=True)
class Decision:
    """What a command leads to: new event bodies, a refusal, or (false following) both."""

    events: tuple[EventBody, ...] = ()
    refusal: Refusal | None = None


class _Refuse(Exception):
    """Raised inside a handler to refuse the command (caught in :func:`decide`)."""

    def __init__(self, code: str, key: str, **values: Any) -> None:
        super().__init__(key)
        self.code, self.key, self.values = code, key, values

    def refusal(self, command: object) -> Refusal:
        return Refusal(self.code, self.key, self.values, command)


# --------------------------------------------------------------------------- entry points


def decide(state: TableState, command: object) -> Decision:
    """The events ``command`` leads to in ``state``, or a refusal (never raises for a command).

    ``OpenList`` is decided by :func:`open_list` (it needs a random generator for Auslosen).
    """
    handler = _HANDLERS.get(type(command))
    try:
        if handler is None:
            raise _Refuse("unknown_command", "unknown_command", command_type=type(command).__name__)
        decision: Decision = handler(state, command)
        return decision
    except _Refuse as refuse:
        return Decision(refusal=refuse.refusal(command))


def open_list(state: TableState, command: OpenList, rng: random.Random) -> Decision:
    """A new list, the seats drawn with ``rng`` when asked (Auslosen, ISkO 3.1.1)."""
    try:
        return Decision(events=(_open_list(state, command, rng),))
    except _Refuse as refuse:
        return Decision(refusal=refuse.refusal(command))


def parse_stake(stake: Fraction | int | str) -> Fraction:
    """Coins per point: 1, "1/4", "0.5", Fraction(1, 10); never negative.

    >>> parse_stake("1/4"), parse_stake("0.5"), parse_stake(2)
    (Fraction(1, 4), Fraction(1, 2), Fraction(2, 1))
    """
    try:
        value = Fraction(stake) if not isinstance(stake, bool) else None
    except (ValueError, ZeroDivisionError, TypeError, OverflowError):
        value = None
    if value is None or not 0 <= value <= MAX_STAKE:
        raise ScoreListError(f"a stake is a number of coins per point (e.g. 1, 1/4, 0.5) from 0 to {MAX_STAKE}, "
                             f"not {stake!r}")
    return value


# --------------------------------------------------------------------------- helpers


def _player(state: TableState, position: int) -> str:
    """The name of who sits at ``position`` (Vorhand, Mittelhand, Hinterhand) in this deal."""
    deal = state.deal
    assert deal is not None
    return state.seating[deal.active[position]]


def _open(state: TableState) -> None:
    if state.setup is None:
        raise _Refuse("no_list", "no_list")
    if state.closed:
        raise _Refuse("list_closed", "list_closed")


def _deal(state: TableState, *phases: str) -> Deal:
    """The current deal, refusing unless the table is in one of ``phases``."""
    _open(state)
    if state.series_over or state.deal is None:
        raise _Refuse("series_over", "series_over_no_more_games")
    deal = state.deal
    if deal.phase not in phases:
        raise _Refuse("not_now", "not_now", phase=deal.phase)
    return deal


def _position(position: int) -> int:
    if isinstance(position, bool) or not isinstance(position, int) or position not in (0, 1, 2):
        raise _Refuse("bad_position", "bad_position", position=position)
    return position


def _seat(state: TableState, seat: int) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.table_size:
        raise _Refuse("bad_seat", "bad_seat", seat=seat, last_seat=state.table_size - 1, table_size=state.table_size)
    return seat


def _card(card: object) -> Card:
    if not isinstance(card, Card):
        raise _Refuse("bad_card", "bad_card", card=card)
    return card


def _after_entry(state: TableState) -> tuple[EventBody, ...]:
    """A SeriesEnded when the entry being made is the series' last."""
    setup = state.setup
    assert setup is not None
    if setup.series_length is not None and len(state.rows) + 1 >= setup.series_length:
        return (SeriesEnded("complete"),)
    return ()


def _refuse_seen(deal: Deal, card: Card) -> None:
    """Refuse ``card`` if it lies in the skat or was played already."""
    if card in deal.skat:
        raise _Refuse("card_seen", "card_in_skat", card=card.code)
    seen = deal.who_played().get(card)
    if seen is not None:
        trick, position = seen
        raise _Refuse("card_seen", "card_played", card=card.code, position=position, trick=trick + 1)


# --------------------------------------------------------------------------- setup


def _open_list(state: TableState, command: OpenList, rng: random.Random) -> ListOpened:
    if state.setup is not None and not state.closed:
        raise _Refuse("list_open", "list_open")
    names = tuple(_check_name(n) for n in command.players)
    if len(names) not in TABLE_SIZES:
        raise _Refuse("bad_setup", "bad_table_size", players=len(names))
    if len({n.casefold() for n in names}) != len(names):
        raise _Refuse("bad_setup", "names_not_different")
    length = command.series_length
    if length is not None and (isinstance(length, bool) or not isinstance(length, int) or not 1 <= length <= MAX_SERIES):
        raise _Refuse("bad_setup", "bad_series_length", length=length, most=MAX_SERIES)
    try:
        system = ScoringSystem.parse(command.scoring)
    except ScoreListError as exc:
        raise _Refuse("bad_setup", "bad_scoring", error=str(exc)) from None
    limit = _bierlachs_limit(system, command.bierlachs_limit, len(names))
    try:
        find_profile(command.profile)
    except ProfileError as exc:
        raise _Refuse("bad_setup", "bad_profile", error=str(exc), profile=command.profile) from None
    try:
        stake = parse_stake(command.stake)
    except ScoreListError as exc:
        raise _Refuse("bad_setup", "bad_stake", error=str(exc), most=MAX_STAKE) from None
    seating = draw_seating(names, rng) if command.draw else names
    return ListOpened(players=seating, drawn=command.draw, series_length=length, scoring=system.value,
                      bierlachs_limit=limit, profile=command.profile, stake=str(stake))


def _bierlachs_limit(system: ScoringSystem, given: int | None, players: int) -> int | None:
    if system is not ScoringSystem.BIERLACHS:
        return None
    if given is None:
        try:
            return bierlachs_limit(players)
        except ScoreListError as exc:
            raise _Refuse("bad_setup", "bierlachs_five", error=str(exc)) from None
    if isinstance(given, bool) or not isinstance(given, int) or not 1 <= given <= MAX_BIERLACHS:
        raise _Refuse("bad_setup", "bad_bierlachs_limit", given=given, most=MAX_BIERLACHS)
    return given


def _check_name(name: object) -> str:
    text = name.strip() if isinstance(name, str) else ""
    if not text or len(text) > MAX_NAME:
        raise _Refuse("bad_setup", "bad_name_length", name=name, most=MAX_NAME)
    bad = unsafe_name_characters(text)
    if bad:
        shown = ", ".join(f"U+{ord(c):04X}" for c in bad)
        raise _Refuse("bad_setup", "bad_name_characters", shown=shown)
    return text


# Explicit text-direction marks, embeddings, overrides and isolates (Unicode bidi controls):
# in a name they reorder what the list shows next to it.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def unsafe_name_characters(text: str) -> list[str]:
    """The characters a player's name may not hold: control characters (tab, newline, escape,
    C1 controls), line/paragraph separators and bidirectional controls. Letters of any script,
    accents, emoji (with their joiners) are all fine.

    >>> unsafe_name_characters("Jürgen"), unsafe_name_characters("Anna\\u202eanaB"), unsafe_name_characters("A\\tB")
    ([], ['\\u202e'], ['\\t'])
    """
    return [c for c in dict.fromkeys(text)
            if unicodedata.category(c) in ("Cc", "Zl", "Zp") or c in BIDI_CONTROLS]


def _at_round_start(state: TableState) -> None:
    _open(state)
    if state.series_over:
        raise _Refuse("series_over", "series_over")
    if state.correction is not None:  # its consents are by seat: settle it first
        raise _Refuse("correction_pending", "correction_open")
    if not state.rotation.at_round_start or (state.deal is not None and state.deal.steps):
        raise _Refuse("not_at_round_start", "not_at_round_start", round_ends=len(state.rows) + state.table_size - state.rotation.deal_in_round)


def _join(state: TableState, command: JoinPlayer) -> Decision:
    _at_round_start(state)
    name = _check_name(command.name)
    staying = [n for s, n in enumerate(state.seating) if s != command.replaces]
    if name.casefold() in {n.casefold() for n in staying}:
        raise _Refuse("bad_setup", "name_at_table", name=name)
    if command.replaces is not None:
        seat = _seat(state, command.replaces)
        return Decision(events=(PlayerJoined(name, seat, state.seating[seat]),))
    if state.table_size >= max(TABLE_SIZES):
        raise _Refuse("table_full", "table_full")
    # ISkO 3.1.2: a new player sits down to the right of Platz 1, that is in the last seat.
    return Decision(events=(PlayerJoined(name, state.table_size, None),))


def _leave(state: TableState, command: LeavePlayer) -> Decision:
    _at_round_start(state)
    seat = _seat(state, command.seat)
    if state.table_size <= min(TABLE_SIZES):
        raise _Refuse("table_too_small", "table_too_small")
    return Decision(events=(PlayerLeft(seat, state.seating[seat]),))


# --------------------------------------------------------------------------- bidding


def _bidding(state: TableState, command: Bid | Hold | Pass) -> Decision:
    deal = _deal(state, Phase.BIDDING)
    position = _position(command.position)
    action: AuctionBid | AuctionHold | AuctionPass
    if isinstance(command, Bid):
        _check_bid_value(state, position, command.value)
        action = AuctionBid(position, command.value)
    elif isinstance(command, Hold):
        action = AuctionHold(position)
    else:
        action = AuctionPass(position)
    _check_turn(state, deal.auction, action)
    try:
        after = deal.auction.apply(action)
    except BidError as exc:
        raise _Refuse("bad_bid", "bid_refused", error=str(exc)) from None
    kind = "bid" if isinstance(action, AuctionBid) else "hold" if isinstance(action, AuctionHold) else "pass"
    events: list[EventBody] = [BidMade(position, kind, getattr(action, "value", None))]
    result = after.result
    if result is not None and result.passed_in and not _plays_ramsch(state):
        events.append(PassedIn(deal.number, deal.dealer, deal.active))
        events.extend(_after_entry(state))
    return Decision(events=tuple(events))


def _enter_bidding(state: TableState, command: EnterBidding) -> Decision:
    """The bidding's outcome at once: the declarer and the final bid (the others passed)."""
    _deal(state, Phase.BIDDING)
    position = _position(command.position)
    _check_bid_value(state, position, command.value)
    return Decision(events=(BiddingEntered(position, command.value),))


def _plays_ramsch(state: TableState) -> bool:
    """Hook for the club variant: Ramsch instead of eingepasst when the profile says so
    (a ``ramsch`` switch on :class:`device.profile.RuleProfile`; never in tournaments)."""
    return state.profile.ramsch


def _check_bid_value(state: TableState, position: int, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not is_bid_value(value):
        raise _Refuse("bad_bid", "not_a_bid_value", value=value)


def _check_turn(state: TableState, auction: Auction, action: AuctionBid | AuctionHold | AuctionPass) -> None:
    """Refuse what the auction would refuse (out of turn, too low …)."""
    options = auction.options()
    who = {"position": action.seat, "player": _player(state, action.seat)}
    if action.seat != options.seat:
        if action.seat in auction.passed:
            raise _Refuse("not_your_turn", "has_passed", **who)
        # The auction's prompt, in its own words (device.bidding), as the screen shows it.
        raise _Refuse("not_your_turn", "not_your_turn", **who, prompt_de=options.prompt_de, prompt_en=options.prompt_en)
    if isinstance(action, AuctionBid):
        if options.role is Role.ANSWERING:
            raise _Refuse("bad_bid", "answer_hold_or_pass", **who, current=options.current)
        if action.value not in options.values:
            key = ("bid_play_or_pass" if options.role is Role.DECIDING else
                   "bid_only_pass" if options.min_value is None else "bid_too_low")
            raise _Refuse("bad_bid", key, **who, value=action.value, current=options.current,
                          min_value=options.min_value, max_value=options.max_value)
    if isinstance(action, AuctionHold) and not options.may_hold:
        raise _Refuse("bad_bid", "hold_not_asked", **who)


# --------------------------------------------------------------------------- declaration


def _take_skat(state: TableState, command: TakeSkat) -> Decision:
    deal = _deal(state, Phase.DECLARING)
    if deal.skat_taken:
        raise _Refuse("skat_taken", "skat_taken")
    return Decision(events=(SkatTaken(),))


def _push_skat(state: TableState, command: PushSkat) -> Decision:
    deal = _deal(state, Phase.DECLARING, Phase.PLAYING, Phase.RESULT)
    card = _card(command.card)
    if len(deal.skat) >= 2:
        raise _Refuse("skat_full", "skat_full")
    phase = deal.phase
    if phase == Phase.DECLARING and not deal.skat_taken:
        raise _Refuse("not_now", "skat_not_taken")
    if phase == Phase.PLAYING and (not deal.skat_taken or deal.cards_played):
        raise _Refuse("not_now", "skat_before_first_card")
    if phase == Phase.RESULT and deal.early is None:
        raise _Refuse("not_now", "skat_known")
    _refuse_seen(deal, card)
    return Decision(events=(SkatCardAdded(card, command.source),))


def _declare(state: TableState, command: Declare) -> Decision:
    deal = _deal(state, Phase.DECLARING)
    try:
        declaration = Declaration.make(command.game, hand=command.hand, ouvert=command.ouvert,
                                       announced=command.announced)
    except DeclarationError as exc:
        raise _Refuse("bad_declaration", _declaration_problem(command), error=str(exc),
                      game=command.game.value) from None
    refused = option_refusal(deal, declaration)
    if refused is not None:
        raise _Refuse("bad_declaration", refused)
    return Decision(events=(Declared(declaration.game.value, declaration.hand, declaration.ouvert,
                                     declaration.announced.record_name),))


def _declaration_problem(command: Declare) -> str:
    if command.game.is_null:
        return "null_announced"
    if command.ouvert:
        return "ouvert_not_hand"
    return "announced_not_hand"


def option_refusal(deal: Deal, declaration: Declaration) -> str | None:
    """Why ``declaration`` cannot be declared now (a refusal key), or None if it can."""
    assert deal.bid is not None
    if deal.skat_taken and declaration.hand:
        return "hand_after_skat"
    if not deal.skat_taken and not declaration.hand:
        return "skat_or_hand"
    return None


def _kontra(state: TableState, command: Kontra) -> Decision:
    deal = _deal(state, Phase.PLAYING)
    position = _position(command.position)
    _kontra_allowed(state)
    assert deal.declarer is not None
    who = {"position": position, "player": _player(state, position)}
    if position == deal.declarer:
        raise _Refuse("not_allowed", "kontra_by_declarer", **who)
    if deal.kontra is not None:
        raise _Refuse("not_allowed", "kontra_said")
    try:
        check_kontra(state.profile, seat=position, declarer=deal.declarer, cards_played=len(deal.cards_played),
                     auction=deal.auction)
    except VariantError as exc:
        if "18" not in str(exc):
            raise _Refuse("too_late", "kontra_too_late", **who, error=str(exc)) from None
        raise _Refuse("not_allowed", "kontra_after_passing_18", **who, error=str(exc)) from None
    return Decision(events=(KontraSaid(position),))


def _re(state: TableState, command: Re) -> Decision:
    deal = _deal(state, Phase.PLAYING)
    position = _position(command.position)
    _kontra_allowed(state)
    assert deal.declarer is not None
    if position != deal.declarer:
        raise _Refuse("not_allowed", "re_by_defender")
    if deal.kontra is None or deal.re is not None:
        raise _Refuse("not_allowed", "re_without_kontra")
    try:
        check_re(state.profile, seat=position, declarer=deal.declarer, kontra_said=True,
                 cards_since_kontra=cards_since_kontra(deal))
    except VariantError as exc:
        raise _Refuse("too_late", "re_too_late", error=str(exc)) from None
    return Decision(events=(ReSaid(position),))


def cards_since_kontra(deal: Deal) -> int:
    """Cards played after the Kontra (Re must come at once)."""
    steps = [s.body for s in deal.steps]
    said = max((i for i, b in enumerate(steps) if isinstance(b, KontraSaid)), default=len(steps))
    return sum(1 for b in steps[said:] if isinstance(b, CardPlayed))


def _kontra_allowed(state: TableState) -> None:
    if not state.profile.kontra:
        raise _Refuse("not_in_profile", "no_kontra_in_profile")


def _played_in_trick(deal: Deal) -> set[int]:
    leader = deal.trick_leaders()[-1]
    return {(leader + i) % 3 for i in range(len(deal.trick))}


# --------------------------------------------------------------------------- play


def _play_card(state: TableState, command: PlayCard) -> Decision:
    deal = _deal(state, Phase.PLAYING)
    card = _card(command.card)
    if deal.query is not None:
        raise _Refuse("question_pending", "question_pending")
    _refuse_seen(deal, card)
    position = deal.to_play
    assert position is not None and deal.game is not None
    for trick_index, led, discarded in deal.voids(position):
        if follow_class(card, deal.game) is follow_class(led, deal.game):
            question = FalseFollowingQueried(position, card, command.source, trick_index, led, discarded)
            refusal = Refusal("false_following", "false_following", {
                "position": position, "player": _player(state, position), "trick": trick_index + 1,
                "follow": follow_class(led, deal.game).value, "discarded": discarded.code, "led": led.code,
                "card": card.code}, command)
            return Decision(events=(question,), refusal=refusal)
    return Decision(events=(CardPlayed(position, card, command.source),))




def _accept_false_following(state: TableState, command: AcceptFalseFollowing) -> Decision:
    deal = _deal(state, Phase.PLAYING)
    if deal.query is None:
        raise _Refuse("no_question", "no_question")
    return Decision(events=(FalseFollowingAccepted(),))


def _reject_card(state: TableState, command: RejectCard) -> Decision:
    deal = _deal(state, Phase.PLAYING)
    if deal.query is None:
        raise _Refuse("no_question", "no_question")
    return Decision(events=(CardWithdrawn(),))


def _check_matadors(deal: Deal, matadors: int | None) -> int | None:
    if matadors is None:
        return None
    choices = entry_matador_choices(deal)
    if not choices:
        raise _Refuse("bad_result", "null_no_matadors")
    if isinstance(matadors, bool) or not isinstance(matadors, int) or matadors not in choices:
        most = len(choices) // 2
        raise _Refuse("bad_result", "bad_matadors", matadors=matadors, most=most)
    return matadors


def _end_game(state: TableState, command: EndGame) -> Decision:
    deal = _deal(state, Phase.PLAYING)
    if deal.query is not None:
        raise _Refuse("question_pending", "question_pending")
    try:
        how = EndHow(command.how)
    except ValueError:
        raise _Refuse("bad_end", "bad_end_how", how=command.how) from None
    assert deal.game is not None
    if how is EndHow.NULL_LOST:
        if not deal.game.is_null:
            raise _Refuse("bad_end", "null_only")
        if deal.declarer not in _trick_winners(deal):
            raise _Refuse("bad_end", "no_declarer_trick")
    matadors = _check_matadors(deal, command.matadors)
    known = known_matadors(deal)
    if matadors is not None and known is not None and matadors != known:
        raise _Refuse("bad_result", "matadors_differ", known=known, matadors=matadors)
    return Decision(events=(GameEnded(how.value, matadors),))


def _trick_winners(deal: Deal) -> tuple[int, ...]:
    leaders = deal.trick_leaders()
    return leaders[1:]


def _matadors_de(matadors: int) -> str:
    return f"{'mit' if matadors > 0 else 'ohne'} {abs(matadors)}"


def _enter_result(state: TableState, command: EnterResult) -> Decision:
    deal = _deal(state, Phase.PLAYING)
    if deal.cards_played or deal.query is not None:
        raise _Refuse("cards_played", "cards_played")
    assert deal.game is not None
    matadors = _check_matadors(deal, command.matadors)
    if not deal.game.is_null and matadors is None:
        raise _Refuse("bad_result", "matadors_missing")
    if not deal.game.is_null and command.declarer_points is None:
        raise _Refuse("bad_result", "points_missing")
    entered = ResultEntered(command.declarer_points, command.declarer_tricks, matadors)
    trial = replace(deal, entered=entered, matadors=matadors)
    record = game_record(trial)
    assert record is not None
    try:
        score_record(record, profile=state.profile)
    except (RecordError, TypeError) as exc:
        raise _Refuse("bad_result", "result_not_possible", error=str(getattr(exc, 'reason', exc)), problem_field=getattr(exc, 'field', ''), problem_german=getattr(exc, 'german', '')) from None
    return Decision(events=(entered,))


def _record_problem_de(exc: Exception) -> str:
    """The reason in the table's words: the check's own German, else which count does not fit
    (never the developer's English on the screen)."""
    german = getattr(exc, "german", "")
    if german:
        return str(german)
    words = {"declarer_points": "Die Augen passen nicht zu den Stichen",
             "declarer_tricks": "Die Stiche passen nicht zu den Augen",
             "matadors": "Die Spitzen passen nicht zum Spiel", "bid": "Der Reizwert passt nicht zum Spiel"}
    return words.get(getattr(exc, "field", ""), "Die Zahlen passen nicht zusammen")


def _enter_matadors(state: TableState, command: EnterMatadors) -> Decision:
    deal = _deal(state, Phase.RESULT)
    if deal.early is None or deal.ramsch is not None:
        raise _Refuse("not_now", "matadors_from_cards")
    matadors = _check_matadors(deal, command.matadors)
    assert matadors is not None
    known = known_matadors(deal)
    if known is not None and known != matadors:
        raise _Refuse("bad_result", "cards_show_matadors", known=known)
    return Decision(events=(MatadorsEntered(matadors),))


def _enter_ramsch(state: TableState, command: EnterRamsch) -> Decision:
    deal = _deal(state, Phase.RAMSCH)
    try:
        counts = RamschCounts(tuple(command.points), tuple(command.tricks), command.skat_points,  # type: ignore[arg-type]
                              command.last_trick)
        score_ramsch(counts, state.profile, pushes=command.pushes, multiplier=deal.bock)
    except (RamschError, TypeError, ValueError) as exc:
        raise _Refuse("bad_result", "ramsch_not_possible", error=str(exc)) from None
    return Decision(events=(RamschEntered(counts.points, counts.tricks, counts.skat_points, counts.last_trick,
                                          command.pushes),))


# --------------------------------------------------------------------------- result and list


def _confirm(state: TableState, command: Confirm) -> Decision:
    deal = _deal(state, Phase.RESULT)
    seat = _seat(state, command.seat)
    who = {"seat": seat, "player": state.seating[seat]}
    if seat not in deal.confirmers:
        raise _Refuse("wrong_confirmer", "wrong_confirmer", **who)
    if seat in deal.confirmations:
        raise _Refuse("already_confirmed", "already_confirmed", **who)
    confirmed = (*deal.confirmations, seat)
    if deal.ramsch is not None:
        if len(confirmed) < 2:
            return Decision(events=(ResultConfirmed(seat),))
        ramsch = RamschRecorded(deal.number, deal.ramsch.scores, deal.dealer, deal.active)
        return Decision(events=(ResultConfirmed(seat), ramsch, *_after_entry(state)))
    shown = preview(deal, state.profile)
    assert shown is not None
    if shown.needs_matadors:
        raise _Refuse("needs_matadors", "needs_matadors")
    if shown.problem is not None or shown.scored is None:
        raise _Refuse("bad_result", "result_impossible", problem=shown.problem)
    declarer_seat = deal.declarer_seat
    assert declarer_seat is not None
    if declarer_seat not in confirmed or len(confirmed) < 2:
        return Decision(events=(ResultConfirmed(seat),))
    record = {**shown.record, "seat": declarer_seat, "player": state.seating[declarer_seat]}
    recorded = GameRecorded(deal.number, record, declarer_seat, deal.dealer, deal.active)
    return Decision(events=(ResultConfirmed(seat), recorded, *_after_entry(state)))


def _undo(state: TableState, command: Undo) -> Decision:
    _open(state)
    deal = state.deal
    if deal is not None and deal.steps and not state.series_over:
        return Decision(events=(StepUndone(deal.steps[-1].id),))
    if withdrawable_passed_in(state):
        return Decision(events=(PassedInWithdrawn(state.rows[-1].entry),))
    if state.series_over or deal is None:
        raise _Refuse("series_over", "series_over_correct")
    raise _Refuse("nothing_to_undo", "nothing_to_undo")


def withdrawable_passed_in(state: TableState) -> bool:
    """Whether the last entry is an eingepasst that a wrong last "passe" made and nothing
    has happened since (no new bid, nobody joined or left, no correction proposed for it).
    After the last game of a series this holds until anybody signed the list (ISkO 3.2.11)."""
    last = state.rows[-1] if state.rows else None
    if last is None or last.kind != "passed_in" or last.deal_before is None or last.seating != state.seating:
        return False
    if state.correction is not None:
        return False
    if state.series_over:
        return not state.list_confirmations and not state.closed
    return state.deal is not None and not state.deal.steps


def _add_bock(state: TableState, command: AddBock) -> Decision:
    _open(state)
    if not state.profile.bock:
        raise _Refuse("not_in_profile", "no_bock_in_profile")
    if state.series_over:
        raise _Refuse("series_over", "series_over")
    games = state.table_size if command.games is None else command.games
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise _Refuse("bad_bock", "bad_bock", games=games)
    return Decision(events=(BockAdded(games),))


def _propose_correction(state: TableState, command: ProposeCorrection) -> Decision:
    _open(state)
    if state.correction is not None:
        raise _Refuse("correction_pending", "other_correction_pending")
    by_seat = _seat(state, command.by_seat)
    if isinstance(command.entry, bool) or not isinstance(command.entry, int) or not 1 <= command.entry <= len(state.rows):
        raise _Refuse("bad_entry", "bad_entry", entry=command.entry)
    row = state.rows[command.entry - 1]
    if command.record is None:
        return Decision(events=(CorrectionProposed(command.entry, None, None, by_seat),))
    if command.declarer_seat not in row.active:
        raise _Refuse("bad_correction", "declarer_not_at_game", entry=command.entry, seats=row.active)
    position = row.active.index(command.declarer_seat)
    record: dict[str, Any] = {k: v for k, v in dict(command.record).items() if k not in ("seat", "player")}
    if "declarer" in record and record["declarer"] != position:
        raise _Refuse("bad_correction", "declarer_not_in_record", record_declarer=record['declarer'], position=position, declarer_seat=command.declarer_seat)
    record = {**record, "seat": command.declarer_seat, "player": row.seating[command.declarer_seat]}
    try:
        score_record(record, profile=state.profile)
    except (RecordError, TypeError) as exc:
        raise _Refuse("bad_correction", "record_not_possible", error=str(exc), problem_field=getattr(exc, 'field', ''), problem_german=getattr(exc, 'german', '')) from None
    events: list[EventBody] = [CorrectionProposed(command.entry, record, command.declarer_seat, by_seat)]
    if state.table_size == 1:  # pragma: no cover - a table has at least three
        events.append(CorrectionApplied(command.entry))
    return Decision(events=tuple(events))


def _consent(state: TableState, command: ConsentCorrection) -> Decision:
    _open(state)
    correction = state.correction
    if correction is None:
        raise _Refuse("no_correction", "no_correction")
    seat = _seat(state, command.seat)
    if seat in correction.consents:
        raise _Refuse("already_confirmed", "already_agreed", seat=seat, player=state.seating[seat])
    events: list[EventBody] = [CorrectionConsented(seat)]
    if len(set(correction.consents) | {seat}) >= state.table_size:
        events.append(CorrectionApplied(correction.entry))
    return Decision(events=tuple(events))


def _withdraw(state: TableState, command: WithdrawCorrection) -> Decision:
    _open(state)
    if state.correction is None:
        raise _Refuse("no_correction", "no_correction")
    return Decision(events=(CorrectionWithdrawn(),))


def _end_series(state: TableState, command: EndSeries) -> Decision:
    _open(state)
    if state.series_over:
        raise _Refuse("series_over", "series_already_over")
    if state.deal is not None and state.deal.steps:
        raise _Refuse("game_running", "game_running")
    if state.bock is not None and state.bock.must_play_on:
        raise _Refuse("bock_open", "bock_open", bock_deals=state.bock.bock_deals_left, bock_status=state.bock.german)
    return Decision(events=(SeriesEnded("stopped"),))


def _confirm_list(state: TableState, command: ConfirmList) -> Decision:
    _open(state)
    if not state.series_over:
        raise _Refuse("series_running", "series_running")
    if state.correction is not None:
        raise _Refuse("correction_pending", "correction_undecided")
    seat = _seat(state, command.seat)
    if seat in state.list_confirmations:
        raise _Refuse("already_confirmed", "already_confirmed_list", seat=seat, player=state.seating[seat])
    events: list[EventBody] = [ListConfirmed(seat)]
    if len(set(state.list_confirmations) | {seat}) >= state.table_size:
        events.append(ListClosed())
    return Decision(events=tuple(events))


# --------------------------------------------------------------------------- hardware


def dealer_seat(state: TableState) -> int | None:
    """Whose tap the panel's confirm button is: the dealer of the current (or last) game."""
    if state.deal is not None:
        return state.deal.dealer
    return state.rows[-1].dealer if state.rows else None


def _button(state: TableState, command: ButtonPressed) -> Decision:
    if command.button is Button.BACK:
        return _undo(state, Undo())
    if command.button is Button.CONFIRM:
        _open(state)
        dealer = dealer_seat(state)
        if dealer is not None and state.correction is not None:
            return _consent(state, ConsentCorrection(dealer))
        if dealer is not None and state.series_over:
            return _confirm_list(state, ConfirmList(dealer))
        if dealer is not None and state.deal is not None and state.deal.phase == Phase.RESULT:
            return _confirm(state, Confirm(dealer))
        raise _Refuse("nothing_to_confirm", "nothing_to_confirm")
    raise _Refuse("not_now", "button_does_nothing", button=command.button.value)


def _scanned(state: TableState, command: CardScanned) -> Decision:
    """A scanned card goes where a card is expected: the pushed skat, the trick, or the skat
    of a game that ended early."""
    _open(state)
    deal = state.deal
    phase = state.phase
    if deal is not None and phase == Phase.DECLARING and deal.skat_taken and len(deal.skat) < 2:
        return _push_skat(state, PushSkat(command.card, command.source))
    if deal is not None and phase == Phase.PLAYING:
        return _play_card(state, PlayCard(command.card, command.source))
    if deal is not None and phase == Phase.RESULT and deal.early is not None and len(deal.skat) < 2:
        return _push_skat(state, PushSkat(command.card, command.source))
    raise _Refuse("no_card_expected", "no_card_expected", phase=phase)


def _unknown_card(state: TableState, command: UnknownCardScanned) -> Decision:
    raise _Refuse("unknown_card", "unknown_card", raw=command.raw, reader_reason=command.reason)


def _open_list_without_rng(state: TableState, command: OpenList) -> Decision:
    return open_list(state, command, random.Random(0)) if not command.draw else Decision(
        refusal=Refusal("needs_service", "needs_service", {}, command))


_HANDLERS: dict[type, Callable[[TableState, Any], Decision]] = {
    OpenList: _open_list_without_rng,
    JoinPlayer: _join, LeavePlayer: _leave,
    Bid: _bidding, Hold: _bidding, Pass: _bidding, EnterBidding: _enter_bidding,
    TakeSkat: _take_skat, PushSkat: _push_skat, Declare: _declare, Kontra: _kontra, Re: _re,
    PlayCard: _play_card, AcceptFalseFollowing: _accept_false_following, RejectCard: _reject_card,
    EndGame: _end_game, EnterResult: _enter_result, EnterMatadors: _enter_matadors,
    EnterRamsch: _enter_ramsch, Confirm: _confirm, Undo: _undo, AddBock: _add_bock,
    ProposeCorrection: _propose_correction, ConsentCorrection: _consent, WithdrawCorrection: _withdraw,
    EndSeries: _end_series, ConfirmList: _confirm_list,
    ButtonPressed: _button, CardScanned: _scanned, UnknownCardScanned: _unknown_card,
}
