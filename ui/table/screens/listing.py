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
from ui.table import theme
from ui.table.popups import ChoicePopup, Option, ResultPopup
from ui.table.screens import TableScreen
from ui.table.viewmodels import ListLine, entry_words, is_null, list_lines, total_text
from ui.table.widgets import GameText, TLabel, make_button

NUMBER_W, DEALER_W, SCORE_W, PLAYER_W = 34, 78, 64, 76  # at 800×480, with four players


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
        game_text = pick(snap.game_text, snap.game_text_en)
        self.title_text = tr("list_title") + (f" · {game_text}" if game_text else "")
        self._build_header(view)
        self._build_rows(view)
        self._build_footer(view)
        self._build_correction(snap)

    def opened(self) -> None:
        self._scroll_to_latest()

    def retranslate(self) -> None:
        self._shown = None

    # -- columns --

    def _cells(self, row: BoxLayout, number: str, dealer: str, *, bold: bool = False) -> None:
        """The first two columns: the game's number and its dealer."""
        s = self.app.scale
        row.add_widget(TLabel(text=number, size_hint_x=None, width=s * NUMBER_W, halign="right", bold=bold,
                              font_size=s * theme.FONT_SMALL))
        row.add_widget(TLabel(text=dealer, size_hint_x=None, width=s * DEALER_W, bold=bold, shorten=True,
                              font_size=s * theme.FONT_SMALL, text_size=(s * DEALER_W, None)))

    def _build_header(self, view: Any) -> None:
        s = self.app.scale
        header = self.ids.header
        header.clear_widgets()
        if view is None:
            return
        self._cells(header, tr("col_no"), tr("col_dealer"), bold=True)
        header.add_widget(TLabel(text=f"[b]{tr('col_game')}[/b]", font_size=s * theme.FONT_SMALL))
        header.add_widget(TLabel(text="[b]+/−[/b]", size_hint_x=None, width=s * SCORE_W, halign="right",
                                 font_size=s * theme.FONT_SMALL))
        for name in view.players:
            header.add_widget(TLabel(text=f"[b]{name}[/b]", size_hint_x=None, width=s * PLAYER_W, halign="right",
                                     shorten=True, font_size=s * theme.FONT_SMALL, text_size=(s * PLAYER_W, None)))

    def _build_rows(self, view: Any) -> None:
        rows = self.ids.rows
        rows.clear_widgets()
        if view is None or not view.rows:
            self.empty_text = tr("no_games_yet")
            return
        self.empty_text = ""
        for index, line in enumerate(list_lines(view)):
            rows.add_widget(self._row(line, index))
        self._scroll_to_latest()

    def _scroll_to_latest(self) -> None:
        """Show the latest entry (after the rows have their heights)."""
        def scroll(_dt: float) -> None:
            scroll_view, rows = self.ids.scroll, self.ids.rows
            scroll_view.scroll_y = 0 if rows.height > scroll_view.height else 1
        Clock.schedule_once(scroll, 0)
        Clock.schedule_once(scroll, 0.05)

    def _row(self, line: ListLine, index: int) -> ListRow:
        s = self.app.scale
        row = ListRow(odd=index % 2 == 1, size_hint_y=None, height=s * 40, name=f"row_{line.number}")
        row.bind(on_release=lambda *_: self.row_tapped(int(line.number)))
        self._cells(row, line.number, line.dealer)
        game = BoxLayout(orientation="vertical", spacing=s * 2)
        texts: list[GameText] = []
        for text in line.struck:
            texts.append(GameText(text=text, struck=True, color=theme.STRUCK, wrap=True,
                                  font_size=s * theme.FONT_SMALL))
        colour = theme.TEXT_DIM if line.passed_in else theme.TEXT
        words = (f"[b]{line.declarer}[/b]  " if line.declarer else "") + line.game
        words += f"  [b]{line.marks}[/b]" if line.marks else ""
        texts.append(GameText(text=words, suit=line.suit, color=colour, wrap=True, font_size=s * theme.FONT_SMALL))
        for text in texts:
            text.size_hint_y = None
            game.add_widget(text)

        def fit(*_args: Any) -> None:  # the row grows with its text (2 lines when narrow)
            heights = [max(t.text_height, t.font_size * 1.4) for t in texts]
            for text, height in zip(texts, heights):
                text.height = height
            row.height = max(s * 40, sum(heights) + s * (8 + 2 * (len(texts) - 1)))

        for text in texts:
            text.bind(text_height=fit)
        row.add_widget(game)
        score_colour = theme.PLUS if line.score_sign > 0 else (theme.MINUS if line.score_sign < 0 else theme.TEXT)
        row.add_widget(TLabel(text=f"[b]{line.score}[/b]" if line.score else "", size_hint_x=None,
                              width=s * SCORE_W, halign="right", color=score_colour, font_size=s * theme.FONT))
        for cell in line.cells:
            row.add_widget(TLabel(text=cell.text, size_hint_x=None, width=s * PLAYER_W, halign="right",
                                  color=theme.TEXT if cell.bright else theme.TEXT_DIM, bold=cell.bright,
                                  font_size=s * theme.FONT))
        return row

    def _build_footer(self, view: Any) -> None:
        s = self.app.scale
        footer = self.ids.footer
        footer.clear_widgets()
        if view is None:
            return
        self.system_text = pick(view.system_label, view.system_label_en)
        footer.add_widget(TLabel(text=f"[b]{tr('standing')}[/b]  {self.system_text}", font_size=s * theme.FONT))
        for total in view.totals:
            footer.add_widget(TLabel(text=f"[b]{total_text(total)}[/b]", size_hint_x=None, width=s * PLAYER_W, halign="right",
                                     font_size=s * theme.FONT_LARGE))

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
        line = TLabel(text=words,
                      size_hint_y=None, font_size=s * theme.FONT_SMALL, color=theme.HINT)
        box.add_widget(line)

        def fit(*_args: Any) -> None:  # two lines when the entries are long
            line.height = max(s * 30, line.texture_size[1] + s * 4)
            box.height = line.height + s * (theme.BUTTON_HEIGHT + 4)

        line.bind(texture_size=fit)
        fit()
        buttons = BoxLayout(spacing=s * 6, size_hint_y=None, height=s * theme.BUTTON_HEIGHT)
        buttons.add_widget(TLabel(text=tr("consent_prompt"), size_hint_x=None, width=s * 140, bold=True))
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
        ]).open()

    def _correct(self, row: Any) -> None:
        """The entry's counts entered again, starting at what the list has now."""
        ResultPopup(lambda tricks, points, matadors: self._ask_proposer(row, (tricks, points, matadors)),
                    null_game=is_null(row.game), matador_choices=row.matador_choices,
                    heading=tr("correction_title", n=row.number,
                               game=f"{row.declarer}, {pick(row.declaration, row.declaration_en)}"),
                    tricks=row.declarer_tricks, points=row.declarer_points, matadors=row.matadors).open()

    def _ask_proposer(self, row: Any, counts: tuple[int, int | None, int | None] | None) -> None:
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
