"""The game record: one declarer game as JSON, as the list stores and syncs it (``"v": 1``).

Two forms (see docs/reference/formats.md, "Game record"):

- the cards form: ``declarer`` (0 Vorhand, 1 Mittelhand, 2 Hinterhand), ``skat`` (the two
  cards in the skat at the end) and ``tricks`` in play order, each starting with its leader's
  card (Vorhand leads the first);
- the counted form: ``matadors`` (signed), ``declarer_points`` (skat included) and
  ``declarer_tricks`` (optional outside Null: left out when the tricks were not counted, which
  says neither party took all of them — the Augen decide the value, the tricks only Schwarz;
  in Null ``"declarer_tricks": null`` is "verloren" with the tricks not counted).

Both carry ``game``, ``hand``, ``ouvert``, ``announced`` and ``bid``; optional are ``kontra``,
``re``, ``bock`` (a multiplier) and ``ending`` (how a game ended early).

A Null announced after a bid above its value (ISkO 3.4.4) ended at its announcement: its
record has ``matadors`` and no play, and optionally ``lost_as``, the suit or Grand game it is
lost as (Skattisch picks the cheapest that reaches the bid when it is left out):

>>> result_to_json(score_record({"game": "null", "bid": 24, "matadors": -2}))["text"]
'Null (23) bei Reizwert 24 nicht durchführbar (ISkO 3.4.4): verloren als Karo ohne 2, Spiel 3 = 27, verloren -54'

>>> record = {"v": 1, "game": "clubs", "hand": True, "bid": 18,
...           "matadors": 2, "declarer_points": 75, "declarer_tricks": 6}
>>> result_to_json(score_record(record))["score"]
48
>>> result_to_json(score_record({**record, "hand": False, "declarer_points": 75}))["text"]  # tricks not counted
'Kreuz mit 2, Spiel 3 = 36, gewonnen +36'
>>> score_record({"game": "grand", "bid": 19, "matadors": 1, "declarer_points": 70, "declarer_tricks": 6})
Traceback (most recent call last):
...
device.errors.RecordError: bid: 19 is not a bid value (18, 20, 22, 23, 24, 27, 30, ...)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from device import tournee
from device.cards import DECK, Card
from device.declaration import Declaration, Level
from device.errors import CardError, DeclarationError, PlayError, RecordError
from device.games import GameType
from device.profile import ISKO, RuleProfile, spitze_profile
from device.skatform import SkatForm
from device.tricks import PlayedGame, play_game
from device.variants import Schenken, VariantError, kontra_multiplier, score_schenken, score_spitze, spitze_made
from device.value import (
    Ending, EndedBy, GameResult, InvalidResultError, Play, is_overbid_null, reachable_level, score_game,
    check_overbid_null_bid, null_value, score_overbid_null, uncounted_tricks,
)

RECORD_VERSION = 1
_DECLARATION_FIELDS = {"v", "id", "game", "hand", "ouvert", "announced", "bid", "kontra", "re", "bock", "ending",
                       "lost_as"}
_CARDS_FIELDS = {"declarer", "skat", "tricks"}
_COUNTED_FIELDS = {"matadors", "declarer_points", "declarer_tricks"}
#: A Spitze announced (001 "Spitze"; the Århus "Musik"): how many cards, and in the counted form
#: whether it was made (the cards form shows it).
_SPITZE_FIELDS = {"spitze", "spitze_made"}
#: Where a Schenken ended (001 "Schenken"): "geschenkt", "weiterspielen", "schneider_geschenkt",
#: "weiterspielen_schwarz" (device.variants.Schenken). A gift is a counted record (the counts when
#: it was given, the defenders' in ``ending``); a game played on has its play as usual.
_SCHENKEN_FIELDS = {"schenken"}
_ENDING_FIELDS = {"by", "defender_points", "defender_tricks", "level_possible", "proven_level"}
_KNOWN_FIELDS = _DECLARATION_FIELDS | _CARDS_FIELDS | _COUNTED_FIELDS | {"seat", "player", "note"} | set(tournee.RECORD_FIELDS) | _SPITZE_FIELDS | _SCHENKEN_FIELDS


@dataclass(frozen=True, slots=True)
class ScoredRecord:
    """A record's result, with the reconstructed game when it came in the cards form."""

    result: GameResult
    played: PlayedGame | None
    false_following: dict[str, Any] | None


def score_record(record: Mapping[str, Any], *, profile: RuleProfile = ISKO) -> ScoredRecord:
    """Check and score one game record; a bad record raises :class:`RecordError` naming the field."""
    if not isinstance(record, Mapping):
        raise RecordError("record", "a game record is a JSON object")
    _check_known_fields(record)
    declaration = _declaration(record, profile)
    bid = _int(record, "bid")
    multiplier = _multiplier(record, profile)
    if "lost_as" in record and not is_overbid_null(declaration, bid, profile):
        raise RecordError("lost_as", "only an overbid Null (bid above the Null's value, ISkO 3.4.4) is lost as another game")
    if is_overbid_null(declaration, bid, profile):
        return ScoredRecord(_overbid_null(record, declaration, bid, multiplier, profile), None, None)
    _check_form(record)
    ending = _ending(record)
    played, false_following = None, None
    if _CARDS_FIELDS & record.keys():
        played = _played(record, declaration.game)
        play, ending, false_following = _play_from_cards(record, declaration, played, ending, profile)
    else:
        play = _play_from_counts(record, declaration)
    try:
        if "schenken" in record:
            result = _schenken(record, declaration, bid, play, ending, multiplier, profile)
        elif _SPITZE_FIELDS & record.keys():
            result = _spitze(record, declaration, bid, play, ending, played, multiplier, profile)
        else:
            result = score_game(declaration, bid, play, ending=ending, multiplier=multiplier, profile=profile)
    except InvalidResultError as exc:
        raise RecordError(exc.field, exc.reason, exc.german) from None
    except DeclarationError as exc:
        field, _, reason = str(exc).partition(": ")
        raise (RecordError(field, reason) if field == "bid" else RecordError("game", str(exc))) from None
    return ScoredRecord(result, played, false_following)


def _spitze(
    record: Mapping[str, Any], declaration: Declaration, bid: int, play: Play, ending: Ending,
    played: PlayedGame | None, multiplier: int, profile: RuleProfile,
) -> GameResult:
    """A game with a Spitze (Musik) announced, where the profile plays it (device.variants.score_spitze)."""
    count = _int(record, "spitze")
    if played is not None:
        made = spitze_made(played, count) if count >= 1 else False
    elif "spitze_made" not in record:
        raise RecordError("spitze_made", "missing: was the Spitze made (the lowest trump took the last trick)?")
    else:
        made = _bool(record, "spitze_made")
    try:
        result = score_spitze(declaration, bid, play, count, made, ending=ending, multiplier=multiplier, profile=profile)
    except VariantError as exc:
        hint = f" (score with a profile that plays it: --profile {spitze_profile(profile)})" if "not played" in str(exc) else ""
        raise RecordError("spitze", f"{exc}{hint}") from None
    if profile.form is SkatForm.DANISH:  # 001 "Dänischer Skat" (Århus): "mit \"Musik\" ... Musik 5"
        return replace(result, levels=tuple("Musik" if level == "Spitze" else level for level in result.levels))
    return result


def _schenken(
    record: Mapping[str, Any], declaration: Declaration, bid: int, play: Play, ending: Ending, multiplier: int,
    profile: RuleProfile,
) -> GameResult:
    """A game the defenders gave ("schenken") or the declarer played on after their offer, where the
    profile plays it (device.variants.score_schenken; SkWO 9.5 forbids it under the ISkO).

    >>> from device.profile import find_profile
    >>> gift = {"game": "clubs", "bid": 18, "matadors": 2, "declarer_points": 0, "declarer_tricks": 0,
    ...         "schenken": "geschenkt"}
    >>> score_record(gift, profile=find_profile("kneipe")).result.describe_de()
    'Kreuz mit 2, Spiel 3 = 36, geschenkt, gewonnen +36'
    >>> score_record(gift)
    Traceback (most recent call last):
    ...
    device.errors.RecordError: schenken: Schenken is not played under the rule profile 'isko' (SkWO 9.5)
    """
    raw = record.get("schenken")
    try:
        outcome = Schenken(raw)
    except ValueError:
        raise RecordError("schenken", f"{raw!r}: one of " + ", ".join(repr(s.value) for s in Schenken)) from None
    if _SPITZE_FIELDS & record.keys():
        raise RecordError("schenken", "a game with a Spitze announced is not given: Schenken or Spitze, not both")
    if outcome.is_gift and _CARDS_FIELDS & record.keys():
        raise RecordError("schenken", f"{outcome.german}: the game ended at the gift, give the counts when it was given")
    try:
        result = score_schenken(declaration, bid, outcome, play, defender_points=ending.defender_points or 0,
                                defender_tricks=ending.defender_tricks or 0, ending=ending, multiplier=multiplier,
                                profile=profile)
    except VariantError as exc:
        german = (f"Schenken gibt es im Regelprofil {profile.name!r} nicht (SkWO 9.5)" if not profile.schenken
                  else exc.german or f"{outcome.german} ist hier nicht möglich: {exc}")
        raise RecordError("schenken", str(exc), german) from None
    return replace(result, schenken=outcome.value)


def spitze_made_by_cards(record: Mapping[str, Any]) -> bool | None:
    """Whether the cards of a record in the cards form made its Spitze (None if they cannot be
    read): a corrected entry is counted and says it (device.variants.spitze_made).

    >>> tricks = [t.split() for t in ("CK CA D7", "CJ D8 C8", "SJ D9 C9", "HJ DQ CQ", "CT DK SK", "SA DT SQ",
    ...                                "ST DA S9", "HA H7 HK", "HT H8 HQ", "DJ H9 S8")]
    >>> spitze_made_by_cards({"game": "grand", "declarer": 1, "skat": ["C7", "S7"], "tricks": tricks, "spitze": 1})
    True
    """
    try:
        played = _played(record, GameType.parse(record["game"]))
        return spitze_made(played, int(record["spitze"]))
    except (RecordError, DeclarationError, VariantError, KeyError, TypeError, ValueError):
        return None


def _overbid_null(
    record: Mapping[str, Any], declaration: Declaration, bid: int, multiplier: int, profile: RuleProfile
) -> GameResult:
    """ISkO 3.4.4: the Null announcement stands and ends the game at once, lost as a suit or
    Grand game with the declarer's matadors (see device.value.score_overbid_null)."""
    if record.get("tricks"):
        raise RecordError("tricks", f"{declaration.describe_de()} after {bid} ends at its announcement (ISkO 3.4.4): no tricks")
    for field in ("declarer_tricks", "declarer_points"):
        if record.get(field, 0) != 0:
            raise RecordError(field, f"{declaration.describe_de()} after {bid} ends at its announcement (ISkO 3.4.4): nothing was played")
    if "ending" in record and _ending(record).by is not EndedBy.NULL_OVERBID:
        raise RecordError("ending.by", f"{declaration.describe_de()} after {bid} ends at its announcement: null_overbid or leave it out")
    try:  # the bid first: under a profile without this bid or without the rule, matadors are no help
        check_overbid_null_bid(declaration, bid, profile)
    except InvalidResultError as exc:
        raise RecordError(exc.field, exc.reason, exc.german) from None
    if "matadors" not in record:
        raise RecordError("matadors", f"missing: {declaration.describe_de()} after {bid} is lost as a suit or Grand game "
                                      "with the declarer's Spitzen (ISkO 3.4.4)")
    lost_as = None
    if "lost_as" in record:
        name = record["lost_as"]
        try:
            lost_as = GameType.parse(name) if isinstance(name, str) else None
        except DeclarationError:
            lost_as = None
        if lost_as is None or lost_as.is_null:
            raise RecordError("lost_as", f"{name!r}: one of diamonds, hearts, spades, clubs, grand")
    try:
        return score_overbid_null(declaration, bid, _int(record, "matadors"), lost_as=lost_as,
                                  multiplier=multiplier, profile=profile)
    except InvalidResultError as exc:
        raise RecordError(exc.field, exc.reason, exc.german) from None


def result_to_json(scored: ScoredRecord) -> dict[str, Any]:
    """The ``skattisch score`` output for one record (stable field names, ``"v": 1``)."""
    r = scored.result
    out: dict[str, Any] = {
        "v": RECORD_VERSION,
        "won": r.won,
        "value": r.value,
        "score": r.score,
        "overbid": r.overbid,
        "matadors": r.matadors,
        "multiplier": r.multiplier,
        "schneider": r.schneider,
        "schwarz": r.schwarz,
        "declarer_points": r.declarer_points,
        "declarer_tricks": r.declarer_tricks,
        "game": (r.null_announced or r.declaration).game.value,
        "base_value": r.base_value,
        "factor": r.factor,
        "levels": list(r.levels),
        "ended_by": r.ended_by.value,
        "text": r.describe_de(),
    }
    if scored.false_following is not None:
        out["false_following"] = scored.false_following
    if r.null_announced is not None:
        out["lost_as"] = r.declaration.game.value
    if r.schenken:  # 001 "Schenken": where the offer ended
        out["schenken"] = r.schenken
    if r.declaration.tournee is not None:  # Tournee-Skat: first, second, solo or guckser
        out["tournee"] = r.declaration.tournee.value
    return out


def _check_known_fields(record: Mapping[str, Any]) -> None:
    version = record.get("v", RECORD_VERSION)
    if version != RECORD_VERSION:
        raise RecordError("v", f"version {version!r} is not supported: this is version {RECORD_VERSION}")
    unknown = sorted(set(record) - _KNOWN_FIELDS)
    if unknown:
        raise RecordError(unknown[0], "unknown field")


def _check_form(record: Mapping[str, Any]) -> None:
    """The cards form or the counted form, complete and not mixed."""
    has_cards, has_counts = _CARDS_FIELDS & record.keys(), _COUNTED_FIELDS & record.keys()
    if has_cards and has_counts - {"matadors"}:
        raise RecordError(sorted(has_counts - {"matadors"})[0], "give either the cards (declarer, skat, tricks) or the counts, not both")
    if has_cards:
        missing = sorted(_CARDS_FIELDS - record.keys())
        if missing:
            raise RecordError(missing[0], "missing (the cards form needs declarer, skat and tricks)")
    elif not has_counts:
        raise RecordError("tricks", "missing: give the cards (declarer, skat, tricks) or the counts (matadors, declarer_points, declarer_tricks)")


def _declaration(record: Mapping[str, Any], profile: RuleProfile) -> Declaration:
    game_name = record.get("game")
    if not isinstance(game_name, str):
        raise RecordError("game", "missing or not a string: one of " + ", ".join(g.value for g in GameType))
    try:
        game = GameType.parse(game_name)
    except DeclarationError as exc:
        raise RecordError("game", str(exc)) from None
    announced = record.get("announced")
    try:
        level = Level.parse(announced)
    except DeclarationError as exc:
        raise RecordError("announced", str(exc)) from None
    if tournee.is_tournee(profile):  # Tournee, Solo, Guckser (001 "Tournee-Skat")
        return tournee.record_declaration(record, game, level, profile)
    tournee.refuse_fields(record, profile)
    hand, ouvert = _bool(record, "hand"), _bool(record, "ouvert")
    try:
        declaration = Declaration.make(game, hand=hand, ouvert=ouvert, announced=level,
                                       late_announcements=profile.announce_after_skat, ouvert_any=profile.ouvert_any,
                                       form=profile.form)
        _check_null_played(declaration, profile)
        return declaration
    except DeclarationError as exc:
        field = "announced" if level is not Level.SIMPLE and "angesagt" in str(exc) else ("ouvert" if ouvert else "hand")
        raise RecordError(field, f"{exc} under the rule profile {profile.name!r}") from None


def _check_null_played(declaration: Declaration, profile: RuleProfile) -> None:
    """A Null game the profile does not have (Danish Skat: no Null Hand, 001 "Dänischer Skat" 3)."""
    if declaration.game.is_null and not null_value(declaration, profile):
        games = ", ".join(f"{Declaration.make(GameType.NULL, hand=h, ouvert=o, form=profile.form).describe_de()} {v}"
                          for (h, o), v in zip(((False, False), (True, False), (False, True), (True, True)),
                                               profile.null_values) if v)
        raise RecordError("hand", f"{declaration.describe_de()} is not played under the rule profile {profile.name!r}: "
                                  f"{games}", f"{declaration.describe_de()} gibt es im Regelprofil {profile.name!r} nicht")


def _multiplier(record: Mapping[str, Any], profile: RuleProfile) -> int:
    """Kontra/Re and Bock: only where the rule profile plays them (the ISkO plays neither)."""
    kontra, re = _bool(record, "kontra"), _bool(record, "re")
    try:
        multiplier = kontra_multiplier(kontra, re, profile)
    except VariantError as exc:
        raise RecordError("re" if re and not kontra else "kontra", f"{exc} (score with --profile kneipe, or a club profile)") from None
    bock = record.get("bock", 1)
    if isinstance(bock, bool):
        bock = 2 if bock else 1
    if not isinstance(bock, int) or bock < 1:
        raise RecordError("bock", f"{bock!r} is not a multiplier: a whole number 1 or more (2 = Bock)")
    if bock > 1 and not profile.bock:
        raise RecordError("bock", f"Bock rounds are not played under the rule profile {profile.name!r}")
    return multiplier * bock


def _ending(record: Mapping[str, Any]) -> Ending:
    raw = record.get("ending")
    if raw is None:
        return Ending()
    if not isinstance(raw, Mapping):
        raise RecordError("ending", 'an object such as {"by": "declarer_gave_up"}')
    unknown = sorted(set(raw) - _ENDING_FIELDS)
    if unknown:
        raise RecordError(f"ending.{unknown[0]}", "unknown field")
    try:
        by = EndedBy(raw.get("by"))
    except ValueError:
        raise RecordError("ending.by", f"{raw.get('by')!r}: one of " + ", ".join(e.value for e in EndedBy)) from None
    try:
        proven = Level.parse(raw.get("proven_level"))
    except DeclarationError as exc:
        raise RecordError("ending.proven_level", str(exc)) from None
    return Ending(
        by=by,
        defender_points=_optional_int(raw, "defender_points", "ending."),
        defender_tricks=_optional_int(raw, "defender_tricks", "ending."),
        level_possible=_bool(raw, "level_possible", default=True, prefix="ending."),
        proven_level=proven,
    )


def _play_from_counts(record: Mapping[str, Any], declaration: Declaration) -> Play:
    matadors = 0 if declaration.game.is_null and "matadors" not in record else _int(record, "matadors")
    points = 0 if declaration.game.is_null and "declarer_points" not in record else _int(record, "declarer_points")
    if "declarer_tricks" not in record and not declaration.game.is_null and "declarer_points" in record:
        return Play(points, uncounted_tricks(points), matadors)
    if declaration.game.is_null and "declarer_tricks" in record and record["declarer_tricks"] is None:
        return Play(points, 1, matadors)  # "verloren" entered, the tricks not counted
    return Play(points, _int(record, "declarer_tricks"), matadors)


def _played(record: Mapping[str, Any], game: GameType) -> PlayedGame:
    declarer = record.get("declarer")
    if not isinstance(declarer, int) or isinstance(declarer, bool) or declarer not in (0, 1, 2):
        raise RecordError("declarer", f"{declarer!r}: 0 (Vorhand), 1 (Mittelhand) or 2 (Hinterhand)")
    skat = _cards(record.get("skat"), "skat")
    raw_tricks = record.get("tricks")
    if not isinstance(raw_tricks, list):
        raise RecordError("tricks", "a list of tricks, each a list of 3 card codes")
    tricks = [_cards(t, f"tricks[{i}]") for i, t in enumerate(raw_tricks)]
    try:
        return play_game(game, declarer, skat, tricks)
    except PlayError as exc:
        raise RecordError("tricks" if "trick" in str(exc) else "skat" if "skat" in str(exc) else "tricks", str(exc)) from None


def _play_from_cards(
    record: Mapping[str, Any], declaration: Declaration, played: PlayedGame, ending: Ending, profile: RuleProfile
) -> tuple[Play, Ending, dict[str, Any] | None]:
    """Counts from the cards; a false following ends the game at that trick (ISkO 4.2.4)."""
    violation = played.violation
    if violation is None and not played.complete and ending.by is EndedBy.PLAYED:
        raise RecordError("tricks", f"{len(played.trick_winners)} tricks: a game ended early needs 'ending'")
    upto = violation.trick_index if violation is not None else len(played.trick_winners)
    counts = _counts_until(record, played, upto)
    matadors = _matadors(record, declaration, played)
    if violation is None:
        return Play(counts[0], counts[1], matadors), _with_reachable(_with_defender_counts(ending, counts), played, profile), None
    offender_is_declarer = violation.seat == played.declarer
    by = EndedBy.DECLARER_VIOLATION if offender_is_declarer else EndedBy.DEFENDERS_VIOLATION
    ending = _with_reachable(replace(ending, by=by, defender_points=counts[2], defender_tricks=counts[3]), played, profile)
    note = {"trick": violation.trick_index + 1, "seat": violation.seat, "card": str(violation.card),
            "by": "declarer" if offender_is_declarer else "defenders"}
    return Play(counts[0], counts[1], matadors), ending, note


def _with_reachable(ending: Ending, played: PlayedGame, profile: RuleProfile) -> Ending:
    """ISkO 5.4.3 from the cards (device.value.reachable_level), where it can matter: the
    defenders ended the game. Their cards are those they played; the declarer may hold every
    card that is neither theirs nor in the skat (all ten of his when all tricks are there)."""
    if not ending.by.by_defenders:
        return ending
    theirs = [c for seat, hand in enumerate(played.hands) if seat != played.declarer for c in hand]
    known = frozenset(theirs) | frozenset(played.skat)
    return replace(ending, reachable=reachable_level(played.game, [c for c in DECK if c not in known], theirs,
                                                             profile))


def _counts_until(record: Mapping[str, Any], played: PlayedGame, upto: int) -> tuple[int, int, int, int]:
    """Declarer points (with skat), declarer tricks, defender points, defender tricks before trick ``upto``."""
    declarer_points = sum(c.points for c in played.skat)
    declarer_tricks = defender_points = defender_tricks = 0
    for trick, winner in zip(played.tricks[:upto], played.trick_winners[:upto]):
        pts = sum(c.points for c in trick)
        if winner == played.declarer:
            declarer_points, declarer_tricks = declarer_points + pts, declarer_tricks + 1
        else:
            defender_points, defender_tricks = defender_points + pts, defender_tricks + 1
    return declarer_points, declarer_tricks, defender_points, defender_tricks


def _matadors(record: Mapping[str, Any], declaration: Declaration, played: PlayedGame) -> int:
    if declaration.game.is_null:
        return 0
    if played.matadors is not None:
        if "matadors" in record and record["matadors"] != played.matadors:
            raise RecordError("matadors", f"{record['matadors']} does not match the cards, which give {played.matadors}")
        return played.matadors
    if "matadors" not in record:
        raise RecordError("matadors", "missing: the cards of a game ended early do not show all of the declarer's cards")
    return _int(record, "matadors")


def _with_defender_counts(ending: Ending, counts: tuple[int, int, int, int]) -> Ending:
    if ending.by is EndedBy.PLAYED:
        return ending
    return replace(ending, defender_points=counts[2], defender_tricks=counts[3])


def _cards(raw: object, field: str) -> list[Card]:
    if not isinstance(raw, list) or not all(isinstance(c, str) for c in raw):
        raise RecordError(field, "a list of card codes such as [\"CJ\", \"HT\"]")
    try:
        return [Card.parse(c) for c in raw]
    except CardError as exc:
        raise RecordError(field, str(exc)) from None


def _int(record: Mapping[str, Any], field: str, prefix: str = "") -> int:
    value = record.get(field)
    if value is None:
        raise RecordError(prefix + field, "missing")
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(prefix + field, f"{value!r} is not a whole number")
    return value


def _optional_int(record: Mapping[str, Any], field: str, prefix: str = "") -> int | None:
    return None if record.get(field) is None else _int(record, field, prefix)


def _bool(record: Mapping[str, Any], field: str, *, default: bool = False, prefix: str = "") -> bool:
    value = record.get(field, default)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise RecordError(prefix + field, f"{value!r} is not true or false")
    return value

