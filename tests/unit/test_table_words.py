"""The words for the snapshot's facts (ui/table_words.py): both languages have the same keys with
the same placeholders, and every ending of a game has words."""

from __future__ import annotations

import string

from device.table.commands import EndHow
from ui.table_words import WORDS, ending_text


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_german_and_english_have_the_same_keys_and_placeholders() -> None:
    assert set(WORDS["de"]) == set(WORDS["en"]), set(WORDS["de"]) ^ set(WORDS["en"])
    for key, german in WORDS["de"].items():
        assert _placeholders(german) == _placeholders(WORDS["en"][key]), key


def test_every_ending_has_words_in_both_languages() -> None:
    for how in [*(h.value for h in EndHow), "null_overbid"]:
        for lang in ("de", "en"):
            assert ending_text(how, lang) != how, (how, lang)
