"""What a command leads to (:class:`Decision`: events, or a :class:`Refusal` saying what happened
as a key and its values) and the checks every handler of :mod:`device.table.flow` shares."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from device.cards import Card
from device.table.events import EventBody, SeriesEnded
from device.table.state import Deal, TableState

__all__ = ["Decision", "Refuse", "Refusal"]


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


class Refuse(Exception):
    """Raised inside a handler to refuse the command (caught in :func:`decide`)."""

    def __init__(self, code: str, key: str, **values: Any) -> None:
        super().__init__(key)
        self.code, self.key, self.values = code, key, values

    def refusal(self, command: object) -> Refusal:
        return Refusal(self.code, self.key, self.values, command)


def _player(state: TableState, position: int) -> str:
    """The name of who sits at ``position`` (Vorhand, Mittelhand, Hinterhand) in this deal."""
    deal = state.deal
    assert deal is not None
    return state.seating[deal.active[position]]


def _open(state: TableState) -> None:
    if state.setup is None:
        raise Refuse("no_list", "no_list")
    if state.closed:
        raise Refuse("list_closed", "list_closed")


def _deal(state: TableState, *phases: str) -> Deal:
    """The current deal, refusing unless the table is in one of ``phases``."""
    _open(state)
    if state.series_over or state.deal is None:
        raise Refuse("series_over", "series_over_no_more_games")
    deal = state.deal
    if deal.phase not in phases:
        raise Refuse("not_now", "not_now", phase=deal.phase)
    return deal


def _position(position: int) -> int:
    if isinstance(position, bool) or not isinstance(position, int) or position not in (0, 1, 2):
        raise Refuse("bad_position", "bad_position", position=position)
    return position


def _seat(state: TableState, seat: int) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.table_size:
        raise Refuse("bad_seat", "bad_seat", seat=seat, last_seat=state.table_size - 1, table_size=state.table_size)
    return seat


def _card(card: object) -> Card:
    if not isinstance(card, Card):
        raise Refuse("bad_card", "bad_card", card=card)
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
        raise Refuse("card_seen", "card_in_skat", card=card.code)
    seen = deal.who_played().get(card)
    if seen is not None:
        trick, position = seen
        raise Refuse("card_seen", "card_played", card=card.code, position=position, trick=trick + 1)
