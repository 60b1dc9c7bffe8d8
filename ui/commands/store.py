"""``skattisch store check|recover``: look after the table's journals.

``check`` reads every journal line by line (checksums and chain), replays each list with the
table's own code (so "ok" means the table will start) and checks the device id; it names the
file, the line and what is wrong. ``recover`` keeps every event before the damage and moves
the rest into a file beside the journal (never deleted), restores a lost device id from the
journals, and keeps the owner and mode of what it repairs. Run with sudo, both act as the
store's owner (they switch to that user before touching a file). The table must not be
running (the store allows one user at a time).

Exit codes: 0 everything is (now) fine, 1 something is still damaged, 2 the store cannot be
opened (no such folder, in use, a bad config).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import shlex
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from drivers.store import JournalEventStore


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=("check", "recover"), help="check the journals, or repair damaged ones")
    parser.add_argument("--path", help="the store directory (default: store.path from the config)")
    parser.add_argument("--config", help="the config file (default: the usual places)")


def run(args: argparse.Namespace) -> int:
    from drivers.config import ConfigError, load_config
    from drivers.store import JOURNAL_DIR, JournalEventStore, StoreError, act_as_store_owner
    from drivers.store.legacy import has_legacy_lists

    try:
        directory = Path(args.path) if args.path else load_config(args.config).store.path
    except ConfigError as exc:
        print(f"skattisch store: {exc}", file=sys.stderr)
        return 2
    if not directory.exists():
        print(f"skattisch store: {directory} does not exist (check --path or store.path in the config);"
              " nothing was created", file=sys.stderr)
        return 2
    if not directory.is_dir():
        print(f"skattisch store: {directory} is a file, not a store folder", file=sys.stderr)
        return 2
    if not (directory / JOURNAL_DIR).is_dir() and not has_legacy_lists(directory):
        print(f"skattisch store: {directory} holds no store (no {JOURNAL_DIR}/ folder); nothing to"
              f" {args.action}", file=sys.stderr)
        return 2
    command = shlex.join(["skattisch", "store", args.action, "--path", str(directory.resolve())])
    import device.table  # noqa: F401  (everything is imported before we may give up root's rights)

    try:
        owner = act_as_store_owner(directory, command)
        if owner is not None:
            print(f"acting as the store's owner {owner}")
        store = JournalEventStore(directory)
    except StoreError as exc:
        print(f"skattisch store: {exc}\n{exc.hint}", file=sys.stderr)
        return 2
    try:
        for notice in store.notices:
            print(f"repaired on opening: {notice}")
        return _recover(store) if args.action == "recover" else _check(store)
    finally:
        store.close()


def replay_problem(events: list[dict[str, object]]) -> tuple[int, str] | None:
    """(line, why) of the first event the table cannot replay, with the table's own code."""
    from device.table.events import Event
    from device.table.state import TableState, apply

    state = TableState()
    for line, doc in enumerate(events, start=1):
        try:
            state = apply(state, Event.from_json(doc))
        except Exception as exc:  # whatever the fold refuses, the table would refuse at start
            return line, f"the table cannot use this event ({exc})"
    return None


def _device_problem(store: JournalEventStore) -> str | None:
    from drivers.store import DEVICE_ID_FILE, StoreError, device_id

    if not (store.directory / DEVICE_ID_FILE).exists():
        return f"{store.directory / DEVICE_ID_FILE} is missing"
    try:
        device_id(store.directory)
    except StoreError as exc:
        return f"{exc}. {exc.hint}"
    return None


def _check(store: JournalEventStore) -> int:
    damaged = 0
    device = _device_problem(store)
    if device is not None:
        damaged += 1
        print(f"damaged: {device}")
    for report in store.check():
        problem = report.problem
        if problem is None:
            found = replay_problem(store.load(report.list_id))
            if found is not None:
                problem = f"{report.path} line {found[0]}: {found[1]}"
        if problem is not None:
            damaged += 1
            print(f"damaged: {problem}")
        else:
            print(f"ok: {report.list_id} ({report.events} events, head {report.head[:16]})")
    if damaged:
        print(f"{damaged} problem(s): run 'skattisch store recover' to repair them"
              " (it keeps every event before the damage and moves the rest aside)")
    return 1 if damaged else 0


def _recover(store: JournalEventStore) -> int:
    from drivers.store import StoreError, repair_device_id

    failed = 0
    try:
        done = repair_device_id(store.directory)
        print(done or "device-id is fine; nothing to do.")
    except (StoreError, OSError) as exc:
        failed += 1
        print(f"not repaired: {exc}")
    for report in store.check():
        try:
            recovery = store.recover(report.list_id)
            found = replay_problem(store.load(report.list_id))
            if found is not None:
                recovery = store.recover(report.list_id, unusable=found)
            print(recovery.message)
        except (StoreError, OSError) as exc:
            failed += 1
            print(f"not repaired: {exc}")
    return 1 if failed else 0


@dataclass(frozen=True, slots=True)
class StoreReport:
    """What a check or a repair found: all readable (``ok``) and what it said, line by line."""

    ok: bool
    lines: tuple[str, ...]


def check_store(directory: Path) -> StoreReport:
    """Check the store in ``directory`` (not in use), as ``skattisch store check`` does."""
    return _with_store(directory, _check)


def repair_store(directory: Path) -> StoreReport:
    """Repair the store in ``directory`` as ``skattisch store recover`` does (the damaged
    files are kept). The one function the table's screen ("Reparieren", behind the club PIN)
    calls for a store it could not open at start-up."""
    return _with_store(directory, _recover)


def _with_store(directory: Path, action: Callable[[JournalEventStore], int]) -> StoreReport:
    from drivers.store import JournalEventStore, StoreError

    out = io.StringIO()
    try:
        store = JournalEventStore(directory)
    except StoreError as exc:
        return StoreReport(False, (str(exc), exc.hint))
    try:
        with contextlib.redirect_stdout(out):
            for notice in store.notices:
                print(f"repaired on opening: {notice}")
            code = action(store)
    finally:
        store.close()
    return StoreReport(code == 0, tuple(line for line in out.getvalue().splitlines() if line))
