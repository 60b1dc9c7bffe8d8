"""The collector on PostgreSQL: ``skattisch club --db postgresql://…`` in its own process
over a real PostgreSQL server (tests/pg_server.py), two table processes syncing to it over real
HTTP through a fault proxy; the collector is killed mid-batch and started again. At the end the
laptop's lists equal each table's own, event for event, read back from PostgreSQL."""

from __future__ import annotations

import time
from pathlib import Path

from drivers.club.store import open_store
from tests.e2e.fault_proxy import FaultProxy, Faults
from tests.e2e.sync_helpers import (
    Collector, TableProcess, assert_laptop_holds_the_tables, pair_table, wait_until_synced,
)

GAMES = 24
EVERY = ("--every", "8")


def test_tables_sync_to_a_collector_on_postgres_through_faults_and_a_restart(tmp_path: Path, pg_url: str) -> None:
    collector = Collector(pg_url)
    proxy = FaultProxy(collector.port, seed=18, faults=Faults())
    proxy_url = f"http://127.0.0.1:{proxy.start()}"
    directories = [tmp_path / f"tisch-{n}" for n in (1, 2)]
    devices = [pair_table(d, collector, sync_url=proxy_url, name=d.name) for d in directories]
    tables: list[TableProcess] = []
    try:
        tables = [TableProcess(d, *EVERY) for d in directories]
        proxy.forwarded_batch.clear()
        for table in tables:
            table.send(f"play {GAMES // 2}")
        assert proxy.forwarded_batch.wait(20)
        collector.kill()  # mid-batch: what PostgreSQL committed is acknowledged, nothing else
        time.sleep(0.3)
        collector.start()
        assert all(t.read() == {"played": GAMES // 2} for t in tables)
        for table in tables:
            table.send(f"play {GAMES}")
        assert all(t.read() == {"played": GAMES} for t in tables)
        final = wait_until_synced(tables, timeout=60)
        for table in tables:
            table.quit()
    finally:
        for table in tables:
            if table.process.poll() is None:
                table.kill()
        collector.stop()
        proxy.close()

    laptop = open_store(pg_url)
    try:
        assert_laptop_holds_the_tables(laptop, directories, devices, final, games=GAMES)
    finally:
        laptop.close()
