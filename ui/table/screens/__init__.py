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

    def lay_out_ahead(self, snap: Any) -> None:
        """Built ahead, not on view: its size is set; make what showing ``snap`` will need."""

    def opened(self) -> None:
        """Called when a person opens this screen (list, settings)."""

    def forget(self) -> None:
        """Not on view while a new list was opened: let go of what was shown of the old one
        (it is shown the new list's snapshot before it comes up again): the snapshot it keeps
        is the new one (the old one held the old list's rows)."""
        if getattr(self, "_snap", None) is not None:
            self._snap = self.app.snapshot

    def retranslate(self) -> None:
        """The language changed: texts built in Python are rebuilt on the next ``show``."""
