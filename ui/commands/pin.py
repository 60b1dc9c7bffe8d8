"""``skattisch pin``: set the PIN of the table's settings screen.

The config keeps only the PIN's salted hash (``table.club_pin_hash``, see :mod:`device.pin`).
On a terminal it asks for the PIN twice (just Enter: make one up); without one (or with
``--generate``) it makes up six digits and prints them once. ``--if-unset`` keeps a PIN already set (what ``install.sh`` runs on
every update); a PIN an older version kept in plain text (``table.club_pin``) is replaced by
its hash either way. The file keeps its comments, mode and owner.
"""

from __future__ import annotations

import argparse
import getpass
import json
import sys
import tomllib
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE",
                        help="the config file (default: the one Skattisch reads, /etc/skattisch/skattisch.toml)")
    parser.add_argument("--if-unset", action="store_true", help="keep a PIN that is already set")
    parser.add_argument("--generate", action="store_true", help="make up a PIN and print it once")


def run(args: argparse.Namespace) -> int:
    from device.pin import PinError, check_pin_format, check_pin_hash, hash_pin, new_pin
    from drivers.config import SYSTEM_CONFIG, find_config

    path = Path(args.config) if args.config else (find_config() or SYSTEM_CONFIG)
    try:
        text = path.read_text(encoding="utf-8-sig")
        table = tomllib.loads(text).get("table", {})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        print(f"skattisch pin: {path}: cannot be read: {exc}", file=sys.stderr)
        return 2
    plain = table.get("club_pin", "") if isinstance(table, dict) else ""
    stored = table.get("club_pin_hash", "") if isinstance(table, dict) else ""
    try:
        if plain:
            pin, told = check_pin_format(str(plain)), "the PIN kept in plain text is now stored as its hash"
        elif stored and args.if_unset:
            check_pin_hash(str(stored))
            print(f"skattisch pin: {path}: a PIN is set; kept it")
            return 0
        elif args.generate or not sys.stdin.isatty():
            pin = new_pin()
            told = f"the settings PIN is {pin} (write it down: it is shown only this once)"
        else:
            pin = _ask()
            told = "the settings PIN is set" if pin else ""
            if not pin:
                pin = new_pin()
                told = f"the settings PIN is {pin} (write it down: it is shown only this once)"
    except PinError as exc:
        print(f"skattisch pin: {path}: {exc}", file=sys.stderr)
        return 2
    from drivers.deck import write_atomically

    try:
        write_atomically(path, with_pin_hash(text, hash_pin(pin)), keep_mode=True)
    except OSError as exc:
        print(f"skattisch pin: {path}: cannot be written: {exc} (run it with sudo)", file=sys.stderr)
        return 2
    print(f"skattisch pin: {told}")
    return 0


def _ask() -> str:
    from device.pin import PinError, check_pin_format

    for _ in range(3):
        pin = getpass.getpass("Settings PIN (4 to 8 digits; just Enter: make one up): ")
        if not pin:
            return ""
        try:
            check_pin_format(pin)
        except PinError as exc:
            print(exc, file=sys.stderr)
            continue
        if getpass.getpass("Once more: ") == pin:
            return pin
        print("The two PINs differ.", file=sys.stderr)
    raise PinError("no PIN set: three tries without a good PIN")


def with_pin_hash(text: str, stored: str) -> str:
    """``text`` with ``club_pin_hash = "<stored>"`` in its ``[table]`` section, where the old
    ``club_pin``/``club_pin_hash`` line was (or right below the header); other lines stay.

    >>> print(with_pin_hash('[table]\\nnumber = 3\\nclub_pin = "1234"\\n[ui]\\n', "H"), end="")
    [table]
    number = 3
    club_pin_hash = "H"
    [ui]
    >>> print(with_pin_hash('# empty\\n', "H"), end="")
    # empty
    <BLANKLINE>
    [table]
    club_pin_hash = "H"
    """
    from drivers.config import config_with_line

    return config_with_line(text, "table", "club_pin_hash", json.dumps(stored), replacing=("club_pin",))
