"""A table whose button panel, reader or laptop is not there starts all the same and says so.

The real ``skattisch run`` (not --simulate) with the real config loader under Xvfb: GPIO
enabled with pins, but no pin factory gpiozero can load (a PC, as qemu or an unknown board
revision is for the Pi), the reader's device absent and the laptop unreachable. Only a broken
config file may stop the start (exit code 2). Screenshots "panel-missing-*".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui.harness import ARTIFACTS, run_table

pytestmark = pytest.mark.ui

NOTHING_THERE = """
[table]
number = 5
[reader]
mode = "barcode"
port = "{tmp}/no-reader-here"
[gpio]
confirm = 17
back = 27
dealer_leds = [5, 6, 13, 19]
buzzer = 12
[sync]
url = "http://127.0.0.1:9"
[store]
path = "{tmp}/lists"
"""


def _on_a_pi() -> bool:
    model = Path("/proc/device-tree/model")
    return model.exists() and "Raspberry" in model.read_text(errors="replace")


@pytest.mark.parametrize(("lang", "short", "help_words"), [
    ("de", "Tastenfeld fehlt", "Kabel prüfen"),
    ("en", "Button panel missing", "check its cable"),
])
@pytest.mark.parametrize("size", ["800x480", "1280x720"])
def test_without_gpio_reader_and_laptop_the_table_starts_and_says_what_is_missing(
        display: str, monkeypatch: pytest.MonkeyPatch, lang: str, short: str, help_words: str, size: str) -> None:
    if _on_a_pi():
        pytest.skip("on a Pi gpiozero finds a pin factory")
    # gpiozero's own choice, as the image leaves it: on a PC none of its factories loads
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    shot = f"panel-missing-{lang}-{size}"
    steps = [
        "wait_screen game",
        f'expect_text "{short}"',  # the status bar, for as long as the table runs
        f'expect_text "{help_words}"',  # the banner at the start: what to do
        f"screenshot {shot}",
        # the evening goes on by touch: all three pass, eingepasst
        "tap pass", "tap pass", "tap pass",
        'expect_text "eingepasst"' if lang == "de" else 'expect_text "passed in"',
        f'expect_text "{short}"',  # the banner went with the first tap; the status bar keeps saying it
        "sleep 3.5",  # the news "eingepasst" lies over the status bar for 3 s
        f"screenshot {shot}-later",
    ]
    run = run_table(display, steps, size=size, lang=lang, config=NOTHING_THERE, simulate=False,
                    args=["--players", "Anna,Bernd,Carla"])
    assert run.returncode == 0, f"exit {run.returncode}:\n{run.stderr[-3000:]}"
    assert [line["step"] for line in run.report if not line["ok"]] == []
    # the journal says why, for the volunteer
    assert "the table starts without its button panel" in run.stderr
    assert "Unable to load any default pin factory" in run.stderr
    assert any(line["events"] for line in run.report if line["step"] == "tap pass")
    assert (ARTIFACTS / size / f"{shot}.png").stat().st_size > 0


def test_a_broken_config_file_still_stops_the_start(display: str, tmp_path: Path) -> None:
    run = run_table(display, ["wait_screen game"], config=NOTHING_THERE + "[gpio]\nconfirm = 22\n",
                    simulate=False)
    assert run.returncode == 2
    assert "skattisch run:" in run.stderr and run.report == []
