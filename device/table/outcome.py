"""From a played deal to its game record and the list entry it would make.

A game played to its tenth trick becomes a record in the cards form (declarer, skat, tricks)
and is checked by :func:`device.tricks.play_game` through :func:`device.record.score_record`
(the skat, if it was not scanned, is the two cards nobody played). A game that ended early
or whose result was typed in becomes a record in the counted form (matadors, declarer
points with the skat, declarer tricks, and how it ended). Either way the table stores and
syncs exactly what ``skattisch score`` reads.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from device.cards import DECK, Card, points
from device.declaration import Level
from device.errors import RecordError
from device.games import GameType
from device.profile import RuleProfile, find_profile
from device.record import RECORD_VERSION, ScoredRecord, score_record
from device.skatform import SkatForm, TourneeGame
from device.table.state import Deal
from device.tricks import trick_leaders, trump_order
from device.value import is_overbid_null, level_needed, overbid_null_game, reachable_level

__all__ = ["Counts", "Preview", "counts", "declaration_fields", "entry_matador_choices", "game_record",
           "inferred_matadors", "known_matadors", "matador_choices", "overbid_null", "preview"]


@dataclass(frozen=True, slots=True)
class Counts:
    """Card points and tricks of each party in the first tricks of a game (skat not included)."""

    declarer_points: int
    declarer_tricks: int
    defender_points: int
    defender_tricks: int


def counts(game: GameType, declarer: int, tricks: Iterable[tuple[Card, ...]]) -> Counts:
    """Each party's card points and tricks in ``tricks`` (Vorhand leads the first).

    >>> from device.cards import parse_cards
    >>> counts(GameType.GRAND, 0, [parse_cards("CA C7 CT"), parse_cards("SA S7 CJ")])
    Counts(declarer_points=21, declarer_tricks=1, defender_points=13, defender_tricks=1)
    """
    done = tricks if isinstance(tricks, tuple) else tuple(tricks)  # the deal's own tuple: its leaders are known
    dp = dt = fp = ft = 0
    for trick, winner in zip(done, trick_leaders(done, game)[1:]):  # each trick's winner leads the next
        if winner == declarer:
            dp, dt = dp + points(trick), dt + 1
        else:
            fp, ft = fp + points(trick), ft + 1
    return Counts(dp, dt, fp, ft)


def inferred_matadors(game: GameType, declarer_cards: Iterable[Card], elsewhere: Iterable[Card]) -> int | None:
    """The matadors if the cards known so far decide them, else None.

    ``declarer_cards`` are known to be the declarer's (played by him, or in the skat);
    ``elsewhere`` known to be the defenders'. Null has none (0).

    >>> from device.cards import parse_cards
    >>> inferred_matadors(GameType.GRAND, parse_cards("CJ SJ"), parse_cards("HJ"))
    2
    >>> inferred_matadors(GameType.GRAND, parse_cards("CJ SJ"), []) is None
    True
    >>> inferred_matadors(GameType.HEARTS, [], parse_cards("CJ SJ HJ DJ HA HT HK HQ H9 H8 H7"))
    -11
    """
    order = trump_order(game)
    if not order:
        return 0
    mine, theirs = frozenset(declarer_cards), frozenset(elsewhere)

    def owner(card: Card) -> bool | None:
        return True if card in mine else False if card in theirs else None

    top = owner(order[0])
    if top is None:
        return None
    count = 0
    for card in order:
        held = owner(card)
        if held is None:
            return None
        if held is not top:
            break
        count += 1
    return count if top else -count


def matador_choices(game: GameType) -> tuple[int, ...]:
    """What may be entered as matadors: "mit 1" … "mit 11" (4 in Grand) and "ohne"; none in Null.

    >>> matador_choices(GameType.GRAND)
    (1, 2, 3, 4, -1, -2, -3, -4)
    """
    most = len(trump_order(game))
    return tuple(range(1, most + 1)) + tuple(-n for n in range(1, most + 1))


def overbid_null(deal: Deal) -> bool:
    """A Null declared after a bid above its value: ended at once, lost (ISkO 3.4.4)."""
    return (deal.declaration is not None and deal.bid is not None
            and is_overbid_null(deal.declaration, deal.bid, find_profile(deal.profile)))


def entry_matador_choices(deal: Deal) -> tuple[int, ...]:
    """The matadors the table may enter for this deal: the game's own, and for an overbid Null
    those of the suit game it is lost as (1 to 11, ISkO 3.4.4)."""
    assert deal.game is not None
    return matador_choices(GameType.CLUBS if overbid_null(deal) else deal.game)


def declaration_fields(deal: Deal) -> dict[str, Any]:
    """The fields every record of this deal has: game, hand, ouvert, announced, bid, multipliers."""
    declaration, bid = deal.declaration, deal.bid
    assert declaration is not None and bid is not None
    fields: dict[str, Any] = {
        "v": RECORD_VERSION, "game": declaration.game.value, "hand": declaration.hand,
        "ouvert": declaration.ouvert, "announced": declaration.announced.record_name, "bid": bid,
    }
    if declaration.form is SkatForm.TOURNEE:
        fields.update(_tournee_fields(deal))
    if deal.kontra is not None:
        fields["kontra"] = True
    if deal.re is not None:
        fields["re"] = True
    if deal.bock > 1:
        fields["bock"] = deal.bock
    if deal.schenken is not None:  # 001 "Schenken": given, or played on after an offer
        fields["schenken"] = deal.schenken
    if deal.spitze:  # 001 "Spitze": the cards form shows whether it was made
        fields["spitze"] = deal.spitze
    return fields


def _tournee_fields(deal: Deal) -> dict[str, Any]:
    """A Tournée game's record fields (device.tournee): no "hand" (a game without the skat is
    a Solo, Null or Grand ouvert), the game's kind and the card that decided the trump."""
    declaration = deal.declaration
    assert declaration is not None
    fields: dict[str, Any] = {"hand": False}
    kind = declaration.tournee
    if kind in (TourneeGame.FIRST, TourneeGame.SECOND):
        fields["tournee"] = kind.value
        if deal.turned is not None:
            fields["turned_card"] = deal.turned.code
    elif kind is not None:
        fields[kind.value] = True  # "solo": true, "guckser": true
    return fields


def known_matadors(deal: Deal) -> int | None:
    """The matadors as far as the cards seen so far (tricks, known skat) decide them."""
    assert deal.game is not None and deal.declarer is not None
    if overbid_null(deal):
        return None  # nothing was played: the players give his Spitzen
    mine: list[Card] = list(deal.skat)
    theirs: list[Card] = []
    for card, (_, position) in deal.who_played().items():
        (mine if position == deal.declarer else theirs).append(card)
    return inferred_matadors(deal.game, mine, theirs)


def game_record(deal: Deal) -> dict[str, Any] | None:
    """The game record of a finished deal (None while it is not finished or was eingepasst).

    A counted record without ``matadors`` means the table still has to give them.
    """
    if deal.declaration is None or deal.declarer is None or not deal.finished:
        return None
    game = deal.declaration.game
    record = declaration_fields(deal)
    if deal.entered is not None:
        entered = deal.entered
        # None: not counted — left out (neither party took all), in Null kept as null ("verloren")
        if entered.declarer_tricks is not None or game.is_null:
            record["declarer_tricks"] = entered.declarer_tricks
        if entered.declarer_points is not None:
            record["declarer_points"] = entered.declarer_points
        if entered.matadors is not None and not game.is_null:
            record["matadors"] = entered.matadors
        if deal.spitze and deal.spitze_made is not None:
            record["spitze_made"] = deal.spitze_made
        return record
    if deal.early is None:
        played = frozenset(deal.cards_played)
        rest = [c for c in DECK if c not in played and c not in deal.skat]
        record.update(declarer=deal.declarer, skat=[c.code for c in (*deal.skat, *rest)],
                      tricks=[[c.code for c in t] for t in deal.tricks])
        return record
    early = deal.early
    if early.how == "null_overbid":
        return _overbid_null_record(deal, record)
    got = counts(game, deal.declarer, deal.tricks[: early.upto])
    record["declarer_points"] = got.declarer_points + points(deal.skat)
    record["declarer_tricks"] = got.declarer_tricks
    matadors = deal.matadors if deal.matadors is not None else known_matadors(deal)
    if not game.is_null and matadors is not None:
        record["matadors"] = matadors
    if early.how != "null_lost":
        by = "defenders_gave_up" if early.how == "gift" else early.how  # a gift: the defenders gave the game
        record["ending"] = {"by": by, "defender_points": got.defender_points,
                            "defender_tricks": got.defender_tricks}
        if early.how.startswith("defenders_") and matadors is not None and not _needed_level_possible(deal, matadors):
            record["ending"]["level_possible"] = False
    if early.note is not None:
        record["note"] = early.note
    if deal.spitze:  # ended early: the Spitze counts as made when the defenders ended it (score_spitze)
        record["spitze_made"] = early.how.startswith("defenders_")
    return record


def _needed_level_possible(deal: Deal, matadors: int) -> bool:
    """ISkO 5.4.3 from the cards scanned so far: False when they prove the level the declarer
    needs out of reach before the first trick (device.value.reachable_level). The defenders'
    cards are those they played; the declarer may hold any card not theirs and not in the
    known skat, so an unknown card never takes a level away."""
    assert deal.declaration is not None and deal.bid is not None
    needed = level_needed(deal.declaration, matadors, deal.bid, find_profile(deal.profile))
    if needed is None or needed is Level.SIMPLE:
        return True
    theirs = [card for card, (_, position) in deal.who_played().items() if position != deal.declarer]
    known = frozenset(theirs) | frozenset(deal.skat)
    mine = [card for card in DECK if card not in known]
    return needed <= reachable_level(deal.declaration.game, mine, theirs)


def _overbid_null_record(deal: Deal, record: dict[str, Any]) -> dict[str, Any]:
    """ISkO 3.4.4: the Null announcement ended the game; with the matadors given, the record
    names the game it is lost as (``lost_as``), so the list keeps the decision as it was made."""
    assert deal.early is not None and deal.bid is not None
    record["note"] = deal.early.note
    if deal.matadors is not None:
        record["matadors"] = deal.matadors
        record["lost_as"] = overbid_null_game(deal.bid, deal.matadors, find_profile(deal.profile)).value
    return record


@dataclass(frozen=True, slots=True)
class Preview:
    """The list entry a finished deal would make, or what is still missing.

    ``scored`` is None while ``needs_matadors`` or when the record has a ``problem``.
    """

    record: dict[str, Any]
    scored: ScoredRecord | None
    needs_matadors: bool
    problem: str | None
    #: A result typed in with a Spitze announced: was it made? (asked like the matadors)
    needs_spitze: bool = False
    problem_german: str = ""  # the problem in the table's words, where the check gave them


def preview(deal: Deal, profile: RuleProfile) -> Preview | None:
    """Score the finished deal as the list would (None while it is not finished)."""
    record = game_record(deal)
    if record is None:
        return None
    assert deal.game is not None
    if (not deal.game.is_null or overbid_null(deal)) and "tricks" not in record and "matadors" not in record:
        return Preview(record, None, True, None)
    if "spitze" in record and "tricks" not in record and "spitze_made" not in record:
        return Preview(record, None, False, None, needs_spitze=True)
    try:
        return Preview(record, score_record(record, profile=profile), False, None)
    except RecordError as exc:
        return Preview(record, None, False, str(exc), problem_german=exc.german)
