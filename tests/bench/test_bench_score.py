"""Smoke run of the scoring benchmark: it runs, and every generated game scores."""

from __future__ import annotations

from tests.bench import bench_score


def test_bench_score_smoke() -> None:
    figures = bench_score.measure(games=200, repeats=1)
    assert figures["games"] == 200
    assert all(figures[k] > 0 for k in ("parse_s", "in_process_s", "cli_s"))
    assert "games/s" in bench_score.report(figures)
