"""The league while its database is away: a real PostgreSQL server (tests/pg_server.py) stopped and
started again under a running ``skattisch league serve`` process. Every request meanwhile gets
503 with ``Retry-After`` and nothing of the database's address; an unsigned one is refused on
its headers; the league's log has one line, no traceback; the first request after the database
is back is served, and what was sent again is all there."""

from __future__ import annotations

import json
import random
import secrets
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from device.journal import JournalEntry
from device.sync import API, PROTOCOL_VERSION, entry_json, journal_entries, sign_request
from drivers.sync import pair_with_laptop
from tests.club_helpers import NAMES, list_events, random_entries
from tests.e2e.league_helpers import League
from tests.pg_server import PostgresServer, missing_binaries

CLUB = "club-outage01"


@pytest.fixture
def own_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server of this test alone (it is stopped and started under the league)."""
    why = missing_binaries()
    if why:
        pytest.skip(why)
    server = PostgresServer().start()
    try:
        yield server
    finally:
        server.stop()


def _request(url: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
             ) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url + path, data=body, method="POST" if body is not None else "GET",
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            return answer.status, {k.lower(): v for k, v in answer.headers.items()}, answer.read()
    except urllib.error.HTTPError as exc:
        return exc.code, {k.lower(): v for k, v in exc.headers.items()}, exc.read()


def _forward(url: str, secret: str, device: str, entries: list[JournalEntry], *, signed: bool = True
             ) -> tuple[int, dict[str, str], bytes]:
    body = json.dumps({"v": PROTOCOL_VERSION, "device": device, "name": "Tisch 1",
                       "entries": [entry_json(e) for e in entries], "lists": {}}).encode()
    headers = sign_request(secret, CLUB, "POST", f"{API}/forward", body, now=time.time(),
                           nonce=secrets.token_hex(16)) if signed else {}
    return _request(url, f"{API}/forward", body, headers)


def _private(answer: bytes, server: PostgresServer, url: str) -> list[str]:
    """What of the database's address an answer gives away."""
    text = answer.decode(errors="replace")
    database = url.rsplit("/", 1)[1]
    return [part for part in ("postgresql", str(server.port), database, "skattisch@", "StoreError") if part in text]


def test_the_league_answers_503_while_its_database_is_away_and_recovers_by_itself(own_server: PostgresServer) -> None:
    url = own_server.new_database("league")
    league = League(url)
    try:
        state = pair_with_laptop(league.url, league.code("Pik As"), CLUB, name="Pik As", peer="the league")
        device = "tisch-outage"
        entries = journal_entries(list_events(device, f"{device}-l1", NAMES[:4],
                                              random_entries(random.Random(3), 4, 8)))
        status, _, answer = _forward(league.url, state.secret, device, entries[:4])
        assert status == 200 and json.loads(answer)["acked"] == 4, answer

        own_server.pause()
        away: list[tuple[str, int, dict[str, str], bytes]] = []
        for attempt in range(3):
            away.append(("forward", *_forward(league.url, state.secret, device, entries[4:7])))
        away.append(("page", *_request(league.url, "/spieltag")))
        away.append(("json", *_request(league.url, "/wertung.json")))
        for what, status, headers, answer in away:
            assert status == 503, (what, status, answer)
            assert int(headers["retry-after"]) > 0, (what, headers)
            assert not _private(answer, own_server, url), (what, answer)
        assert json.loads(away[0][3])["error"] == "unavailable"
        status, _, answer = _forward(league.url, state.secret, device, entries[4:7], signed=False)
        assert status == 401 and json.loads(answer)["error"] == "unsigned", answer  # refused on its headers alone
        assert not _private(answer, own_server, url)

        own_server.resume()
        status, _, answer = _forward(league.url, state.secret, device, entries[4:])  # the very first one after
        assert status == 200, answer
        assert json.loads(answer)["acked"] == len(entries)
        status, _, _ = _request(league.url, "/spieltag")
        assert status == 200
    finally:
        league.stop()
    log = _stderr(league)
    assert "Traceback" not in log, log
    lines = [line for line in log.splitlines() if "database unreachable" in line]
    assert len(lines) == 1, log  # one line for the outage, not one per request
    assert any("reachable again" in line for line in log.splitlines()), log


def _stderr(league: League) -> str:
    assert league.process is not None and league.process.stderr is not None
    text: Any = league.process.stderr.read()
    return str(text)
