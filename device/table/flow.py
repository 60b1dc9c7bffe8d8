"""The table's decisions: a command and the state give new events, or a refusal saying why.

:func:`decide` is pure: it reads the state and returns a :class:`Decision`; the service stores
the events and folds them into the state. A refused command never raises: it gives a
:class:`Refusal` with a ``code`` for programs and what happened (``key`` and ``values``); the
words, German and English, are the table's (``ui/i18n.py``). A card that can only be false
following (ISkO 4.2.4) is not refused outright either: it gives a question event for the table
to decide *and* a refusal (the card is not played until the table says so).

The handlers live by responsibility: here the bidding, the declaration, Kontra and Re, the play
and the hardware's buttons and cards; :mod:`device.table.flow_setup` opens a list and seats
players, :mod:`device.table.flow_list` confirms entries, undoes, corrects and closes the list;
:mod:`device.table.decision` holds what they share.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from device.bidding import Auction, Role
from device.bidding import Bid as AuctionBid
from device.bidding import Hold as AuctionHold
from device.bidding import Pass as AuctionPass
from device.declaration import Declaration
from device.errors import BidError, DeclarationError, RecordError
from device.hardware import Button, ButtonPressed, CardScanned, UnknownCardScanned
from device.profile import find_profile
from device.skatform import SkatForm
from device.ramsch import RamschError, score_ramsch
from device.record import score_record
from device.table.commands import (
    AcceptFalseFollowing, AddBock, Bid, Confirm, ConfirmList, ConsentCorrection, Declare, EndGame, EndHow,
    EndSeries, EnterBidding, EnterMatadors, EnterRamsch, EnterResult, Hold, JoinPlayer, Kontra,
    LeavePlayer, OpenList, Pass, PlayCard, ProposeCorrection, PushSkat, Re, RejectCard, TakeSkat, TurnCard, Undo,
    WithdrawCorrection,
)
from device.table.decision import (
    Decision, Refuse, Refusal, _after_entry, _card, _deal, _open, _player, _position, _refuse_seen,
)
from device.table.events import (
    BidMade, BiddingEntered, CardPlayed, CardTurned, CardWithdrawn, Declared, EventBody, FalseFollowingAccepted,
    FalseFollowingQueried, GameEnded, KontraSaid, MatadorsEntered, PassedIn, RamschEntered, ReSaid,
    ResultEntered, SkatCardAdded, SkatTaken,
)
from device.table.flow_gift import GIFT_HANDLERS, gift_pending
from device.table.flow_spitze import SPITZE_HANDLERS
from device.table.flow_list import (
    _add_bock, _confirm, _confirm_list, _consent, _end_series, _propose_correction, _undo, _withdraw,
    refuse_if_not_in_profile, withdrawable_passed_in,
)
from device.table.flow_setup import (
    MAX_BIERLACHS, MAX_NAME, MAX_SERIES, MAX_STAKE, _join, _leave, open_list, parse_stake,
    unsafe_name_characters,
)
from device.table.outcome import entry_matador_choices, game_record, known_matadors
from device.table.rules import (
    LaterTrickNeeded, entered_ramsch_counts, make_declaration, profile_refusal, tournee_refusal,
)
from device.table.state import Deal, Phase, TableState
from device.tricks import follow_class
from device.value import is_overbid_null
from device.variants import VariantError, check_kontra, check_re

__all__ = [
    "MAX_BIERLACHS", "MAX_NAME", "MAX_SERIES", "MAX_STAKE", "Decision", "Refusal", "cards_since_kontra", "dealer_seat",
    "decide", "open_list", "option_refusal", "option_refusal_values", "parse_stake", "unsafe_name_characters",
    "withdrawable_passed_in",
]

# --------------------------------------------------------------------------- entry points


def decide(state: TableState, command: object) -> Decision:
    """The events ``command`` leads to in ``state``, or a refusal (never raises for a command).

    ``OpenList`` is decided by :func:`open_list` (it needs a random generator for Auslosen).
    """
    handler = _HANDLERS.get(type(command))
    try:
        if handler is None:
            raise Refuse("unknown_command", "unknown_command", command_type=type(command).__name__)
        decision: Decision = handler(state, command)
        return decision
    except Refuse as refuse:
        return Decision(refusal=refuse.refusal(command))


# --------------------------------------------------------------------------- bidding


def _bidding(state: TableState, command: Bid | Hold | Pass) -> Decision:
    deal = _deal(state, Phase.BIDDING)
    position = _position(command.position)
    action: AuctionBid | AuctionHold | AuctionPass
    if isinstance(command, Bid):
        _check_bid_value(state, deal.auction, command.value)
        action = AuctionBid(position, command.value)
    elif isinstance(command, Hold):
        action = AuctionHold(position)
    else:
        action = AuctionPass(position)
    _check_turn(state, deal.auction, action)
    try:
        after = deal.auction.apply(action)
    except BidError as exc:
        raise Refuse("bad_bid", "bid_refused", error=str(exc)) from None
    kind = "bid" if isinstance(action, AuctionBid) else "hold" if isinstance(action, AuctionHold) else "pass"
    events: list[EventBody] = [BidMade(position, kind, getattr(action, "value", None))]
    result = after.result
    if result is not None and result.passed_in and not _plays_ramsch(state):
        events.append(PassedIn(deal.number, deal.dealer, deal.active))
        events.extend(_after_entry(state))
    return Decision(events=tuple(events))


def _enter_bidding(state: TableState, command: EnterBidding) -> Decision:
    """The bidding's outcome at once: the declarer and the final bid (the others passed)."""
    deal = _deal(state, Phase.BIDDING)
    position = _position(command.position)
    _check_bid_value(state, deal.auction, command.value)
    return Decision(events=(BiddingEntered(position, command.value),))


def _plays_ramsch(state: TableState) -> bool:
    """Hook for the club variant: Ramsch instead of eingepasst when the profile says so
    (a ``ramsch`` switch on :class:`device.profile.RuleProfile`; never in tournaments)."""
    return state.profile.ramsch


def _check_bid_value(state: TableState, auction: Auction, value: object) -> None:
    """A number no game of the table's rule profile can be worth is no bid (the ISkO's 23 is
    none in Texas-Skat, its 32 none under the ISkO): refused naming the value and the profile."""
    if isinstance(value, bool) or not isinstance(value, int) or value not in auction.ladder:
        raise Refuse("bad_bid", "not_a_bid_value", value=value, profile=state.profile.name)


def _check_turn(state: TableState, auction: Auction, action: AuctionBid | AuctionHold | AuctionPass) -> None:
    """Refuse what the auction would refuse (out of turn, too low …)."""
    options = auction.options()
    who = {"position": action.seat, "player": _player(state, action.seat)}
    if action.seat != options.seat:
        if action.seat in auction.passed:
            raise Refuse("not_your_turn", "has_passed", **who)
        # Who speaks now, to whom, at which value: the screen words it as its bidding prompt.
        raise Refuse("not_your_turn", "not_your_turn", **who, speaker=options.seat, partner=options.partner,
                     role=options.role.value, current=options.current, may_bid=options.min_value is not None)
    if isinstance(action, AuctionBid):
        if options.role is Role.ANSWERING:
            raise Refuse("bad_bid", "answer_hold_or_pass", **who, current=options.current)
        if action.value not in options.values:
            key = ("bid_play_or_pass" if options.role is Role.DECIDING else
                   "bid_only_pass" if options.min_value is None else "bid_too_low")
            raise Refuse("bad_bid", key, **who, value=action.value, current=options.current,
                          min_value=options.min_value, max_value=options.max_value)
    if isinstance(action, AuctionHold) and not options.may_hold:
        raise Refuse("bad_bid", "hold_not_asked", **who)


# --------------------------------------------------------------------------- declaration


def _take_skat(state: TableState, command: TakeSkat) -> Decision:
    deal = _deal(state, Phase.DECLARING)
    if deal.skat_taken:
        raise Refuse("skat_taken", "skat_taken")
    return Decision(events=(SkatTaken(),))


def _push_skat(state: TableState, command: PushSkat) -> Decision:
    deal = _deal(state, Phase.DECLARING, Phase.PLAYING, Phase.RESULT)
    card = _card(command.card)
    if len(deal.skat) >= 2:
        raise Refuse("skat_full", "skat_full")
    phase = deal.phase
    if phase == Phase.DECLARING and not deal.skat_taken:
        raise Refuse("not_now", "skat_not_taken")
    if phase == Phase.PLAYING and (not deal.skat_taken or deal.cards_played):
        raise Refuse("not_now", "skat_before_first_card")
    if phase == Phase.RESULT and deal.early is None:
        raise Refuse("not_now", "skat_known")
    _refuse_seen(deal, card)
    return Decision(events=(SkatCardAdded(card, command.source),))


def _declare(state: TableState, command: Declare) -> Decision:
    deal = _deal(state, Phase.DECLARING)
    try:
        declaration = make_declaration(state.profile, command)
    except DeclarationError as exc:
        raise Refuse("bad_declaration", _declaration_problem(command), error=str(exc),
                      game=command.game.value, profile=state.profile.name) from None
    refused = option_refusal(deal, declaration)
    if refused == "declaration_not_in_profile":  # a Danish Null Hand: named with the profile
        raise Refuse("not_in_profile", "declaration_not_in_profile", profile=deal.profile,
                     shown=declaration.describe_de())
    if refused is not None:
        raise Refuse("bad_declaration", refused, **option_refusal_values(deal, declaration))
    return Decision(events=(Declared(declaration.game.value, declaration.hand, declaration.ouvert,
                                     declaration.announced.record_name,
                                     declaration.tournee.value if declaration.tournee is not None else None),))


def _turn_card(state: TableState, command: TurnCard) -> Decision:
    """Tournée-Skat: the first skat card turned up, or the second after the first was taken
    up unseen (001 "Tournee-Skat"); before the skat is taken up, once each."""
    deal = _deal(state, Phase.DECLARING)
    card = _card(command.card)
    if state.profile.form is not SkatForm.TOURNEE:
        raise Refuse("not_in_profile", "turn_not_in_profile", profile=state.profile.name)
    if deal.skat_taken:
        raise Refuse("not_now", "turn_after_skat")
    if deal.turned_second:
        raise Refuse("not_now", "turned_twice")
    _refuse_seen(deal, card)
    if deal.turned == card:
        raise Refuse("card_seen", "card_turned", card=card.code)
    return Decision(events=(CardTurned(card, deal.turned is not None, command.source),))


def _declaration_problem(command: Declare) -> str:
    if command.game.is_null:
        return "null_announced"
    if command.ouvert:
        return "ouvert_not_hand"
    return "announced_not_hand"


def option_refusal_values(deal: Deal, declaration: Declaration) -> dict[str, str]:
    """What a refusal of ``declaration`` names besides its key: the profile and the game."""
    values = {"profile": deal.profile, "shown": declaration.describe_de()}
    if deal.turned is not None:  # Tournée-Skat: the card that decides the trump
        values["card"] = deal.turned.code
    return values


def option_refusal(deal: Deal, declaration: Declaration) -> str | None:
    """Why ``declaration`` cannot be declared now (a refusal key), or None if it can."""
    assert deal.bid is not None
    if profile_refusal(find_profile(deal.profile), declaration) is not None:
        return "declaration_not_in_profile"
    if declaration.form is SkatForm.TOURNEE:
        if is_overbid_null(declaration, deal.bid, find_profile(deal.profile)):  # the text has no rule for it
            return "null_overbid_not_in_profile"
        refused = tournee_refusal(declaration, turned=deal.turned, second=deal.turned_second, skat_taken=deal.skat_taken)
        if refused is not None:
            return refused
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
        raise Refuse("not_allowed", "kontra_by_declarer", **who)
    if deal.kontra is not None:
        raise Refuse("not_allowed", "kontra_said")
    try:
        check_kontra(state.profile, seat=position, declarer=deal.declarer, cards_played=len(deal.cards_played),
                     auction=deal.auction)
    except VariantError as exc:
        if "18" not in str(exc):
            raise Refuse("too_late", "kontra_too_late", **who, error=str(exc)) from None
        raise Refuse("not_allowed", "kontra_after_passing_18", **who, error=str(exc)) from None
    return Decision(events=(KontraSaid(position),))


def _re(state: TableState, command: Re) -> Decision:
    deal = _deal(state, Phase.PLAYING)
    position = _position(command.position)
    _kontra_allowed(state)
    assert deal.declarer is not None
    if position != deal.declarer:
        raise Refuse("not_allowed", "re_by_defender")
    if deal.kontra is None or deal.re is not None:
        raise Refuse("not_allowed", "re_without_kontra")
    try:
        check_re(state.profile, seat=position, declarer=deal.declarer, kontra_said=True,
                 cards_since_kontra=cards_since_kontra(deal))
    except VariantError as exc:
        raise Refuse("too_late", "re_too_late", error=str(exc)) from None
    return Decision(events=(ReSaid(position),))


def cards_since_kontra(deal: Deal) -> int:
    """Cards played after the Kontra (Re must come at once)."""
    steps = [s.body for s in deal.steps]
    said = max((i for i, b in enumerate(steps) if isinstance(b, KontraSaid)), default=len(steps))
    return sum(1 for b in steps[said:] if isinstance(b, CardPlayed))


def _kontra_allowed(state: TableState) -> None:
    if not state.profile.kontra:
        raise Refuse("not_in_profile", "no_kontra_in_profile", profile=state.profile.name)


# --------------------------------------------------------------------------- play


def _play_card(state: TableState, command: PlayCard) -> Decision:
    deal = _deal(state, Phase.PLAYING)
    card = _card(command.card)
    if deal.query is not None:
        raise Refuse("question_pending", "question_pending")
    if gift_pending(deal):  # 001 "Schenken": the offer is answered first
        raise Refuse("question_pending", "gift_pending")
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
        raise Refuse("no_question", "no_question")
    return Decision(events=(FalseFollowingAccepted(),))


def _reject_card(state: TableState, command: RejectCard) -> Decision:
    deal = _deal(state, Phase.PLAYING)
    if deal.query is None:
        raise Refuse("no_question", "no_question")
    return Decision(events=(CardWithdrawn(),))


def _check_matadors(deal: Deal, matadors: int | None) -> int | None:
    if matadors is None:
        return None
    choices = entry_matador_choices(deal)
    if not choices:
        raise Refuse("bad_result", "null_no_matadors")
    if isinstance(matadors, bool) or not isinstance(matadors, int) or matadors not in choices:
        most = len(choices) // 2
        raise Refuse("bad_result", "bad_matadors", matadors=matadors, most=most)
    return matadors


def _end_game(state: TableState, command: EndGame) -> Decision:
    deal = _deal(state, Phase.PLAYING)
    if deal.query is not None:
        raise Refuse("question_pending", "question_pending")
    try:
        how = EndHow(command.how)
    except ValueError:
        raise Refuse("bad_end", "bad_end_how", how=command.how) from None
    assert deal.game is not None
    if how is EndHow.NULL_LOST:
        if not deal.game.is_null:
            raise Refuse("bad_end", "null_only")
        if deal.declarer not in _trick_winners(deal):
            raise Refuse("bad_end", "no_declarer_trick")
    matadors = _check_matadors(deal, command.matadors)
    known = known_matadors(deal)
    if matadors is not None and known is not None and matadors != known:
        raise Refuse("bad_result", "matadors_differ", known=known, matadors=matadors)
    return Decision(events=(GameEnded(how.value, matadors),))


def _trick_winners(deal: Deal) -> tuple[int, ...]:
    leaders = deal.trick_leaders()
    return leaders[1:]


def _enter_result(state: TableState, command: EnterResult) -> Decision:
    deal = _deal(state, Phase.PLAYING)
    if deal.cards_played or deal.query is not None:
        raise Refuse("cards_played", "cards_played")
    assert deal.game is not None
    matadors = _check_matadors(deal, command.matadors)
    if not deal.game.is_null and matadors is None:
        raise Refuse("bad_result", "matadors_missing")
    if not deal.game.is_null and command.declarer_points is None:
        raise Refuse("bad_result", "points_missing")
    entered = ResultEntered(command.declarer_points, command.declarer_tricks, matadors)
    trial = replace(deal, entered=entered, matadors=matadors, spitze_made=True if deal.spitze else None)  # asked next
    record = game_record(trial)
    assert record is not None
    try:
        score_record(record, profile=state.profile)
    except (RecordError, TypeError) as exc:
        refuse_if_not_in_profile(record, state.profile, exc)
        raise Refuse("bad_result", "result_not_possible", error=str(getattr(exc, "reason", exc)),
                     problem_field=getattr(exc, "field", ""), problem_german=getattr(exc, "german", "")) from None
    return Decision(events=(entered,))


def _enter_matadors(state: TableState, command: EnterMatadors) -> Decision:
    deal = _deal(state, Phase.RESULT)
    if deal.early is None or deal.ramsch is not None:
        raise Refuse("not_now", "matadors_from_cards")
    matadors = _check_matadors(deal, command.matadors)
    assert matadors is not None
    known = known_matadors(deal)
    if known is not None and known != matadors:
        raise Refuse("bad_result", "cards_show_matadors", known=known)
    return Decision(events=(MatadorsEntered(matadors),))


def _enter_ramsch(state: TableState, command: EnterRamsch) -> Decision:
    deal = _deal(state, Phase.RAMSCH)
    try:
        counts = entered_ramsch_counts(tuple(command.points), tuple(command.tricks), command.skat_points,  # type: ignore[arg-type]
                                       command.last_trick, command.later_trick, state.profile)
        score_ramsch(counts, state.profile, pushes=command.pushes, multiplier=deal.bock)
    except LaterTrickNeeded as question:
        first, second = question.seats
        raise Refuse("ramsch_question", "ramsch_later_trick", first=first, second=second,
                     first_player=_player(state, first), second_player=_player(state, second)) from None
    except (RamschError, TypeError, ValueError) as exc:
        raise Refuse("bad_result", "ramsch_not_possible", error=str(exc)) from None
    return Decision(events=(RamschEntered(counts.points, counts.tricks, counts.skat_points, counts.last_trick,
                                          command.pushes, command.later_trick),))


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
        raise Refuse("nothing_to_confirm", "nothing_to_confirm")
    raise Refuse("not_now", "button_does_nothing", button=command.button.value)


def _scanned(state: TableState, command: CardScanned) -> Decision:
    """A scanned card goes where a card is expected: the pushed skat, the trick, or the skat
    of a game that ended early."""
    _open(state)
    deal = state.deal
    phase = state.phase
    if deal is not None and phase == Phase.DECLARING and deal.skat_taken and len(deal.skat) < 2:
        return _push_skat(state, PushSkat(command.card, command.source))
    if deal is not None and phase == Phase.DECLARING and state.profile.form is SkatForm.TOURNEE:
        return _turn_card(state, TurnCard(command.card, command.source))  # the card turned up
    if deal is not None and phase == Phase.PLAYING:
        return _play_card(state, PlayCard(command.card, command.source))
    if deal is not None and phase == Phase.RESULT and deal.early is not None and len(deal.skat) < 2:
        return _push_skat(state, PushSkat(command.card, command.source))
    raise Refuse("no_card_expected", "no_card_expected", phase=phase)


def _unknown_card(state: TableState, command: UnknownCardScanned) -> Decision:
    raise Refuse("unknown_card", "unknown_card", raw=command.raw, reader_reason=command.reason)


def _open_list_without_rng(state: TableState, command: OpenList) -> Decision:
    return open_list(state, command, random.Random(0)) if not command.draw else Decision(
        refusal=Refusal("needs_service", "needs_service", {}, command))


_HANDLERS: dict[type, Callable[[TableState, Any], Decision]] = {
    OpenList: _open_list_without_rng,
    JoinPlayer: _join, LeavePlayer: _leave,
    Bid: _bidding, Hold: _bidding, Pass: _bidding, EnterBidding: _enter_bidding,
    TakeSkat: _take_skat, PushSkat: _push_skat, TurnCard: _turn_card, Declare: _declare, Kontra: _kontra, Re: _re,
    PlayCard: _play_card, AcceptFalseFollowing: _accept_false_following, RejectCard: _reject_card,
    EndGame: _end_game, EnterResult: _enter_result, EnterMatadors: _enter_matadors,
    EnterRamsch: _enter_ramsch, Confirm: _confirm, Undo: _undo, AddBock: _add_bock,
    ProposeCorrection: _propose_correction, ConsentCorrection: _consent, WithdrawCorrection: _withdraw,
    EndSeries: _end_series, ConfirmList: _confirm_list,
    ButtonPressed: _button, CardScanned: _scanned, UnknownCardScanned: _unknown_card,
    **GIFT_HANDLERS, **SPITZE_HANDLERS,
}
