"""The club laptop's side of the league: pair once, then forward each table's journal.

Offline-first like the table: the club's store already holds every entry its tables sent
(the outbox), and a cursor per table (the store's document ``league_acked:DEVICE``) says up to
which seq the league acknowledged. One :class:`~drivers.sync.SyncClient` per table sends the
rest in batches, signed with the club's secret, retried with backoff while the league is
away: the table's own sync client, pointed at the league's ``/api/v1/forward``. The entries
go as the table signed them (``prev``, ``hash``, ``event``): the league verifies each chain.

The link (the league's URL, this club's id and secret) is the store's document ``league``,
so a restart, or the club store on PostgreSQL, keeps it.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import threading
import time
from functools import partial
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from device.journal import JournalEntry, canonical_json
from device.sync import MAX_BATCH, PROTOCOL_VERSION, entry_json
from drivers.club.store import CollectorStore
from device.table.commands import SyncStatus
from drivers.sync import LaptopError, SyncClient, SyncState, pair_with_laptop, signed_post

__all__ = ["ClubEntries", "Forwarder", "LINK", "STATUS", "LeagueLink", "cursor_name", "link", "pair_with_league"]

log = logging.getLogger(__name__)

LINK = "league"


STATUS = "league_status"
"""The document of how each table's forwarding stands: {device: {"reachable", "detail"}} (the Liga page)."""


PEOPLE_SENT = "league_people_sent"
"""The digest of the members' names the league last acknowledged (:meth:`Forwarder.send_people`)."""

PEOPLE_EVERY = 5.0
"""Seconds between two looks at the members' names (a consent withdrawn reaches the league within them)."""


def cursor_name(device: str) -> str:
    return f"league_acked:{device}"


@dataclass(frozen=True, slots=True)
class LeagueLink:
    url: str
    club: str
    secret: str
    league: str  # the league's name, as it said when pairing


def link(store: CollectorStore) -> LeagueLink | None:
    doc = store.document(LINK)
    if not isinstance(doc, dict) or not doc.get("secret"):
        return None
    return LeagueLink(str(doc["url"]), str(doc["club"]), str(doc["secret"]), str(doc.get("league", "")))


def pair_with_league(store: CollectorStore, url: str, code: str, *, name: str = "") -> LeagueLink:
    """Pair this club's laptop with the league at ``url`` using the code its organiser gave."""
    known = store.document(LINK)
    club = str(known["club"]) if isinstance(known, dict) and known.get("club") else f"club-{secrets.token_hex(6)}"
    state = pair_with_laptop(url, code, club, name=name or club, peer="the league")
    store.set_document(LINK, {"url": state.url, "club": club, "secret": state.secret, "league": state.laptop})
    for table in store.tables():  # a new pairing: the league holds nothing of ours yet, or says so
        store.set_document(cursor_name(table.device), None)
    return LeagueLink(state.url, club, state.secret, state.laptop)


def seated_members(entries: Sequence[JournalEntry]) -> set[str]:
    """The member ids the entries seat (a list opened with them, a player joining)."""
    out: set[str] = set()
    for entry in entries:
        data = entry.event.get("data")
        if not isinstance(data, dict):
            continue
        if entry.event.get("type") == "list_opened" and isinstance(data.get("members"), list):
            out.update(str(m) for m in data["members"] if m)
        elif entry.event.get("type") == "player_joined" and data.get("member"):
            out.add(str(data["member"]))
    return out


class ClubEntries:
    """One table's entries as the club holds them (each list's chain, in seq order)."""

    def __init__(self, store: CollectorStore, device: str) -> None:
        self._store = store
        self._device = device

    def entries_after(self, seq: int, limit: int | None = None) -> list[JournalEntry]:
        return self._store.device_entries(self._device, seq, limit)


class CursorState:
    """The :class:`~drivers.sync.SyncStateFile` of one table's forwarding, kept in the club's store."""

    def __init__(self, store: CollectorStore, device: str) -> None:
        self._store = store
        self._device = device

    def load(self) -> SyncState:
        linked = link(self._store)
        if linked is None:
            return SyncState()
        acked = self._store.document(cursor_name(self._device))
        return SyncState(url=linked.url, secret=linked.secret, laptop=linked.league,
                         acked=int(acked) if isinstance(acked, int) else 0)

    def save(self, state: SyncState) -> None:
        self._store.set_document(cursor_name(self._device), state.acked)


class Forwarder:
    """Forwards every table's entries to the league, one sync client per table, in threads.

    ``meta`` gives the club's word on its lists ({"device/list_id": {"evening", "series",
    "table"}}: the club pages' ``list_meta``), sent beside the entries for the match day.
    ``people(ids)`` the names the league may show for the member ids ``ids`` (None: every member
    on the club's lists; :func:`ui.club.league_people.league_people`): sent with each forward for
    the members its entries seat (so a list never arrives before its players' names), and whole,
    whenever it changes (an erasure, a member's consent withdrawn), to ``/api/v1/people``; both
    outside the signed lists.
    """

    def __init__(self, store: CollectorStore, *, meta: Callable[[], dict[str, Any]] = dict,
                 people: Callable[[set[str] | None], dict[str, Any]] | None = None, poll: float = 1.0,
                 timeout: float = 5.0, backoff: tuple[float, float] = (0.2, 15.0), batch_size: int = MAX_BATCH) -> None:
        self._store = store
        self._meta = meta
        self._people = people
        self._people_next = 0.0  # monotonic time of the next look at the names (every PEOPLE_EVERY s; after a failure later)
        self._poll = poll
        self._options: dict[str, Any] = {"timeout": timeout, "backoff": backoff, "batch_size": batch_size}
        self.clients: dict[str, SyncClient] = {}
        self._linked: LeagueLink | None = None
        self._status_lock = threading.Lock()
        self._seen: dict[str, int] = {}  # each table's held seq at the last round (new entries wake its client)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def body(self, device: str, entries: Sequence[JournalEntry]) -> bytes:
        names = {t.device: t.name for t in self._store.tables()}
        try:
            meta = self._meta()
        except Exception:  # the match day falls back to the league's date; never stop forwarding
            log.exception("league: the lists' meta could not be read")
            meta = {}
        lists = {str(e.event["list_id"]) for e in entries}
        seated = seated_members(entries)
        people = self._people(seated) if self._people is not None and seated else {}
        return canonical_json({
            "v": PROTOCOL_VERSION, "device": device, "name": names.get(device, device),
            "entries": [entry_json(e) for e in entries],
            "lists": {list_id: meta[f"{device}/{list_id}"] for list_id in lists if f"{device}/{list_id}" in meta},
            **({"people": people} if people else {})})

    def round(self) -> None:
        """Start a client for each new table; wake those whose table sent more than the league acked."""
        linked = link(self._store)
        if linked != self._linked:  # paired anew (another league, a new secret): clients start afresh
            self._close_clients()
            self._linked = linked
        if linked is None:
            return
        for table in self._store.tables():
            client = self.clients.get(table.device)
            if client is None:
                client = self.clients[table.device] = SyncClient(
                    ClubEntries(self._store, table.device), CursorState(self._store, table.device),  # type: ignore[arg-type]
                    device=table.device, signer=linked.club, endpoint="forward", make_body=self.body,
                    submit=partial(self._note, table.device), peer="the league", idle_poll=max(self._poll * 10, 5.0), **self._options)
                client.start()
            elif table.held > self._seen.get(table.device, 0) and table.held > client.state.acked:
                client.wake()  # new entries: now, not after the backoff (which stays while the league is away)
            self._seen[table.device] = table.held
        self.send_people(linked)

    def send_people(self, linked: LeagueLink) -> bool:
        """Send the members' league names if they changed since the league last acknowledged them."""
        if self._people is None or time.monotonic() < self._people_next:
            return False
        self._people_next = time.monotonic() + PEOPLE_EVERY
        body = canonical_json({"v": PROTOCOL_VERSION, "people": self._people(None)})
        digest = hashlib.sha256(f"{linked.url} {linked.club} ".encode() + body).hexdigest()
        if self._store.document(PEOPLE_SENT) == digest:
            return False
        try:
            signed_post(linked.url, "people", body, secret=linked.secret, signer=linked.club,
                        timeout=float(self._options["timeout"]), peer="the league")
        except LaptopError as exc:
            log.warning("league: the members' names were not taken: %s", exc)
            self._people_next = time.monotonic() + max(PEOPLE_EVERY, float(self._options["backoff"][1]))
            return False
        self._store.set_document(PEOPLE_SENT, digest)
        return True

    def _note(self, device: str, command: object) -> None:
        """A table's client says how its forwarding stands: kept for the club's Liga page."""
        if not isinstance(command, SyncStatus):
            return
        with self._status_lock:
            status = dict(self._store.document(STATUS) or {})
            status[device] = {"reachable": command.reachable, "detail": command.detail}
            self._store.set_document(STATUS, status)

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="skattisch-league-forward", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.round()
            except Exception:
                log.exception("league forwarding round failed")
            self._stop.wait(self._poll)

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
        self._close_clients()

    def _close_clients(self) -> None:
        for client in self.clients.values():
            client.close()
        self.clients = {}
        self._seen = {}
