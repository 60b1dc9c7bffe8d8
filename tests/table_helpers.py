"""Test helpers in the table's language (like Mission Pinball Framework's ``hit_switch_and_run``).

A :class:`Table` drives a real :class:`~device.table.service.TableService` over a small
in-memory store through ``submit`` + ``pump``, and reads back what the screen would show::

    table = Table("Anna", "Bernd", "Carla")
    table.say("M 18", "V passe", "H passe")
    table.take_skat(); table.push("S7", "S8"); table.declare("hearts")
    table.scan("CA", "C7", "CT")
    table.confirm("Bernd", "Anna")
    table.assert_list_entry(1, declarer="Bernd", score=-40)
"""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from device.bidding import Bid as AuctionBid
from device.bidding import Hold as AuctionHold
from device.bidding import parse_action
from device.cards import Card
from device.games import GameType
from device.hardware import Button, ButtonPressed, CardScanned
from device.journal import GENESIS, JournalEntry, chain_hash
from device.table.commands import (
    Bid, Confirm, Declare, EndGame, EndHow, Hold, OpenList, Pass, PlayCard, PushSkat, TakeSkat,
    Undo,
)
from device.table.flow import Refusal
from device.table.service import PumpResult, TableService
from device.table.snapshot import RowView, TableSnapshot
from device.tricks import PlayedGame, play_game
from tests.strategies import Revoke, deal, play_with_revoke
from ui.i18n import refusal_text
from ui.refusal_words import REFUSALS_DE, REFUSALS_EN

POSITIONS = {"V": 0, "M": 1, "H": 2}
DEVICE = "tisch-1"


def german(refusal: Any) -> str:
    """A refusal (or the snapshot's view of it) in the table's German words."""
    assert refusal.key in REFUSALS_DE, f"no German words for the refusal {refusal.key!r}"
    return refusal_text(refusal, "de")


def english(refusal: Any) -> str:
    """A refusal (or the snapshot's view of it) in the table's English words."""
    assert refusal.key in REFUSALS_EN, f"no English words for the refusal {refusal.key!r}"
    return refusal_text(refusal, "en")


class ListStore:
    """A tiny EventStore: events kept as JSON text (so they round-trip like on disk), one
    list per id, appends linear in their size. ``fail_next`` makes the next append fail."""

    def __init__(self) -> None:
        self.lists: dict[str, list[str]] = {}
        self.fail_next = False
        self.appends = 0

    def append(self, list_id: str, events: Sequence[Mapping[str, Any]]) -> None:
        if self.fail_next:
            self.fail_next = False
            raise OSError("disk full (test)")
        self.appends += 1
        self.lists.setdefault(list_id, []).extend(json.dumps(e, sort_keys=True) for e in events)

    def load(self, list_id: str) -> list[dict[str, Any]]:
        return [json.loads(text) for text in self.lists.get(list_id, [])]

    def list_ids(self) -> list[str]:
        return list(self.lists)

    def head(self, list_id: str) -> str:
        head = GENESIS
        for text in self.lists.get(list_id, []):  # not self.load: tests count the loads
            head = chain_hash(head, json.loads(text))
        return head

    def entries_after(self, seq: int, limit: int | None = None) -> list[JournalEntry]:
        found = []
        for list_id in self.lists:
            head = GENESIS
            for event in self.load(list_id):
                entry = JournalEntry(head, chain_hash(head, event), event)
                head = entry.hash
                if event.get("seq", 0) > seq:
                    found.append(entry)
        return sorted(found, key=lambda e: int(e.event["seq"]))[:limit]

    def save_checkpoint(self, list_id: str, count: int, payload: bytes) -> None:
        pass  # no cache: every start-up replays

    def load_checkpoint(self, list_id: str) -> tuple[int, bytes] | None:
        return None

    def close(self) -> None:
        pass


class StepClock:
    """A clock that moves one second per reading (no sleeps in tests)."""

    def __init__(self, start: datetime = datetime(2026, 11, 22, 19, 0, tzinfo=timezone.utc)) -> None:
        self.now = start

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


def seeded_ids(seed: int) -> Any:
    rng = random.Random(seed)
    return lambda: uuid.UUID(int=rng.getrandbits(128), version=4).hex


def make_service(store: Any = None, *, seed: int = 1, device: str = DEVICE) -> TableService:
    return TableService(store if store is not None else ListStore(), device_id=device, clock=StepClock(),
                        rng=random.Random(seed), new_id=seeded_ids(seed + 1000))


class Table:
    """A table under test. Names in seat order; ``open=False`` leaves the setup to the test."""

    def __init__(self, *players: str, store: Any = None, service: TableService | None = None,
                 seed: int = 1, open: bool = True, **setup: Any) -> None:
        self.store = store if store is not None else ListStore()
        self.service = service if service is not None else make_service(self.store, seed=seed)
        self.last = PumpResult()
        if open and players:
            self.ok(OpenList(tuple(players), **setup))

    # -- driving ------------------------------------------------------------------------

    def do(self, *commands: object) -> PumpResult:
        for command in commands:
            self.service.submit(command)
        self.last = self.service.pump()
        return self.last

    def ok(self, *commands: object) -> PumpResult:
        result = self.do(*commands)
        assert not result.refusals, [german(r) for r in result.refusals]
        return result

    def refused(self, command: object, code: str) -> Refusal:
        """Send ``command``; it must be refused with ``code`` and words for it in German and English."""
        before = self.service.state
        result = self.do(command)
        assert [r.code for r in result.refusals] == [code], [(r.code, german(r)) for r in result.refusals]
        refusal = result.refusals[0]
        assert english(refusal) and german(refusal)  # both languages have words for its key
        if code != "false_following":
            assert self.service.state == before and not result.events
        return refusal

    @property
    def snap(self) -> TableSnapshot:
        return self.service.snapshot()

    def seat(self, name: str) -> int:
        return self.service.state.seating.index(name)

    def position(self, who: str | int) -> int:
        if isinstance(who, int):
            return who
        if who in POSITIONS:
            return POSITIONS[who]
        deal = self.service.state.deal
        assert deal is not None
        return deal.active.index(self.seat(who))

    # -- the game in the table's words -------------------------------------------------

    def bid(self, who: str | int, value: int) -> PumpResult:
        return self.ok(Bid(self.position(who), value))

    def hold(self, who: str | int) -> PumpResult:
        return self.ok(Hold(self.position(who)))

    def passe(self, who: str | int) -> PumpResult:
        return self.ok(Pass(self.position(who)))

    def say(self, *words: str) -> PumpResult:
        """Bidding in the table notation: ``say("M 18", "V ja", "M passe", "H passe")``."""
        commands: list[object] = []
        deal = self.service.state.deal
        for text in words:  # the bid values of the table's rule profile (Texas: 32, not 23)
            action = parse_action(text, deal.auction.ladder) if deal is not None else parse_action(text)
            if isinstance(action, AuctionBid):
                commands.append(Bid(action.seat, action.value))
            elif isinstance(action, AuctionHold):
                commands.append(Hold(action.seat))
            else:
                commands.append(Pass(action.seat))
        return self.ok(*commands)

    def take_skat(self) -> PumpResult:
        return self.ok(TakeSkat())

    def push(self, *codes: str) -> PumpResult:
        return self.ok(*(PushSkat(Card.parse(c)) for c in codes))

    def declare(self, key: str) -> PumpResult:
        return self.ok(Declare.parse(key))

    def scan(self, *codes: str) -> PumpResult:
        """Cards through the reader (routed like real scans); all must be accepted."""
        return self.ok(*(CardScanned(Card.parse(c), raw=c) for c in codes))

    def tap(self, *codes: str) -> PumpResult:
        return self.ok(*(PlayCard(Card.parse(c)) for c in codes))

    def play(self, tricks: Sequence[Sequence[Card]]) -> PumpResult:
        return self.ok(*(CardScanned(c) for trick in tricks for c in trick))

    def press(self, button: str) -> PumpResult:
        return self.do(ButtonPressed(Button(button)))

    def confirm(self, *names: str) -> PumpResult:
        return self.ok(*(Confirm(self.seat(n)) for n in names))

    def undo(self) -> PumpResult:
        return self.ok(Undo())

    def end(self, how: EndHow, matadors: int | None = None) -> PumpResult:
        return self.ok(EndGame(how, matadors))

    # -- looking ------------------------------------------------------------------------

    def entry(self, number: int) -> RowView:
        snap = self.snap
        assert snap.list is not None
        return snap.list.rows[number - 1]

    def assert_list_entry(self, number: int, *, kind: str = "game", declarer: str | None = None,
                          score: int | None = None, text: str | None = None, dealer: str | None = None) -> RowView:
        row = self.entry(number)
        assert row.number == number
        assert row.kind == kind, row
        if declarer is not None:
            assert row.declarer == declarer, row
        if score is not None:
            assert row.score == score, row
        if text is not None:
            assert text in row.text, row.text
        if dealer is not None:
            assert row.dealer == dealer, row
        return row

    def assert_phase(self, phase: str) -> None:
        assert self.snap.phase == phase, (self.snap.phase, self.snap.refusal)


@dataclass(frozen=True)
class RevokeGame:
    """A Grand of Mittelhand with exactly one false following (from trick 2 on).

    ``cards`` are all played cards in order; ``proof`` indexes the later card that shows the
    offender could have followed (playing it is where the table asks).
    """

    skat: tuple[Card, ...]
    tricks: list[tuple[Card, Card, Card]]
    revoke: Revoke
    played: PlayedGame
    cards: list[Card]
    proof: int


def revoke_game(seed: int = 11) -> RevokeGame:
    rng = random.Random(seed)
    hands, skat = deal(rng)
    found = play_with_revoke(rng, GameType.GRAND, hands, from_trick=1)
    assert found is not None
    tricks, revoke = found
    played = play_game(GameType.GRAND, 1, skat, tricks)
    assert played.violation is not None
    cards = [c for t in tricks for c in t]
    proof = next(i for i, c in enumerate(cards) if c == played.violation.held[0])
    return RevokeGame(tuple(skat), tricks, revoke, played, cards, proof)


def play_up_to_the_question(table: Table, game: RevokeGame) -> Refusal:
    """Bid, take the skat, declare Grand and play until the proof card: the table asks."""
    table.say("M 18", "V passe", "H passe")
    table.take_skat()
    table.scan(*(c.code for c in game.skat))
    table.declare("grand")
    table.play([game.cards[:game.proof]])
    return table.refused(CardScanned(game.cards[game.proof]), "false_following")


def offer_at_table(monkeypatch: Any, *names: str) -> None:
    """Let the table's setup open lists with the test's own profiles ``names`` (registered in
    device.profile.PROFILES by the test) besides those it offers."""
    import device.table.flow_setup as flow_setup

    monkeypatch.setattr(flow_setup, "TABLE_PROFILES", (*flow_setup.TABLE_PROFILES, *names))
