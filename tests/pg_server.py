"""A real PostgreSQL server for the tests: ``initdb`` into a temporary folder, ``pg_ctl start`` on a
free port of 127.0.0.1 (its unix socket in that folder too), a fresh database per test, stopped
and removed at the end.

The binaries are Debian's ``postgresql`` package (``/usr/lib/postgresql/NN/bin``, not on PATH) or
whatever PATH has. PostgreSQL refuses to run as root: as root the server runs as the ``postgres``
user (the package makes it) through ``runuser``, in a folder that user owns.
"""

from __future__ import annotations

import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

from drivers.club.backup import postgres_program

SUPERUSER = "skattisch"


def missing_binaries() -> str | None:
    """Why no server can be started here (one line), or None."""
    missing = [name for name in ("initdb", "pg_ctl") if postgres_program(name) is None]
    if missing:
        return f"PostgreSQL not installed ({', '.join(missing)} missing): apt install postgresql"
    if os.geteuid() == 0 and (shutil.which("runuser") is None or _uid("postgres") is None):
        return "PostgreSQL cannot run as root and there is no 'postgres' user to run it (apt install postgresql)"
    return None


def _uid(user: str) -> int | None:
    import pwd

    try:
        return pwd.getpwnam(user).pw_uid
    except KeyError:
        return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresServer:
    """One server in its own folder; :meth:`new_database` gives each test an empty database.

    ``durable``: fsync as a production server does (benchmarks); the tests run without it.
    """

    def __init__(self, *, durable: bool = False) -> None:
        self.durable = durable
        self.folder = Path(tempfile.mkdtemp(prefix="skattisch-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self._names = itertools.count(1)
        self.as_root = os.geteuid() == 0
        if self.as_root:
            uid = _uid("postgres")
            assert uid is not None
            os.chown(self.folder, uid, -1)

    def _run(self, *args: str | Path) -> subprocess.CompletedProcess[str]:
        command = [str(a) for a in args]
        if self.as_root:
            command = ["runuser", "-u", "postgres", "--", *command]
        result = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=self.folder)
        if result.returncode != 0:
            log = self.folder / "server.log"
            raise RuntimeError(f"{' '.join(command)} failed: {result.stderr or result.stdout}"
                               f"{log.read_text(errors='replace') if log.exists() else ''}")
        return result

    def start(self) -> PostgresServer:
        initdb = postgres_program("initdb")
        assert initdb is not None
        self._run(initdb, "-D", self.data, "-U", SUPERUSER, "--auth=trust", "--encoding=UTF8", "--locale=C",
                  "--no-sync")
        self.resume()
        return self

    def resume(self) -> None:
        """Start the server (again, after :meth:`pause`) on its port with its options."""
        pg_ctl = postgres_program("pg_ctl")
        assert pg_ctl is not None
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c max_connections=200 "
                   f"-c fsync={'on' if self.durable else 'off'}")
        self._run(pg_ctl, "-D", self.data, "-l", self.folder / "server.log", "-o", options, "-w", "-t", "60", "start")

    def pause(self) -> None:
        """Stop the server (fast: sessions are cut) and keep its data: :meth:`resume` starts it again."""
        pg_ctl = postgres_program("pg_ctl")
        assert pg_ctl is not None
        self._run(pg_ctl, "-D", self.data, "-m", "fast", "-w", "stop")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def new_database(self, prefix: str = "test") -> str:
        """An empty database's URL (its name unique in this server)."""
        import psycopg

        name = f"{prefix}_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def restart(self) -> None:
        """Stop (fast: sessions are cut) and start again, on the same port with the same options."""
        pg_ctl = postgres_program("pg_ctl")
        assert pg_ctl is not None
        self._run(pg_ctl, "-D", self.data, "-l", self.folder / "server.log", "-m", "fast", "-w", "-t", "60", "restart")

    def stop(self) -> None:
        pg_ctl = postgres_program("pg_ctl")
        try:
            if pg_ctl is not None and (self.data / "postmaster.pid").exists():
                self._run(pg_ctl, "-D", self.data, "-m", "fast", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
