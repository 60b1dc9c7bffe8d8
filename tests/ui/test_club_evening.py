"""A real club evening at three, four and five players, at 800×480 and 1280×720:
every transfer of the settlement on screen beside the game points it comes from, Hand or mit
Skat as the declaration's first choice, the result's counts, corrections that must change
something, the list like the paper list, the fast path's taps, the words a player reads.

Games are entered the quick way (Vorhand plays, the result entered directly), so a whole
round runs in a few seconds; what is checked is what a player can read on the screen:
``expect_text`` sees only text that is drawn (a line cut off at the bottom of its box, or a
name shortened to "Ha…re", does not count as shown).
"""

from __future__ import annotations

import pytest

from device.pin import hash_pin
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
def test_at_five_players_the_end_screen_shows_every_transfer_and_unique_short_names(display: str, size: str) -> None:
    steps = evening(FIVE, 5) + [
        "expect_text \"Wolfgang zahlt Hannelore 2,53 €\"", "expect_text \"Ingrid zahlt Hannelore 0,54 €\"",
        "expect_text \"Ingrid zahlt Karl-Heinz 1,12 €\"", "expect_text \"Ingrid zahlt Hans-Joachim 0,67 €\"",
        # unique short names on the 7" panel, whole names up to nine letters on the larger display
        f"expect_text \"✔ {'Hannelore' if size == '1280x720' else 'Hannel.'}\"",
        "expect_text \"✔ Hans-J.\"", "expect_text \"✔ Karl-H.\"",
        f"screenshot 41-end-five-{size}",
    ]
    run_table(display, steps, size=size).check()


def test_hand_or_with_the_skat_is_the_first_choice_never_a_default(display: str) -> None:
    """Item 3: no game before "Hand" or "mit Skat" was tapped; both big, side by side."""
    steps = setup_steps(FIVE, length="length_open") + [
        "tap bid_18", "tap hold", "tap pass", "tap pass",
        "wait_screen declare",
        "expect_text \"Hand oder mit Skat?\"",
        "screenshot 42-declare-hand-or-skat",
        "tap game_clubs",  # greyed until the choice is made: says why, sends nothing
        "expect_text \"Erst wählen: Hand oder mit Skat\"",
        "tap declare",
        "expect_text \"Erst wählen: Hand oder mit Skat\"",
        "tap choose_hand",
        "tap game_clubs",
        "expect_text \"Kreuz Hand\"",
        "screenshot 43-declare-hand-chosen",
        "tap undo", "wait_screen game",  # back to the last "passe", and again: this time with the skat
        "tap pass",
        "wait_screen declare",
        "expect_text \"Hand oder mit Skat?\"",
        "tap choose_skat",
        "tap game_clubs",
        "expect_no_text \"Kreuz Hand\"",
        "tap declare",
        "wait_screen play",
    ]
    run = run_table(display, steps, size="1280x720").check()
    assert run.sent("tap game_clubs") == [] and run.sent("tap declare") == []
    assert run.sent("tap choose_skat") == ["TakeSkat()"]
    assert run.sent("tap declare", 2) == [
        "Declare(game=<GameType.CLUBS: 'clubs'>, hand=False, ouvert=False, announced=<Level.SIMPLE: 0>)"]


@pytest.mark.parametrize("size", ["800x480", "1280x720"])
def test_the_result_shows_what_was_entered_and_a_correction_must_change_something(display: str, size: str) -> None:
    """Items 4 and 2: Augen, Stiche and the bid on the result; a correction's first digit
    types over the old Augen, an unchanged one is refused, the struck text keeps its score."""
    steps = setup_steps(THREE, length="length_open") + [
        # Mittelhand (Carla) bids 36 and plays Karo mit 1: overbid, valued at the bid
        "tap more_values", "tap bid_36", "tap pass", "tap pass",
        "wait_screen declare", "tap choose_skat", "tap game_diamonds", "tap declare",
        "wait_screen play", "tap result_direct", "tap tricks_7", "tap digit_8", "tap digit_0", "tap enter_result",
        "tap matadors_p1",
        "wait_screen result",
        "expect_text \"Carla: 80 Augen · 7 Stiche · gereizt 36\"",
        f"screenshot 44-result-counts-{size}",
        "tap confirm_1",
        "tap undo",  # item 14: a confirmation is not thrown away without asking
        "expect_text \"Bestätigung zurücknehmen?\"",
        "tap cancel",
        "expect_text \"bestätigt: Bernd\"",
        "tap confirm_2",
        # game 2, the quick way: Carla (Vorhand) wins Kreuz mit 1 with 80 Augen
        *direct_game(1, 3, "clubs", 7, 80, 1),
        "tap list", "wait_screen list",
        "tap row_2", "tap correct_entry",
        "tap enter_result", "tap matadors_p1",  # nothing changed: refused, the window stays
        "expect_text \"Das ist der Eintrag, wie er schon in der Liste steht\"",
        "tap digit_5", "tap digit_2",  # types over the 80
        "expect_text \"52\"",
        "tap enter_result", "tap matadors_p1",
        "tap propose_0", "tap consent_1", "tap consent_2",
        "expect_text \"Kreuz mit 1, Spiel 2 = 24, gewonnen +24\"",  # the struck original with its score
        f"screenshot 45-list-corrected-{size}",
    ]
    run = run_table(display, steps, size=size).check()
    assert run.sent("tap undo") == [] and run.sent("tap cancel") == []
    assert run.sent("tap matadors_p1", 3) == []
    assert "'declarer_points': 52" in run.sent("tap propose_0")[0]


@pytest.mark.parametrize(("size", "rows"), [("800x480", 10), ("1280x720", 16)])
def test_the_list_shows_ten_rows_at_800x480_and_sixteen_at_1280x720(display: str, size: str, rows: int) -> None:
    """Item 5: one line per game, ≥ 10 rows in view at 800×480 and ≥ 16 at 1280×720, the
    scroll bar beside the last player's column, not over it. Eingepasst deals are the
    quickest rows to make; a game's row is one line too (test_evening_viewmodels)."""
    steps = setup_steps(FIVE, length="length_open")
    for _ in range(rows):
        steps += ["wait_screen game", "tap pass", "tap pass", "tap pass"]
    steps += ["tap list", "wait_screen list", *[f"expect_shown row_{n}" for n in range(1, rows + 1)],
              f"screenshot 46-list-{rows}-rows"]
    run_table(display, steps, size=size).check()


def test_a_row_scrolled_away_is_tapped_after_scrolling_to_it(display: str) -> None:
    """The list makes widgets only for the rows in view (a recycle view): it opens
    at the latest entry, the first is out of view, and a script's tap scrolls it in as a
    player would before tapping it; the row shows its own game, not the one it lent its
    widgets to."""
    steps = setup_steps(FOUR, length="length_open")
    for _ in range(14):
        steps += ["wait_screen game", "tap pass", "tap pass", "tap pass"]
    steps += ["tap list", "wait_screen list", "expect_shown row_14", "expect_no_text \"Spiel 1 ·\"",
              "tap row_1", "expect_text \"Spiel 1 · \"", "tap cancel", "expect_shown row_1"]
    run_table(display, steps).check()


@pytest.mark.parametrize("size", ["800x480", "1280x720"])
def test_the_matadors_page_keeps_the_confirm_place_and_wide_buttons(display: str, size: str) -> None:
    """Item 8: a double tap on "weiter" lands on a greyed button that says why, not on a
    "zurück" that bounces back; mit/ohne in rows of six."""
    steps = setup_steps(FOUR, length="length_open") + [
        "tap bid_18", "tap hold", "tap pass", "tap pass",
        "wait_screen declare", "tap choose_skat", "tap game_clubs", "tap declare",
        "wait_screen play", "tap result_direct", "tap tricks_7", "tap digit_8", "tap digit_0",
        "tap enter_result",
        "tap enter_result",  # the second tap of a double tap
        "expect_text \"Bitte mit oder ohne wählen\"",
        "expect_shown matadors_m11",
        f"screenshot 47-matadors-page-{size}",
        "tap result_back",
        "expect_shown tricks_7",
        "tap enter_result",
        "tap matadors_p2",
        "wait_screen result",
    ]
    run = run_table(display, steps, size=size).check()
    assert run.sent("tap enter_result", 2) == [] and run.sent("tap result_back") == []
    assert run.sent("tap matadors_p2") == ["EnterResult(declarer_tricks=7, declarer_points=80, matadors=2)"]


def test_a_damaged_store_is_shown_on_the_screen_and_repaired_behind_the_club_pin(display: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Item 12: not a blank screen and a console message: the screen says it in words, the
    repair (ui.commands.store.repair_store, as `skattisch store recover`) asks the club PIN."""
    from drivers.store import JournalEventStore
    from tests.e2e.test_store_cli import record_table

    list_id, events = record_table(tmp_path, 1)
    journal = tmp_path / "journal" / f"{list_id}.jsonl"
    journal.write_bytes(journal.read_bytes().replace(b'"seq":3', b'"seq":4', 1))  # one bad character
    config = f'[table]\nclub_pin_hash = "{hash_pin("2468")}"\n\n[store]\npath = "{tmp_path}"\n'
    steps = [
        "wait_screen store",
        "expect_text \"Die gespeicherten Listen sind beschädigt\"",
        "expect_text \"line 3 is damaged\"",
        "screenshot 48-store-damaged",
        "tap repair_store",
        "tap digit_1", "tap pin_ok",
        "expect_text \"Falsche PIN\"",
        "tap repair_store",
        "tap digit_2", "tap digit_4", "tap digit_6", "tap digit_8", "tap pin_ok",
        "expect_text \"Repariert\"",
        "screenshot 49-store-repaired",
        "tap restart_table",
    ]
    run = run_table(display, steps, config=config).check()
    assert "line 3 is damaged" in run.stderr  # the console still names the file and line
    assert list((tmp_path / "journal").glob("*.damaged"))  # the damaged part is kept
    with JournalEventStore(tmp_path) as store:
        assert store.load(list_id) == events[:2]  # every event before the damage


def test_the_setup_takes_the_players_from_the_config_s_roster(display: str) -> None:
    """Item 9 (the roster part): `[table] roster` in the config; five taps instead of typing."""
    config = '[table]\nroster = ["Hannelore", "Hans-Joachim", "Wolfgang", "Karl-Heinz", "Ingrid", "Bernd"]\n'
    steps = ["wait_screen setup", "tap add_player",
             *[f"tap roster_{name}" for name in FIVE],
             "screenshot 50-setup-roster",
             "tap setup_next", "tap length_open", "tap setup_next",
             "wait_screen game",
             "tap list", "wait_screen list",
             "expect_text \"Hannel.\"", "expect_text \"Hans-J.\"", "expect_text \"Karl-H.\"",
             "screenshot 51-list-five-short-names"]
    run = run_table(display, steps, config=config).check()
    opened = run.sent("tap setup_next", 2)
    assert opened and "Hannelore" in opened[0] and "Hans-Joachim" in opened[0] and "Ingrid" in opened[0]


def test_a_refused_result_keeps_what_was_typed(display: str) -> None:
    """Item 10 (in part): 75 Augen in 0 tricks is refused; the entry opens again with the 75
    and the reason, to be corrected rather than typed again."""
    steps = setup_steps(THREE, length="length_open") + [
        "tap bid_18", "tap hold", "tap pass", "tap pass",
        "wait_screen declare", "tap choose_skat", "tap game_clubs", "tap declare",
        "wait_screen play", "tap result_direct", "tap tricks_0", "tap digit_7", "tap digit_5",
        "tap enter_result", "tap matadors_p1",
        "expect_text \"75\"", "expect_shown tricks_0", "expect_text \"Augen\"",
        "screenshot 52-result-refused-kept",
        "tap tricks_7", "tap enter_result", "tap matadors_p1",
        "wait_screen result",
    ]
    run = run_table(display, steps).check()
    assert run.step("tap matadors_p1")["refusals"] != []
    assert run.sent("tap matadors_p1", 2) == ["EnterResult(declarer_tricks=7, declarer_points=75, matadors=1)"]
