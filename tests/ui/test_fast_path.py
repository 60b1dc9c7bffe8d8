"""The fast path for the common game (and the position tiles).

"Kreuz, mit 2, gewonnen, 75 Augen", counted through the runner's ``--report``:
- from the end of play (the play screen after "ansagen") to the list: "Ergebnis direkt", 7, 5,
  "weiter", "mit 2", and the two confirmations — 7 taps (before: 8, with the tricks);
- the bidding's outcome entered directly by tapping the declarer's position tile and the value
  ("Carla spielt, gereizt bis 20"): 2 taps instead of 3 to 5; from the start of the deal to
  the list 12 taps (before: 14–16).
"""

from __future__ import annotations

import pytest

from tests.ui.harness import Run, run_table
from tests.ui.scenarios import setup_steps

pytestmark = pytest.mark.ui

FOUR = ("Anna", "Bernd", "Carla", "Dieter")  # Anna deals and sits out: Vorhand Bernd, Mittelhand Carla
THREE = ("Anna", "Bernd", "Carla")


def taps_between(run: Run, first: str, last: str) -> list[str]:
    """The touches (taps and panel presses) from step ``first`` to step ``last``, both included."""
    steps = [str(line["step"]) for line in run.report]
    start, end = steps.index(first), steps.index(last)
    return [s for s in steps[start:end + 1] if s.startswith(("tap ", "tap_text ", "press ", "card "))]


@pytest.mark.parametrize("size", ["800x480", "1280x720"])
def test_kreuz_mit_2_75_augen_from_the_end_of_play_to_the_list_in_at_most_8_taps(display: str, size: str) -> None:
    steps = setup_steps(FOUR, length="length_open") + [
        "expect_text \"Alleinspieler antippen\"",
        f"screenshot 60-game-settle-hint-{size}",
        "tap position_1",  # Mittelhand: Carla plays …
        "expect_text \"Carla spielt, gereizt bis\"",
        f"screenshot 61-settle-popup-{size}",
        "tap settle_20",  # … gereizt bis 20
        "wait_screen declare", "expect_text \"20\"",
        "tap choose_skat", "tap game_clubs", "tap declare",
        "wait_screen play",  # the end of play: counted from here
        "tap result_direct", "tap digit_7", "tap digit_5",
        f"screenshot 62-result-entry-no-tricks-{size}",
        "tap enter_result", "tap matadors_p2",
        "wait_screen result", "expect_text \"Carla: 75 Augen\"",
        f"screenshot 63-result-75-augen-{size}",
        "tap confirm_2", "tap confirm_1",  # Carla (declarer) and Bernd
        "expect_text \"Spiel 1\"",
        "tap list", "wait_screen list", "expect_text \"+36\"",
        f"screenshot 64-list-fast-path-{size}",
    ]
    run = run_table(display, steps, size=size).check()
    assert run.sent("tap settle_20") == ["EnterBidding(position=1, value=20)"]
    assert run.sent("tap matadors_p2") == ["EnterResult(declarer_tricks=None, declarer_points=75, matadors=2)"]
    assert run.step("tap confirm_1")["events"] and not run.step("tap confirm_1")["refusals"]
    from_end_of_play = taps_between(run, "tap result_direct", "tap confirm_1")
    assert len(from_end_of_play) == 7, from_end_of_play
    from_deal_start = taps_between(run, "tap position_1", "tap confirm_1")
    assert len(from_deal_start) == 12, from_deal_start


def test_all_tricks_asked_only_at_120_augen_and_null_is_won_or_lost(display: str) -> None:
    steps = setup_steps(THREE, length="length_open") + [
        # game 1, Anna deals: Vorhand Bernd plays Kreuz, 120 Augen, all tricks (Schwarz)
        "tap position_0", "tap settle_18", "wait_screen declare",
        "tap choose_skat", "tap game_clubs", "tap declare", "wait_screen play",
        "tap result_direct", "tap digit_1", "tap digit_2", "tap digit_0", "tap enter_result",
        "expect_text \"Alle Stiche?\"", "screenshot 65-all-tricks-question",
        "tap all_tricks_yes", "tap matadors_p2",
        "wait_screen result", "expect_text \"10 Stiche\"", "tap confirm_1", "tap confirm_2",
        # game 2, Bernd deals: Vorhand Carla plays Null, lost
        "wait_screen game", "tap position_0", "tap settle_23", "wait_screen declare",
        "tap choose_skat", "tap game_null", "tap declare", "wait_screen play",
        "tap result_direct", "screenshot 66-null-won-or-lost", "tap entry_null_lost",
        "wait_screen result", "expect_text \"verloren\"", "tap confirm_2", "tap confirm_0",
        "tap list", "wait_screen list", "expect_text \"−46\"",
    ]
    run = run_table(display, steps).check()
    assert run.sent("tap matadors_p2") == ["EnterResult(declarer_tricks=10, declarer_points=120, matadors=2)"]
    assert run.sent("tap entry_null_lost") == ["EnterResult(declarer_tricks=None, declarer_points=None, matadors=None)"]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_refused_result_says_why_in_the_screen_s_language_and_keeps_the_entry(display: str, lang: str) -> None:
    """Item 10: "Augen passen nicht (declarer_points: 75 points cannot be in 0 tricks …)" is
    gone: plain German (English in English), and the 75 stays typed."""
    shown = ("75 Augen passen nicht in 0 Stiche und den Skat" if lang == "de"
             else "75 points cannot be in 0 tricks and the skat")
    steps = setup_steps(THREE, length="length_open") + [
        "tap position_0", "tap settle_18", "wait_screen declare",
        "tap choose_skat", "tap game_clubs", "tap declare", "wait_screen play",
        "tap result_direct", "tap tricks_0", "tap digit_7", "tap digit_5", "tap enter_result", "tap matadors_p1",
        f"expect_text \"{shown}\"", "expect_no_text \"declarer_points\"", "expect_shown tricks_0",
        "expect_text \"75\"", f"screenshot 67-refused-plain-words-{lang}",
    ]
    run_table(display, steps, lang=None if lang == "de" else "en").check()


@pytest.mark.parametrize("size", ["800x480", "1280x720"])
def test_names_are_typed_on_the_table_s_own_big_keyboard(display: str, size: str) -> None:
    """Item 9's keyboard: German keys with Ä Ö Ü ß, Shift (on by itself for a name's first
    letter and after a hyphen), ⌫, space, OK; the name being typed shown large on top."""
    steps = ["wait_screen setup", "tap remove_player", "tap name_0",
             "expect_shown key_ü", "expect_shown key_ß", "expect_shown key_shift", "expect_shown key_ok",
             *[f"tap key_{c}" for c in "jürgen"], "tap key_minus", *[f"tap key_{c}" for c in "hans"],
             "expect_text \"Platz 1:  Jürgen-Hans\"",
             "tap key_back", "tap key_back", "tap key_back", "tap key_back", "tap key_back", "tap key_space",
             *[f"tap key_{c}" for c in "ösß"],  # capitalised by itself after the space
             "expect_text \"Jürgen Ösß\"", f"screenshot 68-keyboard-{size}",
             "tap key_ok", "expect_no_text \"Leerzeichen\"",
             "tap name_1", *[f"tap key_{c}" for c in "bernd"], "tap key_ok",
             "tap name_2", "tap key_m", "tap key_c", "tap key_shift", *[f"tap key_{c}" for c in "cain"], "tap key_ok",
             f"screenshot 69-setup-after-keyboard-{size}",
             "tap setup_next", "tap length_open", "tap setup_next", "wait_screen game"]
    run = run_table(display, steps, size=size, args=["--keyboard", "screen"]).check()
    opened = run.sent("tap setup_next", 2)
    assert opened and "players=('Jürgen Ösß', 'Bernd', 'McCain')" in opened[0], opened
