"""An error in any Kivy callback must not end the table.

Kivy hands every exception that escapes a callback (a clock event, a touch, a property
binding, a kv rule) to its ``ExceptionManager``; with no handler it re-raises and the app
ends — a whole evening's list on screen gone because one callback failed (say, an
unwritable deck file after the 32nd card of a teach-in). :class:`KeepTableRunning` logs the
error with its traceback, shows "Interner Fehler, bitte melden" in the banner and lets the
main loop go on. The service and its store are untouched by a failed callback: confirmed
games are on disk before any screen hears of them.
"""

from __future__ import annotations

import logging
from typing import Any

from kivy.base import ExceptionHandler, ExceptionManager

from ui.i18n import tr

log = logging.getLogger(__name__)


class KeepTableRunning(ExceptionHandler):  # type: ignore[misc]  # Kivy has no type hints
    """Log, tell the table, carry on; Ctrl-C and ``sys.exit`` still end the app."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.caught = 0

    def handle_exception(self, exception: BaseException) -> Any:
        if isinstance(exception, KeyboardInterrupt | SystemExit):
            return ExceptionManager.RAISE
        self.caught += 1
        log.error("error in a table callback (the table goes on): %r", exception, exc_info=exception)
        try:
            self.app.hint(tr("internal_error"), level="error")
        except Exception:  # noqa: BLE001 - the banner itself failed: the log has it
            log.exception("could not show the internal error in the banner")
        return ExceptionManager.PASS


def install(app: Any) -> KeepTableRunning:
    """Put the handler in place for ``app`` (call in ``on_start``); returns it for ``uninstall``."""
    handler = KeepTableRunning(app)
    ExceptionManager.add_handler(handler)
    return handler


def uninstall(handler: KeepTableRunning) -> None:
    ExceptionManager.remove_handler(handler)
