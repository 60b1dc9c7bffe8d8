"""The table's screens: the first frame builds only the screen it shows; once the table has
been idle (no command, no screen change) the game's screens are built ahead, one per frame, then
buttons for their button rows, so the first declaration or result at a real table does not wait
for its screen or its buttons (issue 20).

The real App in a child process on the test's Xvfb display, on a memory store.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.ui

ROOT = Path(__file__).resolve().parents[2]

CHILD = r"""
import json, os, sys, time
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
from kivy.config import Config
Config.set("graphics", "width", "800")
Config.set("graphics", "height", "480")
Config.set("kivy", "log_level", "error")
from kivy.clock import Clock
from device.table.service import TableService
from drivers.store import MemoryDisk, MemoryEventStore
from ui.table import app as app_module
from ui.table.app import TableApp
from ui.table import widgets

seen = {}

def built(app):
    return sorted(screen.name for screen in app.manager.screens)

def started(app):
    seen["first_frame"] = built(app)
    seen["current"] = app.manager.current
    seen["spares_first_frame"] = widgets.spare_buttons()
    deadline = time.perf_counter() + 20

    def check(_dt):
        done = all(app.manager.has_screen(n) for n in app_module.PREBUILT_SCREENS) and not widgets.spare_buttons_wanted()
        if done or time.perf_counter() > deadline:
            seen["idle"] = built(app)
            seen["spares_idle"] = widgets.spare_buttons()
            app.stop()
        else:
            Clock.schedule_once(check, 0.1)

    Clock.schedule_once(check, 0.1)

store = MemoryEventStore(MemoryDisk(device_id="tisch-test"))
TableApp(TableService(store, device_id=store.device_id), simulate=True, on_started=started).run()
json.dump({**seen, "prebuilt": list(app_module.PREBUILT_SCREENS), "spares": widgets.SPARE_BUTTONS},
          open(sys.argv[1], "w"))
"""


def test_first_frame_builds_one_screen_and_idle_builds_the_games_screens(display: str, tmp_path: Path) -> None:
    out = tmp_path / "seen.json"
    env = {**os.environ, "DISPLAY": display, "KIVY_HOME": str(tmp_path / "kivy")}
    subprocess.run([sys.executable, "-c", CHILD, str(out)], cwd=ROOT, env=env, check=True, timeout=120,
                   stdout=subprocess.DEVNULL)
    seen = json.loads(out.read_text())
    # the first frame: the setup screen alone (a new table), none of the game's
    assert seen["current"] == "setup"
    assert seen["first_frame"] == ["setup"]
    # idle: every screen a game needs is built, the setup screen kept
    assert set(seen["prebuilt"]) <= set(seen["idle"]), seen["idle"]
    assert "setup" in seen["idle"]
    # then buttons ahead for the screens' buttons (widgets.show_buttons), none before
    assert seen["spares_first_frame"] == 0
    assert seen["spares_idle"] == seen["spares"]
