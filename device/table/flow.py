"""The table's decisions: a command and the state give new events, or a refusal with a reason.

:func:`decide` is pure: it reads the state and returns a :class:`Decision`; the service stores
the events and folds them into the state. A refused command never raises: it gives a
:class:`Refusal` with a ``code`` for programs, a ``reason`` in English and a ``reason_de``
for the screen. A card that can only be false following (ISkO 4.2.4) is not refused outright
either: it gives a question event for the table to decide *and* a refusal (the card is not
played until the table says so).
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from device.bidding import Auction, Role, is_bid_value
from device.bidding import Bid as AuctionBid
from device.bidding import Hold as AuctionHold
from device.bidding import Pass as AuctionPass
from device.cards import Card
from device.declaration import Declaration
from device.errors import BidError, DeclarationError, RecordError
from device.hardware import Button, ButtonPressed, CardScanned, UnknownCardScanned
from device.profile import ProfileError, find_profile
from device.ramsch import RamschCounts, RamschError, score_ramsch
from device.record import score_record
from device.scoring import ScoreListError, ScoringSystem, bierlachs_limit
from device.table.commands import (
    AcceptFalseFollowing, AddBock, Bid, Confirm, ConfirmList, ConsentCorrection, Declare,
    EndGame, EndHow, EndSeries, EnterBidding, EnterMatadors, EnterRamsch, EnterResult, Hold, JoinPlayer,
    Kontra, LeavePlayer, OpenList, Pass, PlayCard, ProposeCorrection, PushSkat, Re, RejectCard,
    TakeSkat, Undo, WithdrawCorrection,
)
from device.table.events import (
    BidMade, BiddingEntered, BockAdded, CardPlayed, CardWithdrawn, CorrectionApplied, CorrectionConsented,
    CorrectionProposed, CorrectionWithdrawn, Declared, EventBody, FalseFollowingAccepted,
    FalseFollowingQueried, GameEnded, GameRecorded, KontraSaid, ListClosed, ListConfirmed,
    ListOpened, MatadorsEntered, PassedIn, PassedInWithdrawn, PlayerJoined, PlayerLeft,
    RamschEntered, RamschRecorded, ReSaid, ResultConfirmed, ResultEntered, SeriesEnded,
    SkatCardAdded, SkatTaken, StepUndone,
)
from device.table.outcome import entry_matador_choices, game_record, known_matadors, preview
from device.table.rotation import POSITION_NAMES, TABLE_SIZES, draw_seating
from device.table.state import Deal, Phase, TableState
from device.tricks import follow_class
from device.value import is_overbid_null
from device.variants import VariantError, check_kontra, check_re

__all__ = ["Decision", "Refusal", "decide", "open_list", "parse_stake", "unsafe_name_characters"]

MAX_NAME = 30
MAX_SERIES = 999
MAX_STAKE = 100  # coins (cents) per point: a euro a point is beyond any club's stake
MAX_BIERLACHS = 9999


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a command was not carried out. ``code`` for programs and tests (e.g.
    ``"card_seen"``), ``reason`` in English (logs, code), ``reason_de`` for the screen."""

    code: str
    reason: str
    reason_de: str
    command: object = None


@dataclass(frozen=True, slots=True)
class Decision:
    """What a command leads to: new event bodies, a refusal, or (false following) both."""

    events: tuple[EventBody, ...] = ()
    refusal: Refusal | None = None


class _Refuse(Exception):
    """Raised inside a handler to refuse the command (caught in :func:`decide`)."""

    def __init__(self, code: str, reason: str, reason_de: str) -> None:
        super().__init__(reason)
        self.code, self.reason, self.reason_de = code, reason, reason_de


# --------------------------------------------------------------------------- entry points


def decide(state: TableState, command: object) -> Decision:
    """The events ``command`` leads to in ``state``, or a refusal (never raises for a command).

    ``OpenList`` is decided by :func:`open_list` (it needs a random generator for Auslosen).
    """
    handler = _HANDLERS.get(type(command))
    try:
        if handler is None:
            raise _Refuse("unknown_command", f"the table does not know the command {type(command).__name__}",
                          "Diesen Befehl kennt der Tisch nicht")
        decision: Decision = handler(state, command)
        return decision
    except _Refuse as refuse:
        return Decision(refusal=Refusal(refuse.code, refuse.reason, refuse.reason_de, command))


def open_list(state: TableState, command: OpenList, rng: random.Random) -> Decision:
    """A new list, the seats drawn with ``rng`` when asked (Auslosen, ISkO 3.1.1)."""
    try:
        return Decision(events=(_open_list(state, command, rng),))
    except _Refuse as refuse:
        return Decision(refusal=Refusal(refuse.code, refuse.reason, refuse.reason_de, command))


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


# --------------------------------------------------------------------------- helpers


def _name(state: TableState, position: int) -> str:
    deal = state.deal
    assert deal is not None
    return f"{POSITION_NAMES[position]} ({state.seating[deal.active[position]]})"


def _seat_name(state: TableState, seat: int) -> str:
    return f"Platz {seat + 1} ({state.seating[seat]})"


def _open(state: TableState) -> None:
    if state.setup is None:
        raise _Refuse("no_list", "no list is open: set one up first", "Keine Liste offen: erst eine Liste anlegen")
    if state.closed:
        raise _Refuse("list_closed", "the list is closed and read-only",
                      "Die Liste ist abgeschlossen und kann nicht mehr geändert werden")


def _deal(state: TableState, *phases: str) -> Deal:
    """The current deal, refusing unless the table is in one of ``phases``."""
    _open(state)
    if state.series_over or state.deal is None:
        raise _Refuse("series_over", "the series is over: no more games on this list",
                      "Die Serie ist beendet: keine weiteren Spiele auf dieser Liste")
    deal = state.deal
    if deal.phase not in phases:
        raise _Refuse("not_now", f"not possible now ({deal.phase})", f"Jetzt nicht möglich: {_PHASE_DE[deal.phase]}")
    return deal


_PHASE_DE = {
    Phase.BIDDING: "es wird gereizt",
    Phase.DECLARING: "das Spiel ist noch nicht angesagt",
    Phase.PLAYING: "das Spiel läuft",
    Phase.RAMSCH: "das Ramsch-Ergebnis fehlt",
    Phase.RESULT: "das Ergebnis wartet auf Bestätigung",
}


def _position(position: int) -> int:
    if isinstance(position, bool) or not isinstance(position, int) or position not in (0, 1, 2):
        raise _Refuse("bad_position", f"position {position!r} is not 0 (Vorhand), 1 (Mittelhand) or 2 (Hinterhand)",
                      "Unbekannte Position: Vorhand, Mittelhand oder Hinterhand")
    return position


def _seat(state: TableState, seat: int) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.table_size:
        raise _Refuse("bad_seat", f"seat {seat!r} is not at this table (0 to {state.table_size - 1})",
                      f"Diesen Platz gibt es nicht (Platz 1 bis {state.table_size})")
    return seat


def _card(card: object) -> Card:
    if not isinstance(card, Card):
        raise _Refuse("bad_card", f"{card!r} is not a card", "Das ist keine Karte")
    return card


def _after_entry(state: TableState) -> tuple[EventBody, ...]:
    """A SeriesEnded when the entry being made is the series' last."""
    setup = state.setup
    assert setup is not None
    if setup.series_length is not None and len(state.rows) + 1 >= setup.series_length:
        return (SeriesEnded("complete"),)
    return ()


def _where_seen(deal: Deal, card: Card) -> tuple[str, str] | None:
    """Where ``card`` already is (English, German), or None if it was not seen yet."""
    if card in deal.skat:
        return "in the skat", "liegt im Skat"
    seen = deal.who_played().get(card)
    if seen is not None:
        trick, position = seen
        return (f"already played by {POSITION_NAMES[position]} in trick {trick + 1}",
                f"wurde schon gespielt ({POSITION_NAMES[position]}, {trick + 1}. Stich)")
    return None


# --------------------------------------------------------------------------- setup


def _open_list(state: TableState, command: OpenList, rng: random.Random) -> ListOpened:
    if state.setup is not None and not state.closed:
        raise _Refuse("list_open", "a list is open: finish and close it first",
                      "Eine Liste ist noch offen: erst beenden und von allen bestätigen lassen")
    names = tuple(_check_name(n) for n in command.players)
    if len(names) not in TABLE_SIZES:
        raise _Refuse("bad_setup", f"a table has 3, 4 or 5 players, not {len(names)}",
                      f"Am Tisch sitzen 3, 4 oder 5 Spieler, nicht {len(names)}")
    if len({n.casefold() for n in names}) != len(names):
        raise _Refuse("bad_setup", "every player needs a different name", "Jeder Spieler braucht einen eigenen Namen")
    length = command.series_length
    if length is not None and (isinstance(length, bool) or not isinstance(length, int) or not 1 <= length <= MAX_SERIES):
        raise _Refuse("bad_setup", f"series length {length!r}: 1 to {MAX_SERIES} games or open-ended",
                      f"Spielzahl {length!r}: 1 bis {MAX_SERIES} Spiele oder offen")
    try:
        system = ScoringSystem.parse(command.scoring)
    except ScoreListError as exc:
        raise _Refuse("bad_setup", str(exc), "Unbekanntes Wertungssystem: Seeger-Fabian, klassisch oder Bierlachs") from None
    limit = _bierlachs_limit(system, command.bierlachs_limit, len(names))
    try:
        find_profile(command.profile)
    except ProfileError as exc:
        raise _Refuse("bad_setup", str(exc), f"Unbekanntes Regelprofil {command.profile!r}") from None
    try:
        stake = parse_stake(command.stake)
    except ScoreListError as exc:
        raise _Refuse("bad_setup", str(exc),
                      f"Einsatz pro Punkt: eine Zahl wie 1, 1/4 oder 0,5 (Cent), höchstens {MAX_STAKE}") from None
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
        raise _Refuse("bad_setup", f"{len(members)} member ids for {len(names)} players",
                      f"{len(members)} Mitgliedskennungen für {len(names)} Spieler")
    given = [m.strip() for m in members if m.strip()]
    if len(set(given)) != len(given):
        raise _Refuse("bad_setup", "one member id for two players", "Dieselbe Mitgliedskennung für zwei Spieler")
    return {n: m.strip() for n, m in zip(names, members) if m.strip()}


def _bierlachs_limit(system: ScoringSystem, given: int | None, players: int) -> int | None:
    if system is not ScoringSystem.BIERLACHS:
        return None
    if given is None:
        try:
            return bierlachs_limit(players)
        except ScoreListError as exc:
            raise _Refuse("bad_setup", str(exc), "Bierlachs zu fünft: bitte eine Grenze vereinbaren (z. B. 501)") from None
    if isinstance(given, bool) or not isinstance(given, int) or not 1 <= given <= MAX_BIERLACHS:
        raise _Refuse("bad_setup", f"a Bierlachs limit is a number from 1 to {MAX_BIERLACHS}, not {given!r}",
                      f"Die Bierlachs-Grenze ist eine Zahl von 1 bis {MAX_BIERLACHS} (z. B. 301)")
    return given


def _check_name(name: object) -> str:
    text = name.strip() if isinstance(name, str) else ""
    if not text or len(text) > MAX_NAME:
        raise _Refuse("bad_setup", f"a player's name is 1 to {MAX_NAME} characters, not {name!r}",
                      f"Ein Name hat 1 bis {MAX_NAME} Zeichen")
    bad = unsafe_name_characters(text)
    if bad:
        shown = ", ".join(f"U+{ord(c):04X}" for c in bad)
        raise _Refuse("bad_setup", f"a player's name may not hold control or text-direction characters ({shown})",
                      f"Ein Name darf keine Steuerzeichen oder Schreibrichtungszeichen enthalten ({shown})")
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
        raise _Refuse("series_over", "the series is over", "Die Serie ist beendet")
    if state.correction is not None:  # its consents are by seat: settle it first
        raise _Refuse("correction_pending", "a correction is waiting for consent: finish or withdraw it first",
                      "Erst die offene Korrektur abschließen oder zurückziehen")
    if not state.rotation.at_round_start or (state.deal is not None and state.deal.steps):
        raise _Refuse("not_at_round_start", "players join or leave only at the start of a round (ISkO 3.1.2)",
                      f"Spieler kommen und gehen nur zu Beginn einer Runde (ISkO 3.1.2); "
                      f"diese Runde endet nach Spiel {len(state.rows) + state.table_size - state.rotation.deal_in_round}")


def _join(state: TableState, command: JoinPlayer) -> Decision:
    _at_round_start(state)
    name = _check_name(command.name)
    staying = [n for s, n in enumerate(state.seating) if s != command.replaces]
    if name.casefold() in {n.casefold() for n in staying}:
        raise _Refuse("bad_setup", f"{name} is already at the table", f"{name} sitzt schon am Tisch")
    if command.replaces is not None:
        seat = _seat(state, command.replaces)
        return Decision(events=(PlayerJoined(name, seat, state.seating[seat], command.member.strip()),))
    if state.table_size >= max(TABLE_SIZES):
        raise _Refuse("table_full", "a table seats at most five players", "Am Tisch sitzen höchstens fünf Spieler")
    # ISkO 3.1.2: a new player sits down to the right of Platz 1, that is in the last seat.
    return Decision(events=(PlayerJoined(name, state.table_size, None, command.member.strip()),))


def _leave(state: TableState, command: LeavePlayer) -> Decision:
    _at_round_start(state)
    seat = _seat(state, command.seat)
    if state.table_size <= min(TABLE_SIZES):
        raise _Refuse("table_too_small", "at least three players must stay", "Mindestens drei Spieler müssen bleiben")
    return Decision(events=(PlayerLeft(seat, state.seating[seat]),))


# --------------------------------------------------------------------------- bidding


def _bidding(state: TableState, command: Bid | Hold | Pass) -> Decision:
    deal = _deal(state, Phase.BIDDING)
    position = _position(command.position)
    action: AuctionBid | AuctionHold | AuctionPass
    if isinstance(command, Bid):
        _check_bid_value(state, position, command.value)
        action = AuctionBid(position, command.value)
    elif isinstance(command, Hold):
        action = AuctionHold(position)
    else:
        action = AuctionPass(position)
    _check_turn(state, deal.auction, action)
    try:
        after = deal.auction.apply(action)
    except BidError as exc:
        raise _Refuse("bad_bid", str(exc), f"Nicht möglich: {exc}") from None
    kind = "bid" if isinstance(action, AuctionBid) else "hold" if isinstance(action, AuctionHold) else "pass"
    events: list[EventBody] = [BidMade(position, kind, getattr(action, "value", None))]
    result = after.result
    if result is not None and result.passed_in and not _plays_ramsch(state):
        events.append(PassedIn(deal.number, deal.dealer, deal.active))
        events.extend(_after_entry(state))
    return Decision(events=tuple(events))


def _enter_bidding(state: TableState, command: EnterBidding) -> Decision:
    """The bidding's outcome at once: the declarer and the final bid (the others passed)."""
    _deal(state, Phase.BIDDING)
    position = _position(command.position)
    _check_bid_value(state, position, command.value)
    return Decision(events=(BiddingEntered(position, command.value),))


def _plays_ramsch(state: TableState) -> bool:
    """Hook for the club variant: Ramsch instead of eingepasst when the profile says so
    (a ``ramsch`` switch on :class:`device.profile.RuleProfile`; never in tournaments)."""
    return state.profile.ramsch


def _check_bid_value(state: TableState, position: int, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not is_bid_value(value):
        raise _Refuse("bad_bid", f"{value!r} is not a bid value (18, 20, 22, 23, 24, 27, …)",
                      f"{value} ist kein Reizwert (18, 20, 22, 23, 24, 27, …)")


def _check_turn(state: TableState, auction: Auction, action: AuctionBid | AuctionHold | AuctionPass) -> None:
    """Refuse with a German reason what the auction would refuse (out of turn, too low …)."""
    options = auction.options()
    who = _name(state, action.seat)
    if action.seat != options.seat:
        if action.seat in auction.passed:
            raise _Refuse("not_your_turn", f"{POSITION_NAMES[action.seat]} has passed (ISkO 3.3.8)",
                          f"{who} hat gepasst und reizt nicht mehr mit (ISkO 3.3.8)")
        raise _Refuse("not_your_turn", f"it is not {POSITION_NAMES[action.seat]}'s turn: {options.prompt_en}",
                      f"{who} ist nicht an der Reihe — {options.prompt_de}")
    if isinstance(action, AuctionBid):
        if options.role is Role.ANSWERING:
            raise _Refuse("bad_bid", f"{POSITION_NAMES[action.seat]} answers {options.current}: hold or pass",
                          f"{who} antwortet auf {options.current} mit „ja“ oder „passe“")
        if action.value not in options.values:
            if options.role is Role.DECIDING:
                de = f"{who} spielt für 18 oder passt (ISkO 3.3.6)"
            elif options.min_value is None:
                de = f"{options.current} ist das höchste Gebot: {who} kann nur passen"
            else:
                de = f"{who} muss mehr als {options.current} sagen: mindestens {options.min_value}"
            raise _Refuse("bad_bid", f"{action.value} is not allowed now (allowed: {options.min_value} to {options.max_value})", de)
    if isinstance(action, AuctionHold) and not options.may_hold:
        raise _Refuse("bad_bid", f"{POSITION_NAMES[action.seat]} says a value or passes",
                      f"{who} sagt einen Wert oder passt — „ja“ sagt, wer gefragt wird")


# --------------------------------------------------------------------------- declaration


def _take_skat(state: TableState, command: TakeSkat) -> Decision:
    deal = _deal(state, Phase.DECLARING)
    if deal.skat_taken:
        raise _Refuse("skat_taken", "the skat is already taken up", "Der Skat ist schon aufgenommen")
    return Decision(events=(SkatTaken(),))


def _push_skat(state: TableState, command: PushSkat) -> Decision:
    deal = _deal(state, Phase.DECLARING, Phase.PLAYING, Phase.RESULT)
    card = _card(command.card)
    if len(deal.skat) >= 2:
        raise _Refuse("skat_full", "the skat has its two cards", "Der Skat hat schon zwei Karten")
    phase = deal.phase
    if phase == Phase.DECLARING and not deal.skat_taken:
        raise _Refuse("not_now", "take up the skat before pushing cards",
                      "Erst den Skat aufnehmen, dann die zwei gedrückten Karten")
    if phase == Phase.PLAYING and (not deal.skat_taken or deal.cards_played):
        raise _Refuse("not_now", "the skat is entered before the first card (pushed cards) or at the end",
                      "Den Skat vor der ersten Karte (gedrückte Karten) oder am Ende eingeben")
    if phase == Phase.RESULT and deal.early is None:
        raise _Refuse("not_now", "the skat is known: it is the two cards nobody played",
                      "Der Skat steht fest: die zwei Karten, die niemand gespielt hat")
    seen = _where_seen(deal, card)
    if seen is not None:
        raise _Refuse("card_seen", f"{card.code} {seen[0]}", f"{card.german} {seen[1]}")
    return Decision(events=(SkatCardAdded(card, command.source),))


def _declare(state: TableState, command: Declare) -> Decision:
    deal = _deal(state, Phase.DECLARING)
    try:
        declaration = Declaration.make(command.game, hand=command.hand, ouvert=command.ouvert,
                                       announced=command.announced)
    except DeclarationError as exc:
        raise _Refuse("bad_declaration", str(exc), _declaration_de(command)) from None
    reason = option_refusal(deal, declaration)
    if reason is not None:
        raise _Refuse("bad_declaration", reason[0], reason[1])
    return Decision(events=(Declared(declaration.game.value, declaration.hand, declaration.ouvert,
                                     declaration.announced.record_name),))


def _declaration_de(command: Declare) -> str:
    if command.game.is_null:
        return "Null hat kein Schneider oder Schwarz anzusagen"
    if command.ouvert:
        return f"{command.game.german} ouvert ist immer ein Handspiel (ISkO 3.4.4, 5.2.6)"
    return "Schneider oder Schwarz ansagen geht nur im Handspiel (ISkO 5.2.5)"


def option_refusal(deal: Deal, declaration: Declaration) -> tuple[str, str] | None:
    """Why ``declaration`` cannot be declared now (English, German), or None if it can."""
    assert deal.bid is not None
    if deal.skat_taken and declaration.hand:
        return ("no hand game after taking up the skat (ISkO 3.4.4)",
                "Nach der Skataufnahme kein Handspiel, kein Ouvert außer Null, keine Ansage (ISkO 3.4.4)")
    if not deal.skat_taken and not declaration.hand:
        return ("take up the skat first, or declare a hand game",
                "Erst den Skat aufnehmen — oder ein Handspiel ansagen")
    return None


def option_warning(deal: Deal, declaration: Declaration) -> tuple[str, str] | None:
    """What declaring ``declaration`` now leads to when it is allowed but lost at once (English,
    German; short, the declaration screen shows it beside the game): a Null after a bid above
    its value may be announced, and an announcement stands (ISkO 3.4.1), but it ends the game
    as a lost suit or Grand game (3.4.4; the result screen says which)."""
    assert deal.bid is not None
    if not is_overbid_null(declaration, deal.bid):
        return None
    return f"{declaration.null_value} < {deal.bid}: lost at once", f"{declaration.null_value} < {deal.bid}: sofort verloren"


def _kontra(state: TableState, command: Kontra) -> Decision:
    deal = _deal(state, Phase.PLAYING)
    position = _position(command.position)
    _kontra_allowed(state)
    assert deal.declarer is not None
    who = _name(state, position)
    if position == deal.declarer:
        raise _Refuse("not_allowed", "only a defender says Kontra", f"{who} ist Alleinspieler: Kontra sagen die Gegenspieler")
    if deal.kontra is not None:
        raise _Refuse("not_allowed", "Kontra was already said", "Kontra ist schon gesagt")
    try:
        check_kontra(state.profile, seat=position, declarer=deal.declarer, cards_played=len(deal.cards_played),
                     auction=deal.auction)
    except VariantError as exc:
        late = "18" not in str(exc)
        raise _Refuse("too_late" if late else "not_allowed", str(exc),
                      f"Zu spät für Kontra ({who})" if late else f"{who} hat bei 18 gepasst: kein Kontra") from None
    return Decision(events=(KontraSaid(position),))


def _re(state: TableState, command: Re) -> Decision:
    deal = _deal(state, Phase.PLAYING)
    position = _position(command.position)
    _kontra_allowed(state)
    assert deal.declarer is not None
    if position != deal.declarer:
        raise _Refuse("not_allowed", "only the declarer says Re", "Re sagt der Alleinspieler")
    if deal.kontra is None or deal.re is not None:
        raise _Refuse("not_allowed", "Re answers a Kontra, once", "Re gibt es nur als Antwort auf Kontra, einmal")
    try:
        check_re(state.profile, seat=position, declarer=deal.declarer, kontra_said=True,
                 cards_since_kontra=cards_since_kontra(deal))
    except VariantError as exc:
        raise _Refuse("too_late", str(exc), "Zu spät: Re gleich nach dem Kontra") from None
    return Decision(events=(ReSaid(position),))


def cards_since_kontra(deal: Deal) -> int:
    """Cards played after the Kontra (Re must come at once)."""
    steps = [s.body for s in deal.steps]
    said = max((i for i, b in enumerate(steps) if isinstance(b, KontraSaid)), default=len(steps))
    return sum(1 for b in steps[said:] if isinstance(b, CardPlayed))


def _kontra_allowed(state: TableState) -> None:
    if not state.profile.kontra:
        raise _Refuse("not_in_profile", "this rule profile has no Kontra and Re",
                      "Kontra und Re werden nach diesem Regelprofil nicht gespielt")


def _played_in_trick(deal: Deal) -> set[int]:
    leader = deal.trick_leaders()[-1]
    return {(leader + i) % 3 for i in range(len(deal.trick))}


# --------------------------------------------------------------------------- play


def _play_card(state: TableState, command: PlayCard) -> Decision:
    deal = _deal(state, Phase.PLAYING)
    card = _card(command.card)
    if deal.query is not None:
        raise _Refuse("question_pending", "first decide the false-following question",
                      "Erst die Frage entscheiden: falsch bedient oder falsch gescannt?")
    seen = _where_seen(deal, card)
    if seen is not None:
        raise _Refuse("card_seen", f"{card.code} {seen[0]}", f"{card.german} {seen[1]}")
    position = deal.to_play
    assert position is not None and deal.game is not None
    for trick_index, led, discarded in deal.voids(position):
        if follow_class(card, deal.game) is follow_class(led, deal.game):
            who = _name(state, position)
            follow = follow_class(led, deal.game)
            klass = follow.german
            question = FalseFollowingQueried(position, card, command.source, trick_index, led, discarded)
            reason = (f"{POSITION_NAMES[position]} did not follow {_FOLLOW_EN[follow.value]} in trick {trick_index + 1} "
                      f"({discarded.code} on {led.code}) and now plays {card.code}: false following or a wrong scan?")
            reason_de = (f"{who} hat im {trick_index + 1}. Stich {klass} nicht bedient ({discarded.german} auf "
                         f"{led.german}) und spielt jetzt {card.german}: falsch bedient (ISkO 4.2.4) oder falsch gescannt?")
            return Decision(events=(question,), refusal=Refusal("false_following", reason, reason_de, command))
    return Decision(events=(CardPlayed(position, card, command.source),))


#: What a player did not follow, in English (by the follow class's value: trumps or a suit).
_FOLLOW_EN = {"trump": "trumps", "C": "Clubs", "S": "Spades", "H": "Hearts", "D": "Diamonds"}


def _accept_false_following(state: TableState, command: AcceptFalseFollowing) -> Decision:
    deal = _deal(state, Phase.PLAYING)
    if deal.query is None:
        raise _Refuse("no_question", "no card is in question", "Es gibt keine offene Frage")
    return Decision(events=(FalseFollowingAccepted(),))


def _reject_card(state: TableState, command: RejectCard) -> Decision:
    deal = _deal(state, Phase.PLAYING)
    if deal.query is None:
        raise _Refuse("no_question", "no card is in question", "Es gibt keine offene Frage")
    return Decision(events=(CardWithdrawn(),))


def _check_matadors(deal: Deal, matadors: int | None) -> int | None:
    if matadors is None:
        return None
    choices = entry_matador_choices(deal)
    if not choices:
        raise _Refuse("bad_result", "Null games have no matadors", "Null hat keine Spitzen")
    if isinstance(matadors, bool) or not isinstance(matadors, int) or matadors not in choices:
        most = len(choices) // 2
        raise _Refuse("bad_result", f"matadors {matadors!r}: 'mit' 1 to {most} or 'ohne' 1 to {most} (negative)",
                      f"Spitzen: mit 1 bis {most} oder ohne 1 bis {most}")
    return matadors


def _end_game(state: TableState, command: EndGame) -> Decision:
    deal = _deal(state, Phase.PLAYING)
    if deal.query is not None:
        raise _Refuse("question_pending", "first decide the false-following question",
                      "Erst die Frage entscheiden: falsch bedient oder falsch gescannt?")
    try:
        how = EndHow(command.how)
    except ValueError:
        raise _Refuse("bad_end", f"unknown way to end a game: {command.how!r}", "Unbekanntes Spielende") from None
    assert deal.game is not None
    if how is EndHow.NULL_LOST:
        if not deal.game.is_null:
            raise _Refuse("bad_end", "only a Null game is lost by taking a trick", "Nur ein Nullspiel ist mit einem Stich verloren")
        if deal.declarer not in _trick_winners(deal):
            raise _Refuse("bad_end", "the declarer has not taken a trick yet", "Der Alleinspieler hat noch keinen Stich")
    matadors = _check_matadors(deal, command.matadors)
    known = known_matadors(deal)
    if matadors is not None and known is not None and matadors != known:
        raise _Refuse("bad_result", f"the cards show {known:+d} matadors, not {matadors:+d}",
                      f"Die Karten zeigen {_matadors_de(known)}, nicht {_matadors_de(matadors)}")
    return Decision(events=(GameEnded(how.value, matadors),))


def _trick_winners(deal: Deal) -> tuple[int, ...]:
    leaders = deal.trick_leaders()
    return leaders[1:]


def _matadors_de(matadors: int) -> str:
    return f"{'mit' if matadors > 0 else 'ohne'} {abs(matadors)}"


def _enter_result(state: TableState, command: EnterResult) -> Decision:
    deal = _deal(state, Phase.PLAYING)
    if deal.cards_played or deal.query is not None:
        raise _Refuse("cards_played", "cards were scanned: finish the play, end it, or undo the cards first",
                      "Es wurden schon Karten erfasst: zu Ende spielen, Spiel beenden oder Karten zurücknehmen")
    assert deal.game is not None
    matadors = _check_matadors(deal, command.matadors)
    if not deal.game.is_null and matadors is None:
        raise _Refuse("bad_result", "give the matadors", "Bitte die Spitzen angeben (mit/ohne …)")
    if not deal.game.is_null and command.declarer_points is None:
        raise _Refuse("bad_result", "give the declarer's card points", "Bitte die Augen des Alleinspielers angeben")
    entered = ResultEntered(command.declarer_points, command.declarer_tricks, matadors)
    trial = replace(deal, entered=entered, matadors=matadors)
    record = game_record(trial)
    assert record is not None
    try:
        score_record(record, profile=state.profile)
    except (RecordError, TypeError) as exc:
        raise _Refuse("bad_result", f"this result is not possible: {getattr(exc, 'reason', exc)}",
                      f"Dieses Ergebnis ist nicht möglich: {_record_problem_de(exc)}") from None
    return Decision(events=(entered,))


def _record_problem_de(exc: Exception) -> str:
    """The reason in the table's words: the check's own German, else which count does not fit
    (never the developer's English on the screen)."""
    german = getattr(exc, "german", "")
    if german:
        return str(german)
    words = {"declarer_points": "Die Augen passen nicht zu den Stichen",
             "declarer_tricks": "Die Stiche passen nicht zu den Augen",
             "matadors": "Die Spitzen passen nicht zum Spiel", "bid": "Der Reizwert passt nicht zum Spiel"}
    return words.get(getattr(exc, "field", ""), "Die Zahlen passen nicht zusammen")


def _enter_matadors(state: TableState, command: EnterMatadors) -> Decision:
    deal = _deal(state, Phase.RESULT)
    if deal.early is None or deal.ramsch is not None:
        raise _Refuse("not_now", "the matadors come from the cards here", "Die Spitzen ergeben sich hier aus den Karten")
    matadors = _check_matadors(deal, command.matadors)
    assert matadors is not None
    known = known_matadors(deal)
    if known is not None and known != matadors:
        raise _Refuse("bad_result", f"the cards show {known:+d} matadors", f"Die Karten zeigen {_matadors_de(known)}")
    return Decision(events=(MatadorsEntered(matadors),))


def _enter_ramsch(state: TableState, command: EnterRamsch) -> Decision:
    deal = _deal(state, Phase.RAMSCH)
    try:
        counts = RamschCounts(tuple(command.points), tuple(command.tricks), command.skat_points,  # type: ignore[arg-type]
                              command.last_trick)
        score_ramsch(counts, state.profile, pushes=command.pushes, multiplier=deal.bock)
    except (RamschError, TypeError, ValueError) as exc:
        raise _Refuse("bad_result", str(exc), f"Dieses Ramsch-Ergebnis ist nicht möglich: {exc}") from None
    return Decision(events=(RamschEntered(counts.points, counts.tricks, counts.skat_points, counts.last_trick,
                                          command.pushes),))


# --------------------------------------------------------------------------- result and list


def _confirm(state: TableState, command: Confirm) -> Decision:
    deal = _deal(state, Phase.RESULT)
    seat = _seat(state, command.seat)
    who = _seat_name(state, seat)
    if seat not in deal.confirmers:
        raise _Refuse("wrong_confirmer", f"seat {seat} is not at this game: the declarer and a defender (or the dealer) confirm",
                      f"{who} spielt dieses Spiel nicht mit: bestätigen müssen der Alleinspieler und ein Gegenspieler "
                      "(oder der Geber)")
    if seat in deal.confirmations:
        raise _Refuse("already_confirmed", f"seat {seat} has already confirmed", f"{who} hat schon bestätigt")
    confirmed = (*deal.confirmations, seat)
    if deal.ramsch is not None:
        if len(confirmed) < 2:
            return Decision(events=(ResultConfirmed(seat),))
        ramsch = RamschRecorded(deal.number, deal.ramsch.scores, deal.dealer, deal.active)
        return Decision(events=(ResultConfirmed(seat), ramsch, *_after_entry(state)))
    shown = preview(deal, state.profile)
    assert shown is not None
    if shown.needs_matadors:
        raise _Refuse("needs_matadors", "give the matadors first", "Erst die Spitzen eingeben (mit/ohne …)")
    if shown.problem is not None or shown.scored is None:
        raise _Refuse("bad_result", shown.problem or "no result", f"Das Ergebnis ist nicht möglich: {shown.problem}")
    declarer_seat = deal.declarer_seat
    assert declarer_seat is not None
    if declarer_seat not in confirmed or len(confirmed) < 2:
        return Decision(events=(ResultConfirmed(seat),))
    record = {**shown.record, "seat": declarer_seat, "player": state.seating[declarer_seat]}
    recorded = GameRecorded(deal.number, record, declarer_seat, deal.dealer, deal.active)
    return Decision(events=(ResultConfirmed(seat), recorded, *_after_entry(state)))


def _undo(state: TableState, command: Undo) -> Decision:
    _open(state)
    deal = state.deal
    if deal is not None and deal.steps and not state.series_over:
        return Decision(events=(StepUndone(deal.steps[-1].id),))
    if withdrawable_passed_in(state):
        return Decision(events=(PassedInWithdrawn(state.rows[-1].entry),))
    if state.series_over or deal is None:
        raise _Refuse("series_over", "the series is over: correct entries instead",
                      "Die Serie ist beendet: Einträge nur noch per Korrektur ändern")
    raise _Refuse("nothing_to_undo", "nothing to take back in this game",
                  "Nichts zurückzunehmen: eingetragene Spiele nur per Korrektur ändern")


def withdrawable_passed_in(state: TableState) -> bool:
    """Whether the last entry is an eingepasst that a wrong last "passe" made and nothing
    has happened since (no new bid, nobody joined or left, no correction proposed for it).
    After the last game of a series this holds until anybody signed the list (ISkO 3.2.11)."""
    last = state.rows[-1] if state.rows else None
    if last is None or last.kind != "passed_in" or last.deal_before is None or last.seating != state.seating:
        return False
    if state.correction is not None:
        return False
    if state.series_over:
        return not state.list_confirmations and not state.closed
    return state.deal is not None and not state.deal.steps


def _add_bock(state: TableState, command: AddBock) -> Decision:
    _open(state)
    if not state.profile.bock:
        raise _Refuse("not_in_profile", "this rule profile has no Bock rounds", "Bockrunden gibt es nach diesem Regelprofil nicht")
    if state.series_over:
        raise _Refuse("series_over", "the series is over", "Die Serie ist beendet")
    games = state.table_size if command.games is None else command.games
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise _Refuse("bad_bock", f"{games!r} Bock games: 1 or more", "Bock: mindestens ein Spiel")
    return Decision(events=(BockAdded(games),))


def _propose_correction(state: TableState, command: ProposeCorrection) -> Decision:
    _open(state)
    if state.correction is not None:
        raise _Refuse("correction_pending", "another correction waits for consent", "Eine andere Korrektur wartet noch auf Zustimmung")
    by_seat = _seat(state, command.by_seat)
    if isinstance(command.entry, bool) or not isinstance(command.entry, int) or not 1 <= command.entry <= len(state.rows):
        raise _Refuse("bad_entry", f"entry {command.entry!r} is not on the list", f"Spiel {command.entry} steht nicht auf der Liste")
    row = state.rows[command.entry - 1]
    if command.record is None:
        return Decision(events=(CorrectionProposed(command.entry, None, None, by_seat),))
    if command.declarer_seat not in row.active:
        raise _Refuse("bad_correction", f"the declarer must be one of the seats at game {command.entry}: {row.active}",
                      f"Alleinspieler muss einer der drei Spieler von Spiel {command.entry} sein")
    position = row.active.index(command.declarer_seat)
    record: dict[str, Any] = {k: v for k, v in dict(command.record).items() if k not in ("seat", "player")}
    if "declarer" in record and record["declarer"] != position:
        raise _Refuse("bad_correction", f"the record's declarer {record['declarer']!r} is not position {position} of seat {command.declarer_seat}",
                      "Alleinspieler im Spielbericht passt nicht zum gewählten Platz")
    record = {**record, "seat": command.declarer_seat, "player": row.seating[command.declarer_seat]}
    try:
        score_record(record, profile=state.profile)
    except (RecordError, TypeError) as exc:
        raise _Refuse("bad_correction", str(exc), f"Dieser Spielbericht ist nicht möglich: {_record_problem_de(exc)}") from None
    events: list[EventBody] = [CorrectionProposed(command.entry, record, command.declarer_seat, by_seat)]
    if state.table_size == 1:  # pragma: no cover - a table has at least three
        events.append(CorrectionApplied(command.entry))
    return Decision(events=tuple(events))


def _consent(state: TableState, command: ConsentCorrection) -> Decision:
    _open(state)
    correction = state.correction
    if correction is None:
        raise _Refuse("no_correction", "no correction is proposed", "Es ist keine Korrektur vorgeschlagen")
    seat = _seat(state, command.seat)
    if seat in correction.consents:
        raise _Refuse("already_confirmed", f"seat {seat} has already agreed", f"{_seat_name(state, seat)} hat schon zugestimmt")
    events: list[EventBody] = [CorrectionConsented(seat)]
    if len(set(correction.consents) | {seat}) >= state.table_size:
        events.append(CorrectionApplied(correction.entry))
    return Decision(events=tuple(events))


def _withdraw(state: TableState, command: WithdrawCorrection) -> Decision:
    _open(state)
    if state.correction is None:
        raise _Refuse("no_correction", "no correction is proposed", "Es ist keine Korrektur vorgeschlagen")
    return Decision(events=(CorrectionWithdrawn(),))


def _end_series(state: TableState, command: EndSeries) -> Decision:
    _open(state)
    if state.series_over:
        raise _Refuse("series_over", "the series is already over", "Die Serie ist schon beendet")
    if state.deal is not None and state.deal.steps:
        raise _Refuse("game_running", "finish or undo the game being played first",
                      "Erst das laufende Spiel beenden oder zurücknehmen")
    if state.bock is not None and state.bock.must_play_on:
        raise _Refuse("bock_open", f"open Bock rounds are played out first ({state.bock.bock_deals_left} deals)",
                      f"Erst die offenen Bockrunden zu Ende spielen ({state.bock.german})")
    return Decision(events=(SeriesEnded("stopped"),))


def _confirm_list(state: TableState, command: ConfirmList) -> Decision:
    _open(state)
    if not state.series_over:
        raise _Refuse("series_running", "the series is still being played", "Die Serie läuft noch")
    if state.correction is not None:
        raise _Refuse("correction_pending", "first decide the proposed correction", "Erst über die Korrektur entscheiden")
    seat = _seat(state, command.seat)
    if seat in state.list_confirmations:
        raise _Refuse("already_confirmed", f"seat {seat} has already confirmed", f"{_seat_name(state, seat)} hat schon bestätigt")
    events: list[EventBody] = [ListConfirmed(seat)]
    if len(set(state.list_confirmations) | {seat}) >= state.table_size:
        events.append(ListClosed())
    return Decision(events=tuple(events))


# --------------------------------------------------------------------------- hardware


def dealer_seat(state: TableState) -> int | None:
    """Whose tap the panel's confirm button is: the dealer of the current (or last) game."""
    if state.deal is not None:
        return state.deal.dealer
    return state.rows[-1].dealer if state.rows else None


def _button(state: TableState, command: ButtonPressed) -> Decision:
    if command.button is Button.BACK:
        return _undo(state, Undo())
    if command.button is Button.CONFIRM:
        _open(state)
        dealer = dealer_seat(state)
        if dealer is not None and state.correction is not None:
            return _consent(state, ConsentCorrection(dealer))
        if dealer is not None and state.series_over:
            return _confirm_list(state, ConfirmList(dealer))
        if dealer is not None and state.deal is not None and state.deal.phase == Phase.RESULT:
            return _confirm(state, Confirm(dealer))
        raise _Refuse("nothing_to_confirm", "nothing to confirm now", "Jetzt gibt es nichts zu bestätigen")
    raise _Refuse("not_now", f"the {command.button.value} button does nothing here", "Diese Taste hat hier keine Funktion")


def _scanned(state: TableState, command: CardScanned) -> Decision:
    """A scanned card goes where a card is expected: the pushed skat, the trick, or the skat
    of a game that ended early."""
    _open(state)
    deal = state.deal
    phase = state.phase
    if deal is not None and phase == Phase.DECLARING and deal.skat_taken and len(deal.skat) < 2:
        return _push_skat(state, PushSkat(command.card, command.source))
    if deal is not None and phase == Phase.PLAYING:
        return _play_card(state, PlayCard(command.card, command.source))
    if deal is not None and phase == Phase.RESULT and deal.early is not None and len(deal.skat) < 2:
        return _push_skat(state, PushSkat(command.card, command.source))
    raise _Refuse("no_card_expected", f"no card is expected now ({phase})",
                  f"Jetzt wird keine Karte erwartet ({_WAITING_DE.get(phase, phase)})")


_WAITING_DE = {
    Phase.BIDDING: "es wird gereizt", Phase.DECLARING: "erst Skat aufnehmen oder Hand ansagen",
    Phase.RESULT: "das Ergebnis wartet auf Bestätigung", Phase.RAMSCH: "Ramsch-Ergebnis eingeben",
    Phase.SERIES_OVER: "die Serie ist beendet", Phase.CLOSED: "die Liste ist abgeschlossen",
    Phase.SETUP: "keine Liste offen",
}


def _unknown_card(state: TableState, command: UnknownCardScanned) -> Decision:
    raise _Refuse("unknown_card", f"unknown card {command.raw!r}: {command.reason}",
                  f"Unbekannte Karte ({command.raw}): {command.reason}")


def _open_list_without_rng(state: TableState, command: OpenList) -> Decision:
    return open_list(state, command, random.Random(0)) if not command.draw else Decision(
        refusal=Refusal("needs_service", "OpenList with draw is decided by the service (it holds the random generator)",
                        "Auslosen macht der Tisch-Dienst", command))


_HANDLERS: dict[type, Callable[[TableState, Any], Decision]] = {
    OpenList: _open_list_without_rng,
    JoinPlayer: _join, LeavePlayer: _leave,
    Bid: _bidding, Hold: _bidding, Pass: _bidding, EnterBidding: _enter_bidding,
    TakeSkat: _take_skat, PushSkat: _push_skat, Declare: _declare, Kontra: _kontra, Re: _re,
    PlayCard: _play_card, AcceptFalseFollowing: _accept_false_following, RejectCard: _reject_card,
    EndGame: _end_game, EnterResult: _enter_result, EnterMatadors: _enter_matadors,
    EnterRamsch: _enter_ramsch, Confirm: _confirm, Undo: _undo, AddBock: _add_bock,
    ProposeCorrection: _propose_correction, ConsentCorrection: _consent, WithdrawCorrection: _withdraw,
    EndSeries: _end_series, ConfirmList: _confirm_list,
    ButtonPressed: _button, CardScanned: _scanned, UnknownCardScanned: _unknown_card,
}
