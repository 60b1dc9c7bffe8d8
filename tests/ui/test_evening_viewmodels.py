"""The club evening's view-models on real snapshots of the table service, without a window: the end
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
    assert money_lines(end) == [f"{t.payer} zahlt {t.payee} {t.amount // 100},{t.amount % 100:02d}\u00a0€"
                                for t in end.transfers]
    lines = standing_lines(end, view)
    classic = dict(zip(view.players, view.classic))
    assert [line.name for line in lines] == [s.name for s in end.ranking]
    for line, standing in zip(lines, end.ranking):
        assert line.game_points == str(classic[line.name]).replace("-", "−")
        assert line.total == str(standing.total).replace("-", "−")


def test_short_names_are_unique_and_whole_where_they_fit() -> None:
    five = ("Hannelore", "Hans-Joachim", "Wolfgang", "Karl-Heinz", "Ingrid")
    short = short_names(five)
    assert len(set(short.values())) == 5 and all(len(name) <= 7 for name in short.values())
    assert short["Hannelore"] != short["Hans-Joachim"] and short["Ingrid"] == "Ingrid"
    four = short_names(five[:4])
    assert four["Hannelore"] == "Hannelore" and four["Hans-Joachim"] == "Hans-J."


def test_a_name_is_never_read_as_markup() -> None:
    assert "[" not in escape("[color=00000000]Bernd[/color]")
    assert escape("Bernd") == "Bernd"


def test_the_list_screen_and_skattisch_sheet_show_the_same_columns_and_figures() -> None:
    """Item 5: one line per game like the paper list, the same in the screen and the sheet."""
    from device.listdoc import ListDocument
    from device.scoring import ScoringSystem
    from device.table.flow import parse_stake
    from ui.commands.sheet import as_csv, paper_cells, scored_sheet
    from ui.table.viewmodels import list_lines, stand_lines

    table = table_of(FOUR)
    for game, tricks, points, matadors in (("clubs", 7, 80, 1), ("hearts", 3, 40, 1), ("grand", 8, 90, 2),
                                           ("diamonds", 4, 50, 1), ("spades", 6, 75, 2)):
        vorhand_plays(table, game, tricks, points, matadors)
    state = table.state
    assert state.setup is not None
    document = ListDocument(players=state.seating, scoring=ScoringSystem(state.setup.scoring),
                            bierlachs_limit=state.setup.bierlachs_limit, profile=state.profile,
                            stake=parse_stake(state.setup.stake), series_length=state.setup.series_length,
                            rows=tuple(state.rows))
    sheet = scored_sheet(document)
    view = table.snapshot().list
    assert view is not None
    screen = [[line.number, line.dealer, line.declarer, line.game, line.base, line.tops, line.levels, line.score,
               *(cell.text for cell in line.cells)] for line in list_lines(view)]
    printed = [paper_cells(row) for row in sheet["rows"]]
    assert [[cell.replace("−", "-") for cell in line] for line in screen] == printed
    # game points only in the declarer's column, running on: Bernd 24, then Bernd again in game 5
    assert screen[0][8:] == ["", "24", "", ""] and screen[4][8:] == ["", "57", "", ""]
    stand = stand_lines(view)
    assert [line.label for line in stand] == ["Spielpunkte", "gew. / verl.", "Seeger-Fabian"]
    csv_lines = as_csv(sheet).splitlines()
    assert csv_lines[-3].endswith(",".join(c.replace("−", "-") for c in stand[0].cells))
    assert csv_lines[-1].endswith(",".join(c.replace("−", "-") for c in stand[2].cells))


def test_every_text_size_is_readable_at_arm_s_length_and_chart_lines_differ_by_mark() -> None:
    """Item 11: nothing a player must read below 18 px at 800×480; each player's chart line
    has its own mark (● ■ ▲ ◆ ✚) as well as its colour."""
    from ui.table import theme

    assert min(theme.FONT_MIN, theme.FONT_SMALL, theme.FONT, theme.FONT_LARGE, theme.FONT_HUGE) >= 18
    assert len(set(theme.PLAYER_MARKS)) == len(theme.PLAYER_COLOURS) == 5


def test_the_status_bar_says_ohne_leser_and_ohne_laptop_without_an_alarm() -> None:
    """Item 14: a table set up without a reader or a laptop shows it in grey, not red/amber."""
    from ui.table.viewmodels import status_of

    from dataclasses import replace

    snap = table_of(FOUR).snapshot()
    assert not snap.sync.laptop  # no laptop paired
    bare = status_of(snap, simulate=False, reader_fitted=False)
    assert (bare.reader, bare.reader_level, bare.sync, bare.sync_level) == ("ohne Leser", "none", "ohne Laptop", "none")
    paired = replace(snap, sync=replace(snap.sync, laptop="skat-laptop"))
    fitted = status_of(paired, simulate=False, reader_fitted=True)
    assert (fitted.reader, fitted.reader_level) == ("Leser fehlt", "bad")
    assert (fitted.sync, fitted.sync_level) == ("nicht synchronisiert", "wait")


def test_the_settings_and_the_status_bar_say_the_same_of_the_sync() -> None:
    """Before the first game, with every event the laptop has acked, the status bar said
    "synchronisiert" and the settings "noch nicht synchronisiert" (seen on the qemu table)."""
    from dataclasses import replace

    from ui.i18n import sync_text
    from ui.table.viewmodels import status_of

    snap = table_of(FOUR).snapshot()
    last = max(snap.sync.last_seq, 1)
    for sync, word in ((replace(snap.sync, laptop="skat-laptop", last_seq=last, acked_seq=last), "synchronisiert"),
                       (replace(snap.sync, laptop="skat-laptop", last_seq=last, acked_seq=0), "nicht synchronisiert"),
                       (replace(snap.sync, laptop="skat-laptop", last_seq=last, acked_seq=last, synced_games=3),
                        "synchronisiert bis Spiel 3"),
                       (replace(snap.sync, laptop=""), "ohne Laptop")):
        shown = replace(snap, sync=sync)
        assert sync_text(shown.sync) == status_of(shown, simulate=False, reader_fitted=True).sync == word
