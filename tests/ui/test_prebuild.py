"""The table's screens: the first frame builds only the screen it shows; once the table has
been idle (no command, no screen change) the game's screens are built ahead, one per frame, then
buttons for their button rows, so the first declaration or result at a real table does not wait
for its screen or its buttons (issue 20).

The real App in a child process on the test's Xvfb display, on a memory store.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui.harness import run_app_child

pytestmark = pytest.mark.ui

CHILD = r"""
from ui.table import app as app_module
from ui.table import widgets

def built(app):
    return sorted(screen.name for screen in app.manager.screens)

def started(app):
    seen["first_frame"] = built(app)
    seen["current"] = app.manager.current
    seen["spares_first_frame"] = widgets.spare_buttons()

    def idle():
        seen["idle"] = built(app)
        seen["spares_idle"] = widgets.spare_buttons()
        app.stop()

    when(lambda: all(app.manager.has_screen(n) for n in app_module.PREBUILT_SCREENS)
         and not widgets.spare_buttons_wanted(), idle, within=20, every=0.1)

store = MemoryEventStore(MemoryDisk(device_id="tisch-test"))
TableApp(TableService(store, device_id=store.device_id), simulate=True, on_started=started).run()
json.dump({**seen, "prebuilt": list(app_module.PREBUILT_SCREENS), "spares": widgets.SPARE_BUTTONS},
          open(sys.argv[1], "w"))
"""


def test_first_frame_builds_one_screen_and_idle_builds_the_games_screens(display: str, tmp_path: Path) -> None:
    seen = run_app_child(CHILD, display, tmp_path)
    # the first frame: the setup screen alone (a new table), none of the game's
    assert seen["current"] == "setup"
    assert seen["first_frame"] == ["setup"]
    # idle: every screen a game needs is built, the setup screen kept
    assert set(seen["prebuilt"]) <= set(seen["idle"]), seen["idle"]
    assert "setup" in seen["idle"]
    # then buttons ahead for the screens' buttons (widgets.show_buttons), none before
    assert seen["spares_first_frame"] == 0
    assert seen["spares_idle"] == seen["spares"]
