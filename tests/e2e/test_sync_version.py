"""Each table sends the version it runs with its sync, and the laptop's list of tables shows it
and marks a table that runs another version than the laptop. Real processes over real HTTP on
127.0.0.1: the collector (``skattisch club serve``) and three tables (``tests.e2e.sync_table``):
one on the installed version, one that says another version, one that says none (as tables did
before the field: still taken). The Abend page in headless chromium: a screenshot per size."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.sync_helpers import ROOT, Collector, TableProcess, pair_table, wait_until_synced
from tests.e2e.test_club_pages import SIZES, _shot, body_once, browser  # noqa: F401  # browser: a fixture
from tests.e2e.test_version import pyproject_version

OTHER = "0.0.9"


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Collector]:
    tmp = tmp_path_factory.mktemp("versions")
    collector = Collector(tmp / "club.sqlite3")
    tables: list[TableProcess] = []
    try:
        for number, extra in ((1, ()), (2, ("--app-version", OTHER)), (3, ("--app-version", "none"))):
            directory = tmp / f"tisch-{number}"
            directory.mkdir()
            pair_table(directory, collector, name=f"Tisch {number}")
            tables.append(TableProcess(directory, *extra))
        for table in tables:
            assert table.ask("play 1") == {"played": 1}
        statuses = wait_until_synced(tables, 60)  # every table acknowledged: the one without a version too
        assert all(s["error"] == "" for s in statuses), statuses
        yield collector
    finally:
        for table in tables:
            table.quit()
        collector.stop()


def tiles(collector: Collector) -> dict[str, dict[str, Any]]:
    with urllib.request.urlopen(collector.url + "/abend.json", timeout=10) as response:
        return {tile["name"]: tile for tile in json.loads(response.read())}


def test_the_laptop_shows_each_tables_version_and_marks_another(evening: Collector) -> None:
    version = pyproject_version()
    shown = {name: (tile["version"], tile["other_version"]) for name, tile in tiles(evening).items()}
    assert shown == {"Tisch 1": (f"Version {version}", False),
                     "Tisch 2": (f"andere Version: {OTHER} (Laptop: {version})", True),
                     "Tisch 3": ("Version unbekannt", False)}
    with urllib.request.urlopen(evening.url + "/abend", timeout=10) as response:
        page = response.read().decode("utf-8")
    assert f'<div class="version other">andere Version: {OTHER} (Laptop: {version})</div>' in page
    assert f'<div class="version">Version {version}</div>' in page


def test_club_tables_lists_each_tables_version(evening: Collector) -> None:
    result = subprocess.run([sys.executable, "-m", "ui.cli", "club", "tables", "--db", str(evening.db), "--json"],
                            cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert {row["name"]: row["app_version"] for row in json.loads(result.stdout)} == {
        "Tisch 1": pyproject_version(), "Tisch 2": OTHER, "Tisch 3": None}
    text = subprocess.run([sys.executable, "-m", "ui.cli", "club", "tables", "--db", str(evening.db)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60).stdout
    lines = {line.split("  ")[0].strip(): line for line in text.splitlines()[1:]}
    assert f" {pyproject_version()} " in lines["Tisch 1"] and "andere" not in lines["Tisch 1"]
    assert f" {OTHER} (andere Version) " in lines["Tisch 2"] and " — " in lines["Tisch 3"]


def test_the_abend_page_marks_another_version(evening: Collector, browser: Any) -> None:  # noqa: F811
    browser.get(evening.url + "/abend")
    text = body_once(browser, f"andere Version: {OTHER}")
    assert f"Version {pyproject_version()}" in text
    for size in SIZES:
        assert _shot(browser, "abend-versions", size).stat().st_size > 0
