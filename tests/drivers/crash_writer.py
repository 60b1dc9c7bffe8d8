"""A table that records games until it is killed: the writer process of the crash test.

    python -m tests.drivers.crash_writer DIRECTORY TOTAL_GAMES

It opens the store in DIRECTORY, works out from the store alone where it is (the last game
and sequence number stored, the current list and how many games it holds), then records
games up to TOTAL_GAMES. A game is a handful of events (dealt … scored, with the tricks)
appended in one call, as the table service does. Lists hold 36 to 48 games (a series); a
full list is followed by a new one. A kill can cut a game's append where the write crosses a
page: its whole first lines stay (as after a power cut), so a restart first appends the rest of
that game, as the table carries on a game from its journal. After each ``append`` returns it prints the
game's number on its own line and flushes: a printed game is one the screen would show as
recorded, so the store must never lose it.
"""

from __future__ import annotations

import sys
import uuid
from typing import Any

from drivers.store import JournalEventStore

KINDS = ("dealt", "bid", "declared", "skat_pushed", "played", "scored")
CARDS = [s + r for s in "CSHD" for r in "789TJQKA"]


def list_size(number: int) -> int:
    """Games in list ``number`` (1-based): 36 to 48, fixed per list so a restart agrees."""
    return 36 + (number * 7) % 13


def list_id(number: int) -> str:
    return f"2026-11-{number:03d}-tisch-1"


def game_events(game: int, first_seq: int, device: str, lid: str) -> list[dict[str, Any]]:
    """The events of game ``game``: 3 to 6 of them, ``seq`` counting on from ``first_seq``."""
    parts = 3 + game % 4
    events = []
    for part in range(parts):
        payload: dict[str, Any] = {"kind": KINDS[part], "declarer": game % 3}
        if KINDS[part] == "played":
            payload["tricks"] = [[CARDS[(game + t * 3 + i) % 32] for i in range(3)]
                                 for t in range(10)]
        if KINDS[part] == "scored":
            payload.update(value=24 + game % 100, players=["Jürgen", "Zoë", "Åsa"])
        events.append({"id": str(uuid.uuid4()), "device": device, "seq": first_seq + part,
                       "list": lid, "game": game, "part": part, "parts": parts, **payload})
    return events


def where_we_are(store: JournalEventStore) -> tuple[int, int, int, int, int]:
    """(last game, last seq, current list number, games in it, the last game's parts stored),
    read from the store only."""
    ids = store.list_ids()
    last_game = last_seq = parts_stored = 0
    for lid in ids:
        for event in store.load(lid):
            parts_stored = parts_stored + 1 if event["game"] == last_game else 1
            last_game = max(last_game, event["game"])
            last_seq = max(last_seq, event["seq"])
    if not ids:
        return last_game, last_seq, 0, 0, 0
    in_current = len({event["game"] for event in store.load(ids[-1])})
    return last_game, last_seq, len(ids), in_current, parts_stored


def finish_cut_game(store: JournalEventStore, game: int, seq: int, number: int, parts_stored: int) -> int:
    """Append the parts of ``game`` a kill cut off (none if it is whole), confirm it, and
    return the last seq stored."""
    events = game_events(game, seq - parts_stored + 1, store.device_id, list_id(number))
    if not game or parts_stored == len(events):
        return seq
    store.append(list_id(number), events[parts_stored:])
    sys.stdout.write(f"{game}\n")
    sys.stdout.flush()
    return events[-1]["seq"]


def main(argv: list[str]) -> int:
    directory, total = argv[0], int(argv[1])
    with JournalEventStore(directory) as store:
        device = store.device_id
        game, seq, number, in_list, parts_stored = where_we_are(store)
        seq = finish_cut_game(store, game, seq, number, parts_stored)
        while game < total:
            if number == 0 or in_list >= list_size(number):
                number, in_list = number + 1, 0
            events = game_events(game + 1, seq + 1, device, list_id(number))
            store.append(list_id(number), events)
            game, seq, in_list = game + 1, seq + len(events), in_list + 1
            sys.stdout.write(f"{game}\n")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
