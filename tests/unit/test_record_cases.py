"""Rule cases as whole game records: tests/data/records/*.json, each naming its paragraph.

Unlike tests/data/values (counted results through device.value), these go the way
``skattisch score`` goes: a record in either form through :func:`device.record.score_record`
and :func:`device.record.result_to_json`, so the cards form (ISkO 5.4.3 decided from the
cards) and the record fields (``lost_as`` of an overbid Null, ISkO 3.4.4) are held as data.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from device.profile import find_profile
from device.record import result_to_json, score_record

DATA = Path(__file__).resolve().parents[1] / "data" / "records"
CASES = [case for path in sorted(DATA.glob("*.json")) for case in json.loads(path.read_text(encoding="utf-8"))["cases"]]


def test_every_case_names_its_source_and_fixes_the_outcome() -> None:
    sources = [case["source"] for case in CASES]
    assert len(sources) == len(set(sources)) >= 8
    for case in CASES:
        assert set(case) <= {"source", "note", "record", "expect", "text_has", "profile"}, case["source"]
        assert {"won", "value", "score"} <= set(case["expect"]), case["source"]


@pytest.mark.parametrize("case", CASES, ids=[c["source"] for c in CASES])
def test_rule_case(case: dict[str, Any]) -> None:
    out = result_to_json(score_record(case["record"], profile=find_profile(case.get("profile", "isko"))))
    wrong = {key: (out.get(key), want) for key, want in case["expect"].items() if out.get(key) != want}
    assert not wrong, f"{case['source']}: got/want {wrong}; {out['text']}"
    for words in case.get("text_has", []):
        assert words in out["text"], out["text"]
