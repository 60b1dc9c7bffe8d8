"""The snapshot: a frozen, plain view of the table for the UI, with no rules left to apply.

Everything a screen draws is here, already decided and worded in German, with the English in
a ``*_en`` field beside each text (``text`` / ``text_en``, ``prompt`` / ``prompt_en``, …; a
refusal's ``reason`` is English): the phase, game n of N, who deals, who sits out,
Vorhand/Mittelhand/Hinterhand, what the bidder may say, which declarations are possible (and
why the others are greyed out), the trick on the table, each party's points and tricks, the
result as the list entry, the list with running totals, the end-of-series totals, ranking and
money, the reader and the sync. Fields are str, int, bool,
None and tuples of those or of other views; a screen only reads them and sends commands.

Build it with :meth:`device.table.service.TableService.snapshot`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from device.cards import Card, Rank, Suit
from device.declaration import Declaration, Level
from device.games import GameType
from device.ramsch import MAX_PUSHES
from device.scoring import ScoringSystem
from device.table.commands import Declare
from device.table.events import BidMade, FalseFollowingQueried
from device.table.flow import (
    Refusal, cards_since_kontra, dealer_seat, option_refusal, option_warning, parse_stake, withdrawable_passed_in,
)
from device.table.listing import ListFigures, figures, paper_rows
from device.table.outcome import counts, entry_matador_choices, matador_choices, preview
from device.table.rotation import POSITION_NAMES, TOURNAMENT_LENGTHS, sitting_out
from device.table.state import Deal, Phase, Row, TableState
from device.tricks import trick_winner
from device.value import GameResult, describe_declaration_en
from device.variants import BOCK_FACTOR, BockState, may_say_kontra, may_say_re

__all__ = [
    "BiddingView", "CorrectionView", "DeclarationOption", "DeclarationView", "EndView", "ListView",
    "PlayView", "PlayedCardView", "QuestionView", "RamschView", "ReaderView", "RefusalView", "ResultView", "RowView",
    "SeatView", "SetupView", "StandingView", "SyncView", "TableSnapshot", "TransferView", "TrickView",
    "build_snapshot", "card_en", "declaration_options", "money_de", "money_en",
]

SCORING_LABELS = {
    ScoringSystem.SEEGER_FABIAN.value: "Seeger-Fabian",
    ScoringSystem.CLASSIC.value: "klassisch",
    ScoringSystem.BIERLACHS.value: "Bierlachs",
}
SCORING_LABELS_EN = {
    ScoringSystem.SEEGER_FABIAN.value: "Seeger-Fabian",
    ScoringSystem.CLASSIC.value: "classic",
    ScoringSystem.BIERLACHS.value: "Bierlachs",
}


@dataclass(frozen=True, slots=True)
class SeatView:
    """One player at the table. ``position`` 0/1/2 (Vorhand …) in the current game, None if out."""

    seat: int
    number: int  # Platz 1, 2, …
    name: str
    dealer: bool
    sits_out: bool
    position: int | None
    position_name: str | None
    declarer: bool
    total: int  # under the list's scoring system


@dataclass(frozen=True, slots=True)
class BiddingView:
    """Who speaks and what he may say: bid buttons ``values``, "ja" if ``may_hold``, "passe"."""

    prompt: str
    speaker: int
    speaker_name: str
    role: str  # "bidding", "answering", "deciding"
    partner: int | None
    current: int | None
    values: tuple[int, ...]
    may_hold: bool
    may_pass: bool
    history: tuple[str, ...]
    prompt_en: str = ""
    history_en: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class DeclarationOption:
    """One declaration button: send ``Declare.parse(key)``; greyed out with ``reason`` if not allowed."""

    key: str
    label: str
    game: str
    hand: bool
    ouvert: bool
    announced: str | None
    allowed: bool
    reason: str
    label_en: str = ""
    reason_en: str = ""
    #: Allowed, but what it leads to: a Null after a bid above its value is lost at once (ISkO 3.4.4).
    warning: str = ""
    warning_en: str = ""


@dataclass(frozen=True, slots=True)
class DeclarationView:
    declarer: int
    declarer_name: str
    bid: int
    skat_taken: bool
    may_take_skat: bool
    options: tuple[DeclarationOption, ...]
    skat: tuple[str, ...]  # pushed cards scanned or tapped so far
    prompt: str
    prompt_en: str = ""


@dataclass(frozen=True, slots=True)
class PlayedCardView:
    position: int
    name: str
    card: str
    german: str


@dataclass(frozen=True, slots=True)
class TrickView:
    number: int  # 1-based
    cards: tuple[PlayedCardView, ...]
    winner: int | None  # position holding or taking it
    winner_name: str | None
    points: int


@dataclass(frozen=True, slots=True)
class QuestionView:
    """A question for the table (false following): answer with AcceptFalseFollowing/RejectCard."""

    text: str
    accept_label: str
    reject_label: str
    text_en: str = ""
    accept_label_en: str = ""
    reject_label_en: str = ""


@dataclass(frozen=True, slots=True)
class PlayView:
    """The game being played. During play the declarer's points are his tricks only: the pushed
    skat stays hidden until the result (UI.md: hidden information stays hidden)."""

    declaration: str
    declarer: int
    declarer_name: str
    bid: int
    to_play: int | None
    to_play_name: str | None
    trick: TrickView
    last_trick: TrickView | None
    tricks_done: int
    declarer_points: int
    declarer_tricks: int
    defender_points: int
    defender_tricks: int
    kontra: bool
    re: bool
    may_kontra: tuple[int, ...]  # positions that may say Kontra now
    may_re: bool
    null_lost: bool  # the declarer of a Null took a trick: offer EndGame(NULL_LOST)
    question: QuestionView | None
    cards_seen: tuple[str, ...]  # cards the picker greys out
    may_enter_result: bool
    may_push_skat: bool
    game: str | None = None  # the declared game: "clubs", "spades", "hearts", "diamonds", "grand", "null"
    matador_choices: tuple[int, ...] = ()  # what a directly entered result may give: +1 "mit 1" … -n "ohne n"
    declaration_en: str = ""


@dataclass(frozen=True, slots=True)
class ResultView:
    """The result as the list entry, waiting for the declarer and one defender to confirm."""

    text: str
    won: bool | None
    base_value: int | None
    matadors: str | None
    levels: tuple[str, ...]
    value: int | None
    score: int | None
    overbid: bool
    multiplier: int
    marks: tuple[str, ...]
    ending: str | None
    note: str | None
    needs_matadors: bool
    matador_choices: tuple[int, ...]
    problem: str | None
    confirmed: tuple[str, ...]
    waiting_for: str
    may_confirm: tuple[int, ...]  # seats whose confirmation counts now
    may_add_skat: bool
    game: str | None = None  # the game ("clubs" … "null"); None for a Ramsch
    text_en: str = ""
    waiting_for_en: str = ""
    ending_en: str | None = None
    note_en: str | None = None
    declarer_points: int | None = None  # the counts the result was scored with (the skat included)
    declarer_tricks: int | None = None
    bid: int | None = None  # the final bid (an overbid game is valued at it)


@dataclass(frozen=True, slots=True)
class RowView:
    number: int
    kind: str  # "game", "passed_in", "ramsch"
    dealer: str
    declarer: str | None
    text: str
    score: int | None
    points: tuple[int | None, ...]  # per list player: classic points written (None: not at the table)
    totals: tuple[int, ...]  # per list player: running totals under the scoring system
    marks: tuple[str, ...]  # "Kontra", "Re", "Bock"
    corrected: bool
    earlier: tuple[str, ...]  # the texts this entry had before corrections, oldest first
    game: str | None = None  # the record's game ("clubs" … "null"); None for eingepasst and Ramsch
    declarer_seat: int | None = None  # the declarer's list seat when it was played (for a correction)
    declarer_points: int | None = None  # the counts the entry was scored with (skat included)
    declarer_tricks: int | None = None
    matadors: int | None = None  # signed; None in Null
    matador_choices: tuple[int, ...] = ()  # what a corrected entry of this game may give
    declaration: str | None = None  # the declaration in words ("Kreuz Hand"), without the counts
    text_en: str = ""
    earlier_en: tuple[str, ...] = ()
    declaration_en: str | None = None  # "Clubs Hand"
    # the paper list's columns (:class:`device.table.listing.PaperRow`)
    short: str = ""  # "Kreuz H", "eingepasst", "Ramsch"
    short_en: str = ""
    base_value: int | None = None  # Grundwert
    tops: int | None = None  # Spitzen, signed: +2 "mit 2", -3 "ohne 3"
    levels: int | None = None  # Gewinnstufen beyond the Spitzen
    game_points: tuple[int | None, ...] = ()  # per list player: running game points where this row changed them


@dataclass(frozen=True, slots=True)
class RamschView:
    """A Ramsch (everybody passed and the profile plays it), by position (0 Vorhand, 1
    Mittelhand, 2 Hinterhand): what the table enters with ``EnterRamsch``, and once entered
    each position's card points (with the skat where it went), tricks and list score."""

    positions: tuple[str, ...]  # names of Vorhand, Mittelhand, Hinterhand
    may_push: bool  # Schieberamsch: ask how many players pushed the skat on unseen
    max_pushes: int
    bock: int  # the deal's Bock multiplier (1: none)
    prompt: str
    entered: bool
    points: tuple[int, ...]  # () until entered
    tricks: tuple[int, ...]
    scores: tuple[int, ...]
    skat_to: int | None  # the position that got the skat's points, if anybody
    prompt_en: str = ""


@dataclass(frozen=True, slots=True)
class ListView:
    players: tuple[str, ...]
    system: str
    system_label: str
    rows: tuple[RowView, ...]
    totals: tuple[int, ...]
    classic: tuple[int, ...]
    won: tuple[int, ...]
    lost: tuple[int, ...]
    system_label_en: str = ""


@dataclass(frozen=True, slots=True)
class StandingView:
    rank: int
    name: str
    total: int
    won: int
    lost: int


@dataclass(frozen=True, slots=True)
class TransferView:
    payer: str
    payee: str
    amount: int  # coins (cents)
    text: str
    text_en: str = ""


@dataclass(frozen=True, slots=True)
class EndView:
    """Totals, ranking (SkWO tie-breaks) and money; the closing confirmations."""

    system_label: str
    totals: tuple[int, ...]
    ranking: tuple[StandingView, ...]
    stake: str
    endzahlen: tuple[int, ...]
    amounts: tuple[int, ...]  # per list player, coins: + receives, - pays
    transfers: tuple[TransferView, ...]
    bierlachs_losses: tuple[int, ...] | None
    confirmed: tuple[str, ...]
    waiting_for: tuple[str, ...]
    closed: bool
    system_label_en: str = ""


@dataclass(frozen=True, slots=True)
class CorrectionView:
    entry: int
    proposed_by: str
    old_text: str
    new_text: str
    consented: tuple[str, ...]
    waiting_for: tuple[str, ...]
    old_text_en: str = ""
    new_text_en: str = ""


@dataclass(frozen=True, slots=True)
class ReaderView:
    connected: bool
    port: str
    detail: str


@dataclass(frozen=True, slots=True)
class SyncView:
    acked_seq: int
    last_seq: int
    synced_games: int
    text: str
    text_en: str = ""
    laptop: str = ""  # "" when no laptop is paired: the club plays without one (no alarm)
    reachable: bool = False


@dataclass(frozen=True, slots=True)
class SetupView:
    roster: tuple[str, ...]
    scoring: tuple[tuple[str, str], ...]  # (value, label), default first
    profiles: tuple[str, ...]
    tournament_lengths: tuple[tuple[int, int], ...]  # (players, games)
    last_players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RefusalView:
    code: str
    text: str  # German, for the screen
    reason: str  # English


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """The whole table as plain data. Sub-views are None when they do not apply."""

    phase: str
    list_id: str | None
    device: str
    players: tuple[str, ...]  # seat order
    table_size: int
    game_no: int  # the game being played (or the next), 1-based
    series_length: int | None
    game_text: str  # "Spiel 5 von 36"
    round_no: int
    dealer: int | None
    dealer_name: str | None
    seats: tuple[SeatView, ...]
    positions: tuple[str, ...]  # names of Vorhand, Mittelhand, Hinterhand
    sitting_out: tuple[str, ...]
    bidding: BiddingView | None
    declaration: DeclarationView | None
    play: PlayView | None
    result: ResultView | None
    list: ListView | None
    end: EndView | None
    correction: CorrectionView | None
    reader: ReaderView
    sync: SyncView
    refusal: RefusalView | None
    setup: SetupView
    may_undo: bool
    may_join: bool
    may_end_series: bool
    bock_games: int  # Bock deals still to play (the current one included)
    bock_text: str  # e.g. "Bock (noch 3 Spiele)"; "" without Bock
    kontra_enabled: bool
    bock_enabled: bool
    ramsch: RamschView | None = None  # phases "ramsch" and the Ramsch's "result"
    game_text_en: str = ""  # "Game 5 of 36"
    bock_text_en: str = ""  # "Bock (3 games left)"
    next_series: str = ""  # what the laptop released: "Serie 2 · Tisch 3: Anna (Platz 1), Bernd, …"; "" if none
    next_series_players: tuple[str, ...] = ()  # its players in seat order (OpenNextSeries opens the list)


# --------------------------------------------------------------------------- building


def money_de(cents: int) -> str:
    """An amount in cents as players read it.

    >>> money_de(134), money_de(-5), money_de(0)
    ('1,34 €', '-0,05 €', '0,00 €')
    """
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100},{abs(cents) % 100:02d} €"


def money_en(cents: int) -> str:
    """An amount in cents as English players read it.

    >>> money_en(134), money_en(-5), money_en(0)
    ('€1.34', '-€0.05', '€0.00')
    """
    sign = "-" if cents < 0 else ""
    return f"{sign}€{abs(cents) // 100}.{abs(cents) % 100:02d}"


_SUITS_EN = {Suit.CLUBS: "Clubs", Suit.SPADES: "Spades", Suit.HEARTS: "Hearts", Suit.DIAMONDS: "Diamonds"}
_RANKS_EN = {Rank.SEVEN: "7", Rank.EIGHT: "8", Rank.NINE: "9", Rank.TEN: "10", Rank.JACK: "Jack",
             Rank.QUEEN: "Queen", Rank.KING: "King", Rank.ACE: "Ace"}


def card_en(card: Card) -> str:
    """A card in English words, as :attr:`Card.german` says it in German.

    >>> card_en(Card.parse("CJ")), card_en(Card.parse("HT"))
    ('Jack of Clubs', '10 of Hearts')
    """
    return f"{_RANKS_EN[card.rank]} of {_SUITS_EN[card.suit]}"


def _with_names(text: str, state: TableState, deal: Deal) -> str:
    for position, word in enumerate(POSITION_NAMES):
        text = text.replace(word, f"{word} ({state.seating[deal.active[position]]})")
    return text


def _bidding(state: TableState, deal: Deal) -> BiddingView:
    auction = deal.auction
    options = auction.options()
    history, history_en = [], []
    for step in deal.steps:
        body = step.body
        if isinstance(body, BidMade):
            said = str(body.value) if body.kind == "bid" else "ja" if body.kind == "hold" else "passe"
            said_en = str(body.value) if body.kind == "bid" else "yes" if body.kind == "hold" else "pass"
            who = f"{POSITION_NAMES[body.position]} ({state.seating[deal.active[body.position]]})"
            history.append(f"{who}: {said}")
            history_en.append(f"{who}: {said_en}")
    return BiddingView(
        prompt=_with_names(options.prompt_de, state, deal), speaker=options.seat,
        speaker_name=state.seating[deal.active[options.seat]], role=options.role.value,
        partner=options.partner, current=options.current, values=options.values,
        may_hold=options.may_hold, may_pass=options.may_pass, history=tuple(history),
        prompt_en=_with_names(options.prompt_en, state, deal), history_en=tuple(history_en),
    )


def declaration_options(deal: Deal) -> tuple[DeclarationOption, ...]:
    """Every declaration with whether it is allowed now (ISkO 3.4.4) and why not."""
    variants: list[Declare] = []
    for game in GameType:
        if game.is_null:
            variants += [Declare(game), Declare(game, hand=True), Declare(game, ouvert=True),
                         Declare(game, hand=True, ouvert=True)]
        else:
            variants += [Declare(game), Declare(game, hand=True),
                         Declare(game, hand=True, announced=Level.SCHNEIDER),
                         Declare(game, hand=True, announced=Level.SCHWARZ),
                         Declare(game, hand=True, ouvert=True)]
    options = []
    for variant in variants:
        declaration = Declaration.make(variant.game, hand=variant.hand, ouvert=variant.ouvert, announced=variant.announced)
        refused = option_refusal(deal, declaration)
        warned = option_warning(deal, declaration)
        options.append(DeclarationOption(
            key=variant.key, label=declaration.describe_de(), game=variant.game.value, hand=declaration.hand,
            ouvert=declaration.ouvert, announced=declaration.announced.record_name,
            allowed=refused is None, reason="" if refused is None else refused[1],
            label_en=describe_declaration_en(declaration), reason_en="" if refused is None else refused[0],
            warning="" if warned is None else warned[1], warning_en="" if warned is None else warned[0]))
    return tuple(options)


def _declaration(state: TableState, deal: Deal) -> DeclarationView:
    assert deal.declarer is not None and deal.bid is not None
    name = state.seating[deal.active[deal.declarer]]
    if not deal.skat_taken:
        prompt = f"{name} spielt ({deal.bid}): Skat aufnehmen oder Hand ansagen"
        prompt_en = f"{name} plays ({deal.bid}): take the skat or declare Hand"
    elif len(deal.skat) < 2:
        prompt = f"{name}: die zwei gedrückten Karten scannen (oder am Ende) und das Spiel ansagen"
        prompt_en = f"{name}: scan the two discarded cards (or at the end) and declare the game"
    else:
        prompt = f"{name}: Spiel ansagen"
        prompt_en = f"{name}: declare the game"
    return DeclarationView(
        declarer=deal.declarer, declarer_name=name, bid=deal.bid, skat_taken=deal.skat_taken,
        may_take_skat=not deal.skat_taken, options=declaration_options(deal),
        skat=tuple(c.code for c in deal.skat), prompt=prompt, prompt_en=prompt_en)


def _trick_view(state: TableState, deal: Deal, number: int, cards: tuple[Card, ...], leader: int) -> TrickView:
    assert deal.game is not None
    shown = []
    for offset, card in enumerate(cards):
        position = (leader + offset) % 3
        shown.append(PlayedCardView(position, state.seating[deal.active[position]], card.code, card.german))
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
    may_kontra = tuple(p for p in range(3) if deal.kontra is None and may_say_kontra(
        state.profile, seat=p, declarer=deal.declarer, cards_played=len(deal.cards_played), auction=deal.auction))
    question = None
    if deal.query is not None:
        q = deal.query
        who = f"{POSITION_NAMES[q.position]} ({state.seating[deal.active[q.position]]})"
        question = QuestionView(
            text=(f"{who} hat im {q.trick_index + 1}. Stich nicht bedient ({q.discarded.german} auf {q.led.german}) "
                  f"und spielt jetzt {q.card.german}. Falsch bedient (ISkO 4.2.4)?"),
            accept_label="Ja, falsch bedient: Spiel endet", reject_label="Nein, falsch gescannt: Karte verwerfen",
            text_en=(f"{who} did not follow in trick {q.trick_index + 1} ({card_en(q.discarded)} on "
                     f"{card_en(q.led)}) and now plays {card_en(q.card)}. False following (ISkO 4.2.4)?"),
            accept_label_en="Yes, false following: the game ends",
            reject_label_en="No, a wrong scan: drop the card")
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
        cards_seen=tuple(c.code for c in deal.cards_played),
        may_enter_result=not deal.cards_played and deal.query is None,
        may_push_skat=deal.skat_taken and len(deal.skat) < 2 and not deal.cards_played,
        game=deal.game.value, matador_choices=matador_choices(deal.game),
        declaration_en=describe_declaration_en(deal.declaration),
    )


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


def _matadors_de(result: GameResult) -> str | None:
    if result.declaration.game.is_null:
        return None
    return result.levels[0] if result.levels else None


def _result(state: TableState, deal: Deal) -> ResultView:
    names = [state.seating[s] for s in deal.confirmations]
    if deal.ramsch is not None:
        active_names = tuple(state.seating[s] for s in deal.active)
        text = deal.ramsch.describe_de(active_names)
        waiting = "" if len(names) >= 2 else "Es bestätigen zwei Spieler dieses Ramsch"
        waiting_en = "" if len(names) >= 2 else "Two players confirm this Ramsch"
        return ResultView(text, None, None, None, (), None, None, False, 1, (), None, None, False, (), None,
                          tuple(names), waiting, tuple(s for s in deal.active if s not in deal.confirmations), False,
                          text_en=deal.ramsch.describe_en(active_names), waiting_for_en=waiting_en)
    shown = preview(deal, state.profile)
    assert shown is not None and deal.game is not None and deal.declarer_seat is not None
    declarer = state.seating[deal.declarer_seat]
    ending = None if deal.early is None else _ENDINGS_DE.get(deal.early.how, deal.early.how)
    ending_en = None if deal.early is None else _ENDINGS_EN.get(deal.early.how, deal.early.how)
    note = deal.early.note if deal.early is not None else None
    note_en = None if note is None else _false_following_note_en(state, deal) or _overbid_null_note_en(deal) or note
    confirmed_declarer = deal.declarer_seat in deal.confirmations
    confirmed_defender = any(s != deal.declarer_seat for s in deal.confirmations)
    missing = ([f"Alleinspieler ({declarer})"] if not confirmed_declarer else []) + ([] if confirmed_defender else ["ein Gegenspieler"])
    waiting = "Es bestätigen noch: " + " und ".join(missing)
    missing_en = ([f"the declarer ({declarer})"] if not confirmed_declarer else []) + ([] if confirmed_defender else ["a defender"])
    waiting_en = "Still to confirm: " + " and ".join(missing_en)
    may_confirm = tuple(s for s in deal.confirmers if s not in deal.confirmations
                        and (s == deal.declarer_seat or not confirmed_defender))
    may_add_skat = deal.early is not None and deal.early.how != "null_overbid" and len(deal.skat) < 2
    if shown.scored is None:
        text = ("Spitzen fehlen: bitte mit/ohne … eingeben" if shown.needs_matadors
                else f"Ergebnis nicht möglich: {shown.problem}")
        text_en = ("Matadors missing: please enter with/without …" if shown.needs_matadors
                   else f"Result not possible: {shown.problem}")
        return ResultView(text, None, None, None, (), None, None, False, 1, _marks(shown.record), ending, note,
                          shown.needs_matadors, entry_matador_choices(deal), shown.problem, tuple(names), waiting,
                          may_confirm, may_add_skat, game=deal.game.value, text_en=text_en,
                          waiting_for_en=waiting_en, ending_en=ending_en, note_en=note_en)
    result = shown.scored.result
    false_following = shown.scored.false_following
    if false_following is not None and note is None:
        note = f"Falsch bedient im {false_following['trick']}. Stich ({false_following['card']})"
        note_en = f"False following in trick {false_following['trick']} ({false_following['card']})"
    return ResultView(
        text=f"{declarer}: {result.describe_de()}", won=result.won, base_value=result.base_value,
        matadors=_matadors_de(result), levels=result.levels, value=result.value, score=result.score,
        overbid=result.overbid, multiplier=result.multiplier, marks=_marks(shown.record), ending=ending,
        note=note, needs_matadors=False, matador_choices=(), problem=None, confirmed=tuple(names),
        waiting_for=waiting, may_confirm=may_confirm, may_add_skat=may_add_skat, game=deal.game.value,
        text_en=f"{declarer}: {result.describe_en()}", waiting_for_en=waiting_en, ending_en=ending_en,
        note_en=note_en, declarer_points=result.declarer_points, declarer_tricks=_entered_tricks(shown.record, result),
        bid=result.bid)


def _entered_tricks(record: dict[str, Any], result: GameResult) -> int | None:
    """The declarer's tricks as the record has them: None when the counts left them out (the
    tricks were not counted), else the game's (counted, or from the cards)."""
    if "tricks" not in record and "declarer_tricks" not in record and "declarer_points" in record:
        return None
    if "declarer_tricks" in record and record["declarer_tricks"] is None:  # Null "verloren"
        return None
    return result.declarer_tricks


def _overbid_null_note_en(deal: Deal) -> str | None:
    """The English of the note an overbid Null leaves (ISkO 3.4.4)."""
    if deal.early is None or deal.early.how != "null_overbid" or deal.declaration is None:
        return None
    return (f"{describe_declaration_en(deal.declaration)} ({deal.declaration.null_value}) after a bid of {deal.bid}: "
            "scored as the suit or Grand game that reaches the bid most narrowly with his matadors")


def _false_following_note_en(state: TableState, deal: Deal) -> str | None:
    """The English of the note a false following accepted leaves (the state words it in German),
    from the question it answered: the last one asked in this deal."""
    asked = [step.body for step in deal.steps if isinstance(step.body, FalseFollowingQueried)]
    if not asked:
        return None
    q = asked[-1]
    return (f"False following in trick {q.trick_index + 1}: {POSITION_NAMES[q.position]} gave "
            f"{card_en(q.discarded)} on {card_en(q.led)} and later played {card_en(q.card)}")


_ENDINGS_DE = {
    "null_lost": "Null verloren: Stich bekommen", "declarer_gave_up": "Alleinspieler hat aufgegeben",
    "defenders_gave_up": "Gegenspieler haben aufgegeben", "declarer_violation": "Regelverstoß des Alleinspielers",
    "defenders_violation": "Regelverstoß der Gegenspieler",
    "null_overbid": "Null nicht mehr durchführbar: sofort verloren (ISkO 3.4.4)",
}
_ENDINGS_EN = {
    "null_lost": "Null lost: took a trick", "declarer_gave_up": "The declarer gave up",
    "defenders_gave_up": "The defenders gave up", "declarer_violation": "Rule violation by the declarer",
    "defenders_violation": "Rule violation by the defenders",
    "null_overbid": "Null below the bid: lost at once (ISkO 3.4.4)",
}


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


def _list(state: TableState, figs: ListFigures) -> ListView:
    rows = []
    paper = paper_rows(state.rows, figs)
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
            game_points=line.running))
    system = figs.system.value
    return ListView(figs.players, system, SCORING_LABELS[system], tuple(rows), figs.totals, figs.classic,
                    figs.won, figs.lost, system_label_en=SCORING_LABELS_EN[system])


def _end(state: TableState, figs: ListFigures) -> EndView:
    assert state.setup is not None
    ranking = tuple(StandingView(s.rank, figs.players[s.player], s.total, s.won, s.lost) for s in figs.standings)
    settlement = figs.settlement
    transfers: tuple[TransferView, ...] = ()
    if settlement is not None:
        transfers = tuple(TransferView(figs.players[t.payer], figs.players[t.payee], t.amount,
                                       f"{figs.players[t.payer]} zahlt {figs.players[t.payee]} {money_de(t.amount)}",
                                       f"{figs.players[t.payer]} pays {figs.players[t.payee]} {money_en(t.amount)}")
                          for t in settlement.transfers)
    confirmed = tuple(state.seating[s] for s in state.list_confirmations)
    waiting = tuple(n for s, n in enumerate(state.seating) if s not in state.list_confirmations)
    return EndView(
        system_label=SCORING_LABELS[figs.system.value], totals=figs.totals, ranking=ranking,
        stake=state.setup.stake, endzahlen=() if settlement is None else settlement.endzahlen,
        amounts=() if settlement is None else settlement.amounts, transfers=transfers,
        bierlachs_losses=figs.bierlachs_losses, confirmed=confirmed,
        waiting_for=waiting if state.series_over and not state.closed else (), closed=state.closed,
        system_label_en=SCORING_LABELS_EN[figs.system.value])


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
        prompt="Ramsch: Augen und Stiche jedes Spielers, die Augen im Skat und wer den letzten Stich hatte",
        entered=entered is not None, points=() if entered is None else entered.points,
        tricks=() if entered is None else entered.counts.tricks, scores=() if entered is None else entered.scores,
        skat_to=None if entered is None else entered.skat_to,
        prompt_en="Ramsch: each player's points and tricks, the points in the skat and who took the last trick")


def _bock_text_en(bock: BockState | None) -> str:
    """:attr:`BockState.german` in English: "Bock (3 games left)", "Ramsch round (1 game left)"."""
    if bock is None:
        return ""
    if bock.is_ramsch:
        return f"Ramsch round ({_games_en(bock.ramsch_left)} left)"
    if not bock.rounds:
        return ""
    factor = bock.multiplier
    head = "Bock" if factor == BOCK_FACTOR else f"Bock ×{factor}"
    return f"{head} ({_games_en(bock.bock_deals_left)} left)"


def _games_en(n: int) -> str:
    return f"{n} game" if n == 1 else f"{n} games"


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


def build_snapshot(
    state: TableState, *, device: str, reader: ReaderView, acked_seq: int = 0, last_seq: int = 0,
    synced_games: int = 0, refusal: Refusal | None = None, laptop: str = "", laptop_reachable: bool = False,
    roster: tuple[str, ...] = (),
    last_players: tuple[str, ...] = (), profiles: tuple[str, ...] = ("isko",),
    next_series: tuple[str, tuple[str, ...]] | None = None,
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
    game_text = "" if setup is None else (f"Spiel {game_no} von {length}" if length else f"Spiel {game_no}")
    game_text_en = "" if setup is None else (f"Game {game_no} of {length}" if length else f"Game {game_no}")
    sync_text = f"synchronisiert bis Spiel {synced_games}" if synced_games else "noch nicht synchronisiert"
    sync_text_en = f"synced up to game {synced_games}" if synced_games else "not synced yet"
    if not laptop:
        sync_text, sync_text_en = "ohne Laptop", "no laptop"
    refusal_view = None if refusal is None else RefusalView(refusal.code, refusal.reason_de, refusal.reason)
    deal_busy = deal is not None and bool(deal.steps)
    playing = deal is not None and phase not in (Phase.SERIES_OVER, Phase.CLOSED, Phase.SETUP)
    return TableSnapshot(
        phase=phase, list_id=state.list_id, device=device, players=state.seating, table_size=size,
        game_no=game_no, series_length=length, game_text=game_text, round_no=state.rotation.round_no,
        dealer=dealer, dealer_name=None if dealer is None else state.seating[dealer], seats=seats,
        positions=tuple(state.seating[s] for s in deal.active) if deal is not None else (),
        sitting_out=tuple(state.seating[s] for s in out),
        bidding=_bidding(state, deal) if deal is not None and phase == Phase.BIDDING else None,
        declaration=_declaration(state, deal) if deal is not None and phase == Phase.DECLARING else None,
        play=_play(state, deal) if deal is not None and phase == Phase.PLAYING else None,
        result=_result(state, deal) if deal is not None and phase == Phase.RESULT else None,
        list=list_view,
        end=_end(state, figs) if figs is not None else None,
        correction=_correction(state), reader=reader,
        sync=SyncView(acked_seq, last_seq, synced_games, sync_text, sync_text_en, laptop, laptop_reachable), refusal=refusal_view,
        setup=SetupView(roster=roster, scoring=tuple(SCORING_LABELS.items()), profiles=profiles,
                        tournament_lengths=tuple(TOURNAMENT_LENGTHS.items()), last_players=last_players),
        may_undo=(playing and deal_busy) or withdrawable_passed_in(state),
        may_join=(playing and not deal_busy and state.rotation.at_round_start and not state.closed
                  and state.correction is None),
        may_end_series=playing and not deal_busy and not (state.bock is not None and state.bock.must_play_on),
        bock_games=state.bock.bock_deals_left if state.bock is not None else 0,
        bock_text=state.bock.german if state.bock is not None else "", kontra_enabled=setup is not None and state.profile.kontra,
        bock_enabled=setup is not None and state.profile.bock,
        ramsch=_ramsch(state, deal) if deal is not None and deal.passed_in and phase in (Phase.RAMSCH, Phase.RESULT)
        else None,
        game_text_en=game_text_en, bock_text_en=_bock_text_en(state.bock),
        next_series=next_series[0] if next_series else "", next_series_players=next_series[1] if next_series else (),
    )

