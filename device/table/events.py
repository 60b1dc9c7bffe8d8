"""The table's events: the facts it records, each with its identity for the laptop sync.

An :class:`Event` is an envelope — a unique ``id`` (uuid4 hex), the table device's own ``seq``
(1, 2, 3 … contiguous per device across all its lists, never reset), the ``device`` id, the
``list_id`` and the wall time ``at`` (information only: the Pi has no battery clock, so order
is always by ``(device, seq)``) — around a body that says what happened. Bodies are frozen
dataclasses; the state of the table is a pure fold over them (:mod:`device.table.state`).

Every event serialises to a JSON dict (``"v": 1``) and back:

>>> from device.cards import Card
>>> e = Event(id="a1", seq=7, device="tisch-3", list_id="l1",
...           body=CardPlayed(position=1, card=Card.parse("CJ"), source="reader"))
>>> e.to_json()
{'v': 1, 'type': 'card_played', 'id': 'a1', 'seq': 7, 'device': 'tisch-3', 'list_id': 'l1', 'at': None, 'data': {'position': 1, 'card': 'CJ', 'source': 'reader'}}
>>> Event.from_json(e.to_json()) == e
True
>>> Event.from_json({**e.to_json(), "type": "card_burnt"})
Traceback (most recent call last):
...
device.table.events.EventFormatError: type: unknown event type 'card_burnt'

Game records inside events (:class:`GameRecorded`, corrections) are the JSON game records of
:mod:`device.record` with the declarer's ``seat`` (0 = Platz 1) and ``player`` name added;
treat those dicts as read-only.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar, Union

from device.cards import Card
from device.errors import CardError, SkatError

__all__ = [
    "EVENT_TYPES", "EVENT_VERSION", "GAME_STEPS",
    "BidMade", "BiddingEntered", "BockAdded", "CardPlayed", "CardTurned", "CardWithdrawn", "CorrectionApplied",
    "CorrectionConsented", "CorrectionProposed", "CorrectionWithdrawn", "Declared", "Event",
    "EventBody", "EventFormatError", "FalseFollowingAccepted", "FalseFollowingQueried",
    "GameEnded", "GameRecorded", "KontraSaid", "SchenkenSaid", "SpitzeAnnounced", "SpitzeMadeEntered", "ListClosed", "ListConfirmed", "ListOpened",
    "MatadorsEntered", "PassedIn", "PassedInWithdrawn", "PlayerJoined", "PlayerLeft",
    "RamschEntered", "RamschRecorded", "ReSaid", "ResultConfirmed", "ResultEntered",
    "SeriesEnded", "SkatCardAdded", "SkatTaken", "StepUndone",
]

EVENT_VERSION = 1


class EventFormatError(SkatError, ValueError):
    """An event dict that is not a version-1 table event; ``field`` names what is wrong."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


class EventBody:
    """Base of every event body; ``TYPE`` is its name in JSON (snake case)."""

    __slots__ = ()
    TYPE: ClassVar[str] = ""


# --------------------------------------------------------------------------- the list


@dataclass(frozen=True, slots=True)
class ListOpened(EventBody):
    """A new list (series): the players in seat order (seat 0 = Platz 1 deals first).

    ``members``: each seat's member id from the club's roster ("" for a guest), in seat
    order; empty for lists without ids (every list written before them). Written only when
    some seat has one, so a list without ids reads as before.
    """

    TYPE: ClassVar[str] = "list_opened"
    players: tuple[str, ...]
    drawn: bool
    series_length: int | None  # None: open-ended
    scoring: str  # device.scoring.ScoringSystem value
    bierlachs_limit: int | None
    profile: str  # device.profile name
    stake: str  # coins per point as a fraction, e.g. "1/4"; "0": no money
    members: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayerJoined(EventBody):
    """A player joins at the start of a round (ISkO 3.1.2): at ``seat``, the last seat (right
    of Platz 1) for a new one, or the seat of ``replaces`` who leaves."""

    TYPE: ClassVar[str] = "player_joined"
    name: str
    seat: int
    replaces: str | None
    member: str = ""  # his member id from the roster; "" for a guest (written only when given)


@dataclass(frozen=True, slots=True)
class PlayerLeft(EventBody):
    """A player leaves at the start of a round; the seats after his close up."""

    TYPE: ClassVar[str] = "player_left"
    seat: int
    name: str


@dataclass(frozen=True, slots=True)
class GameRecorded(EventBody):
    """A confirmed game enters the list as entry ``entry`` (1-based): its game record (JSON,
    :mod:`device.record`, with ``seat`` and ``player``), the declarer's seat, the dealer's
    seat and the seats of Vorhand, Mittelhand, Hinterhand."""

    TYPE: ClassVar[str] = "game_recorded"
    entry: int
    record: dict[str, Any]
    declarer_seat: int
    dealer_seat: int
    active: tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class PassedIn(EventBody):
    """Eingepasst (ISkO 3.3.7): an entry without a game; the next player deals."""

    TYPE: ClassVar[str] = "passed_in"
    entry: int
    dealer_seat: int
    active: tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class PassedInWithdrawn(EventBody):
    """The last eingepasst entry was a wrong tap: it is taken back and the bidding reopens."""

    TYPE: ClassVar[str] = "passed_in_withdrawn"
    entry: int


@dataclass(frozen=True, slots=True)
class RamschRecorded(EventBody):
    """A confirmed Ramsch (club variant) enters the list: signed scores per position."""

    TYPE: ClassVar[str] = "ramsch_recorded"
    entry: int
    scores: tuple[int, int, int]
    dealer_seat: int
    active: tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class BockAdded(EventBody):
    """The next ``games`` deals count double (Bock, club variant)."""

    TYPE: ClassVar[str] = "bock_added"
    games: int


@dataclass(frozen=True, slots=True)
class CorrectionProposed(EventBody):
    """A player proposes to correct entry ``entry`` (ISkO 5.5.3): the new game record and
    declarer seat, or ``record`` None for "eingepasst". It applies with every player's consent."""

    TYPE: ClassVar[str] = "correction_proposed"
    entry: int
    record: dict[str, Any] | None
    declarer_seat: int | None
    by_seat: int


@dataclass(frozen=True, slots=True)
class CorrectionConsented(EventBody):
    TYPE: ClassVar[str] = "correction_consented"
    seat: int


@dataclass(frozen=True, slots=True)
class CorrectionWithdrawn(EventBody):
    TYPE: ClassVar[str] = "correction_withdrawn"


@dataclass(frozen=True, slots=True)
class CorrectionApplied(EventBody):
    """Every player agreed: the entry now reads as proposed; the original stays visible."""

    TYPE: ClassVar[str] = "correction_applied"
    entry: int


@dataclass(frozen=True, slots=True)
class SeriesEnded(EventBody):
    """No more games on this list: ``reason`` "complete" (series length reached) or "stopped"."""

    TYPE: ClassVar[str] = "series_ended"
    reason: str


@dataclass(frozen=True, slots=True)
class ListConfirmed(EventBody):
    """A player confirms the finished list (SkWO 7.2.3: the signature)."""

    TYPE: ClassVar[str] = "list_confirmed"
    seat: int
    head: str = ""
    """The journal's chain head just before this confirmation: the list this player signed
    (filled in by the table service; "" in lists written before the journal)."""


@dataclass(frozen=True, slots=True)
class ListClosed(EventBody):
    """Every player confirmed: the list is closed and read-only. ``head``: the chain head
    just before it, covering every confirmation ("" in lists written before the journal)."""

    TYPE: ClassVar[str] = "list_closed"
    head: str = ""


# --------------------------------------------------------------------------- one game (steps)


@dataclass(frozen=True, slots=True)
class BidMade(EventBody):
    """A bidding action by a position (0 Vorhand, 1 Mittelhand, 2 Hinterhand):
    ``kind`` "bid" (with ``value``), "hold" ("ja") or "pass" ("passe")."""

    TYPE: ClassVar[str] = "bid_made"
    position: int
    kind: str
    value: int | None


@dataclass(frozen=True, slots=True)
class BiddingEntered(EventBody):
    """The bidding's outcome entered at once instead of bid by bid: ``position`` plays at
    ``value`` (the others passed)."""

    TYPE: ClassVar[str] = "bidding_entered"
    position: int
    value: int


@dataclass(frozen=True, slots=True)
class SkatTaken(EventBody):
    """The declarer takes up the skat (Skat aufnehmen): no hand game any more (ISkO 3.4.4)."""

    TYPE: ClassVar[str] = "skat_taken"


@dataclass(frozen=True, slots=True)
class SkatCardAdded(EventBody):
    """A card of the skat as it lies at the end: a pushed card, or the skat of a hand game."""

    TYPE: ClassVar[str] = "skat_card_added"
    card: Card
    source: str


@dataclass(frozen=True, slots=True)
class Declared(EventBody):
    """The declaration (Spielansage): game name, hand, ouvert, announced (None, "schneider",
    "schwarz"), completed by :meth:`device.declaration.Declaration.make`."""

    TYPE: ClassVar[str] = "declared"
    game: str
    hand: bool
    ouvert: bool
    announced: str | None
    #: Tournée-Skat's game: "first", "second" (the card that decided the trump), "solo",
    #: "guckser"; written only when given.
    tournee: str | None = None


@dataclass(frozen=True, slots=True)
class CardTurned(EventBody):
    """Tournée-Skat: the declarer turned a skat card up, the first or (``second``) the second;
    its suit is trump (a jack: its suit or Grand)."""

    TYPE: ClassVar[str] = "card_turned"
    card: Card
    second: bool
    source: str


@dataclass(frozen=True, slots=True)
class KontraSaid(EventBody):
    TYPE: ClassVar[str] = "kontra_said"
    position: int


@dataclass(frozen=True, slots=True)
class ReSaid(EventBody):
    TYPE: ClassVar[str] = "re_said"
    position: int


@dataclass(frozen=True, slots=True)
class SchenkenSaid(EventBody):
    """A step of a Schenken (001): ``what`` is "offer" (a defender says "schenken"; the second
    defender's offer agrees), "decline" (the other defender does not agree), "accept" or
    "play_on" (the declarer's answer)."""

    TYPE: ClassVar[str] = "schenken_said"
    position: int
    what: str


@dataclass(frozen=True, slots=True)
class SpitzeAnnounced(EventBody):
    """The declarer announced a Spitze of ``count`` lowest trumps (001 "Spitze")."""

    TYPE: ClassVar[str] = "spitze_announced"
    count: int


@dataclass(frozen=True, slots=True)
class SpitzeMadeEntered(EventBody):
    """Whether the Spitze was made, for a result typed in."""

    TYPE: ClassVar[str] = "spitze_made_entered"
    made: bool


@dataclass(frozen=True, slots=True)
class CardPlayed(EventBody):
    """``position`` played ``card`` into the current trick (scanned: "reader"; tapped: "screen")."""

    TYPE: ClassVar[str] = "card_played"
    position: int
    card: Card
    source: str


@dataclass(frozen=True, slots=True)
class FalseFollowingQueried(EventBody):
    """``position`` plays ``card`` of a class he did not follow in trick ``trick_index``
    (0-based; ``led`` was led, he gave ``discarded``): false following (ISkO 4.2.4) or a
    wrong scan? The card is not played; the table decides."""

    TYPE: ClassVar[str] = "false_following_queried"
    position: int
    card: Card
    source: str
    trick_index: int
    led: Card
    discarded: Card


@dataclass(frozen=True, slots=True)
class FalseFollowingAccepted(EventBody):
    """The table rules it false following: the game counts as ended at that trick (4.2.4)."""

    TYPE: ClassVar[str] = "false_following_accepted"


@dataclass(frozen=True, slots=True)
class CardWithdrawn(EventBody):
    """The table rules the queried card a wrong scan: it is dropped."""

    TYPE: ClassVar[str] = "card_withdrawn"


@dataclass(frozen=True, slots=True)
class GameEnded(EventBody):
    """The game ends before its tenth trick: ``how`` is "null_lost" (the declarer took a trick
    in Null), "declarer_gave_up", "defenders_gave_up", "declarer_violation" or
    "defenders_violation" (ISkO 4.1, 4.3). ``matadors`` when the table gave them."""

    TYPE: ClassVar[str] = "game_ended"
    how: str
    matadors: int | None


@dataclass(frozen=True, slots=True)
class ResultEntered(EventBody):
    """The counted result typed in instead of scanned cards (clubs that do not scan)."""

    TYPE: ClassVar[str] = "result_entered"
    declarer_points: int | None
    declarer_tricks: int | None  # None: not counted, neither party took all tricks
    matadors: int | None


@dataclass(frozen=True, slots=True)
class MatadorsEntered(EventBody):
    TYPE: ClassVar[str] = "matadors_entered"
    matadors: int


@dataclass(frozen=True, slots=True)
class RamschEntered(EventBody):
    """What a Ramsch ended with (club variant), per position: card points and tricks (the skat
    apart), the skat's points, who took the last trick, and how often the skat was pushed on
    unseen; scored by :func:`device.ramsch.score_ramsch` under the list's profile."""

    TYPE: ClassVar[str] = "ramsch_entered"
    points: tuple[int, int, int]
    tricks: tuple[int, int, int]
    skat_points: int
    last_trick: int
    pushes: int
    #: Texas-Skat's tie for the fewest Augen: which of the two took the later trick (written only when given).
    later_trick: int | None = None


@dataclass(frozen=True, slots=True)
class ResultConfirmed(EventBody):
    """The player at ``seat`` confirms the shown result (declarer and one defender needed)."""

    TYPE: ClassVar[str] = "result_confirmed"
    seat: int


@dataclass(frozen=True, slots=True)
class StepUndone(EventBody):
    """The last step of the current game (the event ``undone_id``) is taken back."""

    TYPE: ClassVar[str] = "step_undone"
    undone_id: str


_BODIES: tuple[type[EventBody], ...] = (
    ListOpened, PlayerJoined, PlayerLeft, GameRecorded, PassedIn, PassedInWithdrawn,
    RamschRecorded, BockAdded, CorrectionProposed, CorrectionConsented, CorrectionWithdrawn,
    CorrectionApplied, SeriesEnded, ListConfirmed, ListClosed,
    BidMade, BiddingEntered, SkatTaken, SkatCardAdded, CardTurned, Declared, KontraSaid, ReSaid, SchenkenSaid, SpitzeAnnounced, CardPlayed,
    FalseFollowingQueried, FalseFollowingAccepted, CardWithdrawn, GameEnded, ResultEntered,
    MatadorsEntered, RamschEntered, ResultConfirmed, StepUndone, SpitzeMadeEntered,
)
EVENT_TYPES: dict[str, type[EventBody]] = {body.TYPE: body for body in _BODIES}
#: The bodies that are steps of the game being played (taken back one by one by undo).
GAME_STEPS: tuple[type[EventBody], ...] = (
    BidMade, BiddingEntered, SkatTaken, SkatCardAdded, CardTurned, Declared, KontraSaid, ReSaid, SchenkenSaid, SpitzeAnnounced, CardPlayed,
    FalseFollowingQueried, FalseFollowingAccepted, CardWithdrawn, GameEnded, ResultEntered,
    MatadorsEntered, RamschEntered, SpitzeMadeEntered,
)


@dataclass(frozen=True, slots=True)
class Event:
    """One recorded fact: identity (for sync) around a body (for the fold)."""

    id: str
    seq: int
    device: str
    list_id: str
    body: EventBody
    at: str | None = None

    @property
    def type(self) -> str:
        return self.body.TYPE

    def to_json(self) -> dict[str, Any]:
        return {
            "v": EVENT_VERSION, "type": self.body.TYPE, "id": self.id, "seq": self.seq,
            "device": self.device, "list_id": self.list_id, "at": self.at,
            "data": {f.name: _encode(getattr(self.body, f.name)) for f in dataclasses.fields(self.body)  # type: ignore[arg-type]
                     if not (f.name in _WRITTEN_WHEN_GIVEN and getattr(self.body, f.name) == f.default)},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        """Read an event dict; :class:`EventFormatError` names the field that is wrong."""
        if not isinstance(data, Mapping):
            raise EventFormatError("event", "an event is a JSON object")
        if data.get("v") != EVENT_VERSION:
            raise EventFormatError("v", f"version {data.get('v')!r} is not supported: this is version {EVENT_VERSION}")
        body_type = EVENT_TYPES.get(data.get("type"))  # type: ignore[arg-type]
        if body_type is None:
            raise EventFormatError("type", f"unknown event type {data.get('type')!r}")
        raw = data.get("data")
        if not isinstance(raw, Mapping):
            raise EventFormatError("data", "missing or not an object")
        return cls(
            id=_decode(data.get("id"), str, "id"),
            seq=_decode(data.get("seq"), int, "seq"),
            device=_decode(data.get("device"), str, "device"),
            list_id=_decode(data.get("list_id"), str, "list_id"),
            at=_decode(data.get("at"), Union[str, None], "at"),
            body=_body_from_json(body_type, raw),
        )


B = TypeVar("B", bound=EventBody)

_WRITTEN_WHEN_GIVEN = frozenset({"members", "member", "later_trick", "tournee"})
"""Optional fields added later that an event carries only when set: without them the event is
the same JSON as before (an older laptop or table still reads it)."""


_FIELD_TYPES: dict[type[EventBody], tuple[tuple[str, Any], ...]] = {}


def _field_types(body_type: type[EventBody]) -> tuple[tuple[str, Any], ...]:
    """Each field's name and type, resolved once per body type."""
    known = _FIELD_TYPES.get(body_type)
    if known is None:
        hints = typing.get_type_hints(body_type)
        known = tuple((f.name, hints[f.name]) for f in dataclasses.fields(body_type))  # type: ignore[arg-type]
        _FIELD_TYPES[body_type] = known
    return known


def _body_from_json(body_type: type[B], raw: Mapping[str, Any]) -> B:
    fields = _field_types(body_type)
    unknown = sorted(set(raw) - {name for name, _ in fields})
    if unknown:
        raise EventFormatError(f"data.{unknown[0]}", "unknown field")
    values = {}
    for name, annotation in fields:
        if name not in raw:
            if name in _defaults(body_type):
                continue  # a field added later (e.g. the signed head): older events lack it
            raise EventFormatError(f"data.{name}", "missing")
        values[name] = _decode(raw[name], annotation, f"data.{name}")
    return body_type(**values)


def _defaults(body_type: type[EventBody]) -> frozenset[str]:
    return frozenset(f.name for f in dataclasses.fields(body_type)  # type: ignore[arg-type]
                     if f.default is not dataclasses.MISSING)


def _encode(value: object) -> Any:
    if isinstance(value, Card):
        return value.code
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (tuple, list)):
        return [_encode(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _encode(v) for k, v in value.items()}
    return value


def _decode(value: Any, annotation: Any, where: str) -> Any:
    """Check ``value`` against the field's type and build it (cards from codes, tuples from lists)."""
    origin = typing.get_origin(annotation)
    if annotation is Any:
        return value
    if origin in (Union, types.UnionType):
        options = typing.get_args(annotation)
        if value is None and type(None) in options:
            return None
        inner = [o for o in options if o is not type(None)]
        return _decode(value, inner[0], where)
    if origin is tuple:
        return _decode_tuple(value, typing.get_args(annotation), where)
    if origin is dict:
        if not isinstance(value, Mapping):
            raise EventFormatError(where, f"{value!r} is not an object")
        return {str(k): v for k, v in value.items()}
    if annotation is Card:
        if not isinstance(value, str):
            raise EventFormatError(where, f"{value!r} is not a card code")
        try:
            return Card.parse(value)
        except CardError as exc:
            raise EventFormatError(where, str(exc)) from None
    if annotation is bool:
        if not isinstance(value, bool):
            raise EventFormatError(where, f"{value!r} is not true or false")
        return value
    if annotation is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise EventFormatError(where, f"{value!r} is not a whole number")
        return value
    if annotation is str:
        if not isinstance(value, str):
            raise EventFormatError(where, f"{value!r} is not text")
        return value
    raise EventFormatError(where, f"cannot read a field of type {annotation!r}")  # pragma: no cover


def _decode_tuple(value: Any, args: tuple[Any, ...], where: str) -> tuple[Any, ...]:
    if not isinstance(value, (list, tuple)):
        raise EventFormatError(where, f"{value!r} is not a list")
    if len(args) == 2 and args[1] is Ellipsis:
        return tuple(_decode(v, args[0], f"{where}[{i}]") for i, v in enumerate(value))
    if len(value) != len(args):
        raise EventFormatError(where, f"{len(value)} items; expected {len(args)}")
    return tuple(_decode(v, a, f"{where}[{i}]") for i, (v, a) in enumerate(zip(value, args)))
