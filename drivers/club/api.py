"""The protocol's HTTP side, once for both servers that speak it: the club's collector
(:mod:`drivers.club.app`, signed by tables) and the league (:mod:`drivers.league.app`, signed by
clubs' laptops).

:func:`protocol_app` builds the Starlette app around a server's routes with the answers every
request shares: a refusal is ``{"v": 1, "error", "reason", "time"}`` with its HTTP status; a
database that cannot be reached now answers ``503`` with ``Retry-After`` and no detail (the
server's log gets one line, not a traceback per request; the next request after the database
came back is served); a bug answers ``500`` naming no more than the kind of error.
:func:`signed_request` reads and checks a signed request (signature before anything else is
looked up beyond the sender's secret, the nonce kept against replays).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from device.sync import API, H_NONCE, H_TIME, MAX_BODY, MAX_SKEW, PROTOCOL_VERSION, SyncRefused, require_signed, verify_request
from drivers.club.migrations import StoreUnavailable

__all__ = ["RETRY_AFTER", "Outage", "client_source", "hello_route", "protocol_app", "read_body", "signed_request"]

RETRY_AFTER = 10
"""Seconds a client is asked to wait while the database is away (``Retry-After``)."""
LOG_AGAIN_AFTER = 60.0
"""While the database stays away, its line is written again at most this often."""


def client_source(request: Request) -> str:
    """Where a pairing try came from (its wrong codes count there): the client's address."""
    return request.client.host if request.client is not None else ""


async def read_body(request: Request) -> bytes:
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


def hello_route(service: str, name: str, clock: Callable[[], float]) -> Route:
    """``GET /api/v1/hello``: which server this is (a table's discovery, a club's pairing check)."""
    async def hello(request: Request) -> Response:
        return JSONResponse({"v": PROTOCOL_VERSION, "service": service, "name": name, "time": clock()})
    return Route(f"{API}/hello", hello, methods=["GET"])


async def signed_request(request: Request, *, secret_of: Callable[[str], str | None],
                         use_nonce: Callable[..., bool], clock: Callable[[], float],
                         max_skew: float = MAX_SKEW, unknown: Callable[[str], SyncRefused] | None = None
                         ) -> tuple[str, bytes]:
    """The sender and body of a signed request, or :class:`SyncRefused`. A request without the
    signing headers is refused before the sender's secret is looked up; ``unknown`` words the
    refusal of a signed request from a sender without a secret (default: the table's words)."""
    body = await read_body(request)
    sender = require_signed(request.headers)
    secret = await run_in_threadpool(secret_of, sender)
    if secret is None and unknown is not None:
        raise unknown(sender)
    verify_request(secret, request.method, request.url.path, body, request.headers, now=clock(), max_skew=max_skew)
    # kept (in the store: across restarts) until the request's time is stale twice over, a margin
    # for the server's clock being set back
    expires = float(request.headers[H_TIME]) + 2 * max_skew
    if not await run_in_threadpool(use_nonce, sender, request.headers[H_NONCE], expires=expires, now=clock()):
        raise SyncRefused("replayed", "this request was already received once (a replay)", 401)
    return sender, body


@dataclass
class Outage:
    """The database being away, as the server's log tells it: one line when it goes, at most one
    a minute while it stays, one when a request is served again."""

    server: str
    log: Callable[[str], None] = field(default=lambda line: print(line, file=sys.stderr, flush=True))
    clock: Callable[[], float] = time.monotonic
    since: float | None = None
    said: float = 0.0

    def away(self, exc: StoreUnavailable) -> None:
        now = self.clock()
        if self.since is None or now - self.said >= LOG_AGAIN_AFTER:
            self.log(f"{self.server}: Datenbank nicht erreichbar / database unreachable ({exc}): "
                     f"answering 503, retrying with each request")
            self.said = now
        if self.since is None:
            self.since = now

    def back(self) -> None:
        if self.since is not None:
            self.log(f"{self.server}: Datenbank wieder erreichbar / database reachable again "
                     f"after {self.clock() - self.since:.0f} s")
            self.since = None


def protocol_app(routes: Sequence[BaseRoute], *, clock: Callable[[], float], who: str, server: str,
                 outage: Outage | None = None) -> Starlette:
    """The app over ``routes`` with the protocol's answers to refusals and failures; ``who`` words
    a failure for the client ("the laptop", "the league"), ``server`` names the log's lines."""
    watch = outage or Outage(server)

    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, SyncRefused)
        return JSONResponse({**exc.to_json(), "time": clock()}, status_code=exc.status)

    async def unavailable(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StoreUnavailable)
        watch.away(exc)
        headers = {"Retry-After": str(RETRY_AFTER)}
        if request.url.path.startswith("/api/"):
            return JSONResponse({"v": PROTOCOL_VERSION, "error": "unavailable",
                                 "reason": f"{who} cannot take requests just now: try again later",
                                 "time": clock()}, status_code=503, headers=headers)
        return Response("Gerade nicht erreichbar, bitte gleich noch einmal versuchen / "
                        "unavailable just now, please try again shortly", status_code=503, headers=headers,
                        media_type="text/plain")

    async def failed(request: Request, exc: Exception) -> Response:
        if isinstance(exc, HTTPException):
            return JSONResponse({"v": PROTOCOL_VERSION, "error": "not_found" if exc.status_code == 404 else "http",
                                 "reason": str(exc.detail)}, status_code=exc.status_code)
        return JSONResponse({"v": PROTOCOL_VERSION, "error": "internal",
                             "reason": f"{who} failed ({type(exc).__name__}): see its log"}, status_code=500)

    app = Starlette(routes=list(routes), middleware=[Middleware(_Recovery, outage=watch)],
                    exception_handlers={SyncRefused: refused, StoreUnavailable: unavailable, ClientDisconnect: dropped,
                                        Exception: failed, 404: not_found, 405: not_found})
    app.state.clock = clock
    app.state.outage = watch
    return app


class _Recovery:
    """ASGI middleware: the first answer other than 503 after an outage tells :class:`Outage` it is over
    (a pass-through while the database is there)."""

    def __init__(self, app: ASGIApp, outage: Outage) -> None:
        self.app = app
        self.outage = outage

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.outage.since is None:
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] != 503:
                self.outage.back()
            await send(message)

        await self.app(scope, receive, sending)


async def dropped(request: Request, exc: Exception) -> Response:
    """A client (a table, a club, a browser) that went away mid-request: one line, no traceback.

    Its body was never read to the end, so nothing of it was taken; the client sends it again.
    """
    client = f"{request.client.host}:{request.client.port}" if request.client else "?"
    print(f"skattisch: Verbindung abgebrochen / connection dropped: {request.method} {request.url.path} "
          f"from {client} before its request was complete (nothing taken)", file=sys.stderr, flush=True)
    return Response(status_code=400)  # nobody reads it: the connection is gone


async def not_found(request: Request, exc: Exception) -> Response:
    status = getattr(exc, "status_code", 404)
    if request.url.path.startswith("/api/"):
        return JSONResponse({"v": PROTOCOL_VERSION, "error": "not_found" if status == 404 else "bad_method",
                             "reason": f"{request.method} {request.url.path} is not part of the protocol"},
                            status_code=status)
    return Response("Nicht gefunden / not found", status_code=status, media_type="text/plain")
