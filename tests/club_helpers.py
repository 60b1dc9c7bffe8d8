"""Club evenings for tests and benchmarks: random lists as the tables' events, and an
independent computation of the SkWO 5.1 figures to check the club code against.

The events are the condensed form a table syncs for a list (``list_opened``, then one
``game_recorded`` or ``passed_in`` per entry, ``series_ended``); the card steps in between
do not change the list's figures. The independent figures use only the game scores from
:func:`device.record.score_record` (the rules engine, tested on its own) and add up the
Wertungsformel here, by hand.
"""

from __future__ import annotations

import contextlib
import random
import re
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from dataclasses import dataclass
from typing import Any

from device.record import score_record
from device.table.events import Event, GameRecorded, ListOpened, PassedIn, SeriesEnded
from device.table.rotation import active_seats

ROOT = Path(__file__).resolve().parents[1]

SUITS = ("clubs", "spades", "hearts", "diamonds")
NAMES = ("Anna Adler", "Bernd Bauer", "Carla Christ", "Dieter Dorn", "Erik Engel", "Frida Fuchs", "Gert Graf",
         "Hanna Hahn", "Ingo Imhof", "Jana Jung", "Kurt Kehl", "Lena Lutz", "Max Moll", "Nina Nagel",
         "Otto Ohm", "Paula Pohl", "Rudi Rau", "Sina Sauer", "Tom Thiel", "Ute Uhl")


def random_record(rng: random.Random) -> dict[str, Any]:
    """A counted suit or grand game, bid 18, neither Schneider nor Schwarz: won or lost."""
    game = rng.choice(SUITS + ("grand",))
    matadors = rng.choice((-4, -3, -2, -1, 1, 2, 3, 4))
    points = rng.randint(31, 89)
    return {"game": game, "bid": 18, "matadors": matadors, "declarer_points": points,
            "declarer_tricks": 3 if points < 61 else 6, "hand": rng.random() < 0.2}


@dataclass
class Entry:
    """One entry of a test list: a game (declarer's list seat and record) or eingepasst."""

    seat: int | None
    record: dict[str, Any] | None


def random_entries(rng: random.Random, size: int, games: int) -> list[Entry]:
    entries = []
    for number in range(games):
        active = active_seats(number % size, size)
        if rng.random() < 0.05:
            entries.append(Entry(None, None))
        else:
            entries.append(Entry(rng.choice(active), random_record(rng)))
    return entries


def list_events(device: str, list_id: str, players: Sequence[str], entries: Sequence[Entry], *,
                seq: int = 1, closed: bool = True, profile: str = "isko",
                scoring: str = "seeger_fabian", members: Sequence[str] = ()) -> list[dict[str, Any]]:
    """The events a table records for this list (JSON dicts, seq counting from ``seq``); ``members``:
    each seat's member id ("" a guest), as a table with the club's roster writes them."""
    size = len(players)
    bodies: list[Any] = [ListOpened(tuple(players), False, len(entries), scoring, None, profile, "0",
                                    tuple(members))]
    for number, entry in enumerate(entries, start=1):
        dealer = (number - 1) % size
        active = active_seats(dealer, size)
        if entry.record is None or entry.seat is None:
            bodies.append(PassedIn(number, dealer, active))
        else:
            record = {**entry.record, "seat": entry.seat, "player": players[entry.seat]}
            bodies.append(GameRecorded(number, record, entry.seat, dealer, active))
    if closed:
        bodies.append(SeriesEnded("complete"))
    return [Event(uuid.UUID(int=random.Random(f"{device}{list_id}{i}").getrandbits(128)).hex, seq + i, device,
                  list_id, body).to_json() for i, body in enumerate(bodies)]


def independent_figures(players: Sequence[str], entries: Sequence[Entry]) -> dict[str, tuple[int, int, int, int]]:
    """Per player (Leistung, Spielpunkte, won, lost) by the Wertungsformel, added up here."""
    size = len(players)
    credit = {3: 40, 4: 30}[size]
    points = dict.fromkeys(players, 0)
    won = dict.fromkeys(players, 0)
    lost = dict.fromkeys(players, 0)
    for entry in entries:
        if entry.record is None or entry.seat is None:
            continue
        result = score_record(entry.record).result
        name = players[entry.seat]
        points[name] += result.score
        if result.won:
            won[name] += 1
        else:
            lost[name] += 1
    all_lost = sum(lost.values())
    return {p: (points[p] + 50 * won[p] - 50 * lost[p] + credit * (all_lost - lost[p]), points[p], won[p], lost[p])
            for p in players}


def independent_order(totals: dict[str, tuple[int, int, int, int]]) -> list[list[str]]:
    """Players grouped by place: higher Leistung, then more won, then fewer lost (SkWO 5.1)."""
    groups: dict[tuple[int, int, int], list[str]] = {}
    for name, (leistung, _, w, lost) in totals.items():
        groups.setdefault((leistung, w, -lost), []).append(name)
    return [sorted(groups[key]) for key in sorted(groups, reverse=True)]


@contextlib.contextmanager
def club_serving(db: Path) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``skattisch club serve`` on ``db`` in a process of its own on 127.0.0.1 (a free port, no
    mDNS): its address and the process, stopped on leaving."""
    process = subprocess.Popen(
        [sys.executable, "-m", "ui.cli", "club", "serve", "--db", str(db), "--host", "127.0.0.1", "--port", "0",
         "--no-mdns"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    url, deadline = "", time.monotonic() + 30
    while time.monotonic() < deadline and not url:
        line = process.stdout.readline()
        found = re.search(r"listening on (http://\S+)", line)
        url = found.group(1) if found else ""
        assert line or process.poll() is None, "the collector exited"
    assert url, "the collector did not start"
    try:
        yield url, process
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
