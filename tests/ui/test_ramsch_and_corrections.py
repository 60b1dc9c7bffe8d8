"""A club evening's extras through the real table screen, under Xvfb: a Ramsch entered on
the number pad and confirmed like a game (profile "kneipe"), and a list entry corrected with
every player's consent (ISkO 5.5.3) — proposed, withdrawn, proposed again, agreed to by
taps and the panel's ✔, and then shown under its struck-through original."""

from __future__ import annotations

import pytest

from tests.ui.harness import SIZES, run_table
from tests.ui.scenarios import setup_steps
from tests.ui.test_games import THREE

pytestmark = pytest.mark.ui

# Anna deals the Ramsch: Vorhand Bernd, Mittelhand Carla, Hinterhand Anna.
# Bernd 58 points in 6 tricks, Carla 52 in 4 and the last trick (so the skat's 10), Anna none.
RAMSCH_ENTRY = [
    "tap digit_5", "tap digit_8",  # Vorhand's points are chosen first
    "tap ramsch_points_1", "tap digit_5", "tap digit_2",
    "tap ramsch_points_2", "tap digit_0",
    "tap ramsch_skat", "tap digit_1", "tap digit_0",
    "tap ramsch_tricks_0", "tap digit_6",
    "tap ramsch_tricks_1", "tap digit_4",
    "tap ramsch_tricks_2", "tap digit_7", "tap digit_back", "tap digit_0",
    "tap ramsch_pushes", "tap digit_1",
]


@pytest.fixture(scope="module", params=SIZES)
def evening(display: str, request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    steps = setup_steps(THREE, length="length_open", profile="profile_kneipe") + [
        # 1. everybody passes: the kneipe plays Ramsch
        "tap pass", "tap pass", "tap pass",
        "wait_screen ramsch",
        "expect_text \"Spiel 1 · Ramsch: alle haben gepasst\"",
        "screenshot 30-ramsch-entry",
        "tap enter_ramsch",  # greyed: says what is missing, sends nothing
        "expect_text \"Bitte noch eingeben: Augen Bernd\"",
        *RAMSCH_ENTRY,
        "expect_text \"zusammen: 120 von 120 Augen · 10 von 10 Stichen\"",
        "tap enter_ramsch",
        "expect_text \"Bitte noch eingeben: wer den letzten Stich hatte\"",
        "tap ramsch_last_1",
        "screenshot 31-ramsch-filled",
        "tap enter_ramsch",
        "wait_screen result",
        "expect_text \"Ramsch: Carla verliert mit 62 Augen, −248 (Jungfrau: Anna; 1× geschoben)\"",
        "expect_text \"Carla: 62 Augen, 4 Stiche (mit Skat)\"",
        "screenshot 32-ramsch-result",
        "tap confirm_0", "tap confirm_1",
        "wait_screen game",
        "expect_text \"Spiel 1 steht in der Liste\"",
        # 2. Bernd deals: Mittelhand Anna says 18, Vorhand Carla holds and plays Karo mit 1 (typed in)
        "tap bid_18", "tap hold", "tap pass", "tap pass",
        "wait_screen declare",
        "tap take_skat", "tap game_diamonds", "tap declare",
        "wait_screen play",
        "tap result_direct",
        "tap tricks_7", "tap digit_8", "tap digit_0", "tap enter_result",
        "expect_no_text \"mit 12\"",
        "tap matadors_p1",
        "wait_screen result",
        "tap confirm_2", "tap confirm_0",
        "wait_screen game",
        # the list: the Ramsch row with the loser's minus
        "tap list",
        "wait_screen list",
        "expect_text \"Ramsch\"", "expect_text \"−248\"",  # the loser's minus in his column
        "expect_text \"Karo\"", "expect_text \"+18\"",
        "screenshot 33-list-ramsch",
        # 3. a Ramsch is not corrected here: the greyed option says why
        "tap row_1",
        "tap correct_entry",
        "expect_text \"Hier lassen sich nur gespielte Spiele berichtigen\"",
        "tap cancel",
        # 4. "war eingepasst", proposed by Anna and withdrawn
        "tap row_2",
        "screenshot 34-list-row-tapped",
        "tap correct_to_passed_in",
        "tap propose_0",
        "expect_text \"Berichtigung Spiel 2 (Anna)\"",
        "tap withdraw_correction",
        "expect_no_text \"Berichtigung Spiel 2\"",
        # 5. the counts entered again: Carla had 91 in 8 tricks; Bernd proposes, all agree
        "tap row_2",
        "tap correct_entry",
        "expect_text \"Spiel 2 berichtigen: Carla, Karo\"",
        "tap digit_clear", "tap digit_9", "tap digit_1", "tap tricks_8",
        "screenshot 35-correction-entry",
        "tap enter_result",
        "tap matadors_p1",
        "expect_text \"Wer schlägt die Berichtigung vor?\"",
        "screenshot 36-correction-proposer",
        "tap propose_1",
        "expect_text \"Berichtigung Spiel 2 (Bernd)\"",
        "expect_text \"Karo mit 1, Spiel 2, Schneider 3 = 27\"",
        "screenshot 37-correction-consent",
        "tap row_1",  # another correction waits: say so
        "expect_text \"Erst über die offene Berichtigung entscheiden\"",
        "tap consent_0",
        "press confirm",  # the panel's ✔: the dealer of the game now (Carla) agrees
        "expect_no_text \"Berichtigung Spiel 2\"",
        "expect_text \"Karo mit 1, Spiel 2 = 18, gewonnen +18\"",  # struck through, with its old score
        "expect_text \"+27\"",
        "screenshot 38-list-corrected",
    ]
    return run_table(display, steps, size=request.param).check()  # every new screen at both sizes


def test_a_ramsch_is_entered_on_the_pad_and_confirmed_like_a_game(evening) -> None:  # type: ignore[no-untyped-def]
    assert evening.step("tap enter_ramsch")["sent"] == []  # greyed while fields are empty
    assert evening.step("tap enter_ramsch", 2)["sent"] == []
    assert evening.sent("tap enter_ramsch", 3) == [
        "EnterRamsch(points=(58, 52, 0), tricks=(6, 4, 0), skat_points=10, last_trick=1, pushes=1, later_trick=None)"]
    assert evening.step("tap enter_ramsch", 3)["events"] == 1
    # typing sends nothing: only "eintragen" does
    assert all(evening.step(step)["sent"] == [] for step in RAMSCH_ENTRY)
    assert evening.sent("tap confirm_0") == ["Confirm(seat=0)"]
    assert isinstance(evening.step("tap confirm_1")["events"], int) and evening.step("tap confirm_1")["events"] >= 2


def test_a_correction_is_proposed_withdrawn_and_agreed_to_by_every_player(evening) -> None:  # type: ignore[no-untyped-def]
    assert evening.step("tap correct_entry")["sent"] == []
    assert evening.sent("tap propose_0") == [
        "ProposeCorrection(entry=2, record=None, declarer_seat=None, by_seat=0)"]
    assert evening.sent("tap withdraw_correction") == ["WithdrawCorrection()"]
    proposed = evening.sent("tap propose_1")
    assert proposed == [
        "ProposeCorrection(entry=2, record={'v': 1, 'game': 'diamonds', 'hand': False, 'ouvert': False, "
        "'announced': None, 'bid': 18, 'declarer_tricks': 8, 'declarer_points': 91, 'matadors': 1}, "
        "declarer_seat=2, by_seat=1)"]
    assert evening.step("tap row_1", 2)["sent"] == []
    assert evening.sent("tap consent_0") == ["ConsentCorrection(seat=0)"]
    press = evening.step("press confirm")
    assert press["sent"] == [{"source": "panel", "command": "ButtonPressed(button=<Button.CONFIRM: 'confirm'>, "
                                                            "source='panel')"}]
    assert press["events"] == 2 and press["refusals"] == []  # Carla's consent, and the correction applied
    assert evening.report[-1]["screen"] == "list"
