"""Adapters chosen by name from the config, each with its simulated twin.

The composition root (``skattisch run``) calls these once: nothing here opens a port or a
pin until it is called. ``simulate=True`` gives the fakes used by the tests and by
``skattisch run --simulate`` on a laptop: a :class:`SimulatedReader` (the on-screen card
picker scans through it) and a :class:`~drivers.panel.FakePanel` (on-screen buttons).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from device.cards import Card
from device.hardware import CardScanned, ReaderStatus, UnknownCardScanned
from device.ports import CardReader, EventStore, Panel
from drivers.config import Config, ReaderConfig

if TYPE_CHECKING:
    from drivers.deck import Deck

Submit = Callable[[object], None]


@dataclass(frozen=True, slots=True)
class DeckLoad:
    """The configured deck, or why there is none the reader could use (``problem``, "" if fine)."""

    deck: Deck | None
    problem: str = ""


def load_deck(config: ReaderConfig) -> DeckLoad:
    """The deck file ``reader.deck`` names, never raising: a missing or broken file gives no
    deck and the reason, so that the table starts without the reader (results typed in) and
    says "Kartensatz fehlt: anlernen" instead of stopping. ``skattisch config`` reports the
    same reason. A missing file is fine for barcodes that carry the card codes themselves."""
    from drivers.deck import Deck, DeckError

    path = config.deck
    if not config.enabled or path is None:
        return DeckLoad(None)
    if not path.exists() and config.mode == "barcode":
        return DeckLoad(None)
    if not path.exists():
        return DeckLoad(None, f"reader.deck {path} does not exist yet: teach the deck in "
                              "(Einstellungen → Kartensatz anlernen)")
    try:
        return DeckLoad(Deck.load(path))
    except DeckError as exc:
        return DeckLoad(None, f"{exc}: teach the deck in again (Einstellungen → Kartensatz anlernen)")


class SimulatedReader:
    """A card reader without hardware: :meth:`scan` submits what a real reader would.

    Implements :class:`device.ports.CardReader`; :meth:`unplug`/:meth:`replug` let a test or
    a demo show the reader status changing.
    """

    port = "simulated"

    def __init__(self) -> None:
        self._submit: Submit | None = None
        self._lock = threading.Lock()
        self.connected = False

    def start(self, submit: Submit) -> None:
        with self._lock:
            self._submit = submit
        self.replug()

    def scan(self, card: Card | str) -> threading.Thread:
        """One card read: a card, or a code (an unknown code is reported like a real reader's).

        Submitted from a thread of its own, as the serial reader's thread does, so the
        simulation exercises the same thread hand-over; join the returned thread to wait.
        """
        if isinstance(card, str):
            try:
                command: object = CardScanned(Card.parse(card), raw=card.strip().upper(), source="reader")
            except ValueError:
                command = UnknownCardScanned(raw=card, reason=f"unbekannte Karte {card!r}")
        else:
            command = CardScanned(card, raw=card.code, source="reader")
        thread = threading.Thread(target=self._send, args=(command,), name="simulated reader")
        thread.start()
        return thread

    def unplug(self) -> None:
        self.connected = False
        self._send(ReaderStatus(False, self.port, "Leser getrennt (Simulation)"))

    def replug(self) -> None:
        self.connected = True
        self._send(ReaderStatus(True, self.port, "Simulation: Karten im Kartenwähler antippen"))

    def close(self) -> None:
        with self._lock:
            self._submit = None
        self.connected = False

    def _send(self, command: object) -> None:
        with self._lock:
            submit = self._submit
        if submit is not None:
            submit(command)


def build_reader(
    config: ReaderConfig, *, simulate: bool, deck: Deck | None = None
) -> CardReader | SimulatedReader | None:
    """The configured card reader, not started (call ``start(submit)``); None when the config
    says the table has none (results typed in), a :class:`SimulatedReader` when simulating.

    ``deck``: from :func:`load_deck`; without one the reader still runs (a deck can be taught
    in through it), and tags it cannot name are refused with the reason."""
    if simulate:
        return SimulatedReader()
    if not config.enabled:
        return None
    from drivers.reader import SerialCardReader

    confirm = None if config.confirm_ms is None else config.confirm_ms / 1000
    return SerialCardReader(config.port, mode=config.mode, baud=config.baud, deck=deck,
                            debounce=config.debounce_ms / 1000, confirm=confirm)


@dataclass(frozen=True, slots=True)
class PanelLoad:
    """The panel the table drives, and why it is not the configured one (``problem``, "" if fine)."""

    panel: Panel
    problem: str = ""


def build_panel(config: Config, submit: Submit, *, simulate: bool) -> PanelLoad:
    """The GPIO panel, or a :class:`~drivers.panel.FakePanel` when simulating or disabled.

    Never raising: a panel whose GPIO cannot be opened (no pin library, not a Pi or an unknown
    board revision, no gpiochip, a pin busy or denied) gives a FakePanel and the reason, so that
    the table starts without its buttons (everything can be tapped) and says so on its screen."""
    from drivers.panel import FakePanel, PanelError, open_panel

    if simulate:
        return PanelLoad(FakePanel(submit))
    try:
        return PanelLoad(open_panel(config.gpio, submit))
    except PanelError as exc:
        return PanelLoad(FakePanel(submit), str(exc))


def build_store(config: Config, *, simulate: bool, directory: Path | None = None) -> EventStore:
    """The durable store under the configured path; in a simulation a store in ``directory``
    (a temporary folder the caller owns) or in memory."""
    from drivers.store import MemoryEventStore, JournalEventStore

    if simulate:
        return JournalEventStore(directory) if directory is not None else MemoryEventStore()
    return JournalEventStore(config.store.path)
