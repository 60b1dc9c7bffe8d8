"""Runs a ``--script`` through the real table screen, step by step, on the Kivy clock.

Each step acts the way a person (or the hardware) would — a tap is a touch on the widget's
place in the window (:mod:`ui.table.touch`), a card from the picker is a tap on its tile, a
scan comes from another thread like the reader's — and then waits until the table has
settled: the touch delivered, the service pumped, the screens refreshed, a frame drawn.
Expectations read the texts of the widgets on screen.

Per step the runner can save a screenshot and write a JSON line to a report: the step, ok or
the reason it failed, the screen, the commands that reached the service during the step
(which is how the tests check "touch once, register once"), its wall time and the process's
CPU time during it (a ``sleep`` step: what the table spends idle).
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

from kivy.clock import Clock
from kivy.core.window import Window
from kivy.factory import Factory
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView
from kivy.uix.textinput import TextInput

from device.cards import Card
from drivers.adapters import SimulatedReader
from ui.table import theme
from ui.table.script import WAIT_SECONDS, Step
from ui.table.shots import save_png
from ui.table.touch import ScriptedTouchProvider, window_center
from ui.table.widgets import scroll_at_rest

_MARKUP = re.compile(r"\[/?(?:b|i|u|s|sub|sup|color|size|font|ref|anchor|font_context|font_family|"
                     r"font_features|text_language)(?:=[^\]]*)?\]")


def plain(text: str) -> str:
    """A label's text without colour/size markup, blanks collapsed."""
    return " ".join(_MARKUP.sub("", text or "").split())


def _shown(widget: Any) -> bool:
    """Drawn and reachable: not hidden or disabled, of some size, and inside the window and
    the visible part of every scroll view it lies in (a row scrolled away is not shown)."""
    node = widget
    while node is not None and node is not Window:
        if getattr(node, "opacity", 1) <= 0.01 or getattr(node, "disabled", False):
            return False
        node = node.parent
    if not (widget.width > 1 and widget.height > 1):
        return False
    x, y = widget.to_window(widget.center_x, widget.center_y)
    if not (0 <= x <= Window.width and 0 <= y <= Window.height):
        return False
    node = widget.parent
    while node is not None and node is not Window:
        if isinstance(node, ScrollView):
            left, bottom = node.to_window(node.x, node.y)
            if not (left <= x <= left + node.width and bottom <= y <= bottom + node.height):
                return False
        node = node.parent
    return True


def drawn_text(label: Label) -> str:
    """The text a label really draws: what fits its box (a line cut off at the bottom is
    missing, a shortened name reads "Ha…re"), as the lines Kivy laid out."""
    lines = getattr(getattr(label, "_label", None), "_cached_lines", None)
    if not lines:
        return plain(label.text)
    return plain(" ".join("".join(str(word.text) for word in line.words) for line in lines))


def large_and_whole(label: Label, pixels: float) -> tuple[bool, str]:
    """Whether ``label`` draws its text at ``pixels`` or larger and not cut short; and why not."""
    drawn, whole = drawn_text(label), plain(label.text)
    if label.font_size < pixels or label.texture_size[1] < pixels:
        return False, f"{whole!r} is drawn at {label.font_size:.0f} px ({label.texture_size[1]} px high), not {pixels:.0f}"
    if drawn != whole:
        return False, f"{whole!r} is cut short: it reads {drawn!r}"
    return True, ""


def visible_widgets() -> Iterator[Any]:
    """The widgets a finger can reach now: those of the top popup if one is open, else the
    status bar, the current screen and the banner."""
    children = list(Window.children)
    modals = [w for w in children if isinstance(w, ModalView)]
    roots = modals[:1] if modals else children
    for root in roots:
        for widget in root.walk(restrict=True):
            if _shown(widget):
                yield widget


def visible_texts() -> list[str]:
    """The texts drawn on screen now (as they show: cut-off or shortened texts as drawn): the
    labels', and those a widget draws itself and tells (``drawn_texts()``: the list's rows)."""
    texts: list[str] = []
    for widget in visible_widgets():
        if isinstance(widget, Label):
            if plain(widget.text):
                texts.append(drawn_text(widget))
        elif hasattr(widget, "drawn_texts"):
            texts += [plain(text) for text in widget.drawn_texts() if plain(text)]
    return texts


def find_named(name: str) -> Any | None:
    for widget in visible_widgets():
        if isinstance(widget, Screen):
            continue
        if getattr(widget, "name", None) == name:
            return widget
        for key, child in getattr(widget, "ids", {}).items():
            if key == name and _shown(child):
                return child
    return None


def scroll_into_view(name: str) -> None:
    """A widget named ``name`` that lies in a scroll view but out of its view (a list row
    scrolled away) is scrolled into view, as a player would scroll before tapping it."""
    if find_named(name) is not None:
        return
    modals = [w for w in Window.children if isinstance(w, ModalView)]
    for root in (modals[:1] if modals else list(Window.children)):
        for widget in root.walk(restrict=True):
            if isinstance(widget, Factory.RecycleView) and _scroll_to_item(widget, name):
                return
            if getattr(widget, "name", None) != name or isinstance(widget, Screen):
                continue
            node = widget.parent
            while node is not None and node is not Window and not isinstance(node, ScrollView):
                node = node.parent
            if isinstance(node, ScrollView):
                node.scroll_to(widget, padding=0, animate=False)
                return


def _scroll_to_item(view: Any, name: str) -> bool:
    """A recycle view (the list) has widgets for the rows in view only: scroll its item named
    ``name`` into view by its place in the data (the view makes its widget for the next frame).
    (The class as kv knows it: Kivy's factory loads it from ``kivy.uix.recycleview.__init__``,
    a module apart from ``kivy.uix.recycleview``, so the latter's class is another one.)"""
    heights = [item.get("height", 0) for item in view.data]
    index = next((i for i, item in enumerate(view.data) if item.get("name") == name), None)
    if index is None:
        return False
    above, total = sum(heights[:index]), sum(heights)
    hidden = total - view.height
    if hidden > 0:  # scroll_y: 1 shows the top, 0 the bottom
        scroll_at_rest(view, max(0.0, min(1.0, 1 - (above - (view.height - heights[index]) / 2) / hidden)))
    return True


def find_text(text: str) -> tuple[Any | None, int]:
    """The button (or other tappable label) showing ``text``; and how many show it."""
    wanted = " ".join(text.split()).casefold()
    found = [w for w in visible_widgets()
             if isinstance(w, Label) and hasattr(w, "on_act") and plain(w.text).casefold() == wanted]
    return (found[0] if found else None), len(found)


class ScriptRunner:
    """Feeds ``steps`` through the running :class:`~ui.table.app.TableApp`."""

    def __init__(
        self, app: Any, steps: list[Step], *, shots_dir: str | Path | None = None, shots: str = "all",
        report: TextIO | None = None, exit_when_done: bool = False, reader: SimulatedReader | None = None,
        wait_seconds: float = WAIT_SECONDS, out: TextIO = sys.stdout,
    ) -> None:
        self.app = app
        self.steps = steps
        self.shots_dir = Path(shots_dir) if shots_dir is not None else None
        self.shots = shots
        self.report = report
        self.exit_when_done = exit_when_done
        self.reader = reader
        self.wait_seconds = wait_seconds
        self.out = out
        self.index = 0
        self.failed: tuple[Step, str] | None = None
        self.finished = False
        self.touches: ScriptedTouchProvider | None = None
        self._step_started = 0.0
        self._step_cpu = 0.0  # the process's CPU time (every thread) when the step began
        self._marks: tuple[int, int, int] = (0, 0, 0)
        self._tapped: tuple[float, float] | None = None  # where this step's tap went, in window pixels
        self.exit_code = 0

    # -- driving -------------------------------------------------------------------------

    def start(self, _app: Any = None) -> None:
        self.touches = ScriptedTouchProvider.install()
        Clock.schedule_once(lambda _dt: self._next(), 0)

    def _next(self) -> None:
        if self.index >= len(self.steps):
            self._finish()
            return
        step = self.steps[self.index]
        counters = self.app.counters
        self._marks = (counters.sent_counted, counters.events, counters.refusals_counted)
        self._tapped = None
        self._step_started = time.perf_counter()
        self._step_cpu = time.process_time()
        handler = getattr(self, f"_do_{step.name}")
        try:
            handler(step)
        except Exception as exc:  # a bug in a step must end the script with a reason, not hang it
            self._done(step, False, f"{type(exc).__name__}: {exc}")

    def _done(self, step: Step, ok: bool, reason: str = "") -> None:
        if ok and self.shots_dir is not None and self.shots == "all":
            slug = re.sub(r"[^A-Za-z0-9_-]+", "-", f"{step.name}-{step.arg}").strip("-")[:40]
            save_png(self.shots_dir / f"{self.index + 1:03d}-{slug}.png")
        self._write_report(step, ok, reason)
        if not ok:
            self.failed = (step, reason)
            self._finish()
            return
        self.index += 1
        Clock.schedule_once(lambda _dt: self._next(), 0)

    def _write_report(self, step: Step, ok: bool, reason: str) -> None:
        if self.report is None:
            return
        counters = self.app.counters
        sent_mark, events_mark, refusals_mark = self._marks
        line = {
            "index": self.index + 1, "line": step.line, "step": str(step), "ok": ok, "reason": reason,
            "screen": self.app.current_screen, "ms": round((time.perf_counter() - self._step_started) * 1000, 1),
            "cpu_ms": round((time.process_time() - self._step_cpu) * 1000, 1),
            "sent": [{"source": s.source, "command": repr(s.command)} for s in counters.sent_since(sent_mark)],
            "events": counters.events - events_mark, "refusals": counters.refusals_since(refusals_mark),
        }
        if self._tapped is not None:  # from the top left, as a screen's pixels are counted
            x, y = self._tapped
            line["at"] = [round(x, 1), round(Window.height - y, 1)]
        self.report.write(json.dumps(line, ensure_ascii=False) + "\n")
        self.report.flush()

    def _finish(self) -> None:
        if self.finished:
            return
        self.finished = True
        if self.failed is not None:
            step, reason = self.failed
            self.out.write(f"script failed at step {self.index + 1} (line {step.line}: {step}): {reason}\n")
            self.exit_code = 1
        else:
            self.out.write(f"script done: {len(self.steps)} steps\n")
        self.out.flush()
        if self.exit_when_done:
            Clock.schedule_once(lambda _dt: self.app.stop(), 0)

    # -- waiting -------------------------------------------------------------------------

    def _wait(self, step: Step, ready: Callable[[], bool], then: Callable[[], None],
              failure: Callable[[], str]) -> None:
        """Check ``ready`` each frame; ``then`` when it holds, fail after the timeout."""
        deadline = time.perf_counter() + self.wait_seconds

        def poll(_dt: float) -> bool:
            try:
                if ready():
                    then()
                    return False
            except Exception as exc:
                self._done(step, False, f"{type(exc).__name__}: {exc}")
                return False
            if time.perf_counter() > deadline:
                self._done(step, False, failure())
                return False
            return True

        Clock.schedule_interval(poll, 0)

    def settled(self) -> bool:
        """Nothing left in flight: touches delivered, commands pumped, screens refreshed."""
        busy_touch = self.touches is not None and self.touches.busy
        trigger = getattr(self.app, "_refresh_trigger", None)
        refreshing = trigger is not None and trigger.is_triggered
        return not busy_touch and self.app.in_flight == 0 and not refreshing

    def _settle(self, step: Step, ok_reason: Callable[[], tuple[bool, str]] | None = None) -> None:
        """Wait until settled, let two frames lay out and draw, then finish the step."""
        frames = [0]

        def ready() -> bool:
            if not self.settled():
                frames[0] = 0
                return False
            frames[0] += 1
            return frames[0] >= 2  # one frame lays out (clock triggers run before it), one draws

        def then() -> None:
            ok, reason = ok_reason() if ok_reason is not None else (True, "")
            self._done(step, ok, reason)

        self._wait(step, ready, then, lambda: "the table did not settle (a command was not pumped)")

    def _tap_widget(self, step: Step, find: Callable[[], Any | None], what: Callable[[], str]) -> None:
        assert self.touches is not None
        touches = self.touches

        def tap() -> None:
            widget = find()
            assert widget is not None
            x, y = window_center(widget)
            self._tapped = (x, y)
            touches.tap(x, y)
            self._settle(step)

        self._wait(step, lambda: self.settled() and find() is not None, tap, what)

    def _what_is_there(self) -> str:
        names = [w.name for w in visible_widgets() if getattr(w, "name", "") and not isinstance(w, Screen)]
        return f"on screen {self.app.current_screen!r}: buttons {', '.join(names[:40]) or 'none'}"

    # -- the steps -------------------------------------------------------------------------

    def _do_tap(self, step: Step) -> None:
        scroll_into_view(step.arg)
        self._tap_widget(step, lambda: find_named(step.arg),
                         lambda: f"no widget named {step.arg!r} {self._what_is_there()}")

    def _do_tap_text(self, step: Step) -> None:
        def find() -> Any | None:
            widget, count = find_text(step.arg)
            return widget if count == 1 else None

        def what() -> str:
            _widget, count = find_text(step.arg)
            if count > 1:
                return f"{count} buttons show {step.arg!r}: tap one by name"
            texts = [plain(w.text) for w in visible_widgets() if hasattr(w, "on_act")]
            return f"no button shows {step.arg!r}; buttons: {', '.join(texts[:30])}"

        self._tap_widget(step, find, what)

    def _do_card(self, step: Step) -> None:
        code = Card.parse(step.arg).code

        def tap_card() -> None:
            self._tap_widget(step, lambda: find_named(f"card_{code}"),
                             lambda: f"the card picker shows no card {code}")

        if self.app.picker_open:
            tap_card()
            return
        opener = find_named("pick_card")
        if opener is None:
            self._wait(step, lambda: find_named("pick_card") is not None, lambda: self._do_card(step),
                       lambda: f"no card picker on screen {self.app.current_screen!r} (is this --simulate?)")
            return
        assert self.touches is not None
        self.touches.tap(*window_center(opener))
        self._wait(step, lambda: self.app.picker_open and find_named(f"card_{code}") is not None, tap_card,
                   lambda: "the card picker did not open")

    def _do_scan(self, step: Step) -> None:
        if self.reader is None:
            self._done(step, False, "scan needs the simulated reader (--simulate)")
            return
        self.reader.scan(step.arg).join()
        self._settle(step)

    def _do_tag(self, step: Step) -> None:
        self._do_scan(step)  # the simulated reader reports a payload no deck knows as a real one does

    def _do_press(self, step: Step) -> None:
        self.app.press(step.arg)
        self._settle(step)

    def _do_type(self, step: Step) -> None:
        field = next((w for w in visible_widgets() if isinstance(w, TextInput) and w.focus), None)
        if field is None:
            self._done(step, False, "no text field has the focus: tap one first")
            return
        for char in step.arg:  # as the keyboard delivers text: through the window
            Window.dispatch("on_textinput", char)
        self._settle(step, lambda: (step.arg in field.text, f"the field shows {field.text!r}"))

    def _do_wait_screen(self, step: Step) -> None:
        self._wait(step, lambda: self.settled() and self.app.current_screen == step.arg,
                   lambda: self._settle(step),
                   lambda: f"screen {self.app.current_screen!r} is shown, not {step.arg!r}")

    def _do_expect_screen(self, step: Step) -> None:
        shown = self.app.current_screen
        self._done(step, shown == step.arg, f"screen {shown!r} is shown, not {step.arg!r}")

    def _do_expect_shown(self, step: Step) -> None:
        self._settle(step, lambda: (find_named(step.arg) is not None,
                                    f"no widget {step.arg!r} in view {self._what_is_there()}"))

    def _do_expect_large(self, step: Step) -> None:
        def check() -> tuple[bool, str]:
            widget = find_named(step.arg)
            if widget is None or not isinstance(widget, Label):
                return False, f"no label {step.arg!r} in view {self._what_is_there()}"
            return large_and_whole(widget, self.app.scale * theme.FONT_SEAT_NAME)

        self._settle(step, check)

    def _do_expect_text(self, step: Step) -> None:
        wanted = " ".join(step.arg.split()).casefold()

        def found() -> bool:
            return self.settled() and any(wanted in text.casefold() for text in visible_texts())

        def failure() -> str:
            return f"{step.arg!r} is not on screen {self.app.current_screen!r}; it shows: " + \
                " | ".join(visible_texts())[:900]

        self._wait(step, found, lambda: self._done(step, True), failure)

    def _do_expect_no_text(self, step: Step) -> None:
        wanted = " ".join(step.arg.split()).casefold()

        def check() -> tuple[bool, str]:
            hits = [t for t in visible_texts() if wanted in t.casefold()]
            return not hits, f"{step.arg!r} is on screen: {hits[0] if hits else ''}"

        self._settle(step, check)

    def _do_screenshot(self, step: Step) -> None:
        directory = self.shots_dir if self.shots_dir is not None else Path.cwd()

        def shoot() -> tuple[bool, str]:
            save_png(directory / f"{step.arg}.png")
            return True, ""

        self._settle(step, shoot)

    def _do_sleep(self, step: Step) -> None:
        Clock.schedule_once(lambda _dt: self._done(step, True), float(step.arg))
