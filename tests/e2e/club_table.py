"""A table process for the club page tests: the real service, store and sync client.

    python -m tests.e2e.club_table STORE_DIR --url URL --code CODE --name "Tisch 3" --players A,B,C,D

Pairs with the laptop (named ``--name``), then reads commands on stdin, one JSON line out each:

    play N       record games until N games are on the current list, wait until all are acked
    status       {"acked", "last_seq", "next_series"}: what the last ack carried
    open-next    sign the finished list, open the one the laptop sent (the tap at the table): {"players"}
    tag PAYLOAD  a member card on the reader at setup: {"refusals", "seated"}
    quit
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.hardware import UnknownCardScanned
from device.table import ConfirmList, OpenNextSeries, TableService
from ui.i18n import refusal_text
from drivers.store import TinyDBEventStore, device_id
from drivers.sync import STATE_FILE, SyncStateFile, make_client, pair_with_laptop
from tests.e2e.service_crash_writer import next_command
from ui.commands.run import answer_handler


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("directory")
    parser.add_argument("--url", required=True)
    parser.add_argument("--code", required=True)
    parser.add_argument("--name", required=True)
    parser.add_argument("--players", required=True)
    parser.add_argument("--length", type=int, default=48)
    args = parser.parse_args()
    store = TinyDBEventStore(args.directory)
    device = device_id(args.directory)
    SyncStateFile(Path(args.directory) / STATE_FILE).save(pair_with_laptop(args.url, args.code, device, name=args.name))
    service = TableService(store, device_id=device)
    latest: dict[str, Any] = {}
    lock = threading.Lock()

    table_answer = answer_handler(service, args.directory, wake=lambda: client.wake())

    def on_answer(answer: dict[str, Any]) -> None:  # as the table's composition root wires it
        with lock:
            latest.update(answer)
        table_answer(answer)

    client = make_client(store, args.directory, device, service.submit, timeout=2.0, backoff=(0.05, 0.5),
                         idle_poll=0.3, on_answer=on_answer)
    service.subscribe(lambda result: client.wake() if result.events else None)
    service.report_cards_to(client.send_card)
    client.start()
    players = tuple(args.players.split(","))
    print(json.dumps({"device": device}), flush=True)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "play":
            wanted = int(words[1])
            while True:
                snap = service.snapshot()
                if snap.list is not None and len(snap.list.rows) >= wanted:
                    break
                command = next_command(service, len(snap.list.rows) + 1 if snap.list else 1, players=players,
                                       length=args.length, card_by_card_every=5)
                for single in command if isinstance(command, list) else [command]:
                    service.submit(single)
                service.pump()
            deadline = time.monotonic() + 20
            while client.state.acked < service.snapshot().sync.last_seq and time.monotonic() < deadline:
                service.pump()
                time.sleep(0.05)
            print(json.dumps({"acked": client.state.acked, "last_seq": service.snapshot().sync.last_seq}), flush=True)
        elif words[0] == "status":
            service.pump()
            with lock:
                print(json.dumps({"acked": client.state.acked, "last_seq": service.snapshot().sync.last_seq,
                                  "next_series": latest.get("next_series"), "card_wanted": latest.get("card_wanted"),
                                  "roster": latest.get("roster")}), flush=True)
        elif words[0] == "open-next":
            service.pump()
            snap = service.snapshot()
            if snap.phase == "series_over" and snap.list is not None:  # the players sign the old list first
                for seat in range(len(snap.list.players)):
                    service.submit(ConfirmList(seat))
                service.pump()
            shown = snap.next_series
            service.submit(OpenNextSeries())
            result = service.pump()
            snap = service.snapshot()
            print(json.dumps({"shown": shown, "players": list(snap.players),
                              "refused": [refusal_text(r, "en") for r in result.refusals]}), flush=True)
        elif words[0] == "tag":  # a member card on the table's reader (a payload the deck does not know)
            service.submit(UnknownCardScanned(words[1], "unbekannt"))
            result = service.pump()
            print(json.dumps({"refusals": [r.code for r in result.refusals],
                              "seated": list(service.snapshot().setup.card_seats)}), flush=True)
        elif words[0] == "quit":
            break
    client.close()
    store.close()
    return 0


ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class RunningTable:
    """A table process started by :func:`running_table`: its device id; calling it sends a
    command line and returns the JSON answer."""

    device: str
    ask: Callable[[str], dict[str, Any]]

    def __call__(self, line: str) -> dict[str, Any]:
        return self.ask(line)


@contextmanager
def running_table(url: str, code: str, *, name: str, players: list[str] | tuple[str, ...],
                  length: int) -> Iterator[RunningTable]:
    """This module as a table process paired with the laptop at ``url``; quit and removed after."""
    directory = tempfile.mkdtemp(prefix="skattisch-table-")
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.e2e.club_table", directory, "--url", url, "--code", code,
         "--name", name, "--players", ",".join(players), "--length", str(length)],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert process.stdout is not None and process.stdin is not None
    device = json.loads(process.stdout.readline())["device"]

    def ask(line: str) -> dict[str, Any]:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(line + "\n")
        process.stdin.flush()
        answer: dict[str, Any] = json.loads(process.stdout.readline())
        return answer

    try:
        yield RunningTable(device, ask)
    finally:
        try:
            ask("quit")
        except (BrokenPipeError, ValueError):
            pass
        process.wait(timeout=15)
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
