"""The table service: one inbox for every command, one thread that owns the state.

The touch UI, the card reader and the GPIO panel call :meth:`TableService.submit` from any
thread. The owning thread (the UI's main loop, or a worker) calls :meth:`TableService.pump`,
which takes every waiting command in order, decides it (:func:`device.table.flow.decide`),
folds the new events into a trial state, appends them to the store — durable when
``append`` returns — and only then makes the new state current and tells the listeners. A
refused command, a store that fails, even a bug, gives a :class:`~device.table.flow.Refusal`
in the pump's result: nothing escapes ``pump``.

Each event gets a uuid4 ``id`` and this device's next ``seq`` (contiguous over all its lists,
continued after a restart from the highest one in the store). A new service over the same
store continues exactly where the last one stopped, the game in progress included.
"""

from __future__ import annotations

import logging
import random
import threading
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from device.hardware import PanelView, ReaderStatus
from device.inbox import Inbox
from device.ports import EventStore
from device.profile import PROFILES
from device.table.commands import OpenList, SyncAcknowledged, SyncStatus
from device.table.events import Event, EventBody, GameRecorded, PassedIn, RamschRecorded
from device.table.flow import Decision, Refusal, decide, open_list
from device.table.rotation import sitting_out
from device.table.snapshot import ReaderView, TableSnapshot, build_snapshot
from device.table.state import TableState, apply, replay

__all__ = ["PumpResult", "TableService"]

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]


@dataclass(frozen=True, slots=True)
class PumpResult:
    """What one pump did: the events now durable, and the commands refused (with reasons)."""

    events: tuple[Event, ...] = ()
    refusals: tuple[Refusal, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.events or self.refusals)


def _utc_now() -> datetime:
    return datetime.now(timezone.utc)


def _uuid_hex() -> str:
    return uuid.uuid4().hex


class TableService:
    """The table's brain behind one inbox. See the package docstring for the whole API.

    ``device_id``: this table's stable id (e.g. the store's ``device_id``). ``clock``: wall
    time for the events' ``at`` (information only). ``rng``: for Auslosen. ``new_id``: event
    and list ids (uuid4 hex by default). ``roster``: the club's player names, if any.
    """

    def __init__(
        self, store: EventStore, *, device_id: str, clock: Clock = _utc_now,
        rng: random.Random | None = None, new_id: Callable[[], str] = _uuid_hex, roster: Sequence[str] = (),
    ) -> None:
        if not device_id:
            raise ValueError("a table needs a stable device id")
        self._store = store
        self._device = device_id
        self._clock = clock
        self._rng = rng if rng is not None else random.Random()
        self._new_id = new_id
        self._roster = tuple(roster)
        self._inbox: Inbox[object] = Inbox()
        self._listeners: list[Callable[[PumpResult], None]] = []
        self._reader = ReaderView(False, "", "")
        self._acked = 0
        self._link = SyncStatus()
        self._refusal: Refusal | None = None
        self._snapshot: TableSnapshot | None = None
        self._snapshot_lock = threading.Lock()
        self._last_seq, self._events, self._last_players = self._load()
        self._state = replay(self._events)

    # -- loading -----------------------------------------------------------------------

    def _load(self) -> tuple[int, list[Event], tuple[str, ...]]:
        """The highest seq of this device and the events of its latest list.

        Only the current list is ever appended to and seq only rises, so the newest list
        holding this device's events has both: start-up reads one list, not the history.
        """
        for list_id in reversed(self._store.list_ids()):
            docs = self._store.load(list_id)
            own = [d["seq"] for d in docs if d.get("device") == self._device and isinstance(d.get("seq"), int)]
            if own:
                events = [Event.from_json(d) for d in docs]
                return max(own), events, replay(events).seating
        return 0, [], ()

    # -- the inbox -----------------------------------------------------------------------

    def submit(self, command: object) -> None:
        """Queue a command; safe from any thread (reader, GPIO callbacks, UI)."""
        self._inbox.submit(command)

    def pump(self) -> PumpResult:
        """Process every waiting command in order (call it from the owning thread only)."""
        events: list[Event] = []
        refusals: list[Refusal] = []
        for command in self._inbox.drain():
            new, refusal = self._handle(command)
            events.extend(new)
            if refusal is not None:
                refusals.append(refusal)
                self._refusal = refusal
            elif new:
                self._refusal = None
        result = PumpResult(tuple(events), tuple(refusals))
        if result:
            self._changed()
            for listener in list(self._listeners):
                try:
                    listener(result)
                except Exception:  # a listener's bug must not stop the table
                    log.exception("table listener failed")
        return result

    def handle(self, command: object) -> PumpResult:
        """Submit ``command`` and pump at once (for tests and single-threaded callers)."""
        self.submit(command)
        return self.pump()

    def subscribe(self, listener: Callable[[PumpResult], None]) -> Callable[[], None]:
        """Call ``listener`` (on the pumping thread) after each pump that did something,
        when its events are already durable. Returns a function that unsubscribes."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    # -- one command ---------------------------------------------------------------------

    def _handle(self, command: object) -> tuple[tuple[Event, ...], Refusal | None]:
        try:
            if isinstance(command, ReaderStatus):
                self._reader = ReaderView(command.connected, command.port, command.detail)
                self._changed()
                return (), None
            if isinstance(command, SyncAcknowledged):
                self._acked = max(self._acked, min(int(command.seq), self._last_seq))
                self._changed()
                return (), None
            if isinstance(command, SyncStatus):
                self._link = command
                self._changed()
                return (), None
            list_id = self._state.list_id
            if isinstance(command, OpenList):
                decision = open_list(self._state, command, self._rng)
                list_id = self._new_id()
            else:
                decision = decide(self._state, command)
            return self._record(decision, list_id), decision.refusal
        except OSError as exc:  # the store could not make the events durable: nothing happened
            log.error("store failed for %r: %s", command, exc)
            return (), Refusal("store_failed", f"the events could not be stored: {exc}",
                               f"Speichern fehlgeschlagen, nichts wurde eingetragen: {exc}", command)
        except Exception as exc:  # never let a bug escape pump: refuse and log it
            log.exception("command %r failed", command)
            return (), Refusal("internal_error", f"internal error: {exc!r}",
                               f"Interner Fehler, bitte melden: {exc}", command)

    def _record(self, decision: Decision, list_id: str | None) -> tuple[Event, ...]:
        if not decision.events:
            return ()
        assert list_id is not None
        at = self._clock().isoformat()
        events = tuple(
            Event(self._new_id(), self._last_seq + n, self._device, list_id, body, at)
            for n, body in enumerate(decision.events, start=1))
        state = TableState() if events[0].type == "list_opened" else self._state
        for event in events:  # fold first: an event the fold cannot take is never stored
            state = apply(state, event)
        self._store.append(list_id, [e.to_json() for e in events])  # durable on return
        if events[0].type == "list_opened":
            self._events = []
        self._state = state
        self._last_players = state.seating or self._last_players
        self._events.extend(events)
        self._last_seq += len(events)
        return events

    # -- views ---------------------------------------------------------------------------

    def _changed(self) -> None:
        with self._snapshot_lock:
            self._snapshot = None

    def snapshot(self) -> TableSnapshot:
        """The table as plain, frozen data for the UI (cached until something changes)."""
        with self._snapshot_lock:
            if self._snapshot is None:
                self._snapshot = build_snapshot(
                    self._state, device=self._device, reader=self._reader, acked_seq=self._acked,
                    last_seq=self._last_seq, synced_games=self._synced_games(), refusal=self._refusal,
                    laptop=self._link.laptop, laptop_reachable=self._link.reachable, roster=self._roster, last_players=self._last_players, profiles=tuple(sorted(PROFILES)))
            return self._snapshot

    def _synced_games(self) -> int:
        synced = 0
        for event in self._events:
            if event.seq > self._acked:
                break
            if event.device == self._device and isinstance(event.body, (GameRecorded, PassedIn, RamschRecorded)):
                synced = event.body.entry
        return synced

    def panel_view(self) -> PanelView:
        """What the GPIO panel shows: the dealer's LED, the seats sitting out, reader and sync."""
        deal = self._state.deal
        return PanelView(
            dealer_seat=None if deal is None else deal.dealer,
            sitting_out=frozenset(sitting_out(deal.dealer, self._state.table_size)) if deal is not None else frozenset(),
            reader_connected=self._reader.connected, sync_ok=self._acked >= self._last_seq)

    def events_after(self, seq: int) -> list[dict[str, Any]]:
        """This device's events with a seq above ``seq``, in seq order, as JSON (for the sync)."""
        found: list[dict[str, Any]] = []
        for list_id in self._store.list_ids():
            found.extend(d for d in self._store.load(list_id)
                         if d.get("device") == self._device and isinstance(d.get("seq"), int) and d["seq"] > seq)
        return sorted(found, key=lambda d: int(d["seq"]))

    @property
    def state(self) -> TableState:
        """The current state (immutable; replaced by each pump)."""
        return self._state

    @property
    def events(self) -> tuple[Event, ...]:
        """The current list's events, in order."""
        return tuple(self._events)

    @property
    def device_id(self) -> str:
        return self._device

    @property
    def last_seq(self) -> int:
        return self._last_seq

    @property
    def list_id(self) -> str | None:
        return self._state.list_id


def bodies(events: Iterable[Event]) -> list[EventBody]:
    """The bodies of some events (handy in tests and listeners)."""
    return [e.body for e in events]
