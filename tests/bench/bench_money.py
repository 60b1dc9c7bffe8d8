"""Benchmark: the Kasse page of a Preisskat evening, live after each game.

    .venv/bin/python -m tests.bench.bench_money            # full: 30 four-tables (120 players), 2 series of 48 games
    .venv/bin/python -m tests.bench.bench_money --smoke    # tiny, seconds
    .venv/bin/python -m tests.bench.bench_money --member-list   # teams and the Jugend from the member list

A real SQLite collector store and the laptop's app (Starlette, in-process HTTP client, the
organiser logged in). The conditions: Startgeld, Tischgeld, the default Abreizgeld tiers, a fee
per eingepasstes game, a prize plan with series prizes and a team ranking of 30 teams of four.
Series 1 is synced whole; series 2 is synced game by game, one table after the other, as the
tables send them. Measured: after each of the last ``--measured`` games, GET /kasse (the
read model folds the new game, the money is computed from every list, the page is drawn) —
the median and the slowest. Goal: <= 0.3 s at full speed. With ``--member-list`` the club's
member list (a roster of the 120 with Mannschaft and Kategorie) names the teams and the Jugend,
drawn on every request. Also measured: the live check (what ``/live`` computes every 0.4 s for
each open page, the evening's money included).

Baseline, in the same run after the same games: GET /wertung, the evening's ranking page over
the same read model (what the laptop already shows live); the ratio is Kasse / Wertung.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from device.club.money import Conditions, ExtraRanking, FeeCategory, PrizePlan
from device.club.seating import random_draw
from device.journal import JournalEntry
from device.sync import journal_entries
from drivers.club.app import create_app
from drivers.club.store import SqliteCollectorStore
from tests.club_helpers import list_events, random_entries
from ui.club import auth
from ui.club.money_pages import money_routes
from ui.club.pages import Pages

FULL = (30, 2, 48, 60)  # four-tables, series, games per list, games measured
SMOKE = (3, 2, 8, 4)
EVENING = "2026-12-05"


@dataclass(frozen=True)
class Result:
    players: int
    games: int
    kasse_median: float
    kasse_max: float
    wertung_median: float
    live_median: float


def _team(n: int) -> str:
    return f"Team {n // 4 + 1}"


def member_list(players: list[str]) -> list[dict[str, str]]:
    """The roster document: each player a member of his team, every tenth in the Jugend."""
    return [{"name": p, "short": p, "team": _team(n), **({"category": "Jugend"} if n % 10 == 0 else {})}
            for n, p in enumerate(players)]


def evening_conditions(players: list[str], *, from_member_list: bool = False) -> Conditions:
    teams = tuple((_team(4 * n), tuple(players[4 * n:4 * n + 4])) for n in range(len(players) // 4))
    return Conditions(startgeld=1500, tischgeld=100, passed_in_fee=50,
                      categories=(FeeCategory("Jugend", 0, ()),) if from_member_list else (),
                      plan=PrizePlan(payout_percent=90, places=0, share_of_players=25, scale="fallend", amounts=(),
                                     last_percent=30, round_to=50),
                      series_prizes=(2000, 1000, 500),
                      extras=(ExtraRanking("Mannschaft", "mannschaft", 2000, () if from_member_list else teams,
                                           PrizePlan(places=3, amounts=(50, 30, 20)), fee_per_group=True),))


def _series_entries(rng: random.Random, devices: list[str], players: list[str], series: int, games: int,
                    seq: dict[str, int]) -> dict[str, list[JournalEntry]]:
    out = {}
    for assignment in random_draw(players, seed=rng.getrandbits(32)):
        device = devices[assignment.table - 1]
        events = list_events(device, f"s{series}-t{assignment.table}", assignment.players,
                             random_entries(rng, 4, games), seq=seq[device])
        seq[device] += len(events)
        out[device] = journal_entries(events)
    return out


def run(size: tuple[int, int, int, int], *, directory: Path, from_member_list: bool = False) -> Result:
    from starlette.testclient import TestClient

    tables, series, games, measured = size
    rng = random.Random(5)
    store = SqliteCollectorStore(directory / "club.sqlite3")
    players = [f"Spieler {n:03d}" for n in range(tables * 4)]
    devices = [f"tisch-{t:02d}" for t in range(1, tables + 1)]
    for number, device in enumerate(devices, start=1):
        store.ensure_device(device, f"Tisch {number}", now=time.time())
    store.set_document("evening", {"id": EVENING, "title": "Preisskat"})
    doc = auth.new_secret("benchmark")
    store.set_document("organiser", doc)
    store.set_money(EVENING, "conditions", evening_conditions(players, from_member_list=from_member_list).to_json())
    if from_member_list:
        store.set_document("roster", member_list(players))
    seq = dict.fromkeys(devices, 1)
    kasse_times: list[float] = []
    wertung_times: list[float] = []
    live_times: list[float] = []
    pages = Pages(store)
    with TestClient(create_app(store, routes=pages.routes() + money_routes(pages))) as client:
        client.cookies.set(auth.COOKIE, auth.session_token(doc))
        for number in range(1, series):  # the earlier series: synced whole
            for device, entries in _series_entries(rng, devices, players, number, games, seq).items():
                store.store_batch(device, entries, now=time.time())
        last = _series_entries(rng, devices, players, series, games, seq)
        order = [(device, index) for index in range(len(next(iter(last.values())))) for device in devices]
        client.get("/kasse")
        for step, (device, index) in enumerate(order):
            store.store_batch(device, [last[device][index]], now=time.time())
            if step < len(order) - measured:
                continue
            if not kasse_times:  # the games before the measured ones: folded once, as the live page had
                client.get("/kasse")
                client.get("/wertung")
            t0 = time.perf_counter()
            page = client.get("/kasse")
            kasse_times.append(time.perf_counter() - t0)
            assert page.status_code == 200 and "Summe" in page.text
            t0 = time.perf_counter()
            assert client.get("/wertung").status_code == 200
            wertung_times.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            pages.signature()
            live_times.append(time.perf_counter() - t0)
        lines = client.get("/kasse.json").json()["lines"]
        assert sum(e["fee"] for line in lines for e in line["extras"]) == 2000 * tables  # every team in the Kasse
        assert sum(line["category"] == "Jugend" for line in lines) == (len(players[::10]) if from_member_list else 0)
    store.close()
    return Result(len(players), tables * series * games, statistics.median(kasse_times), max(kasse_times),
                  statistics.median(wertung_times), statistics.median(live_times))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--smoke", action="store_true", help="a tiny evening, seconds")
    parser.add_argument("--member-list", action="store_true", help="teams and the Jugend from the member list")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="skattisch-money-") as tmp:
        result = run(SMOKE if args.smoke else FULL, directory=Path(tmp), from_member_list=args.member_list)
    print(f"Preisskat: {result.players} players, {result.games} games"
          + (" (teams and Jugend from the member list)" if args.member_list else ""))
    print(f"Kasse page after each game: median {result.kasse_median * 1000:.1f} ms, "
          f"slowest {result.kasse_max * 1000:.1f} ms (goal <= 300 ms)")
    print(f"baseline, Wertung page after the same games: median {result.wertung_median * 1000:.1f} ms; "
          f"ratio Kasse / Wertung = {result.kasse_median / result.wertung_median:.2f}x")
    print(f"live check (every 0.4 s per open page): median {result.live_median * 1000:.2f} ms; "
          f"ratio live check / Wertung = {result.live_median / result.wertung_median:.3f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
