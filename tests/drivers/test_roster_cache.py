"""The laptop's roster kept beside the table's store: written when an ack brings a
different one, read back at start; a damaged copy is skipped (the next ack brings it again)."""

from __future__ import annotations

import json
from pathlib import Path

from drivers.roster_cache import FILE, RosterKeeper, load_roster

ROSTER = [{"name": "Jürgen", "short": "Jürgen", "id": "pJ", "card": "04A1B2C3"}]


def test_the_roster_is_kept_when_it_changes_and_read_back(tmp_path: Path) -> None:
    assert load_roster(tmp_path) is None
    keeper = RosterKeeper(tmp_path)
    assert keeper.keep(ROSTER) and load_roster(tmp_path) == ROSTER
    before = (tmp_path / FILE).stat().st_mtime_ns
    assert not keeper.keep(ROSTER) and not keeper.keep(None)  # the same again, or no roster: not written
    assert (tmp_path / FILE).stat().st_mtime_ns == before
    assert not RosterKeeper(tmp_path).keep(ROSTER)  # after a restart too
    assert RosterKeeper(tmp_path).keep([]) and load_roster(tmp_path) == []


def test_a_damaged_copy_is_skipped(tmp_path: Path) -> None:
    (tmp_path / FILE).write_text('[{"name": "Jür', encoding="utf-8")
    assert load_roster(tmp_path) is None
    (tmp_path / FILE).write_text(json.dumps({"name": "x"}), encoding="utf-8")
    assert load_roster(tmp_path) is None
    assert RosterKeeper(tmp_path).keep(ROSTER) and load_roster(tmp_path) == ROSTER
