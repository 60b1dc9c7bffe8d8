"""The ``skattisch`` command: one console script, one module per subcommand, loaded lazily.

Each subcommand module offers ``add_arguments(parser)`` and ``run(args) -> int``; heavy
dependencies (Kivy, pyserial, gpiozero, TinyDB) are imported only inside ``run``.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import sys
from collections.abc import Sequence

# name -> (module, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "score": ("ui.commands.score", "score game records (JSON lines) by the ISkO"),
    "sheet": ("ui.commands.sheet", "print a scored list (list document): totals, ranking, settlement"),
    "run": ("ui.commands.run", "start the table (touch UI); --simulate on a laptop"),
    "deck": ("ui.commands.deck", "card deck files: 'deck learn' teaches in a deck of tagged cards"),
    "reader-test": ("ui.commands.reader_test", "print every card the reader decodes, as JSON lines"),
    "config": ("ui.commands.config", "check a config file and print the settings in force"),
    "pin": ("ui.commands.pin", "set the PIN of the settings screen (stored as a salted hash)"),
    "selftest": ("ui.commands.selftest", "first-boot check of the table: screen, touch, reader, panel, store, clock, laptop"),
    "club": ("ui.commands.club", "the club laptop: collect the tables' lists (serve), pair, tables, import"),
    "league": ("ui.commands.league", "the league's server: clubs' laptops forward their tables' lists (serve), code, clubs"),
    "export": ("ui.commands.export", "write the table's journals to a directory (a USB stick) for the laptop"),
    "store": ("ui.commands.store", "check the table's journals, or repair damage (keeps every event before it)"),
    "first-boot": ("ui.commands.first_boot", "apply skattisch-settings.txt from the SD card's boot partition (the image's first boot)"),
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """Every subcommand listed; with ``command`` (the one on the command line) only its module
    is imported and given its arguments: ``skattisch run`` starts without loading the laptop's,
    the league's or the deck's modules (the table's cold start)."""
    parser = argparse.ArgumentParser(prog="skattisch", description="Skattisch, the Skat club table scorer")
    parser.add_argument("--version", action=_VersionAction)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        if command is not None and name != command:
            if importlib.util.find_spec(module_name) is not None:  # not built yet in this checkout: not listed
                sub.add_parser(name, help=help_text, description=help_text)
            continue
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue  # not built yet in this checkout
        sub_parser = sub.add_parser(name, help=help_text, description=help_text)
        module.add_arguments(sub_parser)
        sub_parser.set_defaults(_run=module.run)
    return parser


class _VersionAction(argparse.Action):
    """``--version``: prints ``skattisch 0.1.0`` (the installed version) and exits; the version
    is looked up only then (reading the distribution's metadata costs every other start time)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="print the installed version and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        from drivers.version import skattisch_version

        print(f"skattisch {skattisch_version()}")
        parser.exit()


def _command(argv: Sequence[str]) -> str | None:
    """The subcommand named first on the command line, if it is one (else every one is built)."""
    return argv[0] if argv and argv[0] in SUBCOMMANDS else None


EXIT_INTERNAL = 3  # a bug, not bad input: every bad input has its own message and code


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(_command(arguments)).parse_args(arguments)
    try:
        return int(args._run(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # noqa: BLE001 - the last line of defence: one line, not a traceback
        if os.environ.get("SKATTISCH_DEBUG"):
            raise
        print(f"skattisch {args.command}: interner Fehler, bitte melden: {type(exc).__name__}: {exc} "
              "(SKATTISCH_DEBUG=1 zeigt den Traceback)", file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
