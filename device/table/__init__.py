"""The table service: everything the touch UI shows and every tap it sends, without a screen.

Layers (cosmicpython): commands (what is asked) -> :func:`flow.decide` (pure: state +
command -> events or a refusal) -> events (facts, durable in the store) -> :func:`state.apply`
(pure fold: ``replay(events) == state``) -> :func:`snapshot.build_snapshot` (plain view data).

Public API
==========

Service (``device.table.service``)::

    service = TableService(store, device_id="…", clock=..., rng=random.Random(…),
                           new_id=..., roster=("Anna", …))
    service.submit(command)        # any thread (UI, reader, GPIO)
    result = service.pump()        # the owning thread: PumpResult(events, refusals)
    result = service.handle(cmd)   # submit + pump
    unsubscribe = service.subscribe(listener)   # listener(PumpResult) after durable append
    snap = service.snapshot()      # TableSnapshot (frozen, plain; cached)
    service.panel_view()           # device.hardware.PanelView for the GPIO panel
    service.events_after(seq)      # this device's events as JSON dicts (for the sync)
    service.state / .events / .device_id / .last_seq / .list_id

``pump`` never raises: a refused command gives a :class:`flow.Refusal` (``code``, and what
happened as ``key`` and ``values``, worded by ``ui/i18n.py``; also ``snapshot().refusal`` until the next
accepted command). Events are appended to the store (durable) before the state changes and
before listeners hear of them.

Commands (``device.table.commands``; positions 0 Vorhand, 1 Mittelhand, 2 Hinterhand in
the current game; seats 0 = Platz 1 … at the list)::

    OpenList(players, draw=False, series_length=None|36|48|n, scoring="seeger_fabian"|"classic"|
             "bierlachs", bierlachs_limit=None, profile="isko", stake=0|"1/4"|Fraction)
    JoinPlayer(name, replaces=None|seat)   LeavePlayer(seat)        # only at a round's start
    Bid(position, value)  Hold(position)  Pass(position)           # the bidding
    TakeSkat()  PushSkat(card)  Declare(game, hand, ouvert, announced) | Declare.parse(option.key)
    Kontra(position)  Re(position)  AddBock(games=None)            # when the profile has them
    OfferGift(position)  DeclineGift(position)                     # Schenken: the defenders' taps
    AcceptGift(position)  PlayOn(position)                         # … and the declarer's answer
    AutomaticGift()                                                # Karo 18 / Herz 20 (option auto_gift)
    AnnounceSpitze(count)  EnterSpitzeMade(made)                   # Spitze (option spitze)
    PlayCard(card)                                                 # tapped card = scanned card
    AcceptFalseFollowing()  RejectCard()                           # the false-following question
    EndGame(EndHow.NULL_LOST|DECLARER_GAVE_UP|DEFENDERS_GAVE_UP|DECLARER_VIOLATION|
            DEFENDERS_VIOLATION, matadors=None)
    EnterBidding(position, value)        # the bidding's outcome at once: who plays, the final bid
    EnterResult(declarer_tricks, declarer_points=None, matadors=None)   # clubs that do not scan; tricks None = not counted
    EnterMatadors(matadors)  Confirm(seat)  Undo()
    EnterRamsch(points, tricks, skat_points, last_trick, pushes=0)  # per position; when the profile plays Ramsch
    ProposeCorrection(entry, record|None, declarer_seat, by_seat)  ConsentCorrection(seat)
    WithdrawCorrection()  EndSeries()  ConfirmList(seat)  SyncAcknowledged(seq)
    device.hardware: CardScanned (routed: pushed skat while expected, else the trick, or the
    skat of a game ended early), UnknownCardScanned (refused with its reason), ReaderStatus
    (shown in snapshot().reader), ButtonPressed: BACK = Undo(); CONFIRM = the *dealer's*
    confirm tap (Confirm / ConsentCorrection / ConfirmList for the dealer's seat; at four and
    five the dealer sits out and cannot confirm a game, so there it is refused with a reason).

Snapshot (``device.table.snapshot.TableSnapshot``, all frozen; facts the UI words, docs/reference/table-screen.md)::

    phase        "setup" | "bidding" | "declaring" | "playing" | "ramsch" | "result" |
                 "series_over" | "closed"
    list_id, device, players (seat order), table_size, game_no, series_length,
    round_no, dealer, dealer_name, positions (names of
    Vorhand, Mittelhand, Hinterhand), sitting_out (names),
    seats        SeatView(seat, number, name, dealer, sits_out, position, position_name,
                 declarer, total)
    bidding      BiddingView(speaker, speaker_name, role, partner, current, values,
                 may_hold, may_pass, history: BidSaidView(position, kind, value))  # "bidding"
    declaration  DeclarationView(declarer, declarer_name, bid, skat_taken, may_take_skat,
                 options: DeclarationOption(key, label, game, hand, ouvert, announced,
                 allowed, refused, lost_at_once), skat)         # phase "declaring"
    play         PlayView(declaration, declarer, declarer_name, bid, to_play, to_play_name,
                 trick / last_trick: TrickView(number, cards: PlayedCardView(position, name,
                 card), winner, winner_name, points), tricks_done, declarer_points,
                 declarer_tricks, defender_points, defender_tricks, kontra, re, may_kontra,
                 may_re, null_lost, question: QuestionView(text, accept_label,
                 reject_label) | None, cards_seen, may_enter_result, may_push_skat, game,
                 matador_choices)    # points are tricks only: the pushed skat stays hidden
    result       ResultView(text, won, base_value, matadors, levels, value, score, overbid,
                 multiplier, marks, ending, needs_matadors, matador_choices, problem,
                 confirmed, to_confirm, may_confirm, may_add_skat, game, …, declarer_name,
                 false_following, revoke, overbid_null)     # "result" (and Ramsch)
    list         ListView(players, system, rows: RowView(number, kind, dealer,
                 declarer, text, score, points, totals, marks, corrected, earlier, game,
                 declaration, declarer_seat, declarer_points, declarer_tricks, matadors,
                 matador_choices), totals,
                 classic, won, lost)
    end          EndView(system, totals, ranking: StandingView(rank, name, total, won,
                 lost), stake, endzahlen, amounts, transfers: TransferView(payer, payee,
                 amount, text), bierlachs_losses, confirmed, waiting_for, closed)
    ramsch       RamschView(positions, may_push, max_pushes, bock, entered, points, tricks,
                 scores, skat_to, …) | None                     # phase "ramsch" and its result
    correction   CorrectionView(entry, proposed_by, old_text, new_text, consented,
                 waiting_for) | None
    reader       ReaderView(connected, port, detail)
    sync         SyncView(acked_seq, last_seq, synced_games, laptop, reachable)
    setup        SetupView(roster, scoring, profiles, tournament_lengths, last_players)
    refusal      RefusalView(code, key, values) | None
    may_undo, may_join, may_end_series, bock_games, bock_factor, ramsch_games, kontra_enabled,
    bock_enabled

Events (``device.table.events``): ``Event(id, seq, device, list_id, body, at)`` with
``to_json()`` / ``Event.from_json(d)`` (``"v": 1``); the bodies are listed in
``EVENT_TYPES``. ``GameRecorded.record`` is the game record of :mod:`device.record` plus
``seat`` (the declarer's list seat, 0 = Platz 1) and ``player``.

Rules in short: seat 0 deals first; at four the dealer sits out, at five he and the player
across (ISkO 3.2.7); Vorhand is the dealer's left neighbour; eingepasst counts as a deal, so
the next player deals (3.3.7). A game enters the list when the declarer and one defender
confirmed. A card seen twice is refused; a card of a class its player did not follow before
is put to the table as a question (false following, 4.2.4). Corrections need every player's
consent and keep the original visible; the list closes when every player confirmed it, and
is read-only then.
"""

from device.table.commands import (
    AcceptFalseFollowing, AddBock, Bid, Confirm, ConfirmList, ConsentCorrection, Declare, EndGame,
    EndHow, EndSeries, EnterBidding, EnterMatadors, EnterRamsch, EnterResult, Hold, JoinPlayer, Kontra,
    LeavePlayer, OpenList, Pass, PlayCard, ProposeCorrection, PushSkat, Re, RejectCard,
    SyncAcknowledged, SyncStatus, TakeSkat, Undo, WithdrawCorrection,
)
from device.table.commands import CardWanted, MoneyTermsReceived, NextSeriesOffered, OpenNextSeries, RosterReceived, SeatedElsewhere
from device.table.events import Event, EventFormatError
from device.table.flow import Refusal
from device.table.service import PumpResult, TableService
from device.table.snapshot import TableSnapshot
from device.table.state import Phase, TableState, replay

__all__ = [
    "AcceptFalseFollowing", "AddBock", "Bid", "Confirm", "ConfirmList", "ConsentCorrection", "Declare",
    "EndGame", "EndHow", "EndSeries", "EnterBidding", "EnterMatadors", "EnterRamsch", "EnterResult", "Event",
    "EventFormatError", "Hold", "JoinPlayer", "Kontra", "LeavePlayer", "OpenList", "Pass", "Phase",
    "PlayCard", "ProposeCorrection", "PumpResult", "PushSkat", "Re", "Refusal", "RejectCard",
    "SyncAcknowledged", "SyncStatus", "TableService", "TableSnapshot", "TableState", "TakeSkat", "Undo",
    "WithdrawCorrection", "replay",
    "CardWanted", "MoneyTermsReceived", "NextSeriesOffered", "OpenNextSeries", "RosterReceived", "SeatedElsewhere",
]
