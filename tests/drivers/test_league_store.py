"""The league's store over real SQLite files: club pairing codes, forwarded journals checked
back to their tables, and every refusal kept aside for the organiser with nothing overwritten."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from device.journal import JournalEntry
from device.sync import SyncRefused, journal_entries
from drivers.club.store import PAIR_BUDGET, PAIR_TRIES, SqliteCollectorStore
from drivers.league.forward import ClubEntries
from drivers.league.store import LeagueStore, ListMeta, SqliteLeagueStore, open_league_store
from ui.league.model import LeagueModel, Shown
from tests.club_helpers import NAMES, list_events, random_entries
from tests.e2e.sync_helpers import ROOT

PLAYERS = tuple(NAMES[:4])


def a_list(device: str, games: int = 6, *, seq: int = 1, list_id: str = "L1") -> list[JournalEntry]:
    return journal_entries(list_events(device, list_id, PLAYERS, random_entries(random.Random(device), 4, games), seq=seq))


@pytest.fixture
def league_target(store_target: str) -> str:
    """Where the league's store lives: a SQLite file, then a PostgreSQL database (tests/conftest.py)."""
    return store_target


def paired(target: str | Path, *clubs: str) -> LeagueStore:
    store = open_league_store(target if isinstance(target, str) else target / "league.sqlite3")
    for n, club in enumerate(clubs):
        store.add_club_code(f"12345{n}", f"Verein {club}", 2000.0)
        assert store.pair_club(f"12345{n}", club, "ab" * 32, now=1000.0) == f"Verein {club}"
    return store


def test_a_code_pairs_one_club_once_and_wrong_or_old_codes_are_refused(league_target: str) -> None:
    store = paired(league_target, "c1")
    assert store.club_secret("c1") == "ab" * 32 and store.club_secret("c2") is None
    with pytest.raises(SyncRefused, match="bad_code"):
        store.pair_club("123450", "c2", "cd" * 32, now=1001.0)  # used
    store.add_club_code("999999", "Spät", 1500.0)
    with pytest.raises(SyncRefused, match="bad_code"):
        store.pair_club("999999", "c3", "cd" * 32, now=1600.0)  # expired
    assert store.unpair_club("c1") and store.club_secret("c1") is None and not store.unpair_club("c1")
    assert [(c.club, c.name, c.paired) for c in store.clubs()] == [("c1", "Verein c1", False)]
    store.close()


def test_wrong_league_codes_lock_out_their_source_and_void_a_code_only_after_the_budget(league_target: str) -> None:
    store = paired(league_target)
    store.add_club_code("111111", "Verein Tag", 1000.0 + 86_400)
    for n in range(PAIR_TRIES + 1):  # typos of other clubs: the day-long code stays
        with pytest.raises(SyncRefused, match="bad_code"):
            store.pair_club("999999", f"c{n}", "cd" * 32, now=1000.0, source=f"192.0.2.{n}")
    for _ in range(PAIR_TRIES - 1):  # the fifth wrong one of 192.0.2.0
        with pytest.raises(SyncRefused, match="bad_code"):
            store.pair_club("999998", "c0", "cd" * 32, now=1001.0, source="192.0.2.0")
    with pytest.raises(SyncRefused, match="too_many_tries"):
        store.pair_club("111111", "c0", "cd" * 32, now=1002.0, source="192.0.2.0")
    assert store.pair_club("111111", "c9", "ef" * 32, now=1003.0, source="192.0.2.9") == "Verein Tag"
    store.add_club_code("222222", "Verein Rat", 5000.0)
    for n in range(PAIR_BUDGET):  # guessed from many addresses: void after the budget (counted, not rolled back)
        with pytest.raises(SyncRefused, match="bad_code"):
            store.pair_club(f"{n:06d}", "c8", "cd" * 32, now=1100.0, source=f"guess-{n}")
    with pytest.raises(SyncRefused, match="bad_code"):
        store.pair_club("222222", "c8", "cd" * 32, now=1101.0, source="192.0.2.8")
    store.close()


def test_a_forwarded_list_is_stored_once_and_a_resend_is_a_duplicate(league_target: str) -> None:
    store = paired(league_target, "c1")
    entries = a_list("t1")
    assert store.forward("c1", "t1", "Tisch 1", entries[:4], now=1010.0).held == 4
    again = store.forward("c1", "t1", "Tisch 1", entries, now=1011.0)
    assert (again.held, again.stored, again.duplicates) == (len(entries), len(entries) - 4, 4)
    assert store.events.entries("t1", "L1") == entries
    assert store.club_tables() == {"t1": "c1"} and store.rejects() == []
    store.keep_list_meta("c1", "t1", {"L1": ListMeta("c1", "", 0, 0)})
    store.keep_list_meta("c1", "t1", {"L1": ListMeta("c1", "2026-11-26", 2, 3)})  # the first word said no evening
    store.keep_list_meta("c1", "t1", {"L1": ListMeta("c1", "2026-12-03", 1, 1)})  # the first real word stays
    assert store.list_meta() == {("t1", "L1"): ListMeta("c1", "2026-11-26", 2, 3)}
    generation = store.generation()
    store.forward("c1", "t1", "Tisch 1", entries, now=1012.0, metas={"L1": ListMeta("c1", "2026-12-03", 1, 1)})
    assert store.list_meta() == {("t1", "L1"): ListMeta("c1", "2026-11-26", 2, 3)}  # with the entries: the same rule
    other = a_list("t2")
    assert store.forward("c1", "t2", "Tisch 2", other, now=1013.0,
                         metas={"L1": ListMeta("c1", "2026-12-03", 1, 2)}).held == len(other)
    assert store.list_meta()[("t2", "L1")] == ListMeta("c1", "2026-12-03", 1, 2)
    assert store.generation() > generation and store.club_tables() == {"t1": "c1", "t2": "c1"}
    store.close()


def test_a_table_of_another_club_is_refused_and_kept_aside(league_target: str) -> None:
    store = paired(league_target, "c1", "c2")
    entries = a_list("t1")
    store.forward("c1", "t1", "Tisch 1", entries, now=1010.0)
    for _ in range(2):
        with pytest.raises(SyncRefused, match="foreign_table"):
            store.forward("c2", "t1", "Tisch 1", entries, now=1020.0)
    [kept] = store.rejects()
    assert (kept.club, kept.device, kept.code, kept.count) == ("c2", "t1", "foreign_table", 2)
    assert store.events.entries("t1", "L1") == entries and store.club_of("t1") == "c1"
    store.close()


def test_a_chain_that_does_not_verify_is_kept_aside_and_nothing_of_it_stored(league_target: str) -> None:
    store = paired(league_target, "c1")
    entries = a_list("t1")
    changed = [JournalEntry(e.prev, e.hash, dict(e.event)) for e in entries]
    changed[3].event["data"] = {**changed[3].event["data"], "dealer": 3}  # changed after the table hashed it
    with pytest.raises(SyncRefused, match="broken_chain"):
        store.forward("c1", "t1", "Tisch 1", changed, now=1010.0)
    [kept] = store.rejects()
    assert (kept.code, kept.seq) == ("broken_chain", 1) and "seq 4" in kept.reason
    assert store.events.held("t1") == 0
    store.close()


def test_a_second_copy_with_other_content_is_kept_aside_and_the_first_stays(league_target: str) -> None:
    store = paired(league_target, "c1")
    entries = a_list("t1")
    store.forward("c1", "t1", "Tisch 1", entries, now=1010.0)
    events = [dict(e.event) for e in entries]
    events[2] = {**events[2], "data": {**events[2]["data"], "dealer": 3}}
    with pytest.raises(SyncRefused, match="conflict"):
        store.forward("c1", "t1", "Tisch 1", journal_entries(events), now=1020.0)  # hashed anew: a whole chain
    [kept] = store.rejects()
    assert (kept.code, kept.seq, kept.sent["event"]["data"]["dealer"]) == ("conflict", 3, 3)
    assert store.events.entries("t1", "L1") == entries
    store.close()


def test_a_confirmation_naming_another_head_than_the_chain_is_kept_aside(league_target: str) -> None:
    store = paired(league_target, "c1")
    events = [e.event for e in a_list("t1")]
    head = journal_entries(events)[-1].hash
    confirm = {**events[0], "type": "list_confirmed", "id": "conf-0", "seq": len(events) + 1, "data": {"seat": 0}}
    good = journal_entries([*events, {**confirm, "data": {"seat": 0, "head": head}}])
    store.forward("c1", "t1", "Tisch 1", good, now=1010.0)  # names the head it follows: taken
    bad = journal_entries([dict(e, device="t2", list_id="L2") for e in events]
                          + [{**confirm, "device": "t2", "list_id": "L2", "data": {"seat": 0, "head": head}}])
    with pytest.raises(SyncRefused, match="bad_confirmation"):
        store.forward("c1", "t2", "Tisch 2", bad, now=1020.0)  # names another list's head
    assert [r.code for r in store.rejects()] == ["bad_confirmation"] and store.events.held("t2") == 0
    store.close()


def test_the_clubs_members_names_are_replaced_per_club_and_pseudonyms_kept_for_good(league_target: str) -> None:
    store = paired(league_target, "c1", "c2")
    try:
        before = store.generation()
        assert store.keep_people("c1", {"m1": ("p1", "Anna Adler"), "m2": ("p2", None)})
        assert not store.keep_people("c1", {"m1": ("p1", "Anna Adler"), "m2": ("p2", None)})  # the same: no change
        assert store.generation() == before + 1
        assert store.keep_people("c2", {"m1": ("p1", "Otto")})  # another club's m1 is another person
        assert store.people() == {("c1", "m1"): ("p1", "Anna Adler"), ("c1", "m2"): ("p2", None),
                                  ("c2", "m1"): ("p1", "Otto")}
        assert store.pseudonyms({("c1", "p2"), ("c2", "p7")}) == {("c1", "p2"): 1, ("c2", "p7"): 1}
        assert store.pseudonyms({("c1", "p1")})[("c1", "p1")] == 2  # counted on per club
        assert store.keep_people("c1", {"m2": ("p2", None)})  # m1 erased at the club: no longer named
        assert ("c1", "m1") not in store.people()
        assert store.pseudonyms(set()) == {("c1", "p2"): 1, ("c2", "p7"): 1, ("c1", "p1"): 2}
        # a forward's word on the members it seats: added or changed, the others kept
        assert store.add_people("c1", {"m3": ("p3", "Carla")})
        assert not store.add_people("c1", {"m3": ("p3", "Carla")})
        assert store.people()[("c1", "m2")] == ("p2", None) and store.people()[("c1", "m3")] == ("p3", "Carla")
    finally:
        store.close()


def test_the_club_reads_a_tables_entries_after_a_seq_across_its_lists(tmp_path: Path) -> None:
    club = SqliteCollectorStore(tmp_path / "club.sqlite3")
    club.ensure_device("t1", "Tisch 1", now=1.0)
    first = a_list("t1", 3)
    second = a_list("t1", 2, seq=len(first) + 1, list_id="L2")
    club.store_batch("t1", [*first, *second], now=2.0)
    source = ClubEntries(club, "t1")
    assert source.entries_after(0) == [*first, *second]
    assert source.entries_after(len(first) - 1, 2) == [first[-1], second[0]]
    assert source.entries_after(len(first) + len(second)) == []
    club.close()


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ui.cli", *args], cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_the_commands_refuse_what_is_missing_in_words(tmp_path: Path) -> None:
    done = _cli("club", "serve", "--db", str(tmp_path / "c.sqlite3"), "--league-code", "123456", "--no-mdns")
    assert done.returncode == 2 and "--league-code needs --league URL" in done.stderr
    done = _cli("club", "serve", "--db", str(tmp_path / "c.sqlite3"), "--league", "http://127.0.0.1:9", "--no-mdns")
    assert done.returncode == 2 and "not paired with a league yet" in done.stderr
    done = _cli("club", "serve", "--db", str(tmp_path / "c.sqlite3"), "--league", "http://127.0.0.1:9",
                "--league-code", "123456", "--no-mdns")
    assert done.returncode == 2 and "pairing with the league failed" in done.stderr
    assert _cli("league", "code", "--db", str(tmp_path / "l.sqlite3")).returncode == 2
    done = _cli("league", "code", "SC Herz Dame", "--db", str(tmp_path / "l.sqlite3"), "--json")
    assert done.returncode == 0 and len(json.loads(done.stdout)["code"]) == 6
    store = SqliteLeagueStore(tmp_path / "l.sqlite3")
    store.pair_club(json.loads(done.stdout)["code"], "club-1", "ab" * 32, now=time.time())
    store.close()
    done = _cli("league", "clubs", "--db", str(tmp_path / "l.sqlite3"), "--json")
    assert json.loads(done.stdout) == [{"club": "club-1", "name": "SC Herz Dame", "paired": True, "tables": 0,
                                        "last_contact": None, "kept_aside": 0}]
    done = _cli("league", "serve", "--db", "postgresql://league:geheim@127.0.0.1:9/liga")  # nobody listens there
    assert done.returncode == 2 and "cannot be used" in done.stderr and "geheim" not in done.stderr


def test_the_league_tables_are_versioned_beside_the_collectors_and_a_newer_database_is_refused(tmp_path: Path) -> None:
    import sqlite3

    from drivers.club.migrations import SchemaError

    store = paired(tmp_path, "c1")
    store.close()
    store = SqliteLeagueStore(tmp_path / "league.sqlite3")  # opened again: nothing run twice, nothing lost
    assert store.club_secret("c1") == "ab" * 32
    store.close()
    db = sqlite3.connect(tmp_path / "league.sqlite3")
    assert [r[0] for r in db.execute("SELECT version FROM league_schema_version")] == [1, 2, 3]
    assert db.execute("SELECT COUNT(*) FROM schema_version").fetchone()[0] >= 1  # the collector's own
    db.execute("INSERT INTO league_schema_version (version, title, applied) VALUES (99, 'from the future', 0)")
    db.commit()
    db.close()
    with pytest.raises(SchemaError, match="league_schema_version"):
        SqliteLeagueStore(tmp_path / "league.sqlite3")


def test_the_clubs_backup_and_restore_carry_the_league_database_whole(tmp_path: Path) -> None:
    store = paired(tmp_path, "c1")
    store.forward("c1", "t1", "Tisch 1", a_list("t1"), now=1010.0)
    store.close()
    backup, restored = tmp_path / "liga-backup.sqlite3", tmp_path / "restored.sqlite3"
    done = _cli("club", "backup", str(backup), "--db", str(tmp_path / "league.sqlite3"))
    assert done.returncode == 0, done.stderr
    done = _cli("club", "restore", str(backup), "--db", str(restored))
    assert done.returncode == 0, done.stderr
    again = SqliteLeagueStore(restored)
    assert again.club_secret("c1") == "ab" * 32 and again.club_tables() == {"t1": "c1"}
    assert again.events.entries("t1", "L1") == a_list("t1")
    again.close()


def test_a_match_day_is_read_alone_from_the_kept_summaries_as_every_list_shows_it(league_target: str) -> None:
    store = paired(league_target, "c1", "c2")
    store.events.set_document("matchdays", [{"date": "2026-11-26", "title": "1. Spieltag"},
                                            {"date": "2026-12-03", "title": "2. Spieltag"}])
    for club, device, date in (("c1", "t1", "2026-11-26"), ("c2", "t2", "2026-11-26"), ("c1", "t3", "2026-12-03")):
        store.forward(club, device, f"Tisch {device}", a_list(device), now=1010.0,
                      metas={"L1": ListMeta(club, date, 1, int(device[1:]))})
    store.forward("c2", "t4", "Tisch 4", a_list("t4"), now=1010.0)  # no word on its evening: no match day
    LeagueModel(store).lists()  # the server scored every list and kept the summaries

    def by_device(shown: list[Shown]) -> list[Shown]:
        return sorted(shown, key=lambda s: s.item.device)

    restarted = LeagueModel(store)
    day = restarted.matchday_lists("2026-11-26")
    assert not restarted.read_every_list  # that day alone was read
    every = LeagueModel(store).lists()
    assert [s.item.device for s in by_device(day)] == ["t1", "t2"]
    assert by_device(day) == by_device([s for s in every if s.item.matchday == "2026-11-26"])
    assert restarted.played_days() == {"2026-11-26", "2026-12-03"} and not restarted.read_every_list
    assert restarted.matchday_lists("2026-12-10") == []
    made = LeagueModel(store).season()  # made from every list, and kept in the store
    again = LeagueModel(store)
    assert again.season() == made and not again.read_every_list  # read back, no list read
    assert {line.player for line in made[2]} == {"Verein c1", "Verein c2"}  # the clubs' lines
    second = a_list("t1", seq=len(a_list("t1")) + 1, list_id="L2")  # a list arrives, not yet scored
    store.forward("c1", "t1", "Tisch t1", second, now=1020.0, metas={"L2": ListMeta("c1", "2026-11-26", 2, 1)})
    assert store.day_lists("2026-11-26") is None and store.summarised_days() is None
    again = LeagueModel(store)
    assert [s.item.list_id for s in by_device(again.matchday_lists("2026-11-26"))] == ["L1", "L2", "L1"]
    assert again.read_every_list  # read with every list, the new one folded
    assert LeagueModel(store).season() != made  # the kept lines are of another generation: made anew
    store.close()
