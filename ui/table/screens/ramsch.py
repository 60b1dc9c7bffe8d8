"""The Ramsch entry (phase "ramsch": everybody passed and the club's profile plays Ramsch):
each position's card points and tricks, the skat's points, the pushes (Schieberamsch) and
who took the last trick, typed in on a big number pad; "eintragen" sends ``EnterRamsch``.
The service scores it; the result screen then shows it in words for two confirmations."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.widget import Widget

from ui.i18n import tr
from ui.refusal_words import refusal_words
from ui.table.popups import ChoicePopup, Option
from ui.table import theme
from ui.table.screens import TableScreen
from ui.table.viewmodels import RAMSCH_POINTS, RAMSCH_TRICKS, RamschForm
from ui.table.widgets import TLabel, make_button

HEADER_HEIGHT = 40  # the names over the columns, at 800×480
PAD_KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "C", "0", "⌫")


def pad_name(key: str) -> str:
    """The script name of a number pad key: ``digit_5``, ``digit_clear``, ``digit_back``."""
    return f"digit_{key}" if key.isdigit() else ("digit_clear" if key == "C" else "digit_back")


class RamschScreen(TableScreen):
    title_text = StringProperty("")
    help_text = StringProperty("")
    balance_text = StringProperty("")
    balanced = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._snap: Any = None
        self._key: Any = None
        self.form = RamschForm()
        self._pad_built = False

    def show(self, snap: Any) -> None:
        self._snap = snap
        view = snap.ramsch
        if view is None or view.entered:
            return
        key = (snap.list_id, snap.game_no)
        if key != self._key:  # a new Ramsch: an empty form (a refused entry keeps what was typed)
            self._key = key
            self.form = RamschForm(may_push=view.may_push, max_pushes=view.max_pushes)
        self._build_pad()
        self._build(view)

    def retranslate(self) -> None:
        if self._snap is not None:
            self.show(self._snap)

    # -- building --

    def _build_pad(self) -> None:
        if self._pad_built:
            return
        self._pad_built = True
        for key in PAD_KEYS:
            self.ids.pad.add_widget(make_button(key, pad_name(key), lambda k=key: self.press(k), size_hint_y=1,
                                                font_size=self.app.scale * theme.FONT_LARGE, bold=True))

    def _filler(self) -> Widget:
        return Widget(size_hint_y=None, height=self.app.scale * theme.BUTTON_HEIGHT)

    def _field(self, field: str, label: str) -> Any:
        value = self.form.values[field]
        s = self.app.scale
        shown = "–" if value is None else str(value)
        text = (f"[size={int(s * theme.FONT_MIN)}]{label}[/size]\n"
                f"[b][size={int(s * theme.FONT_LARGE)}]{shown}[/size][/b]")
        button = make_button(text, f"ramsch_{field}", lambda: self.select(field),
                             kind="selected" if field == self.form.selected else "normal", line_height=0.9)
        button.marked = field == self.form.selected
        return button

    def _build(self, view: Any) -> None:
        s = self.app.scale
        title = tr("ramsch_title", n=self._snap.game_no)
        if view.bock > 1:
            title += " · " + tr("ramsch_bock", n=view.bock)
        self.title_text = title
        self.help_text = tr("ramsch_help")
        grid = self.ids.fields
        grid.clear_widgets()
        words = (tr("forehand"), tr("middlehand"), tr("rearhand"))
        for position, name in enumerate(view.positions):
            grid.add_widget(TLabel(text=f"[size={int(s * theme.FONT_MIN)}]{words[position]}[/size]\n[b]{name}[/b]",
                                   halign="center", line_height=0.9, size_hint_y=None,
                                   height=s * HEADER_HEIGHT))
        grid.add_widget(TLabel(text=f"[b]{tr('ramsch_skat')}[/b]", halign="center", size_hint_y=None,
                               height=s * HEADER_HEIGHT))
        for position in range(3):
            grid.add_widget(self._field(RAMSCH_POINTS[position], tr("ramsch_points")))
        grid.add_widget(self._field("skat", tr("ramsch_skat_points")))
        for position in range(3):
            grid.add_widget(self._field(RAMSCH_TRICKS[position], tr("ramsch_tricks")))
        if view.may_push:
            grid.add_widget(self._field("pushes", tr("ramsch_pushes")))
        else:
            grid.add_widget(self._filler())
        for position in range(3):
            chosen = self.form.last_trick == position
            grid.add_widget(make_button(("✔ " if chosen else "") + tr("ramsch_last_trick"), f"ramsch_last_{position}",
                                        lambda p=position: self.set_last_trick(p),
                                        kind="selected" if chosen else "normal"))
        grid.add_widget(self._filler())
        points, tricks = self.form.sums()
        self.balance_text = tr("ramsch_balance", points=points, tricks=tricks)
        self.balanced = points == 120 and tricks == 10
        missing = self._missing_text(view)
        enter = self.ids.enter_ramsch
        enter.greyed = bool(missing)
        enter.reason = missing

    def _missing_text(self, view: Any) -> str:
        missing = self.form.missing()
        if not missing:
            return ""
        names = []
        for field in missing:
            if field == "last":
                names.append(tr("ramsch_missing_last"))
            elif field == "skat":
                names.append(tr("ramsch_skat_points"))
            elif field == "pushes":
                names.append(tr("ramsch_pushes"))
            else:
                kind, position = field.split("_")
                word = tr("ramsch_points") if kind == "points" else tr("ramsch_tricks")
                names.append(f"{word} {view.positions[int(position)]}")
        return tr("ramsch_missing", fields=", ".join(names))

    # -- taps --

    def _rebuild(self) -> None:
        if self._snap is not None and self._snap.ramsch is not None:
            self._build(self._snap.ramsch)

    def select(self, field: str) -> None:
        self.form.select(field)
        self._rebuild()

    def press(self, key: str) -> None:
        self.form.press(key)
        self._rebuild()

    def set_last_trick(self, position: int) -> None:
        self.form.set_last_trick(position)
        self._rebuild()

    def enter(self) -> None:
        if self.form.missing():
            return
        self.app.enter_ramsch(*self.form.command_args())

    def ask_later_trick(self, refused: Any, values: Any) -> None:
        """Texas-Skat: two tie with the fewest Augen, the third took the last trick: which of the
        two took the later trick decides who wins (the question's words are the refusal's)."""
        options = [Option(values[f"{which}_player"], f"later_trick_{values[which]}",
                          lambda p=values[which]: self.app.submit(replace(refused, later_trick=p)))
                   for which in ("first", "second")]
        ChoicePopup(tr("later_trick_title"), options, text=refusal_words("ramsch_later_trick", values,
                                                                         self.app.language), cols=2).open()
