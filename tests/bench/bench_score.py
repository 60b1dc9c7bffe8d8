"""Scoring throughput on random complete games in the cards form.

Measures, in one run on the same lines:
  - baseline: ``json.loads`` of every line, each record dropped at once (the cost of just
    parsing the records; none is kept alive, so the garbage collector does not weigh on it);
  - in process: ``json.loads`` + ``score_record`` + ``result_to_json`` per line;
  - the command: ``skattisch score FILE`` as a subprocess, output to /dev/null.
Figures are games per second and ratios to the baseline.

    .venv/bin/python -m tests.bench.bench_score            # 100,000 games
    .venv/bin/python -m tests.bench.bench_score --games 2000
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from device.games import GameType
from device.record import result_to_json, score_record
from tests.strategies import deal, play_random

ROOT = Path(__file__).resolve().parents[2]
_BIDS = {GameType.NULL: 23}


def make_lines(games: int, seed: int = 1) -> list[str]:
    rng = random.Random(seed)
    kinds = list(GameType)
    lines = []
    for _ in range(games):
        game = rng.choice(kinds)
        hands, skat = deal(rng)
        tricks = play_random(rng, game, hands)
        lines.append(json.dumps({"v": 1, "game": game.value, "bid": _BIDS.get(game, rng.choice([18, 20, 24, 36])),
                                 "declarer": rng.randrange(3), "skat": [c.code for c in skat],
                                 "tricks": [[c.code for c in t] for t in tricks]}))
    return lines


def _best_of(repeats: int, work: object) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        work()  # type: ignore[operator]
        best = min(best, time.perf_counter() - start)
    return best


def measure(games: int, repeats: int = 3) -> dict[str, float]:
    lines = make_lines(games)

    # Each record is dropped once handled, in the baseline as in the scoring: a list keeping
    # 100,000 parsed records alive made the garbage collector slow the baseline about 6x.
    def parse_each() -> None:
        for line in lines:
            json.loads(line)

    def score_each() -> None:
        for line in lines:
            result_to_json(score_record(json.loads(line)))

    parse = _best_of(repeats, parse_each)
    in_process = _best_of(repeats, score_each)
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as handle:
        handle.write("\n".join(lines) + "\n")
        path = handle.name
    command = [sys.executable, "-m", "ui.cli", "score", path]

    def run_command() -> None:
        result = subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if result.returncode != 0:
            raise RuntimeError(f"skattisch score failed: {result.stderr.decode()[-500:]}")

    cli = _best_of(max(1, repeats - 1), run_command)
    Path(path).unlink()
    return {"games": games, "parse_s": parse, "in_process_s": in_process, "cli_s": cli}


def report(figures: dict[str, float]) -> str:
    games = figures["games"]
    rows = [("json.loads only (baseline)", figures["parse_s"]), ("score in process", figures["in_process_s"]),
            ("skattisch score (process)", figures["cli_s"])]
    out = [f"{int(games)} random complete games, cards form, best of runs"]
    for name, seconds in rows:
        out.append(f"  {name:28s} {games / seconds:12,.0f} games/s   {seconds / figures['parse_s']:8.1f} x baseline")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    print(report(measure(args.games, args.repeats)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
