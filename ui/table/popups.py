"""Windows over a screen: the 32-card picker (``--simulate``), a list of choices (how a game
was shortened, the false-following question), the result entered directly, the PIN pad.

They are Kivy ``ModalView``\\ s: they sit on the window above the screens, so scripts and
tests find their buttons there (:func:`ui.table.runner.visible_widgets`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.lang import Builder
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from device.cards import DECK
from ui.i18n import tr
from ui.table import theme
from ui.table.widgets import CardChip, TButton, TLabel, make_button

# The picker's rows: one suit each (♣ ♠ ♥ ♦); columns from the highest card down, as a
# player sorts his hand: Ass, 10, König, Dame, Bube, 9, 8, 7.
PICKER_RANKS = "AT KQJ987".replace(" ", "")
MATADORS_PER_ROW = 6


@dataclass(frozen=True, slots=True)
class Option:
    label: str
    name: str
    action: Callable[[], None]
    greyed: bool = False
    reason: str = ""
    kind: str = "normal"


KV = Path(__file__).with_name("popups.kv")


def load_rules() -> None:
    """The popups' kv rules, loaded when the first popup is made: not before the first frame."""
    if str(KV) not in Builder.files:
        Builder.load_file(str(KV))


class TablePopup(ModalView):
    """A modal window in the table's colours; ``title`` on top.

    It covers the screen's hint banner, so the App shows a reason given while it is open
    (a greyed option tapped, a refusal) in the popup's own ``hint_text`` line on top."""

    title = StringProperty("")
    hint_text = StringProperty("")
    hint_level = StringProperty("hint")

    def __init__(self, **kwargs: Any) -> None:
        load_rules()  # before the widget is made: its kv rules apply in __init__
        kwargs.setdefault("auto_dismiss", False)
        kwargs.setdefault("size_hint", (0.96, 0.96))
        super().__init__(**kwargs)

    # No fading in and out: an animation delays the next tap, and a closing window that still
    # shows for a tenth of a second looks as if the tap did not take (UI.md).
    def open(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("animation", False)
        super().open(*args, **kwargs)

    def dismiss(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("animation", False)
        super().dismiss(*args, **kwargs)


class PopupHint(TLabel):
    """The reason line at the top of a popup (yellow: why not; red: refused)."""

    level = StringProperty("hint")


class ChoicePopup(TablePopup):
    """A question with big answers, one per line (or two columns), and "abbrechen"."""

    text = StringProperty("")

    def __init__(self, title: str, options: Sequence[Option], *, text: str = "", cancel: bool = True,
                 cols: int | None = None, **kwargs: Any) -> None:
        super().__init__(title=title, text=text, **kwargs)
        grid = self.ids.options
        grid.cols = cols if cols is not None else (1 if len(options) <= 3 else 2)  # all fit at 800×480
        for option in options:
            grid.add_widget(make_button(option.label, option.name, self._wrap(option.action), kind=option.kind,
                                        greyed=option.greyed, reason=option.reason))
        self.ids.cancel.opacity = 1 if cancel else 0
        self.ids.cancel.disabled = not cancel

    def _wrap(self, action: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            self.dismiss()
            action()
        return run


class CardPicker(TablePopup):
    """The 32 cards on screen, standing in for the card reader in ``--simulate``.

    Each card is a button named ``card_<code>`` (``card_CJ``). Cards the service has seen
    already are greyed out. It stays open for the next card; the current trick shows on top.
    """

    def __init__(self, on_pick: Callable[[str], None], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._on_pick = on_pick
        self._tiles: dict[str, TButton] = {}
        grid = self.ids.grid
        by_code = {card.code: card for card in DECK}
        for suit in "CSHD":
            for rank in PICKER_RANKS:
                code = suit + rank
                tile = make_button(self._label(code), f"card_{code}", lambda c=code: self._on_pick(c), kind="card")
                tile.font_size = App.get_running_app().scale * theme.FONT_LARGE
                tile.height = App.get_running_app().scale * 62
                assert code in by_code
                self._tiles[code] = tile
                grid.add_widget(tile)

    @staticmethod
    def _label(code: str) -> str:
        app = App.get_running_app()
        colour = "".join(f"{round(c * 255):02x}" for c in theme.SUIT_COLOUR[code[0]][:3])
        return f"[color=#{colour}]{theme.SUIT_SYMBOL[code[0]]} {app.rank_label(code[1])}[/color]"

    @staticmethod
    def declaration_prompt(declaration: Any) -> str:
        """What the picker is for while the game is declared: Tournée-Skat's skat card to turn
        up (the first or the second) before the skat is taken up, else the two cards pushed."""
        if declaration.skat_taken or not declaration.may_turn:
            return "push_skat_prompt"
        return "turn_card_prompt" if declaration.turned is None else "turn_second_prompt"

    def show_state(self, snap: Any) -> None:
        """Grey out the cards already seen; show the trick on the table."""
        play = snap.play
        seen = set(play.cards_seen) if play is not None else set()
        declaration = snap.declaration
        if declaration is not None:
            seen |= set(declaration.skat) | ({declaration.turned} if declaration.turned else set())
        for code, tile in self._tiles.items():
            tile.greyed = code in seen
            tile.reason = tr("card_seen")
        row = self.ids.trick
        row.clear_widgets()
        scale = App.get_running_app().scale
        if play is not None:
            trick = play.trick if play.trick.cards or play.last_trick is None else play.last_trick
            row.add_widget(TLabel(text=tr("trick_n", n=trick.number), size_hint_x=None, width=scale * 90,
                                  bold=True))
            for card in trick.cards:
                row.add_widget(TLabel(text=card.name, halign="right"))
                row.add_widget(CardChip(code=card.card, size_hint_x=None, width=scale * 46))
            if play.to_play_name:
                row.add_widget(TLabel(text=tr("to_play", name=play.to_play_name), halign="right"))
        elif declaration is not None:
            row.add_widget(TLabel(text=tr(self.declaration_prompt(declaration))))
        elif snap.result is not None:
            row.add_widget(TLabel(text=tr("skat_at_end_prompt")))


class NumberPad(BoxLayout):
    """Digits for a number (card points): ``value`` is what was typed."""

    value = StringProperty("")
    limit = NumericProperty(120)
    masked = BooleanProperty(False)  # a PIN shows dots
    fresh = BooleanProperty(False)  # filled in beforehand: the first digit types over it

    def press(self, key: str) -> None:
        if self.fresh and key.isdigit():
            self.value = ""
        self.fresh = False
        if key == "⌫":
            self.value = self.value[:-1]
        elif key == "C":
            self.value = ""
        elif len(self.value) < 3:
            candidate = (self.value + key).lstrip("0") or "0"
            if int(candidate) <= self.limit:
                self.value = candidate


class ResultPopup(TablePopup):
    """The counted result instead of the cards: the declarer's tricks and card points, then
    (not in Null) his matadors, only those the game can have (``matador_choices`` from the
    snapshot: "mit 1" … "ohne 4" in Grand, … "ohne 11" in a suit game); the service refuses
    what the counts cannot be, and says why.

    Also the re-entry of a list entry to correct it: ``heading`` names the entry, and
    ``tricks``/``points``/``matadors`` start at its counts (the one to change is retyped)."""

    tricks = NumericProperty(-1)
    page = NumericProperty(0)
    null_game = BooleanProperty(False)
    heading = StringProperty("")

    def __init__(self, on_enter: Callable[[int | None, int | None, int | None], None], *, null_game: bool,
                 matador_choices: Sequence[int] = (), heading: str = "", tricks: int | None = None,
                 points: int | None = None, matadors: int | None = None, **kwargs: Any) -> None:
        super().__init__(null_game=null_game, heading=heading, **kwargs)
        self._on_enter = on_enter
        grid = self.ids.tricks_grid
        if null_game:  # Null is won or lost: two answers, not a 0–10 grid
            grid.cols = 1
            grid.add_widget(make_button(tr("null_won"), "entry_null_won", lambda: self._null(0), size_hint_y=1))
            grid.add_widget(make_button(tr("null_lost_entry"), "entry_null_lost", lambda: self._null(None), size_hint_y=1))
            self.ids.entry_page.remove_widget(self.ids.pad.parent)  # no Augen in Null (ISkO 5.2.7)
        else:  # optional: the Augen decide the value, the tricks only Schwarz
            for n in range(11):
                grid.add_widget(make_button(str(n), f"tricks_{n}", lambda n=n: self.set_tricks(n), size_hint_y=1))
        pad = self._pad = self.ids.pad.__self__
        for key in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "C", "0", "⌫"):
            pad.ids.keypad.add_widget(make_button(key, f"digit_{key}" if key.isdigit() else
                                                  ("digit_clear" if key == "C" else "digit_back"),
                                                  lambda k=key: pad.press(k), size_hint_y=1))
        page = self.ids.matadors_page
        with_values = sorted(v for v in matador_choices if v > 0)
        # "mit" rows first, "ohne" rows under them, at most six a row: each button ≥ 120 px
        # wide at 800×480 (22 in one row were 58 px and wrapped)
        page.cols = max(1, min(MATADORS_PER_ROW, len(with_values)))
        for values in (with_values, [-v for v in with_values if -v in matador_choices]):
            for value in values:
                label = tr("with_n", n=value) if value > 0 else tr("without_n", n=-value)
                page.add_widget(make_button(label, f"matadors_{'p' if value > 0 else 'm'}{abs(value)}",
                                            lambda v=value: self._finish(v), height=self._row_height(),
                                            kind="selected" if value == matadors else "normal"))
            for _ in range(-len(values) % page.cols):  # the "ohne" rows start on a row of their own
                page.add_widget(Widget(size_hint_y=None, height=self._row_height()))
        if tricks is not None:
            self.set_tricks(tricks)
        if points is not None:
            pad.value = str(points)
            pad.fresh = True  # as on the Ramsch pad: the first digit typed replaces the old Augen
        # a correction must change something: the entry's own counts are refused with a reason
        self._unchanged = None if heading == "" else (tricks, points, matadors)

        # strong references: ``ids`` are weak, and a page out of the tree would be collected
        self._pages = [self.ids.entry_page.__self__, self.ids.matadors_page.__self__]
        self.ids.body.remove_widget(self.ids.matadors_page)

    def on_page(self, _instance: Any, page: int) -> None:
        # swap the pages: a hidden page must not lie under the shown one (Kivy's disabled
        # widgets swallow the touches that land on them)
        body = self.ids.body
        body.clear_widgets()
        body.add_widget(self._pages[page])

    @staticmethod
    def _row_height() -> float:
        return float(App.get_running_app().scale * 68)

    def set_tricks(self, n: int) -> None:
        self.tricks = n
        for button in self.ids.tricks_grid.children:
            button.kind = "selected" if button.name == f"tricks_{n}" else "normal"

    def _null(self, tricks: int | None) -> None:
        """Null "gewonnen" (no trick) or "verloren" (the tricks not counted): entered at once."""
        self.tricks = -1 if tricks is None else tricks
        self._finish(None)

    def enter(self) -> None:
        """"weiter" to the matadors; at 0 or 120 Augen first "alle Stiche?" (Schwarz) unless
        the tricks were tapped. Null: "gewonnen" or "verloren" enter it."""
        if self.null_game:
            App.get_running_app().hint(tr("null_won_or_lost"))
            return
        if not self._pad.value:
            App.get_running_app().hint(tr("points_missing"))
            return
        points = int(self._pad.value)
        if self.tricks < 0 and points in (0, 120):
            self._ask_all_tricks(points)
            return
        self.page = 1

    def _ask_all_tricks(self, points: int) -> None:
        """0 or 120 Augen: Schwarz is possible, so the tricks matter — did one party take them all?"""
        def answer(tricks: int | None) -> None:
            if tricks is not None:
                self.set_tricks(tricks)
            self.page = 1
        all_tricks = 10 if points == 120 else 0
        ChoicePopup(tr("all_tricks_title"), [
            Option(tr("all_tricks_yes_declarer" if points == 120 else "all_tricks_yes_defenders"), "all_tricks_yes",
                   lambda: answer(all_tricks)),
            Option(tr("all_tricks_no"), "all_tricks_no", lambda: answer(None)),
        ], text=tr("all_tricks_text", points=points)).open()

    def _finish(self, matadors: int | None) -> None:
        value = self._pad.value
        tricks = None if self.tricks < 0 else int(self.tricks)
        if self._unchanged is not None and (tricks, int(value) if value else None, matadors) == self._unchanged:
            App.get_running_app().hint(tr("correction_unchanged"))
            self.page = 0
            return
        self.dismiss()
        self._on_enter(tricks, int(value) if value else None, matadors)


class PinPopup(TablePopup):
    """The club PIN before the settings (and, unmasked, the laptop's pairing code)."""

    prompt = StringProperty("")

    def __init__(self, on_pin: Callable[[str], None], **kwargs: Any) -> None:
        kwargs.setdefault("size_hint", (0.6, 0.92))
        super().__init__(**kwargs)
        self._on_pin = on_pin
        self.max_length = 12
        pad = self.ids.pad
        pad.limit = 10 ** 9
        pad.masked = True
        for key in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "C", "0", "⌫"):
            pad.ids.keypad.add_widget(make_button(key, f"digit_{key}" if key.isdigit() else
                                                  ("digit_clear" if key == "C" else "digit_back"),
                                                  lambda k=key: self._press(k), size_hint_y=1))

    def _press(self, key: str) -> None:
        pad = self.ids.pad
        if key == "⌫":
            pad.value = pad.value[:-1]
        elif key == "C":
            pad.value = ""
        elif len(pad.value) < self.max_length:
            pad.value += key

    def enter(self) -> None:
        value = self.ids.pad.value
        self.ids.pad.value = ""
        self.dismiss()
        self._on_pin(value)


class Keys(GridLayout):
    """The key grid of a :class:`NumberPad`."""
