"""The result and the list: confirming an entry, undoing a step, Bock rounds, corrections of
entered games (every player consents), ending the series and signing the list."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from device.errors import RecordError
from device.profile import RuleProfile
from device.record import score_record
from device.table.commands import (
    AddBock, Confirm, ConfirmList, ConsentCorrection, EndSeries, ProposeCorrection, Undo,
    WithdrawCorrection,
)
from device.table.decision import Decision, Refuse, _after_entry, _deal, _open, _seat
from device.table.events import (
    BockAdded, CorrectionApplied, CorrectionConsented, CorrectionProposed, CorrectionWithdrawn, EventBody,
    GameRecorded, ListClosed, ListConfirmed, PassedInWithdrawn, RamschRecorded, ResultConfirmed,
    SeriesEnded, StepUndone,
)
from device.table.outcome import preview
from device.table.rules import allowed_elsewhere
from device.table.state import Phase, TableState

__all__ = ["refuse_if_not_in_profile", "withdrawable_passed_in"]


def _confirm(state: TableState, command: Confirm) -> Decision:
    deal = _deal(state, Phase.RESULT)
    seat = _seat(state, command.seat)
    who = {"seat": seat, "player": state.seating[seat]}
    if seat not in deal.confirmers:
        raise Refuse("wrong_confirmer", "wrong_confirmer", **who)
    if seat in deal.confirmations:
        raise Refuse("already_confirmed", "already_confirmed", **who)
    confirmed = (*deal.confirmations, seat)
    if deal.ramsch is not None:
        if len(confirmed) < 2:
            return Decision(events=(ResultConfirmed(seat),))
        ramsch = RamschRecorded(deal.number, deal.ramsch.scores, deal.dealer, deal.active)
        return Decision(events=(ResultConfirmed(seat), ramsch, *_after_entry(state)))
    shown = preview(deal, state.profile)
    assert shown is not None
    if shown.needs_matadors:
        raise Refuse("needs_matadors", "needs_matadors")
    if shown.needs_spitze:
        raise Refuse("needs_spitze", "needs_spitze")
    if shown.problem is not None or shown.scored is None:
        raise Refuse("bad_result", "result_impossible", problem=shown.problem, problem_german=shown.problem_german)
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
        raise Refuse("series_over", "series_over_correct")
    raise Refuse("nothing_to_undo", "nothing_to_undo")


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
        raise Refuse("not_in_profile", "no_bock_in_profile")
    if state.series_over:
        raise Refuse("series_over", "series_over")
    games = state.table_size if command.games is None else command.games
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise Refuse("bad_bock", "bad_bock", games=games)
    return Decision(events=(BockAdded(games),))


def _propose_correction(state: TableState, command: ProposeCorrection) -> Decision:
    _open(state)
    if state.correction is not None:
        raise Refuse("correction_pending", "other_correction_pending")
    by_seat = _seat(state, command.by_seat)
    if isinstance(command.entry, bool) or not isinstance(command.entry, int) or not 1 <= command.entry <= len(state.rows):
        raise Refuse("bad_entry", "bad_entry", entry=command.entry)
    row = state.rows[command.entry - 1]
    if command.record is None:
        return Decision(events=(CorrectionProposed(command.entry, None, None, by_seat),))
    if command.declarer_seat not in row.active:
        raise Refuse("bad_correction", "declarer_not_at_game", entry=command.entry, seats=row.active)
    position = row.active.index(command.declarer_seat)
    record: dict[str, Any] = {k: v for k, v in dict(command.record).items() if k not in ("seat", "player")}
    if "declarer" in record and record["declarer"] != position:
        raise Refuse("bad_correction", "declarer_not_in_record", record_declarer=record["declarer"], position=position,
                     declarer_seat=command.declarer_seat)
    record = {**record, "seat": command.declarer_seat, "player": row.seating[command.declarer_seat]}
    try:
        score_record(record, profile=state.profile)
    except (RecordError, TypeError) as exc:
        refuse_if_not_in_profile(record, state.profile, exc)
        raise Refuse("bad_correction", "record_not_possible", error=str(exc),
                     problem_field=getattr(exc, "field", ""), problem_german=getattr(exc, "german", "")) from None
    events: list[EventBody] = [CorrectionProposed(command.entry, record, command.declarer_seat, by_seat)]
    if state.table_size == 1:  # pragma: no cover - a table has at least three
        events.append(CorrectionApplied(command.entry))
    return Decision(events=tuple(events))


def _consent(state: TableState, command: ConsentCorrection) -> Decision:
    _open(state)
    correction = state.correction
    if correction is None:
        raise Refuse("no_correction", "no_correction")
    seat = _seat(state, command.seat)
    if seat in correction.consents:
        raise Refuse("already_confirmed", "already_agreed", seat=seat, player=state.seating[seat])
    events: list[EventBody] = [CorrectionConsented(seat)]
    if len(set(correction.consents) | {seat}) >= state.table_size:
        events.append(CorrectionApplied(correction.entry))
    return Decision(events=tuple(events))


def _withdraw(state: TableState, command: WithdrawCorrection) -> Decision:
    _open(state)
    if state.correction is None:
        raise Refuse("no_correction", "no_correction")
    return Decision(events=(CorrectionWithdrawn(),))


def _end_series(state: TableState, command: EndSeries) -> Decision:
    _open(state)
    if state.series_over:
        raise Refuse("series_over", "series_already_over")
    if state.deal is not None and state.deal.steps:
        raise Refuse("game_running", "game_running")
    if state.bock is not None and state.bock.must_play_on:
        raise Refuse("bock_open", "bock_open", bock_deals=state.bock.bock_deals_left,
                     bock_factor=state.bock.multiplier, ramsch_games=state.bock.ramsch_left)
    return Decision(events=(SeriesEnded("stopped"),))


def _confirm_list(state: TableState, command: ConfirmList) -> Decision:
    _open(state)
    if not state.series_over:
        raise Refuse("series_running", "series_running")
    if state.correction is not None:
        raise Refuse("correction_pending", "correction_undecided")
    seat = _seat(state, command.seat)
    if seat in state.list_confirmations:
        raise Refuse("already_confirmed", "already_confirmed_list", seat=seat, player=state.seating[seat])
    events: list[EventBody] = [ListConfirmed(seat)]
    if len(set(state.list_confirmations) | {seat}) >= state.table_size:
        events.append(ListClosed())
    return Decision(events=tuple(events))


def refuse_if_not_in_profile(record: Mapping[str, Any], profile: RuleProfile, exc: Exception) -> None:
    """A record the table's rule profile forbids (another profile scores it) is refused as such,
    naming the field, its value and the profile ("Im Texas-Skat nicht erlaubt — Reizwert 23")."""
    field = getattr(exc, "field", "")
    if field and allowed_elsewhere(record, profile):
        raise Refuse("not_in_profile", "record_not_in_profile", problem_field=field, shown=record.get(field),
                     profile=profile.name, error=str(getattr(exc, "reason", exc)), game=record.get("game"))
