"""The club pages in process (Starlette's test client over a real SQLite store): the paper
list with a correction, the organiser's password, formula-safe CSV, bad addresses."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from device.sync import journal_entries  # noqa: E402
from device.table.events import (  # noqa: E402
    CorrectionApplied, CorrectionConsented, CorrectionProposed, Event, ListConfirmed,
)
from drivers.club.app import create_app, device_document_name  # noqa: E402
from drivers.club.store import SqliteCollectorStore, open_store  # noqa: E402
from tests.club_helpers import Entry, list_events  # noqa: E402
from ui.club import auth  # noqa: E402
from ui.club.pages import club_routes  # noqa: E402

PLAYERS = ("=HYPERLINK(\"x\")", "Bernd", "Carla")
WON = {"game": "clubs", "bid": 18, "matadors": 1, "declarer_points": 70, "declarer_tricks": 6}
LOST = {"game": "grand", "bid": 18, "matadors": 2, "declarer_points": 40, "declarer_tricks": 3}


def _events() -> list[dict[str, Any]]:
    entries = [Entry(1, WON), Entry(None, None), Entry(0, LOST)]
    events = list_events("pi-1", "L1", PLAYERS, entries, closed=True)
    seq = events[-1]["seq"]
    fixed = {**WON, "seat": 1, "player": "Bernd", "matadors": 2}  # entry 1 was "mit 2", not "mit 1"
    bodies = [CorrectionProposed(1, fixed, 1, 0), CorrectionConsented(1), CorrectionConsented(2), CorrectionApplied(1),
              ListConfirmed(0), ListConfirmed(1)]
    return events + [Event(f"c{i}", seq + 1 + i, "pi-1", "L1", b).to_json() for i, b in enumerate(bodies)]


@pytest.fixture()
def client(store_target: str) -> Any:
    """The pages over a store on SQLite, then on PostgreSQL."""
    store = open_store(store_target)
    store.ensure_device("pi-1", "Tisch 1", now=time.time())
    store.store_batch("pi-1", journal_entries(_events()), now=time.time())
    with TestClient(create_app(store, routes=club_routes(store))) as test_client:
        test_client.store = store  # type: ignore[attr-defined]
        yield test_client
    store.close()


def test_the_list_shows_the_correction_struck_and_who_confirmed(client: Any) -> None:
    page = client.get("/liste/pi-1/L1").text
    assert page.count('class="game struck"') == 1  # the original of entry 1, struck through
    assert "mit 1" in page and "mit 2" in page and "eingepasst" in page
    assert "Bestätigt von 2 von 3" in page and page.count("✓ am Tisch bestätigt") == 2
    head = client.store.lists("pi-1")[0].head
    assert head[:16] in page
    csv = client.get("/liste/pi-1/L1/csv").text
    assert "(1) gestrichen" in csv


def test_csv_cells_never_start_a_formula(client: Any) -> None:
    for path in ("/wertung.csv", "/saison.csv", "/liste/pi-1/L1/csv"):
        text = client.get(path).text.lstrip("\ufeff")
        assert "'=HYPERLINK" in text, path
        assert not any(cell.startswith("=") for line in text.splitlines() for cell in line.split(",")), path


def test_organiser_actions_need_the_password(client: Any) -> None:
    assert client.get("/serie", follow_redirects=False).headers["location"].startswith("/anmelden")
    refused = client.post("/spieler", data={"name": "Eve"}, follow_redirects=False)
    assert refused.status_code == 303 and refused.headers["location"].startswith("/anmelden")
    assert client.store.document("roster") is None
    # no page sets the first password (only `skattisch club password` on the console)
    first = client.post("/anmelden", data={"passwort": "geheim12", "wiederholung": "geheim12"})
    assert first.status_code == 403 and client.store.document("organiser") is None
    client.store.set_document("organiser", auth.new_secret("geheim12"))
    assert client.post("/anmelden", data={"passwort": "falsch"}).status_code == 403
    ok = client.post("/anmelden?weiter=/spieler", data={"passwort": "geheim12"}, follow_redirects=False)
    assert ok.status_code == 303 and ok.headers["location"] == "/spieler"
    client.post("/spieler", data={"name": "Eva Engel", "kurz": "Eva", "veroeffentlichen": "nein"})
    assert [{k: p[k] for k in ("name", "short", "publish")} for p in client.store.document("roster")] == [
        {"name": "Eva Engel", "short": "Eva", "publish": False}]
    client.post("/serie", data={"aktion": "auslosen", "spieler": "A\nB\nC\nD\nE\nF\nG", "art": "zufall", "seed": "3"})
    plan = client.store.document("plan")
    assert sorted(len(t) for t in plan["tables"]) == [3, 4] and not plan["released"]
    five = client.post("/serie", data={"aktion": "auslosen", "spieler": "A\nB\nC\nD\nE", "art": "zufall", "seed": "3"})
    assert "5 Spieler lassen sich nicht" in five.text and client.store.document("plan") == plan
    client.post("/serie", data={"aktion": "freigeben"})
    sent = client.store.document(device_document_name("pi-1"))
    assert sent["players"] == plan["tables"][0] and sent["text"].startswith("Serie 2 · Tisch 1: ")
    client.post("/abmelden")
    assert client.get("/serie", follow_redirects=False).status_code == 303


def test_unknown_lists_and_bad_forms_are_answered_in_words(client: Any) -> None:
    missing = client.get("/liste/pi-9/nope")
    assert missing.status_code == 404 and "nicht bekannt" in missing.text
    assert client.get("/wertung.json").json()["total"][0]["rank"] == 1
    assert client.get("/anmelden?weiter=//evil.example").status_code == 200


def test_names_are_shown_by_the_roster_and_first_names_for_those_who_object(client: Any) -> None:
    client.store.set_document("roster", [{"name": "Bernd Bauer", "short": "Bernd", "publish": True},
                                         {"name": "Carla Christ", "short": "Carla", "publish": False}])
    page = client.get("/wertung").text
    assert "Bernd Bauer" in page and "Carla Christ" not in page and "Carla" in page


def test_a_random_evening_ranks_on_the_page_as_in_device(client: Any) -> None:
    rng = random.Random(4)
    from tests.club_helpers import NAMES, independent_figures, random_entries

    entries = random_entries(rng, 4, 24)
    client.store.ensure_device("pi-2", "Tisch 2", now=time.time())
    client.store.store_batch("pi-2", journal_entries(list_events("pi-2", "L2", NAMES[:4], entries)), now=time.time())
    total = {line["player"]: (line["leistung"], line["points"], line["won"], line["lost"])
             for line in client.get("/wertung.json").json()["total"]}
    for name, figures in independent_figures(NAMES[:4], entries).items():
        assert total[name] == figures


def test_a_tile_turns_amber_then_red_as_the_table_falls_silent(tmp_path: Path) -> None:
    from ui.club.model import Evening

    store = SqliteCollectorStore(tmp_path / "club.sqlite3")
    store.ensure_device("pi-1", "Tisch 1", now=1000.0)
    store.store_batch("pi-1", journal_entries(_events()), now=1000.0)
    now = [1010.0]
    evening = Evening(store, clock=lambda: now[0])
    colours = []
    for t in (1010.0, 1060.0, 1200.0):
        now[0] = t
        (tile,) = evening.tiles()
        colours.append(tile.status)
    assert colours == ["green", "amber", "red"]
    store.close()


def test_ctrl_c_ends_the_laptop_promptly_while_a_projector_listens(tmp_path: Path) -> None:
    """An open event stream (a projector on Abend all evening) must not hold the laptop up."""
    import http.client
    import re
    import signal
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    server = subprocess.Popen([sys.executable, "-m", "ui.cli", "club", "serve", "--db", str(tmp_path / "c.sqlite3"),
                               "--host", "127.0.0.1", "--port", "0", "--no-mdns"], cwd=root,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert server.stdout is not None
    found = re.search(r"http://127\.0\.0\.1:(\d+)", server.stdout.readline())
    assert found, "the collector did not start"
    stream = http.client.HTTPConnection("127.0.0.1", int(found.group(1)), timeout=10)
    stream.request("GET", "/live")
    response = stream.getresponse()
    assert response.status == 200 and response.readline().startswith(b"retry:")
    started = time.monotonic()
    server.send_signal(signal.SIGINT)
    try:
        output, _ = server.communicate(timeout=10)
    finally:
        if server.poll() is None:
            server.kill()
    assert time.monotonic() - started < 5
    assert "Traceback" not in output
    stream.close()


def test_a_restarted_laptop_ranks_the_season_without_folding_it_again(tmp_path: Path) -> None:
    from ui.club.model import Evening

    store = SqliteCollectorStore(tmp_path / "club.sqlite3")
    store.ensure_device("pi-1", "Tisch 1", now=1000.0)
    store.store_batch("pi-1", journal_entries(_events()), now=1000.0)
    before = Evening(store).ranking()

    class Counting:
        """The same store, counting how often a list's events are read."""

        def __init__(self) -> None:
            self.reads = 0

        def __getattr__(self, name: str) -> Any:
            return getattr(store, name)

        def events(self, device: str, list_id: str) -> list[dict[str, Any]]:
            self.reads += 1
            return store.events(device, list_id)

    counting = Counting()
    restarted = Evening(counting)  # type: ignore[arg-type]
    assert restarted.ranking() == before and restarted.season()[0]
    assert counting.reads == 0
    paper = restarted.paper("pi-1", "L1")
    assert paper is not None and counting.reads == 1 and len(paper.rows) == 4
    store.close()
