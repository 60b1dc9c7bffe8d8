"""Whole games as ``--script`` steps, written the way the table is used.

A deal is given as the three hands (Vorhand, Mittelhand, Hinterhand) and the skat; the play
order is worked out here with :mod:`device.tricks` (each player plays his first legal card,
or his last one with ``low=True``), so a script's cards are always a game that can happen.
The UI under test never sees these helpers: it gets taps, cards and button presses.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from device.cards import Card, parse_cards
from device.games import GameType
from device.tricks import legal_cards, sort_hand, trick_winner


def play_order(game: str, hands: Sequence[str], *, low: Sequence[bool] = (False, False, False),
               tricks: int = 10) -> list[str]:
    """The card codes in play order for ``tricks`` tricks; Vorhand leads the first."""
    kind = GameType(game)
    held = [list(sort_hand(parse_cards(h), kind)) for h in hands]
    assert all(len(h) == 10 for h in held), [len(h) for h in held]
    order: list[str] = []
    leader = 0
    for _ in range(tricks):
        trick: list[Card] = []
        for offset in range(3):
            position = (leader + offset) % 3
            choices = legal_cards(held[position], trick, kind)
            card = choices[-1] if low[position] else choices[0]
            held[position].remove(card)
            trick.append(card)
            order.append(card.code)
        leader = (leader + trick_winner(trick, kind)) % 3
    return order


def setup_steps(players: Sequence[str], *, length: str = "length_tournament", scoring: str = "",
                profile: str = "", stake: str = "", shots: str = "") -> list[str]:
    """Type the players' names, choose the rules, begin the list."""
    steps = ["wait_screen setup"]  # four seats at first
    steps += ["tap remove_player"] * max(0, 4 - len(players)) + ["tap add_player"] * max(0, len(players) - 4)
    for index, name in enumerate(players):
        steps += [f"tap name_{index}", f'type "{name}"']
    if shots:
        steps.append(f"screenshot {shots}-setup-players")
    steps.append("tap setup_next")
    steps.append(f"tap {length}")
    if profile:  # the profiles are a popup's big buttons
        steps += ["tap choose_profile", f"tap {profile}"]
    for choice in (scoring, stake):
        if choice:
            steps.append(f"tap {choice}")
    if shots:
        steps.append(f"screenshot {shots}-setup-rules")
    steps += ["tap setup_next", "wait_screen game"]
    return steps


def cards_steps(codes: Iterable[str], *, via: str = "card") -> list[str]:
    """Each card through the on-screen picker (``card``) or the simulated reader (``scan``)."""
    return [f"{via} {code}" for code in codes]


def hand_of(*codes: str) -> str:
    return " ".join(codes)


def direct_game(number: int, size: int, game: str, tricks: int, points: int, matadors: int) -> list[str]:
    """Game ``number`` (0-based) of a list at ``size`` players the quick way: Vorhand takes the
    game at 18, takes up the skat, declares ``game`` and the result is entered directly; the
    declarer and Mittelhand confirm it."""
    dealer = number % size
    vorhand, mittelhand = (dealer + 1) % size, (dealer + 2) % size
    steps = ["wait_screen game", "tap bid_18", "tap hold", "tap pass", "tap pass", "wait_screen declare",
             "tap take_skat", f"tap game_{game}", "tap declare", "wait_screen play", "tap result_direct",
             f"tap tricks_{tricks}", *[f"tap digit_{d}" for d in str(points)], "tap enter_result"]
    if game != "null":
        steps.append(f"tap matadors_p{matadors}")
    return steps + ["wait_screen result", f"tap confirm_{vorhand}", f"tap confirm_{mittelhand}"]
