"""The snapshot's structured fields, so that a screen never reads them out of German text:
the game of a row, of the game being played and of its result; the matadors a directly
entered result may give; a row's counts and declarer seat (for a correction); the Ramsch view."""

from __future__ import annotations

from dataclasses import replace

import pytest

from device.profile import PROFILES
from device.table.commands import ConsentCorrection, EndGame, EndHow, EnterRamsch, EnterResult, ProposeCorrection
from tests.table_helpers import Table, offer_at_table

SUIT_CHOICES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, -1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11)
GRAND_CHOICES = (1, 2, 3, 4, -1, -2, -3, -4)


def carla_declares(key: str, *players: str) -> Table:
    """Anna deals; Mittelhand (Carla at three) plays ``key`` for 18 (hand, so no skat to scan)."""
    table = Table(*(players or ("Anna", "Bernd", "Carla")))
    table.say("M 18", "V passe", "H passe")
    table.declare(key)
    return table


@pytest.mark.parametrize("key, game, choices", [
    ("clubs/hand", "clubs", SUIT_CHOICES), ("spades/hand", "spades", SUIT_CHOICES),
    ("hearts/hand", "hearts", SUIT_CHOICES), ("diamonds/hand", "diamonds", SUIT_CHOICES),
    ("grand/hand", "grand", GRAND_CHOICES), ("null/hand", "null", ()), ("null/hand/ouvert", "null", ()),
])
def test_the_play_view_names_the_game_and_the_matadors_a_result_may_give(key: str, game: str,
                                                                          choices: tuple[int, ...]) -> None:
    play = carla_declares(key).snap.play
    assert play is not None
    assert play.game == game and play.matador_choices == choices


def test_the_result_view_names_the_game_and_a_ramsch_has_none() -> None:
    table = carla_declares("grand/hand")
    table.ok(EnterResult(7, 80, 2))
    result = table.snap.result
    assert result is not None and result.game == "grand" and result.matador_choices == ()
    table.undo()
    table.end(EndHow.DEFENDERS_GAVE_UP)  # no card seen: the matadors are asked for
    result = table.snap.result
    assert result is not None and result.needs_matadors and result.game == "grand"
    assert result.matador_choices == GRAND_CHOICES


def test_a_row_names_its_game_declarer_seat_and_counts() -> None:
    table = Table("Anna", "Bernd", "Carla", "Dora")  # Anna deals and sits out: Carla is Mittelhand
    table.say("M 18", "V passe", "H passe")
    table.declare("hearts/hand")
    table.ok(EnterResult(6, 75, -2))
    table.confirm("Carla", "Bernd")
    table.say("M passe", "H passe", "V passe")  # eingepasst
    row, passed = table.entry(1), table.entry(2)
    assert (row.game, row.declarer, row.declarer_seat) == ("hearts", "Carla", 2)
    assert (row.declarer_points, row.declarer_tricks, row.matadors) == (75, 6, -2)
    assert row.matador_choices == SUIT_CHOICES and row.declaration == "Herz Hand"
    assert (passed.game, passed.declarer_seat, passed.declarer_points, passed.matadors) == (None, None, None, None)
    assert passed.matador_choices == () and passed.declaration is None


def test_a_null_row_has_no_matadors_and_a_corrected_row_shows_its_new_counts() -> None:
    table = carla_declares("null/hand")
    table.ok(EnterResult(0))
    table.confirm("Carla", "Anna")
    row = table.entry(1)
    assert row.game == "null" and row.matadors is None and row.matador_choices == ()
    table.say("M 18", "V passe", "H passe")  # Bernd deals: Mittelhand is Anna
    table.declare("clubs/hand")
    table.ok(EnterResult(6, 70, 1))
    table.confirm("Anna", "Bernd")
    record = {"v": 1, "game": "clubs", "hand": True, "ouvert": False, "announced": None, "bid": 18,
              "declarer_points": 91, "declarer_tricks": 8, "matadors": 1}
    table.ok(ProposeCorrection(2, record, table.seat("Anna"), table.seat("Bernd")),
             ConsentCorrection(table.seat("Anna")), ConsentCorrection(table.seat("Carla")))
    row = table.entry(2)
    assert row.corrected and (row.declarer_points, row.declarer_tricks, row.matadors) == (91, 8, 1)
    assert row.game == "clubs" and row.declarer_seat == table.seat("Anna")


@pytest.fixture
def ramsch_only(monkeypatch: pytest.MonkeyPatch) -> None:
    kneipe = PROFILES["kneipe"]
    monkeypatch.setitem(PROFILES, "ramsch", kneipe.with_(name="ramsch", bock=False))
    monkeypatch.setitem(PROFILES, "ramsch_plain", kneipe.with_(
        name="ramsch_plain", bock=False, ramsch_rules=replace(kneipe.ramsch_rules, schieben=False)))
    offer_at_table(monkeypatch, "ramsch", "ramsch_plain")


def test_the_ramsch_view_from_the_entry_to_the_confirmation(ramsch_only: None) -> None:
    table = Table("Anna", "Bernd", "Carla", profile="ramsch")
    assert table.snap.ramsch is None
    table.say("M passe", "H passe", "V passe")
    view = table.snap.ramsch
    assert table.snap.phase == "ramsch" and view is not None
    assert view.positions == ("Bernd", "Carla", "Anna") and view.may_push and view.max_pushes == 3
    assert not view.entered and view.points == () and view.bock == 1
    table.ok(EnterRamsch((58, 52, 0), (6, 4, 0), 10, 1, 1))
    view = table.snap.ramsch
    assert view is not None and view.entered
    assert view.points == (58, 62, 0) and view.tricks == (6, 4, 0) and view.skat_to == 1
    assert view.scores == (0, -248, 0)  # Jungfrau doubles, one push doubles
    result = table.snap.result
    assert result is not None and result.game is None and result.text.startswith("Ramsch: Carla verliert")
    table.confirm("Anna", "Bernd")
    assert table.snap.ramsch is None and table.entry(1).kind == "ramsch" and table.entry(1).game is None


def test_a_ramsch_without_schieben_asks_for_no_pushes(ramsch_only: None) -> None:
    table = Table("Anna", "Bernd", "Carla", profile="ramsch_plain")
    table.say("M passe", "H passe", "V passe")
    view = table.snap.ramsch
    assert view is not None and not view.may_push and view.max_pushes == 0
    table.refused(EnterRamsch((58, 52, 0), (6, 4, 0), 10, 1, 1), "bad_result")


def test_no_ramsch_view_for_an_isko_eingepasst() -> None:
    table = Table("Anna", "Bernd", "Carla")
    table.say("M passe", "H passe", "V passe")
    assert table.snap.ramsch is None and table.snap.phase == "bidding"


def test_a_game_shortened_before_any_card_keeps_its_game_in_the_result() -> None:
    table = carla_declares("clubs/hand")
    table.ok(EndGame(EndHow.DECLARER_GAVE_UP, matadors=2))
    result = table.snap.result
    assert result is not None and result.game == "clubs" and result.won is False
