"""Screen 7, the end of the series: the totals of the scoring system, the ranking, a
Preisskat's Abreizgeld of the series (when the laptop sent the evening's terms), the money
settlement, a chart of each player's running total over the evening, and the closing
confirmations (every player confirms the list, SkWO 7.2.3)."""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, StringProperty

from ui.i18n import tr
from ui.table_words import scoring_label
from ui.table import theme
from ui.table.screens import TableScreen
from ui.table.preisskat import abreiz_lines
from ui.table.viewmodels import SHORT_NAME, chart_series, escape, money_lines, short_names, standing_lines
from ui.table.widgets import TLabel, make_button, make_label


class EndScreen(TableScreen):
    title_text = StringProperty("")
    status_text = StringProperty("")
    closed = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._snap: Any = None

    def show(self, snap: Any) -> None:
        self._snap = snap
        end, view = snap.end, snap.list
        if end is None or view is None:
            return
        s = self.app.scale
        self.closed = end.closed
        self.title_text = tr("end_title") + f" · {scoring_label(end.system)}"
        self._ranking(end, view)
        money = self.ids.money
        money.clear_widgets()
        preisskat = abreiz_lines(end)  # a Preisskat's Abreizgeld first, smaller: a line per player
        for small, line in [(True, x) for x in preisskat] + [(False, x) for x in money_lines(end, view.players)]:
            size = theme.FONT_SMALL if small else theme.FONT
            height = 22 if small else 28
            label = make_label(escape(line), font_size=s * size, size_hint_y=None, height=s * height)
            # one label per payment: every one shows, at every size; long names: 2 lines
            label.bind(texture_size=lambda w, tex, h=height: setattr(w, "height", max(s * h, tex[1])))
            money.add_widget(label)
        series = chart_series(view)
        self.ids.chart.colors = [theme.PLAYER_COLOURS[i % len(theme.PLAYER_COLOURS)] for i in range(len(series))]
        self.ids.chart.series = series
        self._confirmations(snap, end)

    def _ranking(self, end: Any, view: Any) -> None:
        """Rank, the name (its chart colour and mark in front, won/lost games under it), the
        plain game points and the system's total (bold)."""
        s = self.app.scale
        grid = self.ids.ranking
        grid.clear_widgets()
        widths = (26, None, 130, 150)
        seat_of = {name: index for index, name in enumerate(view.players)}
        short = short_names(view.players, SHORT_NAME if s > 1.2 else None)  # whole names where they fit

        def cell(text: str, column: int, height: float, **kwargs: Any) -> TLabel:
            label = make_label(text, size_hint_y=None, height=s * height, shorten=column != 1,
                           halign="left" if column == 1 else "right", **kwargs)
            if widths[column] is not None:
                label.size_hint_x, label.width = None, s * widths[column]
            return label

        # the column's head: the Danish tournament scoring's long name does not fit it
        system = tr("col_scoring_danish") if str(end.system) == "danish" else scoring_label(end.system)
        header = ("", tr("col_player"), tr("col_game_points"), system)
        for column, text in enumerate(header):
            grid.add_widget(cell(text, column, 26, color=theme.TEXT_DIM, font_size=s * theme.FONT_SMALL))
        for line in standing_lines(end, view):
            index = seat_of.get(line.name, 0)
            mark = f"[color=#{theme.rgb_hex(theme.PLAYER_COLOURS[index % 5])}]{theme.PLAYER_MARKS[index % 5]}[/color]"
            grid.add_widget(cell(f"[b]{line.rank}[/b]", 0, 48, font_size=s * theme.FONT))
            grid.add_widget(cell(f"{mark} [b]{escape(short[line.name])}[/b]\n[size={int(s * theme.FONT_SMALL)}]"
                                 f"{line.won_lost}[/size]", 1, 48, font_size=s * theme.FONT, line_height=0.95))
            grid.add_widget(cell(line.game_points, 2, 48, font_size=s * theme.FONT))
            grid.add_widget(cell(f"[b]{line.total}[/b]", 3, 48, font_size=s * theme.FONT_LARGE))

    def _confirmations(self, snap: Any, end: Any) -> None:
        box = self.ids.confirms
        box.clear_widgets()
        if end.closed:
            self.status_text = tr("list_closed")
            box.add_widget(make_button(tr("new_list"), "new_list", self.app.new_list, kind="confirm"))
            return
        if end.confirmed:
            self.status_text = tr("confirmed_by", names=", ".join(end.confirmed))
        else:
            self.status_text = tr("confirm_list_prompt")
        seats = {seat.name: seat.seat for seat in snap.seats}
        short = short_names(snap.players, SHORT_NAME if self.app.scale > 1.2 else None)
        for name in end.waiting_for:
            seat = seats.get(name)
            if seat is not None:
                box.add_widget(make_button(f"✔ {escape(short[name])}", f"confirm_list_{seat}",
                                           lambda st=seat: self.app.confirm_list(st), kind="confirm",
                                           font_size=self.app.scale * (theme.FONT if len(seats) <= 4 else theme.FONT_SMALL)))

    def forget(self) -> None:
        self._snap = None
        for box in ("ranking", "money", "confirms"):
            self.ids[box].clear_widgets()
        self.ids.chart.series = []

    def retranslate(self) -> None:
        if self._snap is not None:
            self.show(self._snap)
