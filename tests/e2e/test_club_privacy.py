"""Who may read what on the laptop, and one name per person everywhere.

A real collector process (``skattisch club serve`` on 127.0.0.1) over a SQLite store, asked
over real HTTP (no browser needed): the members' page only with the organiser's login; the
public pages (Abend, Liste, Wertung, Saison and their JSON, CSV and PDF) never show the full
name of a member who chose not to be published, however the table spelled it; and a person
typed as "Bernd" at one table and "Bernd Bauer" at another is one line with one name in the
Wertung, its CSV and PDF, and the Saison and its chart.
"""

from __future__ import annotations

import http.client
import json
import re
import shutil
import tempfile
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from device.sync import journal_entries  # noqa: E402
from tests.club_helpers import independent_figures, list_events, random_entries  # noqa: E402
from tests.e2e.sync_helpers import Collector  # noqa: E402
from tests.e2e.test_club_pages import _pdf_text  # noqa: E402

PASSWORD = "vereinsabend"
# as typed at the tables: Carla (who objects to her full name being shown) in full at table 1,
# Bernd short at table 1 and in full at table 2
TABLE_1 = ("Anna Adler", "Bernd", "Carla Christ", "Dieter Dorn")
TABLE_2 = ("Bernd Bauer", "Erik Engel", "Frida Fuchs")
ROSTER = [{"name": "Bernd Bauer", "short": "Bernd", "publish": True},
          {"name": "Carla Christ", "short": "Carla", "publish": False}]
PUBLIC = ("/abend", "/abend.json", "/liste/pi-1/L1", "/liste/pi-1/L1/druck", "/liste/pi-1/L1/csv",
          "/liste/pi-1/L1/pdf", "/wertung", "/wertung.json", "/wertung.csv", "/wertung.pdf", "/saison",
          "/saison.csv", "/saison.pdf", "/abend?fragment=1", "/wertung?fragment=1", "/saison?fragment=1")
ORGANISER_ONLY = ("/spieler", "/serie", "/spieler.csv", "/saison.csv?mitgliedsnummern=ja")


class Laptop:
    def __init__(self, url: str, db: Path) -> None:
        self.url = url
        self.db = db
        parts = urllib.parse.urlsplit(url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80

    def request(self, method: str, path: str, body: str = "", cookie: str = "") -> tuple[int, dict[str, str], bytes]:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=20)
        headers = {"content-type": "application/x-www-form-urlencoded"} if body else {}
        if cookie:
            headers["cookie"] = cookie
        connection.request(method, path, body=body or None, headers=headers)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, data

    def text(self, path: str, cookie: str = "") -> str:
        status, _, data = self.request("GET", path, cookie=cookie)
        assert status == 200, (path, status)
        return _pdf_text(data) if path.endswith("pdf") else data.decode("utf-8-sig")

    def login(self) -> str:
        status, headers, _ = self.request("POST", "/anmelden?weiter=/spieler", f"passwort={PASSWORD}")
        assert status == 303, status
        return headers["set-cookie"].split(";")[0]


def _fill(db: Path) -> dict[str, Any]:
    import random

    from drivers.club.store import SqliteCollectorStore
    from ui.club import auth

    store = SqliteCollectorStore(db)
    rng = random.Random(21)
    lists = {}
    for device, list_id, players, games in (("pi-1", "L1", TABLE_1, 16), ("pi-2", "L2", TABLE_2, 12)):
        store.ensure_device(device, f"Tisch {device[-1]}", now=time.time())
        entries = random_entries(rng, len(players), games)
        store.store_batch(device, journal_entries(list_events(device, list_id, players, entries, closed=False)),
                          now=time.time())
        lists[device] = (players, entries)
    store.set_document("roster", ROSTER)
    store.set_document("organiser", auth.new_secret(PASSWORD))
    store.close()
    return lists


@pytest.fixture(scope="module")
def laptop() -> Iterator[tuple[Laptop, dict[str, Any]]]:
    directory = Path(tempfile.mkdtemp(prefix="skattisch-privacy-"))
    db = directory / "club.sqlite3"
    lists = _fill(db)
    collector = Collector(db)
    try:
        yield Laptop(collector.url, db), lists
    finally:
        collector.stop()
        shutil.rmtree(directory, ignore_errors=True)


def test_the_members_page_needs_the_organisers_login(laptop: tuple[Laptop, dict[str, Any]]) -> None:
    server, _ = laptop
    for path in ORGANISER_ONLY:
        status, headers, body = server.request("GET", path)
        assert status == 303 and headers["location"].startswith("/anmelden"), path
        assert b"Christ" not in body, path
    status, _, _ = server.request("POST", "/spieler", "name=Eve+Engel")
    assert status == 303
    cookie = server.login()
    page = server.text("/spieler", cookie=cookie)
    assert "Carla Christ" in page and "Bernd Bauer" in page and "Eve" not in page


def test_no_public_page_shows_an_unpublished_full_name(laptop: tuple[Laptop, dict[str, Any]]) -> None:
    server, _ = laptop
    for path in PUBLIC:
        text = server.text(path)
        assert "Christ" not in text, path
        assert "Carla" in text, path


def test_one_person_has_one_name_in_the_ranking_its_exports_and_the_season(
        laptop: tuple[Laptop, dict[str, Any]]) -> None:
    server, lists = laptop
    expected: dict[str, list[int]] = {}
    for players, entries in lists.values():  # Bernd's two lists add up to one line
        for name, figures in independent_figures(players, entries).items():
            key = {"Bernd": "Bernd Bauer", "Carla Christ": "Carla"}.get(name, name)
            expected[key] = [a + b for a, b in zip(expected.get(key, [0, 0, 0, 0]), figures, strict=True)]
    total = {line["player"]: [line["leistung"], line["points"], line["won"], line["lost"]]
             for line in json.loads(server.text("/wertung.json"))["total"]}
    assert total == expected
    csv_names = [row.split(",")[1] for row in server.text("/wertung.csv").splitlines()[1:]]
    assert sorted(csv_names) == sorted(expected)
    pdf = server.text("/wertung.pdf")
    assert "Bernd Bauer" in pdf and not re.search(r"Bernd(?! Bauer)", pdf)
    saison_csv = [row.split(",")[1] for row in server.text("/saison.csv").splitlines()[1:]]
    assert sorted(saison_csv) == sorted(expected)
    chart = server.text("/saison").split('class="chart"', 1)[1].split("</svg>", 1)[0]
    labels = re.findall(r'font-size="15">([^<]+?) -?\d+</text>', chart)
    assert sorted(labels) == sorted(expected)


def test_the_tables_get_short_names_and_cards_only(laptop: tuple[Laptop, dict[str, Any]]) -> None:
    """The roster in every ack: no full names, no member numbers (they stay on the laptop)."""
    from device.sync import API, batch_body, sign_request
    from drivers.sync import pair_with_laptop
    from tests.e2e.test_sync_refusals import post

    from drivers.club.app import new_pairing_code
    from drivers.club.store import SqliteCollectorStore

    server, _ = laptop
    store = SqliteCollectorStore(server.db)
    store.set_document("roster", [*ROSTER, {"name": "Otto Ohm", "short": "Otto", "member": "4711",
                                            "card": "04A1B2C3"}])
    pairing = new_pairing_code(store, now=time.time())
    store.close()
    secret = pair_with_laptop(server.url, pairing, "tisch-9", name="Tisch 9").secret
    path = f"{API}/events"
    batch = batch_body("tisch-9", [])
    status, answer = post(server.url, path, batch, sign_request(secret, "tisch-9", "POST", path, batch,
                                                               now=time.time(), nonce="ab" * 16))
    assert status == 200, answer
    sent = json.dumps(answer["roster"], ensure_ascii=False)
    assert "Carla" in sent and "Otto" in sent and "04A1B2C3" in sent
    assert "Christ" not in sent and "Bauer" not in sent and "Ohm" not in sent and "4711" not in sent
