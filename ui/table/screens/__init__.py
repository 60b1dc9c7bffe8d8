"""The screens, one module and one ``.kv`` file each, and their common base.

A screen reads the snapshot in :meth:`TableScreen.show` (called on every refresh, on every
screen, so a screen is up to date the moment it is shown) and calls the App's intents.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.uix.layout import Layout
from kivy.uix.screenmanager import Screen


def lay_out_now(widget: Any) -> None:
    """Lay ``widget`` and the layouts in it out now, parents first, instead of in the frame's
    layout passes: texts set before then are drawn once, at their widths (a label whose
    ``text_size`` follows its width is otherwise drawn at Kivy's default 100 px first, then
    again)."""
    from kivy.uix.recyclelayout import RecycleLayout  # lays out through its recycle view only

    for child in widget.walk(restrict=True):
        if isinstance(child, Layout) and not isinstance(child, RecycleLayout):
            child.do_layout()


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
