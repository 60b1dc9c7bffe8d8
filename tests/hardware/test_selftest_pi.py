"""``skattisch selftest`` on the real table: a person lays the cards, presses the buttons and
answers what the LEDs and the buzzer do.

Opt-in, on the Pi only, with the table stopped (it holds the reader and the pins)::

    sudo systemctl stop skattisch
    SKATTISCH_HARDWARE=1 SKATTISCH_CONFIG=/etc/skattisch/skattisch.toml \\
        .venv/bin/python -m pytest tests/hardware/test_selftest_pi.py -s -m hardware
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hardware.test_panel_pi import on_a_pi

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.hardware,
    pytest.mark.skipif(os.environ.get("SKATTISCH_HARDWARE") != "1", reason="set SKATTISCH_HARDWARE=1 to run"),
    pytest.mark.skipif(not on_a_pi(), reason="needs a Raspberry Pi"),
    pytest.mark.timeout(900),
]


def test_the_selftest_passes_on_the_real_table() -> None:
    # stdin and stdout stay the terminal's: the person answers the questions
    done = subprocess.run([sys.executable, "-m", "ui.cli", "selftest", "--wait", "60"], cwd=ROOT, timeout=880)
    assert done.returncode == 0, "a part failed: see its FAIL line above"
