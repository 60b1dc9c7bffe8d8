"""The errors Skattisch raises: one base, children that are also the matching builtin."""

from __future__ import annotations


class SkatError(Exception):
    """Base of every error Skattisch raises on purpose."""


class CardError(SkatError, ValueError):
    """A card code that is not one of the 32 Skat cards."""


class DeclarationError(SkatError, ValueError):
    """A declaration the rules do not allow (ISkO 3.4.4)."""


class BidError(SkatError, ValueError):
    """A bid that is not a valid bid value or not allowed now (ISkO 3.3)."""


class PlayError(SkatError, ValueError):
    """Cards or tricks that cannot belong to one Skat game."""


class RecordError(SkatError, ValueError):
    """A game record (JSON) with a missing or wrong field.

    ``field`` names the field, ``reason`` says what is wrong with it.
    """

    def __init__(self, field: str, reason: str, german: str = "") -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason
        self.german = german  # the reason in the table's words, where the check gave one
