"""The table's touch UI (Kivy): the screens the players look at all evening.

Layout (Kivy's own examples are the model: one ``.kv`` per screen, the App as controller,
plain-Python view-models):

- :mod:`ui.table.app` — :class:`~ui.table.app.TableApp`, the controller: it pumps the table
  service on the Kivy main thread, refreshes the screens from ``snapshot()`` and offers the
  intents the screens call (``app.bid(value)``, ``app.pass_()``, ``app.confirm()``, …).
- :mod:`ui.table.screens` — one module and one ``.kv`` file per screen.
- :mod:`ui.table.viewmodels` — what each screen shows, as plain values, from a snapshot.
- :mod:`ui.table.theme` — colours, font, sizes; :mod:`ui.i18n` — the words.
- :mod:`ui.table.touch`, :mod:`ui.table.script`, :mod:`ui.table.runner` — simulated touches and
  the ``--script`` steps that drive the real UI in demos and tests.

Nothing here imports Kivy at import time except the modules that need a window; the rules
live in :mod:`device` (the screens show the service's state and send commands).
"""
