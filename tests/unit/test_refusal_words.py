"""Every refusal the table service can give has words, German and English, for the values it
carries: the call sites in device/table (``Refuse(code, key, **values)``, ``Refusal(code, key,
{values})``) are read with ``ast`` and each key's texts are worded with sample values."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from ui.i18n import refusal_text
from ui.refusal_words import REFUSALS_DE, REFUSALS_EN, refusal_words

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "device" / "table").glob("*.py"))

#: Keys a handler chooses at run time (the call site names a variable), with their values.
COMPUTED = {
    **dict.fromkeys(("bid_play_or_pass", "bid_only_pass", "bid_too_low"),
                    {"position", "player", "value", "current", "min_value", "max_value"}),
    **dict.fromkeys(("null_announced", "ouvert_not_hand", "announced_not_hand"), {"error", "game"}),
    **dict.fromkeys(("hand_after_skat", "skat_or_hand"), set()),
    # Tournée-Skat's declaration options (device.table.rules.tournee_refusal): the turned card
    **dict.fromkeys(("turn_card_first", "turned_first", "turned_second", "turned_card_decides", "hand_after_turn",
                     "null_overbid_not_in_profile"),
                    {"profile", "shown", "card"}),
}

SAMPLES: dict[str, Any] = {
    "card": "CJ", "discarded": "C7", "led": "HA", "game": "hearts", "phase": "bidding", "follow": "H",
    "position": 1, "seat": 0, "player": "Anna", "known": 2, "matadors": -3, "problem_field": "bid",
    "problem_german": "", "speaker": 1, "partner": 0, "role": "bidding", "may_bid": True,
}


def _dict_keys(node: ast.AST, function: ast.FunctionDef) -> set[str]:
    """The keys of a dict literal, or of the dict a name in ``function`` is assigned."""
    if isinstance(node, ast.Name):
        name = node.id
        for statement in ast.walk(function):
            if (isinstance(statement, ast.Assign) and isinstance(statement.targets[0], ast.Name)
                    and statement.targets[0].id == name):
                node = statement.value
    assert isinstance(node, ast.Dict), ast.unparse(node)
    return {key.value for key in node.keys if isinstance(key, ast.Constant)}


def call_sites() -> dict[str, set[str]]:
    """Each refusal key raised with a constant key, and the names of the values it carries."""
    found: dict[str, set[str]] = {}
    for source in SOURCES:
        tree = ast.parse(source.read_text(encoding="utf-8"))
        for function in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
            for call in (n for n in ast.walk(function) if isinstance(n, ast.Call)):
                name = getattr(call.func, "id", None)
                if name not in ("Refuse", "Refusal") or len(call.args) < 2:
                    continue
                key = call.args[1]
                if not isinstance(key, ast.Constant):
                    continue
                values = {k.arg for k in call.keywords if k.arg is not None}
                for spread in (k.value for k in call.keywords if k.arg is None):
                    values |= _dict_keys(spread, function)
                if name == "Refusal" and len(call.args) >= 3:
                    values |= _dict_keys(call.args[2], function)
                found.setdefault(key.value, set()).update(values)
    return found


def test_every_key_has_words_in_both_languages_and_no_words_are_left_over() -> None:
    used = {**call_sites(), **COMPUTED}
    assert len(used) > 90
    assert set(REFUSALS_DE) == set(used), set(REFUSALS_DE) ^ set(used)
    assert set(REFUSALS_EN) == set(used), set(REFUSALS_EN) ^ set(used)


@pytest.mark.parametrize("language", ["de", "en"])
def test_every_refusal_is_worded_from_the_values_it_carries(language: str) -> None:
    for key, names in {**call_sites(), **COMPUTED}.items():
        values = {name: SAMPLES.get(name, 7) for name in names}
        text = refusal_words(key, values, language)
        assert text and "{" not in text and key not in text, (key, text)


def test_the_words_come_in_the_asked_language() -> None:
    from device.table.flow import Refusal

    refusal = Refusal("card_seen", "card_played", {"card": "SA", "position": 2, "trick": 3})
    assert refusal_text(refusal, "de") == "Pik Ass wurde schon gespielt (Hinterhand, 3. Stich)"
    assert refusal_text(refusal, "en") == "SA already played by Hinterhand in trick 3"
    assert refusal_text(Refusal("x", "no_such_key", {"n": 1}), "de") == "no_such_key n=1"
