"""No network at all: a table's journals on a USB stick, taken by the laptop.

Layout written by ``skattisch export --to DIR`` (one folder per table)::

    DIR/skattisch/<device>/manifest.json    {"v": 1, "device", "name", "lists": [...], "last_seq"}
    DIR/skattisch/<device>/<list_id>.jsonl  the list's journal: one line per event, chain included

``skattisch club import DIR`` reads every line with :func:`device.journal.parse_line` (checksum
and link), then stores the entries through the same check as a synced batch
(:meth:`CollectorStore.store_batch`): resending is harmless, a conflict or a broken chain is
refused, nothing of a refused batch is stored.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.errors import SkatError
from device.journal import GENESIS, ChainError, JournalEntry, journal_line, parse_line
from device.sync import MAX_BATCH, SyncRefused, check_device_id

__all__ = ["ImportError_", "ImportResult", "export_entries", "import_export"]

FOLDER = "skattisch"


class ImportError_(SkatError, ValueError):  # noqa: N801 - not the builtin ImportError
    """An export folder that cannot be read (missing, damaged manifest)."""


@dataclass(frozen=True, slots=True)
class ImportResult:
    device: str
    stored: int
    duplicates: int
    held: int
    error: str = ""


def export_entries(directory: Path, device: str, name: str, entries: Iterable[JournalEntry]) -> Path:
    """Write one table's journals (entries in seq order) under ``directory``; return its folder."""
    from drivers.store import atomic_write

    folder = directory / FOLDER / check_device_id(device)
    folder.mkdir(parents=True, exist_ok=True)
    lines: dict[str, list[bytes]] = {}
    last_seq = 0
    for entry in entries:
        lines.setdefault(str(entry.event["list_id"]), []).append(journal_line(entry.prev, entry.event))
        last_seq = max(last_seq, int(entry.event["seq"]))
    for list_id, list_lines in lines.items():
        atomic_write(folder / f"{list_id}.jsonl", b"".join(list_lines))
    manifest = {"v": 1, "device": device, "name": name, "lists": list(lines), "last_seq": last_seq}
    atomic_write(folder / "manifest.json", json.dumps(manifest, indent=1).encode("utf-8"))
    return folder


def _manifests(directory: Path) -> list[Path]:
    if (directory / "manifest.json").is_file():
        return [directory / "manifest.json"]
    base = directory / FOLDER if (directory / FOLDER).is_dir() else directory
    found = sorted(base.glob("*/manifest.json"))
    if not found:
        raise ImportError_(f"{directory} holds no table export (no {FOLDER}/<table>/manifest.json)")
    return found


def _read_table(manifest_path: Path) -> tuple[str, str, list[JournalEntry]]:
    try:
        manifest: dict[str, Any] = json.loads(manifest_path.read_bytes())
        device = check_device_id(manifest["device"])
        lists = [str(x) for x in manifest["lists"]]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ImportError_(f"{manifest_path} is damaged ({exc})") from None
    entries: list[JournalEntry] = []
    for list_id in lists:
        path = manifest_path.parent / f"{list_id}.jsonl"
        prev = GENESIS
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise ImportError_(f"{path} cannot be read ({exc})") from None
        for number, line in enumerate(raw.splitlines(), start=1):
            try:
                entry = parse_line(line, prev=prev)
            except ChainError as exc:
                raise ImportError_(f"{path}, line {number}: {exc}") from None
            prev = entry.hash
            if entry.event.get("device") == device:
                entries.append(entry)
    entries.sort(key=lambda e: int(e.event["seq"]))
    return device, str(manifest.get("name", "")), entries


def import_export(store: Any, directory: Path, *, now: float) -> list[ImportResult]:
    """Import every table folder of an export; one result per table (its error, if refused)."""
    results: list[ImportResult] = []
    for manifest in _manifests(directory):
        try:
            device, name, entries = _read_table(manifest)
        except ImportError_ as exc:
            results.append(ImportResult(manifest.parent.name, 0, 0, 0, str(exc)))
            continue
        store.ensure_device(device, name or device, now=now)
        stored = duplicates = 0
        error = ""
        for start in range(0, len(entries), MAX_BATCH):
            try:
                result = store.store_batch(device, entries[start:start + MAX_BATCH], now=now)
            except SyncRefused as exc:
                error = exc.reason
                break
            stored += result.stored
            duplicates += result.duplicates
        results.append(ImportResult(device, stored, duplicates, store.held(device), error))
    return results
