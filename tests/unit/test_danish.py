"""Danish Skat (rules/001, section "Dänischer Skat") in the core: the profiles, the records they
refuse and the tournament scoring of a list. The text's numbers are cases in
tests/data/values/danish.json (and the Århus Musik in tests/data/variants/spitze.json)."""

from __future__ import annotations

from typing import Any

import pytest

from device.declaration import Declaration
from device.errors import DeclarationError, RecordError
from device.games import GameType
from device.listdoc import parse_list_document
from device.profile import DANISH, DANISH_AARHUS, ISKO, RuleProfile, find_profile
from device.record import result_to_json, score_record
from device.scoring import Game, ScoreSheet, ScoringSystem, running_totals, totals
from device.skatform import SkatForm
from device.value import Play, bid_values, score_game

#: 001: "Der Alleinspieler spielt Grand Ouvert mit 2 und verliert: mit 2, Spiel 3, offen 4 x 20 = 80."
GRAND_OUVERT_LOST = {"game": "grand", "ouvert": True, "bid": 80, "matadors": 2, "declarer_points": 55,
                     "declarer_tricks": 5}


def refusal(record: dict[str, Any], profile: RuleProfile = DANISH) -> RecordError:
    with pytest.raises(RecordError) as info:
        score_record(record, profile=profile)
    return info.value


def test_the_profiles_are_found_by_name_and_survive_json() -> None:
    assert find_profile("danish") is DANISH and find_profile("danish_aarhus") is DANISH_AARHUS
    assert (DANISH.grand_base, DANISH.schneider_at, DANISH.null_values) == (20, 91, (23, 0, 46, 69))
    assert DANISH.form is SkatForm.DANISH and DANISH.ouvert_any and not DANISH.spitze
    assert DANISH_AARHUS.null_values == (35, 46, 69, 92) and DANISH_AARHUS.spitze_rules.levels_per_card == 2
    for profile in (DANISH, DANISH_AARHUS):
        assert RuleProfile.from_json(profile.to_json()) == profile
    assert DANISH.variants_de() == ("Grand Grundwert 20", "Dänischer Skat: Nul, Nul ouvert, Dækker",
                                    "Ouvert in jedem Spiel", "Schneider ab 91")


def test_the_text_s_example_as_a_record() -> None:
    out = result_to_json(score_record(GRAND_OUVERT_LOST, profile=DANISH))
    assert (out["value"], out["score"], out["levels"]) == (80, -160, ["mit 2", "Spiel", "ouvert"])
    assert out["text"] == "Grand ouvert mit 2, Spiel 3, ouvert 4 = 80, verloren -160"


def test_each_defender_receives_the_value_of_a_lost_game_in_a_tournament() -> None:
    """001: "Der Alleinspieler erhält -160 und jeder Gegner erhält +80 Punkte"."""
    sheet = ScoreSheet(3, (Game(0, -160, False),))
    assert totals(sheet, ScoringSystem.DANISH) == (-160, 80, 80)
    assert totals(sheet, ScoringSystem.CLASSIC) == (-160, 0, 0)  # "Bei Spielen um Geld ... die normale Punktwertung"
    four = ScoreSheet(4, (Game(1, -160, False, (1, 2, 3)), Game(2, 60, True, (2, 3, 0))))
    assert running_totals(four, ScoringSystem.DANISH) == ((0, -160, 80, 80), (0, -160, 140, 80))
    assert ScoringSystem.parse("danish") is ScoringSystem.DANISH


def test_a_danish_list_document_scores_the_tournament_way() -> None:
    document = parse_list_document({
        "players": ["Anders", "Birgit", "Carsten"], "scoring": "danish", "profile": "danish", "stake": "1",
        "entries": [{"kind": "game", "seat": 1, **GRAND_OUVERT_LOST},
                    {"kind": "game", "seat": 2, "game": "null", "hand": True, "ouvert": True, "bid": 69,
                     "declarer_tricks": 0}]})
    figures = document.figures()
    assert figures.totals == (80, -160, 80 + 69)
    assert figures.classic == (0, -160, 69)
    from device.table.listing import paper_rows

    assert [r.short for r in paper_rows(document.rows, figures)] == ["Grand o", "Dækker"]


def test_null_hand_is_refused_naming_the_field_and_the_profile() -> None:
    error = refusal({"game": "null", "hand": True, "bid": 23, "declarer_tricks": 0})
    assert error.field == "hand" and "rule profile 'danish'" in error.reason
    assert "Nul 23, Nul ouvert 46, Dækker 69" in error.reason and error.german
    assert result_to_json(score_record({"game": "null", "hand": True, "bid": 46, "declarer_tricks": 0},
                                       profile=DANISH_AARHUS))["score"] == 46
    with pytest.raises(DeclarationError, match="not played under the rule profile 'danish'"):
        score_game(Declaration.make(GameType.NULL, hand=True, form=SkatForm.DANISH), 18, Play(0, 0), profile=DANISH)


def test_announcements_still_need_a_hand_game() -> None:
    """001 Dänischer Skat 4: "(Wie in Deutschland kann der Schneider oder Schwarz nur in einem
    Handspiel angesagt werden.)" """
    late = refusal({"game": "grand", "ouvert": True, "announced": "schneider", "bid": 18, "matadors": 1,
                    "declarer_points": 95, "declarer_tricks": 8})
    assert late.field == "announced"


def test_ouvert_of_any_game_only_where_the_profile_plays_it() -> None:
    error = refusal(GRAND_OUVERT_LOST | {"bid": 18}, profile=ISKO)
    assert error.field == "ouvert" and "rule profile 'isko'" in error.reason
    danish_ouvert = Declaration.make(GameType.GRAND, hand=True, ouvert=True, ouvert_any=True, form=SkatForm.DANISH)
    with pytest.raises(DeclarationError, match="rule profile 'isko'"):
        score_game(danish_ouvert, 18, Play(70, 6, 1))


def test_bids_follow_the_danish_games() -> None:
    values = bid_values(DANISH)
    assert {18, 23, 40, 46, 69, 80} <= values and 59 not in values and 35 not in values
    assert max(values) == 11 * 20  # Grand ouvert Hand mit 4, Schwarz angesagt, ouvert: 11 x 20
    assert {35, 92} <= bid_values(DANISH_AARHUS)


def test_the_english_words_keep_the_danish_terms() -> None:
    result = score_record({"game": "null", "ouvert": True, "bid": 46, "declarer_tricks": 1}, profile=DANISH).result
    assert result.describe_en() == "Nul ouvert = 46, lost -92"
    assert score_record(GRAND_OUVERT_LOST, profile=DANISH).result.describe_en().startswith("Grand ouvert with 2, game 3")


# --------------------------------------------------------------------------- Musik (Århus)

#: 001 (Århus) 1: "Zum Beispiel Herz ohne 2, Spiel 3, Musik 5: 5 x 10 = 50."
HERZ_OHNE_2_MUSIK = {"game": "hearts", "bid": 18, "matadors": -2, "declarer_points": 70, "declarer_tricks": 6,
                     "spitze": 1, "spitze_made": True}


def test_musik_in_a_record_of_the_aarhus_club() -> None:
    out = result_to_json(score_record(HERZ_OHNE_2_MUSIK, profile=DANISH_AARHUS))
    assert (out["won"], out["value"], out["factor"]) == (True, 50, 5)
    assert out["text"] == "Herz ohne 2, Spiel 3, Musik 4, Musik 5 = 50, gewonnen +50"
    missed = result_to_json(score_record({**HERZ_OHNE_2_MUSIK, "spitze_made": False}, profile=DANISH_AARHUS))
    assert (missed["won"], missed["score"]) == (False, -100)


def test_musik_is_refused_where_it_is_not_played_or_not_told() -> None:
    error = refusal(HERZ_OHNE_2_MUSIK)
    assert error.field == "spitze" and "rule profile 'danish'" in error.reason
    assert refusal({k: v for k, v in HERZ_OHNE_2_MUSIK.items() if k != "spitze_made"},
                   profile=DANISH_AARHUS).field == "spitze_made"
    assert refusal({**HERZ_OHNE_2_MUSIK, "spitze": 2}, profile=DANISH_AARHUS).field == "spitze"


def test_musik_made_is_read_from_the_cards() -> None:
    """Vorhand plays Herz with ten trumps and leads one every trick, the Herz 7 last."""
    from device.cards import DECK, Card, parse_cards

    declarer = parse_cards("CJ SJ HJ DJ HA HT HK H9 H8 H7")
    skat = parse_cards("C7 D7")
    others = [c for c in DECK if c not in declarer + skat]
    middle = [Card.parse("HQ")] + [c for c in others if c != Card.parse("HQ")][:9]
    rear = [c for c in others if c not in middle]
    tricks = [[str(lead), str(middle[i]), str(rear[i])] for i, lead in enumerate(declarer)]
    record = {"game": "hearts", "bid": 18, "declarer": 0, "skat": ["C7", "D7"], "tricks": tricks, "spitze": 1}
    out = result_to_json(score_record(record, profile=DANISH_AARHUS))
    assert out["won"] and out["levels"][-2:] == ["Musik", "Musik"]
    early_seven = [*tricks[:8], [tricks[9][0], *tricks[8][1:]], [tricks[8][0], *tricks[9][1:]]]  # H7, then H8 last
    lost = result_to_json(score_record({**record, "tricks": early_seven}, profile=DANISH_AARHUS))
    assert not lost["won"] and lost["score"] < 0
