"""Every worked example on game values in the rule texts, as data: tests/data/values/*.json.

Each case is a game record in the counted form (docs/reference/formats.md, "Game record") plus ``source`` (the
paragraph or worked example, used as the test id), an optional ``note`` and ``profile``, and
``expect``: the fields of the result the source fixes (won, value, score, overbid, schneider,
schwarz, factor, levels, multiplier). The case is scored through ``score_game`` and, as a
cross-check of the JSON path, through ``device.record.score_record``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from device.declaration import Declaration, Level
from device.games import GameType
from device.profile import find_profile
from device.record import result_to_json, score_record
from device.skatform import SkatForm, TourneeGame
from device.value import EndedBy, Ending, GameResult, Play, score_game

DATA = Path(__file__).resolve().parents[1] / "data" / "values"
EXAMPLE_FILES = sorted(p for p in DATA.glob("*.json") if p.name != "table_5_6.json")
EXPECTABLE = {"won", "value", "score", "overbid", "schneider", "schwarz", "factor", "levels", "multiplier"}
RECORD_FIELDS = {"game", "hand", "ouvert", "announced", "bid", "matadors", "declarer_points", "declarer_tricks",
                 "ending", "kontra", "re", "bock", "tournee", "solo", "guckser", "turned_card"}


def load_cases() -> list[dict[str, Any]]:
    cases = []
    for path in EXAMPLE_FILES:
        for case in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            cases.append({**case, "_file": path.name})
    return cases


CASES = load_cases()


def score_case(case: dict[str, Any]) -> GameResult:
    """Score a case through device.value alone (no record parsing)."""
    profile = find_profile(case.get("profile", "isko"))
    kind = next((TourneeGame(v) for k, v in (("tournee", case.get("tournee")), ("solo", case.get("solo") and "solo"),
                                             ("guckser", case.get("guckser") and "guckser")) if v), None)
    # Tournee-Skat: a Solo, Null and Grand ouvert are played without the skat (device.tournee)
    without_skat = profile.form is SkatForm.TOURNEE and kind in (None, TourneeGame.SOLO)
    declaration = Declaration.make(
        GameType(case["game"]), hand=case.get("hand", False) or without_skat, ouvert=case.get("ouvert", False),
        announced=Level.parse(case.get("announced")), late_announcements=profile.announce_after_skat,
        tournee=kind, ouvert_any=profile.ouvert_any, form=profile.form,
    )
    play = Play(case.get("declarer_points", 0), case["declarer_tricks"], case.get("matadors", 0))
    raw = case.get("ending", {})
    ending = Ending(
        EndedBy(raw.get("by", "played")), raw.get("defender_points"), raw.get("defender_tricks"),
        raw.get("level_possible", True), Level.parse(raw.get("proven_level")),
    )
    multiplier = (2 if case.get("kontra") else 1) * (2 if case.get("re") else 1) * case.get("bock", 1)
    return score_game(declaration, case["bid"], play, ending=ending, multiplier=multiplier, profile=profile)


def got(result: GameResult, key: str) -> Any:
    value = getattr(result, key)
    return list(value) if key == "levels" else value


def test_the_example_files_are_well_formed() -> None:
    assert {p.name for p in EXAMPLE_FILES} >= {
        "isko_examples.json", "court_rulings.json", "worked_examples_001.json", "wissenswertes_000.json", "texas.json",
        "tournee.json", "danish.json"}
    sources = [case["source"] for case in CASES]
    assert len(sources) == len(set(sources)), "each case needs its own source text (it is the test id)"
    for case in CASES:
        unknown = set(case) - RECORD_FIELDS - {"source", "note", "expect", "profile", "_file"}
        assert not unknown, f"{case['source']}: unknown fields {unknown}"
        assert case["expect"] and set(case["expect"]) <= EXPECTABLE, case["source"]
        assert {"won", "value"} <= set(case["expect"]), f"{case['source']}: every case fixes won and value"


@pytest.mark.parametrize("case", CASES, ids=[c["source"] for c in CASES])
def test_worked_example(case: dict[str, Any]) -> None:
    result = score_case(case)
    wrong = {key: (got(result, key), want) for key, want in case["expect"].items() if got(result, key) != want}
    assert not wrong, (
        f"{case['source']} ({case['_file']}): got != expected for {wrong}\n"
        f"  note: {case.get('note', '-')}\n  result: {result.describe_de()}"
    )


@pytest.mark.parametrize("case", CASES, ids=[c["source"] for c in CASES])
def test_worked_example_as_a_game_record(case: dict[str, Any]) -> None:
    record = {"v": 1, **{key: case[key] for key in RECORD_FIELDS & case.keys()}}
    out = result_to_json(score_record(record, profile=find_profile(case.get("profile", "isko"))))
    direct = score_case(case)
    for key in ("won", "value", "score", "overbid", "schneider", "schwarz", "multiplier", "factor"):
        assert out[key] == got(direct, key), f"{case['source']}: record gives {key}={out[key]!r}"
    assert out["levels"] == list(direct.levels) and out["text"] == direct.describe_de(), case["source"]
