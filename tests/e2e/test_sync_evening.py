"""A club evening over a bad network: 5 tables × 48 games reach the laptop, event for event.

Real processes on 127.0.0.1: the collector (``skattisch club serve``, SQLite), five table
processes (the service over the real TinyDB store, with the sync client thread), and between
them a fault proxy that drops, duplicates, delays and reorders requests and answers. The
laptop is away for the first half of the evening; then the collector is killed mid-batch and
restarted, and a table is killed mid-sync and restarted. At the end every table's lists on the
laptop equal the table's own, event for event: nothing lost, nothing doubled.
"""

from __future__ import annotations

import time
from pathlib import Path

from drivers.club.store import SqliteCollectorStore
from tests.e2e.fault_proxy import Faults, FaultProxy
from tests.e2e.sync_helpers import (
    Collector, TableProcess, assert_laptop_holds_the_tables, pair_table, wait_until_synced,
)

TABLES = 5
GAMES = 48
VICTIM = 2
EVERY = ("--every", "8")  # every 8th game card by card, the others' results typed in (a quicker evening)


def test_an_evening_of_five_tables_reaches_the_laptop_whole_through_faults(tmp_path: Path) -> None:
    collector = Collector(tmp_path / "club.sqlite3")
    proxy = FaultProxy(collector.port, seed=9, faults=Faults())
    victims_proxy = FaultProxy(collector.port, seed=10, faults=Faults())  # the same faults, its own switch
    proxy_urls = [f"http://127.0.0.1:{p.start()}" for p in (proxy, victims_proxy)]
    directories = [tmp_path / f"tisch-{n}" for n in range(1, TABLES + 1)]
    devices = [pair_table(d, collector, sync_url=proxy_urls[n == VICTIM], name=d.name)
               for n, d in enumerate(directories)]
    tables: list[TableProcess] = []
    try:
        proxy.down = victims_proxy.down = True  # the laptop is away for the first half of the evening
        tables = [TableProcess(d, *EVERY, *(("--batch", "10") if n == VICTIM else ())) for n, d in enumerate(directories)]
        for table in tables:
            table.send(f"play {GAMES // 2}")
        assert all(t.read() == {"played": GAMES // 2} for t in tables)
        statuses = [t.ask("status") for t in tables]
        assert all(s["acked"] == 0 and s["last_seq"] > 0 for s in statuses)
        assert proxy.stats["refused_down"] > 0  # the tables did try, and keep what they have

        proxy.down = False  # the laptop is back: the backlog flows, through faults (not yet for the victim)
        proxy.forwarded_batch.clear()
        for table in tables:
            table.send(f"play {3 * GAMES // 4}")
        assert proxy.forwarded_batch.wait(20)
        collector.kill()  # mid-batch: a batch was just forwarded
        time.sleep(0.3)
        collector.start()
        assert all(t.read() == {"played": 3 * GAMES // 4} for t in tables)

        victim = tables[VICTIM]  # killed while it syncs its backlog: some acknowledged, not all
        victims_proxy.down = False
        deadline = time.monotonic() + 30
        while not (0 < (status := victim.ask("status"))["acked"] < status["last_seq"]):
            assert time.monotonic() < deadline, status
            time.sleep(0.01)
        victim.kill()
        victim.start()
        assert victim.started["acked"] >= status["acked"] > 0  # resumes: the evening is not sent again

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
        victims_proxy.close()

    for fault in ("dropped_request", "held_reordered", "duplicated_request", "delayed", "dropped_response"):
        assert proxy.stats[fault] + victims_proxy.stats[fault] > 0, (fault, proxy.stats)
    laptop = SqliteCollectorStore(tmp_path / "club.sqlite3")
    try:
        assert_laptop_holds_the_tables(laptop, directories, devices, final, games=GAMES)
    finally:
        laptop.close()
