"""The pot of the list (001 "Spiel um einen Pot (Skat mit Pinke)"), as a pure fold over its rows.

"Häufig trägt jeder Spieler zu Beginn des Spiels, oder wenn dieser leer ist, einen kleinen
Betrag zum Pot bei. Ein Alleinspieler, der ein Spiel (oder Ramsch) verliert, zahlt in den Pot
ein sowie an die anderen Spieler. Der Inhalt des Pots wird von dem Spieler gewonnen, der ein
Grand-Handspiel gewinnt. Wenn Sie ein Grand-Hand spielen und verlieren, müssen Sie den Pot
verdoppeln."

Read here as: before an entry, whenever the pot is empty (so at the list's start and after a
Grand Hand won it), everyone at the table puts in ``ante``; a declarer who loses a game, and
whoever loses a Ramsch, puts in ``lost_game`` (his game points are written as always); a Grand
Hand (Grand ouvert too) won takes the pot, one lost doubles it (instead of ``lost_game``).
Eingepasst moves nothing. The amounts are points, settled at the list's stake. What is left
in the pot when the list closes the text does not say: it goes back in equal shares (the odd
points to the first players of the list).

>>> from device.profile import PotRules
>>> from device.table.state import Row
>>> from device.declaration import Declaration
>>> from device.games import GameType
>>> from device.value import Play, score_game
>>> names = ("Anna", "Bernd", "Carla")
>>> lost = score_game(Declaration.make(GameType.CLUBS), 18, Play(50, 4, 1))
>>> grand = score_game(Declaration.make(GameType.GRAND, hand=True), 24, Play(70, 6, 1))
>>> rows = [Row(1, "game", 0, (1, 2, 0), names, declarer_seat=2, result=lost),
...         Row(2, "game", 1, (2, 0, 1), names, declarer_seat=0, result=grand)]
>>> ledger = pot_ledger(rows, names, PotRules())
>>> ledger.content, ledger.net, [e.note for e in ledger.entries]
(0, (30, -10, -20), ['Einsatz 3 × 10, Carla zahlt 10 ein: 40', 'Anna gewinnt den Pot (40): 0'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from device.games import GameType
from device.profile import PotRules
from device.table.state import Row

__all__ = ["PotEntry", "PotLedger", "pot_coins", "pot_ledger"]


@dataclass(frozen=True, slots=True)
class PotEntry:
    """What one entry of the list moved: ``moves`` by list player (+ took out, - paid in)."""

    entry: int
    moves: tuple[int, ...]
    content: int  # in the pot after the entry
    note: str
    note_en: str


@dataclass(frozen=True, slots=True)
class PotLedger:
    """The pot after the rows: its ``content`` and each list player's ``net`` (+ took out,
    - paid in), the entries that moved it."""

    players: tuple[str, ...]
    content: int
    net: tuple[int, ...]
    entries: tuple[PotEntry, ...]

    def shared_out(self) -> tuple[int, ...]:
        """Each player's net once what is left goes back in equal shares (sums to zero)."""
        count = len(self.players)
        share, odd = divmod(self.content, count)
        return tuple(n + share + (1 if i < odd else 0) for i, n in enumerate(self.net))


def pot_ledger(rows: Sequence[Row], players: Sequence[str], rules: PotRules) -> PotLedger:
    """The pot as the rows of the list moved it (``players``: the list's players, in order)."""
    content, net, entries = 0, [0] * len(players), []
    for row in rows:
        moves = [0] * len(players)
        notes, notes_en = [], []

        def pay(name: str, amount: int) -> None:
            moves[players.index(name)] -= amount

        if content == 0 and row.kind != "passed_in":
            for name in row.seating:
                pay(name, rules.ante)
            content += rules.ante * len(row.seating)
            notes.append(f"Einsatz {len(row.seating)} × {rules.ante}")
            notes_en.append(f"ante {len(row.seating)} × {rules.ante}")
        if row.kind == "game" and row.result is not None and row.declarer_seat is not None:
            name = row.seating[row.declarer_seat]
            grand_hand = row.result.declaration.game is GameType.GRAND and row.result.declaration.hand
            if grand_hand and row.result.won:
                moves[players.index(name)] += content
                notes.append(f"{name} gewinnt den Pot ({content})")
                notes_en.append(f"{name} wins the pot ({content})")
                content = 0
            elif grand_hand:
                pay(name, content)
                notes.append(f"{name} verdoppelt den Pot")
                notes_en.append(f"{name} doubles the pot")
                content *= 2
            elif not row.result.won and rules.lost_game:
                pay(name, rules.lost_game)
                content += rules.lost_game
                notes.append(f"{name} zahlt {rules.lost_game} ein")
                notes_en.append(f"{name} pays {rules.lost_game} in")
        elif row.kind == "ramsch" and row.ramsch is not None and rules.lost_game:
            for position, score in enumerate(row.ramsch):
                if score < 0:
                    name = row.seating[row.active[position]]
                    pay(name, rules.lost_game)
                    content += rules.lost_game
                    notes.append(f"{name} zahlt {rules.lost_game} ein")
                    notes_en.append(f"{name} pays {rules.lost_game} in")
        if notes:
            net = [a + b for a, b in zip(net, moves)]
            entries.append(PotEntry(row.entry, tuple(moves), content, f"{', '.join(notes)}: {content}",
                                    f"{', '.join(notes_en)}: {content}"))
    return PotLedger(tuple(players), content, tuple(net), tuple(entries))


def pot_coins(points: Sequence[int], stake: Fraction) -> tuple[int, ...]:
    """The pot's points in coins at the list's stake, rounded; what rounding leaves over goes
    to (or comes from) the player with the most points, so the coins still cancel out.

    >>> pot_coins((30, -10, -20), Fraction(1, 4))
    (7, -2, -5)
    """
    coins = [round(p * stake) for p in points]
    if coins:
        most = max(range(len(points)), key=lambda i: points[i])
        coins[most] -= sum(coins)
    return tuple(coins)
