"""The list's first open builds its rows in view with the garbage collector paused until that
frame is on screen (``ui.table.app.collect_after_drawn``): the collector runs again
after the frame, and later opens (the rows kept) do not pause it.

The real App in a child process on the test's Xvfb display, on a memory store.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui.harness import run_app_child

pytestmark = pytest.mark.ui

CHILD = r"""
from device.table import commands as cmd

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
    seen = run_app_child(CHILD, display, tmp_path)
    assert seen["collecting_before"] is True
    assert seen["collecting_while_built"] is False  # paused while the rows are made
    assert seen["screen"] == "list" and seen["rows"] == ["row_1"]  # the frame showed the list's row
    assert seen["collecting_after_frame"] is True  # and on again after it
    assert seen["collecting_second_open"] is True  # the rows are kept: no pause
