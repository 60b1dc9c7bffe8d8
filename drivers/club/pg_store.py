"""The collector's store on PostgreSQL (psycopg 3): the same port as the SQLite store."""

from __future__ import annotations


class PostgresCollectorStore:
    def __init__(self, url: str) -> None:
        raise NotImplementedError("the PostgreSQL store is being built")
