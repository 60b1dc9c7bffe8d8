"""A real club evening at three, four and five players (issue 11): every transfer of the
settlement on screen beside the game points it comes from, at 800×480 and 1280×720.

Games are entered the quick way (Vorhand plays, the result entered directly), so a whole
round runs in a few seconds; what is checked is what a player can read on the screen:
``expect_text`` sees only text that is drawn (a line cut off at the bottom of its box, or a
name shortened to "Ha…re", does not count as shown).
"""

from __future__ import annotations

import pytest

from tests.ui.harness import run_table
from tests.ui.scenarios import direct_game, setup_steps

pytestmark = pytest.mark.ui

FIVE = ("Hannelore", "Hans-Joachim", "Wolfgang", "Karl-Heinz", "Ingrid")
FOUR = ("Anna", "Bernd", "Carla", "Dieter")
THREE = ("Anna", "Bernd", "Carla")

# (game, Vorhand's tricks, card points, matadors): won, lost, won, lost, …
GAMES = [("clubs", 7, 80, 1), ("hearts", 3, 40, 1), ("spades", 6, 75, 2), ("diamonds", 4, 50, 1),
         ("grand", 8, 90, 1)]


def evening(players: tuple[str, ...], games: int) -> list[str]:
    steps = setup_steps(players, length="length_open", stake="stake_1")
    for number in range(games):
        game, tricks, points, matadors = GAMES[number % len(GAMES)]
        steps += direct_game(number, len(players), game, tricks, points, matadors)
    return steps + ["tap list", "wait_screen list", "tap end_series", "tap end_series_yes", "wait_screen end"]


@pytest.mark.parametrize("size", ["800x480", "1280x720"])
def test_at_four_players_every_transfer_and_the_game_points_are_on_the_end_screen(display: str, size: str) -> None:
    steps = evening(FOUR, 4) + [
        "expect_text \"Spielpunkte\"", "expect_text \"Seeger-Fabian\"",
        # the three payments (before: only two fitted) and the game points they come from
        "expect_text \"Carla zahlt Dieter 1,41 €\"",
        "expect_text \"Anna zahlt Dieter 0,10 €\"",
        "expect_text \"Anna zahlt Bernd 1,15 €\"",
        "expect_text \"Dieter 1 gew. · 0 verl.\"",
        f"screenshot 40-end-four-{size}",
    ]
    run_table(display, steps, size=size).check()


@pytest.mark.parametrize("size", ["800x480", "1280x720"])
def test_at_five_players_the_end_screen_shows_every_transfer_and_whole_names(display: str, size: str) -> None:
    steps = evening(FIVE, 5) + [
        "expect_text \"Wolfgang zahlt Hannelore 2,53 €\"", "expect_text \"Ingrid zahlt Hannelore 0,54 €\"",
        "expect_text \"Ingrid zahlt Karl-Heinz 1,12 €\"", "expect_text \"Ingrid zahlt Hans-Joachim 0,67 €\"",
        "expect_text \"✔ Hannelore\"", "expect_text \"✔ Hans-J.\"", "expect_text \"✔ Karl-H.\"",
        f"screenshot 41-end-five-{size}",
    ]
    run_table(display, steps, size=size).check()
