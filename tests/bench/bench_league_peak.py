"""A match day's evening peak at the league: ``--clubs`` clubs forward at once while ``--readers``
readers load the match day's ranking (``/wertung``), over HTTPS through Caddy and, in the same
run, over plain HTTP straight to the league (the baseline).

* The league: ``skattisch league serve`` (its own process, SQLite; ``--postgres``: a real
  PostgreSQL server, tests/pg_server.py), a fresh database for each of the two runs.
* HTTPS: Caddy (its own process) running deploy/league/Caddyfile with a certificate for
  localhost from a CA made for the run (tests/e2e/proxy_helpers.py); the clients check it.
* Each club: paired over the network (the real pairing request), then its table's list (one
  list of ``--games`` games, one event per game as a table condenses it; ``--scanned``: every
  card scanned, about 1,800 events a list) forwarded by the club's own client
  (:class:`drivers.sync.SyncClient`, signed as the club, to ``/api/v1/forward``, ``--batch``
  events a request: 10 as a club forwards while its tables play, 200 as one catching up), all
  clubs at once, one thread each, in this process.
* The readers: another process, ``--readers`` connections at once (asyncio), all connected
  before the clubs start, each loading ``/wertung?tag=…`` ``--reads`` times one after another.

Reported per run: every forward acknowledged (and the league holding every event of every
list: nothing lost), the time until the last ack, the readers' p50/p99/max and failures; then
HTTPS against HTTP as ratios. Goal: the readers' p99 within 1 s. Only 127.0.0.1; every loop
bounded.

    .venv/bin/python -m tests.bench.bench_league_peak                  # 50 clubs, 200 readers
    .venv/bin/python -m tests.bench.bench_league_peak --scanned --batch 200   # every club catching up at once
    .venv/bin/python -m tests.bench.bench_league_peak --postgres
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import json
import os
import random
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from device.journal import JournalEntry, canonical_json
from device.sync import PROTOCOL_VERSION, entry_json, journal_entries
from drivers.league.store import open_league_store
from drivers.sync import LaptopError, SyncClient, SyncState, pair_with_laptop
from tests.bench.bench_sync import one_evening, table_events
from tests.club_helpers import NAMES, list_events, random_entries
from tests.e2e.league_helpers import League, ListEntries, Organiser
from tests.e2e.proxy_helpers import CaddyProxy, LocalCA, make_test_ca

P99_GOAL = 1.0
ROOT = Path(__file__).resolve().parents[2]


class MemoryState:
    """A club's cursor for one table, in memory (the club keeps it in its store)."""

    def __init__(self, state: SyncState) -> None:
        self.state = state

    def load(self) -> SyncState:
        return self.state

    def save(self, state: SyncState) -> None:
        self.state = state


def club_lists(clubs: int, games: int, scanned: bool) -> list[list[JournalEntry]]:
    """Each club's table's list: condensed (one event per game) or every card scanned."""
    if scanned:
        template = one_evening(games)
        return [journal_entries(table_events(template, club + 1)) for club in range(clubs)]
    return [club_list(club, games) for club in range(clubs)]


def club_list(club: int, games: int) -> list[JournalEntry]:
    """One table's list of club ``club``, one event per game."""
    device = f"peak-{club:03d}-t1"
    players = tuple(NAMES[(club + i) % len(NAMES)] for i in range(3))
    return journal_entries(list_events(device, f"{device}-l1", players, random_entries(random.Random(club), 3, games)))


def forward_body(today: str) -> Any:
    def body(device: str, entries: Sequence[JournalEntry]) -> bytes:
        lists = {str(e.event["list_id"]) for e in entries}
        return canonical_json({"v": PROTOCOL_VERSION, "device": device, "name": "Tisch 1",
                               "entries": [entry_json(e) for e in entries],
                               "lists": {i: {"evening": today, "series": 1, "table": 1} for i in lists}})
    return body


def pair_clubs(league: League, url: str, clubs: int) -> list[SyncState]:
    """Each club paired over ``url`` (the league's own pairing request, through the proxy)."""
    return [pair_with_laptop(url, league.code(f"Verein {n + 1}"), f"club-peak-{n:03d}", name=f"Verein {n + 1}")
            for n in range(clubs)]


@contextlib.contextmanager
def trusting(ca: Path | None) -> Iterator[None]:
    """The clubs' clients trust ``ca`` (as a club given SSL_CERT_FILE does); certificate checks stay on."""
    before = os.environ.get("SSL_CERT_FILE")
    if ca is not None:
        os.environ["SSL_CERT_FILE"] = str(ca)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("SSL_CERT_FILE", None)
        else:
            os.environ["SSL_CERT_FILE"] = before


def forward_all(states: list[SyncState], lists: list[list[JournalEntry]], today: str, batch: int,
                deadline: float) -> tuple[float, int, int]:
    """Every club forwards its list at once (one thread each): (seconds to the last ack, acked lists, retries)."""
    acked = [0] * len(states)
    retries = [0] * len(states)

    def run(n: int) -> None:
        entries = lists[n]
        client = SyncClient(ListEntries(entries), MemoryState(states[n]), device=str(entries[0].event["device"]),  # type: ignore[arg-type]
                            signer=f"club-peak-{n:03d}", endpoint="forward", make_body=forward_body(today),
                            batch_size=batch, timeout=30.0)
        while time.monotonic() < deadline:
            try:
                more = client.sync_once()
            except LaptopError:
                retries[n] += 1
                time.sleep(0.2)
                continue
            if not more and client.state.acked >= len(entries):
                acked[n] = 1
                return

    began = time.perf_counter()
    threads = [threading.Thread(target=run, args=(n,), daemon=True) for n in range(len(states))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    return time.perf_counter() - began, sum(acked), sum(retries)


# -- the readers (their own process) ---------------------------------------------------------


async def _read_one(host: str, port: int, path: str, context: ssl.SSLContext | None, reads: int,
                    times: list[tuple[float, float]], failures: list[str], connected: asyncio.Barrier) -> None:
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(
            host, port, ssl=context, server_hostname=host if context else None), 30)
    except (OSError, asyncio.TimeoutError) as exc:
        failures.append(f"connect: {exc!r}")
        await connected.wait()
        return
    try:
        await asyncio.wait_for(connected.wait(), 60)  # every reader connected: then all load at once
        for _ in range(reads):
            began, wall = time.perf_counter(), time.time()
            writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
            status = await asyncio.wait_for(_response(reader), 60)
            times.append((wall, time.perf_counter() - began))
            if status != 200:
                failures.append(f"status {status}")
    except (OSError, asyncio.TimeoutError, ValueError) as exc:
        failures.append(repr(exc))
    finally:
        writer.close()


async def _response(reader: asyncio.StreamReader) -> int:
    """One response read whole (Content-Length or chunked); its status."""
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
    status = int(head[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in head[1:] if line)}
    if "content-length" in headers:
        await reader.readexactly(int(headers["content-length"]))
    elif headers.get("transfer-encoding") == "chunked":
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            await reader.readexactly(size + 2)
            if size == 0:
                break
    return status


def readers_main(url: str, path: str, readers: int, reads: int, ca: str) -> dict[str, Any]:
    parts = urllib.parse.urlsplit(url)
    context = ssl.create_default_context(cafile=ca) if parts.scheme == "https" else None
    times: list[tuple[float, float]] = []
    failures: list[str] = []

    async def all_readers() -> None:
        connected = asyncio.Barrier(readers + 1)
        tasks = [asyncio.create_task(_read_one(parts.hostname or "", parts.port or 0, path, context, reads, times,
                                               failures, connected)) for _ in range(readers)]
        await asyncio.wait_for(connected.wait(), 60)
        print("ready", flush=True)  # the clubs start forwarding now
        await asyncio.gather(*tasks)
    asyncio.run(all_readers())
    return {"times": times, "failures": failures}


def start_readers(url: str, path: str, readers: int, reads: int, ca: Path | None) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "tests.bench.bench_league_peak", "--readers-at", url, "--path", path,
                             "--readers", str(readers), "--reads", str(reads), "--ca", str(ca or "")],
                            cwd=ROOT, stdout=subprocess.PIPE, text=True)


# -- one run ----------------------------------------------------------------------------------


def measure(directory: Path, *, https: bool, tls: LocalCA, clubs: int, readers: int, reads: int, games: int,
            scanned: bool, batch: int, target: str = "", limit: float = 300.0) -> dict[str, Any]:
    """One peak: over HTTPS through Caddy, or plain HTTP straight to the league."""
    directory.mkdir(parents=True, exist_ok=True)
    league = League(target or directory / "league.sqlite3")
    caddy = None
    try:
        today = datetime.date.today().isoformat()
        Organiser(league.url, league.db).post("/verwaltung", aktion="spieltag", datum=today, titel="Spieltag")
        url = league.url
        if https:
            caddy = CaddyProxy(league.port, tls, directory / "caddy")
            url = caddy.url
        lists = club_lists(clubs, games, scanned)
        with trusting(tls.ca if https else None):
            states = pair_clubs(league, url, clubs)
            deadline = time.monotonic() + limit
            reading = start_readers(url, f"/wertung?tag={today}", readers, reads, tls.ca if https else None)
            assert reading.stdout is not None and reading.stdout.readline().strip() == "ready", "the readers did not connect"
            took, acked, retries = forward_all(states, lists, today, batch, deadline)
            forwarded = time.time()
        out, _ = reading.communicate(timeout=max(1.0, deadline - time.monotonic()))
        read = json.loads(out)
        held = _held(league.db, lists)
        times = sorted(d for _, d in read["times"])
        during = sorted(d for wall, d in read["times"] if wall < forwarded)  # begun while clubs still forwarded
        return {"during": len(during), "p99_during_s": _p99(during),"https": https, "clubs": clubs, "acked": acked, "retries": retries, "forward_s": took,
                "events": sum(len(x) for x in lists), "held": held, "reads": len(times),
                "read_failures": len(read["failures"]), "failure_sample": read["failures"][:3],
                "p50_s": statistics.median(times) if times else float("nan"),
                "p99_s": _p99(times),
                "max_s": times[-1] if times else float("nan")}
    finally:
        if caddy is not None:
            caddy.close()
        league.stop()


def _p99(times: list[float]) -> float:
    return times[min(len(times) - 1, int(len(times) * 0.99))] if times else float("nan")


def _held(db: Path | str, lists: list[list[JournalEntry]]) -> int:
    store = open_league_store(db)
    try:
        return sum(min(store.events.held(str(x[0].event["device"])), len(x)) for x in lists)
    finally:
        store.close()


def report(plain: dict[str, Any], secure: dict[str, Any], readers: int) -> str:
    lines = []
    for run in (plain, secure):
        kind = "HTTPS through Caddy" if run["https"] else "HTTP straight to the league"
        lines.append(f"{kind}: {run['acked']}/{run['clubs']} clubs' forwards acknowledged in {run['forward_s']:.2f} s "
                     f"({run['retries']} retries), {run['held']}/{run['events']} events held "
                     f"({'nothing lost' if run['held'] == run['events'] else 'LOST ' + str(run['events'] - run['held'])}); "
                     f"{readers} readers, {run['reads']} loads of /wertung: p50 {run['p50_s'] * 1000:.0f} ms, "
                     f"p99 {run['p99_s'] * 1000:.0f} ms = {run['p99_s'] / P99_GOAL:.2f} x goal ({P99_GOAL:.0f} s), "
                     f"max {run['max_s'] * 1000:.0f} ms, {run['read_failures']} failed; the {run['during']} loads begun "
                     f"while the clubs forwarded: p99 {run['p99_during_s'] * 1000:.0f} ms")
    lines.append(f"HTTPS / HTTP: forwards {secure['forward_s'] / plain['forward_s']:.2f} x the time, readers' p99 "
                 f"{secure['p99_s'] / plain['p99_s']:.2f} x, p50 {secure['p50_s'] / plain['p50_s']:.2f} x")
    return "\n".join(lines)


def run_both(directory: Path, *, clubs: int, readers: int, reads: int, games: int, scanned: bool = False,
             batch: int = 10, targets: tuple[str, str] = ("", "")) -> tuple[dict[str, Any], dict[str, Any]]:
    tls = make_test_ca(directory / "ca")
    options = {"tls": tls, "clubs": clubs, "readers": readers, "reads": reads, "games": games, "scanned": scanned,
               "batch": batch}
    plain = measure(directory / "http", https=False, target=targets[0], **options)  # type: ignore[arg-type]
    secure = measure(directory / "https", https=True, target=targets[1], **options)  # type: ignore[arg-type]
    return plain, secure


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else "")
    parser.add_argument("--clubs", type=int, default=50)
    parser.add_argument("--readers", type=int, default=200)
    parser.add_argument("--reads", type=int, default=5, help="loads of /wertung per reader")
    parser.add_argument("--games", type=int, default=36)
    parser.add_argument("--batch", type=int, default=10,
                        help="events per forward (10: a club forwarding as its tables play; 200: catching up)")
    parser.add_argument("--scanned", action="store_true", help="every card scanned (about 1,800 events a list)")
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--readers-at", help=argparse.SUPPRESS)  # the readers' own process
    parser.add_argument("--path", help=argparse.SUPPRESS)
    parser.add_argument("--ca", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.readers_at:
        print(json.dumps(readers_main(args.readers_at, args.path, args.readers, args.reads, args.ca)))
        return 0
    server: Any = None
    if args.postgres:
        from tests.pg_server import PostgresServer

        server = PostgresServer(durable=True).start()
    try:
        with tempfile.TemporaryDirectory(prefix="skattisch-league-peak-") as tmp:
            targets = (server.new_database(), server.new_database()) if server else ("", "")
            plain, secure = run_both(Path(tmp), clubs=args.clubs, readers=args.readers, reads=args.reads,
                                     games=args.games, scanned=args.scanned, batch=args.batch, targets=targets)
    finally:
        if server is not None:
            server.stop()
    print(("PostgreSQL\n" if server else "SQLite\n") + report(plain, secure, args.readers))
    return 0


if __name__ == "__main__":
    sys.exit(main())
