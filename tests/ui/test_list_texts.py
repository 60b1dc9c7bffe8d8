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


ROWS = r"""
from ui.table.screens.listing import Columns, ListRow
from ui.table.viewmodels import ListCell, ListLine

def line(number, struck):
    cells = (ListCell("", False), ListCell("", False), ListCell("−48", True))
    return ListLine(number, "Bernd", "Carla", "Kreuz", "C", "12", "m1", "1", "−48", -1, cells, struck, False, "")

def where(row):
    # each drawn text's bottom edge and width, by its text (the instructions are Color, Rectangle pairs)
    rects = [i for i in row._drawing.children if type(i).__name__ == "Rectangle"]
    return {text: [rect.pos[1] - row.y, rect.size[0]] for (text, _core), rect in zip(row._texts, rects[-len(row._texts):])}

def draw_rows(app):
    columns = Columns(1.0, 90.0, 90.0, 3)
    struck = ("Kreuz mit 1, Spiel 2 = 24, gewonnen +24", "Pik mit 1, Spiel 2 = 22, gewonnen +22")  # oldest first
    for name, row_line, height in (("plain", line("2", ()), 33), ("corrected", line("2", struck), 99)):
        row = ListRow(size_hint=(None, None), size=(780, height), pos=(10, 50))
        row.show_line(row_line, columns)
        row._draw()
        seen[name] = where(row)
    app.stop()

store = MemoryEventStore(MemoryDisk(device_id="tisch-test"))
TableApp(TableService(store, device_id=store.device_id), simulate=True, on_started=draw_rows).run()
json.dump(seen, open(sys.argv[1], "w"))
"""


def test_a_corrected_row_shows_its_earlier_entries_above_its_game_not_beside_it(display: str,
                                                                                  tmp_path: Path) -> None:
    seen = run_app_child(ROWS, display, tmp_path)
    plain, corrected = seen["plain"], seen["corrected"]
    older, newer = "[s]Kreuz mit 1, Spiel 2 = 24, gewonnen +24[/s]", "[s]Pik mit 1, Spiel 2 = 22, gewonnen +22[/s]"
    assert set(corrected) == set(plain) | {older, newer}
    for text, (y, width) in plain.items():  # the game's own line: where and as wide as an uncorrected row's
        assert corrected[text] == [y, width], text
    line_y = plain["Carla"][0]
    assert corrected[newer][0] > line_y and corrected[older][0] > corrected[newer][0]  # a line each, oldest on top
    assert corrected[newer][1] > plain["Kreuz"][1]  # as wide as the row leaves from the game's column
