"""A table that records games until told to stop: the victim of the service crash test.

    python -m tests.e2e.service_crash_writer STORE_DIR GAMES

Opens the real TinyDB store and a TableService over it, goes on from wherever the store says
the table is (the game in progress included) and plays game after game, deterministically
from each game's number: bidding, a Kreuz Hand declaration, then either every card through
the reader or the counted result typed in, and the two confirmations. After the pump that
put a game on the list returns (so it is durable), prints ``confirmed N``. Lists of 36 games
are closed by every player's confirmation and a new list is opened.
"""

from __future__ import annotations

import random
import sys

from device.hardware import CardScanned
from device.table import Bid, Confirm, ConfirmList, Declare, EnterResult, OpenList, Pass, TableService
from device.tricks import play_game
from device.games import GameType
from drivers.store import JournalEventStore, device_id
from ui.i18n import refusal_text
from tests.strategies import deal, play_random

PLAYERS = ("Anna", "Bernd", "Carla")
LIST_LENGTH = 36
CARD_BY_CARD_EVERY = 12  # every 12th game is scanned card by card, the others typed in


def recorded_games(store: JournalEventStore) -> int:
    return sum(1 for list_id in store.list_ids() for e in store.load(list_id) if e["type"] == "game_recorded")


def the_game(number: int) -> tuple[list[tuple], list]:
    """The tricks and skat of game ``number`` (Mittelhand plays Kreuz Hand)."""
    rng = random.Random(number)
    hands, skat = deal(rng)
    return play_random(rng, GameType.CLUBS, hands), list(skat)


def next_command(service: TableService, number: int, *, players: tuple[str, ...] = PLAYERS,
                 length: int = LIST_LENGTH, card_by_card_every: int = CARD_BY_CARD_EVERY) -> object | list[object]:
    """The next step of game ``number`` from wherever the table stands."""
    snap = service.snapshot()
    if snap.phase in ("setup", "closed"):
        return OpenList(players, series_length=length)
    if snap.phase == "series_over":
        return [ConfirmList(seat) for seat in range(len(players))]
    if snap.phase == "bidding":
        bidding = snap.bidding
        assert bidding is not None
        if bidding.speaker == 1 and bidding.current is None and bidding.role == "bidding":
            return Bid(1, 18)
        return Pass(bidding.speaker)
    if snap.phase == "declaring":
        return Declare.parse("clubs/hand")
    if snap.phase == "playing":
        tricks, skat = the_game(number)
        cards = [card for trick in tricks for card in trick]
        if number % card_by_card_every == 0:
            assert snap.play is not None
            card = cards[snap.play.tricks_done * 3 + len(snap.play.trick.cards)]
            return CardScanned(card, raw=card.code)
        played = play_game(GameType.CLUBS, 1, skat, tricks)
        return EnterResult(played.declarer_tricks, played.declarer_points, played.matadors)
    if snap.phase == "result":
        seats = {s.position: s.seat for s in snap.seats if s.position is not None}
        return [Confirm(seats[0]), Confirm(seats[1])]  # a defender, then the declarer
    raise RuntimeError(f"unexpected phase {snap.phase}")


def main(directory: str, games: int) -> int:
    store = JournalEventStore(directory)
    service = TableService(store, device_id=device_id(directory))
    done = recorded_games(store)
    print(f"start {done}", flush=True)
    while done < games:
        command = next_command(service, done + 1)
        for single in command if isinstance(command, list) else [command]:
            service.submit(single)
        result = service.pump()
        for refusal in result.refusals:
            if refusal.code not in ("already_confirmed",):
                print(f"refused {refusal.code}: {refusal_text(refusal, 'en')}", file=sys.stderr, flush=True)
        for event in result.events:
            if event.body.TYPE == "game_recorded":
                done += 1
                print(f"confirmed {done}", flush=True)
    store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2])))
