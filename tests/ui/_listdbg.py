from tests.ui.scenarios import direct_game, setup_steps
from tests.ui import test_club_evening as t
def steps(players, games, shot):
    s = setup_steps(players, length="length_open", stake="stake_1")
    for n in range(games):
        g = t.GAMES[n % len(t.GAMES)]
        s += direct_game(n, len(players), *g)
    return s + ["tap list", "wait_screen list", f"screenshot {shot}"]
