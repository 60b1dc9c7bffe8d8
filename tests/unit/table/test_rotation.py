"""Dealer rotation, sitting out, Vorhand, rounds and players joining (ISkO 3.1, 3.2, 3.3.7)."""

from __future__ import annotations

import random

import pytest

from device.table.commands import EndSeries, JoinPlayer, LeavePlayer, Undo
from device.table.rotation import (
    Rotation, RotationError, active_seats, draw_seating, sitting_out, tournament_length,
)
from tests.table_helpers import Table, german


@pytest.mark.parametrize("size", [3, 4, 5])
def test_vorhand_is_the_dealers_left_neighbour_and_the_three_players_differ(size: int) -> None:
    for dealer in range(size):
        seats = active_seats(dealer, size)
        assert seats[0] == (dealer + 1) % size
        assert len(set(seats)) == 3
        assert set(seats) | set(sitting_out(dealer, size)) == set(range(size))


def test_at_three_the_dealer_is_hinterhand() -> None:
    assert [active_seats(d, 3)[2] for d in range(3)] == [0, 1, 2]
    assert sitting_out(1, 3) == ()


def test_at_four_the_dealer_sits_out() -> None:
    assert [sitting_out(d, 4) for d in range(4)] == [(0,), (1,), (2,), (3,)]
    assert active_seats(3, 4) == (0, 1, 2)


def test_at_five_the_dealer_and_the_player_across_sit_out() -> None:
    # ISkO 3.2.7: "seine beiden linken Nachbarn und der rechte" play.
    assert active_seats(0, 5) == (1, 2, 4)
    assert [sitting_out(d, 5) for d in range(5)] == [(0, 3), (1, 4), (0, 2), (1, 3), (2, 4)]


def test_rounds_and_tournament_lengths() -> None:
    r = Rotation()
    dealers = []
    for _ in range(8):
        dealers.append(r.dealer(4))
        r = r.advance(4)
    assert dealers == [0, 1, 2, 3, 0, 1, 2, 3] and r == Rotation(3, 0)
    assert r.back(4) == Rotation(2, 3) and Rotation(1, 2).back(4) == Rotation(1, 1)
    assert tournament_length(3) == 36 and tournament_length(4) == 48
    with pytest.raises(RotationError):
        tournament_length(5)
    with pytest.raises(RotationError):
        active_seats(0, 6)


def test_drawing_seats_is_a_permutation_repeatable_with_the_seed() -> None:
    names = ["Anna", "Bernd", "Carla", "Dora", "Emil"]
    drawn = draw_seating(names, random.Random(5))
    assert sorted(drawn) == sorted(names)
    assert drawn == draw_seating(names, random.Random(5))
    assert {draw_seating(names, random.Random(s)) for s in range(20)} != {drawn}


def test_auslosen_through_the_service_uses_the_injected_generator() -> None:
    a = Table("Anna", "Bernd", "Carla", "Dora", seed=7, draw=True)
    b = Table("Anna", "Bernd", "Carla", "Dora", seed=7, draw=True)
    assert a.snap.players == b.snap.players
    assert sorted(a.snap.players) == ["Anna", "Bernd", "Carla", "Dora"]
    assert a.service.state.setup is not None and a.service.state.setup.drawn


def test_eingepasst_passes_the_deal_on_and_nobody_deals_twice_in_a_row() -> None:
    table = Table("Anna", "Bernd", "Carla", "Dora")
    dealers = []
    for _ in range(9):
        dealers.append(table.snap.dealer_name)
        assert table.snap.sitting_out == (table.snap.dealer_name,)
        table.say("M passe", "H passe", "V passe")
    assert dealers == ["Anna", "Bernd", "Carla", "Dora"] * 2 + ["Anna"]
    assert all(a != b for a, b in zip(dealers, dealers[1:]))
    table.assert_list_entry(1, kind="passed_in", dealer="Anna", text="eingepasst")
    assert table.snap.round_no == 3


def test_seat_views_name_positions_dealer_and_who_sits_out_at_five() -> None:
    table = Table("Anna", "Bernd", "Carla", "Dora", "Emil")
    snap = table.snap
    assert snap.positions == ("Bernd", "Carla", "Emil")
    assert snap.sitting_out == ("Anna", "Dora")
    by_name = {s.name: s for s in snap.seats}
    assert by_name["Anna"].dealer and by_name["Anna"].sits_out and by_name["Anna"].position is None
    assert by_name["Emil"].position_name == "Hinterhand" and by_name["Bernd"].position_name == "Vorhand"
    assert [s.number for s in snap.seats] == [1, 2, 3, 4, 5]
    panel = table.service.panel_view()
    assert panel.dealer_seat == 0 and panel.sitting_out == frozenset({0, 3})


def test_a_new_player_joins_only_at_the_start_of_a_round_to_the_right_of_platz_1() -> None:
    table = Table("Anna", "Bernd", "Carla")
    table.say("M passe", "H passe", "V passe")  # game 1 eingepasst, Bernd deals game 2
    refusal = table.refused(JoinPlayer("Dora"), "not_at_round_start")
    assert "3.1.2" in german(refusal) and "Spiel 3" in german(refusal)
    assert not table.snap.may_join
    for _ in range(2):
        table.say("M passe", "H passe", "V passe")
    assert table.snap.may_join
    table.ok(JoinPlayer("Dora"))
    table.refused(Undo(), "nothing_to_undo")  # the eingepasst before the new round stays
    snap = table.snap
    assert snap.players == ("Anna", "Bernd", "Carla", "Dora")
    assert snap.dealer_name == "Anna" and snap.sitting_out == ("Anna",)  # seat 1 deals the new round
    assert snap.round_no == 2
    table.say("M 18")
    table.refused(JoinPlayer("Emil"), "not_at_round_start")


def test_replacing_and_leaving_at_the_start_of_a_round() -> None:
    table = Table("Anna", "Bernd", "Carla", "Dora")
    table.refused(JoinPlayer("Carla"), "bad_setup")
    table.ok(JoinPlayer("Emil", replaces=1))
    assert table.snap.players == ("Anna", "Emil", "Carla", "Dora")
    table.ok(LeavePlayer(3))
    assert table.snap.players == ("Anna", "Emil", "Carla")
    table.refused(LeavePlayer(0), "table_too_small")
    table.ok(JoinPlayer("Fritz"), JoinPlayer("Gerd"))
    table.refused(JoinPlayer("Hans"), "table_full")


def test_a_changed_table_is_scored_per_person() -> None:
    table = Table("Anna", "Bernd", "Carla", scoring="classic")
    for _ in range(3):
        table.say("M passe", "H passe", "V passe")
    table.ok(JoinPlayer("Dora"))
    table.say("M passe", "H passe", "V passe")
    snap = table.snap
    assert snap.list is not None
    assert snap.list.players == ("Anna", "Bernd", "Carla", "Dora")
    assert snap.list.rows[0].points == (0, 0, 0, None) and snap.list.rows[3].points == (0, 0, 0, 0)
    table.ok(EndSeries())
    assert snap.end is not None and len(table.snap.end.ranking) == 4  # type: ignore[union-attr]
