"""Lists played under Tournee-Skat and Danish Skat on the laptop's pages (a Tournee
list must print correctly): the paper list, its CSV and PDF, with the variants' values and words
(rules/001 "Tournee-Skat", "Dänischer Skat"), the same as ``skattisch score`` gives."""

from __future__ import annotations

import time
from typing import Any

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from device.record import score_record  # noqa: E402
from device.profile import find_profile  # noqa: E402
from device.sync import journal_entries  # noqa: E402
from drivers.club.app import create_app  # noqa: E402
from drivers.club.store import open_store  # noqa: E402
from tests.club_helpers import Entry, list_events  # noqa: E402
from ui.club.pages import club_routes  # noqa: E402

PLAYERS = ("Anna", "Bernd", "Carla")
# rules/001 "Tournee-Skat": the first card shown (Herz 6 · mit 1, Spiel 2 = 12); the second, a
# jack: Grand 12 · mit 1, Spiel 2 = 24, lost and doubled: -48; a Guckser (Grand 16) won.
TOURNEE = [
    Entry(0, {"game": "hearts", "tournee": "first", "turned_card": "HA", "bid": 10, "matadors": 1,
              "declarer_points": 70, "declarer_tricks": 6}),
    Entry(1, {"game": "grand", "tournee": "second", "turned_card": "SJ", "bid": 24, "matadors": 1,
              "declarer_points": 50, "declarer_tricks": 4}),
    Entry(2, {"game": "grand", "guckser": True, "bid": 30, "matadors": 1, "declarer_points": 80,
              "declarer_tricks": 7}),
]
# rules/001 "Dänischer Skat": Grand 20; a lost game's value goes to each defender.
DANISH = [
    Entry(0, {"game": "grand", "bid": 40, "matadors": 1, "declarer_points": 40, "declarer_tricks": 3}),
    Entry(1, {"game": "null", "bid": 23, "declarer_points": 0, "declarer_tricks": 0}),
]


def _score(profile: str, entry: Entry) -> int:
    """What ``skattisch score --profile`` gives for the entry: the independent figure."""
    assert entry.record is not None
    return score_record({"v": 1, **entry.record}, profile=find_profile(profile)).result.score


@pytest.fixture()
def pages(tmp_path: Any) -> Any:
    store = open_store(tmp_path / "club.sqlite3")
    for device, list_id, profile, scoring, entries in (
            ("pi-1", "T1", "tournee", "seeger_fabian", TOURNEE), ("pi-2", "D1", "danish", "danish", DANISH)):
        store.ensure_device(device, f"Tisch {device[-1]}", now=time.time())
        events = list_events(device, list_id, PLAYERS, entries, profile=profile, scoring=scoring)
        store.store_batch(device, journal_entries(events), now=time.time())
    with TestClient(create_app(store, routes=club_routes(store))) as test_client:
        yield test_client
    store.close()


def test_a_tournee_list_prints_its_games_and_values(pages: Any) -> None:
    assert [_score("tournee", e) for e in TOURNEE] == [12, -48, 32]  # the text's figures, by the core
    page = pages.get("/liste/pi-1/T1")
    assert page.status_code == 200, page.text[:300]
    text = page.text
    assert "Herz T<" in text and "Grand T2<" in text and "Guckser<" in text  # as the table's list writes them
    for value in ("12", "−48", "32"):
        assert value in text or value.replace("−", "-") in text, value
    csv = pages.get("/liste/pi-1/T1/csv").text
    assert "-48" in csv and "32" in csv
    pdf = pages.get("/liste/pi-1/T1/pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


def test_a_danish_list_prints_nul_and_the_tournament_scoring(pages: Any) -> None:
    assert [_score("danish", e) for e in DANISH] == [-80, 23]  # Grand 20 · mit 1, Spiel 2, lost doubled
    text = pages.get("/liste/pi-2/D1").text
    assert "Nul<" in text and "Null<" not in text and "Grand" in text
    # the list's own scoring beside the Leistung: each defender of the lost Grand gets its value, 40
    # (Grand 20, mit 1, Spiel 2), as in the text's example (-160 for the declarer, +80 for each defender)
    assert "Dänische Turnierwertung" in text
    csv = pages.get("/liste/pi-2/D1/csv").text
    danish_row = next(line for line in csv.splitlines() if "Dänische Turnierwertung" in line)
    assert danish_row.split(",")[-3:] == ["-80", "63", "40"], danish_row
    assert "Dänische" not in pages.get("/liste/pi-1/T1/csv").text  # a Tournee list keeps Seeger-Fabian alone
    assert pages.get("/liste/pi-2/D1/pdf").content.startswith(b"%PDF")
    ranking = pages.get("/wertung.json").json()
    assert ranking["total"], ranking
