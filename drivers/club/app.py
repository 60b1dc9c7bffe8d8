"""The collector: the laptop's ASGI app (Starlette) that takes the tables' events.

``create_app(store)`` builds it over any :class:`~drivers.club.store.CollectorStore`;
``routes`` adds more (the dashboard's pages mount here). Every answer of ``/api/`` is JSON;
a refusal is ``{"v": 1, "error": code, "reason": words}`` with its HTTP status, and nothing
of a refused batch is stored (the answers it shares with the league: :mod:`drivers.club.api`).
The protocol is documented in docs/reference/sync.md, its signing in docs/reference/signing.md.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from device.club.money import Conditions
from device.club.roster import Roster
from device.sync import API, MAX_SKEW, PROTOCOL_VERSION, SyncRefused, parse_pair_request, parse_table_batch
from drivers.club.api import client_source, hello_route, protocol_app, read_body, signed_request
from drivers.club.store import CollectorStore

__all__ = ["SERVICE", "client_source", "create_app", "device_document_name"]

SERVICE = "skattisch-club"


def device_document_name(device: str) -> str:
    """The document a table gets with its acks (its next series, part 2), by device."""
    return f"next_series:{device}"


def create_app(store: CollectorStore, *, routes: Sequence[BaseRoute] = (), clock: Callable[[], float] = time.time,
               name: str = "Skattisch", max_skew: float = MAX_SKEW) -> Starlette:
    """The collector over ``store``; ``routes`` are mounted beside the API (the dashboard)."""
    async def signed(request: Request) -> tuple[str, bytes]:
        return await signed_request(request, secret_of=store.secret, use_nonce=store.use_nonce, clock=clock,
                                    max_skew=max_skew)

    opened: dict[tuple[str, str, int], tuple[str, ...]] = {}  # a list's member ids while it is open, by length

    def ack(device: str, held: int, **extra: Any) -> dict[str, Any]:
        return {
            "v": PROTOCOL_VERSION, "device": device, "acked": held, **extra,
            "resend_from": 1 if store.resend_requested(device) else None,
            "time": clock(), "roster": Roster.from_json(store.document("roster")).table_roster(),
            "next_series": store.document(device_document_name(device)),
            "card_wanted": card_wanted(store, clock()),
            "seated": seated_elsewhere(store, device, opened),
            "money": evening_terms(store),
        }

    async def pair(request: Request) -> Response:
        code, device, table_name = parse_pair_request(await read_body(request))
        secret = secrets.token_hex(32)
        await run_in_threadpool(store.pair, code, device, table_name, secret, now=clock(), source=client_source(request))
        return JSONResponse({"v": PROTOCOL_VERSION, "device": device, "secret": secret, "name": name,
                             "time": clock()})

    async def events(request: Request) -> Response:
        device, body = await signed(request)
        try:
            batch = parse_table_batch(body, device)
            result = await run_in_threadpool(store.store_batch, device, batch.entries, now=clock(),
                                             app_version=batch.app_version)
        except SyncRefused as exc:  # tell the table where to go on from (out of order: resend from there)
            held = await run_in_threadpool(store.held, device)
            return JSONResponse({**exc.to_json(), "acked": held, "time": clock()}, status_code=exc.status)
        answer = await run_in_threadpool(ack, device, result.held, stored=result.stored,
                                         duplicates=result.duplicates)
        return JSONResponse(answer)

    async def card(request: Request) -> Response:
        """A member card read at a table while the organiser assigns a card ("Karte zuordnen")."""
        device, body = await signed(request)
        answer = await run_in_threadpool(assign_card, store, device, body, clock())
        return JSONResponse({"v": PROTOCOL_VERSION, **answer, "time": clock()})

    api = [
        hello_route(SERVICE, name, clock),
        Route(f"{API}/pair", pair, methods=["POST"]),
        Route(f"{API}/events", events, methods=["POST"]),
        Route(f"{API}/card", card, methods=["POST"]),
    ]
    app = protocol_app([*api, *routes], clock=clock, who="the laptop", server="skattisch club")
    app.state.store = store
    app.state.name = name
    return app


CARD_ASSIGN = "card_assign"
"""The store's document while the organiser assigns a card: {"id", "name", "until"}; then
"card_assigned": {"name", "card", "device", "at"} or {"error", …} for the Spieler page."""


def evening_terms(store: CollectorStore) -> dict[str, Any] | None:
    """The Abreizgeld tiers and eingepasst fee of the evening in progress, for the tables' end
    screens (None: no conditions entered for it)."""
    evening = store.document("evening")
    raw = store.money(str(evening["id"]), "conditions") if isinstance(evening, dict) and "id" in evening else None
    return None if raw is None else Conditions.from_json(raw).table_terms().to_json()


def card_wanted(store: CollectorStore, now: float) -> bool:
    """Whether a card is being assigned now (the tables report the next unknown card read)."""
    pending = store.document(CARD_ASSIGN)
    return bool(pending) and float(pending.get("until", 0)) > now


def seated_elsewhere(store: CollectorStore, device: str, cache: dict[tuple[str, str, int], tuple[str, ...]]
                     ) -> dict[str, str]:
    """Member id -> the table's name, for the members on another table's open list (its
    newest list, not yet closed): a card tapped there too is told where its member sits."""
    out: dict[str, str] = {}
    for table in store.tables():
        lists = store.lists(table.device) if table.device != device else []
        if not lists:
            continue
        newest = lists[-1]
        key = (table.device, newest.list_id, newest.count)
        if key not in cache:
            first, last = store.event_at(table.device, newest.first_seq), store.event_at(table.device, newest.last_seq)
            closed = last is None or last.get("type") == "list_closed"
            data = first.get("data", {}) if first is not None and first.get("type") == "list_opened" else {}
            members = data.get("members")
            cache[key] = () if closed or not isinstance(members, list) else tuple(str(m) for m in members if m)
        out.update(dict.fromkeys(cache[key], table.name))
    return out


def assign_card(store: CollectorStore, device: str, body: bytes, now: float) -> dict[str, Any]:
    """Give the card read at ``device`` to the person being assigned one; refused in words."""
    try:
        raw = json.loads(body)
        card = str(raw["card"]).strip().upper()
    except (ValueError, KeyError, TypeError):
        raise SyncRefused("bad_payload", 'a card report is {"v": 1, "device", "card"}', 400) from None
    if not card or len(card) > 64:
        raise SyncRefused("bad_payload", "the card id is empty or longer than 64 characters", 400)
    pending = store.document(CARD_ASSIGN)
    if not card_wanted(store, now):
        raise SyncRefused("no_assignment", "no card is being assigned on the laptop now", 409)
    roster = Roster.from_json(store.document("roster"))
    person = roster.find("", str(pending.get("id", "")))
    holder = roster.by_card(card)
    if person is None:
        raise SyncRefused("no_assignment", "the person to get the card is no longer in the roster", 409)
    if holder is not None and holder is not person:
        store.set_document("card_assigned", {"error": f"Die Karte {card} gehört schon {holder.name}", "at": now})
        raise SyncRefused("card_taken", f"this card is {holder.short}'s", 409)
    changed = roster.put(replace(person, card=card), was=person.name)
    store.set_document("roster", changed.to_json())
    store.set_document(CARD_ASSIGN, None)
    store.set_document("card_assigned", {"name": person.name, "card": card, "device": device, "at": now})
    return {"assigned": person.short, "text": f"Karte gehört jetzt {person.short}"}


def new_pairing_code(store: CollectorStore, *, now: float, valid: float = 600.0) -> str:
    """A fresh six-digit pairing code, valid ``valid`` seconds (10 minutes) and once."""
    code = f"{secrets.randbelow(1_000_000):06d}"
    store.add_pairing_code(code, now + valid)
    return code
