"""The result screen's line of what was entered: one trick is "1 Stich", in both languages."""

from types import SimpleNamespace

import pytest

pytest.importorskip("kivy")

from ui.i18n import set_language  # noqa: E402
from ui.table.viewmodels import result_counts  # noqa: E402


def entered(tricks: int, points: int | None = 13, game: str = "grand") -> SimpleNamespace:
    return SimpleNamespace(declarer_tricks=tricks, declarer_points=points, game=game, bid=18)


@pytest.mark.parametrize(("language", "one", "seven", "null_one"), [
    ("de", "Bernd: 13 Augen · 1 Stich · gereizt 18", "Bernd: 13 Augen · 7 Stiche · gereizt 18",
     "Bernd: 1 Stich · gereizt 18"),
    ("en", "Bernd: 13 points · 1 trick · bid 18", "Bernd: 13 points · 7 tricks · bid 18",
     "Bernd: 1 trick · bid 18"),
])
def test_one_trick_is_said_in_the_singular(language: str, one: str, seven: str, null_one: str) -> None:
    set_language(language)
    try:
        assert result_counts(entered(1), "Bernd") == one
        assert result_counts(entered(7), "Bernd") == seven
        assert result_counts(entered(1, None, "null"), "Bernd") == null_one
    finally:
        set_language("de")
