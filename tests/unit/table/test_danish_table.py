"""Danish Skat (rules/001, section "Dänischer Skat") played at the table: its bid values (Grand
20, Nul 23), ouvert as one more level of any game also after taking up the skat, the three
Null games Nul, Nul ouvert and Dækker (a Nul Hand refused naming the profile; the Århus club
plays it), the Danish tournament scoring of the list, and which profiles the setup accepts."""

from __future__ import annotations

import pytest

from device.profile import DANISH, ISKO, PROFILES, TABLE_PROFILES
from device.table.commands import Declare, EnterResult, OpenList, ProposeCorrection
from device.value import bid_values
from tests.table_helpers import Table, english, german


def danish(profile: str = "danish") -> Table:
    # Anna deals: Vorhand Bernd, Mittelhand Carla, Hinterhand Anna
    return Table("Anna", "Bernd", "Carla", profile=profile, scoring="danish")


def test_the_bid_buttons_are_the_danish_values() -> None:
    bidding = danish().snap.bidding
    assert bidding is not None
    assert bidding.values[:6] == (18, 20, 22, 23, 24, 27) and set(bidding.values) == bid_values(DANISH)
    assert 69 in bidding.values and 35 not in bidding.values  # Dækker; the Århus Nul is no Danish bid


def test_ouvert_is_a_level_of_any_game_after_the_skat_too() -> None:
    t = danish()
    t.say("M 20", "V passe", "H passe")
    t.take_skat()
    options = {o.key: o for o in t.snap.declaration.options}  # type: ignore[union-attr]
    assert options["grand/ouvert"].allowed and options["grand/ouvert"].label == "Grand ouvert"
    assert options["null/ouvert"].label == "Nul ouvert" and options["null"].label == "Nul"
    assert not options["hearts/hand/ouvert/schneider"].allowed  # a hand game: not after the skat
    t.declare("grand/ouvert")
    t.ok(EnterResult(5, 55, 2))  # 001's example: Grand ouvert mit 2 lost, 80
    result = t.snap.result
    assert result is not None and result.score == -160, result.text
    assert "Grand ouvert mit 2, Spiel 3, ouvert 4 = 80" in result.text


def test_a_hand_game_ouvert_announced_schneider_adds_each_level() -> None:
    t = danish()
    t.say("M 18", "V passe", "H passe")
    t.declare("hearts/hand/ouvert/schneider")
    t.ok(EnterResult(10, 120, 1))
    result = t.snap.result
    assert result is not None and result.text.startswith("Carla: Herz Hand Schneider angesagt ouvert mit 1"), result.text


def test_nul_hand_is_refused_naming_the_profile_and_the_aarhus_club_plays_it() -> None:
    t = danish()
    t.say("M 23", "V passe", "H passe")
    options = {o.key: o for o in t.snap.declaration.options}  # type: ignore[union-attr]
    assert options["null/hand/ouvert"].allowed and options["null/hand/ouvert"].label == "Dækker"
    assert options["null/hand"].refused == "declaration_not_in_profile"
    refusal = t.refused(Declare.parse("null/hand"), "not_in_profile")
    assert german(refusal) == "Im Dänischen Skat nicht erlaubt — Nul Hand"
    assert english(refusal) == "not allowed in Danish Skat: Nul Hand"
    aarhus = danish("danish_aarhus")
    aarhus.say("M 46", "V passe", "H passe")
    aarhus.declare("null/hand")
    aarhus.ok(EnterResult(0, 0))
    assert aarhus.snap.result is not None and aarhus.snap.result.score == 46


def test_the_list_gives_each_defender_the_value_of_a_lost_game_and_a_correction_keeps_it() -> None:
    t = danish()
    t.say("M 18", "V passe", "H passe")
    t.take_skat()
    t.declare("grand/ouvert")
    t.ok(EnterResult(5, 55, 2))
    t.confirm("Carla", "Bernd")
    view = t.snap.list
    assert view is not None and view.system == "danish"
    assert view.totals == (80, 80, -160)  # Anna, Bernd, Carla: each defender receives 80
    nul_hand = {"game": "null", "hand": True, "ouvert": False, "announced": None, "bid": 18, "declarer_tricks": 0}
    refusal = t.refused(ProposeCorrection(1, nul_hand, 2, 0), "not_in_profile")
    assert german(refusal) == "Im Dänischen Skat nicht erlaubt — Nul Hand"
    assert english(refusal) == "not allowed in Danish Skat: hand True"
    t.ok(ProposeCorrection(1, {"game": "grand", "hand": False, "ouvert": True, "announced": None, "bid": 18,
                                "matadors": 2, "declarer_points": 70, "declarer_tricks": 6}, 2, 0))
    assert t.snap.correction is not None


def test_the_setup_opens_only_the_profiles_the_table_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(PROFILES, "club", ISKO.with_(name="club", kontra=True))  # registered, not offered
    t = Table("Anna", "Bernd", "Carla", open=False)
    refusal = t.refused(OpenList(("Anna", "Bernd", "Carla"), profile="club"), "bad_setup")
    assert german(refusal).startswith("Das Regelprofil 'club' wird am Tisch nicht gespielt (nur isko, kneipe")
    assert set(TABLE_PROFILES) == set(PROFILES) - {"club"}  # every profile of the core is played at the table
