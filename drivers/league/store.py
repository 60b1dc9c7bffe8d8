"""The league's store: its port (:class:`LeagueStore`) and one adapter for SQLite and PostgreSQL.

The league keeps the tables' events exactly as the collector does (the same checks, the same
tables: every list's hash chain is verified back to the table that signed it), so the events
part is a :class:`~drivers.club.store.CollectorStore` (the tables are its devices, known
unpaired: only clubs hold secrets here). Beside it the league's own tables:

    clubs        club (the laptop's id), name, secret (NULL once unpaired), paired_at, last_contact
    club_codes   one-time six-digit codes, each for one club name, with expiry and wrong tries
    club_tables  device -> club: a table belongs to the first club that forwards it
    list_meta    what the club said of each list when it first forwarded it: its evening (the
                 match day's date), series and table number (the club's pages' numbering)
    list_summaries  each list as the pages show it (players, games, each player's figures), at the
                 count of events it was computed for: the pages fold a list only when it grew
    generation   one number, counted up by every change the pages show (events stored, a list's
                 meta, a club paired or unpaired, something kept aside, the organiser's settings):
                 the pages' cache key, the same for every process on the database
    rejects      forwarded entries kept aside (a chain that does not verify, a table of another
                 club, a second copy of a list with other content): one row per content, counted
    league_people      what each club says of the member ids on its lists: the person (its roster's
                 id) and the name the league may show (NULL: not to be named), replaced per club
    league_pseudonyms  "Spieler N" of a club's person, N counted per club from 1, kept for good

Nonces and documents (settings, the organiser's password) use the collector store's. The
league's tables are in the collector store's database, written through its connections
(:class:`~drivers.club.sql_store.SqlCollectorStore`: SQLite or PostgreSQL), created and upgraded
by numbered migrations in ``league_schema_version``.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from device.journal import JournalEntry
from device.league.verify import check_confirmations
from device.sync import BatchConflict, SyncRefused
from drivers.club.migrations import Db, Dialect, Migration, migrate, run_script
from drivers.club.sql_store import PAIR_BUDGET, SqlCollectorStore, count_wrong_try, refuse_locked_source
from drivers.club.store import BatchResult, CollectorStore, ListInfo, SqliteCollectorStore, open_store

__all__ = ["ClubInfo", "DayList", "LeagueStore", "ListMeta", "RejectInfo", "SqlLeagueStore", "SqliteLeagueStore", "open_league_store"]

KEPT_ASIDE = frozenset({"bad_confirmation", "broken_chain", "conflict", "foreign_table"})
"""Refusals whose entries the league keeps aside for its organiser (the others are the sender's)."""


@dataclass(frozen=True, slots=True)
class ClubInfo:
    club: str
    name: str
    paired: bool
    paired_at: float
    last_contact: float | None
    tables: int
    rejects: int


@dataclass(frozen=True, slots=True)
class RejectInfo:
    """Forwarded entries kept aside: why (``code``, ``reason``), from which club and table."""

    id: int
    club: str
    device: str
    seq: int
    code: str
    reason: str
    sent: dict[str, Any]
    at: float
    count: int
    last_at: float


@dataclass(frozen=True, slots=True)
class ListMeta:
    """What a club says of one of its lists: whose, which evening (date), series, table number."""

    club: str
    evening: str
    series: int
    table: int


@dataclass(frozen=True, slots=True)
class DayList:
    """A list the club said belongs to an evening, with its kept summary (what one match day's pages read)."""

    info: ListInfo
    meta: ListMeta
    summary: dict[str, Any]


class LeagueStore(Protocol):
    """What the league server needs from its store (:class:`SqlLeagueStore`: SQLite or PostgreSQL).

    ``events`` is the collector store (the tables' events, nonces and documents); the league's
    own tables (:data:`MIGRATIONS`) live in the same database, each method one transaction.
    """

    events: CollectorStore

    def add_club_code(self, code: str, name: str, expires: float) -> None: ...
    def pair_club(self, code: str, club: str, secret: str, *, now: float, source: str = "") -> str: ...
    def club_secret(self, club: str) -> str | None: ...
    def unpair_club(self, club: str) -> bool: ...
    def clubs(self) -> list[ClubInfo]: ...
    def club_of(self, device: str) -> str | None: ...
    def club_tables(self, club: str | None = None) -> dict[str, str]: ...
    def forward(self, club: str, device: str, name: str, entries: Sequence[JournalEntry], *,
                now: float, metas: dict[str, ListMeta] | None = None) -> BatchResult: ...
    def rejects(self, club: str | None = None) -> list[RejectInfo]: ...
    def keep_list_meta(self, club: str, device: str, metas: dict[str, ListMeta]) -> None: ...
    def list_meta(self) -> dict[tuple[str, str], ListMeta]: ...
    def keep_summaries(self, summaries: dict[tuple[str, str], tuple[int, dict[str, Any]]]) -> None: ...
    def summaries(self) -> dict[tuple[str, str], tuple[int, dict[str, Any]]]: ...
    def day_lists(self, date: str) -> list[DayList] | None: ...
    def summarised_days(self) -> set[str] | None: ...
    def generation(self) -> int: ...
    def touch(self) -> None: ...
    def keep_people(self, club: str, people: dict[str, tuple[str, str | None]]) -> bool: ...
    def add_people(self, club: str, people: dict[str, tuple[str, str | None]]) -> bool: ...
    def people(self) -> dict[tuple[str, str], tuple[str, str | None]]: ...
    def pseudonyms(self, wanted: set[tuple[str, str]]) -> dict[tuple[str, str], int]: ...
    def close(self) -> None: ...


SCHEMA = """
CREATE TABLE IF NOT EXISTS clubs (
    club TEXT PRIMARY KEY, name TEXT NOT NULL, secret TEXT, paired_at REAL NOT NULL, last_contact REAL);
CREATE TABLE IF NOT EXISTS club_codes (
    code TEXT PRIMARY KEY, name TEXT NOT NULL, expires REAL NOT NULL, tries INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS club_tables (
    device TEXT PRIMARY KEY, club TEXT NOT NULL, name TEXT NOT NULL, since REAL NOT NULL);
CREATE TABLE IF NOT EXISTS rejects (
    id INTEGER PRIMARY KEY AUTOINCREMENT, club TEXT NOT NULL, device TEXT NOT NULL, seq INTEGER NOT NULL,
    code TEXT NOT NULL, reason TEXT NOT NULL, sent TEXT NOT NULL, at REAL NOT NULL,
    count INTEGER NOT NULL DEFAULT 1, last_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS generation (one INTEGER PRIMARY KEY CHECK (one = 1), n INTEGER NOT NULL);
INSERT INTO generation (one, n) SELECT 1, 0 WHERE NOT EXISTS (SELECT 1 FROM generation);
CREATE TABLE IF NOT EXISTS list_summaries (
    device TEXT NOT NULL, list_id TEXT NOT NULL, count INTEGER NOT NULL, body TEXT NOT NULL,
    PRIMARY KEY (device, list_id));
CREATE TABLE IF NOT EXISTS list_meta (
    device TEXT NOT NULL, list_id TEXT NOT NULL, club TEXT NOT NULL, evening TEXT NOT NULL,
    series INTEGER NOT NULL, table_no INTEGER NOT NULL, PRIMARY KEY (device, list_id));
"""


# PostgreSQL: the kept entry's text can be longer than an index row may be, so its digest
REJECT_KEY: dict[Dialect, str] = {"sqlite": "(club, device, seq, code, sent)",
                                  "postgres": "(club, device, seq, code, md5(sent))"}


def _league_tables(db: Db, dialect: Dialect) -> None:
    run_script(db, dialect, SCHEMA)
    db.execute(f"CREATE UNIQUE INDEX IF NOT EXISTS rejects_once ON rejects {REJECT_KEY[dialect]}")


def _lists_by_day(db: Db, dialect: Dialect) -> None:
    db.execute("CREATE INDEX IF NOT EXISTS list_meta_by_day ON list_meta (substr(evening, 1, 10))")


PEOPLE = """
CREATE TABLE IF NOT EXISTS league_people (
    club TEXT NOT NULL, member TEXT NOT NULL, person TEXT NOT NULL, name TEXT, PRIMARY KEY (club, member));
CREATE TABLE IF NOT EXISTS league_pseudonyms (
    club TEXT NOT NULL, person TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (club, person));
"""


def _people_tables(db: Db, dialect: Dialect) -> None:
    run_script(db, dialect, PEOPLE)


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "league: clubs, club_codes, club_tables, rejects, generation, list_summaries, list_meta",
              _league_tables),
    Migration(2, "list_meta: by the evening's date (a match day's page reads its lists alone)", _lists_by_day),
    Migration(3, "league_people, league_pseudonyms: the names the clubs let the league show", _people_tables),
)
"""The league's tables, versioned in ``league_schema_version`` beside the collector's (the same
:func:`drivers.club.migrations.migrate`, so a PostgreSQL league store runs them too)."""
VERSION_TABLE = "league_schema_version"
LEAGUE_MIGRATION_LOCK = 18_0018  # PostgreSQL's advisory lock while the league's tables are migrated


class SqlLeagueStore:
    """The league's tables in the database of a SQL collector store (SQLite or PostgreSQL),
    through its connections: the same transactions, the same placeholders."""

    def __init__(self, events: SqlCollectorStore) -> None:
        self.events: CollectorStore = events
        self._sql = events
        self._dialect = events.dialect
        with self._transaction() as db:
            if self._dialect == "postgres":  # several servers may open the database at once
                db.execute("SELECT pg_advisory_xact_lock(?)", (LEAGUE_MIGRATION_LOCK,))
            migrate(db, self._dialect, now=time.time(), migrations=MIGRATIONS, table=VERSION_TABLE)

    def _transaction(self) -> AbstractContextManager[Db]:
        return self._sql._transaction()  # the collector store's one writer: a league write is as safe as its own

    def _read(self) -> Db:
        return self._sql._read()

    # -- pairing -----------------------------------------------------------------------------

    def add_club_code(self, code: str, name: str, expires: float) -> None:
        with self._transaction() as db:
            db.execute("INSERT INTO club_codes (code, name, expires, tries) VALUES (?, ?, ?, 0) ON CONFLICT (code) "
                       "DO UPDATE SET name = excluded.name, expires = excluded.expires, tries = 0", (code, name, expires))

    def pair_club(self, code: str, club: str, secret: str, *, now: float, source: str = "") -> str:
        """Take a code (once) and give ``club`` its secret; the club's name as the code names it.
        Wrong codes count as the collector's pairing codes do (per ``source``, the client's
        address, and once on every open code: :func:`~drivers.club.sql_store.refuse_locked_source`)."""
        with self._transaction() as db:
            refuse_locked_source(db, source, now)
            db.execute("DELETE FROM club_codes WHERE expires < ? OR tries >= ?", (now, PAIR_BUDGET))
            row = db.execute("SELECT name FROM club_codes WHERE code = ?", (code,)).fetchone()
            if row is not None:
                db.execute("DELETE FROM club_codes WHERE code = ?", (code,))
                db.execute("INSERT INTO clubs (club, name, secret, paired_at) VALUES (?, ?, ?, ?) "
                           "ON CONFLICT (club) DO UPDATE SET name = excluded.name, secret = excluded.secret, "
                           "paired_at = excluded.paired_at", (club, str(row[0]), secret, now))
                _bump(db)
                return str(row[0])
            count_wrong_try(db, source, now, "club_codes")
        raise SyncRefused("bad_code", "this league pairing code is not valid (wrong, used or older than "
                                      "10 minutes): ask the league's organiser for a new one", 403)

    def club_secret(self, club: str) -> str | None:
        row = self._read().execute("SELECT secret FROM clubs WHERE club = ?", (club,)).fetchone()
        return None if row is None else row[0]

    def unpair_club(self, club: str) -> bool:
        with self._transaction() as db:
            _bump(db)
            return bool(db.execute("UPDATE clubs SET secret = NULL WHERE club = ? AND secret IS NOT NULL",
                                   (club,)).rowcount > 0)

    # -- forwarding --------------------------------------------------------------------------

    def forward(self, club: str, device: str, name: str, entries: Sequence[JournalEntry], *,
                now: float, metas: dict[str, ListMeta] | None = None) -> BatchResult:
        """Store a table's entries forwarded by ``club``: its own tables only, chains verified;
        with ``metas`` what the club says of the lists (:meth:`keep_list_meta`).

        A table of another club, a chain that does not verify back to the table or a second
        copy of an event with other content is refused and kept aside (:meth:`rejects`).
        A forward that is taken is one transaction (the table claimed, the events, the lists'
        meta, the pages' generation); a refused one is redone step by step, so what is kept
        aside (and the claim of a new table) is committed before the refusal is raised.
        """
        try:
            check_confirmations(entries)
            with self._transaction() as db:
                if self._claim_in(db, club, device, name, now) != club:
                    raise SyncRefused("foreign_table", "")  # said, and kept aside, by the steps below
                self._sql.ensure_device_in(db, device, name, now=now)
                result, conflict = self._sql.store_batch_in(db, device, entries, now=now)
                if conflict is not None:
                    raise conflict  # rolled back: the steps below keep it
                if metas:
                    self._keep_list_meta_in(db, club, device, metas)
                if result.stored or metas:
                    _bump(db)
                return result
        except SyncRefused:
            pass
        result = self._forward_in_steps(club, device, name, entries, now)
        if metas:
            self.keep_list_meta(club, device, metas)
        return result

    def _forward_in_steps(self, club: str, device: str, name: str, entries: Sequence[JournalEntry],
                          now: float) -> BatchResult:
        """:meth:`forward`, each step its own transaction (a refusal's rows stay)."""
        owner = self._claim(club, device, name, now)
        if owner != club:
            error = SyncRefused("foreign_table", f"the table {device} forwards through another club of this league: "
                                                 "a table belongs to one club", 403)
            self._keep_aside(club, device, entries[0] if entries else None, error, now)
            raise error
        self.events.ensure_device(device, name, now=now)
        try:
            check_confirmations(entries)
            result = self.events.store_batch(device, entries, now=now)
            if result.stored:
                self.touch()
            return result
        except BatchConflict as exc:
            self._keep_aside(club, device, exc.conflict.sent, exc, now)
            raise
        except SyncRefused as exc:
            if exc.code in KEPT_ASIDE:
                self._keep_aside(club, device, _first_new(entries, self.events.held(device)), exc, now)
            raise

    def _claim(self, club: str, device: str, name: str, now: float) -> str:
        with self._transaction() as db:
            return self._claim_in(db, club, device, name, now)

    @staticmethod
    def _claim_in(db: Db, club: str, device: str, name: str, now: float) -> str:
        db.execute("UPDATE clubs SET last_contact = ? WHERE club = ?", (now, club))
        db.execute("INSERT INTO club_tables (device, club, name, since) VALUES (?, ?, ?, ?) "
                   "ON CONFLICT (device) DO NOTHING", (device, club, name, now))
        return str(db.execute("SELECT club FROM club_tables WHERE device = ?", (device,)).fetchone()[0])

    def _keep_aside(self, club: str, device: str, entry: JournalEntry | None, error: SyncRefused, now: float) -> None:
        sent = {} if entry is None else {"prev": entry.prev, "hash": entry.hash, "event": entry.event}
        seq = int(entry.event.get("seq", 0)) if entry is not None else 0
        with self._transaction() as db:
            db.execute("INSERT INTO rejects (club, device, seq, code, reason, sent, at, last_at) "
                       f"VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT {REJECT_KEY[self._dialect]} "
                       "DO UPDATE SET count = rejects.count + 1, last_at = excluded.last_at",
                       (club, device, seq, error.code, error.reason, _canonical(sent), now, now))
            _bump(db)

    def keep_list_meta(self, club: str, device: str, metas: dict[str, ListMeta]) -> None:
        """Keep what the club says of its lists: its first word (a later resend changes nothing),
        unless that said no evening."""
        if not metas:
            return
        with self._transaction() as db:
            self._keep_list_meta_in(db, club, device, metas)
            _bump(db)

    @staticmethod
    def _keep_list_meta_in(db: Db, club: str, device: str, metas: dict[str, ListMeta]) -> None:
        db.executemany("INSERT INTO list_meta (device, list_id, club, evening, series, table_no) "
                       "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (device, list_id) DO UPDATE SET "
                       "evening = excluded.evening, series = excluded.series, table_no = excluded.table_no "
                       "WHERE list_meta.evening = ''",
                       [(device, list_id, club, m.evening, m.series, m.table) for list_id, m in metas.items()])

    def keep_summaries(self, summaries: dict[tuple[str, str], tuple[int, dict[str, Any]]]) -> None:
        """Keep lists as the pages computed them, each at its count of events (one transaction)."""
        if not summaries:
            return
        with self._transaction() as db:
            db.executemany("INSERT INTO list_summaries (device, list_id, count, body) VALUES (?, ?, ?, ?) "
                           "ON CONFLICT (device, list_id) DO UPDATE SET count = excluded.count, body = excluded.body",
                           [(d, i, count, _canonical(body)) for (d, i), (count, body) in summaries.items()])

    # -- reads -------------------------------------------------------------------------------

    def summaries(self) -> dict[tuple[str, str], tuple[int, dict[str, Any]]]:
        rows = self._read().execute("SELECT device, list_id, count, body FROM list_summaries")
        return {(r[0], r[1]): (int(r[2]), json.loads(r[3])) for r in rows}

    def day_lists(self, date: str) -> list[DayList] | None:
        """The lists whose club said they belong to the evening ``date`` (its first ten characters),
        each with its summary; None if one has none, or one for fewer events than it holds (then
        the pages fold and score it first, over every list)."""
        rows = self._read().execute(
            "SELECT l.device, l.list_id, l.head, l.count, l.first_seq, l.last_seq, m.club, m.evening, m.series, "
            "m.table_no, s.count, s.body FROM list_meta m "
            "JOIN lists l ON l.device = m.device AND l.list_id = m.list_id "
            "LEFT JOIN list_summaries s ON s.device = m.device AND s.list_id = m.list_id "
            "WHERE substr(m.evening, 1, 10) = ?", (date,)).fetchall()
        if any(r[10] is None or int(r[10]) != int(r[3]) for r in rows):
            return None
        return [DayList(ListInfo(r[0], r[1], r[2], int(r[3]), int(r[4]), int(r[5])), ListMeta(r[6], r[7], r[8], r[9]),
                        json.loads(r[11])) for r in rows]

    def summarised_days(self) -> set[str] | None:
        """The evenings (first ten characters) that have an opened list, from the kept summaries;
        None while a list has no summary for all its events."""
        stale = self._read().execute(
            "SELECT 1 FROM lists l LEFT JOIN list_summaries s ON s.device = l.device AND s.list_id = l.list_id "
            "WHERE s.count IS NULL OR s.count <> l.count LIMIT 1").fetchone()
        if stale is not None:
            return None
        rows = self._read().execute(
            "SELECT DISTINCT substr(m.evening, 1, 10) FROM list_meta m JOIN list_summaries s "
            "ON s.device = m.device AND s.list_id = m.list_id WHERE s.body <> ?", (_canonical({"opened": False}),))
        return {str(r[0]) for r in rows}

    def generation(self) -> int:
        return int(self._read().execute("SELECT n FROM generation").fetchone()[0])

    def touch(self) -> None:
        """Count a change the pages show (the organiser's settings, kept as documents)."""
        with self._transaction() as db:
            _bump(db)

    # -- the members' names ----------------------------------------------------------------------

    def keep_people(self, club: str, people: dict[str, tuple[str, str | None]]) -> bool:
        """Replace what ``club`` says of its members (member id -> person, name); whether it changed."""
        with self._transaction() as db:
            rows = db.execute("SELECT member, person, name FROM league_people WHERE club = ?", (club,)).fetchall()
            if {str(r[0]): (str(r[1]), r[2]) for r in rows} == people:
                return False
            db.execute("DELETE FROM league_people WHERE club = ?", (club,))
            db.executemany("INSERT INTO league_people (club, member, person, name) VALUES (?, ?, ?, ?)",
                           [(club, member, person, name) for member, (person, name) in people.items()])
            _bump(db)
            return True

    def add_people(self, club: str, people: dict[str, tuple[str, str | None]]) -> bool:
        """What ``club`` says of some members (those a forward seats), the others kept; whether it changed."""
        with self._transaction() as db:
            rows = db.execute("SELECT member, person, name FROM league_people WHERE club = ?", (club,)).fetchall()
            known = {str(r[0]): (str(r[1]), r[2]) for r in rows}
            changed = {member: value for member, value in people.items() if known.get(member) != value}
            if not changed:
                return False
            db.executemany("INSERT INTO league_people (club, member, person, name) VALUES (?, ?, ?, ?) "
                           "ON CONFLICT (club, member) DO UPDATE SET person = excluded.person, name = excluded.name",
                           [(club, member, person, name) for member, (person, name) in changed.items()])
            _bump(db)
            return True

    def people(self) -> dict[tuple[str, str], tuple[str, str | None]]:
        """(club, member id) -> (person, name or None), for every club."""
        rows = self._read().execute("SELECT club, member, person, name FROM league_people")
        return {(str(r[0]), str(r[1])): (str(r[2]), r[3]) for r in rows}

    def pseudonyms(self, wanted: set[tuple[str, str]]) -> dict[tuple[str, str], int]:
        """(club, person) -> N of "Spieler N": the kept ones, new ones numbered on per club."""
        def kept() -> dict[tuple[str, str], int]:
            rows = self._read().execute("SELECT club, person, n FROM league_pseudonyms")
            return {(str(r[0]), str(r[1])): int(r[2]) for r in rows}

        known = kept()
        missing = sorted(wanted - known.keys())
        if not missing:
            return known
        with self._transaction() as db:
            for club, person in missing:
                db.execute("INSERT INTO league_pseudonyms (club, person, n) SELECT ?, ?, COALESCE(MAX(n), 0) + 1 "
                           "FROM league_pseudonyms WHERE club = ? ON CONFLICT (club, person) DO NOTHING",
                           (club, person, club))
        return kept()

    def list_meta(self) -> dict[tuple[str, str], ListMeta]:
        rows = self._read().execute("SELECT device, list_id, club, evening, series, table_no FROM list_meta")
        return {(r[0], r[1]): ListMeta(r[2], r[3], r[4], r[5]) for r in rows}

    def clubs(self) -> list[ClubInfo]:
        rows = self._read().execute(
            "SELECT c.club, c.name, c.secret IS NOT NULL, c.paired_at, c.last_contact, "
            "(SELECT COUNT(*) FROM club_tables t WHERE t.club = c.club), "
            "(SELECT COUNT(*) FROM rejects r WHERE r.club = c.club) FROM clubs c ORDER BY c.name, c.club")
        return [ClubInfo(r[0], r[1], bool(r[2]), r[3], r[4], r[5], r[6]) for r in rows]

    def club_of(self, device: str) -> str | None:
        row = self._read().execute("SELECT club FROM club_tables WHERE device = ?", (device,)).fetchone()
        return None if row is None else str(row[0])

    def club_tables(self, club: str | None = None) -> dict[str, str]:
        """device -> club (of one club, or all)."""
        query = "SELECT device, club FROM club_tables"
        rows = (self._read().execute(query) if club is None else
                self._read().execute(query + " WHERE club = ?", (club,)))
        return {str(d): str(c) for d, c in rows}

    def rejects(self, club: str | None = None) -> list[RejectInfo]:
        query = "SELECT id, club, device, seq, code, reason, sent, at, count, last_at FROM rejects"
        rows = (self._read().execute(query + " ORDER BY id") if club is None else
                self._read().execute(query + " WHERE club = ? ORDER BY id", (club,)))
        return [RejectInfo(r[0], r[1], r[2], r[3], r[4], r[5], json.loads(r[6]), r[7], r[8], r[9]) for r in rows]

    def close(self) -> None:
        self.events.close()


class SqliteLeagueStore(SqlLeagueStore):
    """The league in one SQLite file (the collector's tables and the league's)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        super().__init__(SqliteCollectorStore(path))


def _bump(db: Db) -> None:
    db.execute("UPDATE generation SET n = n + 1")


def _first_new(entries: Sequence[JournalEntry], held: int) -> JournalEntry | None:
    """The entry a refusal is about: the first one the league did not hold yet."""
    return next((e for e in entries if int(e.event["seq"]) > held), entries[0] if entries else None)


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def open_league_store(target: str | os.PathLike[str]) -> LeagueStore:
    """The league's store at ``target``: a SQLite file or a ``postgresql://`` database."""
    events = open_store(target)
    if not isinstance(events, SqlCollectorStore):  # pragma: no cover - both engines are SQL
        raise TypeError(f"the league needs a SQL collector store, not {type(events).__name__}")
    try:
        return SqlLeagueStore(events)
    except BaseException:
        events.close()
        raise
