"""The table service: one inbox for every command, one thread that owns the state.

The touch UI, the card reader and the GPIO panel call :meth:`TableService.submit` from any
thread. The owning thread (the UI's main loop, or a worker) calls :meth:`TableService.pump`,
which takes every waiting command in order, decides it (:func:`device.table.flow.decide`)
and folds the new events into a trial state. Everything one pump produced is then appended
to the store with one ``append`` (group commit: one write and one fsync per pump, and one per
list when a pump opens a new list) — durable when ``append`` returns — and only then does the
new state become current and the listeners hear of it. If the store fails, every command of
that append is refused and the state stays as it was. A refused command, a store that fails,
even a bug, gives a :class:`~device.table.flow.Refusal` in the pump's result: nothing
escapes ``pump``.

The list's events form a hash chain (:mod:`device.journal`). Each player's confirmation of
the finished list (``list_confirmed``) and the closing (``list_closed``) carry ``head``: the
chain's head just before them, i.e. the list exactly as it stood when that player signed. The
laptop verifies a synced list against it.

Start-up reads the current list once; a checkpoint (:mod:`device.table.checkpoint`, saved
every few confirmed games) spares folding it all again. The events are turned into
:class:`Event` values only when someone asks for them.

Each event gets a uuid4 ``id`` and this device's next ``seq`` (contiguous over all its lists,
continued after a restart from the highest one in the store). A new service over the same
store continues exactly where the last one stopped, the game in progress included.
"""

from __future__ import annotations

import dataclasses
import logging
import random
import threading
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from typing import Any

from device.club.money import TableTerms
from device.hardware import CardScanned, PanelView, ReaderStatus, UnknownCardScanned
from device.inbox import Inbox
from device.journal import GENESIS, chain_hash
from device.ports import EventStore
from device.profile import TABLE_PROFILES
from device.table import checkpoint
from device.table.commands import (
    CardWanted, MoneyTermsReceived, NextSeriesOffered, SeatedElsewhere, OpenList, OpenNextSeries, RosterReceived, SyncAcknowledged, SyncStatus, card_id,
)
from device.table.events import (
    Event, EventBody, GameRecorded, ListClosed, ListConfirmed, PassedIn, RamschRecorded,
)
from device.table.flow import Decision, Refusal, decide, open_list
from device.table.rotation import TABLE_SIZES, TOURNAMENT_LENGTHS, sitting_out
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
        self._config_roster = self._roster = tuple(roster)
        self._member_cards: dict[str, str] = {}  # card id -> name, from the laptop's roster
        self._member_ids: dict[str, str] = {}  # name (casefolded) -> member id, from the laptop's roster
        self._card_seats: tuple[str, ...] = ()  # seated at setup by their member cards
        self._card_wanted = False  # the laptop assigns a card: the next unknown one goes there
        self._elsewhere: dict[str, str] = {}  # member id -> the other table whose open list has him
        self._told_elsewhere: set[str] = set()  # told once: a second tap seats him here all the same
        self._card_reporter: Callable[[str], None] | None = None
        self._inbox: Inbox[object] = Inbox()
        self._listeners: list[Callable[[PumpResult], None]] = []
        self._wake: Callable[[], None] | None = None  # told of each command queued (wake_on_submit)
        self._reader = ReaderView(False, "", "")
        self._acked = 0
        self._link = SyncStatus()
        self._offer: NextSeriesOffered | None = None  # the next series the laptop released
        self._money_terms: TableTerms | None = None  # the evening's Abreizgeld tiers, from the laptop
        self._opened: set[tuple[int, int]] = set()  # offers already opened (the ack repeats them)
        self._opening: NextSeriesOffered | None = None  # opened, its list not yet stored
        self._refusal: Refusal | None = None
        self._snapshot: TableSnapshot | None = None
        self._snapshot_lock = threading.Lock()
        self._pending: list[tuple[object, tuple[Event, ...]]] = []  # produced, not yet stored
        self._last_seq, self._head = 0, GENESIS
        self._docs: list[dict[str, Any]] = []   # the current list's events as stored
        self._event_cache: list[Event] = []     # the same as Events, filled on demand
        self._state: TableState = TableState()
        self._last_players: tuple[str, ...] = ()
        self._load()
        self._stored = self._keep()

    # -- loading -----------------------------------------------------------------------

    def _load(self) -> None:
        """The highest seq of this device and the state of its latest list.

        Only the current list is ever appended to and seq only rises, so the newest list
        holding this device's events has both: start-up reads one list, not the history.
        """
        for list_id in reversed(self._store.list_ids()):
            docs = self._store.load(list_id)
            own = [d["seq"] for d in docs if d.get("device") == self._device and isinstance(d.get("seq"), int)]
            if own:
                self._last_seq, self._docs, self._head = max(own), docs, self._store.head(list_id)
                self._state = self._fold_from_checkpoint(list_id, docs)
                self._last_players = self._state.seating
                return

    def _fold_from_checkpoint(self, list_id: str, docs: list[dict[str, Any]]) -> TableState:
        found = self._store.load_checkpoint(list_id)
        state = None if found is None or found[0] > len(docs) else checkpoint.decode(found[1])
        if state is None or found is None:
            return replay(self.events)
        for doc in docs[found[0]:]:
            state = apply(state, Event.from_json(doc))
        return state

    # -- the inbox -----------------------------------------------------------------------

    def submit(self, command: object) -> None:
        """Queue a command; safe from any thread (reader, GPIO callbacks, UI, the sync)."""
        self._inbox.submit(command)
        wake = self._wake
        if wake is not None:
            wake()

    def wake_on_submit(self, wake: Callable[[], None] | None) -> None:
        """Call ``wake()`` (on the submitting thread) after each command queued, so that the
        owner pumps when there is something to pump instead of polling; None: no more."""
        self._wake = wake

    def pump(self) -> PumpResult:
        """Process every waiting command in order (call it from the owning thread only)."""
        events: list[Event] = []
        refusals: list[Refusal] = []
        for command in self._inbox.drain():
            if isinstance(command, OpenList) and self._pending:
                self._flush(events, refusals)  # a new list: the old one's events go first
            new, refusal = self._handle(command)
            if new:
                self._pending.append((command, new))
            if refusal is not None:
                refusals.append(refusal)
                self._refusal = refusal
            elif new:
                self._refusal = None
        self._flush(events, refusals)
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
            # the reader's and the sync's news: a new snapshot only when it shows something new
            # (an acknowledgement repeats itself at every sync round)
            if isinstance(command, ReaderStatus):
                reader = ReaderView(command.connected, command.port, command.detail)
                if reader != self._reader:
                    self._reader = reader
                    self._changed()
                return (), None
            if isinstance(command, SyncAcknowledged):
                acked = max(self._acked, min(int(command.seq), self._last_seq))
                if acked != self._acked:
                    self._acked = acked
                    self._changed()
                return (), None
            if isinstance(command, SyncStatus):
                if command != self._link:
                    self._link = command
                    self._changed()
                return (), None
            if isinstance(command, NextSeriesOffered):
                self._offered(command)
                return (), None
            if isinstance(command, MoneyTermsReceived):  # the evening's Abreizgeld for the end screen
                if command.terms != self._money_terms:
                    self._money_terms = command.terms
                    self._changed()
                return (), None
            if isinstance(command, RosterReceived):  # the laptop's roster first, then the config's
                roster = tuple(dict.fromkeys(command.names + self._config_roster))
                self._member_cards = dict(command.cards)
                self._member_ids = {name.casefold(): ident for name, ident in command.ids}
                if roster != self._roster:
                    self._roster = roster
                    self._changed()
                return (), None
            if isinstance(command, CardWanted):
                self._card_wanted = command.wanted
                return (), None
            if isinstance(command, SeatedElsewhere):
                self._elsewhere = dict(command.seats)
                return (), None
            if isinstance(command, (CardScanned, UnknownCardScanned)):
                told = self._member_card(command)
                if told is not None:
                    return (), told if isinstance(told, Refusal) else None
            offer = None
            if isinstance(command, OpenNextSeries):
                offer, command = self._offer, self._next_series_list()
                if isinstance(command, Refusal):
                    return (), command
            list_id = self._state.list_id
            if isinstance(command, OpenList):
                command = self._with_member_ids(command)
                decision = open_list(self._state, command, self._rng)
                list_id = self._new_id()
                if decision.events and self._card_seats:
                    self._card_seats, self._told_elsewhere = (), set()
                if offer is not None and decision.events:
                    self._opened.add((offer.series, offer.table))
                    self._offer, self._opening = None, offer
            else:
                decision = decide(self._state, command)
            return self._record(decision, list_id), decision.refusal
        except OSError as exc:  # the store could not make the events durable: nothing happened
            log.error("store failed for %r: %s", command, exc)
            return (), Refusal("store_failed", "store_failed", {"error": str(exc)}, command)
        except Exception as exc:  # never let a bug escape pump: refuse and log it
            log.exception("command %r failed", command)
            return (), Refusal("internal_error", "internal_error", {"error": str(exc), "error_repr": repr(exc)}, command)

    def _offered(self, offer: NextSeriesOffered) -> None:
        """Keep the laptop's latest offer (shown at the table) unless it was opened already."""
        latest = None if (offer.series, offer.table) in self._opened else offer
        if latest != self._offer:
            self._offer = latest
            self._changed()

    def _member_card(self, command: CardScanned | UnknownCardScanned) -> Refusal | bool | None:
        """A card read while no list is open seats a member (a second read of his card at
        setup stands him up again); a playing card then, or a member card during play, is
        told apart and refused in words. None: the card is for the game (flow decides)."""
        setting_up = self._state.setup is None or self._state.closed
        if isinstance(command, CardScanned):
            if not setting_up:
                return None
            return Refusal("playing_card_at_setup", "playing_card_at_setup", {"card": command.card.code}, command)
        member = self._member_cards.get(card_id(command.raw))
        if not setting_up:
            if member is None:
                return None
            return Refusal("member_card_in_play", "member_card_in_play", {"member": member}, command)
        if member is None and self._card_wanted and self._card_reporter is not None:
            self._card_wanted = False  # one card per assignment; the laptop says again if it still waits
            self._card_reporter(card_id(command.raw))
            return Refusal("card_to_laptop", "card_to_laptop", {"raw": command.raw}, command)
        if member is None:
            return Refusal("unknown_member_card", "unknown_member_card", {"raw": command.raw}, command)
        there = self._elsewhere.get(self._member_ids.get(member.casefold(), ""))
        if there and member not in self._card_seats and member not in self._told_elsewhere:
            self._told_elsewhere.add(member)  # the other list may just not be closed yet: the next tap seats him
            return Refusal("seated_elsewhere", "seated_elsewhere", {"member": member, "table": there}, command)
        if member in self._card_seats:
            self._card_seats = tuple(n for n in self._card_seats if n != member)
        elif len(self._card_seats) >= max(TABLE_SIZES):
            return Refusal("table_full", "table_full", {}, command)
        else:
            self._card_seats = (*self._card_seats, member)
        self._changed()
        return True

    def report_cards_to(self, reporter: Callable[[str], None] | None) -> None:
        """Where a card read for the laptop's "Karte zuordnen" goes (the sync client's
        ``send_card``); called on the pumping thread."""
        self._card_reporter = reporter

    def _with_member_ids(self, command: OpenList) -> OpenList:
        """The list's players with their member ids from the laptop's roster (by name)."""
        if command.members or not self._member_ids:
            return command
        ids = tuple(self._member_ids.get(name.strip().casefold(), "") for name in command.players)
        return replace(command, members=ids) if any(ids) else command

    def _next_series_list(self) -> OpenList | Refusal:
        """The OpenList of the one tap: the offered players, the last list's settings."""
        offer = self._offer
        if offer is None:
            return Refusal("no_next_series", "no_next_series", {}, OpenNextSeries())
        setup = self._state.setup
        if setup is None:
            return OpenList(offer.players, series_length=TOURNAMENT_LENGTHS.get(len(offer.players)),
                            members=offer.members)
        return OpenList(offer.players, series_length=setup.series_length, scoring=setup.scoring,
                        bierlachs_limit=setup.bierlachs_limit, profile=setup.profile, stake=setup.stake,
                        members=offer.members)

    def _record(self, decision: Decision, list_id: str | None) -> tuple[Event, ...]:
        """Fold the decision's events into the (trial) state; ``_flush`` stores them."""
        if not decision.events:
            return ()
        assert list_id is not None
        at = self._clock().isoformat()
        opened = decision.events[0].TYPE == "list_opened"
        state = TableState() if opened else self._state
        head = GENESIS if opened else self._head
        events: list[Event] = []
        docs: list[dict[str, Any]] = []
        for n, body in enumerate(decision.events, start=1):
            if isinstance(body, (ListConfirmed, ListClosed)):
                body = dataclasses.replace(body, head=head)  # the list as it stood when signed
            event = Event(self._new_id(), self._last_seq + n, self._device, list_id, body, at)
            state = apply(state, event)  # fold first: an event the fold cannot take is never stored
            doc = event.to_json()
            head = chain_hash(head, doc)
            events.append(event)
            docs.append(doc)
        if opened:
            self._docs, self._event_cache = [], []
        self._state, self._head = state, head
        self._last_players = state.seating or self._last_players
        self._docs.extend(docs)
        self._event_cache.extend(events)
        self._last_seq += len(events)
        return tuple(events)

    def _keep(self) -> tuple[Any, ...]:
        """What a failed append must restore: the service as it was after the last one."""
        return (self._state, self._last_players, self._last_seq, self._head, self._docs,
                len(self._docs), self._event_cache)

    def _flush(self, events: list[Event], refusals: list[Refusal]) -> None:
        """Append everything produced since the last flush with one write (one list)."""
        if not self._pending:
            return
        produced, self._pending = self._pending, []
        new = [e for _, batch in produced for e in batch]
        list_id = new[-1].list_id
        try:
            self._store.append(list_id, self._docs[len(self._docs) - len(new):])  # durable on return
        except OSError as exc:  # nothing of this append happened: back to the stored state
            log.error("store failed for %d commands: %s", len(produced), exc)
            self._restore(self._stored)
            for command, _ in produced:
                refusals.append(Refusal("store_failed", "store_failed", {"error": str(exc)}, command))
            self._refusal = refusals[-1]
            return
        events.extend(new)
        self._stored = self._keep()
        self._opening = None
        self._maybe_checkpoint(list_id, new)

    def _restore(self, kept: tuple[Any, ...]) -> None:
        state, players, seq, head, docs, count, cache = kept
        del docs[count:]
        del cache[count:]
        self._state, self._last_players, self._last_seq, self._head = state, players, seq, head
        self._docs, self._event_cache = docs, cache
        if self._opening is not None:  # the list it opened was not stored: offer it again
            self._opened.discard((self._opening.series, self._opening.table))
            self._offer, self._opening = self._opening, None

    def _maybe_checkpoint(self, list_id: str, new: list[Event]) -> None:
        entries = [e.body.entry for e in new if isinstance(e.body, (GameRecorded, PassedIn, RamschRecorded))]
        if any(entry % checkpoint.EVERY_GAMES == 0 for entry in entries) and self._state.list_id == list_id:
            self._store.save_checkpoint(list_id, len(self._docs), checkpoint.encode(self._state))

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
                    laptop=self._link.laptop, laptop_reachable=self._link.reachable, roster=self._roster, last_players=self._last_players, profiles=TABLE_PROFILES,
                    next_series=(self._offer.text, self._offer.players) if self._offer is not None else None,
                    card_seats=self._card_seats, money_terms=self._money_terms)
            return self._snapshot

    def _synced_games(self) -> int:
        synced = 0
        entries = (GameRecorded.TYPE, PassedIn.TYPE, RamschRecorded.TYPE)
        for doc in self._docs:
            if doc["seq"] > self._acked:
                break
            if doc["device"] == self._device and doc["type"] in entries:
                synced = int(doc["data"]["entry"])
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
        return [entry.event for entry in self._store.entries_after(seq)]

    @property
    def head(self) -> str:
        """The current list's chain head (what a confirmation now would sign)."""
        return self._head

    @property
    def state(self) -> TableState:
        """The current state (immutable; replaced by each pump)."""
        return self._state

    @property
    def events(self) -> tuple[Event, ...]:
        """The current list's events, in order (read from their JSON on first use)."""
        cache = self._event_cache
        cache.extend(Event.from_json(doc) for doc in self._docs[len(cache):])
        return tuple(cache)

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
