"""The damaged store: when the stored lists cannot be read at start-up, the table
says so on its screen in words, with what the volunteer can do, and offers the repair behind
the club PIN (``ui.commands.store.repair_store``, the same function as ``skattisch store
recover``). Nothing is overwritten: the damaged file is kept beside the restored copy. After
a repair the table starts again (the service manager restarts the program)."""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, StringProperty

from ui.i18n import tr
from ui.table.screens import TableScreen
from ui.table.viewmodels import escape


class StoreScreen(TableScreen):
    details_text = StringProperty("")
    result_text = StringProperty("")
    repaired = BooleanProperty(False)

    def show(self, snap: Any) -> None:
        if not self.repaired:
            self.details_text = escape(getattr(self.app, "store_problem", None) or "")

    def repair(self) -> None:
        """"Reparieren": behind the club PIN."""
        self.app.ask_pin(self._repair)

    def _repair(self) -> None:
        report = self.app.store_repair()
        self.repaired = report.ok
        self.details_text = ""  # the problem is answered by the result below
        lines = "\n".join(escape(line) for line in report.lines)
        self.result_text = f"[b]{tr('store_repaired') if report.ok else tr('store_not_repaired')}[/b]\n{lines}"

    def restart(self) -> None:
        self.app.stop()
