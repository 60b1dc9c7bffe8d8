"""Texas-Skat (rules/001, section "Texas-Skat") in the core: the profile, its values and the
records it refuses. The text's numbers themselves are cases in tests/data/values/texas.json."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from device.declaration import Declaration, Level, may_look_at_discards
from device.errors import DeclarationError, RecordError
from device.games import GameType
from device.profile import ISKO, TEXAS, RuleProfile, find_profile
from device.record import result_to_json, score_record
from device.value import Play, bid_values, score_game
from tests.rule_text import rule_text

GRAND_OUVERT_MIT_4 = {"game": "grand", "ouvert": True, "bid": 18, "matadors": 4, "declarer_points": 120,
                      "declarer_tricks": 10}


def test_the_profile_is_found_by_name_and_survives_json() -> None:
    texas = find_profile("texas")
    assert texas is TEXAS
    assert (texas.grand_base, texas.grand_ouvert_base, texas.null_values, texas.schneider_at) == (16, 16, (20, 30, 40, 60), 91)
    assert texas.announce_after_skat and texas.ouvert_doubles
    assert RuleProfile.from_json(texas.to_json()) == texas
    assert (ISKO.grand_base, ISKO.null_values, ISKO.schneider_at) == (24, (23, 35, 46, 59), 90)


def test_the_text_s_example_reads_as_the_text_counts_it() -> None:
    text = rule_text("001_")
    assert "Schwarz angesagt 9, offen (Ouvert) 18; 18-mal 16 ergibt 288 Punkte" in text
    result = score_record(GRAND_OUVERT_MIT_4, profile=TEXAS).result
    assert result.describe_de() == ("Grand ouvert nach Skataufnahme mit 4, Spiel 5, Schneider 6, Schneider angesagt 7, "
                                    "Schwarz 8, Schwarz angesagt 9, ouvert doppelt 18 = 288, gewonnen +288")
    assert result.describe_en().endswith("Schwarz announced 9, ouvert doubled 18 = 288, won +288")


def test_isko_refuses_what_texas_allows_naming_the_field_and_the_profile() -> None:
    with pytest.raises(RecordError) as ouvert:
        score_record(GRAND_OUVERT_MIT_4)
    assert ouvert.value.field == "ouvert" and "rule profile 'isko'" in ouvert.value.reason
    late_schneider = {"game": "clubs", "announced": "schneider", "bid": 18, "matadors": 1, "declarer_points": 95,
                      "declarer_tricks": 8}
    with pytest.raises(RecordError) as announced:
        score_record(late_schneider)
    assert announced.value.field == "announced" and "rule profile 'isko'" in announced.value.reason
    assert result_to_json(score_record(late_schneider, profile=TEXAS))["score"] == 48


def test_texas_refuses_an_isko_bid_and_kontra_naming_the_field_and_the_profile() -> None:
    bid_23 = {"game": "clubs", "bid": 23, "matadors": 1, "declarer_points": 70, "declarer_tricks": 6}
    assert result_to_json(score_record(bid_23))["score"] == 24
    with pytest.raises(RecordError) as bid:
        score_record(bid_23, profile=TEXAS)
    assert bid.value.field == "bid" and "under the rule profile 'texas'" in bid.value.reason
    kontra = {"game": "grand", "bid": 32, "matadors": 1, "declarer_points": 70, "declarer_tricks": 6, "kontra": True}
    with pytest.raises(RecordError) as said:
        score_record(kontra, profile=TEXAS)
    assert said.value.field == "kontra" and "rule profile 'texas'" in said.value.reason


def test_bid_values_follow_the_profile_s_games() -> None:
    texas = bid_values(TEXAS)
    assert {20, 30, 40, 60, 32, 48, 288, 320} <= texas  # Null, Grand mit 1/2, the two Grand ouvert mit 4
    assert not {23, 35, 46, 59} & texas  # the ISkO's Null values
    assert max(texas) == 34 * 12  # Kreuz ouvert mit 11: (11 + 6) doubled
    assert 32 not in bid_values() and 23 in bid_values()
    grand_32 = {"game": "grand", "bid": 32, "matadors": 1, "declarer_points": 70, "declarer_tricks": 6}
    assert result_to_json(score_record(grand_32, profile=TEXAS))["score"] == 32
    with pytest.raises(RecordError, match="bid: 32 is not a bid value"):
        score_record(grand_32)


def test_a_null_above_its_texas_value_is_overbid() -> None:
    """Null (20) after 22: ISkO 3.4.4 as in German Skat, at the Texas value."""
    out = result_to_json(score_record({"game": "null", "bid": 22, "matadors": 1}, profile=TEXAS))
    assert out["won"] is False and out["value"] == 22 and out["score"] == -44  # Pik mit 1, Spiel 2
    assert out["text"].startswith("Null (20) bei Reizwert 22")


def test_an_overbid_texas_game_is_capped_at_the_highest_texas_value() -> None:
    """Kreuz ouvert Hand mit 11, (11 + 6) doubled x 12 = 408, is the highest Texas game: a Grand
    overbid at 408 would be lost at 26 x 16 = 416 but is capped there (court ruling on 5.4.2)."""
    declaration = Declaration.make(GameType.GRAND, late_announcements=True)
    result = score_game(declaration, 408, Play(70, 6, matadors=1), profile=TEXAS)
    assert result.overbid and result.value == 408 and result.score == -816
    assert score_game(declaration, 264, Play(70, 6, matadors=1)).value == 264  # the ISkO's cap stays


def test_a_late_announcement_is_refused_by_a_profile_without_it() -> None:
    late = Declaration.make(GameType.HEARTS, announced=Level.SCHWARZ, late_announcements=True)
    with pytest.raises(DeclarationError, match="rule profile 'isko'"):
        score_game(late, 18, Play(120, 10, matadors=1))
    assert score_game(late, 18, Play(120, 10, matadors=1), profile=TEXAS).value == 60


def test_the_table_offers_texas() -> None:
    from device.profile import PROFILES, TABLE_PROFILES

    assert set(TABLE_PROFILES) <= set(PROFILES) and "texas" in TABLE_PROFILES


DISCARDS = json.loads((Path(__file__).resolve().parents[1] / "data" / "variants" / "discards.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", DISCARDS["cases"], ids=[c["source"][:70] for c in DISCARDS["cases"]])
def test_looking_at_the_discards(case: dict[str, Any]) -> None:
    allowed = may_look_at_discards(find_profile(case["profile"]), skat_taken=case["skat_taken"],
                                   cards_played=case["cards_played"])
    assert allowed is case["allowed"], case["source"]


def test_looking_at_the_discards_refuses_a_count_of_cards_that_cannot_be() -> None:
    with pytest.raises(DeclarationError, match="cards_played"):
        may_look_at_discards(TEXAS, skat_taken=True, cards_played=31)
