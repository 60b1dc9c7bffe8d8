"""The table's log reaches the journal: ``skattisch run`` writes its own log lines and Kivy's
to stderr (what systemd's unit sends to the journal), and Kivy keeps no log files."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.drivers.test_deploy import values
from tests.ui.harness import ROOT

pytestmark = pytest.mark.ui

LOG_SETTINGS = ("KIVY_LOG_MODE", "KIVY_NO_FILELOG", "SKATTISCH_KIVY_LOG", "PYTHONUNBUFFERED")


def run_as_the_unit_does(display: str, tmp_path: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    unit_env = dict(value.split("=", 1) for value in values("Service", "Environment"))
    env = {key: value for key, value in os.environ.items() if key not in LOG_SETTINGS}
    env.update({key: unit_env[key] for key in LOG_SETTINGS})  # the unit's log settings, as systemd sets them
    env.update(DISPLAY=display, KIVY_HOME=str(tmp_path / "kivy"), JOURNAL_STREAM="8:12345", **extra)
    return subprocess.run([sys.executable, "-m", "ui.cli", "run", "--simulate", "--exit-when-done", "--size",
                           "800x480"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=150)


def test_the_start_is_logged_to_stderr_with_kivys_lines_and_no_log_files(display: str, tmp_path: Path) -> None:
    done = run_as_the_unit_does(display, tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stderr.splitlines()
    assert any(line.startswith("INFO ui.commands.run: table 1 starts: store in memory") for line in lines), lines
    assert "INFO kivy: Window: Provider: sdl2" in lines  # Kivy's own start-up, as the unit asks for it
    assert any(line.startswith("INFO kivy: GL: OpenGL renderer") for line in lines)
    assert not any(re.match(r"\d{4}-\d\d-\d\d ", line) for line in lines)  # the journal stamps the time itself
    assert (tmp_path / "kivy").is_dir() and not (tmp_path / "kivy" / "logs").exists()


def test_kivys_own_log_mode_cannot_send_the_log_to_files(display: str, tmp_path: Path) -> None:
    # someone's shell says KIVY_LOG_MODE=KIVY: the table's log still goes to stderr alone, once
    done = run_as_the_unit_does(display, tmp_path, KIVY_LOG_MODE="KIVY")
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stderr.count("INFO kivy: Window: Provider: sdl2") == 1
    assert not (tmp_path / "kivy" / "logs").exists()
