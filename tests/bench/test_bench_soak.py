"""Smoke run of the evening soak (a 5-game list, its end, a new list of 1 game, through the
real table screen on the journal store): it prints its figures, and what used to stay after
an old list does not: the list screen's rows and texts, the old snapshots, and the garbage the
collector's freezing kept for good. Checks on those structures, not on resident memory."""

from __future__ import annotations

import re
import shutil

import pytest

from tests.bench import bench_soak


@pytest.mark.bench
@pytest.mark.ui
@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed (./dev.sh test installs it)")
def test_the_smoke_soak_reports_its_figures_and_a_new_list_lets_go_of_the_old_one() -> None:
    first, second = bench_soak.SMOKE
    soak = bench_soak.run(first, second)
    out = bench_soak.report(soak)
    print(out)
    assert re.search(r"^RSS MiB per 10 games \(games \d+-5; 0-\d+\) +-?\d+\.\d\d +-?\d+\.\d\d +-?\d+\.\d\dx$", out,
                     re.MULTILINE), out
    assert re.search(r"^the new list gives back -?\d+\.\d MiB", out, re.MULTILINE), out
    assert [s["mark"] for s in soak.samples] == [*(f"1:{n}" for n in range(first + 1)), "end",
                                                   *(f"2:{n}" for n in range(second + 1))]
    held = soak.samples[-1]["held"]
    # the old list's rows: neither the list screen's recycled rows nor a screen's old snapshot keeps them
    assert held["ListLine"] == 0, held  # (the list is not opened in the new list's first game)
    assert held["RowView"] <= second, held  # the new list's rows only (the old list's five were kept)
    assert held["DrawnText"] == 0, held  # the old list's texts drawn (68 were kept)
    # garbage frozen out of the collector: about 116,000 objects before it was collected first
    assert held["frozen_garbage"] < 30_000, held
