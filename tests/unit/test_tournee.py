"""Tournée-Skat (rules/001, section "Tournee-Skat") in the core: the profile, its games, the
records it refuses and its list. The text's numbers are cases in tests/data/values/tournee.json."""

from __future__ import annotations

from typing import Any

import pytest

from device.declaration import Declaration, Level
from device.errors import DeclarationError, RecordError
from device.games import GameType
from device.listdoc import ListDocumentError, parse_list_document
from device.profile import ISKO, TOURNEE, RuleProfile, find_profile
from device.record import result_to_json, score_record
from device.skatform import SkatForm, TourneeGame
from device.value import Play, bid_values, score_game
from tests.rule_text import rule_text

WON = {"matadors": 1, "declarer_points": 70, "declarer_tricks": 6}


def score(record: dict[str, Any], profile: RuleProfile = TOURNEE) -> dict[str, Any]:
    return result_to_json(score_record({"bid": 10, **record}, profile=profile))


def refusal(record: dict[str, Any], profile: RuleProfile = TOURNEE) -> RecordError:
    with pytest.raises(RecordError) as info:
        score_record({"bid": 10, **record}, profile=profile)
    return info.value


def test_the_profile_is_found_by_name_and_survives_json() -> None:
    assert find_profile("tournee") is TOURNEE
    assert TOURNEE.form is SkatForm.TOURNEE and TOURNEE.schneider_at == 91 and TOURNEE.ramsch
    assert RuleProfile.from_json(TOURNEE.to_json()) == TOURNEE
    assert TOURNEE.variants_de()[0].startswith("Tournee-Skat: Tournee 5/6/7/8/12, Solo 9/10/11/12/20, Guckser 16")


def test_the_sections_values_are_the_text_s() -> None:
    text = rule_text("001_")
    section = text[text.index("Tournee-Skat\n\nDieses Spiel"):text.index("Dänischer Skat\n\nSkat ist")]
    for words in ("Karo 5", "Grand 12", "Kreuz 12", "Grand 20", "Der Grundwert ist 16", "20 Punkte wert",
                  "40 Punkte wert", "Der Grundwert ist 24", "91 Augenpunkte"):
        assert words in section, words


def test_no_ordinary_skat_games_the_record_names_the_field_and_the_profile() -> None:
    ordinary = refusal({"game": "clubs", **WON})
    assert ordinary.field == "tournee" and "rule profile 'tournee'" in ordinary.reason
    kreuz_hand = refusal({"game": "clubs", "hand": True, **WON})
    assert kreuz_hand.field == "hand" and "rule profile 'tournee'" in kreuz_hand.reason
    assert kreuz_hand.german == "Kreuz Hand gibt es im Tournee-Skat nicht: ohne Skat heißt es Solo"
    null_hand = refusal({"game": "null", "hand": True, "declarer_tricks": 0})
    assert null_hand.field == "hand"


def test_only_grand_and_null_are_played_ouvert() -> None:
    suit_ouvert = refusal({"game": "hearts", "ouvert": True, "matadors": 1, "declarer_points": 120, "declarer_tricks": 10})
    assert suit_ouvert.field == "ouvert" and "Null ouvert and Grand ouvert" in suit_ouvert.reason
    solo_ouvert = refusal({"game": "grand", "solo": True, "ouvert": True, "matadors": 1, "declarer_points": 120,
                           "declarer_tricks": 10})
    assert solo_ouvert.field == "ouvert"


def test_the_game_fields_are_checked() -> None:
    assert refusal({"game": "hearts", "tournee": "third", **WON}).field == "tournee"
    assert refusal({"game": "hearts", "solo": "yes", **WON}).field == "solo"
    two = refusal({"game": "grand", "solo": True, "guckser": True, **WON})
    assert two.field == "guckser" and "not two" in two.reason
    assert "Grand" in refusal({"game": "clubs", "guckser": True, **WON}).reason
    announced = refusal({"game": "clubs", "tournee": "first", "announced": "schneider", "matadors": 1,
                         "declarer_points": 95, "declarer_tricks": 8})
    assert announced.field == "announced" and "only in a Solo" in announced.reason
    assert refusal({"game": "null", "solo": True, "declarer_tricks": 0}).field == "solo"


def test_the_turned_card_decides_the_trump_a_jack_allows_grand() -> None:
    assert score({"game": "spades", "tournee": "first", "turned_card": "S7", **WON})["score"] == 14
    assert score({"game": "grand", "tournee": "second", "turned_card": "DJ", **WON})["score"] == 24
    assert score({"game": "diamonds", "tournee": "second", "turned_card": "DJ", **WON})["score"] == 10
    wrong = refusal({"game": "hearts", "tournee": "first", "turned_card": "S7", **WON})
    assert wrong.field == "turned_card" and "Pik" in wrong.reason and wrong.german.startswith("Pik 7 aufgedeckt")
    assert refusal({"game": "grand", "tournee": "first", "turned_card": "SA", **WON}).field == "turned_card"
    assert refusal({"game": "grand", "tournee": "first", "turned_card": "XX", **WON}).field == "turned_card"
    assert refusal({"game": "grand", "guckser": True, "turned_card": "SJ", **WON}).field == "turned_card"


def test_other_profiles_refuse_the_tournee_fields() -> None:
    for field, value in (("tournee", "first"), ("solo", True), ("guckser", True), ("turned_card", "HA")):
        error = refusal({"game": "grand", field: value, "bid": 24, **WON}, profile=ISKO)
        assert error.field == field and "rule profile 'isko'" in error.reason
    with pytest.raises(DeclarationError, match="rule profile 'isko'"):
        score_game(Declaration.make(GameType.GRAND, tournee=TourneeGame.GUCKSER), 24, Play(70, 6, 1))


def test_bids_are_the_values_of_tournee_games() -> None:
    values = bid_values(TOURNEE)
    assert {10, 12, 14, 16, 18, 24, 32, 40, 216} <= values and 23 not in values
    assert min(values) == 10 and max(values) == 216
    assert refusal({"game": "hearts", "tournee": "first", "bid": 23, **WON}).field == "bid"


def test_a_null_above_its_value_is_refused_the_text_has_no_rule_for_it() -> None:
    error = refusal({"game": "null", "bid": 24, "matadors": 1})
    assert error.field == "bid" and "gives no rule" in error.reason


def test_the_english_words_keep_the_tournee_terms() -> None:
    result = score_record({"game": "hearts", "tournee": "second", "bid": 10, **WON}, profile=TOURNEE).result
    assert result.describe_en() == "Hearts Tournee (second card) with 1, game 2 = 12, won +12"
    solo = Declaration.make(GameType.CLUBS, hand=True, announced=Level.SCHWARZ, tournee=TourneeGame.SOLO,
                            form=SkatForm.TOURNEE)
    assert solo.describe_de() == "Kreuz Solo Schwarz angesagt"


def test_a_tournee_list_prints_with_the_players_terms() -> None:
    document = parse_list_document({
        "players": ["Anna", "Bernd", "Carla"], "scoring": "classic", "profile": "tournee",
        "entries": [
            {"kind": "game", "seat": 1, "game": "hearts", "tournee": "first", "bid": 10, **WON},
            {"kind": "game", "seat": 2, "game": "grand", "guckser": True, "bid": 32, "matadors": -1,
             "declarer_points": 55, "declarer_tricks": 5},
            {"kind": "ramsch", "scores": [0, 0, 10]},
            {"kind": "game", "seat": 1, "game": "clubs", "solo": True, "bid": 24, **WON},
        ]})
    from device.table.listing import paper_rows

    rows = paper_rows(document.rows, document.figures())
    assert [r.short for r in rows] == ["Herz T", "Guckser", "Ramsch", "Kreuz Solo"]
    assert [r.base for r in rows] == [6, 16, None, 12]
    assert document.figures().classic == (0, 12 + 24, -64 + 10)  # Hinterhand Carla: fewest Augen, +10
    with pytest.raises(ListDocumentError) as bad:
        parse_list_document({"players": ["Anna", "Bernd", "Carla"], "profile": "tournee",
                             "entries": [{"kind": "game", "seat": 1, "game": "clubs", "hand": True, "bid": 10, **WON}]})
    assert bad.value.where == "entries[0].hand" and "rule profile 'tournee'" in bad.value.reason
