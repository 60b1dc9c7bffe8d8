"""A whole Tournée-Skat evening (rules/001, "Tournee-Skat") through the real table window, under
Xvfb: the setup offers "Tournee-Skat"; Carla turns the top skat card up (Kreuz 7, scanned) and
plays Kreuz Tournee from scanned cards (another suit refused: the turned card decides); Anna
turns the second card, a jack, and plays Grand Tournee with the second card, lost double; Bernd
plays Herz Solo without the skat; all pass: the Ramsch; Anna's Guckser; the list, a correction
(Bernd's Solo lost: single), the end of the series and the settlement.
Screenshots: tests/artifacts/screens/<size>/tournee-*.png."""

from __future__ import annotations

import pytest

from tests.ui.harness import SIZES, run_table
from tests.ui.scenarios import cards_steps, play_order, setup_steps
from tests.ui.test_games import SUIT_H, SUIT_M, SUIT_V, THREE
from tests.ui.test_texas_evening import RAMSCH_ENTRY

pytestmark = pytest.mark.ui

# Anna deals: Vorhand Bernd, Mittelhand Carla, Hinterhand Anna; the skat C7 S7: Carla turns C7 up.
CLUBS_ORDER = play_order("clubs", [SUIT_V, SUIT_M, SUIT_H])


def direct(tricks: int, points: int, matadors: str = "") -> list[str]:
    """The result typed in: the declarer's tricks and Augen, then his matadors."""
    return (["tap result_direct", f"tap tricks_{tricks}", *[f"tap digit_{d}" for d in str(points)], "tap enter_result"]
            + ([f"tap matadors_{matadors}"] if matadors else []) + ["wait_screen result"])


def tournee_steps(size: str) -> list[str]:
    return setup_steps(THREE, length="length_open", profile="profile_tournee", stake="stake_1",
                       shots=f"tournee-01-{size}") + [
        # 1. Carla bids 18, turns the top skat card up (Kreuz 7): Kreuz Tournee from scanned cards
        "expect_text \"Mittelhand (Carla) sagt\"",
        "expect_text \"10\"",  # Karo Tournee mit 1: Tournée's lowest bid
        f"screenshot tournee-02-bid-values-{size}",
        "tap bid_18", "tap pass", "tap pass",
        "wait_screen declare",
        "expect_text \"Tournee (Skatkarte aufdecken), ohne Skat oder Guckser\"",
        f"screenshot tournee-03-declare-choice-{size}",
        "tap choose_tournee",
        "expect_text \"Skatkarte aufdecken: scannen\"",
        "scan C7",
        "expect_text \"Kreuz 7 aufgedeckt\"",
        f"screenshot tournee-04-turned-{size}",
        "tap choose_skat", "card C7", "card S7", "tap picker_done",
        "tap game_spades",
        "expect_text \"Kreuz 7 aufgedeckt: diese Karte bestimmt den Trumpf\"",
        "tap game_clubs",
        "expect_text \"Kreuz Tournee\"",
        f"screenshot tournee-05-declare-tournee-{size}",
        "tap declare",
        "wait_screen play",
        *cards_steps(CLUBS_ORDER, via="scan"),
        "wait_screen result",
        "expect_text \"Carla: Kreuz Tournee mit 11, Spiel 12, Schneider 13, Schwarz 14 = 112, gewonnen +112\"",
        f"screenshot tournee-06-result-tournee-{size}",
        "tap confirm_1", "tap confirm_2",
        "wait_screen game",
        # 2. Anna takes the first card up unseen and turns the second, Pik Bube: Grand Tournee
        # with the second card, lost: doubled
        "tap bid_18", "tap pass", "tap pass",
        "wait_screen declare",
        "tap choose_tournee", "scan D7",
        "expect_text \"Karo 7 aufgedeckt\"",
        "scan SJ",
        "expect_text \"Pik Bube als zweite Karte aufgedeckt\"",
        f"screenshot tournee-07-second-card-{size}",
        "tap choose_skat", "tap game_grand",
        "expect_text \"Grand Tournee (zweite Karte)\"",
        "tap declare",
        "wait_screen play",
        *direct(5, 50, "p1"),
        "expect_text \"Anna: Grand Tournee (zweite Karte) mit 1, Spiel 2 = 24, verloren -48\"",
        f"screenshot tournee-08-result-second-card-{size}",
        "tap confirm_0", "tap confirm_1",
        "wait_screen game",
        # 3. Bernd plays Herz Solo without the skat
        "tap bid_18", "tap pass", "tap pass",
        "wait_screen declare",
        "tap choose_hand",
        "expect_text \"Bernd spielt ohne Skat: ein Solo, Null, Null ouvert oder Grand ouvert ansagen\"",
        "tap game_hearts",
        "expect_text \"Herz Solo\"",
        f"screenshot tournee-09-declare-solo-{size}",
        "tap declare",
        "wait_screen play",
        *direct(7, 80, "p1"),
        "expect_text \"Bernd: Herz Solo mit 1, Spiel 2 = 20, gewonnen +20\"",
        "tap confirm_1", "tap confirm_0",
        "wait_screen game",
        # 4. all pass: the Ramsch (Anna without a trick wins 20)
        "tap pass", "tap pass", "tap pass",
        "wait_screen ramsch",
        *RAMSCH_ENTRY,
        "tap enter_ramsch",
        "wait_screen result",
        "expect_text \"Ramsch: Anna gewinnt mit 0 Augen ohne Stich, +20\"",
        "tap confirm_0", "tap confirm_1",
        "wait_screen game",
        # 5. Anna's Guckser: Grand after taking up the skat, 16
        "tap bid_18", "tap pass", "tap pass",
        "wait_screen declare",
        "tap choose_skat", "tap game_grand",
        "expect_text \"Guckser\"",
        f"screenshot tournee-10-declare-guckser-{size}",
        "tap declare",
        "wait_screen play",
        *direct(7, 85, "p2"),
        "expect_text \"Anna: Guckser mit 2, Spiel 3 = 48, gewonnen +48\"",
        "tap confirm_0", "tap confirm_1",
        "wait_screen game",
        # the list
        "tap list",
        "wait_screen list",
        "expect_text \"+112\"", "expect_text \"−48\"", "expect_text \"+20\"", "expect_text \"Ramsch\"",
        "expect_text \"+48\"",
        f"screenshot tournee-11-list-{size}",
        # a correction: Bernd's Solo had 50 Augen in 4 tricks: lost, single (a Solo is never doubled)
        "tap row_3",
        "tap correct_entry",
        "expect_text \"Spiel 3 berichtigen: Bernd, Herz Solo\"",
        "tap digit_clear", "tap digit_5", "tap digit_0", "tap tricks_4",
        "tap enter_result",
        "tap matadors_p1",
        "tap propose_0",
        "expect_text \"Berichtigung Spiel 3 (Anna)\"",
        f"screenshot tournee-12-correction-{size}",
        "tap consent_1", "tap consent_2",
        "expect_no_text \"Berichtigung Spiel 3\"",
        "expect_text \"−20\"",
        "tap end_series",
        "tap end_series_yes",
        "wait_screen end",
        # game points 112 / 20 / −20 settled at 1 ct
        "expect_text \"Bernd zahlt Carla 1,72 €\"", "expect_text \"Anna zahlt Carla 0,52 €\"",
        f"screenshot tournee-13-end-of-series-{size}",
        "tap confirm_list_0", "tap confirm_list_1", "tap confirm_list_2",
        "expect_text \"Die Liste ist abgeschlossen\"",
        f"screenshot tournee-14-end-closed-{size}",
    ]


@pytest.fixture(scope="module", params=SIZES)
def evening(display: str, request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    return run_table(display, tournee_steps(request.param), size=request.param).check()


def test_a_tournee_evening_turns_the_skat_card_and_plays_solo_and_guckser(evening) -> None:  # type: ignore[no-untyped-def]
    assert evening.sent("scan C7") == ["CardScanned(card=Card.parse('C7'), raw='C7', source='reader')"]
    assert evening.step("scan C7")["events"] == 1 and not evening.step("scan C7")["refusals"]  # the card turned up
    assert evening.sent("scan SJ") == ["CardScanned(card=Card.parse('SJ'), raw='SJ', source='reader')"]
    assert evening.sent("tap declare") == [
        "Declare(game=<GameType.CLUBS: 'clubs'>, hand=False, ouvert=False, announced=<Level.SIMPLE: 0>)"]
    assert evening.sent("tap bid_18") == ["Bid(position=1, value=18)"]
    assert evening.report[-1]["screen"] == "end"


def test_the_card_picker_turns_the_skat_cards_up_and_closes(display: str) -> None:
    """``--simulate``: the picker opened to turn a skat card up says so (not "the two discarded
    cards"), and closes once the card is turned up: the first, then the second."""
    run = run_table(display, setup_steps(THREE, length="length_open", profile="profile_tournee") + [
        "tap bid_18", "tap pass", "tap pass", "wait_screen declare",
        "tap choose_tournee", "tap turn_pick",
        'expect_text "Die Skatkarte wählen, die aufgedeckt wird"',
        "screenshot tournee-picker-turn-first",
        "card D7",
        'expect_text "Karo 7 aufgedeckt"',
        "tap turn_second",
        'expect_text "Die zweite Skatkarte wählen, die aufgedeckt wird"',
        'expect_no_text "Die zwei gedrückten Karten wählen"',
        "screenshot tournee-picker-turn-second",
        "card SJ",
        'expect_text "Pik Bube als zweite Karte aufgedeckt"',
        "screenshot tournee-picker-second-turned",
        "tap choose_skat",
        "tap game_grand",
        'expect_text "Grand Tournee (zweite Karte)"',
        "tap declare",
        "wait_screen play",
    ]).check()
    assert run.step("card D7")["screen"] == run.step("card SJ")["screen"] == "declare"
    assert not run.step("card SJ")["refusals"] and run.step("card SJ")["events"] == 1
    assert not run.step("tap choose_skat")["refusals"]
