"""The league server's ASGI app (Starlette): clubs pair, then forward their tables' journals.

The same family as the club's collector (:mod:`drivers.club.app`): the same protocol words,
the same signing (:mod:`device.sync`), a refusal is ``{"v": 1, "error", "reason"}`` with its
HTTP status. The difference: the signer is a club's laptop, and each batch it forwards is one
table's entries exactly as the table signed them (``prev``, ``hash``, ``event``), so the league
verifies every list back to its table. Acknowledged per (table, seq): the club keeps a cursor
per table and sends again from there.

    POST /api/v1/pair     {"v": 1, "code", "device": club id, "name"} -> {"secret", "club": name}
    POST /api/v1/forward  signed by the club: {"v": 1, "device": table, "name": table name,
                          "entries": [...], "lists": {list_id: {"evening", "series", "table"}}}
                          -> {"acked": the table's highest contiguous seq held, ...}
    POST /api/v1/people   signed by the club: {"v": 1, "people": {member id: {"person", "name"}}}
                          -> {"people": how many, "changed"} (drivers.league.people)
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable, Sequence
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from device.sync import API, MAX_SKEW, PROTOCOL_VERSION, SyncRefused, check_device_id, parse_batch, parse_pair_request
from drivers.club.api import client_source, hello_route, protocol_app, read_body, signed_request
from drivers.league.people import parse_people, people_map
from drivers.league.store import LeagueStore, ListMeta

__all__ = ["SERVICE", "create_league_app", "new_club_code", "nonce_key"]

SERVICE = "skattisch-league"


def nonce_key(club: str) -> str:
    """Whose nonces (the collector store's nonce table keys them by sender)."""
    return f"club:{club}"


def new_club_code(store: LeagueStore, name: str, *, now: float, valid: float = 600.0) -> str:
    """A fresh six-digit code for the club ``name``, valid ``valid`` seconds (10 minutes) and once."""
    name = name.strip()
    if not name or len(name) > 100:
        raise SyncRefused("bad_name", "a club's name is 1 to 100 characters")
    code = f"{secrets.randbelow(1_000_000):06d}"
    store.add_club_code(code, name, now + valid)
    return code


def _forwarded(body: bytes) -> tuple[str, str, dict[str, Any], dict[str, tuple[str, str | None]]]:
    """The table a forward is about, its name, what the club says about its lists and the names
    the league may show for the members its entries seat."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise SyncRefused("bad_json", "the request's body is not JSON") from None
    if not isinstance(data, dict):
        raise SyncRefused("bad_payload", "the request's body must be a JSON object")
    device = check_device_id(data.get("device"))
    name, lists = data.get("name", device), data.get("lists", {})
    if not isinstance(name, str) or len(name) > 100:
        raise SyncRefused("bad_payload", "the table's name must be text of at most 100 characters")
    if not isinstance(lists, dict) or not all(isinstance(v, dict) for v in lists.values()):
        raise SyncRefused("bad_payload", "lists must map a list id to what the club says about it")
    return device, name or device, lists, people_map(data.get("people", {}))


def _meta(club: str, value: dict[str, Any]) -> ListMeta:
    """What the club says of a list, each field taken only in its allowed form."""
    evening, series, table = value.get("evening"), value.get("series"), value.get("table")
    return ListMeta(club, evening[:40] if isinstance(evening, str) else "",
                    series if isinstance(series, int) and 0 < series < 100 else 0,
                    table if isinstance(table, int) and 0 <= table < 1000 else 0)


def create_league_app(store: LeagueStore, *, routes: Sequence[BaseRoute] = (), clock: Callable[[], float] = time.time,
                      name: str = "Skattisch Liga", max_skew: float = MAX_SKEW) -> Starlette:
    """The league server over ``store``; ``routes`` (the league's pages) beside the API."""
    events = store.events

    def not_paired(club: str) -> SyncRefused:
        return SyncRefused("not_paired", f"the club {club} is not paired with this league: pair it again", 401)

    def use_nonce(club: str, nonce: str, *, expires: float, now: float) -> bool:
        return events.use_nonce(nonce_key(club), nonce, expires=expires, now=now)

    async def signed(request: Request) -> tuple[str, bytes]:
        return await signed_request(request, secret_of=store.club_secret, use_nonce=use_nonce, clock=clock,
                                    max_skew=max_skew, unknown=not_paired)

    async def pair(request: Request) -> Response:
        code, club, _ = parse_pair_request(await read_body(request))
        secret = secrets.token_hex(32)
        club_name = await run_in_threadpool(store.pair_club, code, club, secret, now=clock(),
                                            source=client_source(request))
        return JSONResponse({"v": PROTOCOL_VERSION, "device": club, "club": club_name, "secret": secret,
                             "name": name, "time": clock()})

    def take(club: str, body: bytes) -> dict[str, Any]:
        device, table_name, lists, people = _forwarded(body)
        entries = parse_batch(body, device)
        if people:  # before the lists: the pages never show a member of them without the club's word
            store.add_people(club, people)
        listed = {str(e.event["list_id"]) for e in entries}
        try:
            result = store.forward(club, device, table_name, entries, now=clock(),
                                   metas={i: _meta(club, lists.get(i, {})) for i in listed})
        except SyncRefused as exc:
            held = events.held(device) if store.club_of(device) == club else 0
            return {**exc.to_json(), "status": exc.status, "acked": held}
        return {"v": PROTOCOL_VERSION, "club": club, "device": device, "acked": result.held,
                "stored": result.stored, "duplicates": result.duplicates}

    async def forward(request: Request) -> Response:
        club, body = await signed(request)
        answer = await run_in_threadpool(take, club, body)
        status = int(answer.pop("status", 200))
        return JSONResponse({**answer, "time": clock()}, status_code=status)

    async def people(request: Request) -> Response:
        """The names the club lets the league show for its members (:mod:`drivers.league.people`)."""
        club, body = await signed(request)
        taken = parse_people(body)
        changed = await run_in_threadpool(store.keep_people, club, taken)
        return JSONResponse({"v": PROTOCOL_VERSION, "club": club, "people": len(taken), "changed": changed,
                             "time": clock()})

    api = [
        hello_route(SERVICE, name, clock),
        Route(f"{API}/pair", pair, methods=["POST"]),
        Route(f"{API}/forward", forward, methods=["POST"]),
        Route(f"{API}/people", people, methods=["POST"]),
    ]
    app = protocol_app([*api, *routes], clock=clock, who="the league", server="skattisch league")
    app.state.store = store
    app.state.name = name
    return app
