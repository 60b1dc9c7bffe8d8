"""Tournée-Skat's games and values (rule text 001, section "Tournee-Skat").

"Es gibt keine Skatspiele im üblichen Sinn ... Die einzig möglichen Spiele sind": the Tournee
(the first or the second skat card decides the trump; a jack allows Grand or its suit), the
Solo (from the hand, no Hand multiplier), the Guckser (Grand after taking up the skat), Null,
Null ouvert and Grand ouvert. :mod:`device.value` asks this module for a Tournée game's base
value, lost factor, bid values and checks; :mod:`device.record` for a record's declaration.

A Tournee with the second card, Herz mit 1, Spiel 2 = 12, lost: doubled.

>>> from device.value import Play, score_game
>>> herz = Declaration.make(GameType.HEARTS, tournee=TourneeGame.SECOND, form=SkatForm.TOURNEE)
>>> r = score_game(herz, 12, Play(50, 4, matadors=1), profile=TOURNEE)
>>> r.describe_de(), r.score
('Herz Tournee (zweite Karte) mit 1, Spiel 2 = 12, verloren -24', -24)
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from device.cards import Card
from device.declaration import Declaration, Level
from device.errors import CardError, DeclarationError, RecordError
from device.games import GameType
from device.profile import TOURNEE, RuleProfile
from device.skatform import TOURNEE_BASES, SkatForm, TourneeGame

#: The record's fields of a Tournée game: "tournee" ("first"/"second"), "solo", "guckser", and
#: the card that decided the trump ("turned_card", optional).
RECORD_FIELDS = ("tournee", "solo", "guckser", "turned_card")
#: The levels beyond the matadors: Spiel, Schneider, Schwarz after taking up the skat; a Solo
#: and Grand ouvert add Schneider and Schwarz angesagt ("bis einschließlich Schwarz angesagt").
_SKAT_LEVELS, _HAND_LEVELS = 3, 5


def is_tournee(profile: RuleProfile) -> bool:
    return profile.form is SkatForm.TOURNEE


def base_value(decl: Declaration, profile: RuleProfile = TOURNEE) -> int:
    """The Grundwert of a Tournée game: Tournee 5/6/7/8/12, Solo 9/10/11/12/20, Guckser 16,
    Grand ouvert 24 (the profile's); 0 for Null.

    >>> base_value(Declaration.make(GameType.SPADES, tournee=TourneeGame.FIRST, form=SkatForm.TOURNEE))
    7
    """
    if decl.game.is_null:
        return 0
    if decl.ouvert:
        return profile.grand_ouvert_base
    if decl.tournee is None:
        raise DeclarationError(f"{decl.game.german}: not a game of Tournee-Skat (Tournee, Solo or Guckser)")
    return TOURNEE_BASES[decl.tournee][decl.game.value]


def lost_factor(decl: Declaration) -> int:
    """001: a Tournee lost "entspricht ... dem Wert des Spiels, wenn die erste Karte zur
    Bestimmung des Trumpfes verwendet wurde. Der Betrag wird verdoppelt, wenn die zweite Karte
    verwendet wurde"; a Solo "verlorene Spiele werden nicht doppelt gewertet"; a Guckser "Wenn
    das Spiel verloren wird, wird der Punktwert verdoppelt"; Null "keine Verdoppelung". Grand
    ouvert: the text says nothing; it is played without the skat like a Solo, so single.

    >>> [lost_factor(Declaration.make(GameType.GRAND, tournee=k)) for k in TourneeGame]
    [1, 2, 1, 2]
    """
    return 2 if decl.tournee in (TourneeGame.SECOND, TourneeGame.GUCKSER) else 1


def check_declaration(decl: Declaration, profile: RuleProfile) -> None:
    """Refuse a declaration Tournée-Skat does not have (the text's list of games)."""
    name = profile.name
    if decl.game.is_null:
        if decl.tournee is not None:
            raise DeclarationError(f"Null is played without the skat under the rule profile {name!r}: no {decl.tournee.german}")
        return
    if decl.ouvert:
        if decl.game is not GameType.GRAND or decl.tournee is not None or not decl.hand:
            raise DeclarationError(f"{decl.describe_de()}: the only open games under the rule profile {name!r} are "
                                   "Null ouvert and Grand ouvert, played without the skat (001 Tournee-Skat)")
        return
    if decl.tournee is None:
        raise DeclarationError(f"{decl.describe_de()}: no ordinary skat games under the rule profile {name!r} "
                               "(001: \"Es gibt keine Skatspiele im üblichen Sinn\"): Tournee, Solo or Guckser")
    if decl.hand != (decl.tournee is TourneeGame.SOLO):
        raise DeclarationError(f"{decl.describe_de()}: a Solo is played without the skat, a Tournee and a Guckser with it")
    if decl.tournee is TourneeGame.GUCKSER and decl.game is not GameType.GRAND:
        raise DeclarationError(f"a Guckser is Grand (001: \"muss Grand spielen\"), not {decl.game.german}")
    if decl.announced is not Level.SIMPLE and decl.tournee is not TourneeGame.SOLO:
        raise DeclarationError(f"{decl.announced.german} angesagt: only in a Solo under the rule profile {name!r}")


def _games() -> list[tuple[int, int, int]]:
    """(base value, lowest factor, highest factor) of every Tournée game with trumps."""
    out = []
    for kind, bases in TOURNEE_BASES.items():
        levels = _HAND_LEVELS if kind is TourneeGame.SOLO else _SKAT_LEVELS
        for game, base in bases.items():
            out.append((base, 2, (4 if game == "grand" else 11) + levels))
    return out


@functools.cache
def bid_values(profile: RuleProfile = TOURNEE) -> frozenset[int]:
    """Every value a Tournée game can have, so every bid: the lowest is Karo Tournee mit 1,
    Spiel 2 = 10 (the text names no lowest bid; German Skat's 18 is its lowest game too).

    >>> values = bid_values()
    >>> min(values), max(values), 18 in values, 23 in values
    (10, 216, True, False)
    """
    values = {base * factor for base, low, high in _games() for factor in range(low, high + 1)}
    values |= {profile.grand_ouvert_base * factor for factor in range(1 + _HAND_LEVELS, 4 + _HAND_LEVELS + 1)}
    values |= {v for v in profile.null_values if v}
    return frozenset(values)


def highest_value(profile: RuleProfile = TOURNEE) -> int:
    """The highest Tournée game: Grand ouvert mit 4, "bis einschließlich Schwarz angesagt" 9 x 24."""
    return max(bid_values(profile))


# --------------------------------------------------------------------------- records


def refuse_fields(record: Mapping[str, Any], profile: RuleProfile) -> None:
    """A record with a Tournée field under another profile is refused, naming field and profile."""
    for field in RECORD_FIELDS:
        if field in record:
            raise RecordError(field, f"Tournee, Solo and Guckser are games of Tournee-Skat: not played under the rule "
                                     f"profile {profile.name!r} (score with --profile tournee)",
                              f"Tournee, Solo und Guckser gibt es nur im Tournee-Skat, nicht im Regelprofil {profile.name!r}")


def record_declaration(record: Mapping[str, Any], game: GameType, announced: Level, profile: RuleProfile) -> Declaration:
    """The declaration of a Tournée record; refusals name the field and the profile.

    >>> record_declaration({"game": "clubs", "hand": True}, GameType.CLUBS, Level.SIMPLE, TOURNEE)
    Traceback (most recent call last):
    ...
    device.errors.RecordError: hand: Kreuz Hand is not played under the rule profile 'tournee': a game without the skat is a Solo ("solo": true) and has no Hand multiplier (001 Tournee-Skat)
    """
    name = profile.name
    if record.get("hand"):
        raise RecordError("hand", f"{game.german} Hand is not played under the rule profile {name!r}: a game without the "
                                  "skat is a Solo (\"solo\": true) and has no Hand multiplier (001 Tournee-Skat)",
                          f"{game.german} Hand gibt es im Tournee-Skat nicht: ohne Skat heißt es Solo")
    kind = _kind(record)
    ouvert = _flag(record, "ouvert")
    if "turned_card" in record and kind not in (TourneeGame.FIRST, TourneeGame.SECOND):
        raise RecordError("turned_card", "the turned card decides the trump of a Tournee only (\"tournee\": \"first\" or \"second\")")
    if kind is None and not game.is_null and not ouvert:
        raise RecordError("tournee", f"{game.german} as an ordinary skat game is not played under the rule profile {name!r} "
                                     "(001: \"Es gibt keine Skatspiele im üblichen Sinn\"): give \"tournee\": \"first\" or "
                                     "\"second\", \"solo\": true or \"guckser\": true",
                          f"{game.german} ohne Tournee, Solo oder Guckser gibt es im Tournee-Skat nicht")
    if "turned_card" in record:
        _check_turned_card(record["turned_card"], game)
    if announced is not Level.SIMPLE and kind not in (TourneeGame.SOLO, None):
        raise RecordError("announced", f"{announced.german} angesagt: only in a Solo under the rule profile {name!r} "
                                       f"(a {kind.german} takes up the skat)")
    hand = kind is TourneeGame.SOLO or kind is None
    try:
        decl = Declaration.make(game, hand=hand, ouvert=ouvert, announced=announced, tournee=kind, form=SkatForm.TOURNEE)
        check_declaration(decl, profile)
    except DeclarationError as exc:
        field = "ouvert" if ouvert else "announced" if announced is not Level.SIMPLE else _kind_field(record)
        raise RecordError(field, str(exc)) from None
    return decl


def _kind(record: Mapping[str, Any]) -> TourneeGame | None:
    kinds = []
    if "tournee" in record:
        raw = record["tournee"]
        if raw not in ("first", "second"):
            raise RecordError("tournee", f"{raw!r}: \"first\" (the first skat card decided the trump) or \"second\"")
        kinds.append(TourneeGame(raw))
    kinds += [TourneeGame(field) for field in ("solo", "guckser") if _flag(record, field)]
    if len(kinds) > 1:
        raise RecordError(_kind_field(record, last=True), "one game: a Tournee, a Solo or a Guckser, not two")
    return kinds[0] if kinds else None


def _kind_field(record: Mapping[str, Any], *, last: bool = False) -> str:
    given = [f for f in ("tournee", "solo", "guckser") if f in record and record[f] not in (False, None)]
    return (given[-1] if last else given[0]) if given else "tournee"


def _flag(record: Mapping[str, Any], field: str) -> bool:
    value = record.get(field, False)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise RecordError(field, f"{value!r} is not true or false")
    return value


def turned_trumps(card: Card) -> tuple[GameType, ...]:
    """The games a turned skat card allows (001 "Tournee-Skat"): its suit; a jack: its suit or
    Grand ("Wenn eine der beiden Karten ein Bube ist, kann der Alleinspieler Grand oder die
    Farbe des Buben wählen").

    >>> turned_trumps(Card.parse("H7")), turned_trumps(Card.parse("SJ"))
    ((<GameType.HEARTS: 'hearts'>,), (<GameType.SPADES: 'spades'>, <GameType.GRAND: 'grand'>))
    """
    suit = next(game for game in GameType if game.trump_suit is card.suit)
    return (suit, GameType.GRAND) if card.is_jack else (suit,)


def _check_turned_card(raw: object, game: GameType) -> None:
    """001: the turned card's suit is trump; "Wenn eine der beiden Karten ein Bube ist, kann der
    Alleinspieler Grand oder die Farbe des Buben wählen."""
    try:
        card = Card.parse(raw) if isinstance(raw, str) else None
    except CardError as exc:
        raise RecordError("turned_card", str(exc)) from None
    if card is None:
        raise RecordError("turned_card", f"{raw!r}: a card code such as \"HA\"")
    if game not in turned_trumps(card):
        choice = f"{card.suit.german} or Grand" if card.is_jack else card.suit.german
        raise RecordError("turned_card", f"{card.german} turned makes {choice} trump, not {game.german} (001 Tournee-Skat)",
                          f"{card.german} aufgedeckt: Trumpf ist {choice.replace(' or ', ' oder ')}, nicht {game.german}")
