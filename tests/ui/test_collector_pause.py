"""A pumped command's frame comes before a garbage collection its work would start
(``ui.table.app.collect_after_drawn``): at Pi-class a middle collection took 28 ms
from the card that started it. The collector is paused from the pump that takes a card to the
frame that shows it, and runs (by CPython's own thresholds) after the frame.

(Collections before the pump, while the reader's thread hands the card over, are not paused.)

The real App in a child process on the test's Xvfb display, on a memory store, a game being
played; the young generation's threshold set to one object, so without the pause nearly
every allocation of the card's work would start a collection.
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
from device.table import commands as cmd
from tests.ui.scenarios import play_order

collections = []  # (generation, the card's phase: "sent", "pumped", "shown")
phase = ["idle"]
gc.callbacks.append(lambda stage, info: stage == "start" and collections.append((info["generation"], phase[0])))

def started(app):
    pump = app.service.pump

    def pumped(*args, **kwargs):  # the card's work begins
        if phase[0] == "sent":
            phase[0] = "pumped"
        return pump(*args, **kwargs)
    app.service.pump = pumped
    gc.set_threshold(1, 10, 10)
    shown = app.counters.refreshes
    phase[0] = "sent"
    threading.Thread(target=app.reader_submit, args=(CardScanned(Card.parse(first_card), source="reader"),)).start()

    def flipped(*_args):
        if app.counters.refreshes > shown and phase[0] == "pumped":
            phase[0] = "shown"
            seen["collecting_at_frame"] = gc.isenabled()
            Window.unbind(on_flip=flipped)
            Clock.schedule_once(lambda _dt: done(app), 0.2)
    Window.bind(on_flip=flipped)

def done(app):
    seen["collecting_after"] = gc.isenabled()
    seen["on_screen"] = sorted(c.card for c in app.snapshot.play.trick.cards)
    seen["collections"] = collections
    gc.set_threshold(700, 10, 10)
    app.stop()

order = play_order("clubs", ["SA ST SK SQ S9 S8 HA HT HK HQ", "CJ SJ HJ DJ CA CT CK CQ C9 C8",
                             "H9 H8 H7 DA DT DK DQ D9 D8 D7"], tricks=9)
first_card = order[0]
store = MemoryEventStore(MemoryDisk(device_id="tisch-test"))
service = TableService(store, device_id=store.device_id)
for command in (cmd.OpenList(("Anna", "Bernd", "Carla"), series_length=None), cmd.Bid(1, 18), cmd.Pass(0),
                cmd.Pass(2), cmd.TakeSkat(), cmd.Declare.parse("clubs")):
    service.handle(command)
seen["first_card"] = first_card
TableApp(service, simulate=True, on_started=started).run()
json.dump(seen, open(sys.argv[1], "w"))
"""


def test_a_cards_frame_comes_before_the_collection_its_work_would_start(display: str, tmp_path: Path) -> None:
    seen = run_app_child(CHILD, display, tmp_path)
    assert seen["on_screen"] == [seen["first_card"]]  # the card was taken and shown
    during = [c for c in seen["collections"] if c[1] == "pumped"]
    after = [c for c in seen["collections"] if c[1] == "shown"]
    assert not during, f"collections between the card's pump and its frame: {len(during)}"
    assert after, "the collector did not run again after the frame"
    assert seen["collecting_after"] is True
