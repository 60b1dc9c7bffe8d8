"""Every screen by its name (the App builds them from here; a module of its own, so the
screens can import their base from the package without a cycle)."""

from __future__ import annotations

from ui.table.screens import TableScreen
from ui.table.screens.declare import DeclareScreen
from ui.table.screens.end import EndScreen
from ui.table.screens.game import GameScreen
from ui.table.screens.listing import ListScreen
from ui.table.screens.play import PlayScreen
from ui.table.screens.ramsch import RamschScreen
from ui.table.screens.result import ResultScreen
from ui.table.screens.settings import SettingsScreen
from ui.table.screens.setup import SetupScreen
from ui.table.screens.store import StoreScreen

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
