"""An error in a Kivy callback does not end the table: logged, shown, and the table goes on."""

from __future__ import annotations

import pytest

from tests.ui.failing_callback import FAILURE
from tests.ui.harness import run_table
from tests.ui.scenarios import setup_steps
from tests.ui.test_games import THREE

pytestmark = pytest.mark.ui


def test_a_failing_callback_shows_internal_error_and_the_table_goes_on(display: str) -> None:
    steps = [
        "wait_screen setup",
        'expect_text "Interner Fehler, bitte melden"',
        "screenshot 40-internal-error",
        *setup_steps(THREE),  # taps, typing, the service's pump: all still working
        "tap bid_18",
        "tap hold",
        'expect_no_text "Interner Fehler, bitte melden"',
    ]
    run = run_table(display, steps, module="tests.ui.failing_callback").check()
    assert run.sent("tap bid_18") and run.report[-1]["screen"] == "game"
    output = run.stdout + run.stderr
    assert FAILURE in output and "Traceback" in output  # the log has the error and where it came from
