"""Smoke run of the league benchmark: a small match day forwarded, a small season's ranking page."""

from __future__ import annotations

from pathlib import Path

from tests.bench import bench_league


def test_bench_league_smoke(tmp_path: Path) -> None:
    figures = bench_league.measure_ingest(tmp_path, tables=2, games=2)
    assert figures["ingest_events"] > 2 * 2 * 30 and 0 < figures["ingest_s"] < figures["ingest_end_to_end_s"]
    figures.update(bench_league.measure_season(tmp_path, clubs=2, days=2, tables=2, games=4, requests=3))
    assert figures["games"] == 2 * 2 * 2 * 4 and figures["page_rate"] > 0
    assert "x goal" in bench_league.report(figures)
