"""The names' keyboard: big keys (≥ 60 px at 800×480), German layout with
Ä Ö Ü ß, a Shift, ⌫, space and OK, in a window that shows the name being typed in large
letters on top — Kivy's stock keyboard had 36–40 px keys and covered the field.

The first letter of a name, and the one after a space or a hyphen, comes capitalised (Shift
turns itself on there); Shift otherwise holds for one letter. The keys type into the name
field itself (``insert_text``), so a script's ``type`` and a real keyboard still work."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.textinput import TextInput

from ui.i18n import tr
from ui.table import theme
from ui.table.popups import TablePopup
from ui.table.widgets import make_button, make_label

ROWS = ("qwertzuiopü", "asdfghjklöä", "yxcvbnmß-")
KEY_HEIGHT = 72  # at 800×480: four rows fit under the name, each key ≥ 60 px high and wide


def key_name(char: str) -> str:
    """The widget name of a letter's key: ``key_a``, ``key_ü``, ``key_minus``."""
    return "key_minus" if char == "-" else f"key_{char}"


class NameKeyboard(TablePopup):
    """The keyboard for ``field`` (a name field); ``label`` says whose name ("Platz 2")."""

    shift = BooleanProperty(False)
    typed = StringProperty("")
    current: NameKeyboard | None = None  # the one open, if any

    def __init__(self, field: TextInput, label: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.field = field
        NameKeyboard.current = self
        scale = float(App.get_running_app().scale)
        box = BoxLayout(orientation="vertical", padding=scale * 8, spacing=scale * 4)
        self._shown = make_label("", font_size=scale * theme.FONT_LARGE * 1.2, bold=True,
                                 size_hint_y=None, height=scale * 56, halign="left")
        box.add_widget(self._shown)
        self._letters: list[tuple[str, Any]] = []
        for row in ROWS:
            grid = GridLayout(cols=11, spacing=scale * 4, size_hint_y=None, height=scale * KEY_HEIGHT)
            if row == ROWS[-1]:
                self._shift_key = make_button("⇧", "key_shift", self.toggle_shift)
                grid.add_widget(self._shift_key)
            for char in row:
                button = make_button(char, key_name(char), lambda c=char: self.press(c),
                                     font_size=scale * theme.FONT_LARGE)
                self._letters.append((char, button))
                grid.add_widget(button)
            if row == ROWS[-1]:
                grid.add_widget(make_button("⌫", "key_back", self.backspace))
            box.add_widget(grid)
        bottom = BoxLayout(spacing=scale * 4, size_hint_y=None, height=scale * KEY_HEIGHT)
        bottom.add_widget(make_button(tr("key_space"), "key_space", lambda: self.press(" "), size_hint_x=3))
        bottom.add_widget(make_button(tr("key_ok"), "key_ok", self.done, kind="confirm", size_hint_x=1))
        box.add_widget(bottom)
        self.add_widget(box)
        self._label = label
        field.bind(text=self._refresh)
        self._refresh()

    def _refresh(self, *_: Any) -> None:
        text = self.field.text
        self.shift = self.shift or text == "" or text.endswith((" ", "-"))
        self._shown.text = f"{self._label}:  {text}▏"
        self._refresh_keys()

    def toggle_shift(self) -> None:
        self.shift = not self.shift
        self._refresh_keys()

    def _refresh_keys(self) -> None:
        self._shift_key.kind = "selected" if self.shift else "normal"  # Shift on shows blue
        for char, button in self._letters:
            button.text = char.upper() if self.shift and char != "ß" else char

    def press(self, char: str) -> None:
        typed = char.upper() if self.shift and char != "ß" else char
        self.shift = False
        self.field.insert_text(typed)

    def backspace(self) -> None:
        self.field.do_backspace()

    def retarget(self, field: TextInput) -> None:
        """Type on into ``field``: the screen was rebuilt while the keyboard was open (a card
        read, the laptop's status), and ``field`` took the place of the one being typed into,
        with what was typed so far."""
        self.field.unbind(text=self._refresh)
        self.field = field
        field.bind(text=self._refresh)
        self._refresh()

    def done(self) -> None:
        self.field.unbind(text=self._refresh)
        self.field.focus = False
        NameKeyboard.current = None
        self.dismiss()
