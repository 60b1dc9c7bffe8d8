"""Backing up and restoring the collector's database (``skattisch club backup|restore FILE``).

SQLite: the online backup API (a consistent copy while the collector runs) into one file, which
is itself a SQLite database. PostgreSQL: ``pg_dump --format=custom`` (consistent too, the server
keeps running) and ``pg_restore`` in one transaction. A backup is written beside its name and
renamed when whole, so a broken run never leaves a half file under the name.

A restore goes into a fresh database only (a new SQLite file, or an empty PostgreSQL database
made with ``createdb``): a database that holds tables is refused, never overwritten. Afterwards
the store is opened once, so a backup from an older program takes the migrations it lacks.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

from drivers.club.migrations import StoreError
from drivers.club.store import is_postgres_url, open_store, redacted

SQLITE_HEADER = b"SQLite format 3\x00"
PG_DUMP_HEADER = b"PGDMP"


def postgres_program(name: str) -> Path | None:
    """A PostgreSQL program (``pg_dump``, ``initdb`` …) from PATH, else from the newest Debian
    PostgreSQL (``/usr/lib/postgresql/NN/bin`` is not on PATH)."""
    found = shutil.which(name)
    if found:
        return Path(found)
    versions = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"),
                      key=lambda p: int(p.parts[-3]) if p.parts[-3].isdigit() else 0)
    return versions[-1] if versions else None


def backup(target: str | os.PathLike[str], file: str | os.PathLike[str]) -> int:
    """Copy the collector's database at ``target`` into ``file``; its size in bytes."""
    file = Path(file)
    partial = file.with_name(file.name + ".partial")
    try:
        if is_postgres_url(target):
            _run(_program("pg_dump"), "--format=custom", "--no-owner", "--no-privileges", "--file", str(partial),
                 "--dbname", str(target))
        else:
            _sqlite_copy(_existing_sqlite(Path(target)), partial)
        os.replace(partial, file)
    finally:
        partial.unlink(missing_ok=True)
    return file.stat().st_size


def restore(file: str | os.PathLike[str], target: str | os.PathLike[str]) -> None:
    """Put the backup ``file`` into the fresh database ``target`` and bring its schema up to date."""
    file = Path(file)
    try:
        with file.open("rb") as opened:
            header = opened.read(16)
    except OSError as exc:
        raise StoreError(f"the backup {file} cannot be read: {exc.strerror or exc}") from None
    if is_postgres_url(target):
        if not header.startswith(PG_DUMP_HEADER):
            raise StoreError(f"{file} is not a PostgreSQL backup (skattisch club backup --db postgresql://…)")
        _refuse_if_postgres_holds_tables(str(target))
        _run(_program("pg_restore"), "--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction",
             "--dbname", str(target), str(file))
    else:
        if header != SQLITE_HEADER:
            raise StoreError(f"{file} is not a SQLite backup (skattisch club backup --db FILE.sqlite3)")
        path = Path(target)
        if path.exists() and _sqlite_tables(path):
            raise StoreError(f"the database {path} already holds tables: restore into a new file")
        path.parent.mkdir(parents=True, exist_ok=True)
        _sqlite_copy(file, path)
    open_store(target).close()  # the migrations a backup from an older program lacks


def _existing_sqlite(path: Path) -> Path:
    if not path.is_file():
        raise StoreError(f"there is no database at {path}")
    return path


def _sqlite_tables(path: Path) -> list[str]:
    with sqlite3.connect(path) as db:
        names = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    db.close()
    return names


def _sqlite_copy(source: Path, destination: Path) -> None:
    """SQLite's online backup: a consistent copy even while a collector writes ``source``."""
    src = sqlite3.connect(source)
    try:
        dst = sqlite3.connect(destination)
        try:
            src.backup(dst)
        finally:
            dst.close()
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{source} cannot be copied: {exc}") from None
    finally:
        src.close()


def _refuse_if_postgres_holds_tables(url: str) -> None:
    import psycopg

    try:
        with psycopg.connect(url) as db:
            count = db.execute("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'public'").fetchone()
    except psycopg.Error as exc:
        raise StoreError(f"cannot connect to {redacted(url)}: {str(exc).strip()}") from None
    if count and count[0]:
        raise StoreError(f"the database {redacted(url)} already holds tables: restore into a new, empty one "
                         "(createdb NAME)")


def _program(name: str) -> Path:
    found = postgres_program(name)
    if found is None:
        raise StoreError(f"{name} is not installed: apt install postgresql-client (or PostgreSQL's client tools)")
    return found


def _run(program: Path, *args: str) -> None:
    result = subprocess.run([str(program), *args], capture_output=True, text=True)
    if result.returncode != 0:
        message = redacted(result.stderr.strip() or f"{program.name} ended with {result.returncode}")
        raise StoreError(f"{program.name} failed: {message}")
