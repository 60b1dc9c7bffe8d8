"""Smoke run of the sync benchmark: three short evenings reach the laptop, live and as a backlog."""

from __future__ import annotations

from tests.bench import bench_sync


def test_bench_sync_smoke() -> None:
    figures = bench_sync.measure(tables=3, games=3, evening=1.0)
    assert figures["events"] > 3 * 3 * 30  # every card is an event; the laptop's copies were checked
    assert figures["backlog_s"] > 0 and figures["events_per_s"] > 0
    assert "x goal" in bench_sync.report(figures)
