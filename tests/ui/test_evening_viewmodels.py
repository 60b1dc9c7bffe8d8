"""Issue 11's view-models on real snapshots of the table service, without a window: the end
of the series (every payment, the game points beside the ranking), corrections, the result's
counts, the paper list's columns, short names, names that are not markup."""

from __future__ import annotations

import random

import pytest

from device.table import (
    Bid, Confirm, Declare, EndSeries, EnterResult, Hold, OpenList, Pass, TableService, TakeSkat,
)
from drivers.store import MemoryEventStore
from ui.i18n import set_language
from ui.table.viewmodels import escape, money_lines, short_names, standing_lines

FOUR = ("Anna", "Bernd", "Carla", "Dieter")


@pytest.fixture(autouse=True)
def german() -> None:
    set_language("de")


def table_of(players: tuple[str, ...], stake: str = "1") -> TableService:
    table = TableService(MemoryEventStore(), device_id="test", rng=random.Random(1))
    result = table.handle(OpenList(players, stake=stake))
    assert not result.refusals, result.refusals
    return table


def play(table: TableService, *commands: object) -> None:
    for command in commands:
        result = table.handle(command)
        assert not result.refusals, result.refusals


def vorhand_plays(table: TableService, game: str, tricks: int, points: int, matadors: int) -> None:
    """Vorhand takes the game at 18, the result entered directly, confirmed by two players."""
    play(table, Bid(1, 18), Hold(0), Pass(1), Pass(2), TakeSkat(),
         Declare.parse(game), EnterResult(tricks, points, matadors))
    result = table.snapshot().result
    assert result is not None
    play(table, *(Confirm(seat) for seat in result.may_confirm[:2]))
    snap = table.snapshot()
    if snap.result is not None:  # the declarer's confirmation was still missing
        play(table, *(Confirm(seat) for seat in snap.result.may_confirm[:1]))


def four_player_evening() -> TableService:
    table = table_of(FOUR)
    for game, tricks, points, matadors in (("clubs", 7, 80, 1), ("hearts", 3, 40, 1), ("spades", 6, 75, 2),
                                           ("diamonds", 4, 50, 1)):
        vorhand_plays(table, game, tricks, points, matadors)
    play(table, EndSeries())
    return table


def test_the_end_shows_every_payment_and_the_game_points_beside_the_ranking() -> None:
    snap = four_player_evening().snapshot()
    end, view = snap.end, snap.list
    assert end is not None and view is not None
    assert len(end.transfers) == 3
    assert money_lines(end) == [t.text for t in end.transfers]
    lines = standing_lines(end, view)
    classic = dict(zip(view.players, view.classic))
    assert [line.name for line in lines] == [s.name for s in end.ranking]
    for line, standing in zip(lines, end.ranking):
        assert line.game_points == str(classic[line.name]).replace("-", "−")
        assert line.total == str(standing.total).replace("-", "−")


def test_short_names_are_unique_and_whole_where_they_fit() -> None:
    short = short_names(("Hannelore", "Hans-Joachim", "Wolfgang", "Karl-Heinz", "Ingrid"))
    assert len(set(short.values())) == 5
    assert all(len(name) <= 9 for name in short.values())
    assert short["Hannelore"] == "Hannelore" and short["Hans-Joachim"] == "Hans-J."


def test_a_name_is_never_read_as_markup() -> None:
    assert "[" not in escape("[color=00000000]Bernd[/color]")
    assert escape("Bernd") == "Bernd"
