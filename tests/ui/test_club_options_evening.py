"""The club profile's options (rules/001: "Spitze", "Spiel um einen Pot") through the real
table window, under Xvfb: the setup's Kneipe tapped again opens its options (Spitze, Pot);
Carla announces a Spitze and plays a Grand from scanned cards, the last trick with the Karo-Bube
(192); Anna's Herz typed in with a Spitze of three is asked and not made (lost −100, she pays
into the pot); Bernd loses a Grand Hand and doubles the pot; Carla's Karo at 18 is given
automatically (the option auto_gift); the list shows the pot; the end of the series pays it out
with the game points.
Screenshots: tests/artifacts/screens/<size>/options-*.png."""

from __future__ import annotations

import pytest

from tests.ui.harness import SIZES, run_table
from tests.ui.scenarios import cards_steps
from tests.ui.test_games import THREE
from tests.unit.table.test_spitze_table import TRICKS

pytestmark = pytest.mark.ui


def setup(size: str) -> list[str]:
    steps = ["wait_screen setup", "tap remove_player"]
    for index, name in enumerate(THREE):
        steps += [f"tap name_{index}", f'type "{name}"']
    return steps + [
        "tap setup_next", "tap length_open",
        "tap choose_profile", "tap profile_kneipe",  # the setup's popup of rule profiles
        "expect_text \"nochmals antippen\"",
        "tap choose_profile", "tap profile_kneipe",
        "tap option_auto_gift", "tap option_spitze", "tap option_pot",
        "expect_text \"✔ Spitze (auch mehrere)\"", "expect_text \"✔ Pot (Pinke)\"",
        f"screenshot options-01-club-options-{size}",
        "tap options_done",
        "tap stake_1",
        "tap setup_next", "wait_screen game",
    ]


def options_steps(size: str) -> list[str]:
    return setup(size) + [
        # 1. Anna deals: Carla (Mittelhand) plays Grand with a Spitze, every card scanned
        "tap bid_18", "tap pass", "tap pass",
        "wait_screen declare", "tap take_skat", "card C7", "card S7", "tap picker_done",
        "tap game_grand", "tap declare", "wait_screen play",
        "tap spitze",
        "expect_text \"1: Karo Bube\"",
        f"screenshot options-02-spitze-count-{size}",
        "tap spitze_1",
        "expect_text \"gereizt 18 · Spitze\"",
        f"screenshot options-03-spitze-announced-{size}",
        *cards_steps(" ".join(TRICKS).split(), via="scan"),
        "wait_screen result",
        "expect_text \"Carla: Grand mit 4, Spiel 5, Schneider 6, Schwarz 7, Spitze 8 = 192, gewonnen +192\"",
        f"screenshot options-04-result-spitze-{size}",
        "tap confirm_2", "tap confirm_0",
        "wait_screen game",
        # 2. Bernd deals: Anna (Mittelhand) plays Herz with a Spitze of three, typed in: not made
        "tap bid_18", "tap pass", "tap pass",
        "wait_screen declare", "tap take_skat", "card C7", "card S7", "tap picker_done",
        "tap game_hearts", "tap declare", "wait_screen play",
        "tap spitze", "tap spitze_3",
        "expect_text \"Spitze 3\"",
        "tap result_direct", "tap tricks_6", "tap digit_7", "tap digit_0", "tap enter_result", "tap matadors_p1",
        "wait_screen result",
        "expect_text \"Spitze nicht gemacht\"", "expect_text \"Spitze gemacht? (den letzten Stich mit dem niedrigsten Trumpf)\"",
        f"screenshot options-05-spitze-asked-{size}",
        "tap spitze_made_no",
        "expect_text \"Anna: Herz mit 1, Spiel 2, Spitze 3, Spitze 4, Spitze 5 = 50, verloren -100\"",
        "tap confirm_0", "tap confirm_2",
        "wait_screen game",
        # 3. Carla deals: Bernd (Mittelhand) loses a Grand Hand: he doubles the pot
        "tap bid_18", "tap pass", "tap pass",
        "wait_screen declare", "tap choose_hand", "tap game_grand", "tap declare", "wait_screen play",
        "tap result_direct", "tap tricks_4", "tap digit_5", "tap digit_0", "tap enter_result", "tap matadors_p1",
        "wait_screen result",
        "tap confirm_1", "tap confirm_0",
        "wait_screen game",
        # 4. Anna deals: Carla plays Karo at 18: given without asking (nobody says Kontra)
        "tap bid_18", "tap pass", "tap pass",
        "wait_screen declare", "tap take_skat", "card C7", "card S7", "tap picker_done",
        "tap game_diamonds", "tap declare", "wait_screen play",
        f"screenshot options-054-play-buttons-{size}",
        "tap gift",
        "expect_text \"Geschenkt (automatisch)\"",
        f"screenshot options-055-automatic-gift-{size}",
        "tap automatic_gift",
        "wait_screen result", "tap matadors_p1",
        "expect_text \"Carla: Karo mit 1, Spiel 2 = 18, geschenkt, gewonnen +18\"",
        "tap confirm_2", "tap confirm_0",
        "wait_screen game",
        "tap list", "wait_screen list",
        "expect_text \"Pot (drin: 80)\"", "expect_text \"Grand Sp\"", "expect_text \"Herz Sp3\"",
        f"screenshot options-06-list-pot-{size}",
        "tap row_3",
        "expect_text \"Pot: Bernd verdoppelt den Pot: 80\"",
        f"screenshot options-07-row-pot-{size}",
        "tap cancel",
        "tap end_series", "tap end_series_yes",
        "wait_screen end",
        "expect_text \"Pot (80 zurück in gleichen Teilen): Anna +7, Bernd −23, Carla +16\"",
        "expect_text \"Bernd zahlt Carla 4,21\"", "expect_text \"Anna zahlt Carla 2,59\"",
        f"screenshot options-08-end-pot-paid-out-{size}",
    ]


@pytest.fixture(scope="module", params=SIZES)
def evening(display: str, request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    return run_table(display, options_steps(request.param), size=request.param).check()


def test_the_options_spitze_and_the_pot_through_the_window(evening) -> None:  # type: ignore[no-untyped-def]
    assert evening.sent("tap options_done") == []  # the options are the setup's, sent with the list
    assert evening.sent("tap setup_next", 2)[0].startswith("OpenList(")
    assert "profile='kneipe+auto_gift+spitze+pot'" in evening.sent("tap setup_next", 2)[0]
    assert evening.sent("tap automatic_gift") == ["AutomaticGift()"]
    assert evening.sent("tap spitze_1") == ["AnnounceSpitze(count=1)"]
    assert evening.sent("tap spitze_made_no") == ["EnterSpitzeMade(made=False)"]
    assert evening.report[-1]["screen"] == "end"
