"""Power-cut fuzz: damage a real table's journal the way a power cut or a bad SD card
does — truncate it, zero a 4 KiB page, flip a byte, change one character inside a JSON string —
at random offsets, 240 times. ``skattisch store check`` must report every one; after
``skattisch store recover`` every event before the damage is there and the table starts (its
state is the replay of what is kept). A few trials also start the real ``skattisch run``.

The commands run in this process through their own ``run`` function (the same code as the
command line, without 480 Python start-ups); ``SKATTISCH_FUZZ_TRIALS`` runs more.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from device.table import Event, TableService, replay
from drivers.store import JournalEventStore
from tests.e2e.service_crash_writer import next_command
from ui.commands import store as store_command

ROOT = Path(__file__).resolve().parents[2]
TRIALS = int(os.environ.get("SKATTISCH_FUZZ_TRIALS", "240"))
PAGE = 4096


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, list[dict[str, object]]]:
    """A real table's store: four games, one of them scanned card by card (~70 events)."""
    directory = tmp_path_factory.mktemp("template") / "store"
    with JournalEventStore(directory) as store:
        service = TableService(store, device_id=store.device_id)
        done = 0
        while done < 4:
            command = next_command(service, done + 1, card_by_card_every=4)
            for single in command if isinstance(command, list) else [command]:
                service.submit(single)
            done += sum(1 for e in service.pump().events if e.body.TYPE == "game_recorded")
        list_id = store.list_ids()[-1]
        return directory, list_id, store.load(list_id)


def boundaries(data: bytes) -> set[int]:
    return {0} | {m.end() for m in re.finditer(b"\n", data)}


def truncate(data: bytes, rng: random.Random) -> bytes:
    ends = boundaries(data)
    cut = rng.choice([n for n in range(1, len(data)) if n not in ends] or [1])
    return data[:cut]  # a cut exactly at a line end would just be fewer events: not damage


def zero_page(data: bytes, rng: random.Random) -> bytes:
    start = rng.randrange(0, len(data) // PAGE + 1) * PAGE
    return data[:start] + b"\x00" * len(data[start:start + PAGE]) + data[start + PAGE:]


def flip_byte(data: bytes, rng: random.Random) -> bytes:
    at = rng.randrange(len(data))
    return data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1:]


def change_character(data: bytes, rng: random.Random) -> bytes:
    strings = [m for m in re.finditer(rb'"([A-Za-z0-9_:.+-]+)"', data)]
    match = rng.choice(strings)
    at = rng.randrange(match.start(1), match.end(1))
    new = rng.choice([c for c in b"abcdefxyz0123456789" if c != data[at]])
    return data[:at] + bytes([new]) + data[at + 1:]


DAMAGES: dict[str, Callable[[bytes, random.Random], bytes]] = {
    "truncate": truncate, "zero a page": zero_page, "flip a byte": flip_byte,
    "change a character": change_character,
}


def intact_lines(original: bytes, damaged: bytes) -> int:
    """How many whole lines before the first changed byte."""
    differ = next((i for i, (a, b) in enumerate(zip(original, damaged)) if a != b), min(len(original), len(damaged)))
    return sum(1 for end in boundaries(original) if 0 < end <= differ)


def command(action: str, directory: Path) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = store_command.run(argparse.Namespace(action=action, path=str(directory), config=None))
    return code, out.getvalue()


def test_every_power_cut_damage_is_reported_and_recovered(
        template: tuple[Path, str, list[dict[str, object]]], tmp_path: Path) -> None:
    source, list_id, events = template
    original = (source / "journal" / f"{list_id}.jsonl").read_bytes()
    seed = int.from_bytes(os.urandom(4), "big")
    rng = random.Random(seed)
    kinds = list(DAMAGES)
    seen: dict[str, int] = {}
    for trial in range(TRIALS):
        kind = kinds[trial % len(kinds)]
        directory = tmp_path / f"trial-{trial}"
        shutil.copytree(source, directory)
        journal = directory / "journal" / f"{list_id}.jsonl"
        damaged = DAMAGES[kind](original, rng)
        journal.write_bytes(damaged)
        keep = intact_lines(original, damaged)
        why = f"trial {trial} ({kind}, seed {seed}, {keep} lines intact)"

        code, report = command("check", directory)
        assert "Traceback" not in report, why
        assert ("damaged:" in report and code == 1) or "repaired on opening:" in report, f"{why}: {report}"
        code, report = command("recover", directory)
        assert code == 0, f"{why}: {report}"
        with JournalEventStore(directory) as store:
            kept = store.load(list_id) if list_id in store.list_ids() else []
            assert kept == events[:keep], f"{why}: {report}"
            service = TableService(store, device_id=store.device_id)  # what `skattisch run` does first
            assert service.state == replay([Event.from_json(e) for e in kept]), why
        assert command("check", directory)[0] == 0, why
        seen[kind] = seen.get(kind, 0) + 1
        if trial >= 8:
            shutil.rmtree(directory)
    assert sum(seen.values()) >= 200 and set(seen) == set(DAMAGES)

    for trial in (1, 2):  # and the real table starts on two of the recovered stores
        config = tmp_path / "table.toml"
        config.write_text(f'[store]\npath = "{tmp_path / f"trial-{trial}"}"\n', encoding="utf-8")
        started = subprocess.run([sys.executable, "-m", "ui.cli", "run", "--simulate", "--config", str(config),
                                  "--exit-when-done"], cwd=ROOT, capture_output=True, text=True, timeout=120,
                                 env={**os.environ, "KIVY_NO_ARGS": "1"})
        assert started.returncode == 0, started.stderr[-2000:]
