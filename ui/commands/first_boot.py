"""``skattisch first-boot``: apply the settings file from the SD card's boot partition.

Run by ``skattisch-first-boot.service`` (as root) at every boot, before the table starts; see
:mod:`drivers.firstboot` for the file and what each key does. It always ends with exit code 0
so that the table starts: what could not be applied is printed (the journal and the console)
and left in a file the table shows on its screen.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from drivers.firstboot import PROBLEMS_FILE, SETTINGS_FILE, WPA_FILE

    parser.add_argument("--settings", metavar="FILE", default=str(SETTINGS_FILE),
                        help=f"the settings file (default: {SETTINGS_FILE})")
    parser.add_argument("--config", metavar="FILE", help="the table's config (default: /etc/skattisch/skattisch.toml)")
    parser.add_argument("--problems", metavar="FILE", default=str(PROBLEMS_FILE),
                        help=f"where to leave what could not be applied, for the table's screen (default: {PROBLEMS_FILE})")
    parser.add_argument("--wpa", metavar="FILE", default=str(WPA_FILE),
                        help=f"wpa_supplicant's file for the Wi-Fi (default: {WPA_FILE})")
    parser.add_argument("--wait", type=float, default=60.0, metavar="SECONDS",
                        help="how long to wait for the network when pairing (default 60)")
    parser.add_argument("--no-systemctl", action="store_true", help="do not (re)start wpa_supplicant (tests)")


def _systemctl(args: Sequence[str]) -> None:
    try:
        subprocess.run(["systemctl", *args], check=False, timeout=30)
    except (OSError, subprocess.SubprocessError) as exc:
        print(f"skattisch first-boot: systemctl {' '.join(args)}: {exc}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    from drivers.club.mdns import find_laptop
    from drivers.config import SYSTEM_CONFIG, find_config
    from drivers.firstboot import Actions, Paths, apply_settings

    def discover() -> str | None:
        try:
            return find_laptop(timeout=2.0)
        except OSError:
            return None

    paths = Paths(settings=Path(args.settings), config=Path(args.config) if args.config else (find_config() or SYSTEM_CONFIG),
                  problems=Path(args.problems), wpa=Path(args.wpa))
    actions = Actions(discover=discover, wait_seconds=args.wait,
                      systemctl=(lambda _args: None) if args.no_systemctl else _systemctl)
    outcome = apply_settings(paths, actions)
    if outcome.applied:
        print(f"skattisch first-boot: applied {', '.join(outcome.applied)} from {paths.settings}"
              + (f" (paired with {outcome.paired_with})" if outcome.paired_with else ""))
    elif not outcome.problems:
        print(f"skattisch first-boot: nothing to apply ({paths.settings})")
    for problem in outcome.problems:
        print(f"skattisch first-boot: PROBLEM {problem.en}" + (" (tried again at the next boot)" if problem.retry else ""))
    return 0
