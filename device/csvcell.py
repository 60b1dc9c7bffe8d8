"""CSV cells a spreadsheet will not run: one rule for every CSV Skattisch writes.

A spreadsheet (LibreOffice Calc, Excel) runs a cell whose text starts with ``=``, ``+``,
``-`` or ``@`` as a formula, and some also after a leading tab or CR ("CSV injection"): a
player named ``=HYPERLINK(...)`` must reach the list as text. :func:`safe_cell` writes such a
*text* cell with an apostrophe in front, which spreadsheets show as the text itself.

Numbers stay numbers: an ``int``/``float``/``Fraction`` is written as it is (``-24`` is a
score to add up, not a formula), and so is text that is nothing but a plain number such as
``"-24"`` or ``"+3"`` (a spreadsheet reads it as that number and runs nothing).

>>> [safe_cell(v) for v in (-24, "-24", "=1+2", "@SUM(A1)", "+49 30 1234", "\\tx", "Anna", "", None)]
[-24, '-24', "'=1+2", "'@SUM(A1)", "'+49 30 1234", "'\\tx", 'Anna', '', '']
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
    if value.startswith(FORMULA_STARTS) and not _PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


def csv_text(rows: Iterable[Iterable[Cell]]) -> str:
    """Rows as CSV text (RFC 4180 line ends), every cell through :func:`safe_cell`."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    for row in rows:
        writer.writerow([safe_cell(cell) for cell in row])
    return buffer.getvalue()
