"""The rounded rectangle as a mesh (ui/table/shapes.py): a proper cutting of Kivy's outline.
(That it fills the same pixels as Kivy's RoundedRectangle is shown by the screenshots of
tests/ui/test_screens.py, which stayed the same pixel for pixel.)"""

from __future__ import annotations

import math
from pathlib import Path

from tests.ui.harness import run_app_child
from ui.table.shapes import f32, pixel_box, pixel_span, rounded_mesh, rounded_parts


def _points(vertices: list[float]) -> list[tuple[float, float]]:
    return [(vertices[i], vertices[i + 1]) for i in range(0, len(vertices), 4)]


def _area(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> float:
    return abs((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])) / 2


def test_the_triangles_cover_the_rounded_rectangle_once() -> None:
    x, y, w, h, r = 10.5, 20.25, 256.0, 202.0, 10.0
    vertices, indices = rounded_mesh(x, y, w, h, r)
    points = _points(vertices)
    assert len(indices) % 3 == 0 and max(indices) == len(points) - 1
    covered = sum(_area(*(points[i] for i in indices[t:t + 3])) for t in range(0, len(indices), 3))
    # the outline's area: the rectangle less four corners, each a square less its 10-segment arc polygon
    arc_polygon = 10 / 2 * r * r * math.sin(math.pi / 2 / 10)
    expected = w * h - 4 * (r * r - arc_polygon)
    assert math.isclose(covered, expected, rel_tol=1e-4), (covered, expected)
    assert all(x <= px <= x + w and y <= py <= y + h for px, py in points)


def test_every_coordinate_is_a_single_precision_float() -> None:
    vertices, _ = rounded_mesh(3.1, 7.7, 123.4, 56.7, 12.0)
    assert all(f32(v) == v for v in vertices)


def test_sharp_corners_are_a_rectangle_and_no_size_is_nothing() -> None:
    vertices, indices = rounded_mesh(0, 0, 40, 30, 0)
    assert sorted(_points(vertices)) == [(0, 0), (0, 30), (40, 0), (40, 30)] and len(indices) == 6
    assert rounded_mesh(5, 5, 0, 30, 8) == ([], [])
    assert rounded_mesh(5, 5, 30, 0, 8) == ([], [])


def _kivy_arc(cx: float, cy: float, rx: float, ry: float, start: float, segments: int) -> list[tuple[float, float]]:
    """Kivy's ``RoundedRectangle.draw_arc`` step for step, one ``f32`` at a time (the reference)."""
    angle_start = f32(f32(start) * 0.017453292519943295)
    angle_end = f32(f32(start - 90) * 0.017453292519943295)
    theta = f32((angle_end - angle_start) / segments)
    tangential, radial = f32(math.tan(theta)), f32(math.cos(theta))
    x, y = f32(math.cos(angle_start)), f32(math.sin(angle_start))
    points = []
    for _ in range(segments):
        points.append((f32(cx + f32(x * rx)), f32(cy + f32(y * ry))))
        fx, fy = -y, x
        x, y = f32(x + f32(fx * tangential)), f32(y + f32(fy * tangential))
        x, y = f32(x * radial), f32(y * radial)
    return points


def _kivy_mesh(x: float, y: float, w: float, h: float, radius: float, segments: int) -> tuple[list[float], list[int]]:
    """The mesh step for step from Kivy's ``RoundedRectangle.build``, one ``f32`` at a time (the
    reference): each corner's centre, arc and closing point, a fan per corner, the edge strips
    and the middle."""
    x, y, w, h = f32(x), f32(y), f32(w), f32(h)
    rx, ry = f32(min(radius, f32(w / 2))), f32(min(radius, f32(h / 2)))
    centres = [(f32(x + rx), f32(f32(y + h) - ry)), (f32(f32(x + w) - rx), f32(f32(y + h) - ry)),
               (f32(f32(x + w) - rx), f32(y + ry)), (f32(x + rx), f32(y + ry))]
    vertices: list[float] = []
    indices: list[int] = []
    ends = []
    for corner, (px, py) in enumerate(centres):
        dw, dh = ((0, 1), (1, 1), (1, 0), (0, 0))[corner]
        points = _kivy_arc(px, py, rx, ry, 180 - 90 * corner, segments)
        points.append((f32(f32(f32(px * (dw != dh)) + f32(x * (dw == dh))) + f32(w * (dw * dh))),
                       f32(f32(f32(py * (dw == dh)) + f32(y * (dw != dh))) + f32(h * (dh > dw)))))
        middle = len(vertices) // 4
        for point in ((px, py), *points):
            vertices.extend((*point, 0.0, 0.0))
        indices.extend(i for a in range(middle + 1, middle + len(points)) for i in (middle, a, a + 1))
        ends.append((middle, middle + 1, middle + len(points)))
    for corner in range(4):
        (middle, _first, closing), (next_middle, next_first, _closing) = ends[corner], ends[(corner + 1) % 4]
        indices.extend((middle, closing, next_first, middle, next_first, next_middle))
    centre = [end[0] for end in ends]
    indices.extend((centre[0], centre[1], centre[2], centre[0], centre[2], centre[3]))
    return vertices, indices


def test_the_mesh_is_kivys_outline_to_the_last_bit() -> None:
    """The mesh computed several values at a time (the result's first frame made 26
    of them) is the step-by-step reference's, bit for bit, at places and sizes of every kind."""
    import random

    rnd = random.Random(26)
    for _ in range(3000):
        x = rnd.choice([rnd.uniform(-20, 1300), float(rnd.randint(0, 1280)), rnd.randint(0, 800) + 0.5])
        y = rnd.choice([rnd.uniform(-20, 720), float(rnd.randint(0, 720))])
        w, h = rnd.choice([rnd.uniform(0.1, 500), float(rnd.randint(1, 500))]), rnd.uniform(0.1, 300)
        r, segments = rnd.choice([8.0, 12.0, 15.0, rnd.uniform(0.1, 80)]), rnd.choice([10, 10, 4, 1])
        assert rounded_mesh(x, y, w, h, r, segments) == _kivy_mesh(x, y, w, h, r, segments), (x, y, w, h, r)


def _triangles(vertices: list[float], indices: list[int]) -> set[tuple[tuple[float, float], ...]]:
    points = _points(vertices)
    return {tuple(points[i] for i in indices[t:t + 3]) for t in range(0, len(indices), 3)}


def test_the_parts_are_the_mesh_corners_and_sides_and_its_middle_column() -> None:
    for x, y, w, h, r in ((8, 152, 256, 202, 10), (10.5, 20.25, 410.67, 303.0, 15.0)):
        boxes, vertices, indices = rounded_parts(x, y, w, h, r)
        whole = _triangles(*rounded_mesh(x, y, w, h, r))
        rest = _triangles(vertices, indices)
        assert rest < whole and len(rest) == 40 + 4  # the very triangles of the four fans and the two sides
        (column,) = boxes
        assert column == (f32(x + r), f32(y), f32(f32(f32(x + w) - r) - f32(x + r)), f32(h))
        assert math.isclose(column[2] * column[3] + sum(_area(*t) for t in rest), sum(_area(*t) for t in whole),
                            rel_tol=1e-6)
    assert rounded_parts(0, 0, 40, 30, 0) == (((0, 0, 40, 30),), [], [])
    assert rounded_parts(5, 5, 0, 30, 8) == ((), [], [])


def test_a_pixel_span_holds_the_pixels_whose_centres_lie_inside() -> None:
    for low in (0.0, 3.2, 7.47, 7.53, 10.99):
        for high in (low + 0.33, low + 1.7, low + 20.05):
            span = pixel_span(low, high)
            assert span is not None
            assert list(range(*span)) == [i for i in range(-1, 40) if low < i + 0.5 < high], (low, high)
    assert pixel_span(7.5, 20) is None and pixel_span(7.0, 20.505) is None  # on a centre: the rasteriser's rule
    assert pixel_box(8, 152.2, 256, 202) == (8, 152, 256, 202)
    assert pixel_box(8, 152.5, 256, 202) is None


FILL_HEADER = r"""
import json, os, sys
os.environ.setdefault("KIVY_NO_ARGS", "1")
from kivy.config import Config
Config.set("graphics", "width", "800")
Config.set("graphics", "height", "480")
Config.set("graphics", "multisamples", "0")  # as the table runs (ui/commands/run.py)
Config.set("kivy", "log_level", "error")
from kivy.clock import Clock
seen = {}
"""
FILL_CHILD = r"""
import hashlib
from kivy.app import App
from kivy.core.window import Window
from kivy.graphics import ClearBuffers, Color, Rectangle, RoundedRectangle
from kivy.graphics.opengl import GL_RGB, GL_UNSIGNED_BYTE, glReadPixels
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.relativelayout import RelativeLayout
from kivy.uix.widget import Widget
from ui.table.paint import Fill

CASES = [(8, 152, 256, 202, 10), (104, 184, 64, 84, 8), (10, 20, 120, 80, 8), (12.0, 9.5, 410.67, 303.33, 15), (0.3, 0.7, 99.4, 60.6, 12),
         (5, 5, 300, 40, 0), (20.5, 30, 100, 50, 8), (40, 60, 120.25, 80.75, 8)]
COLOUR = (0.11, 0.137, 0.169, 1.0)


def pixels():
    Window.on_draw()
    return hashlib.sha1(glReadPixels(0, 0, Window.width, Window.height, GL_RGB, GL_UNSIGNED_BYTE)).hexdigest()


def kivy_pixels(canvas, colour, x, y, w, h, r):
    # what Kivy's own RoundedRectangle (a Rectangle without corners) draws there
    canvas.clear()
    with canvas:
        Color(*colour)
        if r:
            RoundedRectangle(pos=(x, y), size=(w, h), radius=[r])
        else:
            Rectangle(pos=(x, y), size=(w, h))
    return pixels()


class Probe(App):
    def load_kv(self, *_args, **_kwargs):
        return None  # no kv file: the program is a string

    def build(self):
        root = FloatLayout()
        screen = RelativeLayout(size_hint=(None, None), size=(600, 400), pos=(3, 7))  # a translated parent
        self.widget = Widget()
        screen.add_widget(self.widget)
        root.add_widget(screen)
        Clock.schedule_once(self.go, 0.3)
        return root

    def go(self, _dt):
        for x, y, w, h, r in CASES:
            canvas = self.widget.canvas
            kivy_drawn = kivy_pixels(canvas, COLOUR, x, y, w, h, r)
            canvas.clear()
            fill = Fill(canvas)
            fill.show(self.widget, COLOUR, x, y, w, h, r)
            cleared = any(isinstance(part, ClearBuffers) for part in fill.group.children)
            seen[str((x, y, w, h, r))] = [pixels() == kivy_drawn, cleared]
            fill.show(self.widget, (0.5, 0.25, 0.75, 1.0), x, y, w, h, r)  # another colour, the parts kept
            kivy_recoloured = kivy_pixels(canvas, (0.5, 0.25, 0.75, 1.0), x, y, w, h, r)
            canvas.clear()
            canvas.add(fill.group)
            seen[str((x, y, w, h, r))][0] &= pixels() == kivy_recoloured
        json.dump(seen, open(sys.argv[1], "w"))
        self.stop()


Probe().run()
"""


def test_a_fill_draws_the_pixels_of_kivys_rounded_rectangle(display: str, tmp_path: Path) -> None:
    seen = run_app_child(FILL_CHILD, display, tmp_path, header=FILL_HEADER)
    assert seen and all(same for same, _cleared in seen.values()), seen
    cleared = {case for case, (_same, by_clears) in seen.items() if by_clears}
    assert "(8, 152, 256, 202, 10)" in cleared and "(5, 5, 300, 40, 0)" in cleared, seen  # the clears were used
    assert "(104, 184, 64, 84, 8)" not in cleared, seen  # a card chip: too small a middle to clear
    assert "(20.5, 30, 100, 50, 8)" not in cleared, seen  # an edge on pixel centres: the mesh



TEXT_CHILD = r"""
import hashlib
from kivy.app import App
from kivy.core.window import Window
from kivy.graphics.opengl import GL_RGB, GL_UNSIGNED_BYTE, glReadPixels
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label
from ui.table.widgets import TLabel

CASES = [(halign, markup, text) for halign in ("left", "center", "right") for markup in (False, True)
         for text in ("sticht: Carla", "Mittelhand · Alleinspieler", "zwei\nZeilen, die zweite länger")]
STEPS = [(case, kind) for case in CASES for kind in (Label, TLabel)]


def pixels():
    Window.on_draw()
    return hashlib.sha1(glReadPixels(0, 0, Window.width, Window.height, GL_RGB, GL_UNSIGNED_BYTE)).hexdigest()


class Probe(App):
    def load_kv(self, *_args, **_kwargs):
        return None

    def build(self):
        self.layout = FloatLayout()
        self.drawn = []
        Clock.schedule_once(lambda _dt: self.place(0), 0.3)
        return self.layout

    def place(self, n):
        if n == len(STEPS):
            for i, case in enumerate(CASES):
                seen[repr(case)] = self.drawn[2 * i] == self.drawn[2 * i + 1]
            json.dump(seen, open(sys.argv[1], "w"))
            self.stop()
            return
        (halign, markup, text), kind = STEPS[n]
        self.layout.clear_widgets()
        label = kind(text=text, markup=markup, halign=halign, valign="middle", bold=True, font_size=20,
                     size_hint=(None, None), size=(392.5, 60), pos=(100.25, 200), color=(0.2, 0.8, 0.4, 1))
        label.text_size = (label.width, None)
        self.layout.add_widget(label)
        Clock.schedule_once(lambda _dt: self.again(n, label), 0.15)  # laid out, its text rendered

    def again(self, n, label):
        pixels()
        label.text = label.text.replace("a", "e")  # a text of the same size: Kivy fills the same texture again
        Clock.schedule_once(lambda _dt: self.shoot(n), 0.15)

    def shoot(self, n):
        self.drawn.append(pixels())
        self.place(n + 1)


Probe().run()
"""


def test_a_table_label_draws_the_pixels_of_kivys_label(display: str, tmp_path: Path) -> None:
    """Only its text's columns drawn (TightText), plain or marked up, aligned left, centred or
    right, one line or two: what Kivy's Label draws, pixel for pixel."""
    seen = run_app_child(TEXT_CHILD, display, tmp_path, header=FILL_HEADER)
    assert len(seen) == 18 and all(seen.values()), seen


CHIP_CHILD = r"""
import hashlib
from pathlib import Path
from kivy.app import App
from kivy.core.window import Window
from kivy.graphics.opengl import GL_RGB, GL_UNSIGNED_BYTE, glReadPixels
from kivy.lang import Builder
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.floatlayout import FloatLayout
from ui.table import theme, widgets
from ui.table.widgets import CardChip

# one chip, its card changing (a seat's at each card): 9 and 8 give textures of one size (Kivy
# would write the one into the other's), each card after Herz Ass rendered in the same frame
CODES = ["S9", "S8", "S9", "", "CJ", "S8", "S9", "D7", "HA"]


def pixels():
    Window.on_draw()
    return hashlib.sha1(glReadPixels(0, 0, Window.width, Window.height, GL_RGB, GL_UNSIGNED_BYTE)).hexdigest()


class Probe(App):
    scale = NumericProperty(1.0)
    language = StringProperty("de")

    def rank_label(self, rank):
        return theme.RANK_LABEL_DE.get(rank, rank)

    def load_kv(self, *_args, **_kwargs):
        return None

    def build(self):
        Builder.load_file(str(Path(widgets.__file__).with_name("widgets.kv")))
        self.layout = FloatLayout()
        self.kept, self.fresh, self.textures = [], [], {}
        self.chip = self.new_chip("")
        Clock.schedule_once(lambda _dt: self.show(0), 0.3)
        return self.layout

    def new_chip(self, code):
        self.layout.clear_widgets()
        chip = CardChip(code=code, size_hint=(None, None), size=(64, 84), pos=(100, 200))
        self.layout.add_widget(chip)
        return chip

    def show(self, n):
        if n == len(CODES):
            Clock.schedule_once(lambda _dt: self.reference(0), 0.15)
            return
        self.chip.code = "HA"
        self.chip.texture_update()  # a card taken back before its frame: its texture is never drawn then
        self.chip.code = CODES[n]
        Clock.schedule_once(lambda _dt: self.shoot_kept(n), 0.15)

    def shoot_kept(self, n):
        self.kept.append(pixels())
        if CODES[n]:
            self.textures.setdefault(CODES[n], []).append(self.chip.texture)
        self.show(n + 1)

    def reference(self, n):
        if n == len(CODES):
            seen["same"] = self.kept == self.fresh
            seen["reused"] = all(all(t is ts[0] for t in ts) for ts in self.textures.values())
            seen["cards"] = len(self.textures)
            json.dump(seen, open(sys.argv[1], "w"))
            self.stop()
            return
        widgets._chip_texts.clear()  # a chip drawn as without the kept textures
        self.new_chip(CODES[n])
        Clock.schedule_once(lambda _dt: self.shoot_fresh(n), 0.15)

    def shoot_fresh(self, n):
        self.fresh.append(pixels())
        self.reference(n + 1)


Probe().run()
"""


def test_a_card_chip_shown_again_draws_its_kept_text_as_a_new_one(display: str, tmp_path: Path) -> None:
    """A card chip's text is rendered once per card (and size, colour): shown again, the chip
    takes the kept texture, which draws the pixels of a chip made anew for that card."""
    seen = run_app_child(CHIP_CHILD, display, tmp_path, header=FILL_HEADER)
    assert seen == {"same": True, "reused": True, "cards": 5}, seen
