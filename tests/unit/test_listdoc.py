"""The list document: scored like the table's list, corrections kept, errors naming entry and field."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from device.listdoc import ListDocumentError, parse_list_document, to_list_document

EXAMPLE = json.loads((Path(__file__).resolve().parents[2] / "examples" / "list-4.json").read_text(encoding="utf-8"))


def doc(**changes: Any) -> dict[str, Any]:
    d = copy.deepcopy(EXAMPLE)
    d.update(changes)
    return d


def test_the_example_list_scores_by_seeger_fabian_with_the_correction_applied() -> None:
    document = parse_list_document(EXAMPLE)
    figures = document.figures()
    assert figures.classic == (96, 48, 46, -100 + 22)
    # Seeger-Fabian at four: +50 per own won game, -50 per lost, +30 to each other player per lost game.
    assert figures.totals == (96 + 50 + 30, 48 + 50 + 30, 46 + 50 + 30, -78 + 50 - 50)
    assert [r.dealer for r in document.rows] == [0, 1, 2, 3, 0, 1]
    corrected = document.rows[5]
    assert corrected.result is not None and corrected.result.score == 22
    assert [old.result.score for old in corrected.earlier if old.result] == [-44]
    assert figures.settlement is not None
    assert figures.settlement.amounts == (136, 40, 36, -212)  # halved Endzahlen 48, 24, 23, -39 (5.5.5)


def test_a_document_round_trips_through_its_json_form() -> None:
    document = parse_list_document(EXAMPLE)
    again = parse_list_document(json.loads(json.dumps(to_list_document(document))))
    assert again.figures() == document.figures()
    assert [r.earlier != () for r in again.rows] == [r.earlier != () for r in document.rows]


def test_at_five_the_dealer_and_the_player_across_sit_out() -> None:
    players = ["A", "B", "C", "D", "E"]
    entries = [{"kind": "game", "seat": 3, "game": "diamonds", "bid": 18, "matadors": 1,
                "declarer_points": 70, "declarer_tricks": 6}]
    with pytest.raises(ListDocumentError) as info:
        parse_list_document({"players": players, "entries": entries})
    assert info.value.where == "entries[0].seat" and "does not play in game 1: A deals" in info.value.reason
    entries[0]["seat"] = 4  # A deals: B, C play and E (his right neighbour)
    assert parse_list_document({"players": players, "entries": entries}).rows[0].active == (1, 2, 4)


@pytest.mark.parametrize(("change", "where", "words"), [
    ({"players": ["Anna", "Bernd"]}, "players", "3, 4 or 5"),
    ({"players": ["Anna", "Anna", "Carla"]}, "players", "different name"),
    ({"scoring": "skatpunkte"}, "scoring", ""),
    ({"stake": "viel"}, "stake", "cents"),
    ({"profile": "nonsense"}, "profile", "unknown rule profile"),
    ({"colour": "red"}, "colour", "unknown field"),
    ({"v": 2}, "v", "not supported"),
    ({"entries": [{"kind": "game", "seat": 1, "game": "clubs", "bid": 17, "matadors": 1,
                   "declarer_points": 70, "declarer_tricks": 6}]}, "entries[0].bid", "not a bid value"),
    ({"entries": [{"kind": "game", "seat": 9, "game": "clubs", "bid": 18}]}, "entries[0].seat", "0 to 3"),
    ({"entries": [{"kind": "game", "seat": 0, "game": "clubs", "bid": 18}]}, "entries[0].seat", "does not play"),
    ({"entries": [{"kind": "eingepasst"}]}, "entries[0].kind", "one of game"),
    ({"entries": [{"kind": "ramsch", "scores": [1, 2]}]}, "entries[0].scores", "three whole numbers"),
    ({"entries": [{"kind": "passed_in"}, {"kind": "ramsch", "scores": [-58, 0, 0]}]}, "entries[1].kind",
     "game 2 is a Ramsch, but the rule profile 'isko' plays no Ramsch (SkWO 9.4"),
    ({"entries": [{"kind": "passed_in"}, {"kind": "correction", "entry": 1, "consent": ["Anna", "Bernd", "Carla", "Dieter"],
                   "replacement": {"kind": "ramsch", "scores": [0, -20, 0]}}]}, "entries[1].replacement.kind", "plays no Ramsch"),
    ({"entries": [{"kind": "passed_in"}, {"kind": "correction", "entry": 1, "consent": ["Anna"],
                   "replacement": {"kind": "passed_in"}}]}, "entries[1].consent", "missing Bernd, Carla, Dieter"),
    ({"entries": [{"kind": "correction", "entry": 1, "consent": [], "replacement": {}}]}, "entries[0].entry", "earlier"),
])
def test_a_bad_document_names_the_entry_and_field(change: dict[str, Any], where: str, words: str) -> None:
    with pytest.raises(ListDocumentError) as info:
        parse_list_document(doc(**change))
    assert info.value.where == where
    assert words in info.value.reason


def test_a_ramsch_is_scored_where_the_profile_plays_it() -> None:
    """SkWO 9.4 forbids Ramsch under the ISkO; the Kneipe profile plays it (001, "Ramsch")."""
    entries = [{"kind": "ramsch", "scores": [-58, 0, 0]}]
    document = parse_list_document({"players": ["A", "B", "C"], "profile": "kneipe", "entries": entries})
    assert document.rows[0].ramsch == (-58, 0, 0)
    with pytest.raises(ListDocumentError, match="plays no Ramsch"):
        parse_list_document({"players": ["A", "B", "C"], "profile": "isko", "entries": entries})


def test_pre1999_lost_hand_games_stay_games_on_the_list() -> None:
    """A lost hand game counts single before 1999 and still counts as a lost game (Seeger-Fabian)."""
    document = parse_list_document({
        "players": ["A", "B", "C"], "profile": "pre1999", "scoring": "seeger_fabian",
        "entries": [{"kind": "game", "seat": 1, "game": "null", "hand": True, "bid": 35, "declarer_tricks": 1}]})
    figures = document.figures()
    assert figures.classic == (0, -35, 0)
    assert figures.lost == (0, 1, 0)
    assert figures.totals == (40, -35 - 50, 40)
