"""Reading JSON that a person or another program handed us: every way it can be bad, in words.

:func:`parse_json` is :func:`json.loads` with the edges filed off, for every JSON input of
Skattisch (game records, list documents, deck files):

- a UTF-8 byte order mark in front is dropped (Windows editors write one);
- bytes that are not UTF-8 are refused, not guessed;
- a key twice in one object is refused (``json`` would silently keep the last);
- ``NaN`` and ``Infinity`` are refused; a number too large for a float (``1e400``) reads as
  ``inf``, for the field's own check to refuse with the field's range;
- integers are at most :data:`MAX_DIGITS` digits (Python refuses more than 4,300 anyway,
  with a traceback), and nesting is at most :data:`MAX_DEPTH` deep (no recursion error).

Every refusal is a :class:`JsonInputError` (a ``ValueError``) whose message says what and
where, e.g. ``line 1 column 9: the key 'bid' appears twice``.

>>> parse_json('\\ufeff{"bid": 18}')
{'bid': 18}
>>> parse_json('{"bid": 18, "bid": 20}')
Traceback (most recent call last):
...
device.jsonin.JsonInputError: the key 'bid' appears twice in one object
>>> parse_json('[' * 100 + ']' * 100)
Traceback (most recent call last):
...
device.jsonin.JsonInputError: line 1 column 65: nested more than 64 deep
>>> parse_json(b'{"name": "M\\xfcller"}')
Traceback (most recent call last):
...
device.jsonin.JsonInputError: not UTF-8 text (byte 0xfc at position 11): save it as UTF-8
"""

from __future__ import annotations

import json
import re
from typing import Any

from device.errors import SkatError

MAX_DEPTH = 64
MAX_DIGITS = 30  # no Skat figure comes near; a game id or a timestamp in ms is far shorter
BOM = "\ufeff"
_NESTING = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


class JsonInputError(SkatError, ValueError):
    """JSON input that cannot be used; the message says what is wrong and where. ``field`` is
    the key concerned when there is one (a repeated key)."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


def decode_utf8(data: bytes) -> str:
    """Bytes as text: UTF-8, a byte order mark in front dropped; else :class:`JsonInputError`.

    >>> decode_utf8(b"\\xef\\xbb\\xbfAnna")
    'Anna'
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise JsonInputError(
            f"not UTF-8 text (byte 0x{data[exc.start]:02x} at position {exc.start}): save it as UTF-8") from None


def parse_json(text: str | bytes) -> Any:
    """The JSON value in ``text`` (see the module doc for what is refused)."""
    if isinstance(text, bytes):
        text = decode_utf8(text)
    text = text.removeprefix(BOM)
    _check_depth(text)
    try:
        return json.loads(text, object_pairs_hook=_refuse_repeats, parse_constant=_refuse_constant,
                          parse_int=_checked_int)
    except json.JSONDecodeError as exc:
        raise JsonInputError(f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:  # _check_depth should have caught it; never a traceback
        raise JsonInputError(f"nested more than {MAX_DEPTH} deep") from None


def _check_depth(text: str) -> None:
    depth = 0
    for match in _NESTING.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                line = text.count("\n", 0, match.start()) + 1
                column = match.start() - text.rfind("\n", 0, match.start())
                raise JsonInputError(f"line {line} column {column}: nested more than {MAX_DEPTH} deep")
        elif token in "]}":
            depth -= 1


def _refuse_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise JsonInputError(f"the key {key!r} appears twice in one object", field=key)
        obj[key] = value
    return obj


def _refuse_constant(name: str) -> Any:
    raise JsonInputError(f"{name} is not a number JSON allows")


def _checked_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise JsonInputError(f"a whole number of {digits} digits is far too large (at most {MAX_DIGITS} digits)")
    return int(text)
