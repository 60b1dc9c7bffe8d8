"""The event store: one contract for the file store and the memory fake, then the file store's
damaged-file handling, recovery, layout and device id, on real files in a temp directory."""

from __future__ import annotations

import datetime
import json
import threading
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tinydb import TinyDB

from device.errors import SkatError
from device.ports import EventStore
from drivers.store import (
    AtomicJSONStorage,
    InvalidEventError,
    InvalidListIdError,
    MemoryDisk,
    MemoryEventStore,
    StoreError,
    TinyDBEventStore,
    default_directory,
    device_id,
)

Store = TinyDBEventStore | MemoryEventStore


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
        store: Store = (TinyDBEventStore(self.directory) if self.kind == "file"
                        else MemoryEventStore(self.disk))
        self.opened.append(store)
        return store

    def name(self, list_id: str) -> str:
        """How error messages name the list's file."""
        if self.kind == "file":
            return str(self.directory / "lists" / f"{list_id}.json")
        return f"memory:lists/{list_id}.json"

    def raw(self, list_id: str) -> bytes:
        if self.kind == "file":
            return (self.directory / "lists" / f"{list_id}.json").read_bytes()
        return self.disk.lists[list_id].encode("utf-8")

    def damage(self, list_id: str, data: bytes) -> None:
        if self.kind == "file":
            (self.directory / "lists" / f"{list_id}.json").write_bytes(data)
        else:
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
    first.set_meta("b", {"title": "Vereinsabend", "table": 3})
    first.set_meta("c", {"title": "noch leer"})
    device = first.device_id
    first.close()

    again = place.open()
    assert again.list_ids() == ["a", "b", "c"]
    assert again.load("a") == game(1) + game(3)
    assert again.load("b") == game(2)
    assert again.load("c") == []
    assert again.meta("b") == {"title": "Vereinsabend", "table": 3}
    assert again.device_id == device
    uuid.UUID(device)


def test_unicode_round_trips(place: Place) -> None:
    names = ["Jürgen Müßig", "Zoë Ørsted", "Łukasz", "李小龍", "Renée 🂡", "ÄÖÜäöüß"]
    event = {"players": names, "note": "Grand ouvert — „angesagt“", "Grüße": {"€": 1.5}}
    store = place.open()
    store.append("liste", [event])
    store.set_meta("liste", {"title": "Skatabend bei Jürgen"})
    store.close()
    again = place.open()
    assert again.load("liste") == [event]
    assert again.meta("liste") == {"title": "Skatabend bei Jürgen"}
    assert "Jürgen Müßig".encode("utf-8") in place.raw("liste")  # readable UTF-8, not \u escapes


@pytest.mark.parametrize("bad", ["../x", "", "a/b", "/etc/passwd", ".hidden", "..", "x" * 101,
                                 "a\n", "a b", "ä", None, 5])
def test_bad_list_ids_are_refused_before_anything_is_written(store: Store, place: Place,
                                                             bad: Any) -> None:
    for attempt in (lambda: store.append(bad, game(1)), lambda: store.load(bad),
                    lambda: store.set_meta(bad, {"title": "x"}), lambda: store.recover(bad)):
        with pytest.raises(InvalidListIdError, match="is not allowed") as caught:
            attempt()
        assert isinstance(caught.value, SkatError) and isinstance(caught.value, ValueError)
        assert repr(bad) in str(caught.value)
    assert store.list_ids() == []
    if place.kind == "file":
        outside = [p for p in place.directory.parent.rglob("*") if place.directory not in p.parents
                   and p != place.directory]
        assert outside == []
        assert list((place.directory / "lists").iterdir()) == []


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
    store.set_meta("a", {"players": ["A", "B"]})
    store.meta("a")["players"].append("C")
    assert store.meta("a") == {"players": ["A", "B"]}


def test_metadata_is_replaced_and_creates_the_list(store: Store) -> None:
    assert store.meta("a") == {}
    store.set_meta("b", {"title": "zuerst"})
    store.append("a", game(1))
    store.set_meta("b", {"title": "neu", "stake": 0.5})
    assert store.list_ids() == ["b", "a"]
    assert store.meta("b") == {"title": "neu", "stake": 0.5}
    assert store.meta("a") == {}
    with pytest.raises(InvalidEventError, match="metadata must be a dict"):
        store.set_meta("a", ["title"])  # type: ignore[arg-type]


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


def test_a_damaged_list_is_refused_and_recovered(place: Place, store: Store) -> None:
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


# --- the file store: damaged files ----------------------------------------------------------


@pytest.fixture
def files(tmp_path: Path) -> Iterator[TinyDBEventStore]:
    store = TinyDBEventStore(tmp_path / "store")
    yield store
    store.close()


def list_file(store: TinyDBEventStore, list_id: str) -> Path:
    return store.directory / "lists" / f"{list_id}.json"


def damage_cases(good: bytes) -> dict[str, tuple[bytes, str]]:
    return {
        "truncated": (good[: len(good) // 2],
                      f"is not valid JSON at line 1 column {len(good) // 2 + 1} "),
        "garbage": (b"\xff\xfe\x00\x13garbage", "is not UTF-8 text (bad byte at offset 0)"),
        "empty": (b"", "is empty (0 bytes)"),
        "wrong shape": (b"[1, 2, 3]", "does not hold store data"),
        "torn document": (b'{"events": {"1": [1]}}', "does not hold store data"),
    }


@pytest.mark.parametrize("case", ["truncated", "garbage", "empty", "wrong shape", "torn document"])
def test_a_damaged_file_is_named_and_never_overwritten(files: TinyDBEventStore,
                                                       case: str) -> None:
    files.append("2026-11-22-abc", game(1))
    files.append("2026-11-22-abc", game(2))
    path = list_file(files, "2026-11-22-abc")
    prev = path.with_name(path.name + ".prev")
    prev_bytes = prev.read_bytes()
    data, why = damage_cases(path.read_bytes())[case]
    path.write_bytes(data)

    for attempt in (lambda: files.load("2026-11-22-abc"),
                    lambda: files.append("2026-11-22-abc", game(3))):
        with pytest.raises(StoreError) as caught:
            attempt()
        assert isinstance(caught.value, SkatError) and isinstance(caught.value, OSError)
        assert str(caught.value).startswith(f"{path} {why}")
        assert caught.value.path == str(path)
    files.close()
    with TinyDBEventStore(files.directory) as again:  # reopening does not touch it either
        with pytest.raises(StoreError):
            again.load("2026-11-22-abc")
        assert again.list_ids() == ["2026-11-22-abc"]
    assert path.read_bytes() == data
    assert prev.read_bytes() == prev_bytes


def test_recovery_moves_the_damaged_file_aside_and_restores_the_last_good_copy(
        files: TinyDBEventStore) -> None:
    for n in range(1, 6):
        files.append("a", game(n))
    path = list_file(files, "a")
    path.write_bytes(path.read_bytes()[:-100])
    torn = path.read_bytes()

    report = files.recover("a")
    assert report.restored and report.list_id == "a" and report.entries == 12
    assert report.moved_aside == f"{path}.corrupt"
    assert Path(report.moved_aside).read_bytes() == torn
    assert report.message.startswith(f"{path} is not valid JSON")
    assert f"kept as {path}.corrupt" in report.message
    assert files.load("a") == [e for n in range(1, 5) for e in game(n)]  # lost: game 5

    files.append("a", game(6))
    path.write_bytes(b"")
    second = files.recover("a")
    assert second.moved_aside == f"{path}.corrupt-2"
    assert Path(f"{path}.corrupt").read_bytes() == torn
    assert files.load("a") == [e for n in range(1, 5) for e in game(n)]
    files.close()
    with TinyDBEventStore(files.directory) as again:
        assert again.load("a") == [e for n in range(1, 5) for e in game(n)]


def test_recovery_without_a_good_copy_changes_nothing(files: TinyDBEventStore) -> None:
    files.append("once", game(1))  # one write: no last good copy yet
    path = list_file(files, "once")
    path.write_bytes(b"{")
    with pytest.raises(StoreError, match=r"no last good copy .*once\.json\.prev is missing"):
        files.recover("once")
    assert path.read_bytes() == b"{"

    files.append("twice", game(1))
    files.append("twice", game(2))
    path = list_file(files, "twice")
    prev = path.with_name(path.name + ".prev")
    path.write_bytes(b"{")
    prev.write_bytes(b"\x00")
    with pytest.raises(StoreError, match="the last good copy is damaged too"):
        files.recover("twice")
    assert path.read_bytes() == b"{" and prev.read_bytes() == b"\x00"
    assert not list(path.parent.glob("*.corrupt*"))


def test_a_missing_file_with_a_last_good_copy_is_refused_then_recovered(
        files: TinyDBEventStore) -> None:
    files.append("a", game(1))
    files.append("a", game(2))
    list_file(files, "a").unlink()
    with pytest.raises(StoreError, match="is missing but its last good copy"):
        files.load("a")
    report = files.recover("a")
    assert report.restored and report.moved_aside is None
    assert files.load("a") == game(1)


def test_every_write_replaces_the_file_and_keeps_the_previous_one(
        files: TinyDBEventStore) -> None:
    files.append("a", game(1))
    path = list_file(files, "a")
    prev = path.with_name(path.name + ".prev")
    assert not prev.exists()
    for n in range(2, 5):
        before = path.read_bytes()
        inode = path.stat().st_ino
        files.append("a", game(n))
        assert path.stat().st_ino != inode  # a new file, never rewritten in place
        assert prev.stat().st_ino == inode  # the old one, hard-linked: no copy
        assert prev.read_bytes() == before
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]


def test_files_are_plain_tinydb_files(files: TinyDBEventStore) -> None:
    files.append("a", game(1))
    files.set_meta("a", {"title": "Abend"})
    files.close()
    raw = json.loads(list_file(files, "a").read_bytes())
    assert list(raw) == ["events"]
    with TinyDB(list_file(files, "a"), access_mode="r") as db:
        assert db.table("events").all() == game(1)
    with TinyDB(files.directory / "index.json", access_mode="r") as db:
        assert db.table("lists").all() == [{"list_id": "a", "meta": {"title": "Abend"}}]


def test_an_append_writes_only_its_own_list(files: TinyDBEventStore) -> None:
    for lid in ("a", "b", "c"):
        files.append(lid, game(1))
    files.append("c", game(2))

    def snapshot() -> set[tuple[str, int, int]]:
        return {(p.name, p.stat().st_ino, p.stat().st_mtime_ns)
                for p in files.directory.rglob("*") if p.is_file()}

    before = snapshot()
    files.append("b", game(2))
    changed = {name for name, *_ in snapshot() ^ before}
    assert changed == {"b.json", "b.json.prev"}  # not a.json, c.json, index.json


def test_the_storage_never_overwrites_a_file_that_changed_under_it(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    storage = AtomicJSONStorage(path)
    assert storage.read() is None
    storage.write({"events": {"1": {"a": 1}}})
    assert storage.read() == {"events": {"1": {"a": 1}}}
    path.write_text('{"events": {}}')  # someone else wrote it
    with pytest.raises(StoreError, match="changed on disk since it was last read"):
        storage.write({"events": {"1": {"a": 2}}})
    assert path.read_text() == '{"events": {}}'
    fresh = AtomicJSONStorage(path)
    with pytest.raises(StoreError, match="changed on disk"):  # never read: never overwritten
        fresh.write({})


def test_stale_temp_files_from_a_crash_are_removed_on_open(tmp_path: Path) -> None:
    with TinyDBEventStore(tmp_path) as store:
        store.append("a", game(1))
    leftovers = [tmp_path / "lists" / ".a.json.x1y2.tmp", tmp_path / ".index.json.abc.tmp",
                 tmp_path / "lists" / ".a.json.prev.0f0f.tmp"]
    for temp in leftovers:
        temp.write_bytes(b'{"half')
    with TinyDBEventStore(tmp_path) as store:
        assert store.load("a") == game(1)
    assert not any(temp.exists() for temp in leftovers)


def test_a_write_that_fails_names_the_file_and_keeps_the_list(files: TinyDBEventStore) -> None:
    files.append("a", game(1))
    files.append("a", game(2))
    blocker = list_file(files, "a").with_name("a.json.prev")
    blocker.unlink()
    blocker.mkdir()  # the last good copy cannot be written: the append must fail whole
    with pytest.raises(StoreError, match=r"a\.json\.prev could not be written: Is a directory"):
        files.append("a", game(3))
    assert files.load("a") == game(1) + game(2)
    blocker.rmdir()
    files.append("a", game(3))
    assert files.load("a") == game(1) + game(2) + game(3)


# --- the index -------------------------------------------------------------------------------


def test_a_damaged_index_is_refused_and_restored(files: TinyDBEventStore) -> None:
    files.append("a", game(1))
    files.set_meta("a", {"title": "eins"})
    files.append("b", game(2))
    files.close()
    index = files.directory / "index.json"
    index.write_bytes(index.read_bytes()[:10])
    with TinyDBEventStore(files.directory) as store:
        with pytest.raises(StoreError, match=rf"{index} is not valid JSON at line 1 column 11"):
            store.list_ids()
        assert store.load("a") == game(1)  # the lists themselves are fine
        report = store.recover_index()
        assert report.restored and report.list_id is None
        assert report.moved_aside == f"{index}.corrupt"
        assert "restored it from its last good copy" in report.message
        assert store.list_ids() == ["a", "b"]
        assert store.meta("a") == {"title": "eins"}
        assert not store.recover_index().restored


def test_an_index_without_good_copy_is_rebuilt_from_the_lists(files: TinyDBEventStore) -> None:
    files.append("b", game(1))
    files.set_meta("b", {"title": "weg"})
    files.append("a", game(2))
    files.close()
    index = files.directory / "index.json"
    index.write_bytes(b"\x00")
    index.with_name("index.json.prev").unlink()
    with TinyDBEventStore(files.directory) as store:
        report = store.recover_index()
        assert "rebuilt the index from the list files" in report.message
        assert store.list_ids() == ["a", "b"]  # creation order is lost: by name
        assert store.meta("b") == {}
        assert store.load("b") == game(1)
        store.append("c", game(3))
        assert store.list_ids() == ["a", "b", "c"]


def test_recover_index_adds_list_files_it_does_not_know(files: TinyDBEventStore) -> None:
    files.append("a", game(1))
    (files.directory / "lists" / "z-copied-in.json").write_text('{"events": {}}')
    report = files.recover_index()
    assert report.restored and "z-copied-in" in report.message
    assert files.list_ids() == ["a", "z-copied-in"]


# --- where the store lives, and the device id ---------------------------------------------


def test_the_store_defaults_to_the_users_data_directory(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_directory() == tmp_path / "xdg" / "skattisch"
    with TinyDBEventStore() as store:
        store.append("a", game(1))
    assert (tmp_path / "xdg" / "skattisch" / "lists" / "a.json").exists()
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")
    assert default_directory() == tmp_path / "home" / ".local" / "share" / "skattisch"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_directory() == tmp_path / "home" / ".local" / "share" / "skattisch"


def test_the_device_id_is_created_once_and_kept(tmp_path: Path) -> None:
    first = device_id(tmp_path / "new" / "dir")
    assert str(uuid.UUID(first)) == first
    assert device_id(tmp_path / "new" / "dir") == first
    assert (tmp_path / "new" / "dir" / "device-id").read_text() == first + "\n"
    with TinyDBEventStore(tmp_path / "new" / "dir") as store:
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
        "file": lambda: TinyDBEventStore(tmp_path / "f"), "memory": MemoryEventStore}
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
