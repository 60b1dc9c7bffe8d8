"""`skattisch score` as a user runs it: a real process, JSON lines in and out."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "records.jsonl"


def skattisch(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ui.cli", *args], input=stdin, cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def test_the_shipped_examples_score_and_the_bad_one_fails_the_exit_code() -> None:
    result = skattisch("score", str(EXAMPLES))
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.returncode == 1  # the last example is a bad record on purpose
    assert [line.get("score") for line in lines[:6]] == [48, 48, -100, -240, 46, -66]
    assert lines[6] == {"line": 15, "error": "bid: 19 is not a bid value (18, 20, 22, 23, 24, 27, 30, ...)",
                        "field": "bid", "reason": "19 is not a bid value (18, 20, 22, 23, 24, 27, 30, ...)"}


def test_stdin_with_a_garbled_line_reports_it_and_goes_on() -> None:
    good = json.dumps({"game": "grand", "bid": 24, "matadors": 2, "declarer_points": 91, "declarer_tricks": 8})
    result = skattisch("score", stdin=f"{good}\n{{not json\n\n{good}\n")
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.returncode == 1
    assert [line.get("score") for line in lines] == [96, None, 96]
    assert lines[1]["line"] == 2 and lines[1]["error"].startswith("not JSON")


def test_all_good_records_exit_zero_and_text_mode_speaks_german() -> None:
    record = json.dumps({"game": "null", "hand": True, "bid": 35, "declarer_tricks": 1})
    result = skattisch("score", "--text", stdin=record + "\n")
    assert result.returncode == 1 - 1
    assert result.stdout.strip() == "Null Hand = 35, verloren -70"


def test_pre1999_profile_counts_lost_hand_games_single() -> None:
    record = json.dumps({"game": "null", "hand": True, "bid": 35, "declarer_tricks": 1})
    result = skattisch("score", "--profile", "pre1999", stdin=record + "\n")
    assert json.loads(result.stdout)["score"] == -35
    assert skattisch("score", "--profile", "nonsense", stdin="").returncode == 2


def test_kontra_and_bock_need_a_profile_that_plays_them() -> None:
    kneipe = ROOT / "examples" / "kneipe.jsonl"
    result = skattisch("score", "--profile", "kneipe", str(kneipe))
    assert result.returncode == 0, result.stdout
    assert [json.loads(line)["score"] for line in result.stdout.splitlines()] == [184, -176]
    refused = [json.loads(line) for line in skattisch("score", str(kneipe)).stdout.splitlines()]
    assert refused[0]["field"] == "kontra" and "not played under the rule profile 'isko'" in refused[0]["reason"]


def test_an_overbid_null_and_5_4_3_from_the_cards_as_issue_14_gives_them() -> None:
    """ISkO 3.4.4: Null after 24 is lost as Kreuz mit 1 (-48), the record needs the Spitzen;
    ISkO 5.4.3: the audit's cards-form game is lost (-192), not won by the false following."""
    audit = {"v": 1, "game": "clubs", "hand": True, "ouvert": True, "announced": "schwarz", "bid": 22, "declarer": 2,
             "skat": ["H8", "CJ"], "tricks": [["HA", "HJ", "HQ"], ["CK", "C7", "CQ"], ["DJ", "C9", "D7"], ["S8", "SA", "SK"],
                                              ["C8", "H7", "SJ"], ["HT", "S9", "H9"], ["CA", "CT", "HK"], ["DT", "DK", "DQ"],
                                              ["D9", "S7", "DA"], ["ST", "D8", "SQ"]]}
    lines = [{"v": 1, "game": "null", "bid": 24, "matadors": 1}, audit, {"v": 1, "game": "null", "bid": 24}]
    result = skattisch("score", stdin="".join(json.dumps(line) + "\n" for line in lines))
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.returncode == 1  # the third line lacks the Spitzen
    assert (out[0]["score"], out[0]["game"], out[0]["lost_as"], out[0]["ended_by"]) == (-48, "null", "clubs", "null_overbid")
    assert "verloren als Kreuz mit 1, Spiel 2 = 24" in out[0]["text"]
    assert (out[1]["won"], out[1]["score"]) == (False, -192)
    assert out[2]["field"] == "matadors" and "ISkO 3.4.4" in out[2]["reason"]


def test_texas_profile_scores_the_texas_examples_and_isko_refuses_them() -> None:
    texas = ROOT / "examples" / "texas.jsonl"
    result = skattisch("score", "--profile", "texas", str(texas))
    assert result.returncode == 0, result.stdout + result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["score"] for line in lines] == [288, 32, 48, 24, -60]
    assert lines[0]["factor"] == 18 and lines[0]["levels"][-1] == "ouvert doppelt"
    words = skattisch("score", "--profile", "texas", "--text", str(texas)).stdout.splitlines()
    assert words[0] == ("Grand ouvert nach Skataufnahme mit 4, Spiel 5, Schneider 6, Schneider angesagt 7, "
                        "Schwarz 8, Schwarz angesagt 9, ouvert doppelt 18 = 288, gewonnen +288")
    refused = skattisch("score", str(texas))
    assert refused.returncode == 1
    errors = [json.loads(line) for line in refused.stdout.splitlines()]
    assert [e.get("field") for e in errors] == ["ouvert", "bid", "announced", None, None]
    assert "rule profile 'isko'" in errors[0]["reason"] and "rule profile 'isko'" in errors[2]["reason"]
    assert [e.get("score") for e in errors] == [None, None, None, 36, -70]  # 90 Augen: Schneider by the ISkO


def test_texas_profile_refuses_an_isko_bid_naming_the_field_and_the_profile() -> None:
    record = json.dumps({"game": "clubs", "bid": 23, "matadors": 1, "declarer_points": 70, "declarer_tricks": 6})
    result = skattisch("score", "--profile", "texas", stdin=record + "\n")
    assert result.returncode == 1
    line = json.loads(result.stdout)
    assert line["field"] == "bid" and "under the rule profile 'texas'" in line["reason"]
    assert "texas (Texas Skat)" in " ".join(skattisch("score", "--help").stdout.split())


def test_tournee_profile_scores_the_tournee_examples_and_isko_refuses_them() -> None:
    tournee = ROOT / "examples" / "tournee.jsonl"
    result = skattisch("score", "--profile", "tournee", str(tournee))
    assert result.returncode == 0, result.stdout + result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["score"] for line in lines] == [12, -48, 36, -36, -64, -20, 40, 216, 16]
    assert [line.get("tournee") for line in lines[:5]] == ["first", "second", "solo", "solo", "guckser"]
    words = skattisch("score", "--profile", "tournee", "--text", str(tournee)).stdout.splitlines()
    assert words[1] == "Grand Tournee (zweite Karte) mit 1, Spiel 2 = 24, verloren -48"
    assert words[4] == "Guckser ohne 1, Spiel 2 = 32, verloren -64"
    refused = [json.loads(line) for line in skattisch("score", str(tournee)).stdout.splitlines()]
    assert [e.get("field") for e in refused[:5]] == ["tournee", "tournee", "solo", "solo", "guckser"]
    assert all("rule profile 'isko'" in e["reason"] for e in refused[:5])


def test_tournee_profile_refuses_a_kreuz_hand_naming_the_field_and_the_profile() -> None:
    record = json.dumps({"game": "clubs", "hand": True, "bid": 24, "matadors": 1, "declarer_points": 70,
                         "declarer_tricks": 6})
    result = skattisch("score", "--profile", "tournee", stdin=record + "\n")
    assert result.returncode == 1
    line = json.loads(result.stdout)
    assert line["field"] == "hand" and "rule profile 'tournee'" in line["reason"] and "Solo" in line["reason"]
    assert "tournee (Tournee Skat)" in " ".join(skattisch("score", "--help").stdout.split())


def test_danish_profile_scores_the_danish_examples_and_refuses_a_null_hand() -> None:
    danish = ROOT / "examples" / "danish.jsonl"
    result = skattisch("score", "--profile", "danish", str(danish))
    assert result.returncode == 0, result.stdout + result.stderr
    assert [json.loads(line)["score"] for line in result.stdout.splitlines()] == [-160, 60, 48, 23, 46, -138]
    words = skattisch("score", "--profile", "danish", "--text", str(danish)).stdout.splitlines()
    assert words[0] == "Grand ouvert mit 2, Spiel 3, ouvert 4 = 80, verloren -160"  # 001: "offen 4 x 20 = 80"
    assert words[5] == "Dækker = 69, verloren -138"
    null_hand = json.dumps({"game": "null", "hand": True, "bid": 23, "declarer_tricks": 0})
    refused = skattisch("score", "--profile", "danish", stdin=null_hand + "\n")
    line = json.loads(refused.stdout)
    assert refused.returncode == 1 and line["field"] == "hand" and "rule profile 'danish'" in line["reason"]
    aarhus = skattisch("score", "--profile", "danish_aarhus", "--text", stdin=null_hand.replace("23", "46") + "\n")
    assert aarhus.stdout.strip() == "Nul Hand = 46, gewonnen +46"  # the Århus club plays Nul-Hand (46)
