"""The snapshot: a frozen, plain view of the table for the UI, with no rules left to apply.

Everything a screen draws is here, already decided, as facts (codes and values) that
``ui/i18n.py`` and ``ui/table_words.py`` word (docs/ui.md lists them); only what the rules word
themselves (the result as the list entry, the rows, the declarations' labels) comes in German
with the English in a ``*_en`` field beside it: the phase, game n of N, who deals, who sits out,
Vorhand/Mittelhand/Hinterhand, what the bidder may say, which declarations are possible (and
why the others are greyed out), the trick on the table, each party's points and tricks, the
result as the list entry, the list with running totals, the end-of-series totals, ranking and
money, the reader and the sync. Fields are str, int, bool,
None and tuples of those or of other views; a screen only reads them and sends commands.

Build it with :meth:`device.table.service.TableService.snapshot`. The views themselves are in
:mod:`device.table.views` (re-exported here).
"""

from __future__ import annotations

from typing import Any

from device.cards import Card
from device.profile import find_profile
from device.ramsch import MAX_PUSHES
from device.scoring import ScoringSystem
from device.scoring import transfers as money_transfers
from device.skatform import SkatForm
from device.table.events import BidMade, FalseFollowingQueried
from device.table.flow import (
    Refusal, cards_since_kontra, dealer_seat, option_refusal, option_refusal_values, parse_stake, withdrawable_passed_in,
)
from device.table.commands import AcceptGift, AutomaticGift, DeclineGift, OfferGift, PlayOn
from device.table.flow_gift import gift_allowed
from device.table.flow_spitze import spitze_choices, spitze_lost
from device.table.listing import ListFigures, figures, paper_rows
from device.table.outcome import counts, entry_matador_choices, matador_choices, preview
from device.table.pot import PotLedger, pot_coins, pot_ledger
from device.table.rotation import POSITION_NAMES, TOURNAMENT_LENGTHS, sitting_out
from device.table.rules import declaration_variants, make_declaration, may_look_now
from device.table.state import Deal, Phase, Row, TableState
from device.table.views import (
    BidSaidView, BiddingView, CorrectionView, DeclarationOption, DeclarationView, EndView, ListView, PlayView,
    PlayedCardView, QuestionView, RamschView, ReaderView, RefusalView, ResultView, RowView,
    SeatView, SetupView, StandingView, SyncView, TableSnapshot, TransferView, TrickView,
)
from device.tricks import trick_winner
from device.value import GameResult, describe_declaration_en, is_overbid_null, null_value
from device.variants import may_say_kontra, may_say_re, spitze_cards

__all__ = [
    "BidSaidView", "BiddingView", "CorrectionView", "DeclarationOption", "DeclarationView", "EndView", "ListView",
    "PlayView", "PlayedCardView", "QuestionView", "RamschView", "ReaderView", "RefusalView", "ResultView", "RowView",
    "SeatView", "SetupView", "StandingView", "SyncView", "TableSnapshot", "TransferView", "TrickView",
    "build_snapshot", "declaration_options",
]

#: The scoring systems the setup offers, the default first (the Danish one with a Danish profile).
SCORING_SYSTEMS = tuple(s.value for s in (ScoringSystem.SEEGER_FABIAN, ScoringSystem.CLASSIC, ScoringSystem.BIERLACHS,
                                          ScoringSystem.DANISH))


# --------------------------------------------------------------------------- building


def _bidding(state: TableState, deal: Deal) -> BiddingView:
    auction = deal.auction
    options = auction.options()
    history = tuple(BidSaidView(step.body.position, step.body.kind, step.body.value)
                    for step in deal.steps if isinstance(step.body, BidMade))
    return BiddingView(
        speaker=options.seat,
        speaker_name=state.seating[deal.active[options.seat]], role=options.role.value,
        partner=options.partner, current=options.current, values=options.values,
        may_hold=options.may_hold, may_pass=options.may_pass, history=history, settle_values=auction.ladder[:24])


def declaration_options(deal: Deal) -> tuple[DeclarationOption, ...]:
    """Every declaration with whether it is allowed now (ISkO 3.4.4; the profile's late
    announcements, device.table.rules) and why not."""
    options = []
    bid = deal.bid
    assert bid is not None
    profile = find_profile(deal.profile)
    for variant in declaration_variants(profile):
        declaration = make_declaration(profile, variant)
        refused = option_refusal(deal, declaration)
        options.append(DeclarationOption(
            key=variant.key, label=declaration.describe_de(), game=variant.game.value, hand=declaration.hand,
            ouvert=declaration.ouvert, announced=declaration.announced.record_name,
            allowed=refused is None, refused=refused, label_en=describe_declaration_en(declaration),
            lost_at_once=(null_value(declaration, profile), bid) if is_overbid_null(declaration, bid, profile) else None,
            refused_values=tuple(option_refusal_values(deal, declaration).items()) if refused else ()))
    return tuple(options)


def _declaration(state: TableState, deal: Deal) -> DeclarationView:
    assert deal.declarer is not None and deal.bid is not None
    name = state.seating[deal.active[deal.declarer]]
    return DeclarationView(
        declarer=deal.declarer, declarer_name=name, bid=deal.bid, skat_taken=deal.skat_taken,
        may_take_skat=not deal.skat_taken, options=declaration_options(deal),
        skat=tuple(c.code for c in deal.skat), form=state.profile.form.value,
        turned=deal.turned.code if deal.turned is not None else None, turned_second=deal.turned_second,
        may_turn=state.profile.form is SkatForm.TOURNEE and not deal.skat_taken and not deal.turned_second)


def _trick_view(state: TableState, deal: Deal, number: int, cards: tuple[Card, ...], leader: int) -> TrickView:
    assert deal.game is not None
    shown = []
    for offset, card in enumerate(cards):
        position = (leader + offset) % 3
        shown.append(PlayedCardView(position, state.seating[deal.active[position]], card.code))
    winner = (leader + trick_winner(cards, deal.game)) % 3 if cards else None
    return TrickView(number, tuple(shown), winner,
                     None if winner is None else state.seating[deal.active[winner]],
                     sum(c.points for c in cards))


def _play(state: TableState, deal: Deal) -> PlayView:
    assert deal.declaration is not None and deal.declarer is not None and deal.bid is not None and deal.game is not None
    leaders = deal.trick_leaders()
    got = counts(deal.game, deal.declarer, deal.tricks)
    to_play = deal.to_play
    current = _trick_view(state, deal, len(deal.tricks) + 1, deal.trick, leaders[-1])
    last = (_trick_view(state, deal, len(deal.tricks), deal.tricks[-1], leaders[-2]) if deal.tricks else None)
    played = deal.cards_played
    may_kontra = tuple(p for p in range(3) if deal.kontra is None and may_say_kontra(
        state.profile, seat=p, declarer=deal.declarer, cards_played=len(played), auction=deal.auction))
    question = None
    if deal.query is not None:
        q = deal.query
        question = QuestionView(q.position, state.seating[deal.active[q.position]], q.trick_index + 1,
                                q.discarded.code, q.led.code, q.card.code)
    offer, decline, accept, play_on, automatic = _gift_options(state, deal.declarer)
    # Hidden information stays hidden: during play the declarer's points are his tricks only
    # (the pushed skat is his secret until the game ends), and only played cards are "seen".
    return PlayView(
        declaration=deal.declaration.describe_de(), declarer=deal.declarer,
        declarer_name=state.seating[deal.active[deal.declarer]], bid=deal.bid, to_play=to_play,
        to_play_name=None if to_play is None else state.seating[deal.active[to_play]],
        trick=current, last_trick=last, tricks_done=len(deal.tricks),
        declarer_points=got.declarer_points, declarer_tricks=got.declarer_tricks,
        defender_points=got.defender_points, defender_tricks=got.defender_tricks,
        kontra=deal.kontra is not None, re=deal.re is not None, may_kontra=may_kontra,
        may_re=deal.kontra is not None and deal.re is None and may_say_re(
            state.profile, seat=deal.declarer, declarer=deal.declarer, kontra_said=True,
            cards_since_kontra=cards_since_kontra(deal)),
        null_lost=deal.game.is_null and deal.declarer in leaders[1:], question=question,
        cards_seen=tuple(c.code for c in played),
        may_enter_result=not played and deal.query is None,
        may_push_skat=deal.skat_taken and len(deal.skat) < 2 and not played,
        game=deal.game.value, matador_choices=matador_choices(deal.game),
        declaration_en=describe_declaration_en(deal.declaration), discards=_discards(state, deal),
        schenken=deal.schenken, gift_offers=deal.gift_offers,
        may_offer_gift=offer, may_decline_gift=decline, may_accept_gift=accept, may_play_on=play_on,
        may_automatic_gift=automatic,
        spitze=deal.spitze, spitze_cards=tuple(c.code for c in spitze_cards(deal.game, deal.spitze)) if deal.spitze else (),
        spitze_lost=spitze_lost(deal), spitze_choices=spitze_choices(state, deal),
    )


GiftOptions = tuple[tuple[int, ...], tuple[int, ...], bool, bool, bool]


def _gift_options(state: TableState, declarer: int) -> GiftOptions:
    """Which Schenken taps the table would take now: who may offer, who may decline, whether
    the declarer may accept or play on, the automatic gift (PlayView's ``may_*`` fields). A
    profile without Schenken takes none (every handler refuses them first), so none is asked:
    nine refusals a card."""
    if not state.profile.schenken:
        return (), (), False, False, False
    return (tuple(p for p in range(3) if gift_allowed(state, OfferGift(p))),
            tuple(p for p in range(3) if gift_allowed(state, DeclineGift(p))),
            gift_allowed(state, AcceptGift(declarer)), gift_allowed(state, PlayOn(declarer)),
            gift_allowed(state, AutomaticGift()))


def _discards(state: TableState, deal: Deal) -> tuple[str, ...]:
    """The scanned discards while the declarer may look at them (the profile's rule)."""
    assert deal.declaration is not None
    if len(deal.skat) < 2 or not may_look_now(state.profile, skat_taken=deal.skat_taken,
                                               cards_played=len(deal.cards_played), hand=deal.declaration.hand):
        return ()
    return tuple(c.code for c in deal.skat)


def _marks(record: dict[str, object] | None) -> tuple[str, ...]:
    if record is None:
        return ()
    marks = []
    if record.get("kontra"):
        marks.append("Kontra")
    if record.get("re"):
        marks.append("Re")
    bock = record.get("bock", 1)
    if isinstance(bock, int) and bock > 1:
        marks.append("Bock" if bock == 2 else f"Bock x{bock}")
    return tuple(marks)


def _result(state: TableState, deal: Deal) -> ResultView:
    names = [state.seating[s] for s in deal.confirmations]
    if deal.ramsch is not None:
        active_names = tuple(state.seating[s] for s in deal.active)
        text = deal.ramsch.describe_de(active_names)
        return ResultView(text, None, None, None, (), None, None, False, 1, (), None, False, (), None,
                          tuple(names), () if len(names) >= 2 else ("two_players",),
                          tuple(s for s in deal.active if s not in deal.confirmations), False,
                          text_en=deal.ramsch.describe_en(active_names))
    shown = preview(deal, state.profile)
    assert shown is not None and deal.game is not None and deal.declarer_seat is not None
    declarer = state.seating[deal.declarer_seat]
    ending = None if deal.early is None else deal.early.how
    overbid_null = _overbid_null(deal)
    false_following = None if overbid_null is not None else _false_following_accepted(state, deal)
    confirmed_declarer = deal.declarer_seat in deal.confirmations
    confirmed_defender = any(s != deal.declarer_seat for s in deal.confirmations)
    to_confirm = ((() if confirmed_declarer else ("declarer",)) + (() if confirmed_defender else ("defender",)))
    may_confirm = tuple(s for s in deal.confirmers if s not in deal.confirmations
                        and (s == deal.declarer_seat or not confirmed_defender))
    may_add_skat = deal.early is not None and deal.early.how != "null_overbid" and len(deal.skat) < 2
    if shown.scored is None:
        return ResultView("", None, None, None, (), None, None, False, 1, _marks(shown.record), ending,
                          shown.needs_matadors, entry_matador_choices(deal), shown.problem, tuple(names), to_confirm,
                          may_confirm, may_add_skat, game=deal.game.value, declarer_name=declarer,
                          false_following=false_following, overbid_null=overbid_null, needs_spitze=shown.needs_spitze,
                          problem_german=shown.problem_german)
    result = shown.scored.result
    shown_by_cards = shown.scored.false_following
    revoke = None
    if shown_by_cards is not None and false_following is None and overbid_null is None:
        revoke = (int(shown_by_cards["trick"]), str(shown_by_cards["card"]))
    return ResultView(
        text=f"{declarer}: {result.describe_de()}", won=result.won, base_value=result.base_value,
        matadors=None if result.declaration.game.is_null else result.matadors, levels=result.levels, value=result.value, score=result.score,
        overbid=result.overbid, multiplier=result.multiplier, marks=_marks(shown.record), ending=ending,
        needs_matadors=False, matador_choices=(), problem=None, confirmed=tuple(names),
        to_confirm=to_confirm, may_confirm=may_confirm, may_add_skat=may_add_skat, game=deal.game.value,
        text_en=f"{declarer}: {result.describe_en()}", declarer_name=declarer, false_following=false_following,
        revoke=revoke, overbid_null=overbid_null, declarer_points=result.declarer_points, declarer_tricks=_entered_tricks(shown.record, result),
        bid=result.bid)


def _entered_tricks(record: dict[str, Any], result: GameResult) -> int | None:
    """The declarer's tricks as the record has them: None when the counts left them out (the
    tricks were not counted), else the game's (counted, or from the cards)."""
    if "tricks" not in record and "declarer_tricks" not in record and "declarer_points" in record:
        return None
    if "declarer_tricks" in record and record["declarer_tricks"] is None:  # Null "verloren"
        return None
    return result.declarer_tricks


def _overbid_null(deal: Deal) -> tuple[int, int] | None:
    """An overbid Null's value and the bid (ISkO 3.4.4), if this deal's game is one."""
    if deal.early is None or deal.early.how != "null_overbid" or deal.declaration is None or deal.bid is None:
        return None
    return null_value(deal.declaration, find_profile(deal.profile)), deal.bid


def _false_following_accepted(state: TableState, deal: Deal) -> QuestionView | None:
    """The false following accepted in this deal (the question it answered: the last one asked)."""
    if deal.early is None or deal.early.note is None:
        return None
    asked = [step.body for step in deal.steps if isinstance(step.body, FalseFollowingQueried)]
    if not asked:
        return None
    q = asked[-1]
    return QuestionView(q.position, state.seating[deal.active[q.position]], q.trick_index + 1,
                        q.discarded.code, q.led.code, q.card.code)


def _row_text(row: Row) -> str:
    if row.kind == "passed_in":
        return "eingepasst"
    if row.kind == "ramsch" and row.ramsch is not None:
        scored = [f"{row.seating[row.active[p]]} {s:+d}" for p, s in enumerate(row.ramsch) if s]
        return "Ramsch: " + (", ".join(scored) if scored else "keine Wertung")
    if row.result is not None and row.declarer_seat is not None:
        return f"{row.seating[row.declarer_seat]}: {row.result.describe_de()}"
    return "?"


def _row_text_en(row: Row) -> str:
    """:func:`_row_text` in English: "Carla: Clubs with 2, game 3 = 36, won +36", "passed in"."""
    if row.kind == "passed_in":
        return "passed in"
    if row.kind == "ramsch" and row.ramsch is not None:
        scored = [f"{row.seating[row.active[p]]} {s:+d}" for p, s in enumerate(row.ramsch) if s]
        return "Ramsch: " + (", ".join(scored) if scored else "no score")
    if row.result is not None and row.declarer_seat is not None:
        return f"{row.seating[row.declarer_seat]}: {row.result.describe_en()}"
    return "?"


def _pot(state: TableState, figs: ListFigures) -> PotLedger | None:
    profile = state.profile
    return pot_ledger(state.rows, figs.players, profile.pot_rules) if profile.pot else None


def _list(state: TableState, figs: ListFigures) -> ListView:
    rows = []
    paper = paper_rows(state.rows, figs)
    pot = _pot(state, figs)
    pot_notes = {e.entry: e for e in pot.entries} if pot is not None else {}
    for index, row in enumerate(state.rows):
        line = paper[index]
        result = row.result
        game = None if result is None else result.declaration.game
        rows.append(RowView(
            number=row.entry, kind=row.kind, dealer=row.seating[row.dealer],
            declarer=None if row.declarer_seat is None else row.seating[row.declarer_seat],
            text=_row_text(row), score=None if result is None else result.score,
            points=figs.points[index], totals=figs.running[index], marks=_marks(row.record),
            corrected=row.corrected, earlier=tuple(_row_text(r) for r in row.earlier),
            game=None if game is None else game.value, declarer_seat=row.declarer_seat,
            declarer_points=None if result is None else result.declarer_points,
            declarer_tricks=None if result is None or row.record is None else _entered_tricks(row.record, result),
            matadors=None if result is None or result.declaration.game.is_null else result.matadors,
            matador_choices=() if game is None else matador_choices(game),
            declaration=None if result is None else result.declaration.describe_de(),
            text_en=_row_text_en(row), earlier_en=tuple(_row_text_en(r) for r in row.earlier),
            declaration_en=None if result is None else describe_declaration_en(result.declaration),
            short=line.short, short_en=line.short_en, base_value=line.base, tops=line.tops, levels=line.levels,
            game_points=line.running,
            pot_note=pot_notes[row.entry].note if row.entry in pot_notes else "",
            pot_note_en=pot_notes[row.entry].note_en if row.entry in pot_notes else ""))
    system = figs.system.value
    return ListView(figs.players, system, tuple(rows), figs.totals, figs.classic, figs.won, figs.lost,
                    pot=None if pot is None else pot.content, pot_net=() if pot is None else pot.net)


def _end(state: TableState, figs: ListFigures) -> EndView:
    assert state.setup is not None
    ranking = tuple(StandingView(s.rank, figs.players[s.player], s.total, s.won, s.lost) for s in figs.standings)
    settlement = figs.settlement
    pot = _pot(state, figs)
    amounts = () if settlement is None else settlement.amounts
    pot_net = () if pot is None else pot.shared_out()
    pot_amounts = pot_coins(pot_net, settlement.stake) if settlement is not None and pot is not None else ()
    if pot_amounts:  # the pot is paid out with the game points: one set of payments
        amounts = tuple(a + b for a, b in zip(amounts, pot_amounts))
    transfers: tuple[TransferView, ...] = ()
    if settlement is not None:
        transfers = tuple(TransferView(figs.players[t.payer], figs.players[t.payee], t.amount)
                          for t in money_transfers(amounts))
    confirmed = tuple(state.seating[s] for s in state.list_confirmations)
    waiting = tuple(n for s, n in enumerate(state.seating) if s not in state.list_confirmations)
    return EndView(
        system=figs.system.value, totals=figs.totals, ranking=ranking,
        stake=state.setup.stake, endzahlen=() if settlement is None else settlement.endzahlen,
        amounts=amounts, transfers=transfers,
        bierlachs_losses=figs.bierlachs_losses, confirmed=confirmed,
        waiting_for=waiting if state.series_over and not state.closed else (), closed=state.closed,
        pot_net=pot_net, pot_amounts=pot_amounts, pot_left=0 if pot is None else pot.content)


def _correction(state: TableState) -> CorrectionView | None:
    correction = state.correction
    if correction is None:
        return None
    old = state.rows[correction.entry - 1]
    if correction.record is None or correction.result is None or correction.declarer_seat is None:
        new_text, new_text_en = "eingepasst", "passed in"
    else:
        new_text = f"{old.seating[correction.declarer_seat]}: {correction.result.describe_de()}"
        new_text_en = f"{old.seating[correction.declarer_seat]}: {correction.result.describe_en()}"
    return CorrectionView(
        entry=correction.entry, proposed_by=state.seating[correction.by_seat], old_text=_row_text(old),
        new_text=new_text, consented=tuple(state.seating[s] for s in correction.consents),
        waiting_for=tuple(n for s, n in enumerate(state.seating) if s not in correction.consents),
        old_text_en=_row_text_en(old), new_text_en=new_text_en)


def _ramsch(state: TableState, deal: Deal) -> RamschView:
    entered = deal.ramsch
    return RamschView(
        positions=tuple(state.seating[s] for s in deal.active), may_push=state.profile.ramsch_rules.schieben,
        max_pushes=MAX_PUSHES if state.profile.ramsch_rules.schieben else 0, bock=deal.bock,
        entered=entered is not None, points=() if entered is None else entered.points,
        tricks=() if entered is None else entered.counts.tricks, scores=() if entered is None else entered.scores,
        skat_to=None if entered is None else entered.skat_to)


def _figures(state: TableState) -> ListFigures:
    assert state.setup is not None
    return figures(state.rows, state.seating, ScoringSystem(state.setup.scoring),
                   bierlachs_limit=state.setup.bierlachs_limit, stake=parse_stake(state.setup.stake))


class _ListMemo:
    """The list's figures and view for the last rows, seating and setup seen (one entry).

    They depend on nothing else, and a card, a bid or a declaration changes none of them:
    without the memo every snapshot would compute the whole list again (most of its cost
    with a long list). The key is compared by identity (the state's tuples are immutable
    and kept here, so an equal identity is the same list)."""

    def __init__(self) -> None:
        self._entry: tuple[tuple[object, ...], tuple[ListFigures, ListView]] | None = None  # one object: thread-safe

    def get(self, state: TableState) -> tuple[ListFigures, ListView]:
        key = (state.rows, state.seating, state.setup)
        entry = self._entry
        if entry is not None and all(a is b for a, b in zip(key, entry[0])):
            return entry[1]
        figs = _figures(state)
        value = (figs, _list(state, figs))
        self._entry = (key, value)
        return value


_LIST_MEMO = _ListMemo()


class _EndMemo:
    """The end-of-series view for the last list figures, list and confirmations seen (one
    entry): all it reads. Built on every snapshot, it changed only with the list (a card
    changes none of it). The key is compared by identity, as :class:`_ListMemo`'s."""

    def __init__(self) -> None:
        self._entry: tuple[tuple[object, ...], EndView] | None = None  # one object: thread-safe

    def get(self, state: TableState, figs: ListFigures) -> EndView:
        key = (figs, state.rows, state.seating, state.setup, state.list_confirmations, state.series_over, state.closed)
        entry = self._entry
        if entry is not None and all(a is b for a, b in zip(key, entry[0])):
            return entry[1]
        view = _end(state, figs)
        self._entry = (key, view)
        return view


_END_MEMO = _EndMemo()


def build_snapshot(
    state: TableState, *, device: str, reader: ReaderView, acked_seq: int = 0, last_seq: int = 0,
    synced_games: int = 0, refusal: Refusal | None = None, laptop: str = "", laptop_reachable: bool = False,
    roster: tuple[str, ...] = (),
    last_players: tuple[str, ...] = (), profiles: tuple[str, ...] = ("isko",),
    next_series: tuple[str, tuple[str, ...]] | None = None, card_seats: tuple[str, ...] = (),
) -> TableSnapshot:
    """The snapshot of ``state`` plus what the service knows beside it (reader, sync, refusal)."""
    deal = state.deal
    phase = state.phase
    setup = state.setup
    figs, list_view = _LIST_MEMO.get(state) if setup is not None else (None, None)
    size = state.table_size
    dealer = dealer_seat(state) if setup is not None else None
    out = sitting_out(deal.dealer, size) if deal is not None else ()
    totals_by_name = dict(zip(figs.players, figs.totals)) if figs is not None else {}
    seats = tuple(
        SeatView(seat=s, number=s + 1, name=name, dealer=deal is not None and s == deal.dealer,
                 sits_out=s in out,
                 position=deal.active.index(s) if deal is not None and s in deal.active else None,
                 position_name=POSITION_NAMES[deal.active.index(s)] if deal is not None and s in deal.active else None,
                 declarer=deal is not None and deal.declarer_seat == s, total=totals_by_name.get(name, 0))
        for s, name in enumerate(state.seating))
    game_no = len(state.rows) + (1 if deal is not None else 0)
    length = setup.series_length if setup is not None else None
    refusal_view = None if refusal is None else RefusalView(refusal.code, refusal.key, refusal.values)
    deal_busy = deal is not None and bool(deal.steps)
    playing = deal is not None and phase not in (Phase.SERIES_OVER, Phase.CLOSED, Phase.SETUP)
    return TableSnapshot(
        phase=phase, list_id=state.list_id, device=device, players=state.seating, table_size=size,
        game_no=game_no, series_length=length, round_no=state.rotation.round_no,
        dealer=dealer, dealer_name=None if dealer is None else state.seating[dealer], seats=seats,
        positions=tuple(state.seating[s] for s in deal.active) if deal is not None else (),
        sitting_out=tuple(state.seating[s] for s in out),
        bidding=_bidding(state, deal) if deal is not None and phase == Phase.BIDDING else None,
        declaration=_declaration(state, deal) if deal is not None and phase == Phase.DECLARING else None,
        play=_play(state, deal) if deal is not None and phase == Phase.PLAYING else None,
        result=_result(state, deal) if deal is not None and phase == Phase.RESULT else None,
        list=list_view,
        end=_END_MEMO.get(state, figs) if figs is not None else None,
        correction=_correction(state), reader=reader,
        sync=SyncView(acked_seq, last_seq, synced_games, laptop, laptop_reachable), refusal=refusal_view,
        setup=SetupView(roster=roster, scoring=SCORING_SYSTEMS, profiles=profiles,
                        tournament_lengths=tuple(TOURNAMENT_LENGTHS.items()), last_players=last_players,
                        card_seats=card_seats),
        may_undo=(playing and deal_busy) or withdrawable_passed_in(state),
        may_join=(playing and not deal_busy and state.rotation.at_round_start and not state.closed
                  and state.correction is None),
        may_end_series=playing and not deal_busy and not (state.bock is not None and state.bock.must_play_on),
        bock_games=state.bock.bock_deals_left if state.bock is not None else 0,
        kontra_enabled=setup is not None and state.profile.kontra,
        bock_enabled=setup is not None and state.profile.bock,
        ramsch=_ramsch(state, deal) if deal is not None and deal.passed_in and phase in (Phase.RAMSCH, Phase.RESULT)
        else None,
        bock_factor=state.bock.multiplier if state.bock is not None else 1,
        ramsch_games=state.bock.ramsch_left if state.bock is not None else 0,
        next_series=next_series[0] if next_series else "", next_series_players=next_series[1] if next_series else (),
    )

