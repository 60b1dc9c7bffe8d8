"""Refused game records as data: tests/data/refusals/records.json, each naming its rule text.

A refusal must name the field that is wrong for the profile in use and say that profile's
rule (an overbid Null under a profile without the bid names ``bid``, not ``matadors``; a
Spitze names the profile that plays it)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from device.errors import RecordError
from device.profile import find_profile
from device.record import score_record

DATA = Path(__file__).resolve().parents[1] / "data" / "refusals" / "records.json"
CASES: list[dict[str, Any]] = json.loads(DATA.read_text(encoding="utf-8"))["cases"]


def test_every_case_names_its_source() -> None:
    sources = [case["source"] for case in CASES]
    assert len(sources) == len(set(sources)) >= 5
    for case in CASES:
        assert set(case) <= {"source", "profile", "record", "field", "reason_has", "reason_lacks"}, case["source"]


@pytest.mark.parametrize("case", CASES, ids=[c["source"][:60] for c in CASES])
def test_refused_record(case: dict[str, Any]) -> None:
    with pytest.raises(RecordError) as refused:
        score_record(case["record"], profile=find_profile(case["profile"]))
    error = refused.value
    assert error.field == case["field"], str(error)
    for words in case["reason_has"]:
        assert words in str(error), str(error)
    for words in case.get("reason_lacks", []):
        assert words not in str(error), str(error)
