"""Fixtures for every test: a real PostgreSQL server (session-wide) and the collector store's
targets, a SQLite file and a PostgreSQL database, for the tests that run on both."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.pg_server import PostgresServer, missing_binaries


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One real PostgreSQL server for the session; skipped (one line) where it is not installed."""
    why = missing_binaries()
    if why:
        pytest.skip(why)
    server = PostgresServer().start()
    yield server
    server.stop()


@pytest.fixture
def pg_url(postgres_server: PostgresServer) -> str:
    """A fresh, empty PostgreSQL database for this test."""
    return postgres_server.new_database()


@pytest.fixture(params=["sqlite", "postgres"])
def store_target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a collector store for this test lives: a SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "club.sqlite3")
    return str(request.getfixturevalue("pg_url"))
