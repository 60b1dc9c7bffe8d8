"""``skattisch config [FILE] [--json]``: check a config file and print the settings in force.

Without FILE it checks the file Skattisch itself would read ($SKATTISCH_CONFIG, then
/etc/skattisch/skattisch.toml, then ~/.config/skattisch/skattisch.toml). The text output is
itself a complete config file (secrets left out; ``--json`` shows them as ****). Exit code 2,
and the reason on stderr, when the file cannot be used.
"""

from __future__ import annotations

import argparse
import json
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file",
        nargs="?",
        metavar="FILE",
        help="the config file to check (default: the one Skattisch would read)",
    )
    parser.add_argument("--json", action="store_true", help="print the settings as one JSON object")


def run(args: argparse.Namespace) -> int:
    from drivers.adapters import load_deck
    from drivers.config import ConfigError, load_config, to_toml

    try:
        config = load_config(args.file)
    except ConfigError as exc:
        print(f"skattisch config: {exc}", file=sys.stderr)
        return 2
    deck = load_deck(config.reader)  # the same check as 'skattisch run': a warning, never a stop
    if deck.problem:
        print(f"skattisch config: warning: {deck.problem}; the table starts without the reader", file=sys.stderr)
    if args.json:
        print(json.dumps(config.to_dict(), ensure_ascii=False, indent=2))
        return 0
    if config.source == "defaults":
        origin = "# No config file found: these are the defaults.\n"
    else:
        origin = f"# Read from {config.source}: the file is fine.\n"
    print(f"# Skattisch settings in force.\n{origin}")
    print(to_toml(config), end="")
    return 0
