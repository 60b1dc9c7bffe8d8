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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from drivers.store import TinyDBEventStore


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=("check", "recover"), help="check the files, or repair damaged ones")
    parser.add_argument("--path", help="the store directory (default: store.path from the config)")
    parser.add_argument("--config", help="the config file (default: the usual places)")


@dataclass(frozen=True, slots=True)
class StoreReport:
    """What a check or a repair found: all readable (``ok``) and a line per file."""

    ok: bool
    lines: tuple[str, ...]


def check_store(directory: Path) -> StoreReport:
    """Check the store in ``directory`` (not in use). The one place the CLI and the table's
    screen ("Speicher beschädigt") check a store."""
    return _with_store(directory, _check)


def repair_store(directory: Path) -> StoreReport:
    """Repair the damaged lists in ``directory`` from their last good copies (the damaged
    files are kept). The one place the CLI and the table's screen repair a store."""
    return _with_store(directory, _recover)


def _with_store(directory: Path, action: Callable[[TinyDBEventStore, list[str]], bool]) -> StoreReport:
    from drivers.store import StoreError, TinyDBEventStore

    lines: list[str] = []
    try:
        store = TinyDBEventStore(directory)
    except StoreError as exc:
        return StoreReport(False, (str(exc),))
    try:
        return StoreReport(action(store, lines), tuple(lines))
    finally:
        store.close()


def run(args: argparse.Namespace) -> int:
    from drivers.config import ConfigError, load_config
    from drivers.store import StoreError, TinyDBEventStore

    try:
        directory = Path(args.path) if args.path else load_config(args.config).store.path
        TinyDBEventStore(directory).close()  # in use, or not a store: say so with exit code 2
    except (ConfigError, StoreError) as exc:
        print(f"skattisch store: {exc}", file=sys.stderr)
        return 2
    report = repair_store(directory) if args.action == "recover" else check_store(directory)
    print("\n".join(report.lines))
    return 0 if report.ok else 1


def _check(store: TinyDBEventStore, out: list[str]) -> bool:
    from drivers.store import StoreError

    damaged = 0
    try:
        list_ids = store.list_ids()
    except StoreError as exc:
        out.append(f"damaged: {exc}")
        out.append("run 'skattisch store recover' to repair it")
        return False
    for list_id in list_ids:
        try:
            events = store.load(list_id)
        except StoreError as exc:
            damaged += 1
            out.append(f"damaged: {exc}")
            continue
        out.append(f"ok: {list_id} ({len(events)} events)")
    if damaged:
        out.append(f"{damaged} damaged list file(s): run 'skattisch store recover' to repair them")
    return not damaged


def _recover(store: TinyDBEventStore, out: list[str]) -> bool:
    from drivers.store import StoreError

    failed = 0
    try:
        out.append(store.recover_index().message)
        list_ids = store.list_ids()
    except StoreError as exc:
        out.append(f"not repaired: {exc}")
        return False
    for list_id in list_ids:
        try:
            out.append(store.recover(list_id).message)
        except StoreError as exc:
            failed += 1
            out.append(f"not repaired: {exc}")
    return not failed
