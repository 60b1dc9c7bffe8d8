"""Smoke run of the match-day ingest benchmark: a tiny match day into SQLite and the tests'
PostgreSQL server, every event checked back, the figures printed; no timing asserts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.bench import bench_league_store
from tests.pg_server import PostgresServer


@pytest.mark.bench
def test_a_tiny_match_day_is_ingested_into_both_engines(tmp_path: Path, postgres_server: PostgresServer) -> None:
    figures = bench_league_store.measure(2, 2, 2, lambda rep: str(tmp_path / f"club-{rep}.sqlite3"),
                                         lambda rep: postgres_server.new_database("bench"))
    assert figures.tables == 2 and figures.events > 2 * 2 * 30  # every card is an event; each was read back
    per_table = figures.events // 2  # the two tables play the same template
    assert figures.batches == 2 * -(-per_table // bench_league_store.BATCH)  # batches of up to 50
    assert figures.sqlite_s > 0 and figures.postgres_s > 0
    text = bench_league_store.report(figures)
    assert re.search(r"ratio PostgreSQL / SQLite: \d+\.\d\dx", text) and "x goal" in text
