"""The league on the internet: behind a reverse proxy (real processes on 127.0.0.1).

* The organiser's first password cannot be set through any proxy, one that sets
  ``X-Forwarded-For`` (Caddy) or one that passes the bytes alone (a TCP forward): only
  ``skattisch league password`` on the server's console sets (and resets) it.
* HTTPS: Caddy runs ``deploy/league/Caddyfile`` with a certificate for localhost from a test CA;
  it sends HSTS, the organiser's cookie is ``Secure`` and ``HttpOnly`` over HTTPS; a club that
  does not trust the certificate refuses the league in one line, a club that does pairs and
  forwards its table's list over HTTPS.
"""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest

from drivers.league.store import open_league_store
from tests.club_helpers import NAMES, random_entries
from tests.e2e.league_helpers import KnownTable, League, set_password
from tests.e2e.proxy_helpers import CaddyProxy, LocalCA, PlainProxy, make_test_ca, missing_caddy
from tests.e2e.sync_helpers import Collector

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(missing_caddy() is not None, reason=str(missing_caddy()))


class Setup:
    def __init__(self, base: Path, league: League, tls: LocalCA, caddy: CaddyProxy, plain: PlainProxy) -> None:
        self.base, self.league, self.tls, self.caddy, self.plain = base, league, tls, caddy, plain


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Setup]:
    base = tmp_path_factory.mktemp("league-https")
    tls = make_test_ca(base / "ca")
    league = League(base / "league.sqlite3")
    caddy = plain = None
    try:
        caddy = CaddyProxy(league.port, tls, base / "caddy")
        plain = PlainProxy(league.port)
        yield Setup(base, league, tls, caddy, plain)
    finally:
        for proxy in (caddy, plain):
            if proxy is not None:
                proxy.close()
        league.stop()


def request(setup: Setup, url: str, method: str = "GET", path: str = "/", body: dict[str, str] | None = None,
            headers: dict[str, str] | None = None) -> tuple[int, http.client.HTTPMessage, str]:
    """One request, no redirect followed: the status, headers and text."""
    parts = urllib.parse.urlsplit(url)
    connection = (http.client.HTTPSConnection(parts.hostname or "", parts.port, timeout=10,
                                              context=setup.tls.context())
                  if parts.scheme == "https" else http.client.HTTPConnection(parts.hostname or "", parts.port,
                                                                             timeout=10))
    data = urllib.parse.urlencode(body).encode() if body is not None else None
    sent = {**({"Content-Type": "application/x-www-form-urlencoded"} if data is not None else {}), **(headers or {})}
    try:
        connection.request(method, path, body=data, headers=sent)
        answer = connection.getresponse()
        return answer.status, answer.headers, answer.read().decode()
    finally:
        connection.close()


def organiser_document(setup: Setup) -> object:
    store = open_league_store(setup.league.db)
    try:
        return store.events.document("organiser")
    finally:
        store.close()


def test_no_proxy_lets_anyone_set_the_first_password_only_the_console_does(setup: Setup) -> None:
    first = {"passwort": "von-aussen", "wiederholung": "von-aussen"}
    fronts = [(setup.caddy.url, {}), (setup.caddy.url, {"X-Forwarded-For": "127.0.0.1"}),
              (setup.plain.url, {}), (setup.plain.url, {"X-Forwarded-For": "127.0.0.1"})]
    for url, headers in fronts:
        status, _, page = request(setup, url, "GET", "/anmelden")
        assert status == 200 and "skattisch league password" in page and 'name="wiederholung"' not in page, url
        status, _, page = request(setup, url, "POST", "/anmelden", first, headers)
        assert status == 403 and "skattisch league password" in page, (url, headers, status)
        assert organiser_document(setup) is None, (url, headers)
    # the console sets it; the browser logs in with it through the proxy
    told = set_password("league", setup.league.db, "liga-geheim")
    assert "festgelegt" in told
    status, headers, _ = request(setup, setup.caddy.url, "POST", "/anmelden?weiter=/verwaltung",
                                 {"passwort": "liga-geheim"})
    assert status == 303 and headers["location"] == "/verwaltung"
    cookie = headers["set-cookie"].split(";")[0]
    assert request(setup, setup.caddy.url, "GET", "/verwaltung", headers={"Cookie": cookie})[0] == 200
    # a reset on the console: the old password and the old session are void
    assert "neu gesetzt" in set_password("league", setup.league.db, "neues-geheimnis")
    assert request(setup, setup.caddy.url, "GET", "/verwaltung", headers={"Cookie": cookie})[0] == 303
    assert request(setup, setup.caddy.url, "POST", "/anmelden", {"passwort": "liga-geheim"})[0] == 403
    assert request(setup, setup.plain.url, "POST", "/anmelden", {"passwort": "neues-geheimnis"})[0] == 303


def test_the_password_command_refuses_a_short_or_missing_password(setup: Setup) -> None:
    for given, said in (("kurz\n", "at least 6 characters"), ("", "no password on stdin")):
        done = subprocess.run([sys.executable, "-m", "ui.cli", "league", "password", "--db", str(setup.league.db)],
                              cwd=ROOT, input=given, capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and said in done.stderr and "nothing changed" in done.stderr


def test_https_sends_hsts_and_the_organisers_cookie_is_secure(setup: Setup) -> None:
    set_password("league", setup.league.db, "liga-geheim")
    status, headers, page = request(setup, setup.caddy.url, "GET", "/spieltag")
    assert status == 200 and "<html" in page
    assert headers["strict-transport-security"] == "max-age=31536000"
    status, headers, _ = request(setup, setup.caddy.url, "POST", "/anmelden", {"passwort": "liga-geheim"})
    assert status == 303
    flags = [part.strip().lower() for part in headers["set-cookie"].split(";")]
    assert "secure" in flags and "httponly" in flags and "samesite=strict" in flags
    # the proxy's word "https" counts from 127.0.0.1 only: straight to the league over HTTP, no Secure
    status, headers, _ = request(setup, setup.league.url, "POST", "/anmelden", {"passwort": "liga-geheim"})
    assert status == 303 and "secure" not in [p.strip().lower() for p in headers["set-cookie"].split(";")]


def test_a_club_refuses_a_league_whose_certificate_does_not_verify(setup: Setup, monkeypatch: pytest.MonkeyPatch
                                                                   ) -> None:
    other = make_test_ca(setup.base / "other-ca", name="Eine fremde CA")
    monkeypatch.setenv("SSL_CERT_FILE", str(other.ca))  # the club trusts another CA, not the league's
    done = subprocess.run([sys.executable, "-m", "ui.cli", "club", "serve", "--db", str(setup.base / "fremd.sqlite3"),
                           "--host", "127.0.0.1", "--port", "0", "--no-mdns", "--league", setup.caddy.url,
                           "--league-code", setup.league.code("Fremder Verein")],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    assert "not trusted" in lines[0] and "certificate does not verify" in lines[0] and setup.caddy.url in lines[0]
    assert not [c for c in open_league_clubs(setup) if c == "Fremder Verein"]  # the code was never sent


def test_a_club_that_trusts_the_certificate_forwards_over_https(setup: Setup, monkeypatch: pytest.MonkeyPatch,
                                                                tmp_path: Path) -> None:
    import random
    import time

    monkeypatch.setenv("SSL_CERT_FILE", str(setup.tls.ca))
    collector = Collector(tmp_path / "club.sqlite3", extra=(
        "--league", setup.caddy.url, "--league-code", setup.league.code("SC Herz Dame"), "--name", "SC Herz Dame"))
    table = None
    try:
        table = KnownTable(tmp_path / "t1", collector, "Tisch 1", tuple(NAMES[:3]),
                           random_entries(random.Random(3), 3, 6))
        table.client.start()
        deadline = time.monotonic() + 30
        held = 0
        while time.monotonic() < deadline and held < len(table.entries):
            time.sleep(0.2)
            held = _league_held(setup, table.device)
        assert held == len(table.entries), held  # every entry of the table, forwarded over HTTPS
        clubs = json.loads(request(setup, setup.caddy.url, "GET", "/vereine.json")[2])
        assert "SC Herz Dame" in [c["name"] for c in clubs if c["tables"]]
    finally:
        if table is not None:
            table.client.close()
        collector.stop()


def open_league_clubs(setup: Setup) -> list[str]:
    store = open_league_store(setup.league.db)
    try:
        return [c.name for c in store.clubs() if c.paired]
    finally:
        store.close()


def _league_held(setup: Setup, device: str) -> int:
    store = open_league_store(setup.league.db)
    try:
        return store.events.held(device)
    finally:
        store.close()


def _cookie_flags_from(setup: Setup, source: str, headers: dict[str, str]) -> list[str]:
    """The login's cookie flags for a request sent from ``source`` (another loopback address) straight
    to the league, carrying ``headers``."""
    connection = http.client.HTTPConnection("127.0.0.1", setup.league.port, timeout=10, source_address=(source, 0))
    try:
        connection.request("POST", "/anmelden", body=urllib.parse.urlencode({"passwort": "liga-geheim"}),
                           headers={"Content-Type": "application/x-www-form-urlencoded", **headers})
        answer = connection.getresponse()
        answer.read()
        assert answer.status == 303, answer.status
        return [part.strip().lower() for part in answer.headers["set-cookie"].split(";")]
    finally:
        connection.close()


def test_the_proxys_headers_count_from_127_0_0_1_alone(setup: Setup) -> None:
    set_password("league", setup.league.db, "liga-geheim")
    said_https = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.5"}
    assert "secure" in _cookie_flags_from(setup, "127.0.0.1", said_https)  # the proxy's address: taken
    assert "secure" not in _cookie_flags_from(setup, "127.0.0.3", said_https)  # any other: ignored
