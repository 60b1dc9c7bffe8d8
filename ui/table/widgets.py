"""The table's building blocks: big buttons, labels, card and suit chips, the bars.

Their look is in ``widgets.kv``. Every size is multiplied by ``app.scale`` (1.0 at 800×480,
1.5 at 1280×720).

:class:`TButton` is the one button: it has a ``name`` (scripts and tests tap it by name),
a ``kind`` (its colour: the next step is green, a chosen option blue) and may be ``greyed``:
a greyed button still takes the tap, does nothing and says why (its ``reason``), instead of
Kivy's ``disabled`` which swallows the tap silently.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from kivy.app import App
from kivy.core.text import DEFAULT_FONT
from kivy.graphics import (
    Color, Ellipse, InstructionGroup, Line, Quad, Rectangle, RoundedRectangle, StencilPop, StencilPush,
    StencilUnUse, StencilUse, Triangle,
)
from kivy.properties import (
    BooleanProperty, ColorProperty, ListProperty, NumericProperty, ObjectProperty, OptionProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import ScreenManager
from kivy.uix.widget import Widget

from ui.table import theme
from ui.table.paint import Fill, TightText, before_next_frame, filled

KINDS = ("normal", "confirm", "selected", "danger", "card", "flat")


def _face(kind: str, *, down: bool, greyed: bool) -> theme.RGBA:
    if greyed and kind == "card":
        return theme.hex_rgba("#6f6b62")  # a card already seen: dim, its symbol still legible
    if greyed and kind != "selected":
        return theme.GREYED
    if kind == "card":
        return theme.CARD_FACE if not down else theme.hex_rgba("#d8d2c2")
    if greyed and kind == "selected":
        return theme.hex_rgba("#284866")
    if down:
        return theme.BUTTON_PRESSED
    return {
        "confirm": theme.CONFIRM, "selected": theme.BUTTON_SELECTED, "danger": theme.DANGER,
        "flat": theme.PANEL,
    }.get(kind, theme.BUTTON)


def app_scale() -> float:
    """The running app's ``scale`` (1.0 without one)."""
    app = App.get_running_app()
    return float(getattr(app, "scale", 1.0)) if app is not None else 1.0


class Frame:
    """A widget's frame line (a marked button, a selected card chip, the seat to play), in
    its ``canvas.before`` only while it is seen. A line is rasterised and walked by every
    frame even in alpha 0 or of no size, so an unseen frame is no instruction at all (it was
    a line of no size in kv: 13 draw calls on each card's frame)."""

    def __init__(self, canvas: Any) -> None:
        self.canvas = canvas
        self.color = Color()
        self.line = Line()
        self.group = InstructionGroup()
        self.group.add(self.color)
        self.group.add(self.line)
        self.shown = False
        self._drawn: tuple[float, tuple[float, ...]] = (1, ())  # the line's width and rounded rectangle

    def show(self, rgba: Sequence[float] | None, rounded_rectangle: tuple[float, ...] = (), width: float = 1) -> None:
        """Draw the frame in ``rgba`` (a ``Line`` of ``width`` along ``rounded_rectangle``), or
        take it out (``rgba`` None); it stays last in the canvas, after the face."""
        if rgba is None:
            if self.shown:
                self.canvas.remove(self.group)
                self.shown = False
            return
        self.color.rgba = rgba
        if (width, tuple(rounded_rectangle)) != self._drawn:  # Kivy builds a line's triangles anew at each set
            self._drawn = (width, tuple(rounded_rectangle))
            self.line.width = width
            self.line.rounded_rectangle = rounded_rectangle
        if not self.shown:
            self.canvas.add(self.group)
            self.shown = True


def framed(widget: Widget, update: Callable[..., None], *names: str) -> Frame:
    """A :class:`Frame` in ``widget``'s ``canvas.before``, redrawn by ``update`` whenever
    the widget moves, resizes or one of the properties ``names`` changes."""
    frame = Frame(widget.canvas.before)
    for name in ("pos", "size", *names):
        widget.fbind(name, update)
    return frame


class TLabel(TightText, Label):
    """A label in the table's font and colours that wraps to its width."""


class TButton(ButtonBehavior, TightText, Label):
    """A big flat button. Bind ``on_act`` (not ``on_press``): it fires once per tap and
    never for a greyed button."""

    name = StringProperty("")
    kind = OptionProperty("normal", options=KINDS)
    greyed = BooleanProperty(False)
    reason = StringProperty("")
    marked = BooleanProperty(False)  # chosen, shown by a bright frame (for light-faced buttons)
    face = ColorProperty(theme.BUTTON)
    spec_action: Callable[[], Any] | None = None  # a button of show_buttons: what a tap does
    spec_keys: tuple[str, ...] | None = None  # …and the further properties it was made with

    __events__ = ("on_act",)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.fbind("state", self._update_face)
        self.fbind("kind", self._update_face)
        self.fbind("greyed", self._update_face)
        self._update_face()
        self._face_fill = Fill(self.canvas.before)  # before the frame
        self._frame = Frame(self.canvas.before)
        for name in ("pos", "size", "face", "opacity", "parent", "marked"):
            self.fbind(name, self._draw_later)
        self._draw_later()

    def _draw_later(self, *_args: Any) -> None:
        """Draw the face and frame once, just before the next frame, where the layout put the
        button in the end: a button is moved and resized several times while its screen is laid
        out (a face each time: the result's first frame made about 110 for its 30 buttons)."""
        before_next_frame(self._draw_face)

    def _draw_face(self) -> None:
        self._fill_face()
        self._update_frame()

    def _fill_face(self, *_args: Any) -> None:
        """The face, inset by 2 and rounded by 8 (scaled); cleared in a bar's row of buttons
        (which neither scrolls nor moves but with its bar), as a mesh elsewhere."""
        s = app_scale()
        steady = self.opacity == 1 and isinstance(self.parent, (BottomBar, StatusBar))
        self._face_fill.show(self, self.face, self.x + s * 2, self.y + s * 2, self.width - s * 4,
                             self.height - s * 4, s * 8, clears=steady)

    def _update_frame(self, *_args: Any) -> None:
        s = app_scale()
        self._frame.show(theme.BUTTON_SELECTED if self.marked else None,
                         (self.x + s * 4, self.y + s * 4, self.width - s * 8, self.height - s * 8, s * 8), s * 4)

    def _update_face(self, *_args: Any) -> None:
        self.face = _face(self.kind, down=self.state == "down", greyed=self.greyed)

    def on_release(self) -> None:
        app = App.get_running_app()
        if self.greyed:
            if app is not None:
                app.hint(self.reason)
            return
        self.dispatch("on_act")

    def on_act(self) -> None:
        """Override or bind: the tap's action."""


CHIP_TEXTS_KEPT = 256  # card chips' rendered texts kept (32 cards at a few sizes and colours)
_chip_texts: dict[tuple[Any, ...], Any] = {}  # a chip's text and text options -> its texture, filled


def _text_key(label: Any) -> tuple[Any, ...]:
    """What a Kivy core label's texture is rendered from: its text, its box (``text_size``, kept
    apart from the options) and its options (lists as tuples; the font's resolved path, which
    follows from its name, left out)."""
    options = tuple(sorted((name, tuple(value) if isinstance(value, list) else value)
                           for name, value in label.options.items() if name != "font_name_r"))
    size = label.text_size
    return (label.text, None if size is None else tuple(size), options)


class CardChip(Label):
    """A card drawn as a light chip with suit symbol and rank in the suit's colour.

    ``code`` is a card code (``"CJ"``); empty shows an empty place. The text's texture of each
    card at each size is rendered once and kept (``_chip_texts``): a card played again, or in
    the next seat, is drawn with the texture made for it before (a played card's chip costs
    no text rendering or texture upload).
    """

    code = StringProperty("")
    selected = BooleanProperty(False)
    hidden = BooleanProperty(False)  # face down (a pushed skat card)
    steady = BooleanProperty(False)  # placed where it neither scrolls nor moves (a seat): its face may be cleared

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._face = Fill(self.canvas.before)  # before the frame
        for name in ("pos", "size", "code", "hidden", "opacity", "steady"):
            self.fbind(name, self._fill_face)
        self._fill_face()
        self._frame = framed(self, self._update_frame, "selected")
        self._update_frame()

    def texture_update(self, *largs: Any) -> None:
        core = self._label
        key = _text_key(core)
        kept = _chip_texts.get(key) if core.text else None
        if kept is not None:
            self.texture = kept
            self.texture_size = list(kept.size)
            return
        core.texture = None  # a texture of its own: a kept one is never written into again
        super().texture_update(*largs)
        texture = core.texture
        if not core.text or texture is None or texture is core.texture_1px:
            return
        texture.bind()  # filled now, from this text (Kivy fills it at its first draw, from the text then)
        if len(_chip_texts) >= CHIP_TEXTS_KEPT:
            _chip_texts.clear()
        _chip_texts[key] = texture

    def _fill_face(self, *_args: Any) -> None:
        colour = theme.BUTTON_SELECTED if self.hidden else (theme.CARD_FACE if self.code else theme.PANEL_ALT)
        self._face.show(self, colour, self.x, self.y, self.width, self.height, app_scale() * 8,
                        clears=self.steady and self.opacity == 1)

    def _update_frame(self, *_args: Any) -> None:
        s = app_scale()
        self._frame.show(theme.BUTTON_SELECTED if self.selected else None,
                         (self.x, self.y, self.width, self.height, s * 8), s * 3)


class SuitChip(Label):
    """A suit symbol on a light chip (so black ♣ shows on the dark screen). ``suit``: C S H D."""

    suit = StringProperty("")


class GameText(BoxLayout):
    """A game in words with its suit chip in front: ``♣`` + "Kreuz Hand mit 2 …"."""

    suit = StringProperty("")
    text = StringProperty("")
    font_size = NumericProperty(20)
    color = ColorProperty(theme.TEXT)
    struck = BooleanProperty(False)
    bold = BooleanProperty(False)
    wrap = BooleanProperty(False)  # several lines (the height follows ``text_height``)
    font_name = StringProperty(DEFAULT_FONT)  # Kivy's default name, which the table maps to DejaVu Sans
    text_height = NumericProperty(0)


class Dot(Widget):
    """A status light."""

    color = ColorProperty(theme.OK)


class PanelStatus(BoxLayout):
    """The status bar's red light and word for a button panel the table started without."""

    text = StringProperty("")
class StatusWord(TightText, Label):
    """A word of the status bar on one line, as wide as it is drawn. Not a :class:`TLabel`:
    its rule wraps the text at the label's width, and a word then wrapped at the width of the
    word shown before it ("nicht / synchronisie / rt", out of the bar)."""


class StatusName(TightText, Label):
    """The table's name in the status bar: one line in the room the words leave it,
    shortened with "…" when it is longer."""


class StatusBar(BoxLayout):
    """Reader state, sync state, table number and the time, on every screen; and, only while
    the button panel is missing, that too (``panel_text``: a light and its word before the
    reader's, absent otherwise, so a table with its panel keeps its bar as it was)."""

    table_text = StringProperty("")
    reader_text = StringProperty("")
    reader_color = ColorProperty(theme.BAD)
    sync_text = StringProperty("")
    sync_color = ColorProperty(theme.WARN)
    clock_text = StringProperty("")
    panel_text = StringProperty("")
    simulate = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._fill = filled(self, theme.PANEL)
        self._panel_status: PanelStatus | None = None

    def on_panel_text(self, _bar: Any, text: str) -> None:
        shown = self._panel_status
        if text and shown is None:
            shown = self._panel_status = PanelStatus(text=text)
            self.add_widget(shown, index=self.children.index(self.ids.reader_dot) + 1)
        elif text and shown is not None:
            shown.text = text
        elif shown is not None:
            self.remove_widget(shown)
            self._panel_status = None


class TableScreens(ScreenManager):
    """The screens, clipped to their area (Kivy's ScreenManager stencil) except those in
    :attr:`UNCLIPPED`: the play screen, redrawn at every card, fits its area, and under
    software GL the stencil (two rectangles the size of the screen and a test on every pixel
    drawn) costs each frame about as much as one of its seats; so do the game, declaration,
    result and list screens, shown at a tap (the list's rows scroll inside its own clipped
    view). The other screens may draw past their top (the settings' title) and keep it. Its
    kv rule ``<-TableScreens>`` replaces Kivy's, which would always clip."""

    UNCLIPPED = frozenset({"play", "game", "declare", "result", "list"})

    def __init__(self, **kwargs: Any) -> None:
        self._clip_before = InstructionGroup()
        self._clip_after = InstructionGroup()
        self._clip_areas = (Rectangle(), Rectangle())
        for part in (StencilPush(), self._clip_areas[0], StencilUse()):
            self._clip_before.add(part)
        for part in (StencilUnUse(), self._clip_areas[1], StencilPop()):
            self._clip_after.add(part)
        self._clipping = False
        super().__init__(**kwargs)
        for name in ("pos", "size"):
            self.fbind(name, self._move_clip)
        self.fbind("current", self._clip_current)
        self._clip_current()

    def _move_clip(self, *_args: Any) -> None:
        for area in self._clip_areas:
            area.pos, area.size = self.pos, self.size

    def _clip_current(self, *_args: Any) -> None:
        clip = self.current not in self.UNCLIPPED
        if clip == self._clipping:
            return
        self._clipping = clip
        if clip:
            self.canvas.before.add(self._clip_before)
            self.canvas.after.add(self._clip_after)
        else:
            self.canvas.before.remove(self._clip_before)
            self.canvas.after.remove(self._clip_after)


class BottomBar(BoxLayout):
    """The row of buttons at the bottom of a screen; the confirm button goes last (right)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._fill = filled(self, theme.PANEL)


class Hint(Label):
    """The banner that says why something is not possible, or what went wrong."""

    level = OptionProperty("hint", options=("hint", "error", "info"))

    def on_touch_down(self, touch: Any) -> bool:
        # A tap on the banner dismisses it and goes no further (not to the button under it).
        if self.text and self.collide_point(*touch.pos):
            self.text = ""
            return True
        return False

    text: str


class Chart(Widget):
    """Each player's running total over the evening as a line (end of series).

    ``series`` is one list of totals per player (all the same length), ``colors`` one colour
    each. Drawn with Kivy lines; the legend is a label beside it.
    """

    series = ListProperty([])
    colors = ListProperty([])
    app = ObjectProperty(None, allownone=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        for name in ("series", "colors", "pos", "size"):
            self.fbind(name, self._redraw)

    def _redraw(self, *_args: Any) -> None:
        self.canvas.clear()
        if not self.series or not any(self.series):
            return
        values = [v for s in self.series for v in s] + [0]
        low, high = min(values), max(values)
        span = (high - low) or 1
        count = max(len(s) for s in self.series)
        scale = app_scale()
        inset = 8 * scale  # the marks stay inside the panel
        x0, y0, width, height = self.x + inset, self.y + inset, self.width - 2 * inset, self.height - 2 * inset
        step = width / max(1, count - 1)
        with self.canvas:
            Color(*theme.PANEL)
            RoundedRectangle(pos=self.pos, size=self.size, radius=[6 * scale])
            Color(*theme.TEXT_DIM)
            zero = y0 + (0 - low) / span * height
            Line(points=[x0, zero, x0 + width, zero], width=1)
            for index, totals in enumerate(self.series):
                colour = self.colors[index] if index < len(self.colors) else theme.TEXT
                Color(*colour)
                points: list[float] = []
                for n, value in enumerate(totals):
                    points += [x0 + n * step, y0 + (value - low) / span * height]
                if len(points) >= 4:
                    Line(points=points, width=2.2 * scale)
                every = max(1, len(totals) // 12)  # a mark on every point, at most about twelve
                for n in range(0, len(totals), every):
                    _mark(index % len(theme.PLAYER_MARKS), points[2 * n], points[2 * n + 1], 5 * scale)


def _mark(shape: int, x: float, y: float, r: float) -> None:
    """The player's mark at a chart point (``theme.PLAYER_MARKS``: ● ■ ▲ ◆ ✚)."""
    if shape == 0:
        Ellipse(pos=(x - r, y - r), size=(2 * r, 2 * r))
    elif shape == 1:
        Rectangle(pos=(x - r, y - r), size=(2 * r, 2 * r))
    elif shape == 2:
        Triangle(points=[x - r, y - r, x + r, y - r, x, y + r])
    elif shape == 3:
        Quad(points=[x, y - r, x + r, y, x, y + r, x - r, y])
    else:
        Line(points=[x - r, y, x + r, y], width=r / 2.5)
        Line(points=[x, y - r, x, y + r], width=r / 2.5)


def scroll_at_rest(view: Any, scroll_y: float) -> None:
    """Scroll ``view`` to ``scroll_y`` (1 the top, 0 the bottom) and bring its scroll effect to
    rest there. Kivy's effect keeps a place of its own, set only by a drag or a change of size:
    left where it was, a list whose rows got their heights after being shown sprang back from an
    overscroll it never had (short lists slid from the middle to the top, long ones ended a few
    pixels short of their last row), and its last step put a scroll made meanwhile back."""
    view.scroll_y = scroll_y
    effect = view.effect_y
    if effect is None or effect.is_manual:  # (a finger on the list: the drag moves it)
        return
    effect.velocity = 0
    effect.overscroll = 0
    view._update_effect_y_bounds()  # Kivy's own: the effect's bounds and place from scroll_y


def make_button(text: str, name: str, action: Any = None, *, kind: str = "normal", greyed: bool = False,
                reason: str = "", **kwargs: Any) -> TButton:
    """A :class:`TButton` whose ``on_act`` calls ``action()``."""
    button = TButton(text=text, name=name, kind=kind, greyed=greyed, reason=reason)
    for key, value in kwargs.items():  # after the kv rule, so that they win over its defaults
        setattr(button, key, value)
    if action is not None:
        button.bind(on_act=lambda *_: action())
    return button


def make_label(text: str, **kwargs: Any) -> TLabel:
    """A :class:`TLabel` with ``kwargs`` set after its kv rule (whose bound sizes would
    otherwise win over the ones given here: a font size, a font)."""
    label = TLabel(text=text)
    for key, value in kwargs.items():
        setattr(label, key, value)
    return label


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    """A button as :func:`make_button` would make it: its words, name, action, kind, whether
    greyed and why, and further properties (``extra``: name and value pairs, set in order)."""

    text: str
    name: str
    action: Callable[[], Any] | None = None
    kind: str = "normal"
    greyed: bool = False
    reason: str = ""
    extra: tuple[tuple[str, Any], ...] = ()


def _act(button: TButton) -> None:
    if button.spec_action is not None:
        button.spec_action()


SPARE_BUTTONS = 40  # about what a game's bidding, declaration and result make (22 matador buttons)
_spare: list[TButton] = []  # buttons made ahead while the table is idle, for show_buttons


def spare_buttons() -> int:
    """How many buttons are made ahead and not used yet."""
    return len(_spare)


def spare_buttons_wanted() -> bool:
    return len(_spare) < SPARE_BUTTONS


def make_spare_buttons(count: int) -> None:
    """Make up to ``count`` buttons ahead (main thread, while the table is idle): a button
    that show_buttons needs is then taken from them instead of made while someone waits."""
    for _ in range(min(count, SPARE_BUTTONS - len(_spare))):
        _spare.append(_new_button())


def _new_button() -> TButton:
    """A bare button whose tap calls its spec's action; :func:`_set_in_place` gives it the rest."""
    button = TButton()
    button.bind(on_act=_act)
    return button


def _made(spec: ButtonSpec) -> TButton:
    """What :func:`make_button` makes for ``spec``: a spare button, or a new one, given its
    properties (as make_button gives them, after the kv rule)."""
    button = _spare.pop() if _spare else _new_button()
    _set_in_place(button, spec)
    button.spec_keys = tuple(key for key, _value in spec.extra)
    return button


def _set_in_place(button: TButton, spec: ButtonSpec) -> None:
    """What :func:`_made` would make, set on a button made for an earlier spec with the same
    further properties (so the kv rule's defaults are the same ones)."""
    button.text, button.name, button.kind = spec.text, spec.name, spec.kind
    button.greyed, button.reason = spec.greyed, spec.reason
    for key, value in spec.extra:
        setattr(button, key, value)
    button.spec_action = spec.action


PUT_AWAY = "put_away_buttons"  # a container's attribute: its buttons not shown now, for show_buttons


def show_buttons(container: Any, specs: Sequence[ButtonSpec]) -> None:
    """Show the buttons ``specs`` in ``container``, in order. The buttons already there (or
    put away by an earlier call: the bid values while the bidding asks for "ja" or "passe")
    are kept and set in place (a new text, name, kind, action), each for a spec with the same
    further properties as it was made with (so that its kv rule's defaults are the same),
    one showing the spec's text first (its text is not drawn again);
    only the others are made (or taken from those made ahead). Making a button (its kv rule,
    its canvas) costs more than setting its text, and a refresh happens at every tap."""
    old = list(reversed(container.children))
    free: dict[tuple[str, ...], list[TButton]] = {}
    put_away: list[TButton] = getattr(container, PUT_AWAY, [])
    for child in old + put_away:
        if isinstance(child, TButton) and child.spec_keys is not None:
            free.setdefault(child.spec_keys, []).append(child)
    # a button that shows the spec's words already keeps its drawn text (the bid values move
    # up by one at each bid: six of the seven keep theirs); the others take any of their kind
    chosen: list[TButton | None] = []
    for spec in specs:
        same = free.get(tuple(key for key, _value in spec.extra), [])
        button = next((b for b in same if b.text == spec.text), None)
        if button is not None:
            same.remove(button)
        chosen.append(button)
    buttons = []
    for spec, button in zip(specs, chosen):
        if button is None:
            same = free.get(tuple(key for key, _value in spec.extra))
            button = same.pop(0) if same else None
        if button is not None:
            _set_in_place(button, spec)
        else:
            button = _made(spec)
        buttons.append(button)
    setattr(container, PUT_AWAY, [button for same in free.values() for button in same])
    if buttons == old:
        return
    container.clear_widgets()
    for button in buttons:
        container.add_widget(button)
    # Their texts drawn after the container's layout (Kivy runs the triggers set for the next
    # frame in the order they were set): a text set above was drawn at its button's old width
    # (100 px for a button just made), then again at its place.
    for button in buttons:
        if button._trigger_texture.is_triggered:
            button._trigger_texture.cancel()
            button._trigger_texture()
