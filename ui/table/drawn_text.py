"""Texts drawn as Kivy's :class:`~kivy.uix.label.Label` draws them, without a Label: the list's
rows, header and footer. :func:`drawn_label` lays a text out and renders it as a
Label of the same properties would (the same pixels), once per distinct text;
:class:`DrawnCells` places texts as a box of labels would and puts their pixels together into
one texture, drawn at once. (A Label per cell, about 140 for the rows in view, and later a
texture per text, each cost the list's frame more than rendering its texts did.)"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.core.text.markup import MarkupLabel as CoreMarkupLabel
from kivy.graphics import Color, InstructionGroup, Rectangle
from kivy.graphics.texture import Texture
from kivy.uix.label import Label
from kivy.uix.widget import Widget
from kivy.utils import get_hex_from_color

from ui.table import theme


def _centred(x: float, y: float, width: float, height: float, texture_w: int, texture_h: int) -> tuple[int, int]:
    """Where Kivy's ``<Label>`` rule puts a label's texture: ``int(self.center_x - …)``, the
    centre computed as Kivy's ``center_x`` computes it."""
    return int(x + width / 2.0 - texture_w / 2.0), int(y + height / 2.0 - texture_h / 2.0)


_LABEL_DEFAULTS: dict[str, Any] = {}
_LIST_DEFAULTS: list[str] = []  # those of them that are lists
TEXTS_KEPT = 200  # distinct texts kept drawn per turn (twice that at most: a few MiB of pixels)


class _Kept:
    """What was made for the texts drawn lately, in two turns: those drawn since the last
    :meth:`turn` and those before it, which are dropped at the next turn unless drawn again
    (then they move over). The list turns at each open: it keeps the texts of its last two
    opens, not every text an evening drew (a row's, a score's that is no longer shown: the
    memory grew game by game until the cap); a turn comes too when one holds ``limit``."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.now: dict[Any, Any] = {}
        self.before: dict[Any, Any] = {}

    def get(self, key: Any) -> Any:
        found = self.now.get(key)
        if found is None and key in self.before:
            found = self.now[key] = self.before.pop(key)
        return found

    def put(self, key: Any, value: Any) -> None:
        if len(self.now) >= self.limit:
            self.turn()
        self.now[key] = value

    def turn(self) -> None:
        self.before, self.now = self.now, {}

    def clear(self) -> None:
        self.now.clear()
        self.before.clear()

    def __len__(self) -> int:
        return len(self.now) + len(self.before)


_TEXTS = _Kept(TEXTS_KEPT)  # (text, options) → the text as drawn


@dataclass(frozen=True, slots=True)
class DrawnText:
    """A text as a Kivy :class:`~kivy.uix.label.Label` draws it: its core label (how it was laid
    out), its size, and its pixels (``lines``: each line's RGBA bytes, the top one first) or,
    drawn marked up, its own texture. Pixels are put into one texture with the other texts of
    their widget (:meth:`DrawnCells._draw_texts`); neither: nothing to draw (a blank)."""

    core: Any
    size: tuple[int, int]
    lines: tuple[bytes, ...] | None = None
    texture: Any = None


def _hashable(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def drawn_label(text: str, text_size: tuple[float | None, float | None], *, markup: bool = True,
                **options: Any) -> DrawnText | None:
    """``text`` as a Kivy :class:`~kivy.uix.label.Label` with these properties draws it
    (``None``: no text, nothing drawn), the same pixels: made with the options a Label passes
    to its core label, the colour wrapped round a marked-up text as the Label wraps it. Drawn
    once per distinct text and options."""
    if not text:
        return None
    key = (text, *text_size, markup, *options.items())  # the callers name the options in one order each
    if any(type(value) is list for value in options.values()):
        key = (text, *text_size, markup, *((name, _hashable(v)) for name, v in options.items()))
    drawn: DrawnText | None = _TEXTS.get(key)
    if drawn is None:
        drawn = _render(text, text_size, markup, options)
        _TEXTS.put(key, drawn)
    return drawn


def _render(text: str, text_size: tuple[float | None, float | None], markup: bool, options: dict[str, Any]
            ) -> DrawnText:
    """What :meth:`kivy.uix.label.Label.texture_update` does for a label of these properties.
    A marked-up label's text without markup that fits whole is drawn by Kivy's plain text
    renderer, 3 to 5 times faster and the same pixels (checked over the list's texts, fonts,
    widths and colours: only texts cut short differ, and those are drawn marked up)."""
    if not _LABEL_DEFAULTS:
        proto = Label()
        _LABEL_DEFAULTS.update({name: getattr(proto, name) for name in Label._font_properties})
        _LIST_DEFAULTS.extend(name for name, value in _LABEL_DEFAULTS.items() if isinstance(value, list))
    settings = dict(_LABEL_DEFAULTS)
    for name in _LIST_DEFAULTS:  # a list of its own for each label, as each Label has
        settings[name] = list(settings[name])
    settings.update(options, text=text, text_size=list(text_size), markup=markup)
    settings["usersize"] = settings["text_size"]
    plain = _plain_text(text, settings) if markup else (text, settings["bold"])
    if plain is not None:
        core = _MeasuredLabel(**{**settings, "text": plain[0], "bold": plain[1]})
        drawn = _plain_pixels(core)
        if not (markup and core.is_shortened):
            return drawn
    core = CoreMarkupLabel(**settings)
    core.text = f"[color={get_hex_from_color(settings['color'])}]{text}[/color]"
    core.refresh()
    if core.texture:
        core.texture.bind()
    return DrawnText(core, tuple(core.texture.size) if core.texture else (0, 0), texture=core.texture)


_EXTENTS: dict[str, dict[str, tuple[int, int]]] = {}  # font → text → its width and height


class _MeasuredLabel(CoreLabel):  # type: ignore[misc, valid-type]
    """Kivy's core label, measuring a text in a font once: laying out and cutting short a
    text measures it and its parts several times, and the list's texts share their fonts."""

    _sizes: dict[str, tuple[int, int]] | None = None

    def get_extents(self, text: str) -> tuple[int, int]:
        sizes = self._sizes
        if sizes is None:  # the font is settled (resolve_font_name) before the first measure
            font = getattr(self, "_get_font_id", None)  # SDL2's (the table's) names its fonts
            sizes = self._sizes = _EXTENTS.setdefault(font(), {}) if font is not None else {}
        size = sizes.get(text)
        if size is None:
            size = sizes[text] = super().get_extents(text)
        return size


class _Pixels:
    """Stands in for a core label's texture: keeps what Kivy's renderer would blit into it."""

    data: Any = None

    def blit_data(self, data: Any) -> None:
        self.data = data


def _plain_pixels(core: Any) -> DrawnText:
    """Kivy's two passes of :meth:`~kivy.core.text.LabelBase.refresh` (lay the text out, then
    render it), the second into bytes rather than a texture of its own."""
    core.resolve_font_name()
    size = core._size_texture = core._size = core.render()
    if size[0] <= 1 or size[1] <= 1:  # Kivy shows its transparent 1-pixel texture
        return DrawnText(core, size)
    caught = _Pixels()
    core.texture = caught
    try:
        core._render_real()
    finally:
        core.texture = None
    data = caught.data  # None: 1 pixel wide, which Kivy does not blit
    if data is None:
        return DrawnText(core, size)
    line = data.width * 4
    pixels = data.data
    lines = tuple([pixels[at:at + line] for at in range(0, line * data.height, line)])
    return DrawnText(core, (data.width, data.height), lines=lines)


_MARKUP_SIGNS = frozenset("[]&")  # a tag or an escaped sign: Kivy's markup renderer reads it


def _plain_text(text: str, settings: dict[str, Any]) -> tuple[str, bool] | None:
    """The text and boldness a marked-up text cut short if need be draws with Kivy's plain
    renderer: a text without markup as it is, one all in ``[b]`` (a score) as its words in
    bold; None for any other markup (or a text not cut short: wrapped lines may differ)."""
    if not settings["shorten"]:
        return None
    if not _MARKUP_SIGNS.intersection(text):
        return text, settings["bold"]
    if text.startswith("[b]") and text.endswith("[/b]") and not _MARKUP_SIGNS.intersection(text[3:-4]):
        return text[3:-4], True
    return None


def box_places(x: float, width: float, spacing: float, widths: list[float | None],
               padding: tuple[float, float] = (0, 0)) -> list[tuple[float, float]]:
    """Each child's x and width in a horizontal :class:`~kivy.uix.boxlayout.BoxLayout` at
    ``x`` of ``width`` (``padding``: left, right), computed as Kivy's ``_iterate_layout`` does
    (the same float operations in the same order, so the same pixels): ``None`` widths
    (``size_hint_x`` 1) share what the fixed ones leave."""
    left, right = padding
    minimum = left + right + spacing * (len(widths) - 1)
    stretch_sum = 0.
    for fixed in reversed(widths):  # Kivy sums over its children, the last added first
        if fixed is None:
            stretch_sum += 1
        else:
            minimum += fixed
    stretch_space = max(0.0, width - minimum)
    placed = []
    at = left + x
    for fixed in widths:
        w = max(0., stretch_space * 1 / stretch_sum) if fixed is None else fixed
        placed.append((at, w))
        at += w + spacing
    return placed


@dataclass(frozen=True, slots=True)
class CellText:
    """A cell of a drawn line, as a label of the list's font would show it: its text (markup), its
    width (``None``: what the line leaves), alignment, colour, boldness, font size (0: the
    line's) and whether it is cut short."""

    text: str
    width: float | None
    halign: str = "right"
    colour: Any = theme.TEXT
    bold: bool = False
    font_size: float = 0
    shorten: bool = True


def _texts_texture(width: int, height: int, texts: list[tuple[tuple[bytes, ...], tuple[int, int], int, int]]) -> Any:
    """A ``width`` × ``height`` texture of transparent pixels with each text's pixels (its lines'
    RGBA bytes, the top one first; its width and height) at its place (x, y from the bottom
    left), oriented as a label's texture."""
    stride = width * 4
    image = bytearray(stride * height)
    for lines, (text_w, text_h), x, y in texts:
        line = text_w * 4
        at = (height - y - text_h) * stride + x * 4
        for pixels in lines:
            image[at:at + line] = pixels
            at += stride
    texture = Texture.create(size=(width, height), colorfmt="rgba")
    texture.blit_buffer(bytes(image), colorfmt="rgba", bufferfmt="ubyte")
    texture.flip_vertical()
    return texture


_OWN_TEXTURES = _Kept(TEXTS_KEPT)  # a plain text's pixels → its texture, when drawn alone


def forget_drawn_texts() -> None:
    """Drop every text drawn so far, its pixels and textures (a new list: the old one's rows,
    names and scores are not drawn again); what is drawn next is drawn anew."""
    _TEXTS.clear()
    _EXTENTS.clear()
    _OWN_TEXTURES.clear()


def turn_drawn_texts() -> None:
    """A new turn of the texts kept drawn (the list opened again): those not drawn since the
    last turn are dropped now, those drawn before it at the next one unless drawn again; the
    texts' measures (kept per font, for drawing new texts) are measured anew."""
    _TEXTS.turn()
    _OWN_TEXTURES.turn()
    _EXTENTS.clear()


def _own_texture(lines: tuple[bytes, ...], size: tuple[int, int]) -> Any:
    """A plain text's texture of its own (it overlaps another: the footer's lines, taller than
    their line), made once, not at each redraw (a row's at each step of a scroll)."""
    texture = _OWN_TEXTURES.get(lines)
    if texture is None:
        texture = _texts_texture(*size, [(lines, size, 0, 0)])
        _OWN_TEXTURES.put(lines, texture)
    return texture


class DrawnCells(Widget):
    """A widget that draws texts itself, as labels would (:func:`drawn_label`), at its next
    frame (when it has its place); :meth:`drawn_texts` gives them as drawn (the script runner
    reads them as it reads labels')."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._placed: list[tuple[str, DrawnText, int, int]] = []  # (text, as drawn, x, y)
        self._white = False  # the last colour in the drawing is white (the texts')
        self._drawing = InstructionGroup()
        self._image: Any = None  # the texture the texts' pixels were put into
        self._image_key: tuple[Any, ...] = ()  # what is in it
        self.canvas.add(self._drawing)
        self._redraw = Clock.create_trigger(self._draw, -1)
        self.fbind("pos", self._redraw)
        self.fbind("size", self._redraw)

    def let_go(self) -> None:
        """Drop what it draws (its texts, their texture) until it is drawn again."""
        self._drawing.clear()
        self._placed = []
        self._image, self._image_key = None, ()

    def drawn_texts(self) -> list[str]:
        """The texts drawn, as drawn (a shortened one as it reads: "Ha…re")."""
        return [_as_drawn(drawn.core, text) for text, drawn, _x, _y in self._placed]

    def placed_texts(self) -> list[tuple[str, int, int, int, int]]:
        """Each text drawn with its place: text, x, y, width, height."""
        return [(text, x, y, *drawn.size) for text, drawn, x, y in self._placed]

    def _draw(self, *_args: Any) -> None:
        self._drawing.clear()
        self._white = False
        self._placed = []
        self.draw()
        self._draw_texts()

    def draw(self) -> None:
        """Put the instructions in ``self._drawing`` (with :meth:`_texture`, :meth:`_line`)."""

    def _line(self, cells: list[CellText], x: float, y: float, width: float, height: float, font_size: float,
              spacing: float, padding: tuple[float, float] = (0, 0),
              other: Callable[[float, float], None] | None = None) -> None:
        """A horizontal box of labels (the list's font, at ``font_size`` unless the cell says,
        vertically centred, cut short unless said); a cell of no text and no width is another
        widget's place, drawn by ``other(x, width)`` in its turn."""
        placed = box_places(x, width, spacing, [cell.width for cell in cells], padding)
        for cell, (at, w) in zip(cells, placed):
            if cell.width is None and not cell.text:
                if other is not None:
                    other(at, w)
                continue
            drawn = drawn_label(cell.text, (w, None), font_size=cell.font_size or font_size,
                                font_name=theme.LIST_FONT, color=cell.colour, halign=cell.halign, valign="middle",
                                shorten=cell.shorten, bold=cell.bold)
            self._texture(drawn, cell.text, at, y, w, height)

    def _texture(self, drawn: DrawnText | None, text: str, x: float, y: float, width: float, height: float) -> None:
        """A label's text where its ``<Label>`` rule draws its texture (drawn with the others
        after the rest: :meth:`_draw_texts`)."""
        if drawn is not None:
            self._placed.append((text, drawn, *_centred(x, y, width, height, *drawn.size)))

    def _draw_texts(self) -> None:
        """The texts over the rest (shapes never cover a text), in white (the colour is drawn
        into them). The plain texts' pixels put together into one texture, each where its own
        texture would be drawn: one texture and one draw for a row's dozen texts (drawn one by
        one they took the list's frame longer than anything else on it), the same pixels, as
        these texts do not overlap and what lies between them is transparent. A text that
        overlaps one before it, or a marked-up one, is drawn on its own after them, in turn."""
        together: list[tuple[tuple[bytes, ...], tuple[int, int], int, int]] = []
        alone: list[tuple[Any, tuple[int, int], int, int]] = []  # (texture or lines, size, x, y)
        boxes: list[tuple[int, int, int, int]] = []
        for _text, drawn, x, y in self._placed:
            box = (x, y, x + drawn.size[0], y + drawn.size[1])
            overlaps = any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in boxes)
            boxes.append(box)
            if drawn.lines is not None and not overlaps:
                together.append((drawn.lines, drawn.size, x, y))
            elif drawn.lines is not None or drawn.texture is not None:
                alone.append((drawn.texture if drawn.texture is not None else drawn.lines, drawn.size, x, y))
        if together:
            self._draw_together(together)
        for texture, size, x, y in alone:
            if isinstance(texture, tuple):
                texture = _own_texture(texture, size)
            self._white_colour()
            self._drawing.add(Rectangle(texture=texture, size=size, pos=(x, y)))

    def _draw_together(self, texts: list[tuple[tuple[bytes, ...], tuple[int, int], int, int]]) -> None:
        """Texts' pixels (with their size and place) in one texture, made again only when they or
        their places relative to each other changed."""
        left, bottom = min(x for _p, _s, x, _y in texts), min(y for _p, _s, _x, y in texts)
        width = max(x + w for _p, (w, _h), x, _y in texts) - left
        height = max(y + h for _p, (_w, h), _x, y in texts) - bottom
        texts = [(lines, size, x - left, y - bottom) for lines, size, x, y in texts]
        key = (width, height, *texts)
        if key != self._image_key:
            self._image = _texts_texture(width, height, texts)
            self._image_key = key
        self._white_colour()
        self._drawing.add(Rectangle(texture=self._image, size=(width, height), pos=(left, bottom)))

    def _white_colour(self) -> None:
        if not self._white:  # the colour is drawn into the texture: white, set once until another colour
            self._drawing.add(Color(1, 1, 1, 1))
            self._white = True

    def _colour(self, rgba: Any) -> None:
        """Draw what follows (a shape) in ``rgba``."""
        self._drawing.add(Color(*rgba))
        self._white = False


def _as_drawn(core: Any, text: str) -> str:
    """A text as its core label laid it out (as :func:`ui.table.runner.drawn_text` reads a label's)."""
    lines = getattr(core, "_cached_lines", None)
    if not lines:
        return text
    return " ".join("".join(str(word.text) for word in line.words) for line in lines)
