"""A card from the reader's thread is pumped before the next frame, not at the pump's interval
(it waited up to two of Kivy's frames for the 30 ms interval before).

The real App in a child process on the test's Xvfb display, on a memory store; the interval is
set to a minute, so only the reader's wake-up can have taken the card.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ui.harness import run_app_child

pytestmark = pytest.mark.ui

CHILD = r"""
import threading
from device.cards import Card
from device.hardware import CardScanned
from ui.table import app as app_module

app_module.PUMP_SECONDS = 60.0  # the interval never comes round during the test

def started(app):
    pumps = app.counters.pumps
    sent = time.perf_counter()
    thread = threading.Thread(target=app.reader_submit, args=(CardScanned(Card.parse("SA"), source="reader"),))
    thread.start()
    thread.join()
    seen["in_flight_after_submit"] = app.in_flight

    def taken():
        seen["taken_after_s"] = time.perf_counter() - sent
        seen["in_flight"] = app.in_flight
        seen["pumps"] = app.counters.pumps - pumps
        seen["sent"] = [str(s.command) for s in app.counters.sent]
        app.stop()

    when(lambda: app.in_flight == 0, taken, within=5)

store = MemoryEventStore(MemoryDisk(device_id="tisch-test"))
TableApp(TableService(store, device_id=store.device_id), simulate=True, on_started=started).run()
json.dump(seen, open(sys.argv[1], "w"))
"""


def test_a_card_from_the_readers_thread_is_pumped_without_waiting_for_the_interval(
        display: str, tmp_path: Path) -> None:
    seen = run_app_child(CHILD, display, tmp_path)
    assert seen["in_flight_after_submit"] == 1  # handed over, not yet taken
    assert len(seen["sent"]) == 1 and seen["sent"][0].startswith("CardScanned("), seen["sent"]
    assert seen["in_flight"] == 0, f"the card was not pumped within 5 s: {seen}"
    assert seen["pumps"] >= 1
    assert seen["taken_after_s"] < 5
