"""The list's drawn texts are kept for its last two opens, not for an evening: the cache kept
every text drawn until it held 400 (rows scrolled away, scores no longer shown), so the table's
memory grew game by game for about a hundred games."""

from __future__ import annotations

from ui.table.drawn_text import _Kept


def test_texts_not_drawn_again_within_two_turns_are_dropped_and_those_drawn_at_each_open_kept() -> None:
    kept = _Kept(limit=1000)
    for game in range(100):  # the list opened after each game: the header each time, the game's new row
        kept.turn()
        for text in ("Nr", "Geber", "Anna", "Bernd"):
            if kept.get(text) is None:
                kept.put(text, f"pixels of {text}")
        kept.put(f"row {game}", f"pixels of row {game}")
    assert len(kept) == 4 + 2  # the header's texts, this open's row and the last open's
    assert kept.get("Anna") == "pixels of Anna" and kept.get("row 99") == "pixels of row 99"
    assert kept.get("row 97") is None


def test_a_turn_comes_when_one_holds_its_limit() -> None:
    kept = _Kept(limit=3)
    for n in range(10):
        kept.put(n, n)
    assert len(kept) <= 2 * 3
    assert kept.get(9) == 9 and kept.get(0) is None
