"""A conflict is kept once however often a stuck table retries it.

A real collector process on 127.0.0.1; a table's list is stored, then a batch that holds the
same seqs with other content is sent 20 times over real HTTP, each time signed anew as the
table's client retries. The laptop keeps one conflict row with the count 20 and shows it on
the evening page (headless chromium). A database written before the count (a row per retry)
opens with its rows folded.
"""

from __future__ import annotations

import json
import random
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from device.sync import batch_body, journal_entries
from drivers.club.store import SqliteCollectorStore
from tests.club_helpers import NAMES, list_events, random_entries
from tests.e2e.test_club_pages import _shot, browser  # noqa: F401 (the browser fixture)
from tests.e2e.test_sync_refusals import DEVICE, Laptop

from selenium.webdriver.common.by import By  # noqa: E402 (after test_club_pages skips without selenium)

PLAYERS = NAMES[:4]
RETRIES = 20


def table_list(seed: int) -> list[dict[str, Any]]:
    """A three-game list; another seed is another list with other events under the same seqs."""
    return list_events(DEVICE, f"L-tisch-7-{seed}", PLAYERS, random_entries(random.Random(seed), 4, 3))


@pytest.fixture(scope="module")
def laptop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Laptop]:
    laptop = Laptop(tmp_path_factory.mktemp("conflicts"))
    held = table_list(1)
    status, answer = laptop.send(batch_body(DEVICE, journal_entries(held)))
    assert (status, answer["acked"]) == (200, len(held))
    yield laptop
    laptop.collector.stop()


def test_twenty_retries_of_a_conflict_keep_one_row_counted_twenty(laptop: Laptop, browser: Any) -> None:  # noqa: F811
    other = batch_body(DEVICE, journal_entries(table_list(2)))  # the same seqs, other events
    before = time.time()
    for _ in range(RETRIES):
        status, answer = laptop.send(other)  # a fresh nonce and signature each time, as the client retries
        assert (status, answer["error"]) == (409, "conflict"), answer
    store = SqliteCollectorStore(laptop.collector.db)
    try:
        conflicts = store.conflicts(DEVICE)
        table = next(t for t in store.tables() if t.device == DEVICE)
    finally:
        store.close()
    assert [(c.seq, c.count) for c in conflicts] == [(1, RETRIES)]
    assert before <= conflicts[0].at < conflicts[0].last_at <= time.time()
    assert (table.conflicts, table.conflict_sends) == (1, RETRIES)
    browser.set_window_rect(width=1920, height=1080)
    browser.get(laptop.url + "/abend")
    tile = browser.find_element(By.ID, "tile-7")
    assert f"1 Konflikt(e) · {RETRIES}× gesendet" in tile.text, tile.text
    assert "red" in tile.get_attribute("class").split()
    _shot(browser, "abend-konflikt", (1920, 1080))


OLD_CONFLICTS = """CREATE TABLE conflicts (
    id INTEGER PRIMARY KEY AUTOINCREMENT, device TEXT NOT NULL, seq INTEGER NOT NULL,
    held_id TEXT NOT NULL, sent TEXT NOT NULL, at REAL NOT NULL)"""


def test_an_older_database_with_a_row_per_retry_opens_folded(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite3"
    store = SqliteCollectorStore(db)
    store.ensure_device(DEVICE, "Tisch 7", now=1.0)
    store.store_batch(DEVICE, journal_entries(table_list(1)), now=2.0)
    store.close()
    sent = [journal_entries(table_list(seed))[0] for seed in (2, 3)]
    as_old_code_wrote = [json.dumps({"prev": e.prev, "hash": e.hash, "event": e.event}) for e in sent]
    reordered = json.dumps({"event": sent[0].event, "hash": sent[0].hash, "prev": sent[0].prev})  # same content
    with sqlite3.connect(db) as old:  # as a collector before the count (and before schema_version) left it
        old.execute("DROP TABLE schema_version")
        old.execute("DROP TABLE conflicts")
        old.execute(OLD_CONFLICTS)
        rows = [(as_old_code_wrote[0], 10.0), (as_old_code_wrote[1], 11.0), (as_old_code_wrote[0], 12.0),
                (reordered, 13.0)]
        old.executemany("INSERT INTO conflicts (device, seq, held_id, sent, at) VALUES (?, 1, 'e', ?, ?)",
                        [(DEVICE, text, at) for text, at in rows])
    old.close()
    store = SqliteCollectorStore(db)
    try:
        folded = [(c.seq, c.sent["event"]["id"], c.count, c.at, c.last_at) for c in store.conflicts(DEVICE)]
        assert folded == [(1, sent[0].event["id"], 3, 10.0, 13.0), (1, sent[1].event["id"], 1, 11.0, 11.0)]
        with pytest.raises(Exception, match="conflict"):  # the same content once more: its row counts it
            store.store_batch(DEVICE, journal_entries(table_list(2)), now=20.0)
        assert [(c.count, c.last_at) for c in store.conflicts(DEVICE)] == [(4, 20.0), (1, 11.0)]
    finally:
        store.close()
    store = SqliteCollectorStore(db)  # opened again: nothing folded twice
    try:
        assert [c.count for c in store.conflicts(DEVICE)] == [4, 1]
    finally:
        store.close()
