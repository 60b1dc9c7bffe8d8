"""The words for the facts the table's snapshot carries, German and English (issue 22: the core
says what happened, the screen words it). A sibling of :mod:`ui.i18n` (the screen's own words)
and :mod:`ui.refusal_words` (the refusals); each function takes a snapshot view (or its facts)
and a language ("de" or "en"; default: the current one, :func:`ui.i18n.language`).

>>> game_text(5, 36, "de"), game_text(5, None, "en")
('Spiel 5 von 36', 'Game 5')
>>> bock_text(3, 2, 0, "de"), bock_text(1, 4, 0, "en"), bock_text(0, 1, 3, "de"), bock_text(0, 1, 0, "en")
('Bock (noch 3 Spiele)', 'Bock ×4 (1 game left)', 'Ramschrunde (noch 3 Spiele)', '')
>>> scoring_label("classic", "de"), scoring_label("classic", "en")
('klassisch', 'classic')
"""

from __future__ import annotations

from typing import Any

from ui.i18n import ENGLISH, GERMAN, language
from ui.refusal_words import bock_status

WORDS: dict[str, dict[str, str]] = {
    "de": {
        "game_of": "Spiel {n} von {total}",
        "game": "Spiel {n}",
        "declare_skat_or_hand": "{name} spielt ({bid}): Skat aufnehmen oder Hand ansagen",
        "declare_push": "{name}: die zwei gedrückten Karten scannen (oder am Ende) und das Spiel ansagen",
        "declare_now": "{name}: Spiel ansagen",
        "ramsch_prompt": "Ramsch: Augen und Stiche jedes Spielers, die Augen im Skat und wer den letzten Stich hatte",
    },
    "en": {
        "game_of": "Game {n} of {total}",
        "game": "Game {n}",
        "declare_skat_or_hand": "{name} plays ({bid}): take the skat or declare Hand",
        "declare_push": "{name}: scan the two discarded cards (or at the end) and declare the game",
        "declare_now": "{name}: declare the game",
        "ramsch_prompt": "Ramsch: each player's points and tricks, the points in the skat and who took the last trick",
    },
}


def words(key: str, lang: str | None = None, **values: object) -> str:
    """The text for ``key`` in ``lang`` with its ``{placeholders}`` filled in."""
    return WORDS[lang or language()][key].format(**values)


def game_text(game_no: int, series_length: int | None, lang: str | None = None) -> str:
    """Game n of the series ("Spiel 5 von 36"; "Spiel 5" for an open series)."""
    if series_length:
        return words("game_of", lang, n=game_no, total=series_length)
    return words("game", lang, n=game_no)


def bock_text(bock_games: int, bock_factor: int, ramsch_games: int, lang: str | None = None) -> str:
    """The Bock status line (the snapshot's ``bock_games``, ``bock_factor``, ``ramsch_games``);
    worded in :func:`ui.refusal_words.bock_status` (a refusal carries it too)."""
    return bock_status(bock_games, bock_factor, ramsch_games, lang or language())


def scoring_label(system: str, lang: str | None = None) -> str:
    """A scoring system's name (``ListView.system``: "seeger_fabian", "classic", "bierlachs")."""
    return (ENGLISH if (lang or language()) == "en" else GERMAN)[f"scoring_{system}"]


def declaration_prompt(view: Any, lang: str | None = None) -> str:
    """What the declarer does now (the snapshot's ``DeclarationView``): take the skat or declare
    Hand, push the two cards, or declare."""
    if not view.skat_taken:
        return words("declare_skat_or_hand", lang, name=view.declarer_name, bid=view.bid)
    return words("declare_push" if len(view.skat) < 2 else "declare_now", lang, name=view.declarer_name)


def ramsch_prompt(lang: str | None = None) -> str:
    """What the table enters for a Ramsch."""
    return words("ramsch_prompt", lang)
