"""The settings screen fits the 7" panel (800×480) and a 1280×720 display, in German and
English: every line, its buttons and the bottom bar inside the window below the status bar, the
title in the bottom bar, and a long reader error in at most two lines of its own box (at
800×480 the title row used to be pushed off the top, and such a line was cut to one line in the
middle). The real App in a child process on the test's Xvfb display; screenshots:
tests/artifacts/screens/<size>/settings-fit-<lang>.png."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui.harness import ARTIFACTS, run_app_child

pytestmark = pytest.mark.ui

CHILD = r"""
from kivy.uix.label import Label
from ui.i18n import set_language, tr
from ui.table.shots import save_png

shots = sys.argv[2]
SIZES = ((800, 480), (1280, 720))
LONG = ("/dev/skattisch-reader · nicht verbunden · Kartenleser /dev/skattisch-reader nicht erreichbar: "
        "[Errno 2] could not open port /dev/skattisch-reader: No such file or directory")
seen["problems"], seen["shown"], seen["texts"] = [], 0, []

def check(app, what):
    screen = app.manager.get_screen("settings")
    top = Window.height - app.status_bar.height
    for widget in screen.walk(restrict=True):
        if widget is screen or not widget.width or not widget.height:
            continue
        if widget.y < -1 or widget.top > top + 1 or widget.x < -1 or widget.right > Window.width + 1:
            seen["problems"].append(f"{what}: {type(widget).__name__} {getattr(widget, 'text', '')[:40]!r} at "
                                    f"{widget.x:.0f},{widget.y:.0f} {widget.width:.0f}x{widget.height:.0f} "
                                    f"outside the window below the status bar (top {top:.0f})")
        if isinstance(widget, Label) and widget.text:
            seen["texts"].append(widget.text)
            lines = len(getattr(widget._label, "_cached_lines", None) or [])
            if widget.texture_size[1] > widget.height + 1 or (widget.text.startswith(tr("reader_port")) and lines > 2):
                seen["problems"].append(f"{what}: {widget.text[:50]!r} drawn {widget.texture_size} in "
                                        f"{lines} lines, its box {widget.width:.0f}x{widget.height:.0f}")
    seen["shown"] += 1

def started(app):
    app.simulate = False
    app._open_overlay("settings")
    screen = app.manager.get_screen("settings")

    def set_up(case):
        (width, height), lang = case
        Window.size = (width, height)
        app.set_language(lang)
        screen.reader_text = LONG

    def shown(case):
        (width, height), lang = case
        check(app, f"{width}x{height} {lang}")
        save_png(f"{shots}/{width}x{height}/settings-fit-{lang}.png")

    def said_of_the_reader(connected):
        from dataclasses import replace
        from device.table.views import ReaderView
        detail = "Kartenleser /dev/ttyUSB0 " + ("verbunden" if connected else "nicht erreichbar: [Errno 2]")
        screen.show(replace(app.snapshot, reader=ReaderView(connected, "/dev/ttyUSB0", detail)))
        return screen.reader_text

    set_language("de")
    seen["reader"] = [said_of_the_reader(True), said_of_the_reader(False)]
    for_each_case(app, [(size, lang) for size in SIZES for lang in ("de", "en")], set_up, shown, delay=0.1)

run_app(started)
"""


def test_the_settings_fit_the_panel_with_their_title_and_a_long_reader_error(display: str, tmp_path: Path) -> None:
    seen = run_app_child(CHILD, display, tmp_path, args=[str(ARTIFACTS)])
    assert seen["shown"] == 4, seen
    assert not seen["problems"], "\n".join(seen["problems"][:20])  # type: ignore[index]
    texts = seen["texts"]
    assert "Einstellungen" in texts and "Settings" in texts  # type: ignore[operator]  # the title, in the bottom bar
    assert any("could not open port" in text for text in texts)  # type: ignore[union-attr]
    # a connected reader's line says so once; a missing one says why
    assert seen["reader"] == ["/dev/ttyUSB0 · verbunden",
                              "/dev/ttyUSB0 · nicht verbunden · Kartenleser /dev/ttyUSB0 nicht erreichbar: [Errno 2]"]
