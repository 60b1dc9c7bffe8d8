"""The league's rankings do not depend on the order the store hands the lists over in."""

from __future__ import annotations

import random

from device.club.ranking import ListResult
from device.club.season import SeasonRules
from device.league.standings import LeagueList, club_ranking, club_season, player_ranking, player_season

DAY = "2026-11-26"


def _lists() -> list[LeagueList]:
    rng = random.Random(4)
    out = []
    for club in ("SC A", "SC B"):
        for table in (1, 2, 3):
            results = tuple(ListResult(f"P{club[-1]}{table}{seat}", 1, table, rng.randint(-50, 90), 1, 0,
                                       rng.randint(-100, 200)) for seat in range(3))
            out.append(LeagueList(club, f"t-{club[-1]}{table}", "l1", DAY, 1, table, results))
    return out


def test_any_order_of_the_lists_gives_the_same_rankings() -> None:
    lists = _lists()
    rules = SeasonRules(0, 0)
    want = (player_ranking(lists, DAY), club_ranking(lists, DAY), player_season(lists, rules), club_season(lists, rules))
    assert [line.tables for line in want[1]] == [(1, 1, 1, 2, 2, 2, 3, 3, 3)] * 2
    for seed in range(5):
        shuffled = lists[:]
        random.Random(seed).shuffle(shuffled)
        got = (player_ranking(shuffled, DAY), club_ranking(shuffled, DAY), player_season(shuffled, rules),
               club_season(shuffled, rules))
        assert got == want, seed
