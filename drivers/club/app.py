"""The collector: the laptop's ASGI app (Starlette) that takes the tables' events.

``create_app(store)`` builds it over any :class:`~drivers.club.store.CollectorStore`;
``routes`` adds more (the dashboard's pages mount here). Every answer of ``/api/`` is JSON;
a refusal is ``{"v": 1, "error": code, "reason": words}`` with its HTTP status, and nothing
of a refused batch is stored. The protocol is documented in the README ("Sync protocol").
"""

from __future__ import annotations

import json
import secrets
import sys
from dataclasses import replace
import time
from collections.abc import Callable, Sequence
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from device.club.roster import Roster
from device.sync import (
    API, H_NONCE, H_TIME, MAX_BODY, MAX_SKEW, PROTOCOL_VERSION, SyncRefused, parse_pair_request, parse_table_batch, request_device,
    verify_request,
)
from drivers.club.store import CollectorStore

__all__ = ["SERVICE", "create_app", "device_document_name"]

SERVICE = "skattisch-club"


def device_document_name(device: str) -> str:
    """The document a table gets with its acks (its next series, part 2), by device."""
    return f"next_series:{device}"


def client_source(request: Request) -> str:
    """Where a pairing try came from (its wrong codes count there): the client's address."""
    return request.client.host if request.client is not None else ""


async def _body(request: Request) -> bytes:
    """The request's body, refused unread past :data:`MAX_BODY`."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise SyncRefused("too_large", f"the request is larger than {MAX_BODY} bytes", 413)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise SyncRefused("too_large", f"the request is larger than {MAX_BODY} bytes", 413)
        chunks.append(chunk)
    return b"".join(chunks)


def create_app(store: CollectorStore, *, routes: Sequence[BaseRoute] = (), clock: Callable[[], float] = time.time,
               name: str = "Skattisch", max_skew: float = MAX_SKEW) -> Starlette:
    """The collector over ``store``; ``routes`` are mounted beside the API (the dashboard)."""
    def refusal(exc: SyncRefused) -> JSONResponse:
        return JSONResponse({**exc.to_json(), "time": clock()}, status_code=exc.status)

    async def signed(request: Request) -> tuple[str, bytes]:
        body = await _body(request)
        device = request_device(request.headers)
        secret = await run_in_threadpool(store.secret, device)
        verify_request(secret, request.method, request.url.path, body, request.headers, now=clock(), max_skew=max_skew)
        # kept (in the store: across restarts) until the request's time is stale twice over, a margin
        # for the laptop's clock being set back
        expires = float(request.headers[H_TIME]) + 2 * max_skew
        if not await run_in_threadpool(store.use_nonce, device, request.headers[H_NONCE], expires=expires, now=clock()):
            raise SyncRefused("replayed", "this request was already received once (a replay)", 401)
        return device, body

    opened: dict[tuple[str, str, int], tuple[str, ...]] = {}  # a list's member ids while it is open, by length

    def ack(device: str, held: int, **extra: Any) -> dict[str, Any]:
        return {
            "v": PROTOCOL_VERSION, "device": device, "acked": held, **extra,
            "resend_from": 1 if store.resend_requested(device) else None,
            "time": clock(), "roster": Roster.from_json(store.document("roster")).table_roster(),
            "next_series": store.document(device_document_name(device)),
            "card_wanted": card_wanted(store, clock()),
            "seated": seated_elsewhere(store, device, opened),
        }

    async def hello(request: Request) -> Response:
        return JSONResponse({"v": PROTOCOL_VERSION, "service": SERVICE, "name": name, "time": clock()})

    async def pair(request: Request) -> Response:
        code, device, table_name = parse_pair_request(await _body(request))
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

    async def api_error(request: Request, exc: Exception) -> Response:
        if isinstance(exc, SyncRefused):
            return refusal(exc)
        if isinstance(exc, HTTPException):
            return JSONResponse({"v": PROTOCOL_VERSION, "error": "not_found" if exc.status_code == 404 else "http",
                                 "reason": str(exc.detail)}, status_code=exc.status_code)
        return JSONResponse({"v": PROTOCOL_VERSION, "error": "internal", "reason": f"the laptop failed: {exc!r}"},
                            status_code=500)

    api = [
        Route(f"{API}/hello", hello, methods=["GET"]),
        Route(f"{API}/pair", pair, methods=["POST"]),
        Route(f"{API}/events", events, methods=["POST"]),
        Route(f"{API}/card", card, methods=["POST"]),
    ]
    app = Starlette(routes=[*api, *routes],
                    exception_handlers={SyncRefused: api_error, ClientDisconnect: _dropped, Exception: api_error,
                                        404: _not_found, 405: _not_found})
    app.state.store = store
    app.state.clock = clock
    app.state.name = name
    return app


async def _dropped(request: Request, exc: Exception) -> Response:
    """A table (or browser) that went away mid-request: one line for the organiser, no traceback.

    Its body was never read to the end, so nothing of it was taken; the table sends it again.
    """
    client = f"{request.client.host}:{request.client.port}" if request.client else "?"
    print(f"skattisch club: Verbindung abgebrochen / connection dropped: {request.method} {request.url.path} "
          f"from {client} before its request was complete (nothing taken)", file=sys.stderr, flush=True)
    return Response(status_code=400)  # nobody reads it: the connection is gone


async def _not_found(request: Request, exc: Exception) -> Response:
    status = getattr(exc, "status_code", 404)
    if request.url.path.startswith("/api/"):
        return JSONResponse({"v": PROTOCOL_VERSION, "error": "not_found" if status == 404 else "bad_method",
                             "reason": f"{request.method} {request.url.path} is not part of the protocol"},
                            status_code=status)
    return Response("Nicht gefunden / not found", status_code=status, media_type="text/plain")


CARD_ASSIGN = "card_assign"
"""The store's document while the organiser assigns a card: {"id", "name", "until"}; then
"card_assigned": {"name", "card", "device", "at"} or {"error", …} for the Spieler page."""


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
