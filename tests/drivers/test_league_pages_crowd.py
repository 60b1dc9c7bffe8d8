"""The league's public pages under a crowd: readers asking for the same page at once make it
once (the others take that page), and a request after a change never gets the page from before."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from drivers.league.store import SqliteLeagueStore
from ui.league.pages import LeaguePages


def _request(path: str = "/wertung") -> Request:
    return Request({"type": "http", "method": "GET", "path": path, "query_string": b"tag=2026-12-06", "headers": []})


def test_readers_at_once_make_a_page_once_and_a_change_makes_it_anew(tmp_path: Path) -> None:
    store = SqliteLeagueStore(tmp_path / "league.sqlite3")
    made: list[int] = []
    lock = threading.Lock()

    def page(request: Request) -> Response:
        with lock:
            made.append(store.generation())
        time.sleep(0.3)  # a page that takes a while to make (a match day folding)
        return Response(f"made at {store.generation()}".encode())

    try:
        endpoint: Any = LeaguePages(store).cached(page)

        async def crowd(n: int) -> list[bytes]:
            answers = await asyncio.gather(*(endpoint(_request()) for _ in range(n)))
            return [bytes(a.body) for a in answers]

        first = asyncio.run(crowd(20))
        assert len(made) == 1 and set(first) == {b"made at 0"}  # twenty readers, one page made
        store.touch()  # the data change (a club forwarded)
        second = asyncio.run(crowd(20))
        assert len(made) == 2 and set(second) == {b"made at 1"}  # none got the page from before the change
    finally:
        store.close()
