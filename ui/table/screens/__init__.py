"""The screens, one module and one ``.kv`` file each, and their common base.

A screen reads the snapshot in :meth:`TableScreen.show` (called on every refresh, on every
screen, so a screen is up to date the moment it is shown) and calls the App's intents.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.uix.screenmanager import Screen


class TableScreen(Screen):
    """Base of every screen."""

    @property
    def app(self) -> Any:
        return App.get_running_app()

    def show(self, snap: Any) -> None:
        """Show ``snap`` (a :class:`device.table.snapshot.TableSnapshot`)."""

    def opened(self) -> None:
        """Called when a person opens this screen (list, settings)."""

    def retranslate(self) -> None:
        """The language changed: texts built in Python are rebuilt on the next ``show``."""


from ui.table.screens.declare import DeclareScreen  # noqa: E402
from ui.table.screens.end import EndScreen  # noqa: E402
from ui.table.screens.game import GameScreen  # noqa: E402
from ui.table.screens.listing import ListScreen  # noqa: E402
from ui.table.screens.play import PlayScreen  # noqa: E402
from ui.table.screens.ramsch import RamschScreen  # noqa: E402
from ui.table.screens.result import ResultScreen  # noqa: E402
from ui.table.screens.settings import SettingsScreen  # noqa: E402
from ui.table.screens.setup import SetupScreen  # noqa: E402
from ui.table.screens.store import StoreScreen  # noqa: E402

SCREEN_CLASSES: dict[str, type[TableScreen]] = {
    "setup": SetupScreen,
    "store": StoreScreen,
    "game": GameScreen,
    "declare": DeclareScreen,
    "play": PlayScreen,
    "ramsch": RamschScreen,
    "result": ResultScreen,
    "list": ListScreen,
    "end": EndScreen,
    "settings": SettingsScreen,
}
