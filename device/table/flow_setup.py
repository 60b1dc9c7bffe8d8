"""Setting up a list and who sits at the table: opening a list (names, series length, scoring,
stake, Bierlachs limit), players joining and leaving at a round's start (ISkO 3.1.2)."""

from __future__ import annotations

import random
import unicodedata
from fractions import Fraction

from device.profile import TABLE_PROFILES, ProfileError, base_name, find_profile
from device.scoring import ScoreListError, ScoringSystem, bierlachs_limit
from device.table.commands import JoinPlayer, LeavePlayer, OpenList
from device.table.decision import Decision, Refuse, _open, _seat
from device.table.events import ListOpened, PlayerJoined, PlayerLeft
from device.table.rotation import TABLE_SIZES, draw_seating
from device.table.state import TableState

__all__ = ["MAX_BIERLACHS", "MAX_NAME", "MAX_SERIES", "MAX_STAKE", "open_list", "parse_stake", "unsafe_name_characters"]


MAX_NAME = 30
MAX_SERIES = 999
MAX_STAKE = 100  # coins (cents) per point: a euro a point is beyond any club's stake
MAX_BIERLACHS = 9999


def open_list(state: TableState, command: OpenList, rng: random.Random) -> Decision:
    """A new list, the seats drawn with ``rng`` when asked (Auslosen, ISkO 3.1.1)."""
    try:
        return Decision(events=(_open_list(state, command, rng),))
    except Refuse as refuse:
        return Decision(refusal=refuse.refusal(command))


def parse_stake(stake: Fraction | int | str) -> Fraction:
    """Coins per point: 1, "1/4", "0.5", Fraction(1, 10); never negative.

    >>> parse_stake("1/4"), parse_stake("0.5"), parse_stake(2)
    (Fraction(1, 4), Fraction(1, 2), Fraction(2, 1))
    """
    try:
        value = Fraction(stake) if not isinstance(stake, bool) else None
    except (ValueError, ZeroDivisionError, TypeError, OverflowError):
        value = None
    if value is None or not 0 <= value <= MAX_STAKE:
        raise ScoreListError(f"a stake is a number of coins per point (e.g. 1, 1/4, 0.5) from 0 to {MAX_STAKE}, "
                             f"not {stake!r}")
    return value


def _open_list(state: TableState, command: OpenList, rng: random.Random) -> ListOpened:
    if state.setup is not None and not state.closed:
        raise Refuse("list_open", "list_open")
    names = tuple(_check_name(n) for n in command.players)
    if len(names) not in TABLE_SIZES:
        raise Refuse("bad_setup", "bad_table_size", players=len(names))
    if len({n.casefold() for n in names}) != len(names):
        raise Refuse("bad_setup", "names_not_different")
    length = command.series_length
    if length is not None and (isinstance(length, bool) or not isinstance(length, int) or not 1 <= length <= MAX_SERIES):
        raise Refuse("bad_setup", "bad_series_length", length=length, most=MAX_SERIES)
    try:
        system = ScoringSystem.parse(command.scoring)
    except ScoreListError as exc:
        raise Refuse("bad_setup", "bad_scoring", error=str(exc)) from None
    limit = _bierlachs_limit(system, command.bierlachs_limit, len(names))
    try:
        find_profile(command.profile)
    except ProfileError as exc:
        raise Refuse("bad_setup", "bad_profile", error=str(exc), profile=command.profile) from None
    if base_name(command.profile) not in TABLE_PROFILES:  # scored by `skattisch score`, not at the table; the
        # club profile's options ("kneipe+spitze+pot") are its own
        raise Refuse("bad_setup", "profile_not_at_table", profile=command.profile, offered=", ".join(TABLE_PROFILES))
    try:
        stake = parse_stake(command.stake)
    except ScoreListError as exc:
        raise Refuse("bad_setup", "bad_stake", error=str(exc), most=MAX_STAKE) from None
    ids = _member_ids(names, command.members)
    seating = draw_seating(names, rng) if command.draw else names
    return ListOpened(players=seating, drawn=command.draw, series_length=length, scoring=system.value,
                      bierlachs_limit=limit, profile=command.profile, stake=str(stake),
                      members=tuple(ids.get(n, "") for n in seating) if ids else ())


def _member_ids(names: tuple[str, ...], members: tuple[str, ...]) -> dict[str, str]:
    """Each name's member id (those with one); refused if not one per name or one id twice."""
    if not members:
        return {}
    if len(members) != len(names) or not all(isinstance(m, str) for m in members):
        raise Refuse("bad_setup", "member_ids_count", given=len(members), players=len(names))
    given = [m.strip() for m in members if m.strip()]
    if len(set(given)) != len(given):
        raise Refuse("bad_setup", "member_id_twice")
    return {n: m.strip() for n, m in zip(names, members) if m.strip()}


def _bierlachs_limit(system: ScoringSystem, given: int | None, players: int) -> int | None:
    if system is not ScoringSystem.BIERLACHS:
        return None
    if given is None:
        try:
            return bierlachs_limit(players)
        except ScoreListError as exc:
            raise Refuse("bad_setup", "bierlachs_five", error=str(exc)) from None
    if isinstance(given, bool) or not isinstance(given, int) or not 1 <= given <= MAX_BIERLACHS:
        raise Refuse("bad_setup", "bad_bierlachs_limit", given=given, most=MAX_BIERLACHS)
    return given


def _check_name(name: object) -> str:
    text = name.strip() if isinstance(name, str) else ""
    if not text or len(text) > MAX_NAME:
        raise Refuse("bad_setup", "bad_name_length", name=name, most=MAX_NAME)
    bad = unsafe_name_characters(text)
    if bad:
        shown = ", ".join(f"U+{ord(c):04X}" for c in bad)
        raise Refuse("bad_setup", "bad_name_characters", shown=shown)
    return text


# Explicit text-direction marks, embeddings, overrides and isolates (Unicode bidi controls):
# in a name they reorder what the list shows next to it.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def unsafe_name_characters(text: str) -> list[str]:
    """The characters a player's name may not hold: control characters (tab, newline, escape,
    C1 controls), line/paragraph separators and bidirectional controls. Letters of any script,
    accents, emoji (with their joiners) are all fine.

    >>> unsafe_name_characters("Jürgen"), unsafe_name_characters("Anna\\u202eanaB"), unsafe_name_characters("A\\tB")
    ([], ['\\u202e'], ['\\t'])
    """
    return [c for c in dict.fromkeys(text)
            if unicodedata.category(c) in ("Cc", "Zl", "Zp") or c in BIDI_CONTROLS]


def _at_round_start(state: TableState) -> None:
    _open(state)
    if state.series_over:
        raise Refuse("series_over", "series_over")
    if state.correction is not None:  # its consents are by seat: settle it first
        raise Refuse("correction_pending", "correction_open")
    if not state.rotation.at_round_start or (state.deal is not None and state.deal.steps):
        round_ends = len(state.rows) + state.table_size - state.rotation.deal_in_round
        raise Refuse("not_at_round_start", "not_at_round_start", round_ends=round_ends)


def _join(state: TableState, command: JoinPlayer) -> Decision:
    _at_round_start(state)
    name = _check_name(command.name)
    staying = [n for s, n in enumerate(state.seating) if s != command.replaces]
    if name.casefold() in {n.casefold() for n in staying}:
        raise Refuse("bad_setup", "name_at_table", name=name)
    if command.replaces is not None:
        seat = _seat(state, command.replaces)
        return Decision(events=(PlayerJoined(name, seat, state.seating[seat], command.member.strip()),))
    if state.table_size >= max(TABLE_SIZES):
        raise Refuse("table_full", "table_full")
    # ISkO 3.1.2: a new player sits down to the right of Platz 1, that is in the last seat.
    return Decision(events=(PlayerJoined(name, state.table_size, None, command.member.strip()),))


def _leave(state: TableState, command: LeavePlayer) -> Decision:
    _at_round_start(state)
    seat = _seat(state, command.seat)
    if state.table_size <= min(TABLE_SIZES):
        raise Refuse("table_too_small", "table_too_small")
    return Decision(events=(PlayerLeft(seat, state.seating[seat]),))
