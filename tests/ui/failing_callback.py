"""``skattisch`` with a callback that fails on purpose: for tests/ui/test_errors.py.

Runs ``ui.cli.main`` with the arguments given, after arranging that a Kivy clock callback
raises once, shortly after the table is up (the way an unwritable file would fail in a
callback). The table must log it, say "Interner Fehler, bitte melden" and go on.
"""

from __future__ import annotations

import sys

from kivy.clock import Clock

from ui.cli import main
from ui.table.app import TableApp

FAILURE = "deliberate failure in a clock callback"


def fail(_dt: float) -> None:
    raise RuntimeError(FAILURE)


_on_start = TableApp.on_start


def on_start(self: TableApp) -> None:
    _on_start(self)
    Clock.schedule_once(fail, 0)


TableApp.on_start = on_start  # type: ignore[method-assign]

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
