"""Every screen at 1280×720, the settings behind the club PIN, greyed-out options that say
why, the physical buttons, English — through the real UI under Xvfb."""

from __future__ import annotations

import pytest

import re

from device.pin import hash_pin
from drivers.deck import TEACH_ORDER
from tests.e2e.test_version import pyproject_version
from tests.ui.harness import ROOT, run_table
from tests.ui.scenarios import cards_steps, play_order, setup_steps
from tests.ui.test_games import GRAND_H, GRAND_M, GRAND_V, THREE

pytestmark = pytest.mark.ui


def test_every_screen_at_1280x720(display: str) -> None:
    order = play_order("grand", [GRAND_V, GRAND_M, GRAND_H])
    steps = setup_steps(THREE, length="length_open", stake="stake_1_2", shots="01") + [
        "screenshot 03-game-bidding",
        "tap bid_18",
        "screenshot 04-game-answer",
        "tap hold", "tap pass", "tap pass",
        "wait_screen declare",
        "screenshot 05-declare",
        "tap choose_hand",
        "tap game_grand",
        "screenshot 06-declare-chosen",
        "tap declare",
        "wait_screen play",
        "screenshot 07-play-start",
        *cards_steps(order[:4]),
        "screenshot 08-play-picker",
        "tap picker_done",
        "screenshot 09-play-trick",
        "tap shorten",
        "screenshot 25-play-shorten",
        "tap end_defenders_gave_up",
        "wait_screen result",
        "screenshot 10-result",
        "tap confirm_1",
        "tap panel_confirm",  # the panel's ✔ on the status bar: the dealer (Anna) confirms
        "wait_screen game",
        "tap list",
        "screenshot 12-list",
        "tap close_list",
        "tap settings",
        "wait_screen settings",
        f'expect_text "Skattisch {pyproject_version()}"',  # the version it runs, in the bottom bar
        "screenshot 16-settings",
        "tap close_settings",
        "tap list",
        "tap end_series", "tap end_series_yes",
        "wait_screen end",
        "screenshot 14-end-of-series",
    ]
    run = run_table(display, steps, size="1280x720").check()
    assert run.report[-1]["screen"] == "end"
    assert run.sent("tap panel_confirm") == ["ButtonPressed(button=<Button.CONFIRM: 'confirm'>, source='panel')"]


CONFIG = """
[table]
number = 3
club_pin_hash = "{pin_hash}"

[store]
path = "{tmp}/lists"
"""


@pytest.fixture(scope="module")
def settings_run(display: str):  # type: ignore[no-untyped-def]
    steps = setup_steps(THREE, length="length_open") + [
        "expect_text \"Tisch 3\"",
        # greyed out: nothing is sent, the banner says why
        "tap undo",
        "expect_text \"Es gibt nichts zurückzunehmen\"",
        "tap bid_18", "tap hold", "tap pass", "tap pass",
        "wait_screen declare",
        "tap game_clubs",  # Hand or mit Skat comes first
        "expect_text \"Erst wählen: Hand oder mit Skat\"",
        "tap declare",
        "expect_text \"Erst wählen: Hand oder mit Skat\"",
        "tap take_skat",
        "tap game_spades",
        "tap word_hand",
        "expect_text \"Nach der Skataufnahme kein Handspiel\"",
        "screenshot 17-declare-greyed-says-why",
        "tap take_skat",
        "expect_text \"Der Skat ist schon aufgenommen\"",
        # the panel's back button takes back the last step (the skat)
        "press back",
        "expect_text \"Skat aufnehmen oder Hand ansagen\"",
        # the settings, behind the club PIN
        "tap list", "wait_screen list", "tap close_list",
        "wait_screen declare",
        "tap undo", "tap undo", "tap undo",
        "wait_screen game",
        "tap settings",
        "tap digit_1", "tap digit_2", "tap pin_ok",
        "expect_text \"Falsche PIN\"",
        "expect_screen game",
        "tap settings",
        "tap digit_2", "tap digit_4", "tap digit_6", "tap digit_8",
        "screenshot 18-settings-pin",
        "tap pin_ok",
        "wait_screen settings",
        f'expect_text "Skattisch {pyproject_version()}"',
        "expect_shown version",
        "screenshot 16-settings",
        "tap table_plus",
        "expect_text \"Tisch 4\"",
        "tap gpio_test",
        "press confirm",
        "expect_text \"Taste ✔ Bestätigen gedrückt\"",
        "screenshot 19-settings-gpio-test",
        "tap gpio_done",
        # deck teach-in: the cards in the order shown, as the reader reads them
        "tap deck_teach",
        "expect_text \"Bitte Kreuz Bube auflegen (1/32)\"",
        *[f"scan {card.code}" for card in TEACH_ORDER[:2]],
        "expect_text \"Bitte Herz Bube auflegen (3/32)\"",
        "screenshot 29-settings-teach-in",
        *[f"scan {card.code}" for card in TEACH_ORDER[2:]],
        "expect_text \"Kartensatz gespeichert\"",
        "tap teach_done",
        "tap lang_en",
        "expect_text \"Table 4\"",
        "screenshot 16-settings-english",
        "tap close_settings",
        "wait_screen game",
        "expect_text \"pass\"",
        "expect_text \"Mittelhand (Carla) says 18 — Vorhand (Bernd): yes / pass\"",
        "screenshot 27-game-english",
        # in English the table service's own words are English too
        "tap hold", "tap pass", "tap pass",
        "wait_screen declare",
        "expect_text \"Bernd plays (18): take the skat or declare Hand\"",
        "tap take_skat",
        "tap game_spades",
        "tap word_hand",
        "expect_text \"no hand game after taking up the skat (ISkO 3.4.4)\"",
        "screenshot 30-declare-greyed-english",
        "tap declare",
        "wait_screen play",
        "expect_text \"Bernd plays Spades, bid 18\"",
        "scan SA",
        "scan SA",  # the table refuses it: a refusal in the service's English
        "expect_text \"SA already played by Vorhand in trick 1\"",
        "expect_no_text \"schon gespielt\"",
        "screenshot 31-play-refusal-english",
        "tap undo",
        "tap result_direct",
        "tap tricks_7", "tap digit_8", "tap digit_0", "tap enter_result",
        "tap matadors_p1",
        "wait_screen result",
        "expect_text \"Bernd: Spades with 1, game 2 = 22, won +22\"",
        "expect_text \"Still to confirm: the declarer (Bernd) and a defender\"",
        "screenshot 32-result-english",
        "tap confirm_0", "tap confirm_1",
        "wait_screen game",
        "tap list",
        "wait_screen list",
        "expect_text \"Game 2\"", "expect_text \"Tap an entry\"",
        "expect_text \"Spades\"", "expect_text \"w1\"",
        "expect_no_text \"Pik\"",
        "expect_text \"+22\"",
        "screenshot 33-list-english",
        "tap close_list",
        "wait_screen game",
    ]
    return run_table(display, steps, config=CONFIG.replace("{pin_hash}", hash_pin("2468"))).check()


def test_greyed_out_options_say_why_and_send_nothing(settings_run) -> None:  # type: ignore[no-untyped-def]
    for step in ("tap undo", "tap game_clubs", "tap declare", "tap word_hand"):
        assert settings_run.step(step)["sent"] == [], step
    assert settings_run.step("tap take_skat", 2)["sent"] == []
    assert settings_run.sent("tap take_skat") == ["TakeSkat()"]


def test_the_panel_buttons_reach_the_table(settings_run) -> None:  # type: ignore[no-untyped-def]
    back = settings_run.step("press back")
    assert back["sent"] == [{"source": "panel", "command": "ButtonPressed(button=<Button.BACK: 'back'>, "
                                                           "source='panel')"}]
    assert back["events"] == 1
    # during the button test the panel's buttons are shown, not acted on
    assert settings_run.step("press confirm")["events"] == 0


def test_the_settings_open_with_the_club_pin_only(settings_run) -> None:  # type: ignore[no-untyped-def]
    assert settings_run.step("expect_screen game")["ok"]
    assert settings_run.step("wait_screen settings")["ok"]
    assert settings_run.step("tap pin_ok", 2)["screen"] == "settings"


def test_english_is_selectable(settings_run) -> None:  # type: ignore[no-untyped-def]
    assert settings_run.step("expect_text \"Table 4\"")["ok"]
    assert settings_run.report[-1]["ok"]


def test_in_english_the_table_s_own_words_are_english(settings_run) -> None:  # type: ignore[no-untyped-def]
    """The result, the list's row, a greyed option's reason and a refusal come from the table
    service: in English they are its English texts (screenshots 30 to 33)."""
    for text in ("no hand game after taking up the skat (ISkO 3.4.4)", "Bernd: Spades with 1, game 2 = 22, won +22",
                 "Spades", "w1", "SA already played by Vorhand in trick 1"):
        assert settings_run.step(f"expect_text \"{text}\"")["ok"], text
    played, refused = settings_run.step("scan SA", 2), settings_run.step("scan SA", 3)  # the first: the teach-in
    assert played["refusals"] == [] and played["events"] == 1
    assert refused["refusals"] == ["card_seen"] and refused["events"] == 0
    assert settings_run.step("expect_no_text \"schon gespielt\"")["ok"]
    assert settings_run.step("expect_no_text \"Pik\"")["ok"]
    assert settings_run.sent("tap matadors_p1") == ["EnterResult(declarer_tricks=7, declarer_points=80, matadors=1)"]
    shots = ROOT / "tests" / "artifacts" / "screens" / "800x480"
    for name in ("30-declare-greyed-english", "31-play-refusal-english", "32-result-english", "33-list-english"):
        assert (shots / f"{name}.png").stat().st_size > 0, name


def test_the_documented_script_runs(display: str) -> None:
    doc = (ROOT / "docs" / "reference" / "table-screen.md").read_text(encoding="utf-8")
    example = re.search(r"run this example\):\n\n```\n(.*?)```", doc, re.DOTALL)
    assert example, "docs/reference/table-screen.md lost its example script"
    run = run_table(display, example.group(1).splitlines()).check()
    assert run.sent("tap game_grand") == []
    assert run.sent("scan SA") == ["CardScanned(card=Card.parse('SA'), raw='SA', source='reader')"]
    assert run.report[-1]["step"] == "screenshot grand-hand"


def test_the_deck_teach_in_takes_the_reader_s_cards_and_sends_none_to_the_table(settings_run) -> None:  # type: ignore[no-untyped-def]
    steps = [str(line["step"]) for line in settings_run.report]
    teach_in = settings_run.report[steps.index("tap deck_teach"):steps.index("tap teach_done")]
    scans = [line for line in teach_in if str(line["step"]).startswith("scan ")]
    assert len(scans) == 32 and all(line["sent"] == [] and line["events"] == 0 for line in scans)
    assert settings_run.step("expect_text \"Kartensatz gespeichert\"")["ok"]
