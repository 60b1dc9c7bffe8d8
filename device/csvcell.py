"""CSV cells a spreadsheet will not run: one rule for every CSV Skattisch writes.

A spreadsheet (LibreOffice Calc, Excel) runs a cell whose text starts with ``=``, ``+``,
``-`` or ``@`` as a formula, and some also after a leading tab or CR ("CSV injection"): a
player named ``=HYPERLINK(...)`` must reach the list as text. :func:`safe_cell` writes such a
*text* cell with an apostrophe in front, which spreadsheets show as the text itself.

Reading such a file back (the member list is meant to be imported again) takes that apostrophe
off, and only that one: :func:`read_cell` undoes :func:`safe_cell` for every text. A text that
itself starts with an apostrophe before such a character gets a second one, so nothing is lost.

Numbers stay numbers: an ``int``/``float``/``Fraction`` is written as it is (``-24`` is a
score to add up, not a formula), and so is text that is nothing but a plain number such as
``"-24"`` or ``"+3"`` (a spreadsheet reads it as that number and runs nothing).

>>> [safe_cell(v) for v in (-24, "-24", "=1+2", "@SUM(A1)", "+49 30 1234", "\\tx", "Anna", "", None)]
[-24, '-24', "'=1+2", "'@SUM(A1)", "'+49 30 1234", "'\\tx", 'Anna', '', '']
>>> [read_cell(str(safe_cell(v))) for v in ("=1+2", "'=1+2", "''@x", "-24", "'-24", "O'Neill", "'Anna")]
['=1+2', "'=1+2", "''@x", '-24', "'-24", "O'Neill", "'Anna"]
>>> csv_text([["Name", "Punkte"], ["=cmd|' /C calc'!A0", -24]]).splitlines()
['Name,Punkte', "'=cmd|' /C calc'!A0,-24"]
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from fractions import Fraction

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?\d+(?:[.,]\d+)?")

Cell = str | int | float | Fraction | None


def safe_cell(value: Cell) -> str | int | float | Fraction:
    """The value to hand to :func:`csv.writer` for one cell (None becomes an empty cell)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int | float | Fraction):
        return value
    return "'" + value if _guarded(value) else value


def _guarded(text: str) -> bool:
    """Whether :func:`safe_cell` puts an apostrophe in front of ``text``: a formula's start, or an
    apostrophe in front of a text that is guarded itself (so that :func:`read_cell` is exact)."""
    if text.startswith("'"):
        return _guarded(text[1:])
    return text.startswith(FORMULA_STARTS) and not _PLAIN_NUMBER.fullmatch(text)


def read_cell(text: str) -> str:
    """A text cell as :func:`safe_cell` meant it: the apostrophe it put in front taken off again."""
    return text[1:] if text.startswith("'") and _guarded(text[1:]) else text


def csv_text(rows: Iterable[Iterable[Cell]]) -> str:
    """Rows as CSV text (RFC 4180 line ends), every cell through :func:`safe_cell`."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    for row in rows:
        writer.writerow([safe_cell(cell) for cell in row])
    return buffer.getvalue()
