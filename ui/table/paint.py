"""Drawing the table's flat faces and texts with the pixels Kivy draws them with, but cheaper for
a software rasteriser (a Pi under load, Mesa's llvmpipe): a face's middle cleared instead of blended (:class:`Fill`),
a label's texture drawn only over the columns its text reaches (:class:`TightText`). The
widgets in ``widgets.py`` use them; ``tests/ui/test_shapes.py`` compares their pixels with
Kivy's ``RoundedRectangle`` and ``Label``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from kivy.graphics import ClearBuffers, ClearColor, Color, InstructionGroup, Mesh, Rectangle
from kivy.graphics.opengl import glGetIntegerv
from kivy.graphics.scissor_instructions import ScissorPop, ScissorPush
from kivy.uix.widget import Widget

from ui.table import shapes

GL_SAMPLES = 0x80A9
CLEAR_AT_LEAST = 4096  # pixels: a smaller face is drawn as triangles (a clear costs the main thread ~20 µs)


_DUE: dict[Callable[[], None], None] = {}  # drawings made just before the next frame, once each
_HOOKED: list[bool] = []  # _draw_due is bound to the window's on_draw


def before_next_frame(draw: Callable[[], None]) -> None:
    """Call ``draw()`` once just before the next frame is drawn (in the window's ``on_draw``,
    after the clock's layout passes), however often asked until then: a widget's drawing that
    depends on its place and size is made where the layout put it in the end, not at every
    place and size it passed on the way. The window is asked for that frame."""
    if not _DUE:
        from kivy.core.window import Window

        if not _HOOKED:
            Window.fbind("on_draw", _draw_due)  # a bound handler runs before the window draws
            _HOOKED.append(True)
        Window.canvas.ask_update()
    _DUE[draw] = None  # a bound method: equal for the same widget and method


def _draw_due(*_args: Any) -> None:
    while _DUE:
        draw = next(iter(_DUE))
        del _DUE[draw]
        draw()


class Fill:
    """A widget's flat face (a panel, a bar: one opaque colour, a rectangle with or without
    rounded corners) in its ``canvas.before``, drawn with the pixels of Kivy's
    ``RoundedRectangle`` but cheaper to rasterise in software: its axis-aligned middle is
    cleared (``ScissorPush`` + ``ClearBuffers``, a fill that blends nothing and samples no
    texture: about a third of a rectangle's CPU in Mesa's llvmpipe rasteriser, but 15–25 µs
    of the main thread's: Mesa draws it as a quad of its own, with its own state), only the
    corners and the sides between them are triangles (:func:`shapes.rounded_parts`); a face
    whose middle is smaller than :data:`CLEAR_AT_LEAST` pixels is all triangles. Where an edge falls on a pixel centre (the
    rasteriser's tie rule decides) or the colour is not opaque, it is the whole mesh, as
    before.

    A clear is in window coordinates and ignores the canvas's opacity and the stencil: only
    for widgets drawn at full opacity that are not scrolled or animated, whose place in the
    window changes only with their own ``pos``/``size`` (the bars, the play screen's seats:
    the screens do not move, ``NoTransition``)."""

    def __init__(self, canvas: Any) -> None:
        self.group = InstructionGroup()
        canvas.add(self.group)
        self._shape: tuple[Any, ...] = ()
        self._rgba: tuple[float, ...] = ()
        self._colours: list[Any] = []  # the ClearColor and Color instructions

    def show(self, widget: Widget, rgba: Sequence[float], x: float, y: float, w: float, h: float,
             radius: float = 0, *, clears: bool = True) -> None:
        """Fill (``x``, ``y``, ``w``, ``h``) of ``widget``'s coordinates in ``rgba``, with
        corners of ``radius``; ``clears=False``: the whole mesh (a widget that may be scrolled,
        animated or drawn transparent)."""
        offset = widget.to_window(0, 0) if clears else (0, 0)
        shape = (x, y, w, h, radius, offset, clears, rgba[3] < 1)
        if shape == self._shape:  # the same parts: at most another colour (a card chip's at each card)
            if tuple(rgba) != self._rgba:
                self._rgba = tuple(rgba)
                for colour in self._colours:
                    if isinstance(colour, ClearColor):
                        colour.r, colour.g, colour.b, colour.a = rgba
                    else:
                        colour.rgba = rgba
            return
        self._shape, self._rgba = shape, tuple(rgba)
        self.group.clear()
        self._colours = []
        vertices, indices, cleared = self._parts(x, y, w, h, radius, offset, clears and rgba[3] == 1)
        if cleared:
            self._colours.append(ClearColor(*rgba))
            self.group.add(self._colours[-1])
        for px, py, pw, ph in cleared:
            for part in (ScissorPush(x=px, y=py, width=pw, height=ph), ClearBuffers(clear_color=True), ScissorPop()):
                self.group.add(part)
        if vertices:
            self._colours.append(Color(rgba=rgba))
            self.group.add(self._colours[-1])
            self.group.add(Mesh(vertices=vertices, indices=indices, mode="triangles"))

    @staticmethod
    def _parts(x: float, y: float, w: float, h: float, radius: float, offset: tuple[float, float],
               clears: bool) -> tuple[list[float], list[int], list[tuple[int, int, int, int]]]:
        """The mesh's vertices and indices and the boxes cleared (window pixels): the whole
        mesh and no box unless ``clears`` and the middle's edges fall between pixel centres."""
        if clears:
            boxes, vertices, indices = shapes.rounded_parts(x, y, w, h, radius)
            exact = [shapes.pixel_box(bx + offset[0], by + offset[1], bw, bh) for bx, by, bw, bh in boxes]
            cleared = [box for box in exact if box is not None]
            if (boxes and len(cleared) == len(exact) and not _multisampled()
                    and sum(box[2] * box[3] for box in cleared) >= CLEAR_AT_LEAST):
                return vertices, indices, cleared
        vertices, indices = shapes.rounded_mesh(x, y, w, h, radius)
        return vertices, indices, []


@lru_cache(maxsize=1)
def _multisampled() -> bool:
    """Whether the window's framebuffer has several samples a pixel (GL_SAMPLES)."""
    return bool(glGetIntegerv(GL_SAMPLES)[0])


class TightText:
    """A Label drawn only over the columns of its texture that its text's lines reach.

    Kivy draws a label's whole texture, which is as wide as its ``text_size`` (a seat's name:
    244 px for a word of 50; a party's line 477), and a software rasteriser blends every
    transparent texel of it. This draws the texture's region from the first line's start to
    the last line's end (the lines' places as Kivy rendered them, a pixel to spare each side)
    at the place Kivy's ``<Label>`` rule gives the whole texture: the same texels on the same
    pixels, the transparent ones left out."""

    texture: Any
    texture_size: Any
    _label: Any

    def __init__(self, **kwargs: Any) -> None:
        self._text_colour = Color(1, 1, 1, 1)
        self._text_rect = Rectangle(size=(0, 0))
        self._rule_drawing = True  # Kivy's <Label> rule's drawing is still in the canvas
        super().__init__(**kwargs)
        self.canvas.add(self._text_colour)  # type: ignore[attr-defined]
        self.canvas.add(self._text_rect)  # type: ignore[attr-defined]
        for name in ("pos", "size", "texture", "texture_size"):
            self.fbind(name, self._place_text)  # type: ignore[attr-defined]
        self._place_text()

    def _drop_rule_drawing(self) -> None:
        """Take the <Label> rule's colour and whole-texture rectangle out of the canvas (a
        widget made by a kv rule gets its class rules after its constructor)."""
        canvas = self.canvas  # type: ignore[attr-defined]
        mine = (self._text_colour, self._text_rect)
        theirs = [part for part in canvas.children if isinstance(part, (Color, Rectangle)) and part not in mine]
        for part in theirs:
            canvas.remove(part)
        self._rule_drawing = not theirs

    def _place_text(self, *_args: Any) -> None:
        if self._rule_drawing:
            self._drop_rule_drawing()
        texture, rect = self.texture, self._text_rect
        if texture is None:
            rect.texture, rect.size = None, (0, 0)
            return
        width, height = self.texture_size
        x = int((self.x + self.width / 2.0) - width / 2.0)  # type: ignore[attr-defined]  # Kivy's <Label> rule
        y = int((self.y + self.height / 2.0) - height / 2.0)  # type: ignore[attr-defined]
        low, high = self._text_columns(width)
        rect.texture = texture if (low, high) == (0, width) else texture.get_region(low, 0, high - low, height)
        rect.pos, rect.size = (x + low, y), (high - low, height)

    def _text_columns(self, width: int) -> tuple[int, int]:
        """The texture's columns its lines reach: each line's start as Kivy's ``render_lines``
        computes it from the line's width, the halign and the padding (the plain and the markup
        renderer alike; the lines' own ``x`` is set only when the texture is filled, lazily at
        its first draw), to its end, a pixel to spare each side. All of them if unknown."""
        label = self._label
        halign = label.options.get("halign")
        lines = [line.w for line in getattr(label, "_cached_lines", None) or [] if line.w > 0]
        if not lines or halign not in ("left", "center", "right"):
            return 0, width
        padding = label.options["padding"]  # left, top, right, bottom
        pad_left, pad_right = padding[0], padding[2]
        starts = []
        for line_width in lines:
            if halign == "left":
                starts.append(pad_left)
            elif halign == "center":
                starts.append(min(int(width - line_width),
                                  max(int(pad_left), int((width - line_width + pad_left - pad_right) / 2.0))))
            else:
                starts.append(max(0, int(width - line_width - pad_right)))
        low = min(starts)
        high = max(start + line_width for start, line_width in zip(starts, lines))
        return max(0, int(low) - 1), min(width, int(math.ceil(high)) + 1)


def filled(widget: Widget, rgba: Sequence[float]) -> Fill:
    """A :class:`Fill` of ``widget``'s whole rectangle in ``rgba``, following its place."""
    fill = Fill(widget.canvas.before)

    def update(*_args: Any) -> None:
        fill.show(widget, rgba, widget.x, widget.y, widget.width, widget.height)
    for name in ("pos", "size"):
        widget.fbind(name, update)
    update()
    return fill
