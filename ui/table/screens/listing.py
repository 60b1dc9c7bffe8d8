"""Screen 6, the list (Spielliste), laid out like the paper list: game number, dealer, the
game in words with its declarer, the entry (+/−) and each player's running total — bright
where the row changed it, as the paper list writes only those; eingepasst rows; corrected
entries with their earlier text struck through. Opened from every screen, scrolled to the
latest entry.

A tap on an entry offers to correct it (ISkO 5.5.3): the game's counts entered again (the
result entry, started at the entry's counts), or "war eingepasst"; then who proposes it.
The proposal waits on top of the list with a consent button per player and "zurückziehen"."""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout

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


class ListRow(ButtonBehavior, BoxLayout):
    """One line of the list; ``odd`` rows are shaded. A tap offers to correct the entry."""

    odd = BooleanProperty(False)
    name = StringProperty("")


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

    def _columns(self, row: BoxLayout, line: ListLine | None, players: int, *, header: bool = False) -> None:
        """The paper list's columns of one line (``line`` None: the header)."""
        ls = list_scale(self.app.scale)
        size = ls * FONT_ROW
        name_w = self._width(NAME_W, players)
        dim = theme.TEXT_DIM

        def cell(text: str, width: float | None, *, halign: str = "right", **kwargs: Any) -> None:
            label = make_label(text, halign=halign, font_size=size, shorten=True, font_name=theme.LIST_FONT, **kwargs)
            if width is not None:
                label.size_hint_x, label.width = None, ls * width
                label.text_size = (ls * width, None)
            row.add_widget(label)

        if line is None:
            for text, width, halign in ((tr("col_no"), NUMBER_W, "right"), (tr("col_dealer"), name_w, "left"),
                                        (tr("col_declarer"), name_w, "left"), (tr("col_game"), None, "left"),
                                        (tr("col_base"), BASE_W, "right"), (tr("col_tops"), TOPS_W, "right"),
                                        (tr("col_levels"), LEVELS_W, "right"), (tr("col_value"), VALUE_W, "right")):
                cell(text, width, halign=halign, color=dim)
            return
        cell(line.number, NUMBER_W, color=dim)
        cell(escape(line.dealer), name_w, halign="left", color=dim)
        cell(escape(line.declarer), name_w, halign="left")
        game = GameText(text=line.game + (f"  [b]{line.marks}[/b]" if line.marks else ""), suit=line.suit,
                        font_size=size, color=theme.TEXT_DIM if line.passed_in else theme.TEXT,
                        font_name=theme.LIST_FONT)
        row.add_widget(game)
        cell(line.base, BASE_W)
        cell(line.tops, TOPS_W)
        cell(line.levels, LEVELS_W)
        score_colour = theme.PLUS if line.score_sign > 0 else (theme.MINUS if line.score_sign < 0 else theme.TEXT)
        cell(f"[b]{line.score}[/b]" if line.score else "", VALUE_W, color=score_colour)

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
        self._columns(header, None, len(view.players), header=True)
        short = short_names(view.players, self._name_limit())
        width = ls * self._width(PLAYER_W, len(view.players))
        for name in view.players:
            header.add_widget(make_label(escape(short[name]), size_hint_x=None, width=width,
                                     halign="right", shorten=True, font_size=ls * FONT_ROW, text_size=(width, None),
                                     font_name=theme.LIST_FONT))

    def _build_rows(self, view: Any) -> None:
        rows = self.ids.rows
        rows.clear_widgets()
        if view is None or not view.rows:
            self.empty_text = tr("no_games_yet")
            return
        self.empty_text = ""
        for index, line in enumerate(list_lines(view, self._name_limit())):
            rows.add_widget(self._row(line, index, len(view.players)))
        self._scroll_to_latest()

    def _scroll_to_latest(self) -> None:
        """Show the latest entry (after the rows have their heights)."""
        def scroll(_dt: float) -> None:
            scroll_view, rows = self.ids.scroll, self.ids.rows
            scroll_view.scroll_y = 0 if rows.height > scroll_view.height else 1
        Clock.schedule_once(scroll, 0)
        Clock.schedule_once(scroll, 0.05)

    def _row(self, line: ListLine, index: int, players: int) -> ListRow:
        """One game on one line; a corrected one has its earlier entry struck through above."""
        ls = list_scale(self.app.scale)
        height = ls * ROW_H * (1 + len(line.struck))
        row = ListRow(odd=index % 2 == 1, size_hint_y=None, height=height, name=f"row_{line.number}",
                      orientation="vertical")
        for text in line.struck:
            row.add_widget(GameText(text=text, struck=True, color=theme.STRUCK, font_size=ls * FONT_ROW,
                                    size_hint_y=None, height=ls * ROW_H, font_name=theme.LIST_FONT))
        body = BoxLayout(spacing=ls * GAP, size_hint_y=None, height=ls * ROW_H)
        self._columns(body, line, players)
        width = ls * self._width(PLAYER_W, players)
        for cell in line.cells:
            body.add_widget(make_label(cell.text, size_hint_x=None, width=width, halign="right", bold=True,
                                   shorten=True, font_size=ls * FONT_ROW, text_size=(width, None),
                                   font_name=theme.LIST_FONT))
        row.add_widget(body)
        row.bind(on_release=lambda *_: self.row_tapped(int(line.number)))
        return row

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
            line.add_widget(make_label(f"{head}{stand.label}", font_size=ls * FONT_ROW, halign="right",
                                   font_name=theme.LIST_FONT))
            for text in stand.cells:
                line.add_widget(make_label(f"[b]{text}[/b]" if stand.bold else text, size_hint_x=None, width=width,
                                       halign="right", font_size=ls * (theme.FONT if stand.bold else FONT_ROW),
                                       shorten=True, text_size=(width, None), font_name=theme.LIST_FONT))
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
