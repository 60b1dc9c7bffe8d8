"""A whole Danish Skat evening (rules/001, "Dänischer Skat") through the real table window,
under Xvfb: the setup offers "Dänischer Skat" (and the Århus rules) in its popup of rule
profiles and keeps the list in the Danish tournament scoring; Carla bids 20 (Grand 20 is the
Danish Grand) and plays a Grand ouvert after taking up the skat from scanned cards; Anna's
Grand ouvert mit 2 after the skat is the text's example (lost: 80, -160; each defender
receives 80); Bernd's Dækker (Null ouvert Hand, 69) after a Nul Hand is refused naming the
profile; the list, a correction, the end of the series and the settlement.
Screenshots: tests/artifacts/screens/<size>/danish-*.png."""

from __future__ import annotations

import pytest

from tests.ui.harness import SIZES, run_table
from tests.ui.scenarios import cards_steps, play_order, setup_steps
from tests.ui.test_games import SUIT_H, SUIT_M, SUIT_V, THREE

pytestmark = pytest.mark.ui

# Anna deals: Vorhand Bernd, Mittelhand Carla, Hinterhand Anna; the skat C7 S7 is pushed again.
GRAND_ORDER = play_order("grand", [SUIT_V, SUIT_M, SUIT_H])


def with_profiles_popup(steps: list[str], shot: str) -> list[str]:
    """The setup's steps with the profiles' popup looked at (its words, a screenshot)."""
    at = steps.index("tap choose_profile") + 1
    return steps[:at] + ["expect_text \"Dänischer Skat\"", "expect_text \"Dänisch (Århus)\"",
                         f"screenshot {shot}"] + steps[at:]


def danish_steps(size: str) -> list[str]:
    setup = setup_steps(THREE, length="length_open", profile="profile_danish", stake="stake_1",
                        shots=f"danish-01-{size}")
    return with_profiles_popup(setup, f"danish-00-profiles-{size}") + [
        # 1. Carla bids 20 and plays Grand ouvert after taking up the skat, from scanned cards
        "expect_text \"Mittelhand (Carla) sagt\"",
        "tap bid_18", "tap hold",
        "expect_text \"23\"",
        "tap bid_20", "tap pass", "tap pass",
        "wait_screen declare",
        "tap take_skat", "card C7", "card S7", "tap picker_done",
        "tap game_grand", "tap word_ouvert",
        "expect_text \"Grand ouvert\"",
        f"screenshot danish-02-declare-ouvert-after-skat-{size}",
        "tap declare",
        "wait_screen play",
        *cards_steps(GRAND_ORDER, via="scan"),
        "wait_screen result",
        "expect_text \"= 160, gewonnen +160\"",
        f"screenshot danish-03-result-grand-ouvert-{size}",
        "tap confirm_1", "tap confirm_2",
        "wait_screen game",
        # 2. the text's example: Anna plays Grand ouvert mit 2 after the skat and loses: 80, -160
        "tap bid_18", "tap pass", "tap pass",
        "wait_screen declare",
        "tap take_skat", "tap game_grand", "tap word_ouvert",
        "tap declare",
        "wait_screen play",
        "tap result_direct",
        "tap tricks_5", "tap digit_5", "tap digit_5", "tap enter_result",
        "tap matadors_p2",
        "wait_screen result",
        "expect_text \"Grand ouvert mit 2, Spiel 3, ouvert 4 = 80, verloren -160\"",
        f"screenshot danish-04-result-example-{size}",
        "tap confirm_1", "tap confirm_0",
        "wait_screen game",
        # 3. Bernd at 23: Nul Hand is no Danish game; Dækker (Null ouvert Hand) 69
        "tap position_1",
        "tap settle_23",
        "wait_screen declare",
        "tap choose_hand",
        "tap game_null",
        "expect_text \"Dækker\"",
        "tap word_ouvert",  # off: that would be Nul Hand, greyed
        "expect_text \"Im Dänischen Skat nicht erlaubt — Nul Hand\"",
        f"screenshot danish-05-declare-nul-hand-refused-{size}",
        "tap declare",
        "wait_screen play",
        "tap result_direct",
        "tap entry_null_won",
        "wait_screen result",
        "expect_text \"Bernd: Dækker = 69, gewonnen +69\"",
        "tap confirm_1", "tap confirm_0",
        "wait_screen game",
        # the list in the Danish scoring: each defender of Anna's lost game receives 80
        "tap list",
        "wait_screen list",
        "expect_text \"+160\"", "expect_text \"−160\"", "expect_text \"Dækker\"",
        "expect_text \"149\"", "expect_text \"240\"",  # 69 + 80 and 160 + 80: each defender receives 80
        f"screenshot danish-06-list-{size}",
        # a correction: Bernd's Dækker was lost (he took a trick)
        "tap row_3",
        "tap correct_entry",
        "expect_text \"Spiel 3 berichtigen: Bernd, Dækker\"",
        "tap entry_null_lost",
        "tap propose_0",
        "expect_text \"Berichtigung Spiel 3 (Anna)\"",
        f"screenshot danish-07-correction-{size}",
        "tap consent_1", "tap consent_2",
        "expect_no_text \"Berichtigung Spiel 3\"",
        "expect_text \"−138\"",  # a lost game counts double
        # the Danish tournament scoring: Bernd's lost Dækker gives Anna and Carla 69 each
        "expect_text \"Dänische Turnierwertung\"", "expect_text \"−91\"", "expect_text \"−58\"", "expect_text \"309\"",
        "tap end_series",
        "tap end_series_yes",
        "wait_screen end",
        # 001: "Bei Spielen um Geld wird die normale Punktwertung verwendet": the game points
        # 160 / −138 / −160 settled at 1 ct (each pair's difference)
        "expect_text \"Anna zahlt Carla 3,42 €\"", "expect_text \"Bernd zahlt Carla 2,76 €\"",
        f"screenshot danish-08-end-of-series-{size}",
        "tap confirm_list_0", "tap confirm_list_1", "tap confirm_list_2",
        "expect_text \"Die Liste ist abgeschlossen\"",
        f"screenshot danish-09-end-closed-{size}",
    ]


@pytest.fixture(scope="module", params=SIZES)
def evening(display: str, request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    return run_table(display, danish_steps(request.param), size=request.param).check()


def test_a_danish_evening_plays_ouvert_after_the_skat_and_dækker(evening) -> None:  # type: ignore[no-untyped-def]
    opened = evening.sent("tap setup_next", 2)[0]
    assert opened.startswith("OpenList(") and "scoring='danish'" in opened and "profile='danish'" in opened
    assert evening.sent("tap bid_20") == ["Bid(position=1, value=20)"]
    assert evening.sent("tap declare") == [
        "Declare(game=<GameType.GRAND: 'grand'>, hand=False, ouvert=True, announced=<Level.SIMPLE: 0>)"]
    assert evening.sent("tap declare", 3) == [
        "Declare(game=<GameType.NULL: 'null'>, hand=True, ouvert=True, announced=<Level.SIMPLE: 0>)"]
    assert evening.report[-1]["screen"] == "end"
