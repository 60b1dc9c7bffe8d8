"""A Preisskat's Abreizgeld on the table's end screen: the laptop holds the evening's
conditions, its sync answer carries the tiers and the eingepasst fee, and the end of the
series shows each player's lost games and money — a real collector process, the real sync
client, a real Kivy window, at 800×480 and 1280×720. With ``SKATTISCH_DOCS_IMG=1`` the 800×480
picture also goes to docs/img/preisskat/tisch-ende-800x480.png for docs/preisskat.md."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ui.harness import ROOT, run_table
from tests.ui.scenarios import direct_game, setup_steps

pytestmark = pytest.mark.ui
PLAYERS = ["Anna", "Bernd", "Carla", "Dieter"]


@pytest.mark.parametrize("size", ["800x480", "1280x720"])
def test_the_end_screen_shows_each_players_abreizgeld(display: str, tmp_path: Path, size: str) -> None:
    pytest.importorskip("starlette")
    from device.club.money import Abreizgeld, Conditions, Tier
    from drivers.club.store import SqliteCollectorStore
    from drivers.store import device_id
    from drivers.sync import STATE_FILE, SyncStateFile, pair_with_laptop

    db = tmp_path / "club.sqlite3"
    store = SqliteCollectorStore(db)
    store.set_document("evening", {"id": "2026-12-05", "title": "Preisskat"})
    # a low second tier, so that two lost games show it: 0,50 € for the 1st, 1,00 € from the 2nd
    terms = Conditions(abreiz=Abreizgeld((Tier(1, 50), Tier(2, 100))), passed_in_fee=50, passed_in_payer="spieler")
    store.set_money("2026-12-05", "conditions", terms.to_json())
    store.close()
    laptop = subprocess.Popen([sys.executable, "-m", "ui.cli", "club", "serve", "--db", str(db), "--host", "127.0.0.1",
                               "--port", "0", "--no-mdns"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True)
    try:
        assert laptop.stdout is not None
        found = re.search(r"(http://127\.0\.0\.1:\d+)", laptop.stdout.readline())
        assert found, "the collector did not start"
        url = found.group(1)
        code = json.loads(subprocess.run([sys.executable, "-m", "ui.cli", "club", "pair", "--db", str(db), "--json"],
                                         cwd=ROOT, capture_output=True, text=True, check=True).stdout)["code"]
        table_dir = tmp_path / "table"
        SyncStateFile(table_dir / STATE_FILE).save(pair_with_laptop(url, code, device_id(table_dir), name="Tisch 1"))
        config = f'[store]\npath = "{table_dir}"\n\n[sync]\nurl = "{url}"\ninterval_seconds = 30\n'
        steps = setup_steps(PLAYERS, length="length_open") + [
            # Vorhand loses Kreuz mit 1 with 40 Augen: game 1 Bernd, game 3 Dieter, game 4 Anna, game 5
            # Bernd again; game 2 eingepasst (dealer Bernd: Carla, Dieter and Anna in it)
            *direct_game(0, 4, "clubs", 3, 40, 1),
            "wait_screen game", "tap pass", "tap pass", "tap pass",
            *direct_game(2, 4, "clubs", 3, 40, 1),
            *direct_game(3, 4, "clubs", 3, 40, 1),
            *direct_game(4, 4, "clubs", 3, 40, 1),
            "wait_screen game",
            "sleep 1.5",  # the sync answer with the evening's terms (each entry is sent at once)
            "tap list", "tap end_series", "tap end_series_yes",
            "wait_screen end",
            'expect_text "Abreizgeld dieser Serie"',
            # Bernd: two lost games, 0,50 + 1,00, and he dealt the eingepasst game: no fee
            'expect_text "Bernd: 2 verl. 1,50\u00a0€"',
            'expect_text "Anna: 1 verl. 0,50\u00a0€ · 1×\u00a0eingep.\u00a00,50\u00a0€"',
            'expect_text "Carla: 0 verl. 0,00\u00a0€ · 1×\u00a0eingep.\u00a00,50\u00a0€"',
            'expect_text "Dieter: 1 verl. 0,50\u00a0€ · 1×\u00a0eingep.\u00a00,50\u00a0€"',
            f"screenshot end-abreizgeld-{size}",
        ]
        run = run_table(display, steps, size=size, config=config)
        assert run.returncode == 0, run.stdout + run.stderr
        assert run.report[-1]["screen"] == "end"
        if os.environ.get("SKATTISCH_DOCS_IMG") == "1" and size == "800x480":  # docs/preisskat.md shows it
            docs = ROOT / "docs" / "img" / "preisskat"
            docs.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(ROOT / "tests" / "artifacts" / "screens" / size / f"end-abreizgeld-{size}.png",
                            docs / "tisch-ende-800x480.png")
    finally:
        laptop.terminate()
        laptop.wait(timeout=15)
