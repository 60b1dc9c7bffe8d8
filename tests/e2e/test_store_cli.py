"""`skattisch store check|recover` on a real store with a damaged list file (a bad SD card)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from drivers.store import TinyDBEventStore

ROOT = Path(__file__).resolve().parents[2]


def store_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ui.cli", "store", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def test_a_damaged_list_is_named_then_repaired_from_its_last_good_copy(tmp_path: Path) -> None:
    store = TinyDBEventStore(tmp_path)
    store.append("abend-1", [{"id": "a", "seq": 1}])
    store.append("abend-1", [{"id": "b", "seq": 2}])
    store.append("abend-2", [{"id": "c", "seq": 3}])
    damaged = store.path("abend-1")
    store.close()
    damaged.write_bytes(damaged.read_bytes()[:25])  # torn by a power cut on a bad card

    check = store_cli("check", "--path", str(tmp_path))
    assert check.returncode == 1
    assert "damaged:" in check.stdout and "abend-1.json" in check.stdout
    assert "ok: abend-2 (1 events)" in check.stdout

    recover = store_cli("recover", "--path", str(tmp_path))
    assert recover.returncode == 0, recover.stdout
    assert "Restored" in recover.stdout and "last good copy" in recover.stdout
    assert store_cli("check", "--path", str(tmp_path)).returncode == 0
    assert list(tmp_path.glob("lists/abend-1.json.corrupt*"))  # the damaged file is kept
    again = TinyDBEventStore(tmp_path)
    assert again.load("abend-1") == [{"id": "a", "seq": 1}]  # at most the last write is lost
    again.close()


def test_a_store_in_use_is_refused(tmp_path: Path) -> None:
    store = TinyDBEventStore(tmp_path)
    try:
        result = store_cli("check", "--path", str(tmp_path))
        assert result.returncode == 2 and "skattisch store:" in result.stderr
    finally:
        store.close()


def test_the_table_refuses_to_start_on_a_damaged_list_and_says_how_to_repair_it(tmp_path: Path) -> None:
    store = TinyDBEventStore(tmp_path / "data")
    store.append("abend-1", [{"id": "a", "seq": 1}])
    damaged = store.path("abend-1")
    store.close()
    damaged.write_bytes(b'{"events": {"1": {"id"')
    config = tmp_path / "table.toml"
    config.write_text(f'[store]\npath = "{tmp_path / "data"}"\n', encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "ui.cli", "run", "--simulate", "--config", str(config),
                             "--exit-when-done"], cwd=ROOT, capture_output=True, text=True, timeout=120,
                            env={**os.environ, "KIVY_NO_ARGS": "1"})
    assert result.returncode == 2, result.stderr[-2000:]
    assert "abend-1.json" in result.stderr and "skattisch store recover" in result.stderr
    assert damaged.read_bytes() == b'{"events": {"1": {"id"'  # never overwritten
