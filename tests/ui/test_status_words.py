"""Every word the status bar shows fits its place, on one line, at 800×480 and 1280×720, in
German and English: the real App in a child process on the test's Xvfb display, the reader's and
the sync's words each shown after the others (a word once drawn wrapped at the width of the
word before it: "nicht / synchronisie / rt", its last line below the bar), beside a long table
name, with the simulation's panel buttons and without. Screenshots of the widest:
tests/artifacts/screens/<size>/status-words-<lang>.png."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui.harness import ARTIFACTS, run_app_child

pytestmark = pytest.mark.ui

CHILD = r"""
from ui.i18n import set_language, tr
from ui.table.shots import save_png

shots = sys.argv[2]
READER = ("reader_simulated", "reader_ok", "reader_none", "reader_off", "deck_missing")  # viewmodels.status_of's words
SYNC = ("sync_no_laptop", "sync_all", "sync_none", "sync_upto")
SIZES = ((800, 480), (1280, 720))
seen["problems"], seen["shown"] = [], 0

def check(app, what):
    bar = app.status_bar
    for name in ("table_label", "reader_label", "sync_label", "clock_label"):
        label = bar.ids[name]
        text = label.text
        if not text:
            continue
        lines = len(getattr(label._label, "_cached_lines", None) or [])
        width, height = label.texture_size
        inside = bar.x - 1 <= label.x and label.right <= bar.right + 1 and label.width >= 0
        if lines != 1 or width > label.width + 1 or height > bar.height or not inside:
            seen["problems"].append(f"{what}: {name} {text!r} in {lines} lines, {width}x{height} px drawn in a "
                                    f"box of {label.width:.0f} px at x {label.x:.0f}..{label.right:.0f} "
                                    f"(the bar {bar.width:.0f}x{bar.height:.0f})")
    seen["shown"] += 1

def cases():
    for size in SIZES:
        for lang in ("de", "en"):
            for simulate in (True, False):
                for reader in READER:
                    for sync in SYNC:
                        yield size, lang, simulate, reader, sync

def started(app):
    app.table_name = "Vereinsheim Zum Goldenen Löwen, Tisch 12 am Fenster"

    def set_up(case):
        size, lang, simulate, reader, sync = case
        Window.size = size
        set_language(lang)
        app.simulate = simulate
        bar = app.status_bar
        bar.table_text = app.table_name
        bar.reader_text = tr(reader)
        bar.sync_text = tr(sync, game=148)
        bar.clock_text = "23:59"

    def shown(case):
        size, lang, simulate, reader, sync = case
        check(app, f"{size[0]}x{size[1]} {lang} {'simulated' if simulate else 'hardware'}")
        if simulate == (reader == "reader_simulated") and (reader, sync) in (
                ("reader_simulated", "sync_upto"), ("deck_missing", "sync_upto")):
            save_png(f"{shots}/{size[0]}x{size[1]}/status-words-{lang}-{reader}.png")

    for_each_case(app, cases(), set_up, shown)

run_app(started)
"""


def test_every_status_word_fits_its_place_in_both_languages_and_sizes(display: str, tmp_path: Path) -> None:
    seen = run_app_child(CHILD, display, tmp_path, args=[str(ARTIFACTS)])
    assert seen["shown"] == 2 * 2 * 2 * 5 * 4, seen
    assert not seen["problems"], "\n".join(seen["problems"][:20])  # type: ignore[index]
