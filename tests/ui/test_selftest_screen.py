"""``skattisch selftest``'s screen and touch check in a real Kivy window under Xvfb, tapped
through the X server (xdotool clicks, which SDL hands to Kivy as it would a finger)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.ui.harness import ROOT

pytestmark = [pytest.mark.ui,
              pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed (./dev.sh test)")]

WIDTH, HEIGHT = 800, 480
TARGETS = [(0.02, 0.02), (0.78, 0.02), (0.02, 0.78), (0.78, 0.78), (0.4, 0.4)]  # Kivy: from the bottom left


def start(display: str, tmp_path: Path, wait: int = 5) -> tuple[subprocess.Popen[str], dict[str, str]]:
    config = tmp_path / "skattisch.toml"
    config.write_text(f'[ui]\nfullscreen = false\nwidth = {WIDTH}\nheight = {HEIGHT}\n'
                      f'[store]\npath = "{tmp_path}/lists"\n')
    env = {**os.environ, "DISPLAY": display, "KIVY_NO_ARGS": "1", "KIVY_HOME": str(tmp_path / "kivy")}
    process = subprocess.Popen([sys.executable, "-m", "ui.cli", "selftest", "--only", "screen", "--wait", str(wait),
                                "--config", str(config)], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    return process, env


def window(env: dict[str, str]) -> str:
    """The self-test's window, once it has its title (the App sets it when it builds)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        # (xdotool's --name does not see SDL's UTF-8 title; getwindowname does)
        found = subprocess.run(["xdotool", "search", "--class", "."], env=env, capture_output=True, text=True,
                               timeout=10)
        for wid in found.stdout.split():
            name = subprocess.run(["xdotool", "getwindowname", wid], env=env, capture_output=True, text=True,
                                  timeout=10)
            if name.stdout.strip() == "Skattisch selftest":
                return wid
        time.sleep(0.2)
    raise AssertionError("the self-test's window did not come up in 30 s")


def tap(env: dict[str, str], wid: str, x: float, y: float) -> None:
    subprocess.run(["xdotool", "mousemove", "--window", wid, str(int(x)), str(int(y)), "click", "1"],
                   env=env, check=True, timeout=10)


def tap_targets(display: str, tmp_path: Path, targets: list[tuple[float, float]],
                wait: int = 5) -> subprocess.CompletedProcess[str]:
    """Start the screen check, tap ``targets`` through X, and wait for its verdict."""
    process, env = start(display, tmp_path, wait)
    try:
        wid = window(env)
        time.sleep(1.0)  # the first frame: Kivy lays the targets out after the window shows
        for x, y in targets:
            tap(env, wid, (x + 0.1) * WIDTH, HEIGHT - (y + 0.1) * HEIGHT)
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def test_tapping_all_five_targets_passes(display: str, tmp_path: Path) -> None:
    done = tap_targets(display, tmp_path, TARGETS)
    assert done.returncode == 0, done.stdout + done.stderr[-2000:]
    assert "PASS  screen   all five targets tapped (corners and middle)" in done.stdout


def test_a_target_left_untapped_fails(display: str, tmp_path: Path) -> None:
    done = tap_targets(display, tmp_path, TARGETS[:4], wait=2)  # the middle one missed; the check waits 3 × 2 s
    assert done.returncode == 1, done.stdout + done.stderr[-2000:]
    assert "FAIL  screen   4 of 5 targets tapped in 6 s: is the touch cable plugged in?" in done.stdout
