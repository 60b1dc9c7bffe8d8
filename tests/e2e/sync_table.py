"""A table process for the sync tests: the real service over the real store, with its sync client.

    python -m tests.e2e.sync_table STORE_DIR [--every N] [--timeout S] [--backoff-max S] [--app-version V]

The sync state (paired laptop, secret, acknowledged seq) is ``STORE_DIR/sync.json``. Reads
commands on stdin, one per line, and answers with one JSON line each:

    play N    record games until N games are on the table's lists (every N-th card by card)
    status    {"last_seq", "acked", "games", "batches"}
    quit      close the client and the store, exit 0

On start it prints ``{"start": {"acked": ..., "last_seq": ...}}``: where the sync resumes.
"""

from __future__ import annotations

import argparse
import functools
import json
import queue
import sys
import threading

from device.sync import batch_body
from device.table import TableService
from drivers.store import TinyDBEventStore, device_id
from drivers.sync import make_client
from tests.e2e.service_crash_writer import next_command, recorded_games


def say(value: object) -> None:
    print(json.dumps(value), flush=True)


def play_until(service: TableService, store: TinyDBEventStore, games: int, every: int) -> int:
    done = recorded_games(store)
    while done < games:
        command = next_command(service, done + 1, card_by_card_every=every)
        for single in command if isinstance(command, list) else [command]:
            service.submit(single)
        result = service.pump()
        done += sum(1 for e in result.events if e.type == "game_recorded")
    return done


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("directory")
    parser.add_argument("--every", type=int, default=4, help="every N-th game card by card")
    parser.add_argument("--timeout", type=float, default=2.0)
    parser.add_argument("--backoff-max", type=float, default=1.0)
    parser.add_argument("--batch", type=int, default=50, help="entries per batch")
    parser.add_argument("--app-version", help="send this version instead of the installed one (a table on another "
                                              "version); 'none': send none, as tables before the field did")
    args = parser.parse_args()
    store = TinyDBEventStore(args.directory)
    device = device_id(args.directory)
    service = TableService(store, device_id=device)
    version = {"app_version": None if args.app_version == "none" else args.app_version}
    body = {} if args.app_version is None else {"make_body": functools.partial(batch_body, **version)}
    client = make_client(store, args.directory, device, service.submit, timeout=args.timeout,
                         backoff=(0.05, args.backoff_max), idle_poll=1.0, batch_size=args.batch, **body)
    service.subscribe(lambda result: client.wake() if result.events else None)
    say({"start": {"acked": client.state.acked, "last_seq": service.last_seq, "device": device}})
    client.start()
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in sys.stdin], daemon=True).start()
    while True:
        service.pump()  # takes the client's SyncAcknowledged
        try:
            line = lines.get(timeout=0.05).split()
        except queue.Empty:
            continue
        if not line or line[0] == "quit":
            break
        if line[0] == "play":
            say({"played": play_until(service, store, int(line[1]), args.every)})
        elif line[0] == "status":
            service.pump()
            say({"last_seq": service.last_seq, "acked": client.state.acked, "games": recorded_games(store),
                 "batches": client.sent_batches, "error": client.last_error.code if client.last_error else ""})
    client.close()
    store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
