"""The script report says where each tap went: the qemu test replays taps at those places."""

from __future__ import annotations

from tests.ui.harness import run_table


def test_each_tap_in_the_report_has_its_place_on_the_screen_from_the_top_left(display: str) -> None:
    run = run_table(display, ["wait_screen setup", "tap add_player", "tap setup_next", "wait_screen setup"],
                    size="800x480").check()
    add = run.step("tap add_player")
    x, y = add["at"]  # type: ignore[misc]
    assert 0 < x < 800 and 0 < y < 480, add
    assert "at" not in run.step("wait_screen setup")
    # "Weiter" sits at the bottom right of the setup screen, below "Spieler +"
    next_x, next_y = run.step("tap setup_next")["at"]  # type: ignore[misc]
    assert next_y > 400 and next_x > 400, run.step("tap setup_next")
