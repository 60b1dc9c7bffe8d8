"""What may go into the store: list ids that can name a file, events that are JSON, and the
store's own JSON reading and writing."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from device.ports import JSONDict
from drivers.store.errors import InvalidEventError, InvalidListIdError, StoreError

Tables = dict[str, dict[str, Any]]


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name}, which is not a number a list can hold")


_LIST_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")


def check_list_id(list_id: object) -> str:
    """Return ``list_id`` if it can name a list file, else raise :class:`InvalidListIdError`.

    >>> check_list_id("2026-11-22-tisch-3")
    '2026-11-22-tisch-3'
    >>> check_list_id("../x")
    Traceback (most recent call last):
    ...
    drivers.store.errors.InvalidListIdError: list id '../x' is not allowed: use 1 to 100 letters, digits, '-', '_' or '.', starting with a letter or digit
    """
    if isinstance(list_id, str) and _LIST_ID.fullmatch(list_id):
        return list_id
    raise InvalidListIdError(
        f"list id {list_id!r} is not allowed: use 1 to 100 letters, digits, '-', '_' or '.',"
        " starting with a letter or digit"
    )


def _to_json(value: object, where: str) -> Any:
    """A plain JSON copy of ``value``; :class:`InvalidEventError` names the first bad part."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        return str.__str__(value)  # plain text, also for str-based enums
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidEventError(f"{where} is {value!r}, which JSON cannot hold")
        return float(value)
    if isinstance(value, Mapping):
        for key in value:
            if not isinstance(key, str):
                raise InvalidEventError(f"{where} has the key {key!r}: JSON keys must be text")
        # Sorted keys: the event's bytes in a journal line are then its canonical JSON.
        return {str.__str__(key): _to_json(value[key], f"{where}.{key}") for key in sorted(value)}
    if isinstance(value, (list, tuple)):
        return [_to_json(item, f"{where}[{i}]") for i, item in enumerate(value)]
    raise InvalidEventError(f"{where} is a {type(value).__name__}, not a JSON value")


def _events_to_json(events: Sequence[Mapping[str, Any]]) -> list[JSONDict]:
    if isinstance(events, (Mapping, str, bytes)) or not isinstance(events, Sequence):
        raise InvalidEventError("append takes a list of events (dicts), not a single value")
    docs: list[JSONDict] = []
    for i, event in enumerate(events):
        if not isinstance(event, Mapping):
            raise InvalidEventError(f"event {i} is a {type(event).__name__}, not a dict")
        docs.append(_to_json(event, f"event {i}"))
    return docs


def _meta_to_json(meta: Mapping[str, Any]) -> JSONDict:
    if not isinstance(meta, Mapping):
        raise InvalidEventError(f"metadata must be a dict, not a {type(meta).__name__}")
    result: JSONDict = _to_json(meta, "metadata")
    return result


def _parse_json(name: str, data: bytes) -> Any:
    """Parse a store file's bytes; :class:`StoreError` says what is wrong in words."""
    if not data:
        raise StoreError(f"{name} is empty (0 bytes)", path=name)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise StoreError(f"{name} is not UTF-8 text (bad byte at offset {exc.start})",
                         path=name) from exc
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise StoreError(
            f"{name} is not valid JSON at line {exc.lineno} column {exc.colno} ({exc.msg})",
            path=name,
        ) from exc
    except RecursionError:
        raise StoreError(f"{name} is nested too deeply to be store data", path=name) from None
    except ValueError as exc:  # NaN, Infinity
        raise StoreError(f"{name} holds {exc}", path=name) from None


def _decode_tables(name: str, data: bytes) -> Tables:
    """Parse a TinyDB file: a JSON object of tables, each mapping document ids to objects."""
    tables = _parse_json(name, data)
    if not isinstance(tables, dict):
        raise StoreError(f"{name} does not hold store data (expected a JSON object of tables)",
                         path=name)
    for table_name, table in tables.items():
        if not isinstance(table, dict) or not all(
            key.isascii() and key.isdigit() and isinstance(doc, dict) for key, doc in table.items()
        ):
            raise StoreError(
                f"{name} does not hold store data (table {table_name!r} is not a set of"
                " numbered documents)",
                path=name,
            )
    return tables


def _dump(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"),
                      allow_nan=False).encode("utf-8")


