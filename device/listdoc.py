"""The list document: a whole Spielliste as JSON (``"v": 1``), and its scored figures.

A list document is what ``skattisch sheet`` reads and what the table exports::

    {"v": 1, "players": ["Anna", "Bernd", "Carla", "Dieter"],   # seat order, Platz 1 first
     "members": ["m-17", "m-4", "", "m-23"],                    # optional: member ids, "" a guest
     "scoring": "seeger_fabian", "profile": "isko", "stake": "1/2",
     "series_length": 48,
     "entries": [
        {"kind": "game", "seat": 1, "game": "clubs", "hand": true, "bid": 18,
         "matadors": 2, "declarer_points": 75, "declarer_tricks": 6},
        {"kind": "passed_in"},
        {"kind": "ramsch", "scores": [-58, 0, 0]},
        {"kind": "correction", "entry": 1, "consent": ["Anna", "Bernd", "Carla", "Dieter"],
         "replacement": {"kind": "game", "seat": 1, ...}}]}

Entries are in play order; Platz 1 (seat 0) deals the first game and every entry (eingepasst
too) passes the deal on (ISkO 3.2, 3.3.7). A game entry is a game record (see
:mod:`device.record`) plus ``seat``: the declarer's seat on the list (0 = Platz 1). A Ramsch
gives signed ``scores`` for Vorhand, Mittelhand, Hinterhand, only under a profile that plays
Ramsch (the ISkO does not, SkWO 9.4). ``members`` (optional) gives each seat's member id from
the club's roster beside its name ("" for a guest); a list without it reads as before. A correction replaces an earlier
entry (numbered from 1) with every player's consent (ISkO 5.5.3); the original stays visible.

The figures come from :func:`device.table.listing.figures`, exactly as the table shows them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from device.errors import RecordError, SkatError
from device.profile import ProfileError, RuleProfile, find_profile
from device.record import score_record
from device.scoring import ScoringSystem
from device.table.listing import ListFigures, figures
from device.table.flow import MAX_BIERLACHS, MAX_SERIES, MAX_STAKE, unsafe_name_characters
from device.table.rotation import TABLE_SIZES, active_seats
from device.table.state import Row

DOCUMENT_VERSION = 1
_TOP_FIELDS = {"v", "id", "list_id", "table", "title", "date", "players", "scoring", "bierlachs_limit", "profile",
               "stake", "series_length", "entries", "members"}


class ListDocumentError(SkatError, ValueError):
    """A list document with a missing or wrong part; ``where`` names it (e.g. ``entries[3].bid``)."""

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(f"{where}: {reason}")
        self.where = where
        self.reason = reason


@dataclass(frozen=True, slots=True)
class ListDocument:
    """A checked list document with every entry scored."""

    players: tuple[str, ...]
    scoring: ScoringSystem
    bierlachs_limit: int | None
    profile: RuleProfile
    stake: Fraction
    series_length: int | None
    rows: tuple[Row, ...]
    title: str = ""
    members: tuple[str, ...] = ()  # member ids by seat ("" for a guest), or empty

    def figures(self) -> ListFigures:
        return figures(self.rows, self.players, self.scoring, bierlachs_limit=self.bierlachs_limit, stake=self.stake)


def parse_list_document(doc: object) -> ListDocument:
    """Check and score a list document; errors name the entry and field."""
    if not isinstance(doc, Mapping):
        raise ListDocumentError("document", "a list document is a JSON object")
    if doc.get("v", DOCUMENT_VERSION) != DOCUMENT_VERSION:
        raise ListDocumentError("v", f"version {doc.get('v')!r} is not supported: this is version {DOCUMENT_VERSION}")
    unknown = sorted(set(doc) - _TOP_FIELDS)
    if unknown:
        raise ListDocumentError(unknown[0], "unknown field")
    players = _players(doc.get("players"))
    profile = _profile(doc.get("profile", "isko"))
    scoring = _scoring(doc.get("scoring", ScoringSystem.SEEGER_FABIAN.value))
    limit = _optional_int(doc, "bierlachs_limit", MAX_BIERLACHS)
    if scoring is ScoringSystem.BIERLACHS and limit is None and len(players) == 5:
        raise ListDocumentError("bierlachs_limit", "give the Bierlachs limit for five players (e.g. 401)")
    raw_entries = doc.get("entries", [])
    if not isinstance(raw_entries, list):
        raise ListDocumentError("entries", "a list of entries")
    rows = _rows(raw_entries, players, profile)
    return ListDocument(players=players, scoring=scoring, bierlachs_limit=limit, profile=profile,
                        stake=_stake(doc.get("stake", 0)), series_length=_optional_int(doc, "series_length", MAX_SERIES),
                        rows=tuple(rows), title=str(doc.get("title", "")), members=_members(doc.get("members"), players))


def _rows(raw_entries: Sequence[object], players: tuple[str, ...], profile: RuleProfile) -> list[Row]:
    rows: list[Row] = []
    size = len(players)
    for index, raw in enumerate(raw_entries):
        where = f"entries[{index}]"
        if not isinstance(raw, Mapping):
            raise ListDocumentError(where, "an entry is a JSON object with a 'kind'")
        if raw.get("kind") == "correction":
            _apply_correction(rows, raw, where, players, profile)
            continue
        dealer = len(rows) % size
        rows.append(_row(raw, where, len(rows) + 1, dealer, players, profile))
    return rows


def _row(raw: Mapping[str, Any], where: str, number: int, dealer: int, players: tuple[str, ...],
         profile: RuleProfile) -> Row:
    active = active_seats(dealer, len(players))
    kind = raw.get("kind", "game")
    base = Row(entry=number, kind=kind, dealer=dealer, active=active, seating=players)
    if kind == "passed_in":
        _only(raw, {"kind"}, where)
        return base
    if kind == "ramsch":
        _only(raw, {"kind", "scores"}, where)
        scores = raw.get("scores")
        if not (isinstance(scores, list) and len(scores) == 3 and all(type(s) is int for s in scores)):
            raise ListDocumentError(f"{where}.scores", "three whole numbers: Vorhand, Mittelhand, Hinterhand")
        if not profile.has_ramsch:  # as Kontra, Re and Bock are refused where the profile plays none
            raise ListDocumentError(
                f"{where}.kind", f"game {number} is a Ramsch, but the rule profile {profile.name!r} plays no Ramsch "
                "(SkWO 9.4: \"Es wird kein Ramsch gespielt\"; score with --profile kneipe, or a club profile)")
        return replace(base, ramsch=(scores[0], scores[1], scores[2]))
    if kind != "game":
        raise ListDocumentError(f"{where}.kind", f"{kind!r}: one of game, passed_in, ramsch, correction")
    return _game_row(raw, where, base, players, profile)


def _game_row(raw: Mapping[str, Any], where: str, base: Row, players: tuple[str, ...], profile: RuleProfile) -> Row:
    seat = raw.get("seat")
    if type(seat) is not int or not 0 <= seat < len(players):
        raise ListDocumentError(f"{where}.seat", f"{seat!r}: the declarer's seat on the list, 0 to {len(players) - 1}")
    if seat not in base.active:
        dealer_name = players[base.dealer]
        raise ListDocumentError(
            f"{where}.seat", f"{players[seat]} (seat {seat}) does not play in game {base.entry}: {dealer_name} deals")
    position = base.active.index(seat)
    record = {k: v for k, v in raw.items() if k != "kind"}
    if "declarer" in record and record["declarer"] != position:
        raise ListDocumentError(f"{where}.declarer",
                                f"{record['declarer']!r}, but {players[seat]} is position {position} in game {base.entry}")
    record.setdefault("player", players[seat])
    try:
        result = score_record(record, profile=profile).result
    except RecordError as exc:
        raise ListDocumentError(f"{where}.{exc.field}", exc.reason) from None
    return replace(base, record=record, declarer_seat=seat, result=result)


def _apply_correction(rows: list[Row], raw: Mapping[str, Any], where: str, players: tuple[str, ...],
                      profile: RuleProfile) -> None:
    _only(raw, {"kind", "entry", "consent", "replacement", "reason"}, where)
    target = raw.get("entry")
    if type(target) is not int or not 1 <= target <= len(rows):
        raise ListDocumentError(f"{where}.entry", f"{target!r}: the number of an earlier entry, 1 to {len(rows)}")
    consent = raw.get("consent")
    missing = [p for p in players if not isinstance(consent, list) or p not in consent]
    if missing:
        raise ListDocumentError(f"{where}.consent",
                                f"a correction needs every player's consent (ISkO 5.5.3): missing {', '.join(missing)}")
    replacement = raw.get("replacement")
    if not isinstance(replacement, Mapping) or replacement.get("kind", "game") == "correction":
        raise ListDocumentError(f"{where}.replacement", "the corrected entry (a game, passed_in or ramsch)")
    old = rows[target - 1]
    new = _row(replacement, f"{where}.replacement", old.entry, old.dealer, players, profile)
    rows[target - 1] = replace(new, earlier=(*old.earlier, replace(old, earlier=())))


def to_list_document(document: ListDocument) -> dict[str, Any]:
    """The JSON form of a list document (corrections kept as correction entries)."""
    entries: list[dict[str, Any]] = []
    corrections: list[dict[str, Any]] = []
    for row in document.rows:
        versions = (*row.earlier, row)
        entries.append(_entry_json(versions[0]))
        for later in versions[1:]:
            corrections.append({"kind": "correction", "entry": row.entry, "consent": list(document.players),
                                "replacement": _entry_json(later)})
    return {
        "v": DOCUMENT_VERSION, "title": document.title, "players": list(document.players),
        "scoring": document.scoring.value, "bierlachs_limit": document.bierlachs_limit,
        "profile": document.profile.name, "stake": str(document.stake), "series_length": document.series_length,
        "entries": entries + corrections,
        **({"members": list(document.members)} if any(document.members) else {}),
    }


def _entry_json(row: Row) -> dict[str, Any]:
    if row.kind == "game" and row.record is not None:
        return {"kind": "game", **{k: v for k, v in row.record.items() if k != "player"}, "seat": row.declarer_seat}
    if row.kind == "ramsch" and row.ramsch is not None:
        return {"kind": "ramsch", "scores": list(row.ramsch)}
    return {"kind": "passed_in"}


def _players(raw: object) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(p, str) and p.strip() for p in raw):
        raise ListDocumentError("players", "the players' names in seat order, Platz 1 first")
    if len(raw) not in TABLE_SIZES:
        raise ListDocumentError("players", f"a Skat table seats 3, 4 or 5 players, not {len(raw)}")
    if len(set(raw)) != len(raw):
        raise ListDocumentError("players", "every player needs a different name")
    for index, name in enumerate(raw):
        bad = unsafe_name_characters(name)
        if bad:
            raise ListDocumentError(f"players[{index}]", "a name may not hold control or text-direction characters "
                                    f"({', '.join(f'U+{ord(c):04X}' for c in bad)})")
    return tuple(p.strip() for p in raw)


def _members(raw: object, players: tuple[str, ...]) -> tuple[str, ...]:
    """The optional member ids: one string per player ("" for a guest), no id twice."""
    if raw is None:
        return ()
    if not isinstance(raw, list) or len(raw) != len(players) or not all(isinstance(m, str) for m in raw):
        raise ListDocumentError("members", f"one member id (a string, \"\" for a guest) per player: {len(players)}")
    ids = [m.strip() for m in raw]
    for index, member in enumerate(ids):
        if member and member in ids[:index]:
            raise ListDocumentError(f"members[{index}]", f"{member!r} is already {players[ids.index(member)]}'s id")
        if unsafe_name_characters(member):
            raise ListDocumentError(f"members[{index}]", "a member id may not hold control or text-direction characters")
    return tuple(ids)


def _profile(raw: object) -> RuleProfile:
    try:
        if isinstance(raw, str):
            return find_profile(raw)
        if isinstance(raw, Mapping):
            return RuleProfile.from_json(dict(raw))
    except (ProfileError, ValueError) as exc:
        raise ListDocumentError("profile", str(exc)) from None
    raise ListDocumentError("profile", "a profile name such as \"isko\", or a profile object")


def _scoring(raw: object) -> ScoringSystem:
    try:
        return ScoringSystem.parse(str(raw))
    except ValueError as exc:
        raise ListDocumentError("scoring", str(exc)) from None


def _stake(raw: object) -> Fraction:
    try:
        stake = Fraction(str(raw)) if not isinstance(raw, bool) else None
    except (ValueError, ZeroDivisionError):
        stake = None
    if stake is None or not 0 <= stake <= MAX_STAKE:
        raise ListDocumentError("stake", f"{_shown(raw)}: coins (cents) per point from 0 to {MAX_STAKE}, "
                                         "e.g. 1, \"1/2\" or \"1/4\"; 0 for no money")
    return stake


def _optional_int(doc: Mapping[str, Any], field: str, most: int) -> int | None:
    value = doc.get(field)
    if value is not None and (type(value) is not int or not 1 <= value <= most):
        raise ListDocumentError(field, f"{_shown(value)}: a whole number from 1 to {most}")
    return value


def _shown(value: object) -> str:
    """A value as an error message shows it: a number too large for a float reads as infinity."""
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return "a number too large to read"
    return repr(value)


def _only(raw: Mapping[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(raw) - allowed)
    if unknown:
        raise ListDocumentError(f"{where}.{unknown[0]}", "unknown field for this kind of entry")
