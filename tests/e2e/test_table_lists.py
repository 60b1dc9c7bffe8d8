"""Whole lists driven through the table service by commands, checked against figures the test
computes on its own: a 36-game list at a three-table and a 48-game list at a four-table.

Each game is dealt with a seeded generator, bid, declared (hand, or skat taken and two cards
pushed) and then played card by card with legal random cards (tests/strategies.py), typed in
as a counted result, or given up. The expected list entry of each game comes from the rules
core directly (score_record / score_game), the rotation from the ISkO rule written out here,
and the totals, ranking and money from the Seeger-Fabian formula and the Quersummenverfahren
written out in this file — none of it from device.table or device.scoring.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from math import ceil

import pytest

from device.bidding import BID_VALUES
from device.declaration import Declaration
from device.games import NULL_VALUES, GameType
from device.hardware import CardScanned
from device.record import score_record
from device.table.commands import Confirm, ConfirmList, EndGame, EndHow, EnterResult, PlayCard
from device.tricks import matadors, play_game
from device.value import EndedBy, Ending, Play, score_game
from tests.strategies import deal, play_random
from tests.table_helpers import ListStore, Table, make_service

SEATS_3 = ("Anna", "Bernd", "Carla")
SEATS_4 = ("Anna", "Bernd", "Carla", "Dora")
LOW_BIDS = tuple(v for v in BID_VALUES if v <= 48)


@dataclass(frozen=True)
class Expected:
    """One list entry as the test computes it: None for eingepasst."""

    declarer_seat: int | None
    score: int
    won: bool


def active_seats(dealer: int, size: int) -> tuple[int, int, int]:
    """ISkO 3.2.6/3.2.7 written out: Vorhand left of the dealer; at three the dealer is Hinterhand."""
    if size == 3:
        return ((dealer + 1) % 3, (dealer + 2) % 3, dealer)
    return ((dealer + 1) % size, (dealer + 2) % size, (dealer + 3) % size)


def bidding(declarer: int, bid: int) -> list[str]:
    """A bidding that makes ``declarer`` (position) the declarer at ``bid``."""
    if declarer == 0:
        return [f"M {bid}", "V ja", "M passe", "H passe"] if bid > 18 else ["M passe", "H passe", "V 18"]
    if declarer == 1:
        return [f"M {bid}", "V passe", "H passe"]
    return ["M passe", f"H {bid}", "V passe"]


def play_one_game(table: Table, rng: random.Random, size: int, number: int) -> Expected:
    dealer = number % size
    active = active_seats(dealer, size)
    snap = table.snap
    assert snap.dealer == dealer and snap.positions == tuple(table.snap.players[s] for s in active)
    hands, skat = deal(rng)
    if rng.random() < 0.1:
        table.say("M passe", "H passe", "V passe")
        return Expected(None, 0, False)
    declarer = rng.randrange(3)
    game = rng.choice(list(GameType))
    hand = rng.random() < 0.3
    bid = rng.choice([v for v in LOW_BIDS if not game.is_null or v <= NULL_VALUES[(hand, False)]])
    table.say(*bidding(declarer, bid))
    key = game.value + ("/hand" if hand else "")
    held = [list(h) for h in hands]
    final_skat = list(skat)
    if not hand:
        table.take_skat()
        twelve = held[declarer] + list(skat)
        rng.shuffle(twelve)
        final_skat, held[declarer] = twelve[:2], twelve[2:]
        table.scan(*(c.code for c in final_skat))
    table.declare(key)
    tricks = play_random(rng, game, held)
    record = {"game": game.value, "hand": hand, "bid": bid, "declarer": declarer,
              "skat": [c.code for c in final_skat], "tricks": [[c.code for c in t] for t in tricks]}
    mode = rng.random()
    if mode < 0.65:  # scanned, some cards tapped on the picker
        for trick in tricks:
            for card in trick:
                table.ok(PlayCard(card) if rng.random() < 0.2 else CardScanned(card))
        want = score_record(record).result
    elif mode < 0.85 or game.is_null:  # the counted result typed in
        played = play_game(game, declarer, final_skat, tricks)
        spitzen = None if game.is_null else played.matadors
        table.ok(EnterResult(played.declarer_tricks, played.declarer_points, spitzen))
        want = score_record({**{k: v for k, v in record.items() if k not in ("declarer", "skat", "tricks")},
                             "matadors": spitzen or 0, "declarer_points": played.declarer_points,
                             "declarer_tricks": played.declarer_tricks}).result
    else:  # the declarer gives up at once
        spitzen = matadors(game, held[declarer] + final_skat)
        table.ok(EndGame(EndHow.DECLARER_GAVE_UP, spitzen))
        declaration = Declaration.make(game, hand=hand)
        want = score_game(declaration, bid, Play(sum(c.points for c in final_skat), 0, spitzen),
                          ending=Ending(EndedBy.DECLARER_GAVE_UP, 0, 0))
    result = table.snap.result
    assert result is not None and result.score == want.score, (result, want)
    declarer_seat = active[declarer]
    defender_seat = active[(declarer + rng.randrange(1, 3)) % 3]
    if size > 3 and rng.random() < 0.5:  # the dealer sits out and confirms for the Gegenpartei
        table.press("confirm")
        table.ok(Confirm(declarer_seat))
    elif dealer in (declarer_seat, defender_seat) and rng.random() < 0.5:
        table.press("confirm")  # the dealer confirms with the panel's button
        other = defender_seat if dealer == declarer_seat else declarer_seat
        table.ok(Confirm(other))
    else:
        table.ok(Confirm(defender_seat), Confirm(declarer_seat))
    return Expected(declarer_seat, want.score, want.won)


def seeger_fabian(expected: list[Expected], size: int) -> list[int]:
    """SkWO 5.1 written out: points, +50 per won game, -50 per lost game, and per game lost by
    another player 40 (three-table) or 30 (four-table)."""
    credit = {3: 40, 4: 30}[size]
    totals = [0] * size
    for e in expected:
        if e.declarer_seat is None:
            continue
        totals[e.declarer_seat] += e.score + (50 if e.won else -50)
        if not e.won:
            for seat in range(size):
                if seat != e.declarer_seat:
                    totals[seat] += credit
    return totals


def settlement(classic: list[int], stake: Fraction) -> list[int]:
    """ISkO 5.5.4/5.5.5 written out: Endzahlen rounded up in size, then n x Endzahl - Summe."""
    figures = [ceil(abs(t * stake)) * (1 if t >= 0 else -1) for t in classic]
    return [len(figures) * f - sum(figures) for f in figures]


def ranking(totals: list[int], won: list[int], lost: list[int], names: tuple[str, ...]) -> list[tuple[int, str]]:
    order = sorted(range(len(names)), key=lambda p: (-totals[p], -won[p], lost[p], p))
    key = {p: (-totals[p], -won[p], lost[p]) for p in order}
    return [(1 + sum(key[q] < key[p] for q in order), names[p]) for p in order]


def run_list(names: tuple[str, ...], games: int, seed: int, *, restart_at: int | None = None) -> None:
    size = len(names)
    rng = random.Random(seed)
    store = ListStore()
    table = Table(*names, store=store, series_length=games, stake="1/4")
    expected: list[Expected] = []
    classic = [0] * size
    for number in range(games):
        if number == restart_at:  # power cut: a new service over the same store goes on
            table = Table(service=make_service(store, seed=99))
        assert (table.snap.game_no, table.snap.series_length) == (number + 1, games)
        e = play_one_game(table, rng, size, number)
        expected.append(e)
        row = table.entry(number + 1)
        if e.declarer_seat is None:
            assert row.kind == "passed_in"
        else:
            classic[e.declarer_seat] += e.score
            assert (row.kind, row.declarer, row.score) == ("game", names[e.declarer_seat], e.score)
        assert table.snap.list is not None and table.snap.list.classic == tuple(classic)
    snap = table.snap
    assert snap.phase == "series_over"
    assert snap.list is not None and len(snap.list.rows) == games
    assert [r.dealer for r in snap.list.rows] == [names[n % size] for n in range(games)]
    sf = seeger_fabian(expected, size)
    assert snap.end is not None and snap.end.totals == tuple(sf)
    assert snap.list.rows[-1].totals == tuple(sf)
    won = [sum(1 for e in expected if e.declarer_seat == p and e.won) for p in range(size)]
    lost = [sum(1 for e in expected if e.declarer_seat == p and not e.won) for p in range(size)]
    assert [(s.rank, s.name) for s in snap.end.ranking] == ranking(sf, won, lost, names)
    assert [(s.won, s.lost) for s in sorted(snap.end.ranking, key=lambda s: names.index(s.name))] == list(zip(won, lost))
    assert snap.end.amounts == tuple(settlement(classic, Fraction(1, 4)))
    assert sum(snap.end.amounts) == 0
    table.ok(*(ConfirmList(seat) for seat in range(size)))
    assert table.snap.phase == "closed"
    seqs = [d["seq"] for lid in store.list_ids() for d in store.load(lid)]
    assert seqs == list(range(1, len(seqs) + 1))


@pytest.mark.slow
def test_a_36_game_list_at_a_three_table() -> None:
    run_list(SEATS_3, 36, seed=2026)


@pytest.mark.slow
def test_a_48_game_list_at_a_four_table_with_a_restart_half_way() -> None:
    run_list(SEATS_4, 48, seed=1998, restart_at=24)
