"""`skattisch sheet` as a user runs it: text, JSON and CSV from a list document."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "list-4.json"


def sheet(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ui.cli", "sheet", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=60)


def test_text_shows_entries_totals_ranking_and_settlement() -> None:
    result = sheet(str(EXAMPLE))
    assert result.returncode == 0, result.stderr
    text = result.stdout
    # laid out like the paper list and the table's list screen: Nr, Geber, Spieler, Spiel,
    # Grundwert, Spitzen, Gewinnstufen, Wert, then each player's running game points
    lines = text.splitlines()
    assert lines[2].split() == ["Nr", "Geber", "Spieler", "Spiel", "Gw", "Sp", "St", "Wert", "Anna", "Bernd", "Carla",
                                "Dieter"]
    assert lines[3].split() == ["1", "Anna", "Bernd", "Kreuz", "H", "12", "m2", "2", "+48", "48"]
    assert lines[3].index("48", lines[3].index("+48") + 3) > lines[2].index("Anna")  # in Bernd's column
    assert "eingepasst" in text
    assert "Spielpunkte    96     48     46     -78" in text
    assert "  1. Anna        176" in text
    assert "Dieter zahlt Anna 1,36 €" in text


def test_json_is_the_scored_list_for_machines() -> None:
    out = json.loads(sheet(str(EXAMPLE), "--json").stdout)
    assert out["totals"] == [176, 128, 126, -78]
    assert [s["player"] for s in out["standings"]] == ["Anna", "Bernd", "Carla", "Dieter"]
    assert out["rows"][5]["earlier"] and out["rows"][5]["score"] == 22
    assert out["settlement"]["amounts"] == [136, 40, 36, -212]


def test_csv_has_a_row_per_entry_and_the_totals() -> None:
    rows = list(csv.reader(io.StringIO(sheet(str(EXAMPLE), "--csv").stdout)))
    assert rows[0] == ["Nr", "Geber", "Alleinspieler", "Spiel", "Grundwert", "Spitzen", "Gewinnstufen", "Wert",
                       "Anna", "Bernd", "Carla", "Dieter"]
    assert rows[1] == ["1", "Anna", "Bernd", "Kreuz H", "12", "m2", "2", "48", "", "48", "", ""]
    assert len(rows) == 1 + 6 + 3  # the entries, then game points, won / lost, Seeger-Fabian
    assert rows[-3][-4:] == ["96", "48", "46", "-78"]
    assert rows[-1][-4:] == ["176", "128", "126", "-78"]


def test_a_bad_document_gives_a_clear_error_and_exit_2(tmp_path: Path) -> None:
    bad = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    bad["entries"][2]["bid"] = 19
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    result = sheet(str(path))
    assert result.returncode == 2
    assert "entries[2].bid: 19 is not a bid value" in result.stderr
    garbled = sheet("-", stdin="{not json")
    assert garbled.returncode == 2 and "not JSON" in garbled.stderr
    assert sheet(str(tmp_path / "missing.json")).returncode == 2
