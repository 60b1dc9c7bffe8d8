"""The list draws its cells' texts itself (``listing.drawn_label``, issue 20): each must be the
texture a Kivy ``Label`` of the same properties draws, pixel for pixel: whole texts (drawn
by Kivy's plain renderer), texts cut short and marked-up ones (drawn marked up), left and
right aligned, bold or not, on one line or in a box of the row's height.

The real App in a child process on the test's Xvfb display, on a memory store.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui.harness import run_app_child

pytestmark = pytest.mark.ui

CHILD = r"""
from kivy.uix.label import Label
from ui.table import theme
from ui.table.screens.listing import drawn_label

TEXTS = ("12", "Anna", "Hans-Jürgen", "[b]+24[/b]", "−132", "Kreuz Hand mit 2  [b]K[/b]", "eingepasst",
         "Spielpunkte", "gew. / verl.", "[s]Karo mit 1, Spiel 2 = 18, gewonnen +18[/s]")

def compare(app):
    seen["same"], seen["differ"], seen["shortened"] = 0, [], 0
    for text in TEXTS:
        for width in (28.0, 58.0, 300.0):
            for halign, bold, height in (("right", False, None), ("left", True, None), ("left", False, 26.4)):
                options = dict(font_size=19.8, font_name=theme.LIST_FONT, color=theme.TEXT_DIM, halign=halign,
                               valign="middle", shorten=True, bold=bold)
                if height is not None:
                    options["shorten_from"] = "right"
                label = Label(text=text, markup=True, text_size=(width, height), **options)
                label.texture_update()
                core = drawn_label(text, (width, height), **options)
                seen["shortened"] += bool(label.is_shortened)
                if (label.texture_size, label.texture.pixels) == (list(core.texture.size), core.texture.pixels):
                    seen["same"] += 1
                else:
                    seen["differ"].append([text, width, halign, bold, height])
    seen["again"] = drawn_label("12", (28.0, None), font_size=19.8, font_name=theme.LIST_FONT, color=theme.TEXT,
                                halign="right", valign="middle", shorten=True, bold=False) is drawn_label(
        "12", (28.0, None), font_size=19.8, font_name=theme.LIST_FONT, color=theme.TEXT, halign="right",
        valign="middle", shorten=True, bold=False)
    app.stop()

store = MemoryEventStore(MemoryDisk(device_id="tisch-test"))
TableApp(TableService(store, device_id=store.device_id), simulate=True, on_started=compare).run()
json.dump(seen, open(sys.argv[1], "w"))
"""


def test_the_lists_drawn_texts_are_the_pixels_a_label_draws(display: str, tmp_path: Path) -> None:
    seen = run_app_child(CHILD, display, tmp_path)
    assert seen["differ"] == []
    assert seen["same"] == 90
    assert seen["shortened"] > 10  # texts cut short are among them (drawn by the markup renderer)
    assert seen["again"] is True  # a text with the same properties is drawn once
