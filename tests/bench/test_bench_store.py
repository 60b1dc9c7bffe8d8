"""Smoke run of the evening benchmark: a short evening, checks it measures what it says."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.bench import bench_store


@pytest.mark.bench
def test_the_evening_benchmark_counts_bytes_fsyncs_and_time_per_game(tmp_path: Path) -> None:
    figures = bench_store.measure(3, tmp_path, with_legacy=True)
    assert figures.games == 3 and figures.events > 3 * 30  # every card is an event
    assert figures.appends >= figures.events * 0.9  # one append per command, as the table does
    assert figures.fsyncs >= figures.appends  # each durable, plus the new file's directory
    assert figures.base_fsyncs == figures.events
    assert figures.wchar > figures.base_wchar > 0  # the chain's hashes cost bytes
    assert figures.legacy_wchar is not None and figures.legacy_wchar > 10 * figures.wchar
    assert all(t > 0 for t in (figures.first_wall, figures.last_wall, figures.first_cpu, figures.last_cpu))
    text = bench_store.report(figures)
    assert re.search(r"bytes written \(wchar\): \d+\.\d\d\dx the baseline", text)
    assert re.search(r"game 3 vs game 1, taking turns: \d+\.\d\dx", text)
    assert figures.side_first > 0 and figures.side_last > 0
