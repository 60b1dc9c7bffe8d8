"""Every bad input gets a clear answer: the table of cases, each run as a user runs it.

Each case: the command (``{f}`` is the input file the case writes, ``{dir}`` a folder), the
input's bytes, the exit code docs/reference/cli.md documents, and words the output must contain. No case
may print a Python traceback, and a refusal (exit 2) is one line on stderr.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LIST = json.loads((ROOT / "examples" / "list-4.json").read_text(encoding="utf-8"))
RECORD = b'{"game": "grand", "bid": 24, "matadors": 2, "declarer_points": 91, "declarer_tricks": 8}'
DECK = b'{"v": 1, "cards": {"0A00C4E1F2": "CJ"}}'
BOM = b"\xef\xbb\xbf"
DEEP = b"[" * 100_000 + b"]" * 100_000


def list_with(**fields: object) -> bytes:
    return json.dumps({**LIST, **fields}).encode()


def list_text_with(field: str, literal: str) -> bytes:
    """The example list with ``field`` set to a JSON literal json.dumps cannot write (1e400)."""
    document = dict(LIST)
    document[field] = "@@"
    return json.dumps(document).replace('"@@"', literal).encode()


@dataclass(frozen=True)
class Case:
    name: str
    command: str
    data: bytes | None  # the input file's bytes; None: the file is not written
    code: int
    words: tuple[str, ...]


CASES = [
    # skattisch score: files
    Case("score missing file", "score {f}", None, 2, ("cannot read", "input", "no such file")),
    Case("score a folder", "score {dir}", b"", 2, ("cannot read", "folder")),
    Case("score non-UTF-8", "score {f}", b'{"player": "M\xfcller"}\n', 1, ('"line": 1', "not UTF-8", "0xfc")),
    Case("score 5000 digits", "score {f}", b'{"bid": ' + b"9" * 5000 + b"}\n", 1, ("5000 digits", "at most 30")),
    Case("score deeply nested", "score {f}", DEEP + b"\n", 1, ("nested more than 64 deep",)),
    Case("score BOM", "score {f}", BOM + RECORD + b"\n", 0, ('"score": 96',)),
    Case("score repeated key", "score {f}", b'{"bid": 24, "bid": 18, "game": "grand"}\n', 1,
         ("'bid' appears twice", '"field": "bid"')),
    Case("score NaN", "score {f}", b'{"game": "grand", "bid": NaN}\n', 1, ("NaN is not a number",)),
    Case("score 1e400", "score {f}", RECORD.replace(b'"bid": 24', b'"bid": 1e400') + b"\n", 1,
         ('"field": "bid"', "not a whole number")),
    # skattisch sheet
    Case("sheet missing file", "sheet {f}", None, 2, ("cannot read", "input")),
    Case("sheet a folder", "sheet {dir}", b"", 2, ("cannot read", "folder")),
    Case("sheet non-UTF-8", "sheet {f}", list_with(title="Tisch 3").replace(b"Tisch", b"T\xe4sch"), 2,
         ("input", "not UTF-8", "0xe4")),
    Case("sheet deeply nested", "sheet {f}", DEEP, 2, ("input", "nested more than 64 deep")),
    Case("sheet BOM", "sheet {f}", BOM + list_with(), 0, ("Platzierung",)),
    Case("sheet stake 1e400", "sheet {f}", list_text_with("stake", "1e400"), 2, ("stake", "from 0 to 100")),
    Case("sheet stake 1000", "sheet {f}", list_with(stake=1000), 2, ("stake", "1000", "from 0 to 100")),
    Case("sheet series_length 1e20", "sheet {f}", list_text_with("series_length", "1e20"), 2,
         ("series_length", "from 1 to 999")),
    Case("sheet bierlachs_limit huge", "sheet {f}", list_with(scoring="bierlachs", bierlachs_limit=10**20), 2,
         ("bierlachs_limit", "from 1 to 9999")),
    Case("sheet repeated key in a game", "sheet {f}",
         list_with().replace(b'"bid": 18', b'"bid": 18, "bid": 20', 1), 2, ("'bid' appears twice",)),
    Case("sheet NaN", "sheet {f}", list_text_with("stake", "NaN"), 2, ("NaN is not a number",)),
    Case("sheet bidi name", "sheet {f}", list_with(players=["Anna", "Be\u202ernd", "Carla", "Dieter"]), 2,
         ("players[1]", "text-direction", "U+202E")),
    # deck files
    Case("deck show deeply nested", "deck show {f}", b'{"v": 1, "cards": ' + DEEP + b"}", 2,
         ("input", "nested more than 64 deep")),
    Case("deck show non-UTF-8", "deck show {f}", b'{"v": 1, "cards": {"\xff": "CJ"}}', 2, ("input", "not UTF-8")),
    Case("deck show BOM", "deck show {f}", BOM + DECK, 0, ("CJ", "0A00C4E1F2")),
    Case("deck show a folder", "deck show {dir}", b"", 2, ("cannot read", "folder")),
    Case("deck show bad symbology", "deck show {f}", b'{"v": 1, "barcode": "qr", "cards": {}}', 2,
         ("barcode", "qr", "ean13")),
    Case("reader-test deeply nested deck", "reader-test --port /nonexistent/tty --deck {f}",
         b'{"v": 1, "cards": ' + DEEP + b"}", 2, ("input", "nested more than 64 deep")),
    # reader ports
    Case("reader-test foo://bar", "reader-test --port foo://bar", None, 2, ("foo://bar", "protocol 'foo'")),
    Case("deck learn foo://bar", "deck learn --port foo://bar --out {dir}/deck.json", b"", 2,
         ("foo://bar", "protocol 'foo'")),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_input_gets_one_clear_line_and_the_documented_exit_code(case: Case, tmp_path: Path) -> None:
    path, folder = tmp_path / "input", tmp_path / "folder"
    folder.mkdir()
    if case.data is not None:
        path.write_bytes(case.data)
    args = [a.replace("{f}", str(path)).replace("{dir}", str(folder)) for a in case.command.split()]
    done = subprocess.run([sys.executable, "-m", "ui.cli", *args], cwd=ROOT, capture_output=True, timeout=60)
    out, err = done.stdout.decode(), done.stderr.decode()
    assert done.returncode == case.code, (out[-2000:], err[-2000:])
    assert "Traceback" not in out + err
    for word in case.words:
        assert word.replace("input", str(path)) in out + err, (word, out[-2000:], err)
    if case.code == 2:
        assert len(err.strip().splitlines()) == 1, err


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file: no unreadable file to test with")
def test_score_an_unreadable_file(tmp_path: Path) -> None:
    path = tmp_path / "secret.jsonl"
    path.write_bytes(RECORD)
    path.chmod(0)
    done = subprocess.run([sys.executable, "-m", "ui.cli", "score", str(path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and "permission denied" in done.stderr and "Traceback" not in done.stderr


def test_sheet_csv_writes_formula_text_as_text_and_numbers_as_numbers(tmp_path: Path) -> None:
    path = tmp_path / "list.json"
    text = json.dumps({**LIST, "title": "=1+1"})
    for old, new in zip(LIST["players"], ["=HYPERLINK(\"http://x\")", "+Bernd", "@Carla", "-Dieter"]):
        text = text.replace(json.dumps(old), json.dumps(new))  # in the consents too
    path.write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "ui.cli", "sheet", "--csv", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    rows = done.stdout.splitlines()
    assert rows[0] == "Nr,Geber,Alleinspieler,Spiel,Grundwert,Spitzen,Gewinnstufen,Wert,\"'=HYPERLINK(\"\"http://x\"\")\",'+Bernd,'@Carla,'-Dieter"
    cells = [row.split(",") for row in rows[1:]]
    assert any(c[2] == "'+Bernd" for c in cells)  # a declarer's name is text: escaped
    numbers = [cell for row in cells for cell in row[4:] if cell.lstrip("-").isdigit()]
    assert any(n.startswith("-") for n in numbers)  # a lost game's -24 is still a number
    assert not any(cell.startswith(("=", "+", "@")) for row in cells for cell in row)
