"""The list draws its cells' texts itself (``ui.table.drawn_text``): each must be the
texture a Kivy ``Label`` of the same properties draws, pixel for pixel: whole texts (drawn
by Kivy's plain renderer), texts cut short and marked-up ones (drawn marked up), left and
right aligned, bold or not, on one line or in a box of the row's height. A row puts its
plain texts' pixels into one texture: the row must look as if each text were drawn alone.

The real App in a child process on the test's Xvfb display, on a memory store.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui.harness import run_app_child

pytestmark = pytest.mark.ui

ON_STARTED = """
store = MemoryEventStore(MemoryDisk(device_id="tisch-test"))
TableApp(TableService(store, device_id=store.device_id), simulate=True, on_started={}).run()
json.dump(seen, open(sys.argv[1], "w"))
"""  # the child's end: the App on a memory store, the named function called once it is up

CHILD = r"""
from kivy.uix.label import Label
from ui.table import theme
from ui.table.drawn_text import _texts_texture, drawn_label

def texture_of(drawn):  # a text's own texture: its pixels as a label's texture holds them
    if drawn.texture is not None:
        return drawn.texture
    return _texts_texture(*drawn.size, [(drawn.lines, drawn.size, 0, 0)])

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
                drawn = drawn_label(text, (width, height), **options)
                seen["shortened"] += bool(label.is_shortened)
                texture = texture_of(drawn)
                if (label.texture_size, label.texture.pixels) == (list(texture.size), texture.pixels):
                    seen["same"] += 1
                else:
                    seen["differ"].append([text, width, halign, bold, height])
    seen["again"] = drawn_label("12", (28.0, None), font_size=19.8, font_name=theme.LIST_FONT, color=theme.TEXT,
                                halign="right", valign="middle", shorten=True, bold=False) is drawn_label(
        "12", (28.0, None), font_size=19.8, font_name=theme.LIST_FONT, color=theme.TEXT, halign="right",
        valign="middle", shorten=True, bold=False)
    app.stop()

""" + ON_STARTED.format("compare")


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
    # each drawn text's bottom edge and width, by its text
    return {text: [y - row.y, width] for text, _x, y, width, _height in row.placed_texts()}

def draw_rows(app):
    columns = Columns(1.0, 90.0, 90.0, 3)
    struck = ("Kreuz mit 1, Spiel 2 = 24, gewonnen +24", "Pik mit 1, Spiel 2 = 22, gewonnen +22")  # oldest first
    for name, row_line, height in (("plain", line("2", ()), 33), ("corrected", line("2", struck), 99)):
        row = ListRow(size_hint=(None, None), size=(780, height), pos=(10, 50))
        row.show_line(row_line, columns)
        row._draw()
        seen[name] = where(row)
    app.stop()

""" + ON_STARTED.format("draw_rows")


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


TOGETHER = r"""
from kivy.graphics import Fbo, Rectangle
from ui.table import drawn_text
from ui.table.screens.listing import Columns, ListRow
from ui.table.viewmodels import ListCell, ListLine

def pixels(row):
    fbo = Fbo(size=(820, 140))
    fbo.add(row.canvas)
    fbo.draw()
    fbo.remove(row.canvas)
    return fbo.pixels

def one_by_one(self, texts):  # each text drawn alone, as Kivy's labels draw theirs
    for lines, size, x, y in texts:
        self._white_colour()
        self._drawing.add(Rectangle(texture=drawn_text._texts_texture(*size, [(lines, size, 0, 0)]),
                                    size=size, pos=(x, y)))

def compare(app):
    cells = (ListCell("+120", True), ListCell("", False), ListCell("−48", True))
    struck = ("Kreuz mit 1, Spiel 2 = 24, gewonnen +24",)
    rows = [("plain", ListLine("7", "Bernd", "Carla", "Pik", "S", "11", "m1", "2", "−66", -1, cells, (), False, "")),
            ("marks", ListLine("12", "Anna", "Hans-Jürgen", "Grand", "", "24", "o4", "5", "+120", 1, cells, struck,
                               False, "K"))]
    for name, row_line in rows:
        row = ListRow(size_hint=(None, None), size=(780.0, 26.4 * (1 + len(row_line.struck))), pos=(10.4, 20.6),
                      odd=True)
        row.show_line(row_line, Columns(1.1, 80.0, 90.0, 3))
        row._draw()
        textured = [i for i in row._drawing.children if type(i).__name__ == "Rectangle" and i.texture is not None]
        seen[name] = {"texts": len(row.placed_texts()), "textures": len(textured)}
        together = pixels(row)
        original = drawn_text.DrawnCells._draw_together
        drawn_text.DrawnCells._draw_together = one_by_one
        row._draw()
        drawn_text.DrawnCells._draw_together = original
        seen[name]["same"] = together == pixels(row)
        seen[name]["drawn"] = together != pixels(ListRow(size_hint=(None, None), size=(780.0, 26.4), pos=(10.4, 20.6),
                                                         odd=True))
    app.stop()

""" + ON_STARTED.format("compare")


def test_a_row_draws_its_texts_as_one_texture_and_looks_as_if_each_were_drawn_alone(display: str,
                                                                                     tmp_path: Path) -> None:
    seen = run_app_child(TOGETHER, display, tmp_path)
    plain, marks = seen["plain"], seen["marks"]
    assert plain["texts"] >= 11 and plain["textures"] == 1  # every text of a plain row in one texture
    assert marks["textures"] < marks["texts"] // 2  # a marked-up game and a struck entry: drawn on their own
    for row in (plain, marks):
        assert row["drawn"] is True  # there is something to compare: texts over the row's shading
        assert row["same"] is True  # pixel for pixel as each text drawn alone, at a fractional place
