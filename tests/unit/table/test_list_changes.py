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


def test_a_wrong_last_passe_of_the_series_can_be_taken_back_until_the_list_is_signed() -> None:
    """ISkO 3.2.11: the last round is closed only when the list is signed."""
    from device.table import ConfirmList, Undo

    t = Table("Anna", "Bernd", "Carla", series_length=2)
    passed_in(t)
    passed_in(t)
    assert t.snap.phase == "series_over" and t.snap.may_undo
    t.ok(Undo())  # only the wrong last "passe" is taken back: Vorhand decides again
    assert t.snap.phase == "bidding" and len(t.service.state.rows) == 1
    t.say("V 18")  # Vorhand plays after all
    assert t.snap.phase == "declaring"
    t.ok(Undo())
    t.say("V passe")
    assert t.snap.phase == "series_over"
    t.ok(ConfirmList(0))  # once somebody signed, only a correction changes the list
    assert t.do(Undo()).refusals[0].code == "series_over"


def test_an_eingepasst_with_a_correction_pending_is_not_withdrawn_under_it() -> None:
    from device.table import ProposeCorrection, Undo

    t = Table("Anna", "Bernd", "Carla")
    passed_in(t)
    t.ok(ProposeCorrection(1, None, None, 0))
    assert not t.snap.may_undo
    assert t.do(Undo()).refusals[0].code == "nothing_to_undo"
    assert t.snap.correction is not None  # the screen still draws, the correction still shows


def test_nobody_joins_or_leaves_while_a_correction_waits_for_consent() -> None:
    """Consents are given by seat; the seats must not shift under them (ISkO 5.5.3)."""
    from device.table import LeavePlayer, ProposeCorrection, WithdrawCorrection

    t = Table("Anna", "Bernd", "Carla", "Dora")
    for _ in range(4):
        passed_in(t)
    t.ok(ProposeCorrection(1, None, None, 3))
    assert not t.snap.may_join
    assert t.do(LeavePlayer(1)).refusals[0].code == "correction_pending"
    assert t.do(JoinPlayer("Emil")).refusals[0].code == "correction_pending"
    t.ok(WithdrawCorrection())
    t.ok(LeavePlayer(1))
    assert t.service.state.seating == ("Anna", "Carla", "Dora")


def grand_hand(t: Table) -> None:
    """Mittelhand plays Grand Hand after 18, wins with 80 Augen 'mit 2': (2+1+1) x 24 = 96."""
    t.say("M 18", "V passe", "H passe")
    t.declare("grand/hand")
    t.ok(EnterResult(7, 80, 2))
    seats = {s.position: s.seat for s in t.snap.seats if s.position is not None}
    t.ok(Confirm(seats[0]), Confirm(seats[1]))


def test_bierlachs_goes_on_across_a_change_of_table_and_the_limit_follows_the_table() -> None:
    """rules/003: whoever falls below the limit (301 at three, 401 at four) loses the Bierlachs;
    a won game counts against all others of the list."""
    t = Table("Anna", "Bernd", "Carla", scoring="bierlachs")
    grand_hand(t)  # Carla (MH) wins 96: Anna -96, Bernd -96
    grand_hand(t)  # Bernd deals, Anna MH wins: Bernd -192, Carla -96
    passed_in(t)
    assert t.snap.list is not None and t.snap.list.totals == (-96, -192, -96)
    t.ok(JoinPlayer("Dora"))
    for _ in range(3):  # Anna deals at four: Carla (MH) wins; then Dora (MH) ...; then Anna (MH)
        grand_hand(t)
    t.ok(EndSeries())
    end = t.snap.end
    assert end is not None and end.bierlachs_losses is not None
    # Bernd stood at -192 and went on from there: -288, -384, -480 < -401 at four: he lost.
    assert end.bierlachs_losses == (0, 1, 0, 0)
