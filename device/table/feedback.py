"""What the GPIO panel does when the table changes: LEDs follow the state, the buzzer speaks.

A scanned card that is taken sounds "accepted"; a card that is refused (seen twice, unknown,
not possible now) or put to the table as a false-following question sounds "refused"; a
store failure or an internal error sounds "error". Refused taps on the screen stay silent:
the screen says why.

>>> from device.hardware import Tone
>>> tones_for(PumpResult())
()
"""

from __future__ import annotations

from collections.abc import Callable

from device.cards import Card
from device.hardware import CardScanned, PanelView, Tone, UnknownCardScanned
from device.ports import Panel
from device.table.commands import PlayCard, PushSkat, TurnCard
from device.table.service import PumpResult, TableService

_CARD_INPUTS = (CardScanned, UnknownCardScanned, PlayCard, PushSkat, TurnCard, Card)
_CARD_TAKEN = frozenset({"card_played", "skat_card_added", "card_turned"})  # Tournée: the card turned up
_QUESTIONED = frozenset({"false_following_queried"})
_FAULTS = frozenset({"store_failed", "internal_error"})


def tones_for(result: PumpResult) -> tuple[Tone, ...]:
    """The tones one pump's outcome calls for, in order."""
    tones: list[Tone] = []
    for event in result.events:
        kind = event.body.TYPE
        if kind in _CARD_TAKEN:
            tones.append(Tone.ACCEPTED)
        elif kind in _QUESTIONED:
            tones.append(Tone.REFUSED)
    for refusal in result.refusals:
        if refusal.code in _FAULTS:
            tones.append(Tone.ERROR)
        elif isinstance(refusal.command, _CARD_INPUTS):
            tones.append(Tone.REFUSED)
    return tuple(tones)


class PanelFeedback:
    """Keeps a :class:`~device.ports.Panel` in step with a service (on the pumping thread)."""

    def __init__(self, service: TableService, panel: Panel) -> None:
        self._service = service
        self._panel = panel
        self._shown: PanelView | None = None
        self._unsubscribe: Callable[[], None] = service.subscribe(self._changed)
        self.refresh()

    def refresh(self, *, force: bool = False) -> None:
        """Show the current view if it changed (also after a reader status change), or always
        with ``force`` (after something else, such as a lamp test, lit the panel)."""
        view = self._service.panel_view()
        if force or view != self._shown:
            self._shown = view
            self._panel.show(view)

    def close(self) -> None:
        self._unsubscribe()

    def _changed(self, result: PumpResult) -> None:
        self.refresh()
        for tone in tones_for(result):
            self._panel.beep(tone)
