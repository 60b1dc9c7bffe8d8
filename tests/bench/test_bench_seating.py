"""Smoke run of the seating benchmark: one table seats four members by card; the figure
counts four reads and two taps from the report. No timing asserts."""

from __future__ import annotations

import re
import shutil

import pytest

from tests.bench import bench_seating
from tests.ui.harness import Run


def _line(step: str, ms: float, *, ok: bool = True, refusals: tuple[str, ...] = ()) -> dict[str, object]:
    return {"step": step, "ok": ok, "ms": ms, "refusals": list(refusals), "reason": ""}


def _report(**changed: dict[str, object]) -> list[dict[str, object]]:
    lines = [_line(step, 200.0 if step.split()[0] in ("tag", "tap") else 50.0) for step in bench_seating.SCRIPT]
    return [changed.get(str(line["step"]), line) for line in lines]


def test_the_figure_counts_the_reads_and_taps_and_sums_their_time() -> None:
    seating = bench_seating.figure(Run(0, "", "", _report()))
    assert (seating.reads, seating.taps, seating.steps) == (4, 2, 6)
    assert seating.seconds == pytest.approx(1.2)  # the waits and the expectation are not counted


def test_a_refused_card_is_no_figure() -> None:
    refused = _line("tag 0012345678", 30.0, refusals=("unknown_member_card",))
    with pytest.raises(RuntimeError, match="unknown_member_card"):
        bench_seating.figure(Run(0, "", "", _report(**{"tag 0012345678": refused})))


@pytest.mark.bench
@pytest.mark.ui
@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed (./dev.sh test installs it)")
def test_the_smoke_run_seats_four_by_card_and_prints_the_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_seating.main(["--smoke"]) == 0
    out = capsys.readouterr().out
    match = re.search(r"6 taps and reads \(4 card reads, 2 taps\): (\d+\.\d\d) s of the table's handling", out)
    assert match and float(match.group(1)) > 0, out
    assert "goal: <= 5 s" in out and "full speed" in out
