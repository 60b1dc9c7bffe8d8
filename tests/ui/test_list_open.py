"""The list's first open builds its rows in view with the garbage collector paused until that
frame is on screen (``ui.table.app.collect_after_drawn``, issue 20): the collector runs again
after the frame, and later opens (the rows kept) do not pause it.

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
import gc, json, os, sys
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
from kivy.config import Config
Config.set("graphics", "width", "800")
Config.set("graphics", "height", "480")
Config.set("kivy", "log_level", "error")
from kivy.clock import Clock
from kivy.core.window import Window
from device.table import commands as cmd
from device.table.service import TableService
from drivers.store import MemoryDisk, MemoryEventStore
from ui.table.app import TableApp

seen = {}

def after_next_frame(then):
    def flipped(*_args):
        Window.unbind(on_flip=flipped)
        Clock.schedule_once(lambda _dt: then(), 0)
    Window.bind(on_flip=flipped)

def started(app):
    seen["collecting_before"] = gc.isenabled()
    app.show_list()
    seen["collecting_while_built"] = gc.isenabled()
    after_next_frame(lambda: first_shown(app))

def first_shown(app):
    seen["screen"] = app.current_screen
    seen["rows"] = sorted(row.name for row in app.screen("list").ids.rows.children)
    seen["collecting_after_frame"] = gc.isenabled()
    app.close_overlay()
    app.show_list()
    seen["collecting_second_open"] = gc.isenabled()
    app.stop()

store = MemoryEventStore(MemoryDisk(device_id="tisch-test"))
service = TableService(store, device_id=store.device_id)
service.handle(cmd.OpenList(("Anna", "Bernd", "Carla"), series_length=None))
for passing in (cmd.Pass(1), cmd.Pass(2), cmd.Pass(0)):
    service.handle(passing)
TableApp(service, simulate=True, on_started=started).run()
json.dump(seen, open(sys.argv[1], "w"))
"""


def test_the_lists_first_open_pauses_the_collector_until_its_frame(display: str, tmp_path: Path) -> None:
    out = tmp_path / "seen.json"
    env = {**os.environ, "DISPLAY": display, "KIVY_HOME": str(tmp_path / "kivy")}
    subprocess.run([sys.executable, "-c", CHILD, str(out)], cwd=ROOT, env=env, check=True, timeout=120,
                   stdout=subprocess.DEVNULL)
    seen = json.loads(out.read_text())
    assert seen["collecting_before"] is True
    assert seen["collecting_while_built"] is False  # paused while the rows are made
    assert seen["screen"] == "list" and seen["rows"] == ["row_1"]  # the frame showed the list's row
    assert seen["collecting_after_frame"] is True  # and on again after it
    assert seen["collecting_second_open"] is True  # the rows are kept: no pause
