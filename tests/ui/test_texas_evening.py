"""A whole Texas-Skat evening (rules/001, "Texas-Skat") through the real table window, under
Xvfb: the setup offers "Texas-Skat"; Carla bids 32 (Grand mit 1, a Texas bid value) and plays
a Grand with Schneider announced after taking up the skat, from scanned cards (Grand 16), and
looks at his discards before the second trick; all
pass and the Texas Ramsch is entered (the player without a trick wins 20); a Grand ouvert
after the skat typed in is the text's 288; a Texas Ramsch tied for the fewest Augen asks who
took the later trick; the list, a correction (89 Augen: short of Schneider at 91), the end of the series and the settlement.
Screenshots: tests/artifacts/screens/<size>/texas-*.png."""

from __future__ import annotations

import pytest

from tests.ui.harness import SIZES, run_table
from tests.ui.scenarios import cards_steps, play_order, setup_steps
from tests.ui.test_games import SUIT_H, SUIT_M, SUIT_V, THREE

pytestmark = pytest.mark.ui

# Anna deals: Vorhand Bernd, Mittelhand Carla, Hinterhand Anna; the skat C7 S7 is pushed again.
GRAND_ORDER = play_order("grand", [SUIT_V, SUIT_M, SUIT_H])

# Bernd deals the Ramsch: Vorhand Carla 58 Augen in 6 tricks, Mittelhand Anna 52 in 4 and the
# last trick (the skat's 10), Hinterhand Bernd no trick: he wins 20.
RAMSCH_ENTRY = [
    "tap digit_5", "tap digit_8",
    "tap ramsch_points_1", "tap digit_5", "tap digit_2",
    "tap ramsch_points_2", "tap digit_0",
    "tap ramsch_skat", "tap digit_1", "tap digit_0",
    "tap ramsch_tricks_0", "tap digit_6",
    "tap ramsch_tricks_1", "tap digit_4",
    "tap ramsch_tricks_2", "tap digit_0",
    "tap ramsch_last_1",
]

# Anna deals the second Ramsch: Vorhand Bernd and Mittelhand Carla 30 Augen in 3 tricks each,
# Hinterhand Anna 40 in 4 and the last trick (the skat's 20).
RAMSCH_TIE_ENTRY = [
    "tap digit_3", "tap digit_0",
    "tap ramsch_points_1", "tap digit_3", "tap digit_0",
    "tap ramsch_points_2", "tap digit_4", "tap digit_0",
    "tap ramsch_skat", "tap digit_2", "tap digit_0",
    "tap ramsch_tricks_0", "tap digit_3",
    "tap ramsch_tricks_1", "tap digit_3",
    "tap ramsch_tricks_2", "tap digit_4",
    "tap ramsch_last_2",
]


def texas_steps(size: str) -> list[str]:
    return setup_steps(THREE, length="length_open", profile="profile_texas", stake="stake_1",
                       shots=f"texas-01-{size}") + [
        # 1. Carla bids 32 (Grand mit 1) and plays Grand, Schneider announced after the skat
        "expect_text \"Mittelhand (Carla) sagt\"",
        "tap bid_18", "tap hold",
        "expect_text \"32\"",
        f"screenshot texas-02-bid-values-{size}",
        "tap bid_32", "tap pass", "tap pass",
        "wait_screen declare",
        "tap take_skat", "card C7", "card S7", "tap picker_done",
        "tap game_grand", "tap word_schneider",
        "expect_text \"Grand Schneider angesagt\"",
        f"screenshot texas-03-declare-schneider-after-skat-{size}",
        "tap declare",
        "wait_screen play",
        "expect_text \"Carla spielt Grand Schneider angesagt, gereizt 32\"",
        "tap look_at_discards",  # Texas: the declarer looks at his discards before the second trick
        "expect_text \"Gedrückte Karten von Carla\"", "expect_text \"Kreuz 7\"", "expect_text \"Pik 7\"",
        f"screenshot texas-035-discards-{size}",
        "tap cancel",
        *cards_steps(GRAND_ORDER[:3], via="scan"),
        "expect_text \"Skat ansehen\"",
        *cards_steps(GRAND_ORDER[3:4], via="scan"),
        "expect_no_text \"Skat ansehen\"",
        *cards_steps(GRAND_ORDER[4:], via="scan"),
        "wait_screen result",
        "expect_text \"Carla: Grand Schneider angesagt mit 4, Spiel 5, Schneider 6, Schneider angesagt 7, "
        "Schwarz 8 = 128, gewonnen +128\"",
        f"screenshot texas-04-result-grand-{size}",
        "tap confirm_2", "tap confirm_0",
        "wait_screen game",
        # 2. all pass: the Texas Ramsch
        "tap pass", "tap pass", "tap pass",
        "wait_screen ramsch",
        *RAMSCH_ENTRY,
        f"screenshot texas-05-ramsch-entry-{size}",
        "tap enter_ramsch",
        "wait_screen result",
        "expect_text \"Ramsch: Bernd gewinnt mit 0 Augen ohne Stich, +20\"",
        f"screenshot texas-06-ramsch-result-{size}",
        "tap confirm_0", "tap confirm_1",
        "wait_screen game",
        # 3. Anna plays at 18 (entered at once) a Grand ouvert after the skat, typed in: 288
        "tap position_0",
        f"screenshot texas-07-settle-values-{size}",
        "tap settle_18",
        "wait_screen declare",
        "tap take_skat", "tap game_grand", "tap word_ouvert",
        "expect_text \"Grand ouvert nach Skataufnahme\"",
        f"screenshot texas-08-declare-ouvert-after-skat-{size}",
        "tap declare",
        "wait_screen play",
        "tap result_direct",
        "tap tricks_10", "tap digit_1", "tap digit_2", "tap digit_0", "tap enter_result",
        "tap matadors_p4",
        "wait_screen result",
        "expect_text \"Schwarz angesagt 9, ouvert doppelt 18 = 288, gewonnen +288\"",
        f"screenshot texas-09-result-288-{size}",
        "tap confirm_0", "tap confirm_1",
        "wait_screen game",
        # 4. all pass again: Bernd and Carla tie with 30 Augen, Anna took the last trick: the table
        # asks who of the two took the later trick (Carla), so Bernd wins the 10
        "tap pass", "tap pass", "tap pass",
        "wait_screen ramsch",
        *RAMSCH_TIE_ENTRY,
        "tap enter_ramsch",
        "expect_text \"Gleich wenige Augen: wer von Bernd und Carla hatte den späteren Stich?\"",
        f"screenshot texas-095-ramsch-later-trick-{size}",
        "tap later_trick_1",
        "wait_screen result",
        "expect_text \"Ramsch: Bernd gewinnt mit 30 Augen, +10\"",
        "tap confirm_0", "tap confirm_1",
        "wait_screen game",
        # the list: Grand with its Texas base value 16, the Ramsch, the 288
        "tap list",
        "wait_screen list",
        "expect_text \"16\"", "expect_text \"+128\"", "expect_text \"Ramsch\"", "expect_text \"+288\"",
        f"screenshot texas-10-list-{size}",
        # a correction: Carla had 89 Augen in 9 tricks, short of Texas's Schneider at 91: lost
        "tap row_1",
        "tap correct_entry",
        "expect_text \"Spiel 1 berichtigen: Carla, Grand\"",
        "tap digit_clear", "tap digit_8", "tap digit_9", "tap tricks_9",
        "tap enter_result",
        "tap matadors_p4",
        "tap propose_0",
        "expect_text \"Berichtigung Spiel 1 (Anna)\"",
        "expect_text \"Grand Schneider angesagt mit 4, Spiel 5, Schneider 6, Schneider angesagt 7 = 112\"",
        f"screenshot texas-105-correction-{size}",
        "tap consent_1", "tap consent_2",
        "expect_no_text \"Berichtigung Spiel 1\"",
        "expect_text \"−224\"",
        "tap end_series",
        "tap end_series_yes",
        "wait_screen end",
        # game points 288 / 30 / −224 settled at 1 ct: 770 to Anna
        "expect_text \"Carla zahlt Anna 7,66 €\"", "expect_text \"Bernd zahlt Anna 0,04 €\"",
        "expect_text \"−274\"",  # Carla's Seeger-Fabian: −224 − 50 for the lost game
        f"screenshot texas-11-end-of-series-{size}",
        "tap confirm_list_0", "tap confirm_list_1", "tap confirm_list_2",
        "expect_text \"Die Liste ist abgeschlossen\"",
        f"screenshot texas-12-end-closed-{size}",
    ]


@pytest.fixture(scope="module", params=SIZES)
def evening(display: str, request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    return run_table(display, texas_steps(request.param), size=request.param).check()


def test_a_texas_evening_bids_texas_values_and_announces_after_the_skat(evening) -> None:  # type: ignore[no-untyped-def]
    assert evening.sent("tap bid_32") == ["Bid(position=1, value=32)"]
    assert evening.sent("tap declare") == [
        "Declare(game=<GameType.GRAND: 'grand'>, hand=False, ouvert=False, announced=<Level.SCHNEIDER: 1>)"]
    assert evening.sent("tap declare", 2) == [
        "Declare(game=<GameType.GRAND: 'grand'>, hand=False, ouvert=True, announced=<Level.SIMPLE: 0>)"]
    assert evening.sent("tap settle_18") == ["EnterBidding(position=0, value=18)"]


def test_the_texas_ramsch_is_entered_without_pushes(evening) -> None:  # type: ignore[no-untyped-def]
    assert evening.sent("tap look_at_discards") == []  # looking changes no game: nothing is sent
    assert evening.sent("tap enter_ramsch") == [
        "EnterRamsch(points=(58, 52, 0), tricks=(6, 4, 0), skat_points=10, last_trick=1, pushes=0, later_trick=None)"]
    assert evening.sent("tap enter_ramsch", 2) == [
        "EnterRamsch(points=(30, 30, 40), tricks=(3, 3, 4), skat_points=20, last_trick=2, pushes=0, later_trick=None)"]
    assert evening.sent("tap later_trick_1") == [
        "EnterRamsch(points=(30, 30, 40), tricks=(3, 3, 4), skat_points=20, last_trick=2, pushes=0, later_trick=1)"]
    assert evening.report[-1]["screen"] == "end"
