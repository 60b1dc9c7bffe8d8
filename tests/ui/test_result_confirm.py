"""The result screen's confirm buttons: who confirms an entry, and the words fit at 800×480.

At a four-table the dealer sits out, yet he may confirm the result in a defender's stead: SkWO
7.2.2 ("Besonders der Kartengeber soll stets nachprüfen, ob das vorhergehende Spiel
ordnungsgemäß eingetragen ist"), SkWO 9.6 ("Der jeweilige Kartengeber ist verpflichtet, die
Eintragungen in der Spielliste auf ihre Richtigkeit zu überprüfen"); he is of the Gegenpartei
(SkWO 5.1). The screen says so and marks his button "Geber".
"""

from __future__ import annotations

import pytest

from tests.ui.harness import run_table
from tests.ui.scenarios import setup_steps

pytestmark = pytest.mark.ui

FOUR = ["Anna", "Bernd", "Carla", "Dieter"]  # Anna deals game 1 and sits out; Bernd is Vorhand
TO_THE_RESULT = [
    "wait_screen game", "tap bid_18", "tap hold", "tap pass", "tap pass", "wait_screen declare",
    "tap take_skat", "tap game_clubs", "tap declare", "wait_screen play", "tap result_direct",
    "tap tricks_7", "tap digit_8", "tap digit_0", "tap enter_result", "tap matadors_p1", "wait_screen result",
]


@pytest.mark.parametrize("size", ["800x480", "1280x720"])
def test_at_a_four_table_the_dealer_who_sits_out_confirms_for_the_defenders(display: str, size: str) -> None:
    steps = setup_steps(FOUR, length="length_open") + TO_THE_RESULT + [
        # the drawn lines of each button, joined: "Alleinspiel er" before (broken inside the word)
        "expect_text \"✔ Bernd Alleinspieler\"",
        "expect_text \"✔ Anna Geber\"",
        "expect_text \"Für die Gegenspieler darf auch der Geber (Anna) bestätigen.\"",
        f"screenshot 70-result-four-table-dealer-{size}",
        "tap confirm_0",  # the dealer for the defenders ...
        "tap confirm_1",  # ... and the declarer: the entry stands
        "wait_screen game",
        "expect_text \"Spiel 1 steht in der Liste\"",
    ]
    run = run_table(display, steps, size=size).check()
    assert run.sent("tap confirm_0") == ["Confirm(seat=0)"]
    assert run.sent("tap confirm_1") == ["Confirm(seat=1)"]


def test_at_a_three_table_the_dealer_plays_and_no_button_says_geber(display: str) -> None:
    steps = setup_steps(["Anna", "Bernd", "Carla"], length="length_open") + TO_THE_RESULT + [
        "expect_text \"✔ Bernd Alleinspieler\"",
        "expect_no_text \"Geber (Anna)\"",
        "expect_no_text \"✔ Anna Geber\"",
    ]
    run_table(display, steps).check()
