"""``skattisch export --to DIR``: the table's journals onto a USB stick, for when there is no network.

Writes ``DIR/skattisch/<device>/``: each list's journal (one line per event, the hash chain
included) and a manifest. ``skattisch club import DIR`` on the laptop takes them, as often as
you like (idempotent). The table must not be running (its store allows one user at a time).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--to", required=True, metavar="DIR", help="where to write (e.g. the USB stick's folder)")
    parser.add_argument("--path", help="the store directory (default: store.path from the config)")
    parser.add_argument("--config", help="the config file (default: the usual places)")


def run(args: argparse.Namespace) -> int:
    from drivers.club.usb import export_entries
    from drivers.config import ConfigError, load_config
    from drivers.store import StoreError, TinyDBEventStore
    from drivers.sync import entry_source

    try:
        config = load_config(args.config)
        store = TinyDBEventStore(Path(args.path) if args.path else config.store.path)
    except (ConfigError, StoreError) as exc:
        print(f"skattisch export: {exc}", file=sys.stderr)
        return 2
    try:
        device = store.device_id
        entries = entry_source(store, device).entries_after(0)
        name = config.table.name or f"Tisch {config.table.number}"
        folder = export_entries(Path(args.to), device, name, entries)
    except OSError as exc:
        print(f"skattisch export: cannot write to {args.to}: {exc}", file=sys.stderr)
        return 2
    finally:
        store.close()
    print(f"{len(entries)} Ereignisse nach {folder} geschrieben / events written")
    return 0
