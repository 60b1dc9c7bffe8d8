"""The event store: one contract for the file store and the memory fake, then the file store's
damaged-file handling, recovery, layout and device id, on real files in a temp directory."""

from __future__ import annotations

import datetime
import json
import os
import threading
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from device.errors import SkatError
from device.journal import GENESIS, chain_hash, parse_line, verify_chain
from device.ports import EventStore
from drivers.store.legacy import LegacyTinyDBStore
from drivers.store import (
    InvalidEventError,
    InvalidListIdError,
    JournalDamage,
    JournalEventStore,
    MemoryDisk,
    MemoryEventStore,
    StoreError,
    JournalEventStore,
    default_directory,
    device_id,
    repair_device_id,
)

Store = JournalEventStore | MemoryEventStore


def game(n: int, parts: int = 3) -> list[dict[str, Any]]:
    """The events of one game, shaped like the table service's (id, seq, payload)."""
    return [
        {"id": str(uuid.UUID(int=n * 100 + i)), "seq": n * 100 + i, "game": n, "part": i,
         "payload": {"declarer": n % 3, "tricks": [["CJ", "SJ", "HJ"]] * (i + 1)}}
        for i in range(parts)
    ]


class Place:
    """Where a store lives: a directory, or a MemoryDisk. Opens stores and damages lists."""

    def __init__(self, kind: str, tmp_path: Path) -> None:
        self.kind = kind
        self.directory = tmp_path / "store"
        self.disk = MemoryDisk()
        self.opened: list[Store] = []

    def open(self) -> Store:
        store: Store = (JournalEventStore(self.directory) if self.kind == "file"
                        else MemoryEventStore(self.disk))
        self.opened.append(store)
        return store

    def name(self, list_id: str) -> str:
        """How error messages name the list's file."""
        return f"memory:lists/{list_id}.json"

    def raw(self, list_id: str) -> bytes:
        if self.kind == "file":
            return (self.directory / "journal" / f"{list_id}.jsonl").read_bytes()
        return self.disk.lists[list_id].encode("utf-8")

    def damage(self, list_id: str, data: bytes) -> None:
        self.disk.lists[list_id] = data.decode("utf-8", errors="surrogateescape")


@pytest.fixture(params=["file", "memory"])
def place(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Place]:
    where = Place(request.param, tmp_path)
    yield where
    for store in where.opened:
        store.close()


@pytest.fixture
def store(place: Place) -> Store:
    return place.open()


# --- the contract: both stores --------------------------------------------------------------


def test_both_stores_are_event_stores(store: Store) -> None:
    port: EventStore = store  # mypy checks the protocol here
    port.append("a", [{"x": 1}])
    assert port.load("a") == [{"x": 1}] and port.list_ids() == ["a"]


def test_a_new_store_is_empty(store: Store) -> None:
    assert store.list_ids() == []
    assert store.load("2026-11-22") == []


def test_appended_events_load_in_order(store: Store) -> None:
    appended = []
    for n in range(1, 8):
        events = game(n, parts=1 + n % 4)
        store.append("2026-11-22", events)
        appended += events
    assert store.load("2026-11-22") == appended
    assert [e["seq"] for e in store.load("2026-11-22")] == [e["seq"] for e in appended]


def test_many_lists_keep_their_own_events_and_creation_order(store: Store) -> None:
    ids = [f"abend-{n:02d}" for n in range(30, 0, -1)]  # created in reverse name order
    for round_ in range(3):
        for i, lid in enumerate(ids):
            store.append(lid, game(i * 10 + round_))
    assert store.list_ids() == ids
    for i, lid in enumerate(ids):
        assert store.load(lid) == game(i * 10) + game(i * 10 + 1) + game(i * 10 + 2)


def test_reopen_after_close_sees_everything(place: Place) -> None:
    first = place.open()
    first.append("a", game(1))
    first.append("b", game(2))
    first.append("a", game(3))
    device = first.device_id
    first.close()

    again = place.open()
    assert again.list_ids() == ["a", "b"]
    assert again.load("a") == game(1) + game(3)
    assert again.load("b") == game(2)
    assert again.load("c") == []
    assert again.device_id == device
    uuid.UUID(device)


def test_unicode_round_trips(place: Place) -> None:
    names = ["Jürgen Müßig", "Zoë Ørsted", "Łukasz", "李小龍", "Renée 🂡", "ÄÖÜäöüß"]
    event = {"players": names, "note": "Grand ouvert — „angesagt“", "Grüße": {"€": 1.5}}
    store = place.open()
    store.append("liste", [event])
    store.close()
    again = place.open()
    assert again.load("liste") == [event]
    assert "Jürgen Müßig".encode("utf-8") in place.raw("liste")  # readable UTF-8, not \u escapes


@pytest.mark.parametrize("bad", ["../x", "", "a/b", "/etc/passwd", ".hidden", "..", "x" * 101,
                                 "a\n", "a b", "ä", None, 5])
def test_bad_list_ids_are_refused_before_anything_is_written(store: Store, place: Place,
                                                             bad: Any) -> None:
    for attempt in (lambda: store.append(bad, game(1)), lambda: store.load(bad),
                    lambda: store.head(bad), lambda: store.recover(bad)):
        with pytest.raises(InvalidListIdError, match="is not allowed") as caught:
            attempt()
        assert isinstance(caught.value, SkatError) and isinstance(caught.value, ValueError)
        assert repr(bad) in str(caught.value)
    assert store.list_ids() == []
    if place.kind == "file":
        outside = [p for p in place.directory.parent.rglob("*") if place.directory not in p.parents
                   and p != place.directory]
        assert outside == []
        assert list((place.directory / "journal").iterdir()) == []


@pytest.mark.parametrize("event, where", [
    ({"when": datetime.date(2026, 11, 22)}, "event 1.when is a date"),
    ({"value": float("nan")}, "event 1.value is nan"),
    ({"score": {1: 24}}, "event 1.score has the key 1"),
    ({"cards": {"CJ", "SJ"}}, "event 1.cards is a set"),
    ({"raw": b"\x00"}, "event 1.raw is a bytes"),
])
def test_events_that_are_not_json_are_refused_whole(store: Store, event: dict[str, Any],
                                                    where: str) -> None:
    store.append("a", game(1))
    with pytest.raises(InvalidEventError, match=where):
        store.append("a", [{"ok": True}, event])
    with pytest.raises(InvalidEventError, match="not a single value"):
        store.append("a", {"id": "x"})  # type: ignore[arg-type]
    with pytest.raises(InvalidEventError, match="event 0 is a str"):
        store.append("a", ["not a dict"])  # type: ignore[list-item]
    assert store.load("a") == game(1)


def test_json_values_come_back_as_json(store: Store) -> None:
    store.append("a", [{"trick": ("CJ", "SJ", "HJ"), "big": 2**70, "neg": -0.5, "none": None,
                        "flag": False, "nested": [{"x": []}]}])
    assert store.load("a") == [{"trick": ["CJ", "SJ", "HJ"], "big": 2**70, "neg": -0.5,
                                "none": None, "flag": False, "nested": [{"x": []}]}]


def test_an_empty_append_changes_nothing(store: Store) -> None:
    store.append("a", [])
    assert store.list_ids() == []
    assert store.load("a") == []


def test_loaded_and_appended_events_are_copies(store: Store) -> None:
    events = game(1)
    store.append("a", events)
    events[0]["payload"]["declarer"] = "changed after append"
    loaded = store.load("a")
    loaded[0]["payload"]["declarer"] = "changed after load"
    loaded.append({"extra": 1})
    assert store.load("a") == game(1)
    store.entries_after(0)[0].event["payload"]["declarer"] = "changed after entries_after"
    assert store.load("a") == game(1)


def test_a_closed_store_refuses_work_and_closes_twice(store: Store) -> None:
    store.append("a", game(1))
    store.close()
    store.close()
    assert store.closed
    for attempt in (lambda: store.append("a", game(2)), lambda: store.load("a"),
                    store.list_ids):
        with pytest.raises(StoreError, match="is closed"):
            attempt()


def test_one_open_store_per_place(place: Place) -> None:
    first = place.open()
    with pytest.raises(StoreError, match="in use by another open store"):
        place.open()
    first.close()
    second = place.open()
    assert second.list_ids() == []


def test_threads_appending_at_once_lose_nothing(store: Store) -> None:
    def writer(thread: int) -> None:
        for n in range(40):
            store.append(f"t{thread % 2}", [{"thread": thread, "n": n}])
            store.load(f"t{thread % 2}")

    threads = [threading.Thread(target=writer, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for lid, mine in (("t0", (0, 2)), ("t1", (1, 3))):
        events = store.load(lid)
        assert len(events) == 80
        for thread in mine:  # each thread's own events stay in its order
            assert [e["n"] for e in events if e["thread"] == thread] == list(range(40))


def test_the_memory_fake_refuses_a_damaged_list_and_recovers_its_last_good_copy() -> None:
    place = Place("memory", Path("/nonexistent"))
    store = place.open()
    store.append("a", game(1))
    store.append("a", game(2))
    place.damage("a", b'{"events": {"1": {"id": "x"')
    damaged = place.raw("a")
    with pytest.raises(StoreError) as caught:
        store.load("a")
    assert str(caught.value).startswith(f"{place.name('a')} is not valid JSON at line 1 column")
    with pytest.raises(StoreError):
        store.append("a", game(3))
    assert place.raw("a") == damaged

    report = store.recover("a")
    assert report.restored and report.entries == 3
    assert "Restored" in report.message and place.name("a") in report.message
    assert store.load("a") == game(1)  # the last write (game 2) is the one lost
    store.append("a", game(3))
    assert store.load("a") == game(1) + game(3)
    again = store.recover("a")
    assert not again.restored and "nothing to do" in again.message


def test_the_memory_fake_extends_its_own_text_as_dumping_every_event_would(monkeypatch: pytest.MonkeyPatch) -> None:
    """Appends to the text it wrote itself are spliced (before, a card re-parsed and re-dumped
    the whole list, 6 ms a card on a 48-game list); the text is what dumping all events gives,
    and a text damaged in between is still read and refused."""
    place = Place("memory", Path("/nonexistent"))
    store = place.open()
    parsed: list[str] = []
    parse = MemoryEventStore._parse

    def counted(self: MemoryEventStore, name: str, text: str) -> list[dict[str, Any]]:
        parsed.append(name)
        return parse(self, name, text)
    monkeypatch.setattr(MemoryEventStore, "_parse", counted)
    for n in range(1, 5):
        store.append("a", game(n))
        assert place.raw("a") == json.dumps(store.load("a"), ensure_ascii=False, separators=(",", ":")).encode()
    assert len(parsed) == 4  # the four loads of this test; the appends parsed nothing
    assert store.load("a") == game(1) + game(2) + game(3) + game(4)
    place.damage("a", place.raw("a")[:-1])  # the same words as a string of the test's, cut short
    with pytest.raises(StoreError):
        store.append("a", game(5))
    place.damage("a", place.raw("a") + b"]")  # mended: a text the store did not write, parsed again
    store.append("a", game(5))
    assert store.load("a") == game(1) + game(2) + game(3) + game(4) + game(5)


# --- the contract: the chain head and the sync's view ---------------------------------------


def test_the_head_is_the_chain_over_the_lists_events(store: Store) -> None:
    assert store.head("a") == GENESIS
    store.append("a", game(1))
    store.append("a", game(2))
    store.append("b", game(3))
    for lid in ("a", "b"):
        head = GENESIS
        for event in store.load(lid):
            head = chain_hash(head, event)
        assert store.head(lid) == head


def test_entries_after_gives_this_devices_events_in_seq_order_across_lists(store: Store) -> None:
    device = store.device_id
    mine = [{"seq": n, "device": device, "n": n} for n in range(1, 9)]
    store.append("a", mine[:3])
    store.append("b", mine[3:6] + [{"seq": 99, "device": "another-table"}])
    store.append("c", mine[6:])
    assert [e.event["seq"] for e in store.entries_after(0)] == list(range(1, 9))
    assert [e.event["seq"] for e in store.entries_after(4)] == [5, 6, 7, 8]
    assert [e.event["seq"] for e in store.entries_after(2, limit=3)] == [3, 4, 5]
    assert store.entries_after(8) == []
    for lid in ("a", "b", "c"):  # each entry is its list's chain, link by link
        entries = [e for e in store.entries_after(0) if e.event in store.load(lid)]
        heads = [GENESIS] + [e.hash for e in entries]
        assert [e.prev for e in entries] == heads[:-1]
        assert verify_chain((e.prev, e.hash, e.event) for e in entries) == store.head(lid) or lid == "b"


# --- the file store: the journal ------------------------------------------------------------


@pytest.fixture
def files(tmp_path: Path) -> Iterator[JournalEventStore]:
    store = JournalEventStore(tmp_path / "store")
    yield store
    store.close()


def journal_of(store: JournalEventStore, list_id: str) -> Path:
    return store.directory / "journal" / f"{list_id}.jsonl"


def test_each_event_is_one_verified_line_and_an_append_only_adds_lines(files: JournalEventStore) -> None:
    files.append("a", game(1))
    before = journal_of(files, "a").read_bytes()
    files.append("a", game(2))
    after = journal_of(files, "a").read_bytes()
    assert after.startswith(before)  # nothing rewritten
    lines = after.splitlines()
    assert len(lines) == 6
    head = GENESIS
    for line, event in zip(lines, game(1) + game(2)):
        entry = parse_line(line, prev=head)
        assert entry.event == event
        head = entry.hash
    assert head == files.head("a")


def test_one_append_is_one_write_and_one_fsync(files: JournalEventStore,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real_write, real_sync, real_fsync = os.write, os.fdatasync, os.fsync
    monkeypatch.setattr(os, "write", lambda fd, data: calls.append("write") or real_write(fd, data))
    monkeypatch.setattr(os, "fdatasync", lambda fd: calls.append("fdatasync") or real_sync(fd))
    monkeypatch.setattr(os, "fsync", lambda fd: calls.append("fsync") or real_fsync(fd))
    files.append("a", game(1, parts=6))
    assert calls == ["fsync", "write", "fdatasync"]  # the new file's directory, once
    calls.clear()
    files.append("a", game(2, parts=6))
    assert calls == ["write", "fdatasync"]


def test_lists_are_ordered_by_their_first_event_not_by_file_name(tmp_path: Path) -> None:
    with JournalEventStore(tmp_path) as store:
        store.append("zz-first", [{"seq": 1}])
        store.append("aa-second", [{"seq": 2}])
        store.append("mm-third", [{"seq": 3}])
    with JournalEventStore(tmp_path) as store:
        assert store.list_ids() == ["zz-first", "aa-second", "mm-third"]


def test_a_torn_last_line_is_moved_aside_and_every_whole_line_kept(tmp_path: Path,
                                                                caplog: pytest.LogCaptureFixture) -> None:
    with JournalEventStore(tmp_path) as store:
        store.append("a", game(1))
        whole = journal_of(store, "a").read_bytes()
        store.append("a", game(2))
        full = journal_of(store, "a").read_bytes()
    torn = full[: len(whole) + 40]  # the power went in the middle of game 2's first line
    journal_of(store, "a").write_bytes(torn)
    with JournalEventStore(tmp_path) as store:
        assert store.load("a") == game(1)
        assert len(store.notices) == 1 and "torn" in store.notices[0]
        assert "torn" in caplog.text
        aside = tmp_path / "journal" / "a.jsonl.torn"
        assert aside.read_bytes() == torn[len(whole):]  # kept, never deleted
        store.append("a", game(3))
        assert store.load("a") == game(1) + game(3)
    with JournalEventStore(tmp_path) as store:
        assert store.notices == []  # said once


@pytest.mark.parametrize("damage", ["checksum", "chain", "not json", "deep", "nan"])
def test_damage_before_the_tail_is_named_by_line_and_recover_keeps_what_is_before(
        tmp_path: Path, damage: str) -> None:
    with JournalEventStore(tmp_path) as store:
        for n in range(1, 5):
            store.append("a", game(n))
    path = tmp_path / "journal" / "a.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    bad = {
        "checksum": lines[4].replace(b'"CJ"', b'"CK"', 1),
        "chain": lines[5],  # line 6 where line 5 should be: the chain breaks
        "not json": b'{"prev": "\x00\x00\x00\n',
        "deep": b"[" * 100_000 + b"\n",
        "nan": lines[4].replace(b'"declarer":', b'"declarer":NaN,"x":', 1),
    }[damage]
    path.write_bytes(b"".join(lines[:4] + [bad] + lines[5:]))
    with JournalEventStore(tmp_path) as store:
        with pytest.raises(JournalDamage, match=r"a\.jsonl line 5 is damaged") as caught:
            store.load("a")
        assert caught.value.kept == 4
        report = store.check()[0]
        assert report.problem is not None and "line 5" in report.problem
        recovery = store.recover("a")
        assert recovery.restored and recovery.entries == 4
        assert store.load("a") == game(1) + game(2)[:1]
        moved = Path(recovery.moved_aside or "")
        assert moved.read_bytes() == b"".join([bad] + lines[5:])  # the rest, kept aside
        assert not store.recover("a").restored


def test_a_missing_device_id_is_restored_from_the_journals(tmp_path: Path) -> None:
    with JournalEventStore(tmp_path) as store:
        device = store.device_id
        store.append("a", [{"seq": 1, "device": device}])
    (tmp_path / "device-id").unlink()
    with JournalEventStore(tmp_path) as store:
        assert store.device_id == device  # not a new one: the table keeps its list and seq


def test_a_damaged_device_id_is_repaired_from_the_journals(tmp_path: Path) -> None:
    with JournalEventStore(tmp_path) as store:
        device = store.device_id
        store.append("a", [{"seq": 1, "device": device}])
    (tmp_path / "device-id").write_text("kaputt\n")
    with pytest.raises(StoreError, match="does not hold a device id") as caught:
        device_id(tmp_path)
    assert device in caught.value.hint
    assert "restored the id" in (repair_device_id(tmp_path) or "")
    assert device_id(tmp_path) == device
    assert (tmp_path / "device-id.corrupt").read_text() == "kaputt\n"


def test_entries_after_reads_only_what_it_returns(files: JournalEventStore,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    device = files.device_id
    for n in range(1, 201):
        files.append("a", [{"seq": n, "device": device, "pad": "x" * 200}])
    files.close()
    store = JournalEventStore(files.directory)
    try:
        assert [e.event["seq"] for e in store.entries_after(198)] == [199, 200]  # builds the index
        reads: list[int] = []
        real_read = JournalEventStore._read
        monkeypatch.setattr(JournalEventStore, "_read",
                            lambda self, j: reads.append(1) or real_read(self, j))
        store.append("a", [{"seq": 201, "device": device}])
        assert [e.event["seq"] for e in store.entries_after(199)] == [200, 201]
        assert reads == []  # no journal read again: the index was extended on append
    finally:
        store.close()


def test_a_checkpoint_comes_back_only_while_it_matches_the_journal(files: JournalEventStore) -> None:
    files.append("a", game(1))
    files.load("a")
    files.save_checkpoint("a", 3, b"state after 3")
    assert files.load_checkpoint("a") == (3, b"state after 3")
    files.append("a", game(2))
    assert files.load_checkpoint("a") == (3, b"state after 3")
    files.close()
    path = files.directory / "journal" / "a.jsonl"
    path.write_bytes(path.read_bytes().replace(b'"part":0', b'"part":9', 1))  # damage line 1
    with JournalEventStore(files.directory) as store:
        with pytest.raises(JournalDamage):
            store.load_checkpoint("a")


def test_an_old_tinydb_store_is_converted_on_first_open_and_kept_aside(tmp_path: Path) -> None:
    lists = {"2026-11-20-tisch-1": game(1) + game(2), "2026-11-21-tisch-1": game(3)}
    with LegacyTinyDBStore(tmp_path) as old:  # the store exactly as the code before the journal wrote it
        for lid, events in lists.items():
            old.append(lid, events[:2])
            old.append(lid, events[2:])
        old.set_meta("2026-11-21-tisch-1", {"title": "Freitag"})
        device = old.device_id
    before = {p.relative_to(tmp_path): p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()
              and p.name not in (".lock", "device-id")}
    with JournalEventStore(tmp_path) as store:
        assert store.list_ids() == list(lists)
        for lid, events in lists.items():
            assert store.load(lid) == events
        assert store.device_id == device
        assert any("converted the old store (2 lists, 9 events)" in n for n in store.notices)
    for relative, data in before.items():  # every old file kept, byte for byte
        assert (tmp_path / "before-journal" / relative).read_bytes() == data
    assert not (tmp_path / "index.json").exists() and not (tmp_path / "lists").exists()
    with JournalEventStore(tmp_path) as store:  # converted once
        assert store.notices == [] and store.load("2026-11-21-tisch-1") == game(3)


def test_an_old_store_with_a_damaged_list_is_converted_from_its_last_good_copy(tmp_path: Path) -> None:
    with LegacyTinyDBStore(tmp_path) as old:
        old.append("a", game(1))
        old.append("a", game(2))
    (tmp_path / "lists" / "a.json").write_bytes(b'{"events": {"1": NaN')
    with JournalEventStore(tmp_path) as store:
        assert store.load("a") == game(1)
        assert any("last good copy" in n for n in store.notices)


# --- where the store lives, and the device id ---------------------------------------------


def test_the_store_defaults_to_the_users_data_directory(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_directory() == tmp_path / "xdg" / "skattisch"
    with JournalEventStore() as store:
        store.append("a", game(1))
    assert (tmp_path / "xdg" / "skattisch" / "journal" / "a.jsonl").exists()
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")
    assert default_directory() == tmp_path / "home" / ".local" / "share" / "skattisch"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_directory() == tmp_path / "home" / ".local" / "share" / "skattisch"


def test_the_device_id_is_created_once_and_kept(tmp_path: Path) -> None:
    first = device_id(tmp_path / "new" / "dir")
    assert str(uuid.UUID(first)) == first
    assert device_id(tmp_path / "new" / "dir") == first
    assert (tmp_path / "new" / "dir" / "device-id").read_text() == first + "\n"
    with JournalEventStore(tmp_path / "new" / "dir") as store:
        assert store.device_id == first
    assert device_id(tmp_path / "other") != first
    assert [p.name for p in (tmp_path / "new" / "dir").iterdir()
            if p.name.endswith(".tmp")] == []


def test_threads_racing_to_create_the_device_id_agree(tmp_path: Path) -> None:
    ids: list[str] = []
    threads = [threading.Thread(target=lambda: ids.append(device_id(tmp_path)))
               for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(ids) == 8 and len(set(ids)) == 1


def test_a_damaged_device_id_is_never_replaced(tmp_path: Path) -> None:
    (tmp_path / "device-id").write_text("not-a-uuid\n")
    with pytest.raises(StoreError, match=r"device-id does not hold a device id.*'not-a-uuid'"):
        device_id(tmp_path)
    assert (tmp_path / "device-id").read_text() == "not-a-uuid\n"


def test_the_memory_fake_gives_the_same_errors_as_files(tmp_path: Path) -> None:
    """The same misuse against both stores gives the same kind of error and message shape."""
    outcomes: dict[str, list[str]] = {}
    makers: dict[str, Callable[[], Store]] = {
        "file": lambda: JournalEventStore(tmp_path / "f"), "memory": MemoryEventStore}
    for kind, make in makers.items():
        store = make()
        seen = []
        attempts: list[Callable[[], object]] = [
            lambda: store.append("../x", []),
            lambda: store.append("a", [{1: 2}]),  # type: ignore[dict-item]
            lambda: store.append("a", [{"x": float("inf")}]),
        ]
        for attempt in attempts:
            with pytest.raises(SkatError) as caught:
                attempt()
            seen.append(f"{type(caught.value).__name__}: {caught.value}")
        store.close()
        outcomes[kind] = seen
    assert outcomes["file"] == outcomes["memory"]
