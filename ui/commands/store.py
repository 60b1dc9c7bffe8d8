"""``skattisch store check|recover``: look after the table's durable store.

``check`` reads the index and every list and says which file is damaged and why; ``recover``
repairs the damaged ones from their last good copies (the damaged file is kept beside them,
never deleted). The table must not be running (the store allows one user at a time). Exit
code 0 when everything is (now) readable, 1 when something is still damaged, 2 on a bad
config or a store in use.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from drivers.store import TinyDBEventStore


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=("check", "recover"), help="check the files, or repair damaged ones")
    parser.add_argument("--path", help="the store directory (default: store.path from the config)")
    parser.add_argument("--config", help="the config file (default: the usual places)")


def run(args: argparse.Namespace) -> int:
    from drivers.config import ConfigError, load_config
    from drivers.store import StoreError, TinyDBEventStore

    try:
        directory = Path(args.path) if args.path else load_config(args.config).store.path
        store = TinyDBEventStore(directory)
    except (ConfigError, StoreError) as exc:
        print(f"skattisch store: {exc}", file=sys.stderr)
        return 2
    try:
        return _recover(store) if args.action == "recover" else _check(store)
    finally:
        store.close()


def _check(store: TinyDBEventStore) -> int:
    from drivers.store import StoreError

    damaged = 0
    try:
        list_ids = store.list_ids()
    except StoreError as exc:
        print(f"damaged: {exc}")
        print("run 'skattisch store recover' to repair it")
        return 1
    for list_id in list_ids:
        try:
            events = store.load(list_id)
        except StoreError as exc:
            damaged += 1
            print(f"damaged: {exc}")
            continue
        print(f"ok: {list_id} ({len(events)} events)")
    if damaged:
        print(f"{damaged} damaged list file(s): run 'skattisch store recover' to repair them")
    return 1 if damaged else 0


def _recover(store: TinyDBEventStore) -> int:
    from drivers.store import StoreError

    failed = 0
    try:
        print(store.recover_index().message)
        list_ids = store.list_ids()
    except StoreError as exc:
        print(f"not repaired: {exc}")
        return 1
    for list_id in list_ids:
        try:
            print(store.recover(list_id).message)
        except StoreError as exc:
            failed += 1
            print(f"not repaired: {exc}")
    return 1 if failed else 0
