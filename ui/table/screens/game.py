"""Screen 2, the game: game n of N, dealer, who sits out, the three positions by name, and
the bidding guided by the service: the next valid values as buttons, "ja", "passe"."""

from __future__ import annotations

from typing import Any

from kivy.properties import NumericProperty, StringProperty

from device.bidding import BID_VALUES
from ui.i18n import tr
from ui.table_words import bidding_history
from ui.table import theme
from ui.table.popups import ChoicePopup, Option
from ui.table.screens import TableScreen
from ui.table.viewmodels import bidding_prompt, escape, page_of_values
from ui.table.widgets import ButtonSpec, show_buttons

VALUES_PER_PAGE = 7  # plus "mehr …": eight buttons of ~95 px at 800 px wide
SETTLE_VALUES = BID_VALUES[:24]  # the direct bidding's values: 18 … 72, six a row (higher: step by step)


def game_title(snap: Any) -> str:
    """"Spiel 17/48 · Geber: Anna (sitzt aus)" from the snapshot's numbers and names."""
    if snap.series_length:
        game = tr("game_n_of", n=snap.game_no, total=snap.series_length)
    else:
        game = tr("game_n", n=snap.game_no)
    parts = [game]
    if snap.dealer_name:
        dealer = tr("dealer_is", name=snap.dealer_name)
        if snap.dealer_name in snap.sitting_out:
            dealer += " " + tr("sits_out")
        parts.append(dealer)
    others = [n for n in snap.sitting_out if n != snap.dealer_name]
    if others:
        parts.append(tr("sit_out", names=", ".join(others)))
    if snap.bock_games:
        parts.append(tr("bock_left", n=snap.bock_games))
    return " · ".join(parts)


class GameScreen(TableScreen):
    title_text = StringProperty("")
    prompt_text = StringProperty("")
    history_text = StringProperty("")
    speaker = NumericProperty(-1)
    partner = NumericProperty(-1)
    page_start = NumericProperty(0)

    def show(self, snap: Any) -> None:
        self._snap = snap
        bidding = snap.bidding
        self.title_text = game_title(snap) if snap.list is not None else ""
        words = (tr("forehand"), tr("middlehand"), tr("rearhand"))
        # a tap on a position enters the bidding's outcome at once: "Carla spielt, gereizt bis …"
        show_buttons(self.ids.positions, [ButtonSpec(
            f"[size={int(self.app.scale * theme.FONT_SMALL)}]{words[position]}[/size]\n[b]{escape(name)}[/b]",
            f"position_{position}", (lambda p=position: self.settle(p)) if bidding is not None else None,
            kind=("selected" if bidding is not None and position == bidding.speaker
                  else "normal" if bidding is not None else "flat"))
            for position, name in enumerate(snap.positions)])
        if bidding is None:
            self.prompt_text = ""
            self.history_text = ""
            show_buttons(self.ids.value_buttons, [])  # put away for the next bidding
            show_buttons(self.ids.answers, [])
            return
        if bidding.speaker != self.speaker or bidding.role == "answering":
            self.page_start = 0
        self.speaker = bidding.speaker
        self.partner = -1 if bidding.partner is None else bidding.partner
        self.prompt_text = bidding_prompt(bidding, snap.positions, self.app.language)
        self.history_text = " · ".join(bidding_history(bidding, snap.positions)[-4:]) or tr("settle_hint")
        self._show_values(bidding)
        large = (("font_size", self.app.scale * theme.FONT_LARGE),)
        show_buttons(self.ids.answers,
                     ([ButtonSpec(tr("hold"), "hold", self.app.hold, kind="confirm", extra=large)] if bidding.may_hold
                      else []) +
                     ([ButtonSpec(tr("pass"), "pass", self.app.pass_, extra=large)] if bidding.may_pass else []))

    def settle(self, position: int) -> None:
        """The bidding's outcome in two taps: this position plays, then the value bid up to."""
        name = escape(self._snap.positions[position])
        ChoicePopup(tr("settle_title", name=name), [
            Option(str(value), f"settle_{value}", lambda v=value: self.app.enter_bidding(position, v), kind="normal")
            for value in (self._snap.bidding.settle_values or SETTLE_VALUES)
        ], text=tr("settle_text"), cols=6).open()

    def _show_values(self, bidding: Any) -> None:
        grid = self.ids.value_buttons
        if not bidding.values:  # "ja" or "passe" only: the values are put away
            show_buttons(grid, [])
            return
        page = page_of_values(bidding.values, self.page_start, VALUES_PER_PAGE)
        specs = [ButtonSpec(tr("fewer_values"), "fewer_values", self.fewer)] if page.less else []
        specs += [ButtonSpec(str(value), f"bid_{value}", lambda v=value: self.app.bid(v),
                             extra=(("font_size", self.app.scale * theme.FONT_LARGE), ("bold", True)))
                  for value in page.values[: VALUES_PER_PAGE - (1 if page.less else 0)]]
        if page.more:
            specs.append(ButtonSpec(tr("more_values"), "more_values", self.more))
        show_buttons(grid, specs)

    def more(self) -> None:
        self.page_start += VALUES_PER_PAGE - (1 if self.page_start else 0)
        self.show(self._snap)

    def fewer(self) -> None:
        self.page_start = max(0, self.page_start - (VALUES_PER_PAGE - 1))
        self.show(self._snap)
