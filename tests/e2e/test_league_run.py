"""Running the league on a server: deploy/league's systemd units verify, the one settings file
is what the service and the console commands read, and the nightly backup (the backup unit's
own command) taken while a club forwards restores into a new PostgreSQL database whose pages
equal the league's."""

from __future__ import annotations

import datetime
import difflib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from device.journal import verify_chain
from drivers.league.settings import read_env_file
from drivers.league.store import open_league_store
from tests.club_helpers import NAMES, random_entries
from tests.e2e.league_helpers import KnownTable, League, Organiser
from tests.e2e.sync_helpers import Collector
from tests.pg_server import PostgresServer

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy" / "league"
INSTALLED = "/opt/skattisch/venv/bin/skattisch"
SKATTISCH = Path(sys.executable).with_name("skattisch")  # this venv's console script
UNITS = ("skattisch-league.service", "skattisch-league-backup.service", "skattisch-league-backup.timer")
PAGES = ("/spieltag.json", "/wertung.json", "/wertung.csv", "/saison.json", "/vereine.json")


def _unit_here(name: str, env_file: Path) -> str:
    """A unit as installed, its program and settings file this checkout's."""
    text = (DEPLOY / name).read_text(encoding="utf-8")
    return text.replace(INSTALLED, str(SKATTISCH)).replace("/etc/skattisch/league.env", str(env_file))


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_the_units_verify(tmp_path: Path) -> None:
    for name in UNITS:
        (tmp_path / name).write_text(_unit_here(name, DEPLOY / "league.env"), encoding="utf-8")
    done = subprocess.run(["systemd-analyze", "verify", "--man=no", *(str(tmp_path / n) for n in UNITS)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr
    service = (DEPLOY / "skattisch-league.service").read_text(encoding="utf-8")
    assert "EnvironmentFile=/etc/skattisch/league.env" in service and "--host 127.0.0.1" in service
    assert "StandardOutput=journal" in service


def test_the_console_commands_read_the_services_settings_file(tmp_path: Path) -> None:
    shipped = read_env_file(DEPLOY / "league.env")
    assert set(shipped) == {"SKATTISCH_LEAGUE_DB", "SKATTISCH_LEAGUE_NAME", "SKATTISCH_LEAGUE_PORT",
                            "SKATTISCH_BACKUP_DIR"}
    env_file = tmp_path / "league.env"
    env_file.write_text((DEPLOY / "league.env").read_text(encoding="utf-8").replace(
        shipped["SKATTISCH_LEAGUE_DB"], str(tmp_path / "liga.sqlite3")), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKATTISCH_")} | {
        "SKATTISCH_LEAGUE_ENV": str(env_file)}

    def cli(*args: str, given: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "ui.cli", "league", *args], cwd=ROOT, env=env, input=given,
                              capture_output=True, text=True, timeout=60)

    assert cli("password", given="liga-geheim\n").returncode == 0
    assert cli("code", "SC Herz", "--json").returncode == 0
    store = open_league_store(tmp_path / "liga.sqlite3")  # the file's database, not the default one
    try:
        assert store.events.document("organiser") is not None
    finally:
        store.close()
    env_file.write_text("SKATTISCH_LEAGUE_PORT=achtzig\n", encoding="utf-8")
    refused = cli("clubs")
    assert refused.returncode == 2 and "SKATTISCH_LEAGUE_PORT='achtzig' is not a port number" in refused.stderr


def _backup_command() -> list[str]:
    """skattisch-league-backup.service's ExecStart, as systemd runs it (its %% are one %)."""
    unit = _unit_here("skattisch-league-backup.service", Path("/dev/null"))
    line = next(x for x in unit.splitlines() if x.startswith("ExecStart="))
    found = re.fullmatch(r"ExecStart=/bin/sh -c '(.*)'", line)
    assert found is not None, line
    return ["/bin/sh", "-c", found.group(1).replace("%%", "%")]


def _run_backup(db: str, folder: Path) -> Path:
    before = set(folder.glob("liga-*.dump"))
    env = {**os.environ, "SKATTISCH_LEAGUE_DB": db, "SKATTISCH_BACKUP_DIR": str(folder)}
    done = subprocess.run(_backup_command(), env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    made = set(folder.glob("liga-*.dump")) - before or set(folder.glob("liga-*.dump"))
    return max(made, key=lambda p: p.stat().st_mtime)


def _restore(backup: Path, url: str) -> None:
    done = subprocess.run([sys.executable, "-m", "ui.cli", "club", "restore", str(backup), "--db", url], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def _pages(url: str, today: str) -> dict[str, bytes]:
    out = {}
    for path in PAGES:
        with urllib.request.urlopen(f"{url}{path}?tag={today}", timeout=10) as answer:
            out[path] = _in_list_order(path, answer.read())
    return out


def _in_list_order(path: str, page: bytes) -> bytes:
    """/wertung.json with each line's tables in one order: a club's line lists its lists' table
    numbers in the order the database reads the lists, which a restored database need not keep."""
    if path != "/wertung.json":
        return page
    data = json.loads(page)
    for line in (*data["players"], *data["clubs"]):
        line["tables"], line["series_tables"] = sorted(line["tables"]), sorted(line["series_tables"])
    return json.dumps(data, sort_keys=True).encode()


def _differences(expected: dict[str, bytes], got: dict[str, bytes]) -> list[str]:
    """Where two servers' pages differ (the first few lines of each)."""
    out = []
    for path in PAGES:
        if expected[path] != got[path]:
            a, b = (json.dumps(json.loads(x), indent=1).splitlines() if path.endswith("json") else
                    x.decode().splitlines() for x in (expected[path], got[path]))
            out += [f"{path}: {line}" for line in difflib.unified_diff(a, b, lineterm="", n=4)][:30]
    return out


def test_a_backup_while_a_club_forwards_restores_into_a_new_database_with_equal_pages(
        postgres_server: PostgresServer, tmp_path: Path) -> None:
    url = postgres_server.new_database("liga")
    folder = tmp_path / "backups"
    folder.mkdir()
    league = League(url)
    restored_league: League | None = None
    collector: Collector | None = None
    tables: list[KnownTable] = []
    try:
        today = datetime.date.today().isoformat()
        Organiser(league.url, league.db).post("/verwaltung", aktion="spieltag", datum=today, titel="1. Spieltag")
        collector = Collector(tmp_path / "club.sqlite3", extra=(
            "--league", league.url, "--league-code", league.code("Pik As"), "--name", "Pik As"))
        rng = random.Random(44)
        tables = [KnownTable(tmp_path / f"t{n}", collector, f"Tisch {n}", tuple(NAMES[4 * n:4 * n + 4]),
                             random_entries(rng, 4, 36)) for n in range(2)]
        for table in tables:
            table.client.start()
        store = open_league_store(url)
        try:
            deadline = time.monotonic() + 30
            while sum(store.events.held(t.device) for t in tables) == 0:  # the forwards under way
                assert time.monotonic() < deadline, "nothing forwarded"
                time.sleep(0.05)
            during = _run_backup(url, folder)  # while the club forwards
            while any(store.events.held(t.device) < len(t.entries) for t in tables):
                assert time.monotonic() < deadline, "the club's lists did not arrive"
                time.sleep(0.2)
        finally:
            store.close()
        # the backup taken mid-forward: whole lists or a prefix of each, every chain verifying
        mid = postgres_server.new_database("liga_mitte")
        _restore(during, mid)
        kept = open_league_store(mid)
        try:
            for table in tables:
                held = kept.events.entries(table.device, table.list_id)
                assert held == table.entries[:len(held)]
                if held:
                    verify_chain((e.prev, e.hash, e.event) for e in held)
        finally:
            kept.close()
        # the night's backup after the match day: a new database, a second server, the same pages
        final = postgres_server.new_database("liga_neu")
        _restore(_run_backup(url, folder), final)
        restored_league = League(final)
        deadline = time.monotonic() + 30
        expected = _pages(league.url, today)
        while (got := _pages(restored_league.url, today)) != expected or b"Pik As" not in got["/wertung.json"]:
            assert time.monotonic() < deadline, _differences(expected, got)
            time.sleep(0.3)
            expected = _pages(league.url, today)
        assert len(json.loads(got["/wertung.json"])["players"]) == 8
    finally:
        for table in tables:
            table.client.close()
        if collector is not None:
            collector.stop()
        if restored_league is not None:
            restored_league.stop()
        league.stop()
