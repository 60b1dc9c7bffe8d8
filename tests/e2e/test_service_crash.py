"""Crash safety of the whole table (issue 3): a table process recording 1,000 games is killed
with SIGKILL at random points and restarted. No confirmed game may be lost, no file may be
unreadable, and the restarted service's state must equal the replay of its stored events."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from device.table import Event, TableService, replay
from drivers.store import TinyDBEventStore, device_id

ROOT = Path(__file__).resolve().parents[2]
GAMES = 1000
KILLS = 12


def start_writer(directory: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "tests.e2e.service_crash_writer", str(directory), str(GAMES)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def confirmed_lines(process: subprocess.Popen[str], stop_after: int | None) -> list[int]:
    """Read ``confirmed N`` lines; after ``stop_after`` of them kill the writer mid-work."""
    assert process.stdout is not None
    confirmed: list[int] = []
    for line in process.stdout:
        if line.startswith("confirmed "):
            confirmed.append(int(line.split()[1]))
            if stop_after is not None and len(confirmed) >= stop_after:
                os.kill(process.pid, signal.SIGKILL)
                break
    process.wait(timeout=120)
    return confirmed


@pytest.mark.slow
def test_a_table_killed_at_random_points_loses_no_confirmed_game(tmp_path: Path) -> None:
    rng = random.Random(20261122)
    directory = tmp_path / "store"
    confirmed: list[int] = []
    for _ in range(KILLS):
        confirmed += confirmed_lines(start_writer(directory), stop_after=rng.randint(1, 120))
    writer = start_writer(directory)
    confirmed += confirmed_lines(writer, stop_after=None)
    assert writer.returncode == 0, writer.stderr.read() if writer.stderr else ""
    assert max(confirmed) == GAMES

    for path in sorted((directory / "lists").glob("*.json")):
        json.loads(path.read_text(encoding="utf-8"))  # every list file is whole JSON
    store = TinyDBEventStore(directory)
    all_events = [e for list_id in store.list_ids() for e in store.load(list_id)]
    recorded = [e for e in all_events if e["type"] == "game_recorded"]
    assert len(recorded) == GAMES  # every confirmed game is stored, none twice
    assert [e["seq"] for e in all_events] == list(range(1, len(all_events) + 1))

    service = TableService(store, device_id=device_id(directory))
    latest = service.list_id
    assert latest is not None
    assert service.state == replay([Event.from_json(d) for d in store.load(latest)])
    store.close()
