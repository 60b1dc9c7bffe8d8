"""Processes and tables for the league tests: ``skattisch league serve`` in its own process, its
organiser's session over real HTTP, and tables that are the real sync client over lists whose
every game the test knows (``tests.club_helpers``), so the rankings can be computed apart."""

from __future__ import annotations

import http.cookiejar
import json
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from device.journal import JournalEntry
from device.sync import journal_entries
from drivers.store import device_id
from drivers.sync import STATE_FILE, SyncClient, SyncStateFile
from tests.club_helpers import Entry, list_events
from tests.e2e.sync_helpers import Collector, ServerProcess, pair_table

ROOT = Path(__file__).resolve().parents[2]


class League(ServerProcess):
    """``skattisch league serve`` on 127.0.0.1 (port 0 first, the same port after a restart)."""

    def __init__(self, db: Path | str, port: int = 0) -> None:  # a SQLite file or a postgresql:// URL
        self.db = db
        self.port = port
        self.process: subprocess.Popen[str] | None = None
        self.start()

    def start(self) -> None:
        args = [sys.executable, "-m", "ui.cli", "league", "serve", "--db", str(self.db), "--host", "127.0.0.1",
                "--port", str(self.port), "--name", "Bezirksliga Test"]
        for _ in range(50):  # after a kill the port may need a moment
            self.process = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            assert self.process.stdout is not None
            line = self.process.stdout.readline()
            if "listening on" in line:
                self.url = line.split("listening on ")[1].strip()
                self.port = int(self.url.rsplit(":", 1)[1])
                return
            self.process.wait(5)
            time.sleep(0.1)
        assert self.process is not None and self.process.stderr is not None
        raise AssertionError(f"the league did not start: {self.process.stderr.read()}")

    def code(self, club: str) -> str:
        """A pairing code for ``club`` as the league's command line makes it."""
        done = subprocess.run([sys.executable, "-m", "ui.cli", "league", "code", club, "--db", str(self.db), "--json"],
                              cwd=ROOT, capture_output=True, text=True, check=True)
        return str(json.loads(done.stdout)["code"])

    def get_json(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=10) as answer:
            return json.loads(answer.read())


def set_password(command: str, db: Path | str, password: str) -> str:
    """``skattisch club|league password`` on the server's console, the password on stdin; what it says."""
    done = subprocess.run([sys.executable, "-m", "ui.cli", command, "password", "--db", str(db)], cwd=ROOT,
                          input=password + "\n", capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


class Organiser:
    """The organiser's browser session (a cookie jar), logged in with the password that
    ``skattisch league password`` (``command="club"``: the club's) set on the console first."""

    def __init__(self, url: str, db: Path | str, password: str = "liga-geheim", start: str = "/verwaltung",
                 command: str = "league") -> None:
        self.url = url
        set_password(command, db, password)
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.post(f"/anmelden?weiter={start}", passwort=password)

    def post(self, path: str, **form: str) -> str:
        status, text = self.answer(path, **form)
        assert status == 200, (status, text)
        return text

    def answer(self, path: str, **form: str) -> tuple[int, str]:
        """The status and page of a form sent (a refusal is a page too)."""
        data = urllib.parse.urlencode(form).encode()
        try:
            with self.opener.open(self.url + path, data=data, timeout=10) as answer:
                return int(answer.status), str(answer.read().decode())
        except urllib.error.HTTPError as exc:
            return int(exc.code), str(exc.read().decode())

    def get(self, path: str) -> str:
        with self.opener.open(self.url + path, timeout=10) as answer:
            return str(answer.read().decode())


class ListEntries:
    """A table's journal as the sync client reads it: the list's chain, known in full."""

    def __init__(self, entries: list[JournalEntry]) -> None:
        self.entries = entries

    def entries_after(self, seq: int, limit: int | None = None) -> list[JournalEntry]:
        out = [e for e in self.entries if int(e.event["seq"]) > seq]
        return out[:limit] if limit is not None else out


class KnownTable:
    """A table paired with a club's collector whose sync client sends one list the test knows."""

    def __init__(self, directory: Path, collector: Collector, name: str, players: tuple[str, ...],
                 entries: list[Entry], members: tuple[str, ...] = ()) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.device = device_id(directory)
        pair_table(directory, collector, name=name)
        self.players, self.games = players, entries
        self.entries = journal_entries(list_events(self.device, f"{self.device}-l1", players, entries,
                                                   members=members))
        self.client = SyncClient(ListEntries(self.entries), SyncStateFile(directory / STATE_FILE), device=self.device,
                                 timeout=2.0, backoff=(0.05, 0.5), idle_poll=0.5, batch_size=7)

    @property
    def list_id(self) -> str:
        return f"{self.device}-l1"
