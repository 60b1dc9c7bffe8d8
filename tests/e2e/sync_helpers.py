"""Processes for the sync tests: the collector (``skattisch club serve``) and table processes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from drivers.club.app import new_pairing_code
from drivers.club.store import open_store
from drivers.store import TinyDBEventStore, device_id
from drivers.sync import STATE_FILE, SyncStateFile, pair_with_laptop

ROOT = Path(__file__).resolve().parents[2]


class ServerProcess:
    """A server of ours in its own process (``process``): killed as by a power cut, or stopped."""

    process: subprocess.Popen[str] | None

    def kill(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


class Collector(ServerProcess):
    """``skattisch club`` in its own process on 127.0.0.1 (port 0 first, the same port after a restart),
    on a SQLite file or a ``postgresql://`` database."""

    def __init__(self, db: Path | str, port: int = 0, *, mdns: bool = False, extra: Sequence[str] = ()) -> None:
        self.db = db
        self.port = port
        self.mdns = mdns
        self.extra = tuple(extra)  # more options of ``club serve`` (e.g. --league URL)
        self.process: subprocess.Popen[str] | None = None
        self.start()

    def start(self) -> None:
        args = [sys.executable, "-m", "ui.cli", "club", "serve", "--db", str(self.db), "--host", "127.0.0.1",
                "--port", str(self.port)]
        args += ["--mdns-interface", "127.0.0.1"] if self.mdns else ["--no-mdns"]
        args += self.extra
        for attempt in range(50):  # after a kill the port may need a moment
            self.process = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            assert self.process.stdout is not None
            line = self.process.stdout.readline()
            while line and "listening on" not in line:  # mDNS notes, the league's pairing
                line = self.process.stdout.readline()
            if "listening on" in line:
                self.url = line.split("listening on ")[1].strip()
                self.port = int(self.url.rsplit(":", 1)[1])
                return
            self.process.wait(5)
            time.sleep(0.1)
        raise AssertionError(f"the collector did not start: {self.process.stderr.read() if self.process.stderr else ''}")



def pair_table(directory: Path, collector: Collector, *, sync_url: str | None = None, name: str = "") -> str:
    """Pair the table whose store is ``directory`` with the collector (a code as ``club pair`` makes
    it, the real pairing request), and let it sync through ``sync_url`` (e.g. a fault proxy)."""
    store = open_store(collector.db)
    try:
        code = new_pairing_code(store, now=time.time())
    finally:
        store.close()
    device = device_id(directory)
    state = pair_with_laptop(collector.url, code, device, name=name or directory.name)
    if sync_url is not None:
        state = type(state)(url=sync_url, secret=state.secret, laptop=state.laptop, acked=state.acked)
    SyncStateFile(directory / STATE_FILE).save(state)
    return device


class TableProcess:
    """``tests.e2e.sync_table`` in its own process, driven line by line."""

    def __init__(self, directory: Path, *extra: str) -> None:
        self.directory = directory
        self.extra = extra
        self.start()

    def start(self) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "tests.e2e.sync_table", str(self.directory), *self.extra],
                                        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True)
        self.started = self.read()["start"]

    def read(self) -> Any:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise AssertionError(f"table process ended: {self.process.stderr.read() if self.process.stderr else ''}")
        return json.loads(line)

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def ask(self, line: str) -> Any:
        self.send(line)
        return self.read()

    def kill(self) -> None:
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def quit(self) -> None:
        if self.process.poll() is None:
            self.send("quit")
            self.process.wait(20)
        assert self.process.returncode == 0, self.process.stderr.read() if self.process.stderr else ""


def wait_until_synced(tables: list[TableProcess], timeout: float) -> list[dict[str, Any]]:
    deadline = time.monotonic() + timeout
    while True:
        statuses = [t.ask("status") for t in tables]
        if all(s["acked"] == s["last_seq"] for s in statuses):
            return statuses
        if time.monotonic() > deadline:
            raise AssertionError(f"not synced within {timeout} s: {statuses}")
        time.sleep(0.2)


def assert_laptop_holds_the_tables(laptop: Any, directories: Sequence[Path], devices: Sequence[str],
                                   final: Sequence[dict[str, Any]], games: int | None = None) -> None:
    """The laptop's store holds each table's lists event for event, in order, and nothing besides
    (``final``: the tables' last status); with ``games``, each table recorded that many games."""
    assert {t.device for t in laptop.tables()} == set(devices)
    for directory, device, status in zip(directories, devices, final):
        store = TinyDBEventStore(directory)
        try:
            table_lists = {list_id: store.load(list_id) for list_id in store.list_ids()}
        finally:
            store.close()
        if games is not None:
            assert sum(1 for events in table_lists.values() for e in events if e["type"] == "game_recorded") == games
        laptop_lists = {info.list_id: laptop.events(device, info.list_id) for info in laptop.lists(device)}
        assert laptop_lists == table_lists  # event for event, in order
        assert laptop.held(device) == status["last_seq"] == sum(len(e) for e in table_lists.values())
    assert laptop.conflicts() == []
