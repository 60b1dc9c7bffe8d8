"""Crash safety of the whole table: a table recording 1,000 games on the
journal store is killed with SIGKILL at 200 random moments and restarted each time.

Every acknowledged game ("confirmed N" is printed only after the pump that put it on the list
returned, i.e. after its fsync) must be in the store exactly once, the events' seq must run
without gap, the journals must verify line by line, and a restarted service's state (from
its checkpoint plus the events after it) must equal the replay of the stored events.

Each kill is cheap: the writer is a fork of this test process (everything already imported),
so a kill and restart costs a few milliseconds instead of a Python start-up; and the store
lives in /dev/shm (memory) where there is one: a SIGKILL leaves the kernel's page cache
intact, so fsync does not matter for this test and would only make it wait on the disk.
Power cuts, where fsync does matter, are the fuzz test's part (tests/drivers/test_journal_fuzz.py).
``SKATTISCH_CRASH_KILLS`` / ``SKATTISCH_CRASH_GAMES`` run a bigger version.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from types import SimpleNamespace
from typing import Any

from device.table import Event, TableService, replay
from device.table.snapshot import _bidding, _play
from drivers.store import JournalEventStore
from tests.e2e.service_crash_writer import LIST_LENGTH, next_command

GAMES = int(os.environ.get("SKATTISCH_CRASH_GAMES", "1000"))
KILLS = int(os.environ.get("SKATTISCH_CRASH_KILLS", "200"))


def games_recorded(store: JournalEventStore, service: TableService) -> int:
    """Games on the table so far: earlier lists are full series, plus the current list's rows."""
    lists = len(store.list_ids())
    return 0 if not lists else LIST_LENGTH * (lists - 1) + len(service.state.rows)


class QuickView:
    """What ``next_command`` reads of the snapshot, without the list's figures (which cost the
    most and do not matter here): the writer then spends its time on the table and the store."""

    def __init__(self, service: TableService) -> None:
        self.service = service

    def snapshot(self) -> Any:
        state = self.service.state
        deal, phase = state.deal, state.phase
        active = deal.active if deal is not None else ()
        return SimpleNamespace(
            phase=phase, bidding=_bidding(state, deal) if deal is not None and phase == "bidding" else None,
            play=_play(state, deal) if deal is not None and phase == "playing" else None,
            seats=[SimpleNamespace(seat=s, position=active.index(s) if s in active else None)
                   for s in range(len(state.seating))])


def play(directory: Path, games: int, out: int) -> None:
    """The writer (in the forked child): go on from the store and print each durable game."""
    with JournalEventStore(directory) as store:
        service = TableService(store, device_id=store.device_id)
        done = games_recorded(store, service)
        while done < games:
            command = next_command(QuickView(service), done + 1)  # type: ignore[arg-type]
            for single in command if isinstance(command, list) else [command]:
                service.submit(single)
            for event in service.pump().events:
                if event.body.TYPE == "game_recorded":
                    done += 1
                    os.write(out, f"confirmed {done}\n".encode())


def start_writer(directory: Path) -> tuple[int, int]:
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child never returns into pytest
        code = 1
        try:
            os.close(read_end)
            play(directory, GAMES, write_end)
            code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    return pid, read_end


def confirmations(data: bytes) -> list[int]:
    """Game numbers from whole lines only."""
    return [int(line.split()[1]) for line in data.split(b"\n")[:-1]]


def run_until(directory: Path, rng: random.Random, stop_after: int | None) -> tuple[list[int], int]:
    """Start a writer; after ``stop_after`` confirmations kill it a random moment later."""
    pid, pipe = start_writer(directory)
    data = b""
    with os.fdopen(pipe, "rb", buffering=0) as reader:
        while stop_after is None or data.count(b"\n") < stop_after:
            chunk = reader.read(4096)
            if not chunk:
                break
            data += chunk
        if stop_after is not None:
            time.sleep(rng.uniform(0, 0.004))  # somewhere in the next pump or two
            os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        data += reader.read()
    return confirmations(data), status


def check_restart_equals_replay(directory: Path) -> list[dict[str, object]]:
    with JournalEventStore(directory) as store:
        every = [e for list_id in store.list_ids() for e in store.load(list_id)]  # verifies every line
        service = TableService(store, device_id=store.device_id)
        latest = service.list_id
        if latest is not None:
            assert service.state == replay([Event.from_json(d) for d in store.load(latest)])
    return every


@pytest.fixture
def memory_dir(tmp_path: Path) -> Iterator[Path]:
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield tmp_path
        return
    directory = Path(tempfile.mkdtemp(prefix="skattisch-crash-", dir=shm))
    try:
        yield directory
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def test_a_table_killed_at_random_moments_loses_no_acknowledged_game(memory_dir: Path) -> None:
    seed = int.from_bytes(os.urandom(4), "big")
    rng = random.Random(seed)
    directory = memory_dir / "store"
    confirmed: list[int] = []
    killed = 0
    attempts = 0
    while killed < KILLS:  # a kill may come after a writer already stopped: count only real ones
        attempts += 1
        assert attempts <= 2 * KILLS, f"seed {seed}: only {killed} of {attempts} kills hit a running writer"
        # 1–6 games a writer (about 4 with the one in flight): 200 kills stay well inside GAMES
        got, status = run_until(directory, rng, stop_after=rng.randint(1, 6))
        confirmed += got
        killed += os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
        assert os.WIFSIGNALED(status) or os.waitstatus_to_exitcode(status) == 0, f"seed {seed}: writer failed"
        if attempts % 20 == 0:
            stored = sum(e["type"] == "game_recorded" for e in check_restart_equals_replay(directory))
            assert stored >= max(confirmed, default=0), f"seed {seed}: an acknowledged game is missing"
    got, status = run_until(directory, rng, stop_after=None)
    confirmed += got
    assert os.waitstatus_to_exitcode(status) == 0, f"seed {seed}: the last writer failed"

    events = check_restart_equals_replay(directory)
    recorded = [e for e in events if e["type"] == "game_recorded"]
    assert len(recorded) == GAMES, f"seed {seed}"  # every game once: none lost, none twice
    per_list = [(e["list_id"], e["data"]["entry"]) for e in recorded]  # type: ignore[index]
    assert len(set(per_list)) == GAMES
    # A lost acknowledged game would be played and acknowledged again under its number.
    assert len(confirmed) == len(set(confirmed)) and set(confirmed) <= set(range(1, GAMES + 1)), f"seed {seed}"
    assert len(confirmed) >= GAMES - KILLS  # only a game in flight at a kill may go unacknowledged
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1)), f"seed {seed}: seq gap"
    print(f"seed {seed}: {killed} kills over {GAMES} games")
