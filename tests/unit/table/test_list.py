"""Confirming results, the list with running totals, corrections with consent, closing."""

from __future__ import annotations

from fractions import Fraction

from device.hardware import Button, ButtonPressed
from device.scoring import Game, PassedIn, ScoreSheet, ScoringSystem, running_totals, settle, standings
import pytest

from device.table.commands import (
    Confirm, ConfirmList, ConsentCorrection, EndSeries, EnterResult, JoinPlayer, OpenList, ProposeCorrection, Undo,
    WithdrawCorrection,
)
from tests.table_helpers import Table, german
from ui.i18n import transfer_text


def clubs_hand(table: Table, *, tricks: int = 6, points: int = 75, matadors: int = 2) -> None:
    """Mittelhand plays Kreuz Hand for 18 and the result is typed in."""
    table.say("M 18", "V passe", "H passe")
    table.declare("clubs/hand")
    table.ok(EnterResult(tricks, points, matadors))


def test_a_result_enters_the_list_only_with_the_declarer_and_one_defender() -> None:
    table = Table("Anna", "Bernd", "Carla", "Dora")  # Anna deals and sits out: Bernd V, Carla M, Dora H
    clubs_hand(table)
    result = table.snap.result
    # the dealer who sits out keeps the list and confirms for the Gegenpartei (SkWO 5.1, 7.2.2)
    assert result is not None and result.may_confirm == (1, 2, 3, 0)
    table.confirm("Bernd")
    assert german(table.refused(Confirm(table.seat("Bernd")), "already_confirmed")) == "Platz 2 (Bernd) hat schon bestätigt"
    table.confirm("Dora")  # both defenders: still waiting for the declarer
    table.assert_phase("result")
    result = table.snap.result
    assert result is not None and result.confirmed == ("Bernd", "Dora") and "Alleinspieler (Carla)" in result.waiting_for
    table.confirm("Carla")
    table.assert_list_entry(1, declarer="Carla", score=48, dealer="Anna")
    assert table.snap.dealer_name == "Bernd"


def test_a_change_to_the_result_drops_the_confirmations_given() -> None:
    table = Table("Anna", "Bernd", "Carla")
    clubs_hand(table)
    table.confirm("Carla")
    table.undo()  # the typed-in result was wrong
    table.ok(EnterResult(7, 80, 2))
    result = table.snap.result
    assert result is not None and result.confirmed == ()


def test_the_panels_confirm_button_is_the_dealers_tap() -> None:
    table = Table("Anna", "Bernd", "Carla")  # at three the dealer Anna is Hinterhand, a defender
    clubs_hand(table)
    table.press("confirm")
    assert table.snap.result is not None and table.snap.result.confirmed == ("Anna",)
    table.confirm("Carla")
    table.assert_list_entry(1, score=48)
    four = Table("Anna", "Bernd", "Carla", "Dora")
    clubs_hand(four)
    four.press("confirm")  # the dealer sits out at four: he confirms for the Gegenpartei
    assert four.snap.result is not None and four.snap.result.confirmed == ("Anna",)
    back = four.press("back")
    assert not back.refusals and four.snap.phase == "playing"
    assert four.do(ButtonPressed(Button.MENU)).refusals[0].code == "not_now"


def test_the_list_shows_running_totals_of_the_scoring_system() -> None:
    table = Table("Anna", "Bernd", "Carla")
    clubs_hand(table); table.confirm("Carla", "Bernd")  # Carla +48
    table.say("M passe", "H passe", "V passe")  # game 2 eingepasst (Bernd dealt)
    clubs_hand(table, tricks=3, points=40)  # Carla deals game 3: Mittelhand is Bernd, lost 48 -> -96
    table.confirm("Bernd", "Anna")
    sheet = ScoreSheet(3, (Game(2, 48, True, (1, 2, 0)), PassedIn(), Game(1, -96, False, (0, 1, 2))))
    snap = table.snap
    assert snap.list is not None and snap.list.system_label == "Seeger-Fabian"
    assert [r.totals for r in snap.list.rows] == list(running_totals(sheet, ScoringSystem.SEEGER_FABIAN))
    assert [r.kind for r in snap.list.rows] == ["game", "passed_in", "game"]
    assert [r.dealer for r in snap.list.rows] == ["Anna", "Bernd", "Carla"]
    assert snap.list.rows[2].points == (0, -96, 0)
    assert {s.name: s.total for s in snap.seats} == {"Anna": 40, "Bernd": -146, "Carla": 98 + 40}


def test_open_ended_list_ends_with_totals_ranking_and_settlement() -> None:
    table = Table("Anna", "Bernd", "Carla", stake="1/2", scoring="classic")
    clubs_hand(table); table.confirm("Carla", "Bernd")
    table.say("M 18", "V passe", "H passe"); table.declare("clubs/hand")  # Bernd deals: Anna is M
    table.ok(EnterResult(3, 40, 2)); table.confirm("Anna", "Carla")
    table.ok(EndSeries())
    table.assert_phase("series_over")
    sheet = ScoreSheet(3, (Game(2, 48, True, (1, 2, 0)), Game(0, -96, False, (2, 0, 1))))
    end = table.snap.end
    assert end is not None
    assert end.totals == (-96, 0, 48)
    assert [(s.rank, s.name) for s in end.ranking] == [
        (s.rank, ("Anna", "Bernd", "Carla")[s.player]) for s in standings(sheet, ScoringSystem.CLASSIC)]
    money = settle((-96, 0, 48), Fraction(1, 2))
    assert end.amounts == money.amounts and sum(end.amounts) == 0
    assert end.transfers[0].payer == "Anna" and end.transfers[0].amount > 0
    assert transfer_text(end.transfers[0], "de").startswith("Anna zahlt")
    assert end.waiting_for == ("Anna", "Bernd", "Carla")


def test_a_series_of_fixed_length_ends_by_itself() -> None:
    table = Table("Anna", "Bernd", "Carla", series_length=2)
    assert table.snap.game_text == "Spiel 1 von 2"
    table.say("M passe", "H passe", "V passe")
    assert table.snap.game_text == "Spiel 2 von 2"
    clubs_hand(table); table.confirm("Anna", "Bernd")
    table.assert_phase("series_over")
    table.refused(Undo(), "series_over")
    table.refused(EndSeries(), "series_over")


def test_corrections_need_every_players_consent_and_keep_the_original() -> None:
    table = Table("Anna", "Bernd", "Carla", "Dora", scoring="classic")
    clubs_hand(table); table.confirm("Carla", "Dora")  # entry 1: Carla +48
    wrong = {"game": "clubs", "hand": True, "bid": 18, "matadors": 2, "declarer_points": 95, "declarer_tricks": 8}
    table.refused(ProposeCorrection(1, wrong, table.seat("Anna"), 0), "bad_correction")  # Anna sat out
    table.refused(ProposeCorrection(1, {**wrong, "declarer_points": 130}, 2, 0), "bad_correction")
    table.refused(ProposeCorrection(2, wrong, 2, 0), "bad_entry")
    table.ok(ProposeCorrection(1, wrong, table.seat("Carla"), table.seat("Bernd")))
    c = table.snap.correction
    assert c is not None and c.proposed_by == "Bernd" and c.waiting_for == ("Anna", "Carla", "Dora")
    assert "Schneider" in c.new_text and "= 48" in c.old_text
    table.refused(ProposeCorrection(1, wrong, 2, 0), "correction_pending")
    table.refused(ConsentCorrection(1), "already_confirmed")
    table.ok(ConsentCorrection(0), ConsentCorrection(2))
    table.assert_list_entry(1, score=48)  # not yet: Dora has not agreed
    table.ok(ConsentCorrection(3))
    row = table.assert_list_entry(1, score=60, text="Schneider")
    assert row.corrected and row.earlier == ("Carla: Kreuz Hand mit 2, Spiel 3, Hand 4 = 48, gewonnen +48",)
    assert table.snap.list is not None and table.snap.list.totals[2] == 60
    # withdraw, and a correction to eingepasst
    table.ok(ProposeCorrection(1, None, None, 0), WithdrawCorrection())
    assert table.snap.correction is None
    table.ok(*(ProposeCorrection(1, None, None, 0), ConsentCorrection(1), ConsentCorrection(2), ConsentCorrection(3)))
    row = table.assert_list_entry(1, kind="passed_in")
    assert len(row.earlier) == 2


def test_the_list_closes_with_every_players_confirmation_and_is_read_only_then() -> None:
    table = Table("Anna", "Bernd", "Carla")
    clubs_hand(table); table.confirm("Carla", "Anna")
    table.refused(ConfirmList(0), "series_running")
    table.ok(EndSeries())
    table.ok(ConfirmList(0), ConfirmList(1))
    # a correction after some signatures: they sign again
    table.ok(ProposeCorrection(1, None, None, 2))
    table.refused(ConfirmList(2), "correction_pending")
    table.ok(ConsentCorrection(0), ConsentCorrection(1))
    assert table.snap.end is not None and table.snap.end.confirmed == ()
    table.press("confirm")  # the last dealer (Anna) signs with the panel
    table.ok(ConfirmList(1))
    table.refused(ConfirmList(1), "already_confirmed")
    table.ok(ConfirmList(2))
    table.assert_phase("closed")
    assert table.snap.end is not None and table.snap.end.closed
    for command in (Undo(), ConfirmList(0), ProposeCorrection(1, None, None, 0), EndSeries()):
        table.refused(command, "list_closed")
    table.ok(OpenList(("Anna", "Bernd", "Carla")))  # a new list may start now
    table.assert_phase("bidding")
    assert table.snap.setup.last_players == ("Anna", "Bernd", "Carla")


def test_setup_is_checked_with_reasons() -> None:
    table = Table(open=False)
    assert table.snap.phase == "setup" and table.snap.list is None
    table.refused(OpenList(("Anna", "Bernd")), "bad_setup")
    table.refused(OpenList(("Anna", "anna", "Carla")), "bad_setup")
    table.refused(OpenList(("Anna", "Bernd", "Carla"), scoring="skatwert"), "bad_setup")
    table.refused(OpenList(("Anna", "Bernd", "Carla"), profile="nope"), "bad_setup")
    table.refused(OpenList(("Anna", "Bernd", "Carla"), stake="-1"), "bad_setup")
    table.refused(OpenList(("Anna", "Bernd", "Carla"), series_length=0), "bad_setup")
    table.refused(OpenList(("A", "B", "C", "D", "E"), scoring="bierlachs"), "bad_setup")
    table.refused(EnterResult(1, 1, 1), "no_list")
    table.ok(OpenList(("Anna", "Bernd", "Carla", "Dora"), scoring="bierlachs"))
    assert table.service.state.setup is not None and table.service.state.setup.bierlachs_limit == 401
    table.refused(OpenList(("Anna", "Bernd", "Carla")), "list_open")


def test_at_five_the_player_across_who_sits_out_does_not_confirm_but_the_dealer_does() -> None:
    table = Table("Anna", "Bernd", "Carla", "Dora", "Emil")  # Anna deals; Dora (across) sits out too
    clubs_hand(table)
    refusal = table.refused(Confirm(table.seat("Dora")), "wrong_confirmer")
    assert "Dora" in german(refusal) and "Alleinspieler" in german(refusal)
    table.press("confirm")  # Anna, the dealer
    table.confirm("Carla")  # the declarer (Mittelhand)
    table.assert_list_entry(1, declarer="Carla", score=48, dealer="Anna")


@pytest.mark.parametrize("name", ["An\u202ena", "Anna\u2066x", "Anna\u200f", "Be\trnd", "Be\nrnd", "Bernd\x1b[31m",
                                  "Car\x85la", "Car\u2028la", "Car\x00la"])
def test_control_and_text_direction_characters_in_a_name_are_refused_in_german(name: str) -> None:
    table = Table(open=False)
    refusal = table.refused(OpenList((name, "Dora", "Emil")), "bad_setup")
    assert "Steuerzeichen oder Schreibrichtungszeichen" in german(refusal) and "U+" in german(refusal)
    table.ok(OpenList(("Jürgen", "Zoë 🂡", "Ðorđe")))  # any script, accents and emoji are fine
    table.refused(JoinPlayer("Fr\u202eitz"), "bad_setup")  # joining later: the same check


def test_stake_and_bierlachs_limit_have_a_range() -> None:
    table = Table(open=False)
    for stake in ("101", float("inf"), 1e400):
        refusal = table.refused(OpenList(("Anna", "Bernd", "Carla"), stake=stake), "bad_setup")
        assert "100" in german(refusal)
    table.refused(OpenList(("Anna", "Bernd", "Carla"), scoring="bierlachs", bierlachs_limit=10**20), "bad_setup")
