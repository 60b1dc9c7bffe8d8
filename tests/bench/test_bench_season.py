"""Smoke run of the season benchmark: a tiny season through the real store, no pyskat, no timing asserts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.bench import bench_season


@pytest.mark.bench
def test_the_season_is_ranked_from_the_store(tmp_path: Path) -> None:
    result = bench_season.run(bench_season.SMOKE, reps=2, pyskat=None, directory=tmp_path)
    evenings, series, tables, games = bench_season.SMOKE
    assert result.games == evenings * series * tables * games and result.lists == evenings * series * tables
    assert result.players == tables * 4 and result.ours > 0 and result.pyskat is None


@pytest.mark.bench
def test_the_smoke_run_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_season.main(["--smoke"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"season ranking from the store .*: \d+\.\d ms", out)
    assert "pyskat" not in out.split("season ranking")[1]
