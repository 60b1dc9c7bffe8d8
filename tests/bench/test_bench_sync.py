"""Smoke run of the sync benchmark: three short evenings reach the laptop, live and as a backlog,
first from the in-memory template, then along the table's path (service, journal, entries_after)."""

from __future__ import annotations

from tests.bench import bench_sync


def test_bench_sync_smoke() -> None:
    figures = bench_sync.measure(tables=3, games=3, evening=1.0)
    assert figures["events"] > 3 * 3 * 30  # every card is an event; the laptop's copies were checked
    assert figures["backlog_s"] > 0 and figures["events_per_s"] > 0
    assert "x goal" in bench_sync.report(figures)


def test_bench_sync_table_path_smoke() -> None:
    figures = bench_sync.measure_table_path(tables=2, games=2, evening=0.5)
    assert figures["path_events"] > 2 * 2 * 30  # recorded through the service into two journals, checked at the laptop
    assert 0 <= figures["path_lag_median_s"] <= figures["path_lag_p99_s"] <= figures["path_lag_max_s"]
    assert figures["path_backlog_s"] > 0 and figures["path_recording_s"] > 0
    words = bench_sync.report(figures)
    assert "table path, live" in words and "table path, backlog" in words and "x goal" in words
