"""The list when the table changes: a player joins or leaves at the start of a round."""

from __future__ import annotations

from device.table import Confirm, EndSeries, EnterResult, JoinPlayer
from tests.table_helpers import Table


def won_herz(t: Table) -> None:
    """Mittelhand plays Herz after 18, wins with 80 Augen 'mit 1': +20."""
    t.say("M 18", "V passe", "H passe")
    t.take_skat()
    snap = t.snap
    t.scan("D7", "D8")
    t.declare("hearts")
    t.ok(EnterResult(7, 80, 1))
    seats = {s.position: s.seat for s in t.snap.seats if s.position is not None}
    t.ok(Confirm(seats[0]), Confirm(seats[1]))
    assert snap is not None


def passed_in(t: Table) -> None:
    t.say("M passe", "H passe", "V passe")


def test_a_player_who_joins_pays_and_receives_only_for_the_games_he_sat_at() -> None:
    """ISkO 3.5.3: the declarer is paid by each of the Gegenpartei of that game."""
    t = Table("Anna", "Bernd", "Carla", scoring="classic", stake="1")
    won_herz(t)          # Anna deals: Bernd is Vorhand... Carla (Mittelhand) wins +20
    passed_in(t)
    passed_in(t)
    t.ok(JoinPlayer("Dora"))
    t.ok(EndSeries())
    end = t.snap.end
    assert end is not None
    assert end.amounts == (-20, -20, 40, 0)  # Dora was not at the game
    assert sum(end.amounts) == 0
