"""Schenken (rules/001, "Schenken") through the real table window, under Xvfb, with the club
profile ("Kneipe"): Bernd says "schenken", Anna agrees and Carla accepts (won simple: 36);
Carla and Bernd give Anna's Pik, she plays on for Schneider and makes it (scored as Schneider
announced without Hand: 55); Anna offers Bernd's Karo, Carla says no and the game goes on as if
nothing happened; the list shows the gifts; the end of the series and the settlement.
Screenshots: tests/artifacts/screens/<size>/schenken-*.png."""

from __future__ import annotations

import pytest

from tests.ui.harness import SIZES, run_table
from tests.ui.scenarios import setup_steps
from tests.ui.test_games import THREE

pytestmark = pytest.mark.ui


def declare(game: str) -> list[str]:
    """The declarer takes up the skat, pushes two cards (scanned) and declares ``game``."""
    return ["wait_screen declare", "tap take_skat", "card C7", "card S7", "tap picker_done",
            f"tap game_{game}", "tap declare", "wait_screen play"]


def direct(tricks: int, points: int, matadors: int) -> list[str]:
    return ["tap result_direct", f"tap tricks_{tricks}", *(f"tap digit_{d}" for d in str(points)),
            "tap enter_result", f"tap matadors_p{matadors}", "wait_screen result"]


def schenken_steps(size: str) -> list[str]:
    return setup_steps(THREE, length="length_open", profile="profile_kneipe", stake="stake_1",
                       shots=f"schenken-01-{size}") + [
        # 1. Anna deals: Carla (Mittelhand) plays Kreuz; Bernd says "schenken", Anna agrees, Carla accepts
        "expect_text \"Mittelhand (Carla) sagt\"",
        "tap bid_18", "tap pass", "tap pass",
        *declare("clubs"),
        f"screenshot schenken-012-play-{size}",
        "tap gift",
        "expect_text \"Bernd schenkt\"", "expect_text \"Anna schenkt\"",
        f"screenshot schenken-015-who-gives-{size}",
        "tap gift_offer_0",
        "expect_text \"Schenken: Bernd\"", "expect_text \"Zustimmen: geschenkt (Anna)\"",
        "expect_text \"Nicht schenken (Anna)\"",
        f"screenshot schenken-02-offered-{size}",
        "tap gift_offer_2",
        "expect_text \"Geschenkt annehmen (Carla)\"", "expect_text \"Weiterspielen auf Schneider (Carla)\"",
        f"screenshot schenken-03-declarer-answers-{size}",
        "tap gift_accept",
        "wait_screen result",
        "expect_text \"Die Gegenspieler haben geschenkt\"",
        "tap matadors_p2",
        "expect_text \"Carla: Kreuz mit 2, Spiel 3 = 36, geschenkt, gewonnen +36\"",
        f"screenshot schenken-04-result-geschenkt-{size}",
        "tap confirm_2", "tap confirm_0",
        "wait_screen game",
        # 2. Bernd deals: Anna (Mittelhand) plays Pik; Carla and Bernd give, she plays on for Schneider
        "tap bid_18", "tap pass", "tap pass",
        *declare("spades"),
        "tap gift", "tap gift_offer_0", "tap gift_offer_2", "tap gift_play_on",
        "expect_text \"gereizt 18 · auf Schneider\"",
        "expect_text \"Schenken\"", "expect_no_text \"Schenke n\"",  # they may give Schneider now
        f"screenshot schenken-05-played-on-{size}",
        *direct(8, 95, 2),
        "expect_text \"Anna: Pik mit 2, Spiel 3, Schneider 4, Schneider angesagt 5 = 55, weitergespielt auf Schneider, "
        "gewonnen +55\"",
        f"screenshot schenken-06-result-schneider-{size}",
        "tap confirm_0", "tap confirm_2",
        "wait_screen game",
        # 3. Carla deals: Bernd (Mittelhand) plays Karo; Anna offers, Carla says no: play goes on
        "tap bid_18", "tap pass", "tap pass",
        *declare("diamonds"),
        "tap gift", "tap gift_offer_0",
        "tap gift_decline_2",
        "expect_no_text \"Schenken: Anna\"",
        *direct(6, 70, 1),
        "expect_text \"Bernd: Karo mit 1, Spiel 2 = 18, gewonnen +18\"",
        "tap confirm_1", "tap confirm_0",
        "wait_screen game",
        # the list
        "tap list",
        "wait_screen list",
        "expect_text \"+36\"", "expect_text \"+55\"", "expect_text \"+18\"", "expect_text \"Kreuz g\"",
        "expect_text \"Pik w S\"",
        f"screenshot schenken-07-list-{size}",
        "tap end_series",
        "tap end_series_yes",
        "wait_screen end",
        f"screenshot schenken-08-end-of-series-{size}",
    ]


@pytest.fixture(scope="module", params=SIZES)
def evening(display: str, request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    return run_table(display, schenken_steps(request.param), size=request.param).check()


def test_the_gift_is_offered_agreed_and_accepted_by_taps(evening) -> None:  # type: ignore[no-untyped-def]
    assert evening.sent("tap gift_offer_0") == ["OfferGift(position=0)"]
    assert evening.sent("tap gift_offer_2") == ["OfferGift(position=2)"]
    assert evening.sent("tap gift_accept") == ["AcceptGift(position=1)"]
    assert evening.sent("tap gift_play_on") == ["PlayOn(position=1)"]
    assert evening.sent("tap gift_decline_2") == ["DeclineGift(position=2)"]
    assert evening.report[-1]["screen"] == "end"
