"""No network: ``skattisch export --to DIR`` on a table, ``skattisch club import DIR`` on
the laptop, twice (idempotent); a damaged export is refused with its reason and nothing stored."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from drivers.club.store import SqliteCollectorStore
from drivers.store import TinyDBEventStore, device_id
from tests.e2e.sync_helpers import ROOT, TableProcess


def skattisch(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ui.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, env={"SKATTISCH_CONFIG": "", "PATH": "/usr/bin:/bin", "HOME": str(ROOT)})


def test_export_to_a_stick_and_import_twice(tmp_path: Path) -> None:
    store_dir, stick, db = tmp_path / "tisch", tmp_path / "usb", tmp_path / "club.sqlite3"
    table = TableProcess(store_dir)  # never paired: a club evening without any network
    assert table.ask("play 40") == {"played": 40}  # two lists: 36 games, then a new one
    table.quit()
    exported = skattisch("export", "--to", str(stick), "--path", str(store_dir))
    assert exported.returncode == 0, exported.stderr
    device = device_id(store_dir)
    store = TinyDBEventStore(store_dir)
    table_lists = {list_id: store.load(list_id) for list_id in store.list_ids()}
    store.close()
    assert len(table_lists) == 2
    folder = stick / "skattisch" / device
    assert sorted(p.name for p in folder.iterdir()) == sorted([*(f"{i}.jsonl" for i in table_lists), "manifest.json"])

    first = skattisch("club", "import", str(stick), "--db", str(db), "--json")
    second = skattisch("club", "import", str(stick), "--db", str(db), "--json")
    total = sum(len(e) for e in table_lists.values())
    assert first.returncode == 0 and second.returncode == 0, (first.stderr, second.stderr)
    assert [(r["device"], r["stored"], r["duplicates"], r["held"]) for r in json.loads(first.stdout)] == [
        (device, total, 0, total)]
    assert [(r["stored"], r["duplicates"], r["held"]) for r in json.loads(second.stdout)] == [(0, total, total)]
    laptop = SqliteCollectorStore(db)
    try:
        assert {i.list_id: laptop.events(device, i.list_id) for i in laptop.lists(device)} == table_lists
    finally:
        laptop.close()


def test_a_changed_line_on_the_stick_is_refused_and_nothing_is_stored(tmp_path: Path) -> None:
    store_dir, stick, db = tmp_path / "tisch", tmp_path / "usb", tmp_path / "club.sqlite3"
    table = TableProcess(store_dir)
    assert table.ask("play 3") == {"played": 3}
    table.quit()
    assert skattisch("export", "--to", str(stick), "--path", str(store_dir)).returncode == 0
    journal = next((stick / "skattisch" / device_id(store_dir)).glob("*.jsonl"))
    lines = journal.read_bytes().splitlines(keepends=True)
    bid = next(n for n, line in enumerate(lines) if b'"type":"bid_made"' in line and b'"value":18' in line)
    lines[bid] = lines[bid].replace(b'"value":18', b'"value":20')  # someone "corrects" a bid on the stick
    journal.write_bytes(b"".join(lines))
    result = skattisch("club", "import", str(stick), "--db", str(db))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f"line {bid + 1}: the line's checksum does not match" in result.stderr, result.stderr
    assert skattisch("club", "import", str(tmp_path / "leer"), "--db", str(db)).returncode == 2  # no export there
    folder = skattisch("club", "tables", "--db", str(tmp_path))  # a folder is no database
    assert folder.returncode == 2 and folder.stderr.count("\n") == 1 and "cannot be used" in folder.stderr
    laptop = SqliteCollectorStore(db)
    try:
        assert laptop.lists() == [] and laptop.device_events(device_id(store_dir)) == []
    finally:
        laptop.close()
