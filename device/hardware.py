"""Commands that the hardware adapters submit, and what they show.

The card reader and the GPIO panel live in ``drivers/``; they speak to the service only
through these values (submitted into the :class:`device.inbox.Inbox`) and the
:class:`PanelView` they are given to show.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from device.cards import Card


@dataclass(frozen=True, slots=True)
class CardScanned:
    """The reader read a known card. ``raw`` is the payload as read (UID or barcode)."""

    card: Card
    raw: str = ""
    source: str = "reader"


@dataclass(frozen=True, slots=True)
class UnknownCardScanned:
    """The reader read a payload the deck file does not know."""

    raw: str
    reason: str


@dataclass(frozen=True, slots=True)
class ReaderStatus:
    """The reader was (dis)connected; ``detail`` says why in words an installer understands."""

    connected: bool
    port: str
    detail: str = ""


class Button(enum.Enum):
    CONFIRM = "confirm"
    BACK = "back"
    MENU = "menu"  # a long press on confirm


@dataclass(frozen=True, slots=True)
class ButtonPressed:
    button: Button
    source: str = "panel"


class Tone(enum.Enum):
    ACCEPTED = "accepted"
    REFUSED = "refused"
    ERROR = "error"


@dataclass(frozen=True, slots=True)
class PanelView:
    """What the GPIO panel shows: the dealer's LED lit, seats sitting out blinking."""

    dealer_seat: int | None = None
    sitting_out: frozenset[int] = field(default_factory=frozenset)
    reader_connected: bool = False
    sync_ok: bool = False
