"""Smoke run of the UI benchmark: tiny sizes, checks it measures both apps; no timing asserts."""

from __future__ import annotations

import math
import re
import shutil
from pathlib import Path

import pytest

from tests.bench import bench_ui


@pytest.mark.bench
@pytest.mark.ui
@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed (./dev.sh test installs it)")
def test_the_smoke_run_measures_both_apps_and_prints_ratios(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_ui.main(["--smoke"]) == 0
    out = capsys.readouterr().out
    for name in ("cold start to first frame", r"card to frame, p99 \(6 cards\)", "resident memory, 3-game list",
                 "card to frame, p99, 3-game list", r"bid to frame, p99 \(5\)", r"declaration to frame, p99 \(4\)",
                 r"result to frame, p99 \(1\)", r"list open to frame, p99 \(1\)", "  list open less its swap, p99",
                 "card to frame, p99",  # this and the next two: against the bare label woken as the table's reader wakes
                 "  of it the buffer swap, median", "card to frame less its swap, p99"):
        match = re.search(rf"^{name} +(\d+\.\d+) \S+ +(\d+\.\d+) \S+ +(\d+\.\d\d)x$", out, re.MULTILINE)
        assert match, f"no line {name!r} in:\n{out}"
        table, bare, ratio = (float(g) for g in match.groups())
        assert table > 0 and bare > 0 and math.isclose(ratio, table / bare, rel_tol=0.02, abs_tol=0.01)
    swap = float(re.search(r"^  of it the buffer swap, median +(\d+\.\d+)", out, re.MULTILINE).group(1))  # type: ignore[union-attr]
    median = float(re.search(r"^card to frame, median +(\d+\.\d+)", out, re.MULTILINE).group(1))  # type: ignore[union-attr]
    assert swap < median  # a part of the card's time, not more
    opened, less = (float(re.search(rf"^{name} +(\d+\.\d+)", out, re.MULTILINE).group(1))  # type: ignore[union-attr]
                    for name in (r"list open to frame, p99 \(1\)", "  list open less its swap, p99"))
    assert less < opened


@pytest.mark.bench
@pytest.mark.skipif(shutil.which("taskset") is None, reason="taskset is not installed (util-linux)")
def test_the_pi_class_calibration_loop_runs_pinned_and_reports_wall_and_cpu_seconds() -> None:
    pi = bench_ui.PiClass(core=0)  # no cgroup made: only the pinned, unconstrained loop
    assert pi.prefix() == ["taskset", "-c", "0"]
    wall, cpu = pi.loop_seconds(quota=False, runs=1)
    assert 0 < cpu <= wall * 1.05
    assert pi.describe() == "Pi-class: core 0, no CPU quota"



def test_the_pi_class_slowdown_is_the_median_of_constrained_wall_over_free_cpu_taken_in_turn() -> None:
    pi = bench_ui.PiClass(core=0)
    runs = iter([(4.0, 3.0), (0.0, 1.0),  # (wall, CPU): constrained, then free, in turn
                 (9.0, 2.0), (0.0, 1.0),
                 (3.0, 1.0), (0.0, 1.0)])
    taken: list[bool] = []

    def loop_seconds(*, quota: bool = True, **_kw: object) -> tuple[float, float]:
        taken.append(quota)
        return next(runs)

    pi.loop_seconds = loop_seconds  # type: ignore[method-assign]
    assert pi.measure_slowdown(pairs=3) == 4.0  # ratios 4, 9, 3: the median
    assert taken == [True, False] * 3


def test_the_apps_are_started_in_turn_so_a_slow_spell_of_the_machine_falls_on_both(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    started: list[tuple[str, int]] = []

    def child(kind: str, _display: str, _store: Path, samples: int, *_args: object) -> tuple[float, dict[str, object]]:
        started.append((kind, samples))
        n = len(started)
        return 0.0, {"first_frame_at": n / 10, "latencies": [n / 1000], "swaps": [n / 2000], "rss_kib": 1024 * n,
                     "rows": 2, "changes": {"bid": [n / 100]} if kind == "table" else {},
                     "change_swaps": {"bid": [n / 1000]} if kind == "table" else {}}

    monkeypatch.setattr(bench_ui, "_child", child)
    figures = bench_ui.measure(("bare", "table"), ":0", tmp_path, games=2, samples=5, starts=2)
    assert started == [("bare", 1), ("table", 1), ("bare", 5), ("table", 5), ("bare", 5), ("table", 5)]
    bare, table = figures["bare"], figures["table"]
    assert (bare.samples, table.samples) == (2, 2)
    assert bare.median_s == (0.003 + 0.005) / 2 and table.median_s == (0.004 + 0.006) / 2  # each its own processes'
    assert table.changes == {"bid": (0.06, 2)} and bare.changes == {}
    assert math.isclose(table.changes_less_swap["bid"], 0.06 - 0.006) and bare.changes_less_swap == {}
    assert math.isclose(table.swap_median_s, (0.002 + 0.003) / 2)


def test_the_table_without_the_code_cache_is_started_with_its_switch_off(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``--uncached``: the third table process is the table started with ``SKATTISCH_CODECACHE=off``
    (the others with the switch as the shell has it), and its cold start is reported against the bare app's."""
    seen: dict[str, str | None] = {}

    def run(args: list[str], *, env: dict[str, str], **_kw: object) -> None:
        kind = args[args.index("--child") + 1]
        seen[kind] = env.get("SKATTISCH_CODECACHE")
        Path(args[args.index("--out") + 1]).write_text('{"first_frame_at": 0}')

    monkeypatch.delenv("SKATTISCH_CODECACHE", raising=False)
    monkeypatch.setattr(bench_ui.subprocess, "run", run)
    (tmp_path / "store").mkdir()
    for kind in ("table", "table-uncached"):
        bench_ui._child(kind, ":0", tmp_path / "store", 1)
    assert seen == {"table": None, "table-uncached": "off"}
    figures = {kind: bench_ui.Figures(start, 0.01, 0.01, 100.0, 1, {}, 0.0, 0.0, {})
               for kind, start in (("bare", 1.0), ("table", 0.9), ("uncached", 1.8))}
    assert bench_ui.uncached_report(figures["bare"], figures["table"], figures["uncached"]).splitlines() == [
        "cold start, with ui/codecache:    0.900 s  0.90x the bare app",
        "cold start, without ui/codecache: 1.800 s  1.80x the bare app"]
