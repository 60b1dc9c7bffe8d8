"""Barcode symbologies a deck may use, and the check each line read must pass.

A barcode scanner sends the text of a code and nothing to check it by, unless the symbology
carries a check character the scanner passes on. A deck file names its symbology in
``"barcode"`` (see :mod:`drivers.deck`); the reader then accepts only lines well-formed for it:

==================  =============================================  ================================
``"barcode"``       a line is well-formed when                     check
==================  =============================================  ================================
``text`` (default)  printable ASCII, 1 to 128 characters           none: a misread line can be
                                                                   another card
``ean13``           13 digits                                      GTIN mod-10 check digit (last)
``ean8``            8 digits                                       GTIN mod-10 check digit (last)
``upca``            12 digits                                      GTIN mod-10 check digit (last)
``code39-mod43``    Code 39 characters (``0-9 A-Z - . space $ /    mod-43 check character (last),
                    + %``), then the check character               removed from the payload
==================  =============================================  ================================

The GTIN check digit catches every single wrong digit and most swaps of neighbours; the
mod-43 character every single wrong character. Code 39 with mod 43 suits bare card codes:
the card ``CJ`` printed with its check character reads ``CJV``; the scanner must be set
to *transmit* the check character (most send it by default for EAN/UPC, not for Code 39).

>>> check_line("4006381333931", Symbology.EAN13)
'4006381333931'
>>> check_line("4006381333932", Symbology.EAN13)
Traceback (most recent call last):
...
ValueError: check digit 2 is wrong for ean13 '4006381333932' (expected 1)
>>> code39_mod43_check("CJ"), check_line("CJV", Symbology.CODE39_MOD43)
('V', 'CJ')
"""

from __future__ import annotations

import enum

CODE39_CHARSET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-. $/+%"
_GTIN_LENGTH = {"ean13": 13, "ean8": 8, "upca": 12}


class Symbology(enum.Enum):
    """How a deck's barcodes are checked; the value is what a deck file says."""

    TEXT = "text"
    EAN13 = "ean13"
    EAN8 = "ean8"
    UPCA = "upca"
    CODE39_MOD43 = "code39-mod43"

    @classmethod
    def parse(cls, text: object) -> Symbology:
        try:
            return cls(str(text).strip().lower())
        except ValueError:
            names = ", ".join(s.value for s in cls)
            raise ValueError(f"unknown barcode symbology {text!r}: one of {names}") from None


def gtin_check_digit(digits: str) -> int:
    """The GTIN (EAN/UPC) mod-10 check digit of the digits before it.

    >>> gtin_check_digit("400638133393")
    1
    """
    total = sum(int(d) * (3 if i % 2 == 0 else 1) for i, d in enumerate(reversed(digits)))
    return (10 - total % 10) % 10


def code39_mod43_check(data: str) -> str:
    """The Code 39 mod-43 check character of ``data``."""
    return CODE39_CHARSET[sum(CODE39_CHARSET.index(c) for c in data) % 43]


def check_line(text: str, symbology: Symbology) -> str:
    """The payload of a scanned line, or ``ValueError`` saying why the line is refused."""
    if symbology is Symbology.TEXT:
        return text
    if symbology is Symbology.CODE39_MOD43:
        upper = text.upper()
        if len(upper) < 2 or any(c not in CODE39_CHARSET for c in upper):
            raise ValueError(f"not a Code 39 line with its check character: {text!r}")
        data, sent = upper[:-1], upper[-1]
        if code39_mod43_check(data) != sent:
            raise ValueError(f"check character {sent!r} is wrong for {text!r} (expected {code39_mod43_check(data)!r})")
        return data
    length = _GTIN_LENGTH[symbology.value]
    if len(text) != length or not text.isascii() or not text.isdigit():
        raise ValueError(f"not a {symbology.value} code ({length} digits): {text!r}")
    expected = gtin_check_digit(text[:-1])
    if int(text[-1]) != expected:
        raise ValueError(f"check digit {text[-1]} is wrong for {symbology.value} {text!r} (expected {expected})")
    return text
