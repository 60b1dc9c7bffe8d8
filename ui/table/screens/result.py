"""Screen 5, the result: the list entry in words ("Kreuz Hand mit 2, Spiel 3, Hand 4 = 48,
gewonnen +48") and the two confirmation taps (the declarer and one defender). When the cards
did not show the matadors, the buttons "mit 1" … "ohne 4" ask for them; after a shortened
game the skat can still be scanned."""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.properties import ColorProperty, StringProperty

from device.games import GameType
from device.table.outcome import matador_choices

from ui.i18n import tr
from ui.table_words import ending_text, note_text, result_text, to_confirm_text
from ui.table import theme
from ui.table.popups import ChoicePopup, Option
from ui.table.screens import TableScreen
from ui.table.viewmodels import escape, game_suit, result_counts, short_names
from ui.table.widgets import ButtonSpec, show_buttons


def matadors_label(value: int) -> str:
    """+2 → "mit 2", -3 → "ohne 3"."""
    return tr("with_n", n=value) if value > 0 else tr("without_n", n=-value)


def confirm_label(name: str, role: str, scale: float) -> str:
    """A confirm button's words: "✔ Bernd" in bold, his role below ("Alleinspieler", "Geber").

    The role is set in the narrow list font at the smallest size, not bold, so that
    "Alleinspieler" fits a quarter of the bottom bar at 800×480 without breaking inside the word.
    """
    label = f"[b]✔ {escape(name)}[/b]"
    if role:
        label += f"\n[font={theme.LIST_FONT}][size={int(scale * theme.FONT_MIN)}]{role}[/size][/font]"
    return label


def ramsch_lines(ramsch: Any) -> list[str]:
    """Each player's figures of an entered Ramsch: "Carla: 62 Augen, 4 Stiche (mit Skat)"."""
    lines = []
    for position, name in enumerate(ramsch.positions):
        line = tr("ramsch_line", name=name, points=ramsch.points[position], tricks=ramsch.tricks[position])
        if ramsch.skat_to == position:
            line += f" ({tr('ramsch_with_skat')})"
        lines.append(line)
    return lines


class ResultScreen(TableScreen):
    title_text = StringProperty("")
    result_text = StringProperty("")
    result_suit = StringProperty("")
    result_color = ColorProperty(theme.TEXT)
    details_text = StringProperty("")
    waiting_text = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._snap: Any = None

    def show(self, snap: Any) -> None:
        self._snap = snap
        result = snap.result
        if result is None:
            show_buttons(self.ids.confirms, [])  # put away for the next result
            show_buttons(self.ids.matadors, [])
            return
        ramsch = snap.ramsch
        self.title_text = tr("ramsch_result_title" if ramsch is not None else "result_of_game", n=snap.game_no)
        self.result_suit = game_suit(result.game)  # first: the chip's width is laid out before the text is drawn
        self.result_text = result_text(result)
        self.result_color = theme.TEXT if result.won is None else (theme.PLUS if result.won else theme.MINUS)
        details = [d for d in (ending_text(result.ending), note_text(result),
                               " ".join(result.marks)) if d]
        if result.confirmed:
            details.append(tr("confirmed_by", names=", ".join(result.confirmed)))
        declarer = next((seat.name for seat in snap.seats if seat.declarer), "")
        counts = result_counts(result, escape(declarer)) if ramsch is None else ""
        details_text = "\n".join(d for d in (counts, " · ".join(details)) if d)
        if ramsch is not None and ramsch.entered:  # one line per player, as counted
            details_text = "\n".join([*ramsch_lines(ramsch), *([details_text] if details else [])])
        seats = {s.seat: s for s in snap.seats}
        short = short_names(snap.players)
        # A dealer who sits out (four- and five-tables) may confirm in a defender's stead: SkWO
        # 7.2.2 ("Besonders der Kartengeber soll stets nachprüfen, ob das vorhergehende Spiel
        # ordnungsgemäß eingetragen ist") and 9.6 ("Der jeweilige Kartengeber ist verpflichtet,
        # die Eintragungen in der Spielliste auf ihre Richtigkeit zu überprüfen"); he belongs to
        # the Gegenpartei (SkWO 5.1). The screen says so, his button is marked "Geber".
        dealer = next((seats[s] for s in result.may_confirm if seats[s].dealer and seats[s].sits_out), None)
        waiting_text = to_confirm_text(result)
        if dealer is not None:
            waiting_text += "\n" + tr("dealer_may_confirm", name=escape(short[dealer.name]))
        # each text set once: a label set to another text and back draws it again at every refresh
        self.details_text, self.waiting_text = details_text, waiting_text
        if result.needs_spitze:  # 001 "Spitze", a result typed in: made or not?
            self._spitze_made()
        else:
            self._matadors(result.matador_choices if result.needs_matadors else ())
        # The declarer's button last: the confirm place bottom right.
        order = sorted(result.may_confirm, key=lambda s: (seats[s].declarer, s))
        specs = []
        for seat in order:
            view = seats[seat]
            role = tr("declarer_short") if view.declarer else tr("dealer_short") if view is dealer else ""
            specs.append(ButtonSpec(confirm_label(short[view.name], role, self.app.scale), f"confirm_{seat}",
                                    lambda s=seat: self.app.confirm_seat(s), kind="confirm",
                                    greyed=result.needs_matadors or result.problem is not None
                                    or result.needs_spitze,
                                    reason=tr("result_incomplete"), extra=(("bold", False),)))
        show_buttons(self.ids.confirms, specs)

    def lay_out_ahead(self, snap: Any) -> None:
        """A suit game's matador buttons ("mit 1" … "ohne 11", the most a result asks for) made
        at their place with their texts drawn, then put away: the first result that asks for
        them takes them as they are (rendering their 22 texts was half of its frame)."""
        self._matadors(matador_choices(GameType.CLUBS))

        def put_away(_dt: float) -> None:  # laid out and drawn in the frame before
            if self.manager is None or self.manager.current != self.name:
                show_buttons(self.ids.matadors, [])
        Clock.schedule_once(put_away, 0)

    def _spitze_made(self) -> None:
        self.ids.matadors.cols = 2
        show_buttons(self.ids.matadors, [ButtonSpec(tr("spitze_made" if made else "spitze_not_made"),
                                                    f"spitze_made_{'yes' if made else 'no'}",
                                                    lambda m=made: self.app.enter_spitze_made(m))
                                         for made in (True, False)])

    def _matadors(self, choices: tuple[int, ...]) -> None:
        grid = self.ids.matadors
        if choices:
            grid.cols = max(1, (len(choices) + 1) // 2)
        show_buttons(grid, [ButtonSpec(matadors_label(value), f"matadors_{'p' if value > 0 else 'm'}{abs(value)}",
                                       lambda v=value: self.app.enter_matadors(v))
                            for value in sorted(choices, key=lambda v: (v < 0, abs(v)))])

    def back(self) -> None:
        """"zurück": a confirmation already given is not thrown away without asking."""
        result = self._snap.result if self._snap is not None else None
        if result is None or not result.confirmed:
            self.app.undo()
            return
        ChoicePopup(tr("undo_confirmation_title"), [
            Option(tr("undo_confirmation_yes"), "undo_yes", self.app.undo, kind="danger"),
        ], text=tr("undo_confirmation_text", names=", ".join(escape(n) for n in result.confirmed))).open()

    def retranslate(self) -> None:
        if self._snap is not None:
            self.show(self._snap)
