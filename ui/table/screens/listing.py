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

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import RoundedRectangle
from kivy.properties import BooleanProperty, NumericProperty, StringProperty, VariableListProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.layout import Layout
from kivy.uix.recyclelayout import RecycleLayout
from kivy.uix.recycleview.views import RecycleDataViewBehavior

from ui.i18n import pick, tr
from ui.table_words import game_text, scoring_label
from ui.table import theme
from ui.table.drawn_text import CellText, DrawnCells, box_places, drawn_label, turn_drawn_texts
from ui.table.popups import ChoicePopup, Option, ResultPopup
from ui.table.screens import TableScreen
from ui.table.viewmodels import SHORT_NAME, ListLine, entry_words, escape, is_null, list_lines, short_names, stand_lines
from ui.table.widgets import make_button, make_label, scroll_at_rest

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


def _game_text(line: ListLine) -> str:
    return line.game + (f"  [b]{line.marks}[/b]" if line.marks else "")


def _score_colour(line: ListLine) -> Any:
    return theme.PLUS if line.score_sign > 0 else (theme.MINUS if line.score_sign < 0 else theme.TEXT)


class ListCells(DrawnCells):
    """The list's header (one line, ``line_height`` 0) or footer (lines of ``line_height``
    stacked top down): drawn where and as a box of labels drew them (a padded
    horizontal box of ``spacing``; the footer a padded vertical box of such lines)."""

    padding = VariableListProperty([0, 0, 0, 0])
    spacing = NumericProperty(0)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._lines: list[list[CellText]] = []
        self._ls = 1.0
        self._line_height = 0.0

    def show(self, lines: list[list[CellText]], ls: float, line_height: float = 0) -> None:
        self._lines, self._ls, self._line_height = lines, ls, line_height
        self._redraw()

    def draw(self) -> None:
        left, top, right, bottom = self.padding
        if not self._line_height:  # one line: the box itself
            for cells in self._lines:
                self._line(cells, self.x, self.y + bottom, self.width, max(0, 1 * (self.height - (top + bottom))),
                           self._ls * FONT_ROW, self.spacing, (left, right))
            return
        y, width = bottom + self.y, max(0, 1 * (self.width - (left + right)))
        for cells in reversed(self._lines):  # a vertical box lays its last child out at the bottom
            self._line(cells, self.x + left, y, width, self._line_height, self._ls * FONT_ROW, self.spacing)
            y += self._line_height


class ListRow(RecycleDataViewBehavior, ButtonBehavior, DrawnCells):
    """One line of the list; ``odd`` rows are shaded. A tap offers to correct the entry.

    The list is a recycle view: only the rows in view have widgets, and a row scrolled away
    lends its widget to the one scrolled in (:meth:`show_line`). A row is one widget that
    draws its cells' texts itself (:func:`drawn_label`, each distinct text drawn once), where
    and as labels would: in a box padded by 4 and 14, a line of cells (number, dealer,
    declarer, the game as a :class:`~ui.table.widgets.GameText` draws it, Grundwert, Spitzen,
    Gewinnstufen, Wert, each player's total) and, a line each above the game's column, the
    entries a correction replaced, struck through. A label per cell (about 140 for the rows
    in view) made the list's first open several
    times slower than its texts."""

    odd = BooleanProperty(False)
    name = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.line: ListLine | None = None
        self.tapped: Any = None
        self._columns: Columns | None = None

    def refresh_view_attrs(self, rv: Any, index: int, data: dict[str, Any]) -> None:
        self.odd, self.name, self.tapped = data["odd"], data["name"], data["tapped"]
        self.show_line(data["line"], data["columns"])

    def let_go(self) -> None:
        """Its line and texts dropped (the list is another one now); shown again with new data."""
        super().let_go()
        self.line, self._columns, self.tapped = None, None, None

    def on_release(self) -> None:
        if self.tapped is not None and self.line is not None:
            self.tapped(int(self.line.number))

    def show_line(self, line: ListLine, columns: Columns) -> None:
        """One game on one line; a corrected one has its earlier entries struck through
        (drawn at the next frame, when the row has its place). The same line again (the recycle
        view refreshes its rows' data more than once on its way to a layout) is not drawn again."""
        if line == self.line and columns == self._columns:
            return
        self.line, self._columns = line, columns
        self._redraw()

    def draw(self) -> None:
        line, columns = self.line, self._columns
        if line is None or columns is None:
            return
        scale, ls = self._scale(), columns.ls
        height = ls * ROW_H
        [(x, width)] = box_places(self.x, self.width, 0, [None], (scale * 4, scale * 14))
        dim, name_w = theme.TEXT_DIM, ls * columns.name_w
        cells = [CellText(line.number, ls * NUMBER_W, colour=dim), CellText(escape(line.dealer), name_w, "left", dim),
                 CellText(escape(line.declarer), name_w, "left"), CellText("", None),
                 CellText(line.base, ls * BASE_W), CellText(line.tops, ls * TOPS_W),
                 CellText(line.levels, ls * LEVELS_W),
                 CellText(f"[b]{line.score}[/b]" if line.score else "", ls * VALUE_W, colour=_score_colour(line)),
                 *(CellText(cell.text, columns.player_w, bold=True) for cell in line.cells)]
        self._line(cells, x, self.y, width, height, ls * FONT_ROW, ls * GAP,
                   other=lambda game_x, game_w: self._game_column(line, game_x, game_w, x + width - game_x,
                                                                  height, scale, ls))

    def _game_column(self, line: ListLine, x: float, width: float, struck_width: float, height: float,
                     scale: float, ls: float) -> None:
        """The game in its column; above it, a line each, the entries it had before a correction,
        struck through (the oldest on top), as wide as the row leaves them from the game's column."""
        self._game_text(x, self.y, width, height, scale, ls, _game_text(line), line.suit,
                        theme.TEXT_DIM if line.passed_in else theme.TEXT)
        for above, text in enumerate(reversed(line.struck), start=1):
            self._game_text(x, self.y + above * height, struck_width, height, scale, ls, f"[s]{text}[/s]", "",
                            theme.STRUCK)

    def _game_text(self, x: float, y: float, width: float, height: float, scale: float, ls: float, text: str,
                   suit: str, colour: Any) -> None:
        """A :class:`~ui.table.widgets.GameText` (its kv rule in ``widgets.kv``): the suit chip
        (none: no width, not drawn), then the words, cut short at the right."""
        font_size = ls * FONT_ROW
        chip_h = font_size * 1.4
        chip_w = chip_h * 0.9 if suit else 0
        (chip_x, _), (words_x, words_w) = box_places(x, width, scale * 6, [chip_w, None])
        if suit:
            chip_y = y + (0.5 * height - chip_h / 2.)
            self._colour(theme.CARD_FACE)
            self._drawing.add(RoundedRectangle(pos=(chip_x, chip_y + chip_h * 0.06), size=(chip_w, chip_h * 0.88),
                                               radius=[chip_h * 0.15]))
            symbol = theme.SUIT_SYMBOL.get(suit, "")
            chip = drawn_label(symbol, (None, None), markup=False, font_size=chip_h * 0.72, halign="center",
                               valign="middle", color=theme.SUIT_COLOUR.get(suit, theme.TEXT))
            self._texture(chip, symbol, chip_x, chip_y, chip_w, chip_h)
        words = drawn_label(text, (words_w, height), font_size=font_size, font_name=theme.LIST_FONT, color=colour,
                            halign="left", valign="middle", shorten=True, shorten_from="right")
        self._texture(words, text, words_x, y, words_w, height)

    def _scale(self) -> float:
        app = App.get_running_app()
        return float(app.scale) if app is not None else 1.0


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

    def lay_out_ahead(self, snap: Any) -> None:
        """Its boxes laid out now, then ``snap``'s rows in view made at their width: laid out a
        box at a time, the header, the footer and the rows were drawn at a width or two on the
        way, and each of their texts measured, shortened and rendered for nothing."""
        for widget in self.walk(restrict=True):
            if isinstance(widget, Layout) and not isinstance(widget, RecycleLayout):  # (the rows': the view's)
                widget.do_layout()
        self.show(snap)

    def opened(self) -> None:
        turn_drawn_texts()  # the texts of the last two opens kept drawn, not an evening's
        self._scroll_to_latest()

    def forget(self) -> None:
        """The old list's rows, header and footer let go of (the rows' data, the texts drawn)."""
        self._snap = self._shown = None
        self._build_header(None)
        self._build_rows(None)
        self._build_footer(None)
        self.ids.correction.clear_widgets()
        adapter = self.ids.scroll.view_adapter  # the row widgets made so far, in view or kept for reuse
        kept = [*adapter.views.values(), *(view for views in adapter.dirty_views.values() for view in views.values())]
        for row in {*kept, *self.ids.rows.children}:
            if isinstance(row, ListRow):
                row.let_go()

    def retranslate(self) -> None:
        self._shown = None

    # -- columns --

    def _header_columns(self, players: int) -> list[CellText]:
        """The paper list's column heads."""
        ls = list_scale(self.app.scale)
        name_w = self._width(NAME_W, players)
        return [CellText(text, None if width is None else ls * width, halign, theme.TEXT_DIM)
                for text, width, halign in ((tr("col_no"), NUMBER_W, "right"), (tr("col_dealer"), name_w, "left"),
                                            (tr("col_declarer"), name_w, "left"), (tr("col_game"), None, "left"),
                                            (tr("col_base"), BASE_W, "right"), (tr("col_tops"), TOPS_W, "right"),
                                            (tr("col_levels"), LEVELS_W, "right"),
                                            (tr("col_value"), VALUE_W, "right"))]

    def _width(self, widths: dict[int, int], players: int) -> int:
        return widths[3] if self.app.scale > 1.2 else widths.get(players, widths[5])

    def _name_limit(self) -> int | None:
        """Whole names up to nine letters where the window is wide enough for them."""
        return SHORT_NAME if self.app.scale > 1.2 else None

    def _build_header(self, view: Any) -> None:
        header = self.ids.header
        if view is None:
            header.show([], 1.0)
            return
        ls = list_scale(self.app.scale)
        header.spacing = ls * GAP
        header.height = ls * 26
        short = short_names(view.players, self._name_limit())
        width = ls * self._width(PLAYER_W, len(view.players))
        header.show([[*self._header_columns(len(view.players)),
                      *(CellText(escape(short[name]), width) for name in view.players)]], ls)

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
        scroll_at_rest(scroll, 0)  # the latest rows are the ones made first (0 shows the bottom)
        self._scroll_to_latest()

    def _scroll_to_latest(self) -> None:
        """Show the latest entry (after the rows have their heights), unless the list was
        scrolled in between (a list laid out ahead opens within the 50 ms: a script scrolling
        it at once was scrolled back)."""
        placed: list[float] = []

        def scroll(_dt: float) -> None:
            scroll_view, rows = self.ids.scroll, self.ids.rows
            if placed and abs(scroll_view.scroll_y - placed[-1]) > 1e-3:
                return
            scroll_at_rest(scroll_view, 0 if rows.height > scroll_view.height else 1)
            placed.append(scroll_view.scroll_y)
        Clock.schedule_once(scroll, 0)
        Clock.schedule_once(scroll, 0.05)

    def _build_footer(self, view: Any) -> None:
        footer = self.ids.footer
        if view is None:
            footer.show([], 1.0)
            footer.height = 0
            return
        ls = list_scale(self.app.scale)
        width = ls * self._width(PLAYER_W, len(view.players))
        self.system_text = scoring_label(view.system)
        lines = stand_lines(view)
        footer.spacing = ls * GAP  # the lines' spacing (the footer's lines follow each other)
        footer.show([[CellText((f"[b]{tr('standing')}[/b]   " if index == 0 else "") + stand.label, None,
                                shorten=False),
                       *(CellText(f"[b]{text}[/b]" if stand.bold else text, width,
                                  font_size=ls * (theme.FONT if stand.bold else FONT_ROW)) for text in stand.cells)]
                      for index, stand in enumerate(lines)], ls, ls * ROW_H)
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
