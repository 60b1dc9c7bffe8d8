"""Benchmark: the season ranking over 57,600 games from the collector's store, against pyskat.

    .venv/bin/python -m tests.bench.bench_season                 # full: 40 evenings x 2 series x 15 tables x 48 games
    .venv/bin/python -m tests.bench.bench_season --smoke         # tiny, no pyskat
    .venv/bin/python -m tests.bench.bench_season --pyskat /tmp/pyskat-venv/bin/python

The season is played into a real SQLite collector store the way an evening fills it: each
evening, each series, 60 players drawn to 15 four-tables (device.club.seating), each table's
list synced as its events (journal entries, hash chain, ``store_batch``), and the pages' read
model folding every list once with the table's own code (``Evening.refresh``), which keeps
each list's per-player result in the store. That set-up is reported, not the measured part.

Measured (median of ``--reps``): the Saison page's ranking from the store — read the results
from SQLite, build the season table with the minimum number of series, the dropped worst
series, the SkWO tie-breaks (won, lost, lot) and each player's running total for the chart.

Baseline: pyskat 0.3.0.post1's ``evaluate_matches`` on the same season aggregated to per-list
totals (what pyskat takes: one row per player and list with his points, won and lost games),
run in pyskat's own environment (``--pyskat PYTHON``; install it there with
``pip install pyskat==0.3.0.post1``, never into this project), timed inside that process
without its import, in the same run. pyskat applies no tie-breaks and no season rules.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.club.seating import random_draw
from device.sync import journal_entries
from drivers.club.store import SqliteCollectorStore
from tests.club_helpers import list_events, random_entries
from ui.club.model import Evening, season_from_documents

FULL = (40, 2, 15, 48)  # evenings, series, four-tables, games per list
SMOKE = (2, 2, 2, 8)

PYSKAT_TIMER = r'''
import json, statistics, sys, time
from pyskat.api.evaluation import evaluate_matches
from pyskat.data_model import Match, Player
from pyskat.data_model.result import Result
from pyskat.settings import EvaluationSettings
rows = json.load(open(sys.argv[1]))
reps = int(sys.argv[2])
ids, lists = {}, {}
for session, list_key, name, points, won, lost in rows:
    ids.setdefault(name, len(ids) + 1)
    lists.setdefault((session, list_key), []).append((ids[name], points, won, lost))
players = {i: Player(id=i, name=n) for n, i in ids.items()}
matches = []
for number, ((session, _), results) in enumerate(lists.items(), start=1):
    matches.append(Match(id=number, session_id=session + 1, players=[players[p] for p, *_ in results],
                         results=[Result(player_id=p, match_id=number, score=s, won=w, lost=l) for p, s, w, l in results]))
settings = EvaluationSettings()
times = []
for _ in range(reps):
    t0 = time.perf_counter()
    table = evaluate_matches(settings, matches).sort_values("total_score", ascending=False)
    times.append(time.perf_counter() - t0)
names = {i: n for n, i in ids.items()}
totals = {names[int(i)]: int(v) for i, v in table["total_score"].items()}
print(json.dumps({"median": statistics.median(times), "matches": len(matches), "totals": totals}))
'''


@dataclass(frozen=True)
class Result:
    games: int
    lists: int
    setup: float
    ours: float
    players: int
    pyskat: float | None
    same_totals: bool | None = None


class StepClock:
    """The laptop's clock during the set-up: one evening a week."""

    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


def fill_season(db: Path, evenings: int, series: int, tables: int, games: int, *, seed: int = 1) -> tuple[
        SqliteCollectorStore, Evening, list[list[Any]]]:
    """Play the season into the store; give the per-list totals pyskat gets."""
    rng = random.Random(seed)
    store = SqliteCollectorStore(db)
    clock = StepClock()
    evening = Evening(store, clock=clock)
    players = [f"Spieler {n:02d}" for n in range(tables * 4)]
    devices = [f"tisch-{t:02d}" for t in range(1, tables + 1)]
    for number, device in enumerate(devices, start=1):
        store.ensure_device(device, f"Tisch {number}", now=clock())
    seq = dict.fromkeys(devices, 1)
    totals: list[list[Any]] = []
    for night in range(evenings):
        clock.now += 7 * 86400
        evening.start_evening(f"Abend {night + 1}")
        for s in range(1, series + 1):
            for assignment in random_draw(players, seed=rng.getrandbits(32)):
                device = devices[assignment.table - 1]
                entries = random_entries(rng, 4, games)
                list_id = f"e{night}-s{s}-t{assignment.table}"
                events = list_events(device, list_id, assignment.players, entries, seq=seq[device])
                seq[device] += len(events)
                store.store_batch(device, journal_entries(events), now=clock())
                totals.extend(_per_list_totals(night, assignment.table + 100 * s, assignment.players, entries))
            evening.refresh()  # the pages fold each list once as it arrives
    return store, evening, totals


def _per_list_totals(night: int, table: int, players: tuple[str, ...], entries: list[Any]) -> list[list[Any]]:
    from device.record import score_record

    out = {p: [0, 0, 0] for p in players}
    for e in entries:
        if e.record is not None and e.seat is not None:
            r = score_record(e.record).result
            row = out[players[e.seat]]
            row[0] += r.score
            row[1 if r.won else 2] += 1
    return [[night, f"{night}-{table}", p, *v] for p, v in out.items()]


def season_ranking_from_store(store: SqliteCollectorStore, evening: Evening) -> dict[str, int]:
    """The Saison page's work: each player's season Leistung (the table is ranked on the way)."""
    lines, chart, evenings = season_from_documents(store.document("season_results") or {}, evening.season_rules())
    assert len(chart) == len(lines) and evenings
    return {line.player: line.leistung for line in lines}


def run(size: tuple[int, int, int, int], *, reps: int, pyskat: str | None, directory: Path) -> Result:
    evenings, series, tables, games = size
    started = time.perf_counter()
    store, evening, totals = fill_season(directory / "club.sqlite3", evenings, series, tables, games)
    setup = time.perf_counter() - started
    store.set_document("season_rules", {"minimum_series": series * evenings // 2, "dropped_worst": 4})
    times: list[float] = []
    ours: dict[str, int] = {}
    for _ in range(reps):
        t0 = time.perf_counter()
        ours = season_ranking_from_store(store, evening)
        times.append(time.perf_counter() - t0)
    store.close()
    baseline, same = None, None
    if pyskat:
        data = directory / "per-list-totals.json"
        data.write_text(json.dumps(totals))
        out = subprocess.run([pyskat, "-c", PYSKAT_TIMER, str(data), str(reps)], capture_output=True, text=True,
                             check=True).stdout
        answer = json.loads(out.splitlines()[-1])
        baseline = float(answer["median"])
        same = answer["totals"] == ours  # the same Leistung per player, by two programs
    return Result(evenings * series * tables * games, evenings * series * tables, setup, statistics.median(times),
                  len(ours), baseline, same)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--smoke", action="store_true", help="a tiny season, seconds")
    parser.add_argument("--reps", type=int, default=7)
    parser.add_argument("--pyskat", help="the python of an environment with pyskat==0.3.0.post1 installed")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="skattisch-season-") as tmp:
        result = run(SMOKE if args.smoke else FULL, reps=2 if args.smoke else args.reps, pyskat=args.pyskat,
                     directory=Path(tmp))
    print(f"season: {result.games} games in {result.lists} lists, {result.players} players")
    print(f"set-up (sync into the store + fold every list once): {result.setup:.1f} s")
    print(f"season ranking from the store (SkWO tie-breaks, minimum series, Streichwerte): {result.ours * 1000:.1f} ms")
    if result.pyskat is not None:
        print(f"pyskat 0.3.0.post1 evaluate_matches on per-list totals: {result.pyskat * 1000:.1f} ms")
        print(f"ratio: pyskat / ours = {result.pyskat / result.ours:.1f}x; "
              f"same season Leistung per player in both: {'yes' if result.same_totals else 'NO'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
