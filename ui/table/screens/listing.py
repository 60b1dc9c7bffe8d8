"""Screen 6, the list (Spielliste), laid out like the paper list: game number, dealer, the
game in words with its declarer, the entry (+/−) and each player's running total — bright
where the row changed it, as the paper list writes only those; eingepasst rows; corrected
entries with their earlier text struck through. Opened from every screen, scrolled to the
latest entry.

A tap on an entry offers to correct it (ISkO 5.5.3): the game's counts entered again (the
result entry, started at the entry's counts), or "war eingepasst"; then who proposes it.
The proposal waits on top of the list with a consent button per player and "zurückziehen"."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Rectangle
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.recycleview.views import RecycleDataViewBehavior

from ui.i18n import pick, tr
from ui.table_words import game_text, scoring_label
from ui.table import theme
from ui.table.popups import ChoicePopup, Option, ResultPopup
from ui.table.screens import TableScreen
from ui.table.viewmodels import SHORT_NAME, ListLine, entry_words, escape, is_null, list_lines, short_names, stand_lines
from ui.table.widgets import GameText, TLabel, make_button, make_label

# Column widths at 800×480 (multiplied by the list's scale): number, dealer, declarer,
# Grundwert, Spitzen, Gewinnstufen, Wert; the game takes what is left. A player's column by
# table size: the short names and the numbers must fit whole.
NUMBER_W, BASE_W, TOPS_W, LEVELS_W, VALUE_W = 28, 32, 44, 24, 58
NAME_W = {3: 80, 4: 76, 5: 64}  # at 1280×720 every table gets the widest (whole names); 80 at three: "Herz Solo" fits
PLAYER_W = {3: 90, 4: 76, 5: 66}
GAP = 3
ROW_H, FONT_ROW = 24, theme.FONT_SMALL  # ≥ 10 rows at 800×480, ≥ 16 at 1280×720


def list_scale(scale: float) -> float:
    """The list grows less than the rest with the window: on the larger display it shows
    more games rather than the same games larger (1.0 at 480 px high, 1.1 at 720)."""
    return min(scale, 1.0 + (scale - 1.0) * 0.2)


@dataclass(frozen=True, slots=True)
class Columns:
    """What a row's columns look like at this size: the list's scale, the name and player
    columns' widths, the number of players."""

    ls: float
    name_w: float
    player_w: float
    players: int


class ListCell(Label):
    """A column of a list line: a :class:`~ui.table.widgets.TLabel` as the list sets it
    (its font and size, cut short, markup), made without TLabel's kv rule, whose bindings
    (to the app's scale and its own width) cost more than the text: a list has hundreds."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("color", theme.TEXT)
        kwargs.setdefault("shorten", True)
        super().__init__(valign="middle", markup=True, font_name=theme.LIST_FONT, **kwargs)
        with self.canvas:  # what Kivy's <Label> rule draws, without the rule's bindings
            Color(1, 1, 1, 1)
            self._drawn = Rectangle()
        for name in ("texture", "texture_size", "pos", "size"):
            self.fbind(name, self._place)
        self._place()

    def apply_class_lang_rules(self, *_args: Any, **_kwargs: Any) -> None:
        """No kv rule: :meth:`_place` draws the texture as Kivy's ``<Label>`` rule would
        (its bindings, made per label, cost a list's first open more than the texts)."""

    def _place(self, *_args: Any) -> None:
        """The rule's ``pos: int(self.center_x - …), …``, the centre computed as Kivy's
        ``center_x`` computes it: read from ``center_x`` itself it can be stale here (a cached
        alias, updated after this callback when ``y`` changes)."""
        width, height = self.texture_size
        drawn = self._drawn
        drawn.texture, drawn.size = self.texture, (width, height)
        drawn.pos = (int(self.x + self.width / 2.0 - width / 2.0), int(self.y + self.height / 2.0 - height / 2.0))


def _cell(row: BoxLayout, text: str, width: float | None, ls: float, *, halign: str = "right",
          **kwargs: Any) -> Label:
    """One column of a list line: the list's font (``ls`` times the row's size unless
    ``font_size`` is given), cut short rather than wrapped; a fixed width (pixels), or
    (``None``) what the line leaves."""
    kwargs.setdefault("font_size", ls * FONT_ROW)
    if width is None:
        label = ListCell(text=text, halign=halign, **kwargs)
        label.fbind("width", lambda cell, w: setattr(cell, "text_size", (w, None)))
        label.text_size = (label.width, None)
    else:
        label = ListCell(text=text, halign=halign, size_hint_x=None, width=width, text_size=(width, None), **kwargs)
    row.add_widget(label)
    return label


def _game_text(line: ListLine) -> str:
    return line.game + (f"  [b]{line.marks}[/b]" if line.marks else "")


def _score_colour(line: ListLine) -> Any:
    return theme.PLUS if line.score_sign > 0 else (theme.MINUS if line.score_sign < 0 else theme.TEXT)


class ListRow(RecycleDataViewBehavior, ButtonBehavior, BoxLayout):
    """One line of the list; ``odd`` rows are shaded. A tap offers to correct the entry.

    The list is a recycle view: only the rows in view have widgets, and a row scrolled away
    lends its widgets to the one scrolled in (its texts set in place, :meth:`show_line`)."""

    odd = BooleanProperty(False)
    name = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.line: ListLine | None = None
        self.tapped: Any = None
        self._shape: tuple[int, Columns] | None = None
        self._struck: list[GameText] = []
        self._cells: list[Label] = []  # number, dealer, declarer, base, tops, levels, value, players
        self._game: GameText | None = None

    def refresh_view_attrs(self, rv: Any, index: int, data: dict[str, Any]) -> None:
        self.odd, self.name, self.tapped = data["odd"], data["name"], data["tapped"]
        self.show_line(data["line"], data["columns"])

    def on_release(self) -> None:
        if self.tapped is not None and self.line is not None:
            self.tapped(int(self.line.number))

    def show_line(self, line: ListLine, columns: Columns) -> None:
        """One game on one line; a corrected one has its earlier entry struck through above.
        The widgets are kept while the shape (struck lines, columns) stays; only texts change."""
        self.line = line
        shape = (len(line.struck), columns)
        if shape != self._shape:
            self._shape = shape
            self._build(line, columns)
            return
        for label, text in zip(self._struck, line.struck):
            label.text = text
        texts = (line.number, escape(line.dealer), escape(line.declarer), line.base, line.tops, line.levels,
                 f"[b]{line.score}[/b]" if line.score else "", *(cell.text for cell in line.cells))
        for label, text in zip(self._cells, texts):
            label.text = text
        self._cells[6].color = _score_colour(line)
        assert self._game is not None
        self._game.text, self._game.suit = _game_text(line), line.suit
        self._game.color = theme.TEXT_DIM if line.passed_in else theme.TEXT

    def _build(self, line: ListLine, columns: Columns) -> None:
        self.clear_widgets()
        ls = columns.ls
        self._struck = []
        for text in line.struck:
            struck = GameText(text=text, struck=True, color=theme.STRUCK, font_size=ls * FONT_ROW,
                              size_hint_y=None, height=ls * ROW_H, font_name=theme.LIST_FONT)
            self._struck.append(struck)
            self.add_widget(struck)
        body = BoxLayout(spacing=ls * GAP, size_hint_y=None, height=ls * ROW_H)
        dim = theme.TEXT_DIM
        name_w = ls * columns.name_w
        cells = [_cell(body, line.number, ls * NUMBER_W, ls, color=dim),
                 _cell(body, escape(line.dealer), name_w, ls, halign="left", color=dim),
                 _cell(body, escape(line.declarer), name_w, ls, halign="left")]
        self._game = GameText(text=_game_text(line), suit=line.suit, font_size=ls * FONT_ROW,
                              color=theme.TEXT_DIM if line.passed_in else theme.TEXT, font_name=theme.LIST_FONT)
        body.add_widget(self._game)
        cells += [_cell(body, line.base, ls * BASE_W, ls), _cell(body, line.tops, ls * TOPS_W, ls),
                  _cell(body, line.levels, ls * LEVELS_W, ls),
                  _cell(body, f"[b]{line.score}[/b]" if line.score else "", ls * VALUE_W, ls,
                        color=_score_colour(line))]
        width = columns.player_w
        for cell in line.cells:
            cells.append(_cell(body, cell.text, width, ls, bold=True))
        self._cells = cells
        self.add_widget(body)


class ListScreen(TableScreen):
    title_text = StringProperty("")
    system_text = StringProperty("")
    empty_text = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._snap: Any = None
        self._shown: Any = None

    def show(self, snap: Any) -> None:
        self._snap = snap
        view = snap.list
        key = (view, snap.correction, self.app.language, self.app.scale)
        if key == self._shown:
            return  # nothing on the list changed (a card was played): keep the widgets
        self._shown = key
        self.title_text = game_text(snap.game_no, snap.series_length) if view is not None else tr("list_title")
        self._build_header(view)
        self._build_rows(view)
        self._build_footer(view)
        self._build_correction(snap)

    def opened(self) -> None:
        self._scroll_to_latest()

    def retranslate(self) -> None:
        self._shown = None

    # -- columns --

    def _header_columns(self, row: BoxLayout, players: int) -> None:
        """The paper list's column heads."""
        ls = list_scale(self.app.scale)
        name_w = self._width(NAME_W, players)
        for text, width, halign in ((tr("col_no"), NUMBER_W, "right"), (tr("col_dealer"), name_w, "left"),
                                    (tr("col_declarer"), name_w, "left"), (tr("col_game"), None, "left"),
                                    (tr("col_base"), BASE_W, "right"), (tr("col_tops"), TOPS_W, "right"),
                                    (tr("col_levels"), LEVELS_W, "right"), (tr("col_value"), VALUE_W, "right")):
            _cell(row, text, None if width is None else ls * width, ls, halign=halign, color=theme.TEXT_DIM)

    def _width(self, widths: dict[int, int], players: int) -> int:
        return widths[3] if self.app.scale > 1.2 else widths.get(players, widths[5])

    def _name_limit(self) -> int | None:
        """Whole names up to nine letters where the window is wide enough for them."""
        return SHORT_NAME if self.app.scale > 1.2 else None

    def _build_header(self, view: Any) -> None:
        header = self.ids.header
        header.clear_widgets()
        if view is None:
            return
        ls = list_scale(self.app.scale)
        header.spacing = ls * GAP
        header.height = ls * 26
        self._header_columns(header, len(view.players))
        short = short_names(view.players, self._name_limit())
        width = ls * self._width(PLAYER_W, len(view.players))
        for name in view.players:
            _cell(header, escape(short[name]), width, ls)

    def _build_rows(self, view: Any) -> None:
        """The rows as the recycle view's data: it makes widgets for the rows in view only."""
        scroll = self.ids.scroll
        if view is None or not view.rows:
            self.empty_text = tr("no_games_yet")
            scroll.data = []
            return
        self.empty_text = ""
        ls = list_scale(self.app.scale)
        players = len(view.players)
        columns = Columns(ls, self._width(NAME_W, players), ls * self._width(PLAYER_W, players), players)
        scroll.data = [{"line": line, "columns": columns, "odd": index % 2 == 1, "name": f"row_{line.number}",
                        "height": ls * ROW_H * (1 + len(line.struck)), "tapped": self.row_tapped}
                       for index, line in enumerate(list_lines(view, self._name_limit()))]
        scroll.scroll_y = 0  # the latest rows are the ones made first (0 shows the bottom)
        self._scroll_to_latest()

    def _scroll_to_latest(self) -> None:
        """Show the latest entry (after the rows have their heights)."""
        def scroll(_dt: float) -> None:
            scroll_view, rows = self.ids.scroll, self.ids.rows
            scroll_view.scroll_y = 0 if rows.height > scroll_view.height else 1
        Clock.schedule_once(scroll, 0)
        Clock.schedule_once(scroll, 0.05)

    def _build_footer(self, view: Any) -> None:
        footer = self.ids.footer
        footer.clear_widgets()
        if view is None:
            footer.height = 0
            return
        ls = list_scale(self.app.scale)
        width = ls * self._width(PLAYER_W, len(view.players))
        self.system_text = scoring_label(view.system)
        lines = stand_lines(view)
        for index, stand in enumerate(lines):
            line = BoxLayout(spacing=ls * GAP, size_hint_y=None, height=ls * ROW_H)
            head = f"[b]{tr('standing')}[/b]   " if index == 0 else ""
            _cell(line, f"{head}{stand.label}", None, ls, shorten=False)
            for text in stand.cells:
                _cell(line, f"[b]{text}[/b]" if stand.bold else text, width, ls,
                      font_size=ls * (theme.FONT if stand.bold else FONT_ROW))
            footer.add_widget(line)
        footer.height = ls * ROW_H * len(lines) + ls * 4

    def _build_correction(self, snap: Any) -> None:
        box = self.ids.correction
        box.clear_widgets()
        correction = snap.correction
        if correction is None:
            box.height = 0
            return
        s = self.app.scale
        words = tr("correction_line", entry=correction.entry, old=pick(correction.old_text, correction.old_text_en),
                   new=pick(correction.new_text, correction.new_text_en), who=correction.proposed_by)
        if correction.consented:
            words += " · " + tr("agreed_by", names=", ".join(correction.consented))
        line = make_label(words,
                      size_hint_y=None, font_size=s * theme.FONT_SMALL, color=theme.HINT)
        box.add_widget(line)

        def fit(*_args: Any) -> None:  # two lines when the entries are long
            line.height = max(s * 30, line.texture_size[1] + s * 4)
            box.height = line.height + s * (theme.BUTTON_HEIGHT + 4)

        line.bind(texture_size=fit)
        fit()
        buttons = BoxLayout(spacing=s * 6, size_hint_y=None, height=s * theme.BUTTON_HEIGHT)
        buttons.add_widget(make_label(tr("consent_prompt"), size_hint_x=None, width=s * 140, bold=True))
        seats = {seat.name: seat.seat for seat in snap.seats}
        for name in correction.waiting_for:
            seat = seats.get(name)
            if seat is not None:
                buttons.add_widget(make_button(f"✔ {name}", f"consent_{seat}",
                                               lambda st=seat: self.app.consent_correction(st), kind="confirm"))
        buttons.add_widget(make_button(tr("withdraw"), "withdraw_correction", self.app.withdraw_correction))
        box.add_widget(buttons)

    # -- corrections --

    def row_tapped(self, number: int) -> None:
        """An entry was tapped: offer to correct it."""
        snap = self._snap
        view = snap.list if snap is not None else None
        if view is None or not 1 <= number <= len(view.rows):
            return
        if snap.phase == "closed":
            self.app.hint(tr("list_closed"))
            return
        if snap.correction is not None:
            self.app.hint(tr("correction_pending"))
            return
        row = view.rows[number - 1]
        game = row.kind == "game" and row.game is not None
        ChoicePopup(f"{tr('game_n', n=row.number)} · {entry_words(pick(row.text, row.text_en), None)}", [
            Option(tr("correct_entry"), "correct_entry", lambda: self._correct(row), greyed=not game,
                   reason=tr("correct_only_games")),
            Option(tr("correct_to_passed_in"), "correct_to_passed_in", lambda: self._ask_proposer(row, None),
                   greyed=not game, reason=tr("correct_only_games")),
        ], text=tr("pot_note", note=pick(row.pot_note, row.pot_note_en)) if row.pot_note else "").open()

    def _correct(self, row: Any) -> None:
        """The entry's counts entered again, starting at what the list has now."""
        ResultPopup(lambda tricks, points, matadors: self._ask_proposer(row, (tricks, points, matadors)),
                    null_game=is_null(row.game), matador_choices=row.matador_choices,
                    heading=tr("correction_title", n=row.number,
                               game=f"{row.declarer}, {pick(row.declaration, row.declaration_en)}"),
                    tricks=row.declarer_tricks, points=row.declarer_points, matadors=row.matadors).open()

    def _ask_proposer(self, row: Any, counts: tuple[int | None, int | None, int | None] | None) -> None:
        """Who proposes the correction (his consent counts at once); every player then agrees."""
        snap = self._snap
        old = entry_words(pick(row.text, row.text_en), None)
        text = (tr("proposer_text_passed_in", n=row.number, old=old) if counts is None
                else tr("proposer_text", n=row.number, old=old))

        def propose(seat: int) -> None:
            if counts is None:
                self.app.propose_correction(row.number, seat, passed_in=True)
            else:
                tricks, points, matadors = counts
                self.app.propose_correction(row.number, seat, declarer_tricks=tricks, declarer_points=points,
                                            matadors=matadors)

        ChoicePopup(tr("proposer_title"), [
            Option(seat.name, f"propose_{seat.seat}", partial(propose, seat.seat)) for seat in snap.seats
        ], text=text).open()

    # -- ending the series --

    def end_series(self) -> None:
        snap = self._snap
        if snap is None or not snap.may_end_series:
            self.app.hint(tr("end_series_not_now"))
            return
        ChoicePopup(tr("end_series_title"), [
            Option(tr("end_series_yes"), "end_series_yes", self._end_series, kind="danger"),
        ], text=tr("end_series_text", game=snap.game_no - 1)).open()

    def _end_series(self) -> None:
        self.app.end_series()
        self.app.close_overlay()
