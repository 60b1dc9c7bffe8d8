"""Smoke run of the store benchmark: tiny sizes, checks it does the work, no timing asserts."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from tests.bench import bench_store


@pytest.mark.bench
def test_the_benchmark_measures_every_size(tmp_path: Path) -> None:
    rows = bench_store.run((1, 45), reps=2, directory=tmp_path)
    assert [row.games for row in rows] == [1, 45]
    for row in rows:
        assert all(math.isfinite(t) and t > 0 for t in (row.store, row.bare, row.tinydb_default))
        # Tonight's list is the same size whatever the history; TinyDB's one file is not.
        assert abs(row.list_bytes - rows[0].list_bytes) < 0.05 * rows[0].list_bytes
    assert rows[1].default_bytes > 8 * rows[0].default_bytes  # 48 games vs 4
    assert sorted(p.name for p in (tmp_path / "store-45" / "lists").glob("*.json")) == [
        "list-00001.json", "list-00002.json", "tonight.json"]


@pytest.mark.bench
def test_the_smoke_run_prints_the_table_and_ratios(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_store.main(["--smoke", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    for games in bench_store.SMOKE_SIZES:
        assert re.search(rf"^\s+{games} +\d+\.\d\d ", out, re.MULTILINE)
    assert re.search(r"store: +50 vs 1 games of history: \d+\.\d\dx", out)
    assert re.search(r"TinyDB default: +50 vs 1 games of history: \d+\.\dx", out)
    assert list(tmp_path.iterdir()) == []  # it cleans up after itself
