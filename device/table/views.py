"""The snapshot's views: frozen, plain data for the UI (see :mod:`device.table.snapshot`, which
builds them). Fields are str, int, bool, None and tuples of those or of other views."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from device.club.money import SeriesMoney, TableTerms

__all__ = [
    "BidSaidView",
    "BiddingView",
    "CorrectionView",
    "DeclarationOption",
    "DeclarationView",
    "EndView",
    "ListView",
    "PlayView",
    "PlayedCardView",
    "QuestionView",
    "RamschView",
    "ReaderView",
    "RefusalView",
    "ResultView",
    "RowView",
    "SeatView",
    "SetupView",
    "StandingView",
    "SyncView",
    "TableSnapshot",
    "TransferView",
    "TrickView",
]


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
class BidSaidView:
    """One thing said in the bidding: ``position`` said ``kind`` "bid" (``value``), "hold" or "pass"."""

    position: int
    kind: str
    value: int | None


@dataclass(frozen=True, slots=True)
class BiddingView:
    """Who speaks and what he may say: bid buttons ``values``, "ja" if ``may_hold``, "passe". The
    screen words the prompt from ``speaker``, ``role``, ``partner``, ``current`` and ``values``."""

    speaker: int
    speaker_name: str
    role: str  # "bidding", "answering", "deciding"
    partner: int | None
    current: int | None
    values: tuple[int, ...]
    may_hold: bool
    may_pass: bool
    history: tuple[BidSaidView, ...]
    #: The values the game screen offers to enter the bidding's outcome at once (the rule
    #: profile's first 24 bid values: 18 … 72 by the ISkO, 18 … 80 in Texas-Skat).
    settle_values: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class DeclarationOption:
    """One declaration button: send ``Declare.parse(key)``; greyed out if not allowed, ``refused``
    saying why (a refusal key, worded by ``ui/i18n.py``)."""

    key: str
    label: str
    game: str
    hand: bool
    ouvert: bool
    announced: str | None
    allowed: bool
    refused: str | None = None
    label_en: str = ""
    #: Allowed, but lost at once: a Null after a bid above its value (ISkO 3.4.4), as
    #: (the Null's value, the bid).
    lost_at_once: tuple[int, int] | None = None
    #: What the refusal names besides its key (``refused`` "declaration_not_in_profile": the
    #: profile and the game, e.g. a Danish Null Hand), as (name, value) pairs.
    refused_values: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class DeclarationView:
    declarer: int
    declarer_name: str
    bid: int
    skat_taken: bool
    may_take_skat: bool
    options: tuple[DeclarationOption, ...]
    skat: tuple[str, ...]  # pushed cards scanned or tapped so far (the screen words what to do now)
    #: Tournée-Skat (001 "Tournee-Skat"): the form of Skat ("german", "tournee", "danish"), the
    #: skat card turned up (its code) and whether it is the second, and whether one may be
    #: turned now (before the skat is taken up; scanned or tapped).
    form: str = "german"
    turned: str | None = None
    turned_second: bool = False
    may_turn: bool = False


@dataclass(frozen=True, slots=True)
class PlayedCardView:
    position: int
    name: str
    card: str  # its code; the screen words it (ui.i18n.card_words)


@dataclass(frozen=True, slots=True)
class TrickView:
    number: int  # 1-based
    cards: tuple[PlayedCardView, ...]
    winner: int | None  # position holding or taking it
    winner_name: str | None
    points: int


@dataclass(frozen=True, slots=True)
class QuestionView:
    """A question for the table (false following): answer with AcceptFalseFollowing/RejectCard.
    Who (``position``, ``player``) did not follow in ``trick`` (1-based) by giving ``discarded``
    on ``led`` and now plays ``card`` (card codes); the screen words it (``ui/i18n.py``)."""

    position: int
    player: str
    trick: int
    discarded: str
    led: str
    card: str


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
    #: The two cards the declarer laid away (scanned), while he may look at them: 001
    #: "Texas-Skat", until the first card of the second trick (device.declaration.
    #: may_look_at_discards); () otherwise, and always by the ISkO (3.4.8).
    discards: tuple[str, ...] = ()
    #: Schenken (001, where the profile plays it): where the offers stand ("weiterspielen",
    #: "weiterspielen_schwarz", or None), who said "schenken" in the offer standing now, and the
    #: taps the table takes now: a defender's "schenken" (offer or agree), the other defender's
    #: "nein", the declarer's accepting or playing on.
    schenken: str | None = None
    gift_offers: tuple[int, ...] = ()
    may_offer_gift: tuple[int, ...] = ()
    may_decline_gift: tuple[int, ...] = ()
    may_accept_gift: bool = False
    may_play_on: bool = False
    may_automatic_gift: bool = False  # the club option auto_gift: Karo at 18, Karo or Herz at 20, no Kontra
    #: Spitze (001, where the profile plays it): the count announced (0: none), its cards
    #: (the lowest trump first), whether the cards scanned so far show it lost, and the counts
    #: the declarer may still announce now (before the first card).
    spitze: int = 0
    spitze_cards: tuple[str, ...] = ()
    spitze_lost: bool = False
    spitze_choices: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class ResultView:
    """The result as the list entry, waiting for the declarer and one defender to confirm.
    ``text`` is "" while the result cannot be scored (``needs_matadors`` or a ``problem``): the
    screen words that, how the game ended (``ending``) and who still confirms (``to_confirm``)."""

    text: str
    won: bool | None
    base_value: int | None
    matadors: int | None  # signed: +2 "mit 2", -3 "ohne 3"; None in Null
    levels: tuple[str, ...]  # the rules' words of each level ("mit 2", "Spiel", "Hand")
    value: int | None
    score: int | None
    overbid: bool
    multiplier: int
    marks: tuple[str, ...]
    ending: str | None  # how it ended early: "null_lost", "declarer_gave_up", … (EndHow's values)
    needs_matadors: bool
    matador_choices: tuple[int, ...]
    problem: str | None
    confirmed: tuple[str, ...]
    to_confirm: tuple[str, ...]  # "declarer" and/or "defender"; a Ramsch: ("two_players",) until two confirmed
    may_confirm: tuple[int, ...]  # seats whose confirmation counts now
    may_add_skat: bool
    game: str | None = None  # the game ("clubs" … "null"); None for a Ramsch
    text_en: str = ""
    declarer_points: int | None = None  # the counts the result was scored with (the skat included)
    declarer_tricks: int | None = None
    bid: int | None = None  # the final bid (an overbid game is valued at it)
    declarer_name: str | None = None  # None for a Ramsch
    #: The notes the screen words: the false following accepted (the question it answered),
    #: one the cards show (trick, card code), an overbid Null (its value, the bid; ISkO 3.4.4).
    false_following: QuestionView | None = None
    revoke: tuple[int, str] | None = None
    overbid_null: tuple[int, int] | None = None
    #: A result typed in with a Spitze announced: the screen asks whether it was made.
    needs_spitze: bool = False
    problem_german: str = ""  # ``problem`` in the table's words, where the check gave them


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
    pot_note: str = ""  # what the entry moved in the pot ("Einsatz 3 × 10, Carla zahlt 10 ein: 40"), where one is played
    pot_note_en: str = ""


@dataclass(frozen=True, slots=True)
class RamschView:
    """A Ramsch (everybody passed and the profile plays it), by position (0 Vorhand, 1
    Mittelhand, 2 Hinterhand): what the table enters with ``EnterRamsch``, and once entered
    each position's card points (with the skat where it went), tricks and list score."""

    positions: tuple[str, ...]  # names of Vorhand, Mittelhand, Hinterhand
    may_push: bool  # Schieberamsch: ask how many players pushed the skat on unseen
    max_pushes: int
    bock: int  # the deal's Bock multiplier (1: none)
    entered: bool
    points: tuple[int, ...]  # () until entered
    tricks: tuple[int, ...]
    scores: tuple[int, ...]
    skat_to: int | None  # the position that got the skat's points, if anybody


@dataclass(frozen=True, slots=True)
class ListView:
    players: tuple[str, ...]
    system: str  # "seeger_fabian", "classic", "bierlachs" (the screen words it)
    rows: tuple[RowView, ...]
    totals: tuple[int, ...]
    classic: tuple[int, ...]
    won: tuple[int, ...]
    lost: tuple[int, ...]
    #: The pot (001 "Spiel um einen Pot", where the profile plays it): what is in it now and
    #: each list player's net (+ took out, - paid in); None without a pot.
    pot: int | None = None
    pot_net: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class StandingView:
    rank: int
    name: str
    total: int
    won: int
    lost: int


@dataclass(frozen=True, slots=True)
class TransferView:
    """One payment of the settlement; the screen words it (``ui/i18n.py``)."""

    payer: str
    payee: str
    amount: int  # coins (cents)


@dataclass(frozen=True, slots=True)
class EndView:
    """Totals, ranking (SkWO tie-breaks) and money; the closing confirmations."""

    system: str  # as ListView.system
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
    #: The pot at the end (where the profile plays one): each player's net in points once what
    #: is left goes back in equal shares, and in coins (already in ``amounts`` and ``transfers``).
    pot_net: tuple[int, ...] = ()
    pot_amounts: tuple[int, ...] = ()
    pot_left: int = 0
    #: Each list player's lost games this series and, where the laptop sent the evening's terms
    #: (``money_terms``), the Abreizgeld (None: counted over the evening, the Kasse knows) and
    #: the eingepasst fee (a Preisskat's money, device.club.money).
    series_money: tuple[SeriesMoney, ...] = ()
    money_terms: TableTerms | None = None


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
    """How far the sync got; the screen words it (``ui/i18n.py``: ``sync_text``)."""

    acked_seq: int
    last_seq: int
    synced_games: int
    laptop: str = ""  # "" when no laptop is paired: the club plays without one (no alarm)
    reachable: bool = False

    @property
    def all_sent(self) -> bool:
        """Every event there is has been acked by the laptop (and there is one)."""
        return bool(self.last_seq) and self.acked_seq >= self.last_seq


@dataclass(frozen=True, slots=True)
class SetupView:
    roster: tuple[str, ...]
    scoring: tuple[str, ...]  # the scoring systems ("seeger_fabian", …), default first
    profiles: tuple[str, ...]
    tournament_lengths: tuple[tuple[int, int], ...]  # (players, games)
    last_players: tuple[str, ...]
    card_seats: tuple[str, ...] = ()  # the names seated by their member cards, in the order tapped


@dataclass(frozen=True, slots=True)
class RefusalView:
    code: str
    key: str  # what happened; the screen words it (ui/i18n.py)
    values: Mapping[str, Any]


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
    kontra_enabled: bool
    bock_enabled: bool
    ramsch: RamschView | None = None  # phases "ramsch" and the Ramsch's "result"
    bock_factor: int = 1  # the coming deal's Bock multiplier (2, or 2**n for concurrent rounds)
    ramsch_games: int = 0  # deals of an obligatory Ramsch round still to play
    next_series: str = ""  # what the laptop released: "Serie 2 · Tisch 3: Anna (Platz 1), Bernd, …"; "" if none
    next_series_players: tuple[str, ...] = ()  # its players in seat order (OpenNextSeries opens the list)
