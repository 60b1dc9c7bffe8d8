"""ISkO 3.4.4 through the real UI: Null after a bid of 24 is not greyed out, it says it is lost
at once; declared, the game ends, the table gives the Spitzen and the list shows the lost
suit game."""

from __future__ import annotations

import pytest

from tests.ui.harness import run_table
from tests.ui.scenarios import setup_steps
from tests.ui.test_games import THREE

pytestmark = pytest.mark.ui


def test_an_overbid_null_is_declared_and_lost_at_once(display: str) -> None:
    steps = setup_steps(THREE, length="length_open") + [
        "tap bid_24", "tap hold", "tap pass", "tap pass",
        "wait_screen declare",
        "tap take_skat",
        "tap game_null",
        "expect_text \"23 < 24: sofort verloren\"",
        "screenshot 40-declare-overbid-null",
        "tap declare",
        "wait_screen result",
        "expect_text \"Null nicht mehr durchführbar\"",
        "expect_text \"am knappsten erreicht\"",
        "screenshot 41-result-overbid-null-matadors",
        "tap matadors_p1",
        "expect_text \"verloren als Kreuz mit 1, Spiel 2 = 24\"",
        "screenshot 42-result-overbid-null",
    ]
    run = run_table(display, steps, size="800x480").check()  # the Pi's own screen
    assert run.sent("tap declare") == ["Declare(game=<GameType.NULL: 'null'>, hand=False, ouvert=False, announced=<Level.SIMPLE: 0>)"]
    assert run.sent("tap matadors_p1") == ["EnterMatadors(matadors=1)"]
