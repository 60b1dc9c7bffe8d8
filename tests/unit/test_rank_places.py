"""``device.scoring.rank``'s places, computed in one pass over the sorted players (a league
ranks thousands), are what SkWO 5.1 says they are: 1 + the number of better players."""

from __future__ import annotations

import random

from device.scoring import rank


def test_every_place_is_one_more_than_the_players_with_better_merit() -> None:
    rng = random.Random(18)
    for _ in range(500):
        n = rng.randint(1, 14)
        totals = [rng.choice((-30, 0, 30)) for _ in range(n)]
        won = [rng.randint(0, 2) for _ in range(n)]
        lost = [rng.randint(0, 2) for _ in range(n)]

        def merit(p: int) -> tuple[int, int, int]:
            return (-totals[p], -won[p], lost[p])

        standings = rank(totals, won, lost)
        assert sorted(s.player for s in standings) == list(range(n))
        for s in standings:
            assert s.rank == 1 + sum(merit(q) < merit(s.player) for q in range(n))
