"""The ``--script`` format: a list of steps fed through the real table screen.

One step per line; blank lines and lines starting with ``#`` are skipped. A line is either
words (arguments with blanks in double quotes) or a JSON object with one key, the step's
name, whose value is its argument (or a list of arguments)::

    # a whole eingepasst deal
    wait_screen game
    tap_text "passe"
    tap pass
    {"tap_text": "passe"}
    expect_text "eingepasst"
    screenshot 05-eingepasst

Steps (``NAME`` is a widget's name: its kv id, or the name the screen gives a generated
button, e.g. ``bid_18``; the documentation lists them):

=======================  ===================================================================
``tap NAME``             touch the widget NAME on the screen (down and up, through the
                         window, like a finger)
``tap_text "TEXT"``      touch the button that shows TEXT (exactly, ignoring case and
                         colour markup)
``card CODE``            a card through the on-screen card picker (opens it if needed and
                         taps the card, e.g. ``card CJ``)
``scan CODE``            a card as the reader sends it (from another thread)
``tag PAYLOAD``          a tag or barcode that is no playing card (a member card's UID or
                         barcode), as the reader sends it (from another thread)
``press BUTTON``         a panel button: ``confirm``, ``back`` or ``menu``
``type "TEXT"``          type text into the focused text field
``wait_screen NAME``     wait (up to 5 s) until screen NAME is shown: ``setup``, ``game``,
                         ``declare``, ``play``, ``result``, ``list``, ``end``, ``settings``
``expect_text "TEXT"``   TEXT is visible somewhere on the screen (wait up to 5 s)
``expect_no_text "T"``   T is not visible
``expect_screen NAME``   the screen shown is NAME, now
``expect_shown NAME``    the widget NAME is on the screen and in view (a list row not
                         scrolled away), now
``expect_large NAME``    the widget NAME is in view and its text drawn large and whole: at
                         least ``FONT_SEAT_NAME`` (40 px at 800×480, scaled with the
                         window), as a name seated by member card (``seat_card_0``)
``screenshot NAME``      save a PNG ``NAME.png`` (into ``--screenshots DIR``)
``sleep SECONDS``        let the clock run (demos; a test of what the idle table spends)
=======================  ===================================================================

>>> [str(s) for s in parse_script('tap bid_18\\n# x\\n{"tap_text": "passe"}\\nexpect_text "Spiel 3, Hand 4"')]
['tap bid_18', 'tap_text "passe"', 'expect_text "Spiel 3, Hand 4"']
>>> parse_script("jump 3")
Traceback (most recent call last):
...
ui.table.script.ScriptError: line 1: unknown step 'jump': one of card, expect_large, expect_no_text, expect_screen, expect_shown, expect_text, press, scan, screenshot, sleep, tag, tap, tap_text, type, wait_screen
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass
from pathlib import Path

from device.errors import SkatError

# step name -> number of arguments it takes
STEPS: dict[str, int] = {
    "tap": 1,
    "tap_text": 1,
    "card": 1,
    "scan": 1,
    "tag": 1,
    "press": 1,
    "type": 1,
    "wait_screen": 1,
    "expect_text": 1,
    "expect_no_text": 1,
    "expect_screen": 1,
    "expect_shown": 1,
    "expect_large": 1,
    "screenshot": 1,
    "sleep": 1,
}
TEXT_STEPS = frozenset({"tap_text", "type", "expect_text", "expect_no_text"})
BUTTONS = ("confirm", "back", "menu")
WAIT_SECONDS = 5.0


class ScriptError(SkatError, ValueError):
    """A script line that cannot be read; the message names the line."""


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a script: its name, argument and the line it came from."""

    name: str
    arg: str
    line: int = 0

    def __str__(self) -> str:
        arg = json.dumps(self.arg, ensure_ascii=False) if self.name in TEXT_STEPS else self.arg
        return f"{self.name} {arg}"


def parse_line(text: str, line: int = 0) -> Step | None:
    """One line as a :class:`Step`; None for a blank or comment line."""
    text = text.strip()
    if not text or text.startswith("#"):
        return None
    if text.startswith("{"):
        name, args = _json_step(text, line)
    else:
        try:
            words = shlex.split(text, comments=False, posix=True)
        except ValueError as exc:
            raise ScriptError(f"line {line}: {exc}") from None
        name, args = words[0], list[object](words[1:])
    if name not in STEPS:
        raise ScriptError(f"line {line}: unknown step {name!r}: one of {', '.join(sorted(STEPS))}")
    if len(args) != STEPS[name]:
        raise ScriptError(f"line {line}: {name} takes {STEPS[name]} argument, not {len(args)}: {text}")
    step = Step(name, str(args[0]), line)
    _check(step)
    return step


def _json_step(text: str, line: int) -> tuple[str, list[object]]:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ScriptError(f"line {line}: not a JSON object: {exc.msg}") from None
    if not isinstance(obj, dict) or len(obj) != 1:
        raise ScriptError(f'line {line}: a JSON step is an object with one key, e.g. {{"tap": "pass"}}')
    ((name, value),) = obj.items()
    return name, value if isinstance(value, list) else [value]


def _check(step: Step) -> None:
    if step.name == "press" and step.arg not in BUTTONS:
        raise ScriptError(f"line {step.line}: press takes one of {', '.join(BUTTONS)}, not {step.arg!r}")
    if step.name in ("card", "scan"):
        from device.cards import Card

        try:
            Card.parse(step.arg)
        except ValueError as exc:
            raise ScriptError(f"line {step.line}: {exc}") from None
    if step.name == "tag":
        from device.cards import Card

        try:
            Card.parse(step.arg)
        except ValueError:
            pass
        else:
            raise ScriptError(f"line {step.line}: {step.arg!r} is a playing card: scan {step.arg}, not tag")
    if step.name == "sleep":
        try:
            seconds = float(step.arg)
        except ValueError:
            raise ScriptError(f"line {step.line}: sleep takes seconds, not {step.arg!r}") from None
        if not 0 <= seconds <= 60:
            raise ScriptError(f"line {step.line}: sleep takes 0 to 60 seconds, not {step.arg}")


def parse_script(text: str) -> list[Step]:
    """Every step of a script text, in order."""
    steps = []
    for number, line in enumerate(text.splitlines(), start=1):
        step = parse_line(line, number)
        if step is not None:
            steps.append(step)
    return steps


def load_script(path: str | Path) -> list[Step]:
    try:
        text = Path(path).read_text(encoding="utf-8-sig")  # a byte order mark in front is fine
    except OSError as exc:
        raise ScriptError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise ScriptError(f"{path}: not UTF-8 text (byte {exc.start}): save it as UTF-8") from None
    try:
        return parse_script(text)
    except ScriptError as exc:
        raise ScriptError(f"{path}, {exc}") from None
