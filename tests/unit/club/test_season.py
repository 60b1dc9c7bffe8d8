"""The season table against figures added up by hand."""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from device.club.season import SeasonRules, SeriesResult, season_chart, season_ranking


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), minimum=st.integers(0, 6), dropped=st.integers(0, 3))
def test_season_average_minimum_and_dropped_series(seed: int, minimum: int, dropped: int) -> None:
    rng = random.Random(seed)
    players = [f"S{i}" for i in range(rng.randint(1, 9))]
    results = []
    for evening in range(rng.randint(1, 6)):
        for series in (1, 2):
            for p in players:
                if rng.random() < 0.7:
                    results.append(SeriesResult(str(evening), series, p, rng.randint(-300, 900), rng.randint(0, 12),
                                                rng.randint(0, 5), rng.randint(-500, 1800)))
    lines = season_ranking(results, SeasonRules(minimum, dropped))
    by_name = {line.player: line for line in lines}
    for p in {r.player for r in results}:
        mine = sorted((r.leistung for r in results if r.player == p))
        k = min(dropped, len(mine) - 1)
        line = by_name[p]
        assert line.series == len(mine) and line.leistung == sum(mine)
        assert line.average == Fraction(sum(mine[k:]), len(mine) - k)
        assert sorted(line.dropped) == mine[:k]
        assert (line.rank is not None) == (len(mine) >= minimum)
    ranked = [line for line in lines if line.rank is not None]
    assert lines[:len(ranked)] == tuple(ranked)
    for a, b in zip(ranked, ranked[1:]):
        assert (a.average, a.won, -a.lost) >= (b.average, b.won, -b.lost)
        assert a.rank <= b.rank  # type: ignore[operator]


def test_a_player_at_two_tables_in_one_series_counts_one_series() -> None:
    r = [SeriesResult("e", 1, "A", 10, 1, 0, 60), SeriesResult("e", 1, "A", 5, 0, 1, -45)]
    (line,) = season_ranking(r, SeasonRules(minimum_series=1))
    assert (line.series, line.leistung, line.average) == (1, 15, 15)


def test_chart_runs_over_evenings() -> None:
    r = [SeriesResult("a", 1, "X", 0, 0, 0, 10), SeriesResult("a", 2, "X", 0, 0, 0, 5),
         SeriesResult("c", 1, "X", 0, 0, 0, -20), SeriesResult("b", 1, "Y", 0, 0, 0, 7)]
    assert season_chart(r, ["a", "b", "c"]) == {"X": [15, 15, -5], "Y": [0, 7, 7]}
