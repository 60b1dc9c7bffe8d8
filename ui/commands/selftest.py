"""``skattisch selftest``: the first-boot check of a table, one PASS/FAIL/SKIP line per part.

Run it on the Pi with the table stopped (it needs the reader, the pins and the screen)::

    sudo systemctl stop skattisch
    sudo -u skattisch SKATTISCH_CONFIG=/etc/skattisch/skattisch.toml /opt/skattisch/venv/bin/skattisch selftest
    sudo systemctl start skattisch

First the screen shows five targets to tap (the touch check), then the terminal asks for
three cards on the reader, each button, and whether each LED lights and the buzzer sounds;
the store, the clock and the laptop are checked on their own. Exit code 0 when nothing
failed. ``--no-screen`` leaves out the touch check (e.g. over SSH without the display).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", help="the config file (default: the one the table reads)")
    parser.add_argument("--no-screen", action="store_true", help="leave out the screen and touch check")
    parser.add_argument("--only", metavar="NAMES",
                        help="run only these checks, comma-separated: screen, reader, buttons, leds, buzzer, store, "
                             "clock, laptop")
    parser.add_argument("--wait", type=float, default=20.0, metavar="SECONDS",
                        help="how long to wait for each card and button (default 20)")


class TerminalOperator:
    """The volunteer at the terminal: prompts printed, questions answered with y or n."""

    def tell(self, text: str) -> None:
        print(f"  → {text}", flush=True)

    def confirm(self, question: str) -> bool:
        try:
            answer = input(f"  ? {question} [y/n] ")
        except EOFError:
            return False
        return answer.strip().lower() in ("y", "yes", "j", "ja")


def run(args: argparse.Namespace) -> int:
    from drivers.adapters import build_reader, load_deck
    from drivers.config import ConfigError, load_config
    from drivers.panel import PanelError, open_panel
    from drivers.selftest import CHECKS, Context, Outcome, run_checks

    try:
        config = load_config(args.config)
    except ConfigError as exc:
        print(f"skattisch selftest: {exc}", file=sys.stderr)
        return 2
    outcomes: list[Outcome] = []

    def report(outcome: Outcome) -> None:
        outcomes.append(outcome)
        print(outcome.line(), flush=True)

    only = {name.strip() for name in args.only.split(",")} if args.only else None
    known = {"screen"} | {check.name for check in CHECKS}
    if only is not None and only - known:
        print(f"skattisch selftest: --only: unknown check {sorted(only - known)[0]!r}: one of "
              + ", ".join(sorted(known)), file=sys.stderr)
        return 2
    if not args.no_screen and (only is None or "screen" in only):
        report(screen_check(config, args.wait * 3))
    checks = [check for check in CHECKS if only is None or check.name in only]
    if not checks:
        return _summary(outcomes)
    ctx = Context(config, TerminalOperator(), wait_seconds=args.wait)
    parts: list[Any] = []
    try:
        names = {check.name for check in checks}
        if config.gpio.enabled and names & {"buttons", "leds", "buzzer"}:
            try:
                ctx.panel = open_panel(config.gpio, ctx.submit)
                parts.append(ctx.panel)
            except PanelError as exc:
                report(Outcome.failed("panel", str(exc)))
        deck = load_deck(config.reader)
        if deck.problem and "reader" in names:
            report(Outcome.failed("deck", deck.problem))
        ctx.reader = build_reader(config.reader, simulate=False, deck=deck.deck) if "reader" in names else None
        if ctx.reader is not None:
            parts.append(ctx.reader)
            ctx.reader.start(ctx.submit)
        run_checks(ctx, checks, report=report)
    finally:
        for part in reversed(parts):
            part.close()
    return _summary(outcomes)


def _summary(outcomes: list[Any]) -> int:
    from drivers.selftest import Verdict

    failed = [o for o in outcomes if o.verdict is Verdict.FAIL]
    print(f"{len(outcomes) - len(failed)} of {len(outcomes)} fine" + (f", {len(failed)} failed" if failed else ""))
    return 1 if failed else 0


def screen_check(config: Any, timeout: float) -> Any:
    """Five targets on the screen (the corners and the middle): each must be tapped."""
    import os

    from drivers.selftest import Outcome

    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    try:
        from kivy.app import App
        from kivy.clock import Clock
        from kivy.config import Config as KivyConfig
        from kivy.uix.button import Button
        from kivy.uix.floatlayout import FloatLayout
    except Exception as exc:  # no Kivy, no display
        return Outcome.failed("screen", f"no screen: {exc}")
    KivyConfig.set("graphics", "fullscreen", "auto" if config.ui.fullscreen else "0")
    KivyConfig.set("graphics", "width", str(config.ui.width))
    KivyConfig.set("graphics", "height", str(config.ui.height))
    KivyConfig.set("kivy", "exit_on_escape", "0")
    KivyConfig.set("kivy", "log_level", "warning")
    spots = [(0.02, 0.02), (0.78, 0.02), (0.02, 0.78), (0.78, 0.78), (0.4, 0.4)]
    tapped: set[int] = set()

    class Targets(App):  # type: ignore[misc]
        def build(self) -> FloatLayout:
            self.title = "Skattisch selftest"
            root = FloatLayout()
            for index, (x, y) in enumerate(spots):
                target = Button(text="tippen", size_hint=(0.2, 0.2), pos_hint={"x": x, "y": y}, font_size=28,
                                background_color=(0.9, 0.3, 0.2, 1))
                target.bind(on_press=lambda button, i=index: self.hit(button, i))
                root.add_widget(target)
            Clock.schedule_once(lambda _dt: self.stop(), timeout)
            return root

        def hit(self, button: Button, index: int) -> None:
            tapped.add(index)
            button.text, button.background_color = "ok", (0.2, 0.8, 0.3, 1)
            if len(tapped) == len(spots):
                Clock.schedule_once(lambda _dt: self.stop(), 0.3)

    print("  → Tap the five targets on the screen", flush=True)
    Targets().run()
    if len(tapped) == len(spots):
        return Outcome.passed("screen", "all five targets tapped (corners and middle)")
    return Outcome.failed("screen", f"{len(tapped)} of {len(spots)} targets tapped in {timeout:g} s: "
                                    "is the touch cable plugged in?")
