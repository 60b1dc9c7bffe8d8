"""Screen 7, the end of the series: the totals of the scoring system, the ranking, the money
settlement, a chart of each player's running total over the evening, and the closing
confirmations (every player confirms the list, SkWO 7.2.3)."""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from ui.i18n import pick, tr
from ui.table import theme
from ui.table.screens import TableScreen
from ui.table.viewmodels import chart_series
from ui.table.widgets import TLabel, make_button


class EndScreen(TableScreen):
    title_text = StringProperty("")
    money_text = StringProperty("")
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
        self.title_text = tr("end_title") + f" · {pick(end.system_label, end.system_label_en)}"
        ranking = self.ids.ranking
        ranking.clear_widgets()
        for standing in end.ranking:
            line = BoxLayout(size_hint_y=None, height=s * 52, spacing=s * 6)
            line.add_widget(TLabel(text=f"[b]{standing.rank}.[/b]", size_hint_x=None, width=s * 34,
                                   font_size=s * theme.FONT_LARGE))
            line.add_widget(TLabel(
                text=f"[b]{standing.name}[/b]\n[size={int(s * theme.FONT_MIN)}]"
                     f"{tr('won_lost', won=standing.won, lost=standing.lost)}[/size]",
                font_size=s * theme.FONT_LARGE, line_height=0.9))
            line.add_widget(TLabel(text=f"[b]{standing.total}[/b]", size_hint_x=None, width=s * 90, halign="right",
                                   font_size=s * theme.FONT_HUGE))
            ranking.add_widget(line)
        if end.transfers:
            self.money_text = "\n".join(pick(t.text, t.text_en) for t in end.transfers)
        elif end.stake not in ("", "0"):
            self.money_text = tr("nobody_pays")
        else:
            self.money_text = ""
        series = chart_series(view)
        self.ids.chart.colors = [theme.PLAYER_COLOURS[i % len(theme.PLAYER_COLOURS)] for i in range(len(series))]
        self.ids.chart.series = series
        legend = self.ids.legend
        legend.clear_widgets()
        for index, name in enumerate(view.players):
            colour = "".join(f"{round(c * 255):02x}" for c in theme.PLAYER_COLOURS[index % 5][:3])
            legend.add_widget(TLabel(text=f"[color=#{colour}]━━[/color] {name}", font_size=s * theme.FONT_SMALL,
                                     shorten=True))
        self._confirmations(snap, end)

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
        for name in end.waiting_for:
            seat = seats.get(name)
            if seat is not None:
                box.add_widget(make_button(f"✔ {name}", f"confirm_list_{seat}",
                                           lambda st=seat: self.app.confirm_list(st), kind="confirm"))

    def retranslate(self) -> None:
        if self._snap is not None:
            self.show(self._snap)
