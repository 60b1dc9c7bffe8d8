"""The table's state as a pure fold over its events: ``replay(events) == state``.

:class:`TableState` is one list: its setup, who sits where, the rotation, the entries
(:class:`Row`) and the game being dealt (:class:`Deal`). :func:`apply` gives the state after
one event and never looks at anything but the state and the event (no clock, no store), so
the table, a restarted table and the club laptop all compute the same state from the same
events. Undo and corrections are events too: a :class:`~device.table.events.StepUndone`
rebuilds the game from its remaining steps, a correction keeps the original row visible.

>>> from device.table.events import Event, ListOpened, BidMade
>>> opened = ListOpened(("Anna", "Bernd", "Carla"), False, 36, "seeger_fabian", None, "isko", "0")
>>> events = [Event("e1", 1, "t", "l1", opened), Event("e2", 2, "t", "l1", BidMade(1, "bid", 18))]
>>> state = replay(events)
>>> state.deal.dealer, state.deal.active, state.deal.auction.value
(0, (1, 2, 0), 18)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from device.bidding import Auction
from device.bidding import Bid as AuctionBid
from device.bidding import Hold as AuctionHold
from device.bidding import Pass as AuctionPass
from device.cards import Card
from device.declaration import Declaration, Level
from device.errors import SkatError
from device.games import GameType
from device.skatform import TourneeGame
from device.profile import BockTrigger, RuleProfile, find_profile
from device.ramsch import RamschResult, score_ramsch
from device.record import score_record
from device.table.commands import Declare
from device.table.events import (
    BidMade, BiddingEntered, BockAdded, CardPlayed, CardTurned, CardWithdrawn, CorrectionApplied, CorrectionConsented,
    CorrectionProposed, CorrectionWithdrawn, Declared, Event, EventBody, FalseFollowingAccepted,
    FalseFollowingQueried, GameEnded, GameRecorded, KontraSaid, ListClosed, ListConfirmed,
    ListOpened, MatadorsEntered, PassedIn, PassedInWithdrawn, PlayerJoined, PlayerLeft,
    RamschEntered, RamschRecorded, ReSaid, ResultConfirmed, ResultEntered, SchenkenSaid, SeriesEnded,
    SpitzeAnnounced, SpitzeMadeEntered,
    SkatCardAdded, SkatTaken, StepUndone,
)
from device.table.rotation import POSITION_NAMES, Rotation, active_seats
from device.table.rules import entered_ramsch_counts, make_declaration, start_auction
from device.tricks import follow_class, trick_leaders, trick_winner
from device.value import GameResult, is_overbid_null, null_value
from device.variants import BockState, bock_triggers, total_triggers

__all__ = ["Correction", "Deal", "EarlyEnd", "Phase", "Row", "StateError", "TableState", "apply", "replay"]


class StateError(SkatError, ValueError):
    """An event that does not fit the state it is applied to (a damaged or foreign log)."""


class Phase:
    """The phases of the table, as the snapshot names them (plain strings for the UI)."""

    SETUP = "setup"  # no list open: set one up
    BIDDING = "bidding"
    DECLARING = "declaring"  # skat or hand, then the declaration
    PLAYING = "playing"
    RAMSCH = "ramsch"  # all passed and the profile plays Ramsch: enter its result
    RESULT = "result"  # the result is shown and waits for two confirmations
    SERIES_OVER = "series_over"  # no more games: totals, corrections, closing confirmations
    CLOSED = "closed"  # every player confirmed: read-only


@dataclass(frozen=True, slots=True)
class EarlyEnd:
    """How a game ended before its tenth trick. ``upto`` tricks count (the tricks before a
    false following, ISkO 4.2.4); ``note`` says what happened in words."""

    how: str
    upto: int
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Deal:
    """The game being dealt, bid, declared and played: its steps and what they add up to.

    ``active`` are the seats of Vorhand, Mittelhand and Hinterhand. Positions (0, 1, 2) index
    ``active``. ``tricks`` are the complete tricks (each from its lead), ``trick`` the cards
    of the trick being played. ``skat`` the skat cards known so far (pushed or scanned at the
    end). ``confirmations`` are seats.
    """

    number: int
    dealer: int
    active: tuple[int, int, int]
    bock: int = 1
    profile: str = "isko"
    steps: tuple[Event, ...] = ()
    auction: Auction = Auction()
    skat_taken: bool = False
    skat: tuple[Card, ...] = ()
    #: Tournée-Skat: the skat card turned up (its suit is trump), and whether it is the second.
    turned: Card | None = None
    turned_second: bool = False
    declaration: Declaration | None = None
    kontra: int | None = None
    re: int | None = None
    #: Schenken (001): the defenders who said "schenken" in the offer standing now, and where the
    #: offers ended so far (a device.variants.Schenken value: "weiterspielen" … "geschenkt"), or None.
    gift_offers: tuple[int, ...] = ()
    schenken: str | None = None
    #: Spitze (001): how many lowest trumps the declarer announced (0: none), and for a result
    #: typed in whether it was made (None: not said; the cards show it when scanned).
    spitze: int = 0
    spitze_made: bool | None = None
    tricks: tuple[tuple[Card, ...], ...] = ()
    trick: tuple[Card, ...] = ()
    query: FalseFollowingQueried | None = None
    early: EarlyEnd | None = None
    entered: ResultEntered | None = None
    matadors: int | None = None
    ramsch: RamschResult | None = None
    confirmations: tuple[int, ...] = ()

    # -- what the steps add up to --

    @property
    def confirmers(self) -> tuple[int, ...]:
        """Who may confirm the result: the three at the game, and a dealer who sits out: he
        keeps the list and belongs to the Gegenpartei (SkWO 5.1, 7.2.2)."""
        return self.active if self.dealer in self.active else (*self.active, self.dealer)

    @property
    def declarer(self) -> int | None:
        """The declarer's position once the bidding found one."""
        result = self.auction.result
        return None if result is None else result.declarer

    @property
    def bid(self) -> int | None:
        result = self.auction.result
        return None if result is None else result.bid

    @property
    def passed_in(self) -> bool:
        result = self.auction.result
        return result is not None and result.passed_in

    @property
    def declarer_seat(self) -> int | None:
        return None if self.declarer is None else self.active[self.declarer]

    @property
    def game(self) -> GameType | None:
        return None if self.declaration is None else self.declaration.game

    @property
    def cards_played(self) -> tuple[Card, ...]:
        return tuple(c for t in self.tricks for c in t) + self.trick

    @property
    def complete(self) -> bool:
        return len(self.tricks) == 10

    @property
    def finished(self) -> bool:
        """Play is over: ten tricks, an early end, or the result typed in."""
        return self.complete or self.early is not None or self.entered is not None

    @property
    def phase(self) -> str:
        if not self.auction.is_finished:
            return Phase.BIDDING
        if self.passed_in:
            return Phase.RESULT if self.ramsch is not None else Phase.RAMSCH
        if self.declaration is None:
            return Phase.DECLARING
        return Phase.RESULT if self.finished else Phase.PLAYING

    @property
    def to_play(self) -> int | None:
        """The position whose card comes next while playing (as device.tricks.next_to_play)."""
        if self.game is None or self.finished:
            return None
        return (self.trick_leaders()[-1] + len(self.trick)) % 3

    def trick_leaders(self) -> tuple[int, ...]:
        """The position that led each complete trick, then the leader of the current one."""
        assert self.game is not None
        return trick_leaders(self.tricks, self.game)

    def who_played(self) -> dict[Card, tuple[int, int]]:
        """Each card played so far: (trick index, position)."""
        if self.game is None:
            return {}
        leaders = self.trick_leaders()
        seen: dict[Card, tuple[int, int]] = {}
        for index, trick in enumerate((*self.tricks, self.trick)):
            for offset, card in enumerate(trick):
                seen[card] = (index, (leaders[index] + offset) % 3)
        return seen

    def voids(self, position: int) -> list[tuple[int, Card, Card]]:
        """Where ``position`` did not follow: (trick index, led card, his card), in order."""
        if self.game is None:
            return []
        leaders = self.trick_leaders()
        found = []
        for index, trick in enumerate(self.tricks):
            mine = trick[(position - leaders[index]) % 3]
            if position != leaders[index] and follow_class(mine, self.game) is not follow_class(trick[0], self.game):
                found.append((index, trick[0], mine))
        return found

    # -- the fold of one game --

    def with_step(self, event: Event) -> Deal:
        """The deal after one of its steps (a new step drops any confirmations given)."""
        body = event.body
        deal = replace(self, steps=(*self.steps, event), confirmations=())
        if isinstance(body, BidMade):
            return replace(deal, auction=deal.auction.apply(_auction_action(body)))
        if isinstance(body, BiddingEntered):
            return replace(deal, auction=Auction.settled(body.position, body.value, deal.auction.ladder))
        if isinstance(body, SkatTaken):
            return replace(deal, skat_taken=True)
        if isinstance(body, SkatCardAdded):
            return replace(deal, skat=(*deal.skat, body.card))
        if isinstance(body, CardTurned):
            return replace(deal, turned=body.card, turned_second=body.second)
        if isinstance(body, Declared):
            profile = find_profile(deal.profile)
            kind = TourneeGame(body.tournee) if body.tournee is not None else None
            declaration = make_declaration(profile, Declare(GameType.parse(body.game), hand=body.hand, ouvert=body.ouvert,
                                                            announced=Level.parse(body.announced), tournee=kind))
            if deal.bid is not None and is_overbid_null(declaration, deal.bid, profile):
                # ISkO 3.4.4: the announcement stands (3.4.1) and the game is lost at once.
                note = (f"{declaration.describe_de()} ({null_value(declaration, profile)}) nach Reizwert {deal.bid}: gewertet als "
                        "das Farb- oder Grandspiel, das mit seinen Spitzen den Reizwert am knappsten erreicht")
                return replace(deal, declaration=declaration, early=EarlyEnd("null_overbid", 0, note))
            return replace(deal, declaration=declaration)
        if isinstance(body, KontraSaid):
            return replace(deal, kontra=body.position)
        if isinstance(body, ReSaid):
            return replace(deal, re=body.position)
        if isinstance(body, SchenkenSaid):
            return deal._schenken_step(body)
        if isinstance(body, SpitzeAnnounced):
            return replace(deal, spitze=body.count)
        if isinstance(body, SpitzeMadeEntered):
            return replace(deal, spitze_made=body.made)
        if isinstance(body, CardPlayed):
            trick = (*deal.trick, body.card)
            if len(trick) == 3:
                return replace(deal, tricks=(*deal.tricks, trick), trick=())
            return replace(deal, trick=trick)
        if isinstance(body, FalseFollowingQueried):
            return replace(deal, query=body)
        if isinstance(body, FalseFollowingAccepted):
            return deal._false_following_accepted()
        if isinstance(body, CardWithdrawn):
            return replace(deal, query=None)
        if isinstance(body, GameEnded):
            matadors = body.matadors if body.matadors is not None else deal.matadors
            return replace(deal, early=EarlyEnd(body.how, len(deal.tricks)), matadors=matadors)
        if isinstance(body, ResultEntered):
            return replace(deal, entered=body, matadors=body.matadors)
        if isinstance(body, MatadorsEntered):
            return replace(deal, matadors=body.matadors)
        if isinstance(body, RamschEntered):
            profile = find_profile(deal.profile)
            counts = entered_ramsch_counts(body.points, body.tricks, body.skat_points, body.last_trick, body.later_trick,
                                           profile)
            return replace(deal, ramsch=score_ramsch(counts, profile, pushes=body.pushes, multiplier=deal.bock))
        raise StateError(f"{body.TYPE} is not a step of a game")

    def _schenken_step(self, body: SchenkenSaid) -> Deal:
        """001 "Schenken": an offer needs both defenders; the declarer's answer ends the game
        (accepted: geschenkt, Schneider geschenkt after playing on) or sets what he plays for."""
        if body.what == "offer":
            return replace(self, gift_offers=(*self.gift_offers, body.position))
        if body.what == "decline":
            return replace(self, gift_offers=())
        again = self.schenken is not None
        if body.what == "automatic":  # 001: given without asking (Karo at 18, Karo or Herz at 20)
            return replace(self, gift_offers=(), schenken="geschenkt", early=EarlyEnd("gift", len(self.tricks)))
        if body.what == "accept":
            outcome = "schneider_geschenkt" if again else "geschenkt"
            return replace(self, gift_offers=(), schenken=outcome, early=EarlyEnd("gift", len(self.tricks)))
        if body.what == "play_on":
            return replace(self, gift_offers=(), schenken="weiterspielen_schwarz" if again else "weiterspielen")
        raise StateError(f"unknown Schenken step {body.what!r}")

    def _false_following_accepted(self) -> Deal:
        query = self.query
        if query is None:
            raise StateError("false following accepted, but no card was in question")
        by_declarer = query.position == self.declarer
        how = "declarer_violation" if by_declarer else "defenders_violation"
        note = (f"Falsch bedient im {query.trick_index + 1}. Stich: {POSITION_NAMES[query.position]} gab "
                f"{query.discarded.german} auf {query.led.german} und spielte später {query.card.german}")
        return replace(self, query=None, early=EarlyEnd(how, query.trick_index, note))

    def undo(self) -> Deal:
        """The deal without its last step, rebuilt from the steps before it."""
        if not self.steps:
            raise StateError("nothing to undo in this game")
        return self.restart(self.steps[:-1])

    def restart(self, steps: Iterable[Event]) -> Deal:
        deal = Deal(self.number, self.dealer, self.active, self.bock, self.profile,
                    auction=start_auction(find_profile(self.profile)))
        for step in steps:
            deal = deal.with_step(step)
        return deal

    def confirm(self, seat: int) -> Deal:
        return replace(self, confirmations=(*self.confirmations, seat))


def _auction_action(body: BidMade) -> AuctionBid | AuctionHold | AuctionPass:
    if body.kind == "bid":
        if body.value is None:
            raise StateError("a bid without a value")
        return AuctionBid(body.position, body.value)
    if body.kind == "hold":
        return AuctionHold(body.position)
    if body.kind == "pass":
        return AuctionPass(body.position)
    raise StateError(f"unknown bidding action {body.kind!r}")


@dataclass(frozen=True, slots=True)
class Row:
    """One entry of the list: a game, eingepasst or a Ramsch.

    ``seating`` are the names by seat when it was played; ``record`` the game record (JSON,
    with ``seat`` and ``player``) and ``result`` its score; ``ramsch`` signed scores per
    position. ``earlier`` keeps the versions a correction replaced, oldest first.
    ``deal_before`` (eingepasst only) lets a wrong last "passe" be taken back.
    """

    entry: int
    kind: str  # "game", "passed_in", "ramsch"
    dealer: int
    active: tuple[int, int, int]
    seating: tuple[str, ...]
    record: dict[str, Any] | None = None
    declarer_seat: int | None = None
    result: GameResult | None = None
    ramsch: tuple[int, int, int] | None = None
    earlier: tuple[Row, ...] = ()
    deal_before: Deal | None = None
    bock_before: BockState | None = None

    @property
    def corrected(self) -> bool:
        return bool(self.earlier)


@dataclass(frozen=True, slots=True)
class Correction:
    """A proposed correction waiting for every player's consent (ISkO 5.5.3)."""

    entry: int
    record: dict[str, Any] | None
    declarer_seat: int | None
    by_seat: int
    consents: tuple[int, ...]
    result: GameResult | None


@dataclass(frozen=True, slots=True)
class TableState:
    """One list as the fold of its events. ``setup`` is None before a list is opened."""

    list_id: str | None = None
    setup: ListOpened | None = None
    seating: tuple[str, ...] = ()
    rotation: Rotation = Rotation()
    rows: tuple[Row, ...] = ()
    deal: Deal | None = None
    bock: BockState | None = None
    correction: Correction | None = None
    series_over: bool = False
    list_confirmations: tuple[int, ...] = ()
    closed: bool = False
    members: tuple[tuple[str, str], ...] = ()  # (name, member id) of everyone with an id who sat at this list

    def member_of(self, name: str) -> str:
        """``name``'s member id on this list ("" for a guest or a list without ids)."""
        return next((member for who, member in self.members if who == name), "")

    @property
    def table_size(self) -> int:
        return len(self.seating)

    @property
    def profile(self) -> RuleProfile:
        return find_profile(self.setup.profile if self.setup is not None else "isko")

    @property
    def phase(self) -> str:
        if self.setup is None:
            return Phase.SETUP
        if self.closed:
            return Phase.CLOSED
        if self.series_over or self.deal is None:
            return Phase.SERIES_OVER
        return self.deal.phase

    def new_deal(self) -> Deal:
        """The next deal: the rotation's dealer; Bock while Bock games are left."""
        dealer = self.rotation.dealer(self.table_size)
        return Deal(number=len(self.rows) + 1, dealer=dealer, active=active_seats(dealer, self.table_size),
                    bock=self.bock.multiplier if self.bock is not None else 1,
                    profile=self.setup.profile if self.setup is not None else "isko",
                    auction=start_auction(self.profile))


def replay(events: Iterable[Event]) -> TableState:
    """The state after ``events`` from an empty table."""
    state = TableState()
    for event in events:
        state = apply(state, event)
    return state


def apply(state: TableState, event: Event) -> TableState:
    """The state after one event (pure)."""
    body = event.body
    if isinstance(body, ListOpened):
        opened = TableState(list_id=event.list_id, setup=body, seating=body.players,
                            members=tuple((n, m) for n, m in zip(body.players, body.members) if m),
                            bock=BockState.start(len(body.players), find_profile(body.profile)))
        return replace(opened, deal=opened.new_deal())
    if state.setup is None:
        raise StateError(f"{body.TYPE} before the list was opened")
    handler = _LIST_HANDLERS.get(type(body))
    if handler is not None:
        changed: TableState = handler(state, body)
        return changed
    deal = state.deal
    if deal is None:
        raise StateError(f"{body.TYPE} but no game is being played")
    if isinstance(body, ResultConfirmed):
        return replace(state, deal=deal.confirm(body.seat))
    if isinstance(body, StepUndone):
        return replace(state, deal=deal.undo())
    return replace(state, deal=deal.with_step(event))


def _entered(state: TableState, row: Row, triggers: tuple[BockTrigger, ...] = ()) -> TableState:
    """A new row: the next player deals (also after eingepasst: 3.3.7); Bock counts the deal."""
    bock = state.bock.after_deal(triggers) if state.bock is not None else None
    after = replace(state, rows=(*state.rows, row), rotation=state.rotation.advance(state.table_size), bock=bock)
    return replace(after, deal=after.new_deal())


def _classic_total(rows: tuple[Row, ...], seat: int) -> int:
    """A seat's classic list total (for the total-score Bock triggers)."""
    total = 0
    for row in rows:
        if row.result is not None and row.declarer_seat == seat:
            total += row.result.score
        elif row.ramsch is not None and seat in row.active:
            total += row.ramsch[row.active.index(seat)]
    return total


def _game_recorded(state: TableState, body: GameRecorded) -> TableState:
    profile = state.profile
    result = score_record(body.record, profile=profile).result
    row = Row(body.entry, "game", body.dealer_seat, body.active, state.seating, body.record,
              body.declarer_seat, result)
    rows = (*state.rows, row)
    triggers = bock_triggers(result, profile, kontra=bool(body.record.get("kontra")), re=bool(body.record.get("re")),
                             new_totals=(_classic_total(rows, body.declarer_seat),))
    return _entered(state, row, triggers)


def _passed_in(state: TableState, body: PassedIn) -> TableState:
    row = Row(body.entry, "passed_in", body.dealer_seat, body.active, state.seating, deal_before=state.deal,
              bock_before=state.bock)
    return _entered(state, row)


def _passed_in_withdrawn(state: TableState, body: PassedInWithdrawn) -> TableState:
    last = state.rows[-1] if state.rows else None
    if last is None or last.kind != "passed_in" or last.deal_before is None:
        raise StateError("no eingepasst entry to withdraw")
    return replace(state, rows=state.rows[:-1], rotation=state.rotation.back(state.table_size),
                   deal=last.deal_before.undo(), bock=last.bock_before, series_over=False)


def _ramsch_recorded(state: TableState, body: RamschRecorded) -> TableState:
    row = Row(body.entry, "ramsch", body.dealer_seat, body.active, state.seating, ramsch=body.scores)
    rows = (*state.rows, row)
    changed = tuple(_classic_total(rows, body.active[p]) for p, score in enumerate(body.scores) if score)
    return _entered(state, row, total_triggers(changed, state.profile))


def _player_joined(state: TableState, body: PlayerJoined) -> TableState:
    seating = list(state.seating)
    if body.replaces is not None:
        seating[body.seat] = body.name
    else:
        seating.insert(body.seat, body.name)
    members = state.members + ((body.name, body.member),) if body.member else state.members
    changed = replace(state, seating=tuple(seating), members=members, rotation=Rotation(state.rotation.round_no, 0),
                      bock=None if state.bock is None else replace(state.bock, players=len(seating)))
    return replace(changed, deal=changed.new_deal())


def _player_left(state: TableState, body: PlayerLeft) -> TableState:
    seating = tuple(name for seat, name in enumerate(state.seating) if seat != body.seat)
    changed = replace(state, seating=seating, rotation=Rotation(state.rotation.round_no, 0),
                      bock=None if state.bock is None else replace(state.bock, players=len(seating)))
    return replace(changed, deal=changed.new_deal())


def _bock_added(state: TableState, body: BockAdded) -> TableState:
    """Bock deals added by hand (a trigger the profile does not automate): one more open round."""
    if state.bock is None:
        raise StateError("Bock added before the list was opened")
    changed = replace(state, bock=replace(state.bock, rounds=(*state.bock.rounds, body.games)))
    if changed.deal is not None and not changed.deal.steps and changed.bock is not None:
        return replace(changed, deal=replace(changed.deal, bock=changed.bock.multiplier))
    return changed


def _correction_proposed(state: TableState, body: CorrectionProposed) -> TableState:
    result = None if body.record is None else score_record(body.record, profile=state.profile).result
    correction = Correction(body.entry, body.record, body.declarer_seat, body.by_seat, (body.by_seat,), result)
    return replace(state, correction=correction)


def _correction_consented(state: TableState, body: CorrectionConsented) -> TableState:
    if state.correction is None:
        raise StateError("consent, but no correction is proposed")
    correction = replace(state.correction, consents=(*state.correction.consents, body.seat))
    return replace(state, correction=correction)


def _correction_withdrawn(state: TableState, body: CorrectionWithdrawn) -> TableState:
    return replace(state, correction=None)


def _correction_applied(state: TableState, body: CorrectionApplied) -> TableState:
    correction = state.correction
    if correction is None or correction.entry != body.entry:
        raise StateError(f"correction of entry {body.entry} applied, but it was not proposed")
    old = state.rows[body.entry - 1]
    kind = "passed_in" if correction.record is None else "game"
    new = replace(old, kind=kind, record=correction.record, declarer_seat=correction.declarer_seat,
                  result=correction.result, ramsch=None, deal_before=None, bock_before=None,
                  earlier=(*old.earlier, replace(old, earlier=(), deal_before=None, bock_before=None)))
    rows = (*state.rows[: body.entry - 1], new, *state.rows[body.entry:])
    # The list changed: confirmations of the finished list given before no longer hold.
    return replace(state, rows=rows, correction=None, list_confirmations=())


def _series_ended(state: TableState, body: SeriesEnded) -> TableState:
    return replace(state, series_over=True, deal=None)


def _list_confirmed(state: TableState, body: ListConfirmed) -> TableState:
    return replace(state, list_confirmations=(*state.list_confirmations, body.seat))


def _list_closed(state: TableState, body: ListClosed) -> TableState:
    return replace(state, closed=True)


_LIST_HANDLERS: dict[type[EventBody], Any] = {
    GameRecorded: _game_recorded, PassedIn: _passed_in, PassedInWithdrawn: _passed_in_withdrawn,
    RamschRecorded: _ramsch_recorded, PlayerJoined: _player_joined, PlayerLeft: _player_left,
    BockAdded: _bock_added, CorrectionProposed: _correction_proposed,
    CorrectionConsented: _correction_consented, CorrectionWithdrawn: _correction_withdrawn,
    CorrectionApplied: _correction_applied, SeriesEnded: _series_ended,
    ListConfirmed: _list_confirmed, ListClosed: _list_closed,
}
