"""Every screen by its name, and the module that defines it (the App builds them from here;
a module of its own, so the screens can import their base from the package without a cycle).

A screen's module is imported when the screen is first built (:func:`screen_class`), not at
start-up: the first frame waits only for the screen it shows (the cold start)."""

from __future__ import annotations

import importlib

from ui.table.screens import TableScreen

# name -> (module under ui.table.screens, class); the module's .kv file has the module's name
SCREENS: dict[str, tuple[str, str]] = {
    "setup": ("setup", "SetupScreen"),
    "store": ("store", "StoreScreen"),
    "game": ("game", "GameScreen"),
    "declare": ("declare", "DeclareScreen"),
    "play": ("play", "PlayScreen"),
    "ramsch": ("ramsch", "RamschScreen"),
    "result": ("result", "ResultScreen"),
    "list": ("listing", "ListScreen"),
    "end": ("end", "EndScreen"),
    "settings": ("settings", "SettingsScreen"),
}


def screen_class(name: str) -> type[TableScreen]:
    """The class of screen ``name``, its module imported now if it was not yet."""
    module, cls = SCREENS[name]
    found: type[TableScreen] = getattr(importlib.import_module(f"ui.table.screens.{module}"), cls)
    return found
