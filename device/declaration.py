"""Declarations (Spielansage) and their validity (ISkO 3.4.4, 5.2.5, 5.2.6).

>>> Declaration.make(GameType.CLUBS, hand=True, ouvert=True)
Declaration(game=<GameType.CLUBS: 'clubs'>, hand=True, ouvert=True, announced=<Level.SCHWARZ: 2>)
>>> Declaration.make(GameType.HEARTS, announced=Level.SCHNEIDER)
Traceback (most recent call last):
...
device.errors.DeclarationError: Schneider angesagt is only possible in a hand game (ISkO 3.4.4, 5.2.5)
>>> Declaration.make(GameType.NULL, ouvert=True).describe_de()
'Null ouvert'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from device.errors import DeclarationError
from device.games import NULL_VALUES, GameType
from device.profile import RuleProfile
from device.skatform import SkatForm, TourneeGame


class Level(enum.IntEnum):
    """Winning levels beyond the game itself: einfach, Schneider, Schwarz."""

    SIMPLE = 0
    SCHNEIDER = 1
    SCHWARZ = 2

    @classmethod
    def parse(cls, name: str | None) -> Level:
        """From a record's ``announced``: ``None``, ``"schneider"`` or ``"schwarz"``."""
        if name is None:
            return cls.SIMPLE
        if name in ("schneider", "schwarz"):
            return cls[name.upper()]
        raise DeclarationError(f'unknown announcement {name!r}: null, "schneider" or "schwarz"')

    @property
    def record_name(self) -> str | None:
        return None if self is Level.SIMPLE else self.name.lower()

    @property
    def german(self) -> str:
        return ("einfach", "Schneider", "Schwarz")[self]


@dataclass(frozen=True, slots=True)
class Declaration:
    """A game as declared. Build it with :meth:`make`, which checks and completes it."""

    game: GameType
    hand: bool = False
    ouvert: bool = False
    announced: Level = Level.SIMPLE
    #: The rules let Schneider, Schwarz and ouvert be announced after taking up the skat too
    #: (001 "Texas-Skat"; :attr:`device.profile.RuleProfile.announce_after_skat`); the ISkO
    #: allows them only in a hand game (3.4.4, 5.2.5, 5.2.6).
    late_announcements: bool = field(default=False, repr=False)
    #: A Tournée-Skat game: Tournee (first or second card), Solo or Guckser (device.tournee);
    #: None for every other game, Tournée's Null and Grand ouvert too.
    tournee: TourneeGame | None = field(default=None, repr=False)
    #: Ouvert is one more level of any game, after the skat too, and needs no Schwarz (001
    #: "Dänischer Skat" 4; :attr:`device.profile.RuleProfile.ouvert_any`).
    ouvert_any: bool = field(default=False, repr=False)
    #: The form of Skat, for the names of its games (Tournee, Solo, Guckser; Nul, Dækker).
    form: SkatForm = field(default=SkatForm.GERMAN, repr=False)

    def __post_init__(self) -> None:
        # Scoring trusts a Declaration, so one built directly must already be checked and complete.
        complete = _complete(self.game, self.hand, self.ouvert, self.announced,
                             self.late_announcements, self.ouvert_any)
        if complete != (self.game, self.hand, self.ouvert, self.announced):
            raise DeclarationError(
                f"{self.game.german} ouvert is announced Schwarz (ISkO 5.2.6): build it with Declaration.make"
            )

    @classmethod
    def make(
        cls, game: GameType, *, hand: bool = False, ouvert: bool = False, announced: Level = Level.SIMPLE,
        late_announcements: bool = False, tournee: TourneeGame | None = None, ouvert_any: bool = False,
        form: SkatForm = SkatForm.GERMAN,
    ) -> Declaration:
        """Check a declaration against ISkO 3.4.4 and complete it.

        Suit and Grand ouvert are hand games announced Schwarz (5.2.6): ``announced`` is
        raised to Schwarz, but ``hand=False`` with them is a contradiction and refused, unless
        ``late_announcements`` (Texas-Skat) lets them follow the skat.

        >>> Declaration.make(GameType.GRAND, ouvert=True, late_announcements=True).describe_de()
        'Grand ouvert nach Skataufnahme'
        """
        return cls(*_complete(game, hand, ouvert, announced, late_announcements, ouvert_any),
                   late_announcements=late_announcements, tournee=tournee, ouvert_any=ouvert_any, form=form)

    def check_skat(self, *, skat_taken: bool) -> None:
        """Refuse what cannot be declared after taking up the skat (ISkO 3.4.4)."""
        if skat_taken and self.hand:
            raise DeclarationError(f"{self.describe_de()} is a hand game: not possible after taking up the skat (ISkO 3.4.4)")

    @property
    def null_value(self) -> int:
        """The fixed value of a Null game (ISkO 5.1.2); 0 for other games."""
        return NULL_VALUES[(self.hand, self.ouvert)] if self.game.is_null else 0

    def describe_de(self) -> str:
        """How players say it: 'Kreuz Hand Schneider angesagt', 'Grand ouvert', 'Null Hand'; in
        Tournée-Skat 'Herz Tournee', 'Kreuz Solo', 'Guckser'; in Danish Skat 'Nul', 'Dækker'."""
        if self.form is not SkatForm.GERMAN and (self.tournee is not None or self.game.is_null or self.ouvert_any):
            return form_words(self, _GAME_DE)
        if self.ouvert:  # "Grand ouvert", "Null ouvert Hand": suit/Grand ouvert is hand (ISkO)
            if not self.game.is_null and not self.hand:  # Texas: ouvert after the skat
                return f"{self.game.german} ouvert nach Skataufnahme"
            return f"{self.game.german} ouvert" + (" Hand" if self.game.is_null and self.hand else "")
        words = [self.game.german] + (["Hand"] if self.hand else [])
        if self.announced is not Level.SIMPLE:
            words.append(f"{self.announced.german} angesagt")
        return " ".join(words)


_GAME_DE = {g: g.german for g in GameType}
_DANISH_NULLS = {(False, False): "Nul", (True, False): "Nul Hand", (False, True): "Nul ouvert", (True, True): "Dækker"}


def form_words(decl: Declaration, names: dict[GameType, str], english: bool = False) -> str:
    """A Tournée or Danish declaration as players say it; ``names`` are the games' names.

    >>> form_words(Declaration.make(GameType.NULL, hand=True, ouvert=True, form=SkatForm.DANISH), _GAME_DE)
    'Dækker'
    >>> form_words(Declaration.make(GameType.GRAND, tournee=TourneeGame.GUCKSER, form=SkatForm.TOURNEE), _GAME_DE)
    'Guckser'
    """
    if decl.game.is_null and decl.form is SkatForm.DANISH:
        return _DANISH_NULLS[(decl.hand, decl.ouvert)]
    if decl.game.is_null or (decl.ouvert and not decl.ouvert_any):  # Tournée: Null, Null/Grand ouvert
        return names[decl.game] + (" ouvert" if decl.ouvert else "")
    if decl.tournee is TourneeGame.GUCKSER:
        return "Guckser"
    words = [names[decl.game]]
    if decl.tournee is not None:
        words.append(decl.tournee.english if english else decl.tournee.german)
    words += ["Hand"] if decl.hand and decl.tournee is None else []
    if decl.announced is not Level.SIMPLE:
        words.append(f"{decl.announced.german} {'announced' if english else 'angesagt'}")
    return " ".join(words + (["ouvert"] if decl.ouvert else []))


_SHORT_KIND = {TourneeGame.FIRST: "T", TourneeGame.SECOND: "T2", TourneeGame.SOLO: "Solo"}


def form_short(decl: Declaration, name: str) -> str:
    """A Tournée or Danish declaration in the list's short form (``name``: the game's short name):
    T (Tournee), T2 (with the second card), Solo, Guckser; Nul, Nul o, Dækker; H, S, Sw, o.

    >>> form_short(Declaration.make(GameType.HEARTS, tournee=TourneeGame.SECOND, form=SkatForm.TOURNEE), "Herz")
    'Herz T2'
    >>> form_short(Declaration.make(GameType.NULL, hand=True, ouvert=True, form=SkatForm.DANISH), "Null")
    'Dækker'
    """
    if decl.game.is_null and decl.form is SkatForm.DANISH:
        return {"Nul ouvert": "Nul o"}.get(_DANISH_NULLS[(decl.hand, decl.ouvert)], _DANISH_NULLS[(decl.hand, decl.ouvert)])
    if decl.tournee is TourneeGame.GUCKSER:
        return "Guckser"
    words = [name] + ([_SHORT_KIND[decl.tournee]] if decl.tournee is not None else [])
    words += ["H"] if decl.hand and decl.form is SkatForm.DANISH else []
    if decl.announced is not Level.SIMPLE and (decl.ouvert_any or not decl.ouvert):
        words.append("S" if decl.announced is Level.SCHNEIDER else "Sw")
    return " ".join(words + (["o"] if decl.ouvert else []))


def _complete(
    game: GameType, hand: bool, ouvert: bool, announced: Level, late: bool = False, ouvert_any: bool = False,
) -> tuple[GameType, bool, bool, Level]:
    """The checked and completed fields of a declaration (ISkO 3.4.4, 5.2.5, 5.2.6); ``late``:
    announcements after taking up the skat are allowed (001 "Texas-Skat"); ``ouvert_any``:
    ouvert is a level of its own that needs no Schwarz, after the skat too (001 "Dänischer Skat")."""
    if game.is_null:
        if announced is not Level.SIMPLE:
            raise DeclarationError(f"Null games have no Schneider or Schwarz to announce ({announced.german} angesagt)")
        return game, hand, ouvert, Level.SIMPLE
    if ouvert and ouvert_any:
        if announced is not Level.SIMPLE and not hand and not late:
            raise DeclarationError(f"{announced.german} angesagt is only possible in a hand game (ISkO 3.4.4, 5.2.5)")
        return game, hand, True, announced
    if ouvert:
        if not hand and not late:
            raise DeclarationError(
                f"{game.german} ouvert is always a hand game: it cannot be declared after taking up the skat (ISkO 3.4.4, 5.2.6)"
            )
        return game, hand, True, Level.SCHWARZ
    if announced is not Level.SIMPLE and not hand and not late:
        raise DeclarationError(f"{announced.german} angesagt is only possible in a hand game (ISkO 3.4.4, 5.2.5)")
    return game, hand, False, announced


#: The cards of the first trick: the declarer may look at his discards until the next card.
_FIRST_TRICK_CARDS = 3


def may_look_at_discards(profile: RuleProfile, *, skat_taken: bool, cards_played: int) -> bool:
    """Whether the declarer may look at the two cards he laid away, ``cards_played`` cards into
    the game (0 before the lead).

    ISkO 3.4.8: "Nach einer gültigen Spielansage darf der Skat weder angesehen noch verändert
    werden" (lost einfach), so never once play has begun. 001 "Texas-Skat": "Wenn sich ein
    Alleinspieler den Skat angesehen hat, kann dieser sich die abgelegten Skatkarten jederzeit
    ansehen, bevor die erste Karte auf den zweiten Stich gespielt wird": in a game with the skat
    taken up, until the fourth card. A hand game has no discards of his to look at.

    >>> from device.profile import ISKO, find_profile
    >>> texas = find_profile("texas")
    >>> [may_look_at_discards(texas, skat_taken=True, cards_played=n) for n in (0, 3, 4)]
    [True, True, False]
    >>> may_look_at_discards(texas, skat_taken=False, cards_played=0), may_look_at_discards(ISKO, skat_taken=True, cards_played=0)
    (False, False)
    """
    if isinstance(cards_played, bool) or not isinstance(cards_played, int) or not 0 <= cards_played <= 30:
        raise DeclarationError(f"cards_played: {cards_played!r} is not a number of cards played: 0 to 30")
    return profile.look_at_discards and skat_taken and cards_played <= _FIRST_TRICK_CARDS
