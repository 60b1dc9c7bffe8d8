"""A button's face (``widgets.TButton``: a mesh or cleared parts, ``paint.Fill``) is drawn once
before the frame that shows it, where the layout put the button in the end, not at every place
and size the layout gave it on the way (measured before: the result's first frame drew about 110
faces for its 30 buttons).

The real App in a child process on the test's Xvfb display, on a memory store.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui.harness import run_app_child

pytestmark = pytest.mark.ui

CHILD = r"""
from kivy.graphics import Mesh
from kivy.uix.boxlayout import BoxLayout
from ui.table import paint, shapes
from ui.table.widgets import make_button

drawn = []
show = paint.Fill.show
def counting_show(self, widget, *args, **kwargs):
    drawn.append(getattr(widget, "name", ""))
    return show(self, widget, *args, **kwargs)
paint.Fill.show = counting_show

def started(app):
    screen = app.manager.current_screen
    box = BoxLayout(size_hint=(None, None), size=(300, 50), pos=(10, 100))
    for name in ("one", "two", "three"):
        box.add_widget(make_button(name, name, lambda: None))
    screen.add_widget(box)
    after_next_frame(lambda: laid_out(app, box))

def laid_out(app, box):
    drawn.clear()
    for width in (200, 420, 360):  # moved and resized several times before the next frame
        box.size = (width, 60)
        box.pos = (width / 10, 120.5)
        box.do_layout()
    after_next_frame(lambda: shown(app, box))

def shown(app, box):
    seen["drawn"] = sorted(name for name in drawn if name in ("one", "two", "three"))
    s = app.scale
    meshes = {}
    for button in box.children:
        mesh = [part for part in button._face_fill.group.children if isinstance(part, Mesh)]
        expected, _ = shapes.rounded_mesh(button.x + s * 2, button.y + s * 2, button.width - s * 4,
                                          button.height - s * 4, s * 8)
        meshes[button.name] = len(mesh) == 1 and list(mesh[0].vertices) == expected
    seen["meshes"] = meshes
    app.stop()

store = MemoryEventStore(MemoryDisk(device_id="tisch-test"))
service = TableService(store, device_id=store.device_id)
TableApp(service, simulate=True, on_started=started).run()
json.dump(seen, open(sys.argv[1], "w"))
"""


def test_a_buttons_face_is_drawn_once_where_the_layout_put_it(display: str, tmp_path: Path) -> None:
    seen = run_app_child(CHILD, display, tmp_path)
    assert seen["drawn"] == ["one", "three", "two"]  # once each, though moved three times
    assert seen["meshes"] == {"one": True, "two": True, "three": True}  # at the last place and size
