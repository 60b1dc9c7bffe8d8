"""Smoke run of the start-up benchmark: a short list restarts to the same list."""

from __future__ import annotations

from tests.bench import bench_service


def test_bench_service_smoke() -> None:
    figures = bench_service.measure(games=4, restarts=2)
    assert figures["games"] == 4 and figures["events"] > 4 * 30  # every card is an event
    assert "x baseline" in bench_service.report(figures)
