"""Commands: what the touch UI, the card reader and the GPIO panel ask the table to do.

Submit them to :meth:`device.table.service.TableService.submit` from any thread. The hardware
commands of :mod:`device.hardware` (``CardScanned``, ``UnknownCardScanned``, ``ButtonPressed``,
``ReaderStatus``) are accepted as they are.

Who is who:

- ``position``: a seat in the game being played, 0 Vorhand, 1 Mittelhand, 2 Hinterhand (as
  in :mod:`device.bidding`, :mod:`device.tricks` and the game record);
- ``seat``: a player's place at the list, 0 = Platz 1 (deals first), 1 = his left neighbour …
  (the snapshot's ``seats`` say who sits where and which position he has now).

>>> Declare.parse("clubs/hand/schneider")
Declare(game=<GameType.CLUBS: 'clubs'>, hand=True, ouvert=False, announced=<Level.SCHNEIDER: 1>)
>>> Declare.parse("null/ouvert").key
'null/ouvert'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TypeAlias

from device.club.money import TableTerms
from device.cards import Card
from device.declaration import Level
from device.errors import DeclarationError
from device.games import GameType
from device.skatform import TourneeGame
from device.hardware import ButtonPressed, CardScanned, ReaderStatus, UnknownCardScanned

__all__ = [
    "AcceptFalseFollowing", "AddBock", "Bid", "Command", "Confirm", "ConfirmList",
    "ConsentCorrection", "Declare", "EndGame", "EndHow", "EndSeries", "EnterMatadors",
    "EnterBidding", "EnterRamsch", "EnterResult", "Hold", "JoinPlayer", "Kontra", "OfferGift", "DeclineGift", "AcceptGift", "PlayOn", "AutomaticGift", "AnnounceSpitze", "EnterSpitzeMade", "LeavePlayer", "OpenList",
    "MoneyTermsReceived", "NextSeriesOffered", "OpenNextSeries", "Pass", "PlayCard", "ProposeCorrection", "PushSkat", "Re", "TurnCard", "RejectCard", "SyncAcknowledged", "SyncStatus",
    "TakeSkat", "Undo", "WithdrawCorrection",
]


# --------------------------------------------------------------------------- setting up


@dataclass(frozen=True, slots=True)
class OpenList:
    """Start a list (series). ``players`` in seat order (Platz 1 first) unless ``draw``:
    then the seats are drawn (Auslosen) with the service's random generator.

    ``series_length``: games in the series (36 at three, 48 at four in tournaments; see
    :func:`device.table.rotation.tournament_length`), or None for open-ended. ``scoring``:
    a :class:`device.scoring.ScoringSystem` value ("seeger_fabian", "classic", "bierlachs").
    ``bierlachs_limit``: 301 at three and 401 at four when not given. ``profile``: a rule
    profile name (:func:`device.profile.find_profile`). ``stake``: coins (cents) per point
    for the money settlement; 0 for none (SkWO 9.2). ``members``: each player's member id
    from the club's roster, in the order of ``players`` ("" for a guest), or empty.
    """

    players: tuple[str, ...]
    draw: bool = False
    series_length: int | None = None
    scoring: str = "seeger_fabian"
    bierlachs_limit: int | None = None
    profile: str = "isko"
    stake: Fraction | int | str = 0
    members: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class NextSeriesOffered:
    """The laptop released the next series for this table (the sync's ack carries it):
    ``players`` in seat order, Platz 1 first; ``text`` as the laptop words it, e.g.
    "Serie 2 · Tisch 3: Anna (Platz 1), Bernd, Carla, Dieter". From the sync driver.

    >>> NextSeriesOffered.from_ack({"v": 1, "series": 2, "table": 3, "players": ["A", "B", "C"], "text": "…"})
    NextSeriesOffered(series=2, table=3, players=('A', 'B', 'C'), text='…', members=())
    >>> NextSeriesOffered.from_ack({"series": 2, "players": "A,B"}) is None
    True
    >>> NextSeriesOffered.from_ack({"series": 2, "table": 1, "players": ["A", "B", "C"], "members": ["m1", "", "m3"]}).members
    ('m1', '', 'm3')
    """

    series: int
    table: int
    players: tuple[str, ...]
    text: str = ""
    members: tuple[str, ...] = ()  # each player's member id ("" for a guest), or empty

    @classmethod
    def from_ack(cls, body: object) -> NextSeriesOffered | None:
        """The offer in an ack's ``next_series`` (None when there is none or it is malformed)."""
        if not isinstance(body, dict):
            return None
        series, table, players = body.get("series"), body.get("table"), body.get("players")
        if type(series) is not int or type(table) is not int or not isinstance(players, list):
            return None
        if not all(isinstance(p, str) and p.strip() for p in players):
            return None
        text = body.get("text")
        members = body.get("members")
        ids = tuple(members) if isinstance(members, list) and len(members) == len(players) and all(
            isinstance(m, str) for m in members) else ()
        return cls(series, table, tuple(players), text if isinstance(text, str) else "", ids)


@dataclass(frozen=True, slots=True)
class MoneyTermsReceived:
    """The evening's Abreizgeld tiers and eingepasst fee from the laptop's sync answer
    (``"money"``); ``terms`` None: the laptop has no conditions for the evening (or is older).
    The end of the series shows each player's Abreizgeld by them. From the sync driver.

    >>> MoneyTermsReceived.from_ack({"tiers": [[1, 50]], "passed_in_fee": 0}).terms is not None
    True
    >>> MoneyTermsReceived.from_ack(None)
    MoneyTermsReceived(terms=None)
    """

    terms: TableTerms | None

    @classmethod
    def from_ack(cls, body: object) -> MoneyTermsReceived:
        return cls(TableTerms.from_json(body))


@dataclass(frozen=True, slots=True)
class OpenNextSeries:
    """The one tap that opens the list the laptop sent: no names typed at the table. The
    previous list's settings (length, scoring, profile, stake) carry over; without one the
    tournament length and Seeger-Fabian."""


@dataclass(frozen=True, slots=True)
class JoinPlayer:
    """A new player joins at the start of a round (ISkO 3.1.2): to the right of Platz 1 (the
    last seat), or in the seat of the player ``replaces`` (a seat) who leaves."""

    name: str
    replaces: int | None = None
    member: str = ""  # his member id from the roster; "" for a guest


@dataclass(frozen=True, slots=True)
class LeavePlayer:
    """A player leaves at the start of a round (at least three stay)."""

    seat: int


# --------------------------------------------------------------------------- bidding


@dataclass(frozen=True, slots=True)
class Bid:
    """``position`` says ``value`` (Vorhand alone after two passes says 18 to play)."""

    position: int
    value: int


@dataclass(frozen=True, slots=True)
class Hold:
    """``position`` holds the value said to it ("ja")."""

    position: int


@dataclass(frozen=True, slots=True)
class Pass:
    """``position`` passes ("passe")."""

    position: int


@dataclass(frozen=True, slots=True)
class EnterBidding:
    """The bidding's outcome entered at once ("Carla spielt, gereizt bis 20"): ``position``
    (0 Vorhand, 1 Mittelhand, 2 Hinterhand) is the declarer at ``value``; the others passed."""

    position: int
    value: int


# --------------------------------------------------------------------------- declaration


@dataclass(frozen=True, slots=True)
class TakeSkat:
    """The declarer takes up the skat (Skat aufnehmen); after it no hand game (ISkO 3.4.4)."""


@dataclass(frozen=True, slots=True)
class PushSkat:
    """A skat card tapped on the screen (scanned cards are routed here while the skat is
    expected): a pushed card after taking up the skat, or the skat cards at the end."""

    card: Card
    source: str = "screen"


class EndHow(enum.Enum):
    """How a game ends before its tenth trick."""

    NULL_LOST = "null_lost"  # the declarer took a trick in a Null game
    DECLARER_GAVE_UP = "declarer_gave_up"  # ISkO 4.3.1, 4.3.2
    DEFENDERS_GAVE_UP = "defenders_gave_up"  # 4.3.3
    DECLARER_VIOLATION = "declarer_violation"  # a rule violation by the declarer (4.1)
    DEFENDERS_VIOLATION = "defenders_violation"  # ... by a defender

    @property
    def german(self) -> str:
        return _END_GERMAN[self]


_END_GERMAN = {
    EndHow.NULL_LOST: "Null verloren (Stich bekommen)",
    EndHow.DECLARER_GAVE_UP: "Alleinspieler gibt auf",
    EndHow.DEFENDERS_GAVE_UP: "Gegenspieler geben auf",
    EndHow.DECLARER_VIOLATION: "Regelverstoß des Alleinspielers",
    EndHow.DEFENDERS_VIOLATION: "Regelverstoß der Gegenspieler",
}

_LEVEL_WORDS = {"schneider": Level.SCHNEIDER, "schwarz": Level.SCHWARZ}
_KIND_WORDS = {"tournee": TourneeGame.FIRST, "tournee2": TourneeGame.SECOND, "solo": TourneeGame.SOLO,
               "guckser": TourneeGame.GUCKSER}
_KIND_KEYS = {kind: word for word, kind in _KIND_WORDS.items()}


@dataclass(frozen=True, slots=True)
class Declare:
    """The declaration. The snapshot lists the options with a ``key`` each: ``Declare.parse(key)``."""

    game: GameType
    hand: bool = False
    ouvert: bool = False
    announced: Level = Level.SIMPLE
    #: A Tournée-Skat game (Tournee with the first or the second card, Solo, Guckser); None
    #: in every other game (001 "Tournee-Skat", device.tournee).
    tournee: TourneeGame | None = field(default=None, repr=False)

    @classmethod
    def parse(cls, key: str) -> Declare:
        """From an option key: ``game[/hand][/ouvert][/schneider|/schwarz]`` and in Tournée-Skat
        ``/tournee``, ``/tournee2`` (the second card), ``/solo`` or ``/guckser``.

        >>> Declare.parse("hearts/tournee2").tournee, Declare.parse("clubs/hand/solo").key
        (<TourneeGame.SECOND: 'second'>, 'clubs/hand/solo')
        """
        words = key.strip().lower().split("/")
        game = GameType.parse(words[0])
        rest = set(words[1:])
        unknown = rest - {"hand", "ouvert", *_LEVEL_WORDS, *_KIND_WORDS}
        if unknown:
            raise DeclarationError(f"cannot read declaration {key!r}: unknown word {sorted(unknown)[0]!r}")
        kinds = [_KIND_WORDS[w] for w in sorted(rest) if w in _KIND_WORDS]
        if len(kinds) > 1:
            raise DeclarationError(f"cannot read declaration {key!r}: one of tournee, tournee2, solo, guckser")
        announced = max((_LEVEL_WORDS[w] for w in rest if w in _LEVEL_WORDS), default=Level.SIMPLE)
        return cls(game, "hand" in rest, "ouvert" in rest, announced, kinds[0] if kinds else None)

    @property
    def key(self) -> str:
        words = [self.game.value] + (["hand"] if self.hand else []) + (["ouvert"] if self.ouvert else [])
        if self.announced is not Level.SIMPLE:  # an ouvert announced Schneider: Danish Skat (ouvert_any)
            words.append(self.announced.name.lower())
        if self.tournee is not None:
            words.append(_KIND_KEYS[self.tournee])
        return "/".join(words)


@dataclass(frozen=True, slots=True)
class TurnCard:
    """Tournée-Skat: the declarer turns the top skat card up (its suit is trump), or, having
    taken it up unseen, the second one (001 "Tournee-Skat"). Scanned cards are routed here
    while a skat card is to be turned."""

    card: Card
    source: str = "screen"


@dataclass(frozen=True, slots=True)
class Kontra:
    """A defender says Kontra before he plays to the first trick (club variant)."""

    position: int


@dataclass(frozen=True, slots=True)
class Re:
    """The declarer answers a Kontra with Re (club variant)."""

    position: int


@dataclass(frozen=True, slots=True)
class OfferGift:
    """A defender says "schenken" (001 "Schenken", where the profile plays it): the first tap
    offers, the other defender's tap agrees; then the declarer accepts or plays on. The first
    offer comes before the first card; after "weiterspielen" they may offer Schneider."""

    position: int


@dataclass(frozen=True, slots=True)
class DeclineGift:
    """The other defender does not agree: "wird das Spiel fortgesetzt, als ob nichts passiert wäre"."""

    position: int


@dataclass(frozen=True, slots=True)
class AcceptGift:
    """The declarer accepts the gift: the game ends, won simple (Schneider after playing on)."""

    position: int


@dataclass(frozen=True, slots=True)
class PlayOn:
    """The declarer refuses the gift and plays on: for Schneider, after a second offer for Schwarz."""

    position: int


@dataclass(frozen=True, slots=True)
class AutomaticGift:
    """The game is given without asking (001 "Schenken": "Wenn der Reiz 18 und das Spiel Karo
    ist bzw. der Reiz 20 und das Spiel Karo oder Herz ist, wird das Spiel automatisch von den
    Gegnern aufgegeben", unless Kontra or an announcement), where the profile's option says so:
    tapped before the first card when nobody says Kontra."""


@dataclass(frozen=True, slots=True)
class AnnounceSpitze:
    """The declarer announces a Spitze of ``count`` lowest trumps (001 "Spitze", where the
    profile plays it): with the declaration, before the first card."""

    count: int = 1


@dataclass(frozen=True, slots=True)
class EnterSpitzeMade:
    """Whether the Spitze was made, for a result typed in (the cards show it when scanned)."""

    made: bool


# --------------------------------------------------------------------------- play and result


@dataclass(frozen=True, slots=True)
class PlayCard:
    """A card tapped on the screen's card picker: the same path as a scanned card."""

    card: Card
    source: str = "screen"


@dataclass(frozen=True, slots=True)
class AcceptFalseFollowing:
    """Answer to the false-following question: yes, it was false following (ISkO 4.2.4)."""


@dataclass(frozen=True, slots=True)
class RejectCard:
    """Answer to the false-following question: no, a wrong scan; drop the card."""


@dataclass(frozen=True, slots=True)
class EndGame:
    """End the game early (Null lost, a party gives up, a rule violation). ``matadors``
    (signed, +2 "mit 2", -3 "ohne 3") when the cards so far do not show them."""

    how: EndHow
    matadors: int | None = None


@dataclass(frozen=True, slots=True)
class EnterResult:
    """The counted result instead of cards: the declarer's tricks, card points (skat
    included; may be left out in Null) and matadors (not in Null)."""

    declarer_tricks: int | None
    declarer_points: int | None = None
    matadors: int | None = None


@dataclass(frozen=True, slots=True)
class EnterMatadors:
    """The matadors of a game that ended before its cards showed them."""

    matadors: int


@dataclass(frozen=True, slots=True)
class EnterRamsch:
    """A Ramsch's end (club variant, when the profile plays it), per position: card points
    and tricks without the skat, the skat's card points, who took the last trick, and how
    many players pushed the skat on unseen (Schieberamsch). Scored by the profile's rules."""

    points: tuple[int, int, int]
    tricks: tuple[int, int, int]
    skat_points: int
    last_trick: int
    pushes: int = 0
    #: Texas-Skat: two tied for the fewest Augen and the third took the last trick: the position
    #: of the two that took the later trick (the other wins the 10; device.table.rules).
    later_trick: int | None = None


@dataclass(frozen=True, slots=True)
class Confirm:
    """The player at ``seat`` confirms the shown result. A game enters the list when the
    declarer and one defender have confirmed (a Ramsch: any two players of it)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last step of the current game (a bid, the skat, a card, an ending…),
    or an eingepasst entered by the last tap."""


@dataclass(frozen=True, slots=True)
class AddBock:
    """Bock (club variant): the next ``games`` deals count double; None: one round."""

    games: int | None = None


# --------------------------------------------------------------------------- the list


@dataclass(frozen=True, slots=True)
class ProposeCorrection:
    """Correct entry ``entry`` (1-based): a new game record (JSON, :mod:`device.record`) and
    the declarer's seat, or ``record`` None for eingepasst. Needs every player's consent
    (ISkO 5.5.3); the proposer's consent counts at once."""

    entry: int
    record: dict[str, Any] | None
    declarer_seat: int | None
    by_seat: int


@dataclass(frozen=True, slots=True)
class ConsentCorrection:
    seat: int


@dataclass(frozen=True, slots=True)
class WithdrawCorrection:
    pass


@dataclass(frozen=True, slots=True)
class EndSeries:
    """No more games: an open-ended list is finished, or a series is stopped early."""


@dataclass(frozen=True, slots=True)
class ConfirmList:
    """The player at ``seat`` confirms the finished list; closed when everyone has."""

    seat: int


@dataclass(frozen=True, slots=True)
class SyncAcknowledged:
    """The laptop acknowledged every event of this device up to ``seq`` (from the sync driver)."""

    seq: int


@dataclass(frozen=True, slots=True)
class SyncStatus:
    """Where the sync stands (from the sync driver): ``laptop`` is "" when none is paired."""

    laptop: str = ""
    reachable: bool = False
    detail: str = ""


@dataclass(frozen=True, slots=True)
class RosterReceived:
    """The club's roster as the laptop sent it with an ack (from the sync driver): the names
    the setup offers, ahead of the config's ``[table] roster``.

    ``cards``: (card id, name) of the members' cards, the id as a reader reports it (no
    blanks, upper case); ``ids``: (name, member id) for the list's ``members``.

    >>> RosterReceived.from_ack([{"name": "Anna Berg", "short": "Anna"}, "Bernd", {"short": "x"}, 3])
    RosterReceived(names=('Anna Berg', 'Bernd'), cards=(), ids=())
    >>> RosterReceived.from_ack([{"name": "Jürgen", "id": "p1", "card": " 04a1 "}]).cards
    (('04A1', 'Jürgen'),)
    >>> RosterReceived.from_ack(None) is None
    True
    """

    names: tuple[str, ...]
    cards: tuple[tuple[str, str], ...] = ()
    ids: tuple[tuple[str, str], ...] = ()

    @classmethod
    def from_ack(cls, value: object) -> RosterReceived | None:
        """The roster from an ack's ``roster`` (players as objects with a ``name`` and maybe
        ``id`` and ``card``, or names)."""
        if not isinstance(value, list):
            return None
        names: dict[str, None] = {}
        cards: list[tuple[str, str]] = []
        ids: list[tuple[str, str]] = []
        for item in value:
            name = item.get("name") if isinstance(item, dict) else item
            if not isinstance(name, str) or not name.strip():
                continue
            name = name.strip()
            names[name] = None
            if isinstance(item, dict):
                card, ident = item.get("card"), item.get("id")
                if isinstance(card, str) and card.strip():
                    cards.append((card_id(card), name))
                if isinstance(ident, str) and ident.strip():
                    ids.append((name, ident.strip()))
        return cls(tuple(names), tuple(cards), tuple(ids))


@dataclass(frozen=True, slots=True)
class SeatedElsewhere:
    """Members on another table's open list (the ack's ``seated``: member id -> table name).

    >>> SeatedElsewhere.from_ack({"pJ": "Tisch 3", "x": 4})
    SeatedElsewhere(seats=(('pJ', 'Tisch 3'),))
    """

    seats: tuple[tuple[str, str], ...]

    @classmethod
    def from_ack(cls, value: object) -> SeatedElsewhere:
        if not isinstance(value, dict):
            return cls(())
        return cls(tuple((str(k), v) for k, v in value.items() if isinstance(v, str)))


@dataclass(frozen=True, slots=True)
class CardWanted:
    """The laptop's organiser is assigning a member card ("Karte zuordnen"; the ack's
    ``card_wanted``): the next card read at setup that no roster knows goes to the laptop."""

    wanted: bool


def card_id(raw: str) -> str:
    """A member card's id as the roster and the reader compare it: no blanks, upper case.

    >>> card_id(" 04a1b2 \\r")
    '04A1B2'
    """
    return raw.strip().upper()


Command: TypeAlias = (
    OpenList | JoinPlayer | LeavePlayer | Bid | Hold | Pass | TakeSkat | PushSkat | TurnCard | Declare
    | EnterBidding | Kontra | Re | OfferGift | DeclineGift | AcceptGift | PlayOn | AutomaticGift
    | AnnounceSpitze | EnterSpitzeMade | PlayCard | AcceptFalseFollowing | RejectCard | EndGame | EnterResult
    | EnterMatadors | EnterRamsch | Confirm | Undo | AddBock | ProposeCorrection
    | ConsentCorrection | WithdrawCorrection | EndSeries | ConfirmList | SyncAcknowledged | SyncStatus
    | NextSeriesOffered | MoneyTermsReceived | OpenNextSeries | RosterReceived
    | CardScanned | UnknownCardScanned | ButtonPressed | ReaderStatus | CardWanted | SeatedElsewhere
)
