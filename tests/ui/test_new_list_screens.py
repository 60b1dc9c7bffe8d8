"""A new list after a closed one: the screens that held the old list let go of it (its rows,
texts and snapshots are freed, tests/bench/test_bench_soak.py) and show the new list whole when
they come up again: its rows drawn anew, none of the old list's, the end screen its own."""

from __future__ import annotations

import pytest

from tests.ui.harness import run_table
from tests.ui.scenarios import direct_game, setup_steps

pytestmark = pytest.mark.ui

FOUR = ("Anna", "Bernd", "Carla", "Dieter")


@pytest.mark.parametrize("size", ["800x480", "1280x720"])
def test_the_new_lists_list_and_end_screen_show_its_games_not_the_old_ones(display: str, size: str) -> None:
    steps = [*setup_steps(FOUR, length="length_open", stake="stake_1"),
             *direct_game(0, 4, "hearts", 3, 40, 1), *direct_game(1, 4, "grand", 8, 90, 1),
             "tap list", "wait_screen list", 'expect_text "Herz"', 'expect_text "Grand"',
             "tap end_series", "tap end_series_yes", "wait_screen end",
             *[f"tap confirm_list_{seat}" for seat in range(4)], 'expect_text "Die Liste ist abgeschlossen"',
             "tap new_list", "wait_screen setup", "tap setup_next", "wait_screen game",
             "sleep 1.5",  # idle: what held the old list is collected
             *direct_game(0, 4, "clubs", 7, 80, 1), "wait_screen game",
             "tap list", "wait_screen list", "expect_shown row_1", 'expect_text "Kreuz"',
             'expect_no_text "Herz"', 'expect_no_text "Grand"', f"screenshot 60-new-list-list-{size}",
             "tap close_list", "wait_screen game", "tap list", "wait_screen list",
             "tap end_series", "tap end_series_yes", "wait_screen end",
             'expect_text "Dieter 0 gew."', f"screenshot 61-new-list-end-{size}"]
    run_table(display, steps, size=size).check()
