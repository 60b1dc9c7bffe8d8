"""Smoke run of the Preisskat benchmark: a tiny evening through the real store and app, no timing asserts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.bench import bench_money


@pytest.mark.bench
def test_the_kasse_is_drawn_after_each_game(tmp_path: Path) -> None:
    result = bench_money.run(bench_money.SMOKE, directory=tmp_path)
    tables, series, games, _ = bench_money.SMOKE
    assert result.players == tables * 4 and result.games == tables * series * games
    assert 0 < result.kasse_median <= result.kasse_max and result.wertung_median > 0 and result.live_median > 0


@pytest.mark.bench
def test_the_teams_from_the_member_list_run_too(tmp_path: Path) -> None:
    result = bench_money.run(bench_money.SMOKE, directory=tmp_path, from_member_list=True)
    assert result.players == bench_money.SMOKE[0] * 4 and 0 < result.kasse_median <= result.kasse_max


@pytest.mark.bench
def test_the_smoke_run_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_money.main(["--smoke"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"Kasse page after each game: median \d+\.\d ms", out) and "ratio Kasse / Wertung" in out
    assert "live check (every 0.4 s per open page)" in out
