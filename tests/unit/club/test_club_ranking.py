"""The evening's ranking across tables against the Wertungsformel added up by hand."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from device.club.ranking import ListResult, PlayedList, list_results, ranking, series_ranking
from device.table.events import Event
from device.table.state import replay
from tests.club_helpers import NAMES, independent_figures, independent_order, list_events, random_entries


def _played(series: int, table: int, players: tuple[str, ...], entries: list) -> PlayedList:  # type: ignore[type-arg]
    events = [Event.from_json(e) for e in list_events(f"t{table}", f"s{series}t{table}", players, entries)]
    state = replay(events)
    return PlayedList(series, table, players, state.rows)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), sizes=st.lists(st.sampled_from([3, 4]), min_size=1, max_size=4))
def test_one_series_ranks_like_the_wertungsformel(seed: int, sizes: list[int]) -> None:
    rng = random.Random(seed)
    names = list(NAMES)
    rng.shuffle(names)
    lists, expected = [], {}
    for table, size in enumerate(sizes, start=1):
        players = tuple(names[:size])
        del names[:size]
        entries = random_entries(rng, size, rng.randint(0, 3 * size))
        lists.append(_played(1, table, players, entries))
        expected.update(independent_figures(players, entries))
    lines = ranking(r for played in lists for r in list_results(played))
    assert {line.player: (line.leistung, line.points, line.won, line.lost) for line in lines} == expected
    got_groups: dict[int, list[str]] = {}
    for line in lines:
        got_groups.setdefault(line.rank, []).append(line.player)
    assert [sorted(g) for _, g in sorted(got_groups.items())] == independent_order(expected)


def test_two_series_add_up_and_each_series_ranks_on_its_own() -> None:
    rng = random.Random(5)
    players = NAMES[:8]
    total: dict[str, list[int]] = {p: [0, 0, 0, 0] for p in players}
    results = []
    per_series = {}
    for series in (1, 2):
        order = list(players)
        rng.shuffle(order)
        series_expected = {}
        for table in (1, 2):
            seated = tuple(order[(table - 1) * 4: table * 4])
            entries = random_entries(rng, 4, 48)
            results.extend(list_results(_played(series, table, seated, entries)))
            figures = independent_figures(seated, entries)
            series_expected.update(figures)
            for name, values in figures.items():
                total[name] = [a + b for a, b in zip(total[name], values)]
        per_series[series] = series_expected
    for series in (1, 2):
        lines = series_ranking(results, series)
        assert {line.player: line.leistung for line in lines} == {p: v[0] for p, v in per_series[series].items()}
    lines = ranking(results, lot_seed=3)
    assert [line.rank for line in lines] == list(range(1, 9))
    assert {line.player: [line.leistung, line.points, line.won, line.lost] for line in lines} == total
    assert all(line.lists == 2 for line in lines)
    flat = [name for group in independent_order({p: tuple(v) for p, v in total.items()}) for name in group]  # type: ignore[misc]
    assert [line.player for line in lines] == flat or any(line.by_lot for line in lines)


def test_the_lot_separates_equal_players_reproducibly() -> None:
    players = ("Anna", "Bernd", "Carla")
    results = list_results(PlayedList(1, 1, players, ()))
    first = ranking(results, lot_seed=11)
    assert [line.rank for line in first] == [1, 2, 3] and all(line.by_lot for line in first)
    assert ranking(results, lot_seed=11) == first
    assert {tuple(line.player for line in ranking(results, lot_seed=s)) for s in range(20)} != {tuple(players)}
    assert [line.rank for line in ranking(results)] == [1, 1, 1]


def test_the_evening_and_the_season_draw_equal_players_in_one_order() -> None:
    from device.club.season import SeriesResult, season_ranking

    players = [f"P{i}" for i in range(7)]
    evening = [ListResult(p, 1, 1, 100, 3, 1, 500) for p in players]
    season = [SeriesResult("2026-11-26", 1, p, 100, 3, 1, 500) for p in players]
    season.append(SeriesResult("2026-11-05", 1, "Neu", 0, 0, 0, 500))  # one more equal player, another evening
    wertung = [line.player for line in ranking(evening, lot_seed="2026-11-26")]
    saison = [line.player for line in season_ranking(season, lot_seed="2026-11-26")]
    assert [p for p in saison if p != "Neu"] == wertung
    assert wertung != [line.player for line in ranking(evening, lot_seed="2026-11-05")]
