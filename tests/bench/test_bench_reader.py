"""Smoke run of the card reader latency benchmark: it runs, every card arrives, figures print."""

from __future__ import annotations

import pytest

from drivers.reader import Mode
from tests.bench import bench_reader


@pytest.mark.bench
@pytest.mark.parametrize("mode", [Mode.RDM6300, Mode.BARCODE])
def test_bench_reader_smoke(mode: Mode) -> None:
    figures = bench_reader.measure(reads=50, mode=mode)  # raises unless each card arrives as sent
    assert figures["reads"] == 50
    assert 0 < figures["p50_s"] <= figures["p99_s"] <= figures["max_s"]
    text = bench_reader.report(figures, mode)
    assert "x wire time" in text and "p99" in text


@pytest.mark.bench
def test_bench_reader_with_the_two_frame_rule_waits_for_the_repeat() -> None:
    figures = bench_reader.measure(reads=30, mode=Mode.RDM6300)  # the default: two frames
    assert figures["confirm_s"] > 0
    assert figures["p50_s"] >= figures["wire_s"]  # the card is known only once its repeat is in
    assert "two identical frames" in bench_reader.report(figures)


def test_wire_time_of_an_rdm6300_frame_at_9600_baud() -> None:
    assert bench_reader.wire_time(b"\x02" + b"0" * 12 + b"\x03") == pytest.approx(0.014583, abs=1e-6)
