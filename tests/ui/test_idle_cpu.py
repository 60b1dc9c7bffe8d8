"""An idle table uses no CPU: the real table, left alone on every screen, paired with a laptop
that answers (a real ``skattisch club`` process, the real sync client every 2 s) and unpaired.

Each screen is its own ``skattisch run`` process; they run side by side (an idle process does
not compete with the others) and each measures its own CPU time, every thread, over its
``sleep`` step (the runner's report: ``cpu_ms``). A bare Kivy window idles at about 1.5 % of a
core here; the table may spend at most :data:`MOST_PER_CENT`.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.ui.harness import ROOT, Run, run_app_child, run_table
from tests.ui.scenarios import direct_game, setup_steps

pytestmark = pytest.mark.ui

IDLE_SECONDS = 20
MOST_PER_CENT = 5.0
SETTLE = "sleep 4"  # the screens and buttons built ahead in idle time (once) are made first
PLAYERS = ("Anna", "Bernd", "Carla")
NAMES = ["wait_screen setup", "tap name_0", 'type "Anna"']
TO_RULES = setup_steps(PLAYERS)[:-2]  # the rules page, "Liste beginnen" not tapped yet
TO_BIDDING = setup_steps(PLAYERS)
TO_DECLARE = [*TO_BIDDING, "tap bid_18", "tap hold", "tap pass", "tap pass", "wait_screen declare"]
TO_PLAY = [*TO_DECLARE, "tap take_skat", "tap game_clubs", "tap declare", "wait_screen play"]
TO_RESULT = direct_game(0, 3, "clubs", 7, 80, 1)[:-2]  # the result shown, not confirmed
# screen -> (the steps there, what is done after the idle time: the table still answers)
SCREENS: dict[str, tuple[list[str], list[str]]] = {
    "setup-names": (NAMES, ['type "Bernd"']),  # the field kept its focus and takes more letters
    "setup-rules": (TO_RULES, ["tap setup_next", "wait_screen game"]),
    "bidding": (TO_BIDDING, ["tap bid_18", 'expect_text "18"']),
    "declaration": (TO_DECLARE, ["tap take_skat"]),
    "play": (TO_PLAY, ["tap result_direct"]),
    "result": ([*TO_BIDDING, *TO_RESULT], ["tap confirm_1"]),
    "list": ([*TO_BIDDING, "tap list", "wait_screen list"], ["tap close_list", "wait_screen game"]),
    "settings": ([*TO_BIDDING, "tap settings", "wait_screen settings"], ["tap close_settings", "wait_screen game"]),
    "end": ([*TO_BIDDING, *TO_RESULT, "tap confirm_1", "tap confirm_2", "tap list", "wait_screen list",
             "tap end_series", "tap end_series_yes", "wait_screen end"], ["wait_screen end"]),
}
SHOWN = {"setup-names": "setup", "setup-rules": "setup", "bidding": "game", "declaration": "declare", "play": "play",
         "result": "result", "list": "list", "settings": "settings", "end": "end"}  # the screen's name in the App


@pytest.fixture(scope="module")
def laptop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A real club laptop on 127.0.0.1: its URL and database."""
    pytest.importorskip("starlette")
    db = tmp_path_factory.mktemp("club") / "club.sqlite3"
    process = subprocess.Popen([sys.executable, "-m", "ui.cli", "club", "serve", "--db", str(db), "--host", "127.0.0.1",
                                "--port", "0", "--no-mdns"], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    try:
        assert process.stdout is not None
        found = re.search(r"(http://127\.0\.0\.1:\d+)", process.stdout.readline())
        assert found, "the collector did not start"
        yield found.group(1), db
    finally:
        process.terminate()
        process.wait(timeout=15)


def paired_config(laptop: tuple[str, Path], table_dir: Path, name: str) -> str:
    """The config of a table in ``table_dir`` paired with ``laptop`` (syncing every 2 s)."""
    from drivers.club.app import new_pairing_code
    from drivers.club.store import SqliteCollectorStore
    from drivers.store import device_id
    from drivers.sync import STATE_FILE, SyncStateFile, pair_with_laptop

    url, db = laptop
    store = SqliteCollectorStore(db)
    try:
        code = new_pairing_code(store, now=time.time())
    finally:
        store.close()
    SyncStateFile(table_dir / STATE_FILE).save(pair_with_laptop(url, code, device_id(table_dir), name=name))
    return f'[store]\npath = "{table_dir}"\n\n[sync]\nurl = "{url}"\ninterval_seconds = 2\n'


def idle_run(display: str, screen: str, config: str) -> Run:
    """The table taken to ``screen``, left alone, then used again."""
    steps, after = SCREENS[screen]
    return run_table(display, [*steps, SETTLE, f"sleep {IDLE_SECONDS}", *after], config=config, timeout=240)


def test_an_idle_table_uses_no_cpu_on_any_screen_paired_or_not(display: str, tmp_path: Path,
                                                                laptop: tuple[str, Path]) -> None:
    configs: dict[tuple[str, str], str] = {}
    for screen in SCREENS:
        unpaired, paired = tmp_path / f"{screen}-alone", tmp_path / f"{screen}-paired"
        unpaired.mkdir()
        paired.mkdir()
        configs[(screen, "unpaired")] = f'[store]\npath = "{unpaired}"\n'
        configs[(screen, "paired")] = paired_config(laptop, paired, f"Tisch {screen}")
    with ThreadPoolExecutor(len(configs)) as pool:
        runs = {key: pool.submit(idle_run, display, key[0], config) for key, config in configs.items()}
        done = {key: future.result() for key, future in runs.items()}
    spent: dict[str, float] = {}
    failed: dict[str, str] = {}
    for (screen, pairing), run in done.items():
        idle = next((line for line in run.report if line["step"] == f"sleep {IDLE_SECONDS}"), None)
        if idle is not None:
            assert idle["screen"] == SHOWN[screen], (screen, pairing, idle)
            spent[f"{screen} {pairing}"] = float(idle["cpu_ms"]) / 10 / IDLE_SECONDS  # per cent of a core
        if run.returncode != 0:
            failed[f"{screen} {pairing}"] = (run.stdout + run.stderr)[-600:]
    print("idle CPU, per cent of a core:", {key: round(value, 1) for key, value in sorted(spent.items())})
    assert not failed, f"the table failed: {failed}"
    too_much = {key: round(per_cent, 1) for key, per_cent in spent.items() if per_cent > MOST_PER_CENT}
    assert not too_much, f"idle over {MOST_PER_CENT} % of a core over {IDLE_SECONDS} s: {too_much}"


NEWS_CHILD = r"""
from device.table.commands import SyncStatus

def started(app):
    app.service.submit(SyncStatus(laptop="Vereinsheim", reachable=True, detail="one"))

    def news_shown():  # the service's next snapshot equals the one shown (the detail is not shown)
        before = app.service.snapshot()
        app.service.submit(SyncStatus(laptop="Vereinsheim", reachable=True, detail="other"))
        refreshes = app.counters.refreshes

        def counted():
            seen["equal"] = app.service.snapshot() == before and app.service.snapshot() is not before
            seen["refreshes"] = app.counters.refreshes - refreshes
            seen["pumps"] = app.counters.pumps
            app.stop()
        Clock.schedule_once(lambda _dt: counted(), 1.0)
    when(lambda: app.snapshot.sync.reachable and not app._refresh_trigger.is_triggered, news_shown, within=10)

store = MemoryEventStore(MemoryDisk(device_id="tisch-test"))
TableApp(TableService(store, device_id=store.device_id), simulate=True, on_started=started).run()
json.dump(seen, open(sys.argv[1], "w"))
"""


def test_a_new_snapshot_equal_to_the_one_shown_is_shown_once(display: str, tmp_path: Path) -> None:
    """The App's ``snapshot`` property keeps its old object when the new one is equal: the
    pump must not take that for a snapshot still to be shown (it refreshed at every pump)."""
    seen = run_app_child(NEWS_CHILD, display, tmp_path)
    assert seen["equal"], seen
    assert seen["refreshes"] <= 2, seen  # once (a second refresh from elsewhere may fall in); at every pump: 13 in 1 s


TYPING_CHILD = r"""
from device.table.commands import SyncStatus
from ui.table.screens.setup import NameField

def started(app):
    def typing():
        field = next(w for w in app.screen("setup").walk() if isinstance(w, NameField) and w.name == "name_0")
        field.focus = True
        field.text = "Jür"
        app.service.submit(SyncStatus(laptop="Vereinsheim", reachable=True))  # the laptop answers

        def after():
            seen["sync"] = app.status_bar.sync_text
            seen["same_field"] = any(w is field for w in app.screen("setup").walk())
            seen["focus"] = field.focus
            seen["text"] = field.text
            app.stop()
        when(lambda: app.status_bar.sync_text != "ohne Laptop", lambda: Clock.schedule_once(lambda _dt: after(), 0.3),
             within=10)
    Clock.schedule_once(lambda _dt: typing(), 0.5)

store = MemoryEventStore(MemoryDisk(device_id="tisch-test"))
TableApp(TableService(store, device_id=store.device_id), simulate=True, on_started=started).run()
json.dump(seen, open(sys.argv[1], "w"))
"""


def test_news_of_the_sync_leaves_a_name_being_typed_alone(display: str, tmp_path: Path) -> None:
    """The setup's page is built again only for what it shows: the sync's news changes the
    status bar, the field being typed in stays, with its text and the focus."""
    seen = run_app_child(TYPING_CHILD, display, tmp_path)
    assert seen["sync"] == "nicht synchronisiert", seen
    assert seen["same_field"] and seen["focus"] and seen["text"] == "Jür", seen


WAKE_CHILD = r"""
import threading
from device.table.commands import SyncStatus

def started(app):
    def idle():
        pumps = app.counters.pumps
        def news():
            seen["pumps_idle"] = app.counters.pumps - pumps  # 2 s without a command
            sent = time.perf_counter()
            thread = threading.Thread(target=app.service.submit, args=(SyncStatus(laptop="Vereinsheim", reachable=True),))
            thread.start()
            thread.join()
            def shown():
                seen["shown_after_s"] = time.perf_counter() - sent
                seen["sync"] = app.status_bar.sync_text
                app.stop()
            when(lambda: app.status_bar.sync_text != "ohne Laptop", shown, within=5)
        Clock.schedule_once(lambda _dt: news(), 2.0)
    Clock.schedule_once(lambda _dt: idle(), 1.0)

store = MemoryEventStore(MemoryDisk(device_id="tisch-test"))
TableApp(TableService(store, device_id=store.device_id), simulate=True, on_started=started).run()
json.dump(seen, open(sys.argv[1], "w"))
"""


def test_the_idle_table_pumps_only_when_a_command_arrives(display: str, tmp_path: Path) -> None:
    """No polling of the service: the sync's news, queued from its own thread, wakes the App."""
    seen = run_app_child(WAKE_CHILD, display, tmp_path)
    assert seen["pumps_idle"] <= 2, seen  # polled every 30 ms: about 66
    assert seen["sync"] == "nicht synchronisiert" and seen["shown_after_s"] < 0.5, seen
