"""The next series at the table: released on the laptop, shown on the setup screen with its
seats, opened with one tap — a real collector process, the real sync client, a real Kivy window."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ui.harness import ROOT, run_table

pytestmark = pytest.mark.ui
PLAYERS = ["Dora", "Anna", "Carla", "Bernd"]


def test_the_released_series_opens_with_one_tap(display: str, tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    from drivers.club.app import device_document_name
    from drivers.club.store import SqliteCollectorStore
    from drivers.store import device_id
    from drivers.sync import STATE_FILE, SyncStateFile, pair_with_laptop

    db = tmp_path / "club.sqlite3"
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
        device = device_id(table_dir)
        SyncStateFile(table_dir / STATE_FILE).save(pair_with_laptop(url, code, device, name="Tisch 3"))
        text = "Serie 2 · Tisch 3: Dora (Platz 1), Anna, Carla, Bernd"
        store = SqliteCollectorStore(db)
        store.set_document(device_document_name(device), {"v": 1, "series": 2, "table": 3, "players": PLAYERS,
                                                          "text": text})
        store.close()
        config = f'[store]\npath = "{table_dir}"\n\n[sync]\nurl = "{url}"\ninterval_seconds = 30\n'
        run = run_table(display, [
            "wait_screen setup",
            f'expect_text "{text}"',
            "screenshot next-series-offered",
            "tap open_next_series",
            "wait_screen game",
            'expect_text "Dora"',
            "screenshot next-series-opened",
        ], config=config)
        assert run.returncode == 0, run.stdout + run.stderr
        assert "OpenNextSeries()" in " ".join(run.sent("tap open_next_series"))
    finally:
        laptop.terminate()
        laptop.wait(timeout=15)
