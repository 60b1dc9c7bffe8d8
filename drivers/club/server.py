"""Running the collector: uvicorn on a socket we bind ourselves (so port 0 works and the
actual address is known before the first request), plus the mDNS advertisement."""

from __future__ import annotations

import socket
from collections.abc import Callable, Sequence
from typing import Any

from starlette.routing import BaseRoute

from drivers.club.app import create_app
from drivers.club.store import CollectorStore

__all__ = ["bind", "serve"]


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (port 0: any free port)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(512)
    return sock


def serve(store: CollectorStore, *, host: str, port: int, name: str, advertise: bool = True,
          routes: Sequence[BaseRoute] = (), ready: Callable[[str], None] = print,
          mdns_interfaces: Sequence[str] | None = None) -> None:
    """Serve the collector until interrupted; ``ready`` gets the URL once it listens."""
    import uvicorn

    sock = bind(host, port)
    actual = sock.getsockname()[1]
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
    url = f"http://{shown}:{actual}"
    app = create_app(store, routes=routes, name=name)
    # The pages keep event streams open (a projector all evening): Ctrl-C ends them after 2 s.
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off", timeout_keep_alive=5,
                            timeout_graceful_shutdown=2)
    server = uvicorn.Server(config)
    app.state.shutting_down = lambda: server.should_exit  # long-lived streams end themselves on Ctrl-C
    advert: Any = None
    if advertise:
        from drivers.club.mdns import Advertisement

        try:
            advert = Advertisement(name, actual, interfaces=mdns_interfaces)
        except OSError as exc:  # no multicast here: the tables use a configured URL
            ready(f"mDNS: not advertised ({exc})")
    ready(url)
    try:
        server.run(sockets=[sock])
    finally:
        if advert is not None:
            advert.close()
        store.close()
