"""Screen 9, the settings, behind the club PIN: table number, the reader (port, state, deck
teach-in), a test of the panel's buttons, LEDs and buzzer, the sync target, the language,
shutting the table down; the version the table runs between the bottom bar's buttons.

Changes of the table number and the language apply at once, for this evening; the config
file (``skattisch config``) keeps the lasting settings.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.properties import StringProperty

from ui.i18n import sync_text, tr
from ui.table.popups import ChoicePopup, Option, TablePopup
from ui.table.screens import TableScreen


class TeachInPopup(TablePopup):
    """Deck teach-in: lay the 32 cards on the reader in the order shown."""

    prompt = StringProperty("")
    last = StringProperty("")


class GpioTestPopup(TablePopup):
    """Press the panel's buttons and see them arrive; light each LED; sound the buzzer."""

    last = StringProperty("")


class SettingsScreen(TableScreen):
    reader_text = StringProperty("")
    sync_text = StringProperty("")
    laptop_text = StringProperty("")
    table_text = StringProperty("")
    version_text = StringProperty("")  # the installed version, in the bottom bar

    def show(self, snap: Any) -> None:
        from drivers.version import skattisch_version

        self.version_text = tr("version", version=skattisch_version())
        reader = snap.reader
        config = self.app.table_config
        port = reader.port or (config.reader.port if config is not None else "")
        if self.app.simulate:
            self.reader_text = tr("reader_simulated")
        else:
            state = tr("reader_connected") if reader.connected else tr("reader_disconnected")
            why = reader.detail if reader.detail and not reader.connected else ""  # connected: nothing to add
            self.reader_text = f"{port or '–'} · {state}" + (f" · {why}" if why else "")
            if self.app.deck_problem:
                self.reader_text = f"[b]{tr('deck_missing')}[/b]"  # the one thing to do here
        url = config.sync.url if config is not None and config.sync.url else tr("no_sync_target")
        self.sync_text = f"{url} · {sync_text(snap.sync)}".rstrip(" ·")
        self.laptop_text = snap.sync.laptop or sync_text(snap.sync)
        self.table_text = str(self.app.table_number)

    def opened(self) -> None:
        if self.app.snapshot is not None:
            self.show(self.app.snapshot)

    def change_table(self, delta: int) -> None:
        self.app.table_number = max(1, min(99, self.app.table_number + delta))
        self.table_text = str(self.app.table_number)
        self.app.refresh()

    # -- teach-in --

    def teach_in(self) -> None:
        from drivers.deck import DeckLearner

        learner = DeckLearner()
        popup = TeachInPopup(title=tr("deck_teach"))
        popup.prompt = learner.prompt()

        def offer(command: Any) -> None:
            raw = getattr(command, "raw", "")
            if not raw or learner.done:
                return
            step = learner.offer(raw)
            popup.last = step.message
            popup.prompt = learner.prompt()
            if learner.done:
                path = self._deck_path()
                deck = learner.deck(source=str(path))
                try:
                    deck.save(path)
                    popup.last = tr("deck_saved", path=path)
                except OSError as exc:  # e.g. a folder the table may not write: keep the deck
                    popup.last = tr("deck_not_saved", reason=f"{path}: {exc.strerror or exc}")
                self.app.use_deck(deck)
                self.show(self.app.service.snapshot())

        self.app.capture_reader(offer)
        popup.bind(on_dismiss=lambda *_: self.app.capture_reader(None))
        popup.open()

    def _deck_path(self) -> Path:
        config = self.app.table_config
        if config is not None and config.reader.deck is not None:
            return Path(config.reader.deck)
        base = Path(config.store.path) if config is not None else Path.home()
        return base / "deck.json"

    # -- pairing with the club laptop --

    def pair_laptop(self) -> None:
        """Take the six-digit code the laptop shows (typed, or scanned as a barcode) and pair."""
        from ui.table.popups import PinPopup

        client = getattr(self.app, "sync_client", None)
        if client is None:
            self.app.hint(tr("pair_unavailable"), level="error")
            return
        popup = PinPopup(lambda code: self._pair(client, code), prompt=tr("pair_prompt"))
        popup.ids.pad.masked = False
        popup.max_length = 6

        def scanned(command: Any) -> None:
            raw = str(getattr(command, "raw", "") or "").strip()
            if len(raw) == 6 and raw.isdigit():
                popup.ids.pad.value = raw

        self.app.capture_reader(scanned)
        popup.bind(on_dismiss=lambda *_: self.app.capture_reader(None))
        popup.open()

    def _pair(self, client: Any, code: str) -> None:
        import threading

        def work() -> None:  # the network is slow: not on the UI thread
            try:
                state = client.pair(code, name=f"Tisch {self.app.table_number}")  # the laptop numbers its tiles by it
            except OSError as exc:
                message, level = tr("pair_failed", reason=str(exc)), "error"
            else:
                message, level = tr("paired_with", laptop=state.laptop or state.url), "info"
            Clock.schedule_once(lambda _dt: self.app.hint(message, level=level), 0)

        threading.Thread(target=work, name="skattisch-pair", daemon=True).start()

    # -- GPIO test --

    def gpio_test(self) -> None:
        popup = GpioTestPopup(title=tr("gpio_test"))
        popup.last = tr("press_a_button")

        def seen(command: Any) -> None:
            button = getattr(command, "button", None)
            if button is not None:
                popup.last = tr("button_seen", button=tr(f"button_{button.value}"))

        self.app.capture_panel(seen)
        popup.bind(on_dismiss=lambda *_: self.app.capture_panel(None))
        popup.open()

    def light_seat(self, seat: int) -> None:
        from device.hardware import PanelView, Tone

        panel = self.app.panel
        if panel is not None:
            panel.show(PanelView(dealer_seat=seat, reader_connected=True, sync_ok=True))
            panel.beep(Tone.ACCEPTED)
            Clock.schedule_once(lambda _dt: self.app.force_panel_update(), 2.0)

    def beep(self, tone: str) -> None:
        from device.hardware import Tone

        if self.app.panel is not None:
            self.app.panel.beep(Tone(tone))

    # -- shutting down --

    def shutdown(self) -> None:
        ChoicePopup(tr("shutdown_title"), [
            Option(tr("shutdown_yes"), "shutdown_yes", self.app.shutdown, kind="danger"),
        ], text=tr("shutdown_text")).open()

