"""The form of Skat a rule profile plays: German Skat (the ISkO, its club variants, Texas-Skat),
Tournée-Skat or Danish Skat (rule text 001, sections "Tournee-Skat" and "Dänischer Skat").

Pure data with no import of the profile or the declaration, so both can name it. The games
of Tournée-Skat and their values are in :mod:`device.tournee`; the profiles themselves
(``tournee``, ``danish``, ``danish_aarhus``) are registered in :mod:`device.profile` from the
JSON objects here, read through the profile's own checked loader.

>>> SkatForm("tournee").german, TourneeGame.SECOND.german
('Tournee-Skat', 'Tournee (zweite Karte)')
>>> TOURNEE_BASES[TourneeGame.FIRST]["grand"], TOURNEE_BASES[TourneeGame.SOLO]["grand"], TOURNEE_BASES[TourneeGame.GUCKSER]
(12, 20, {'grand': 16})
"""

from __future__ import annotations

import enum
from typing import Any


class SkatForm(enum.Enum):
    """Which Skat a profile plays; the value is the name in a profile's JSON (``"form"``)."""

    #: German (international) Skat: the ISkO and its variants, Texas-Skat too.
    GERMAN = "german"
    #: 001 "Tournee-Skat": "Es gibt keine Skatspiele im üblichen Sinn"; Tournee, Solo,
    #: Guckser, Null, Null ouvert and Grand ouvert are the only games.
    TOURNEE = "tournee"
    #: 001 "Dänischer Skat": German Skat with Grand 20, Schneider at 91, the Null games Nul,
    #: Nul ouvert and Dækker, and ouvert as an extra multiplier for every game.
    DANISH = "danish"

    @property
    def german(self) -> str:
        return {"german": "Skat", "tournee": "Tournee-Skat", "danish": "Dänischer Skat"}[self.value]


class TourneeGame(enum.Enum):
    """A Tournée-Skat game with trumps other than Grand ouvert (001 "Tournee-Skat"); the value
    is the record's word: ``"tournee": "first"`` or ``"second"``, ``"solo": true``,
    ``"guckser": true``."""

    #: "Er kann die Karte zeigen und ihre Trumpffarbe akzeptieren" (the first skat card).
    FIRST = "first"
    #: "Er kann die erste Karte aufnehmen, ohne sie zu zeigen, und die zweite Skatkarte
    #: aufdecken. Die Farbe der zweiten Karte wird automatisch Trumpf."
    SECOND = "second"
    #: "Dies ist den Handspielen im deutschen Skat vergleichbar. Es gibt keinen Handmultiplikator"
    SOLO = "solo"
    #: "Der Alleinspieler nimmt den Skat auf, legt zwei Karten ab und muss Grand spielen."
    GUCKSER = "guckser"

    @property
    def german(self) -> str:
        return _GERMAN[self]

    @property
    def english(self) -> str:
        return _ENGLISH[self]


_GERMAN = {TourneeGame.FIRST: "Tournee", TourneeGame.SECOND: "Tournee (zweite Karte)", TourneeGame.SOLO: "Solo",
           TourneeGame.GUCKSER: "Guckser"}
_ENGLISH = {TourneeGame.FIRST: "Tournee", TourneeGame.SECOND: "Tournee (second card)", TourneeGame.SOLO: "Solo",
            TourneeGame.GUCKSER: "Guckser"}

_SUITS = ("diamonds", "hearts", "spades", "clubs")

#: The base values by game (001 "Tournee-Skat"): "Karo 5, Herz 6, Pik 7, Kreuz 8, Grand 12"
#: for a Tournee (the first or the second card), "Karo 9, Herz 10, Pik 11, Kreuz 12, Grand 20"
#: for a Solo, and the Guckser "muss Grand spielen. Der Grundwert ist 16."
TOURNEE_BASES: dict[TourneeGame, dict[str, int]] = {
    TourneeGame.FIRST: dict(zip((*_SUITS, "grand"), (5, 6, 7, 8, 12))),
    TourneeGame.SECOND: dict(zip((*_SUITS, "grand"), (5, 6, 7, 8, 12))),
    TourneeGame.SOLO: dict(zip((*_SUITS, "grand"), (9, 10, 11, 12, 20))),
    TourneeGame.GUCKSER: {"grand": 16},
}

#: 001 "Tournee-Skat": "Grand Ouvert ... Der Grundwert ist 24"; "Ein einfaches Nullspiel ist 20
#: Punkte wert. Ein Null Ouvert ist 40 Punkte wert." (Null is played without the skat, so the
#: profile's Null and Null Hand values are the same, as are its two ouvert values.)
TOURNEE_GRAND_OUVERT = 24
TOURNEE_NULL, TOURNEE_NULL_OUVERT = 20, 40

# --------------------------------------------------------------------------- the profiles' data

#: Tournée-Skat (001 "Tournee-Skat"): every difference the text lists. Lost games: a Solo,
#: Null and Grand ouvert (played without the skat) single, as ``lost_hand_doubled`` false
#: says; a Tournee with the first card single too, with the second card and a Guckser double
#: (device.tournee.lost_factor). Its Ramsch is the Texas one: "wie im Texas Skat".
TOURNEE_JSON: dict[str, Any] = {
    "v": 1, "name": "tournee", "form": "tournee", "lost_hand_doubled": False,
    "grand_ouvert_base": TOURNEE_GRAND_OUVERT, "grand_ouvert_counts_ouvert": False,
    "null_values": [TOURNEE_NULL, TOURNEE_NULL, TOURNEE_NULL_OUVERT, TOURNEE_NULL_OUVERT], "schneider_at": 91,
    "ramsch": True, "ramsch_rules": {"skat_to": "last_trick", "value": "texas", "fixed_values": [10, 20, 30],
                                     "jungfrau": False, "durchmarsch": False},
}

#: Danish Skat as the Danish Skat union plays it (001 "Dänischer Skat" 1-4). Null Hand (closed)
#: is no Danish game: its value 0 says "not played". The tournament scoring ("die Gegner eines
#: nicht erfolgreichen Alleinspielers [erhalten] jeweils den Wert des Spiels") is the list's
#: scoring system ``danish`` (device.scoring.ScoringSystem.DANISH).
DANISH_JSON: dict[str, Any] = {
    "v": 1, "name": "danish", "form": "danish", "grand_base": 20, "grand_ouvert_base": 20, "schneider_at": 91,
    "null_values": [23, 0, 46, 69], "ouvert_any": True,
}

#: The club in Århus (001 "Dänischer Skat": "Die im Verein in Århus gespielte Variante"): Musik
#: is Spitze worth "zwei zusätzliche Multiplikatoren"; the Null games are "Nul (35), Nul-Hand
#: (46), Nul Ouvert (69), Dækker (Null Ouvert-Hand) (92)".
DANISH_AARHUS_JSON: dict[str, Any] = {
    **DANISH_JSON, "name": "danish_aarhus", "null_values": [35, 46, 69, 92], "spitze": True,
    "spitze_rules": {"max_cards": 1, "levels_per_card": 2},
}

#: The profiles of the other forms, in the order find_profile lists them.
FORM_PROFILES_JSON: tuple[dict[str, Any], ...] = (TOURNEE_JSON, DANISH_JSON, DANISH_AARHUS_JSON)


def form_variants_de(form: SkatForm, ouvert_any: bool) -> tuple[str, ...]:
    """The words of a form and of ouvert for every game, for the profile's list of variants.

    >>> form_variants_de(SkatForm.TOURNEE, False)
    ('Tournee-Skat: Tournee 5/6/7/8/12, Solo 9/10/11/12/20, Guckser 16, Grand ouvert 24, Null 20/40',)
    >>> form_variants_de(SkatForm.DANISH, True)
    ('Dänischer Skat: Nul, Nul ouvert, Dækker', 'Ouvert in jedem Spiel')
    """
    out: list[str] = []
    if form is SkatForm.TOURNEE:
        out.append("Tournee-Skat: Tournee 5/6/7/8/12, Solo 9/10/11/12/20, Guckser 16, "
                   f"Grand ouvert {TOURNEE_GRAND_OUVERT}, Null {TOURNEE_NULL}/{TOURNEE_NULL_OUVERT}")
    elif form is SkatForm.DANISH:
        out.append("Dänischer Skat: Nul, Nul ouvert, Dækker")
    if ouvert_any:
        out.append("Ouvert in jedem Spiel")
    return tuple(out)
