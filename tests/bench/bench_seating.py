"""Seating a four-table by member cards: taps and reads, and their time.

    .venv/bin/python -m tests.bench.bench_seating            # 5 runs, the median run's figure
    .venv/bin/python -m tests.bench.bench_seating --smoke    # one run, a few seconds

Each run starts the real table (``skattisch run --simulate`` at 800×480 on a private Xvfb
display, a journal store whose folder holds the roster the laptop sent last) with a script:
the four members tap their cards on the reader (``tag``: an RDM6300 tag, a UID line, a
barcode, another tag), then "weiter" and "Liste beginnen" (the four-table's tournament length
is chosen already) until the game screen shows. The runner's ``--report`` gives each step's
time, from the step's start until the table has settled (the read or the touch delivered, the
service pumped, the screens refreshed, two frames drawn); the figure counts the reads and the
taps from it and sums their time. A run that seats anyone else, refuses a step or opens no
list with the four member ids raises. Goal: ≤ 5 s.

Measured at full speed on the development machine (Mesa llvmpipe under Xvfb, software
rendering): a Pi 4 draws with its GPU but has slower cores.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tests.ui.harness import Run, run_table, start_xvfb

GOAL_SECONDS = 5.0
SIZE = "800x480"
ROSTER = [{"name": "Jürgen", "short": "Jürgen", "id": "pJ", "card": "04A1B2C3"},    # RDM6300-style tag
          {"name": "Anna", "short": "Anna", "id": "pA", "card": "0012345678"},       # a UID line
          {"name": "Bernd", "short": "Bernd", "id": "pB", "card": "4006381333931"},  # a barcode
          {"name": "Carla", "short": "Carla", "id": "pC", "card": "04FF0000"}]
READS = ["tag 04a1b2c3", "tag 0012345678", "tag 4006381333931", "tag 04FF0000"]
TAPS = ["tap setup_next", "tap setup_next"]  # "weiter", "Liste beginnen"
SCRIPT = ["wait_screen setup", *READS, 'expect_text "Carla: Platz 4"', *TAPS, "wait_screen game"]


@dataclass(frozen=True)
class Seating:
    """One run: how many card reads and taps it took, and the table's time for them."""

    reads: int
    taps: int
    seconds: float
    slowest_step: str
    slowest_seconds: float

    @property
    def steps(self) -> int:
        return self.reads + self.taps


def figure(run: Run) -> Seating:
    """The reads and taps of ``run``'s report and their summed time; raises if a step failed
    or was refused."""
    bad = [line for line in run.report if not line["ok"] or line["refusals"]]
    if run.returncode != 0 or bad or len(run.report) != len(SCRIPT):
        raise RuntimeError(f"the seating run failed: {bad or run.report[-1:]}\n{run.stdout[-2000:]}{run.stderr[-2000:]}")
    counted = [line for line in run.report if str(line["step"]).split()[0] in ("tag", "tap")]
    times = [(str(line["step"]), float(str(line["ms"])) / 1000) for line in counted]
    slowest = max(times, key=lambda t: t[1])
    return Seating(reads=sum(1 for s, _ in times if s.startswith("tag ")),
                   taps=sum(1 for s, _ in times if s.startswith("tap ")),
                   seconds=sum(t for _, t in times), slowest_step=slowest[0], slowest_seconds=slowest[1])


def seated_members(table_dir: Path) -> list[str]:
    """The member ids of the list the run opened."""
    for path in sorted((table_dir / "journal").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            event = json.loads(line)["event"]
            if event["type"] == "list_opened":
                return list(event["data"]["members"])
    return []


def seat_once(display: str) -> Seating:
    """One table process seating the four members by their cards."""
    with tempfile.TemporaryDirectory(prefix="skattisch-seating-") as tmp:
        table_dir = Path(tmp)
        (table_dir / "laptop-roster.json").write_text(json.dumps(ROSTER), encoding="utf-8")
        run = run_table(display, SCRIPT, size=SIZE, config=f'[store]\npath = "{table_dir}"\n')
        seating = figure(run)
        members = seated_members(table_dir)
    if members != [p["id"] for p in ROSTER]:
        raise RuntimeError(f"the list opened with members {members}, not the four tapped")
    return seating


def report(runs: list[Seating]) -> str:
    median = sorted(runs, key=lambda r: r.seconds)[(len(runs) - 1) // 2]
    verdict = "within" if median.seconds <= GOAL_SECONDS else "OVER"
    spread = f" (runs: {', '.join(f'{r.seconds:.2f}' for r in runs)} s)" if len(runs) > 1 else ""
    return "\n".join([
        f"seating a four-table by member cards, {SIZE}, full speed (development machine, Xvfb software rendering)",
        f"  {median.steps} taps and reads ({median.reads} card reads, {median.taps} taps): "
        f"{median.seconds:.2f} s of the table's handling, median of {len(runs)}{spread}",
        f"  slowest step: {median.slowest_step} {median.slowest_seconds:.2f} s",
        f"  goal: <= {GOAL_SECONDS:.0f} s: {verdict}",
    ])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5, help="table processes, each seating the four (default 5)")
    parser.add_argument("--smoke", action="store_true", help="one run, for the test suite")
    args = parser.parse_args(argv)
    started = start_xvfb()
    if started is None:
        print("Xvfb is not installed (./dev.sh test installs it)", file=sys.stderr)
        return 2
    process, display = started
    try:
        runs = [seat_once(display) for _ in range(1 if args.smoke else args.runs)]
    finally:
        process.terminate()
        process.wait(timeout=10)
    print(report(runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
