"""Running the league server: uvicorn on a socket bound first (port 0 works), like the club's.

On the internet the league sits behind a reverse proxy on the same machine that terminates
HTTPS (deploy/league/Caddyfile): the proxy's ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are
trusted from 127.0.0.1 alone (:data:`TRUSTED_PROXY`, not uvicorn's environment variable), so
the pages see the client's address and ``https`` (the organiser's cookie is then ``Secure``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from starlette.routing import BaseRoute

from drivers.club.server import bind
from drivers.league.app import create_league_app
from drivers.league.store import LeagueStore

__all__ = ["TRUSTED_PROXY", "serve_league"]

TRUSTED_PROXY = "127.0.0.1"
"""The one address whose forwarded headers count: the reverse proxy on this machine."""


def serve_league(store: LeagueStore, *, host: str, port: int, name: str, routes: Sequence[BaseRoute] = (),
                 ready: Callable[[str], None] = print) -> None:
    """Serve the league until interrupted; ``ready`` gets the URL once it listens."""
    import uvicorn

    sock = bind(host, port)
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
    app = create_league_app(store, routes=routes, name=name)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off", timeout_keep_alive=5,
                            timeout_graceful_shutdown=2, proxy_headers=True, forwarded_allow_ips=TRUSTED_PROXY)
    server = uvicorn.Server(config)
    app.state.shutting_down = lambda: server.should_exit
    ready(f"http://{shown}:{sock.getsockname()[1]}")
    try:
        server.run(sockets=[sock])
    finally:
        store.close()
