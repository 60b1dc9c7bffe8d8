"""The club laptop's words about the league: a real ``skattisch league serve`` process refusing a
club (a wrong pairing code, a club it does not know) is "the league refused …" in the club's
errors and log, never "the laptop refused …" (those words are a table's, about its laptop)."""

from __future__ import annotations

import logging
import random
import time
from pathlib import Path

import pytest

from device.sync import journal_entries
from drivers.club.store import SqliteCollectorStore
from drivers.league import forward as league
from drivers.sync import LaptopError
from tests.club_helpers import NAMES, list_events, random_entries
from tests.e2e.league_helpers import League


def test_the_clubs_errors_and_log_name_the_league(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    server = League(tmp_path / "league.sqlite3")
    store = SqliteCollectorStore(tmp_path / "club.sqlite3")
    forwarder: league.Forwarder | None = None
    try:
        with pytest.raises(LaptopError) as refused:
            league.pair_with_league(store, server.url, "000000", name="Pik As")
        assert str(refused.value).startswith("the league refused: this league pairing code is not valid"), refused.value
        with pytest.raises(LaptopError) as unreachable:
            league.pair_with_league(store, "http://127.0.0.1:9", "000000")
        assert str(unreachable.value).startswith("the league at http://127.0.0.1:9 cannot be reached"), unreachable.value

        device = "tisch-words"
        store.ensure_device(device, "Tisch 1", now=time.time())
        store.store_batch(device, journal_entries(list_events(device, f"{device}-l1", NAMES[:4],
                                                              random_entries(random.Random(1), 4, 3))), now=time.time())
        store.set_document(league.LINK, {"url": server.url, "club": "club-unknown", "secret": "ab" * 32,
                                         "league": "Bezirksliga Test"})  # a club the league does not know
        caplog.set_level(logging.WARNING, logger="drivers.sync")
        forwarder = league.Forwarder(store, poll=0.1, backoff=(0.1, 0.5))
        forwarder.start()
        deadline = time.monotonic() + 20
        while not any("refused" in r.getMessage() for r in caplog.records):
            assert time.monotonic() < deadline, [r.getMessage() for r in caplog.records]
            time.sleep(0.1)
    finally:
        if forwarder is not None:
            forwarder.close()
        store.close()
        server.stop()
    said = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert all("the league refused: the club club-unknown is not paired" in line for line in said), said
    assert not any("laptop" in r.getMessage() for r in caplog.records), [r.getMessage() for r in caplog.records]
