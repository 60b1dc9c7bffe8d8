"""Smoke run of the match day's peak: a few clubs forwarding over HTTPS through Caddy and over
plain HTTP while a few readers load /wertung (seconds)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bench import bench_league_peak
from tests.e2e.proxy_helpers import missing_caddy


@pytest.mark.skipif(missing_caddy() is not None, reason=str(missing_caddy()))
def test_bench_league_peak_smoke(tmp_path: Path) -> None:
    plain, secure = bench_league_peak.run_both(tmp_path, clubs=3, readers=6, reads=2, games=4)
    for run in (plain, secure):
        assert run["acked"] == 3 and run["held"] == run["events"] > 0, run
        assert run["reads"] == 12 and run["read_failures"] == 0, run
    assert "x goal" in bench_league_peak.report(plain, secure, 6)
