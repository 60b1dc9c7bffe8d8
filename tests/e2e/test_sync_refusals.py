"""The collector refuses what it must, each with its reason, and stores nothing of it.

One real collector process on 127.0.0.1; requests are made by hand over real HTTP: missing or
wrong signatures, a replayed and an old request, garbage, an oversized body, a broken chain, a
conflicting (device, seq), a gap, an unpaired table, wrong pairing codes; a replay after the
collector was killed and started again.
"""

from __future__ import annotations

import http.client
import json
import secrets
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from device.journal import GENESIS
from device.sync import API, batch_body, journal_entries, sign_request
from drivers.club.app import new_pairing_code
from drivers.club.store import PAIR_TRIES, SqliteCollectorStore, open_store
from drivers.sync import LaptopError, pair_with_laptop
from tests.e2e.sync_helpers import ROOT, Collector

DEVICE = "tisch-7"
PATH = f"{API}/events"


def events(n: int, *, start: int = 1, list_id: str = "liste-1", device: str = DEVICE, tag: str = "") -> list[dict[str, Any]]:
    return [{"v": 1, "type": "bid_made", "id": f"e{seq}{tag}", "seq": seq, "device": device, "list_id": list_id,
             "at": None, "data": {"position": 1, "value": 18}} for seq in range(start, start + n)]


def post(url: str, path: str, body: bytes, headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
    port = int(url.rsplit(":", 1)[1])
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("POST", path, body=body, headers={"Content-Type": "application/json", **(headers or {})})
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


class Laptop:
    def __init__(self, tmp_path: Path) -> None:
        self.collector = Collector(tmp_path / "club.sqlite3")
        self.url = self.collector.url
        store = SqliteCollectorStore(self.collector.db)
        try:
            code = new_pairing_code(store, now=time.time())
        finally:
            store.close()
        self.secret = pair_with_laptop(self.url, code, DEVICE, name="Tisch 7").secret

    def send(self, body: bytes, *, secret: str | None = None, now: float | None = None,
             nonce: str | None = None, device: str = DEVICE) -> tuple[int, dict[str, Any]]:
        headers = sign_request(secret or self.secret, device, "POST", PATH, body,
                               now=time.time() if now is None else now, nonce=nonce or secrets.token_hex(16))
        return post(self.url, PATH, body, headers)

    def held(self) -> tuple[int, int]:
        store = SqliteCollectorStore(self.collector.db)
        try:
            return store.held(DEVICE), len(store.device_events(DEVICE))
        finally:
            store.close()


@pytest.fixture(scope="module")
def laptop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Laptop]:
    laptop = Laptop(tmp_path_factory.mktemp("refusals"))
    entries = journal_entries(events(3))
    status, answer = laptop.send(batch_body(DEVICE, entries))
    assert (status, answer["acked"], answer["stored"]) == (200, 3, 3)
    yield laptop
    laptop.collector.stop()


def refused(laptop: Laptop, status: int, answer: dict[str, Any], code: int, error: str) -> None:
    assert (status, answer.get("error")) == (code, error), answer
    assert answer["reason"] and answer["v"] == 1
    assert laptop.held() == (3, 3)  # nothing stored


def test_a_resend_is_harmless_and_acknowledged(laptop: Laptop) -> None:
    status, answer = laptop.send(batch_body(DEVICE, journal_entries(events(3))))
    assert (status, answer["acked"], answer["stored"], answer["duplicates"]) == (200, 3, 0, 3)
    assert isinstance(answer["time"], float) and answer["roster"] == [] and answer["resend_from"] is None


def test_missing_and_wrong_signatures_are_refused(laptop: Laptop) -> None:
    body = batch_body(DEVICE, journal_entries(events(4)))
    refused(laptop, *post(laptop.url, PATH, body), 401, "unsigned")
    refused(laptop, *laptop.send(body, secret="11" * 32), 401, "bad_signature")
    headers = sign_request(laptop.secret, DEVICE, "POST", PATH, body, now=time.time(), nonce="ab" * 8)
    tampered = body.replace(b'"value":18', b'"value":99')
    refused(laptop, *post(laptop.url, PATH, tampered, headers), 401, "bad_signature")
    refused(laptop, *laptop.send(body, device="tisch-unbekannt"), 401, "not_paired")


def test_replayed_and_old_requests_are_refused(laptop: Laptop) -> None:
    body = batch_body(DEVICE, journal_entries(events(4)))
    refused(laptop, *laptop.send(body, now=time.time() - 600), 401, "stale")  # captured ten minutes ago
    headers = sign_request(laptop.secret, DEVICE, "POST", PATH, batch_body(DEVICE, []), now=time.time(), nonce="cd" * 8)
    assert post(laptop.url, PATH, batch_body(DEVICE, []), headers)[0] == 200
    refused(laptop, *post(laptop.url, PATH, batch_body(DEVICE, []), headers), 401, "replayed")


def test_garbage_and_oversized_bodies_are_refused(laptop: Laptop) -> None:
    refused(laptop, *laptop.send(b"\x00\xffnot json"), 400, "bad_json")
    refused(laptop, *laptop.send(b'{"v": 1, "device": "tisch-7", "entries": [{"prev": 1}]}'), 400, "bad_payload")
    refused(laptop, *laptop.send(b'{"v": 2, "device": "tisch-7", "entries": []}'), 400, "bad_version")
    refused(laptop, *laptop.send(b" " * (1024 * 1024 + 1)), 413, "too_large")


def test_a_broken_chain_is_refused_whole(laptop: Laptop) -> None:
    entries = journal_entries(events(6))
    changed = entries[4].event | {"data": {"position": 2, "value": 18}}  # an event changed after the fact
    broken = [*entries[3:4], type(entries[4])(entries[4].prev, entries[4].hash, changed), entries[5]]
    refused(laptop, *laptop.send(batch_body(DEVICE, broken)), 422, "broken_chain")
    other_start = journal_entries(events(1, start=4), prev=GENESIS)  # seq 4 claims to open the list anew
    refused(laptop, *laptop.send(batch_body(DEVICE, other_start)), 422, "broken_chain")


def test_a_conflicting_seq_is_refused_and_kept_aside(laptop: Laptop) -> None:
    other = journal_entries(events(4, tag="x"))  # seqs 1-3 held with other ids, plus a new seq 4
    refused(laptop, *laptop.send(batch_body(DEVICE, other)), 409, "conflict")
    store = SqliteCollectorStore(laptop.collector.db)
    try:
        conflicts = store.conflicts(DEVICE)
        assert [(c.seq, c.held_id, c.sent["event"]["id"]) for c in conflicts] == [(1, "e1", "e1x")]
        assert [e["id"] for e in store.device_events(DEVICE)] == ["e1", "e2", "e3"]  # never overwritten
    finally:
        store.close()


def test_a_gap_is_refused_and_says_where_to_go_on(laptop: Laptop) -> None:
    entries = journal_entries(events(6))
    status, answer = laptop.send(batch_body(DEVICE, entries[4:]))
    refused(laptop, status, answer, 409, "out_of_order")
    assert answer["acked"] == 3
    body = json.dumps({"v": 1, "device": DEVICE, "entries": [
        {"prev": e.prev, "hash": e.hash, "event": e.event} for e in (entries[3], entries[5])]}).encode()
    refused(laptop, *laptop.send(body), 409, "out_of_order")


def test_wrong_pairing_codes_lock_out_the_address_they_came_from_not_the_code(tmp_path: Path) -> None:
    collector = Collector(tmp_path / "club.sqlite3")
    try:
        out = subprocess.run([sys.executable, "-m", "ui.cli", "club", "pair", "--db", str(collector.db), "--json",
                              "--minutes", "1440"], cwd=ROOT, capture_output=True, text=True, check=True)
        code = json.loads(out.stdout)["code"]
        wrong = "000000" if code != "000000" else "111111"
        for _ in range(PAIR_TRIES):
            with pytest.raises(LaptopError) as refused:
                pair_with_laptop(collector.url, wrong, "tisch-9")
            assert refused.value.code == "bad_code"
        with pytest.raises(LaptopError) as locked:  # 127.0.0.1 waits, even with the right code
            pair_with_laptop(collector.url, code, "tisch-9")
        assert (locked.value.code, locked.value.status) == ("too_many_tries", 429)
        store = open_store(collector.db)
        try:  # the day's code is not void: another address pairs with it (here: the store, as the app would)
            store.pair(code, "tisch-10", "Tisch 10", "ab" * 32, now=time.time(), source="10.0.0.10")
            assert store.secret("tisch-10") == "ab" * 32
        finally:
            store.close()
    finally:
        collector.stop()


def test_pairing_codes_work_once_and_unpaired_tables_are_refused(tmp_path: Path) -> None:
    collector = Collector(tmp_path / "club.sqlite3")
    try:
        with pytest.raises(LaptopError) as wrong:
            pair_with_laptop(collector.url, "000000", "tisch-9")
        assert wrong.value.code == "bad_code" and wrong.value.status == 403
        out = subprocess.run([sys.executable, "-m", "ui.cli", "club", "pair", "--db", str(collector.db), "--json"],
                             cwd=ROOT, capture_output=True, text=True, check=True)
        code = json.loads(out.stdout)["code"]
        state = pair_with_laptop(collector.url, code, "tisch-9", name="Tisch 9")
        assert len(state.secret) == 64 and state.url == collector.url
        with pytest.raises(LaptopError) as again:
            pair_with_laptop(collector.url, code, "tisch-10")  # a code pairs one table
        assert again.value.code == "bad_code"
        body = batch_body("tisch-9", journal_entries(events(2, device="tisch-9")))
        headers = sign_request(state.secret, "tisch-9", "POST", PATH, body, now=time.time(), nonce="ef" * 8)
        assert post(collector.url, PATH, body, headers)[0] == 200
        subprocess.run([sys.executable, "-m", "ui.cli", "club", "unpair", "tisch-9", "--db", str(collector.db)],
                       cwd=ROOT, check=True, capture_output=True)
        headers = sign_request(state.secret, "tisch-9", "POST", PATH, body, now=time.time(), nonce="fe" * 8)
        status, answer = post(collector.url, PATH, body, headers)
        assert (status, answer["error"]) == (401, "not_paired")
        tables = subprocess.run([sys.executable, "-m", "ui.cli", "club", "tables", "--db", str(collector.db), "--json"],
                                cwd=ROOT, capture_output=True, text=True, check=True)
        assert [(t["device"], t["paired"], t["last_seq"]) for t in json.loads(tables.stdout)] == [("tisch-9", False, 2)]
    finally:
        collector.stop()


def test_a_replay_is_refused_after_the_laptop_restarts(tmp_path: Path) -> None:
    laptop = Laptop(tmp_path)
    try:
        body = batch_body(DEVICE, journal_entries(events(3)))
        headers = sign_request(laptop.secret, DEVICE, "POST", PATH, body, now=time.time(), nonce=secrets.token_hex(16))
        assert post(laptop.url, PATH, body, headers)[0] == 200  # captured on the way by an attacker
        subprocess.run([sys.executable, "-m", "ui.cli", "club", "resend", DEVICE, "--db", str(laptop.collector.db)],
                       cwd=ROOT, check=True, capture_output=True)
        before = contact(laptop)
        laptop.collector.kill()
        laptop.collector.start()  # the same port, a new process: nothing of the old one's memory
        status, answer = post(laptop.url, PATH, body, headers)
        assert (status, answer["error"]) == (401, "replayed"), answer
        assert laptop.held() == (3, 3) and contact(laptop) == before  # nothing stored, not counted as contact
        assert before[1]  # the organiser's `club resend` still waits for the table
    finally:
        laptop.collector.stop()


def contact(laptop: Laptop) -> tuple[float | None, bool]:
    store = SqliteCollectorStore(laptop.collector.db)
    try:
        table = next(t for t in store.tables() if t.device == DEVICE)
        return table.last_contact, store.resend_requested(DEVICE)
    finally:
        store.close()


def test_nonces_are_kept_on_disk_until_stale_then_dropped(tmp_path: Path) -> None:
    def stored_nonces() -> list[tuple[str, float]]:
        with sqlite3.connect(tmp_path / "club.sqlite3") as db:
            return sorted(db.execute("SELECT nonce, expires FROM nonces").fetchall())

    store = SqliteCollectorStore(tmp_path / "club.sqlite3")
    try:
        assert store.use_nonce(DEVICE, "aa", expires=1600.0, now=1000.0)
        assert not store.use_nonce(DEVICE, "aa", expires=1600.0, now=1001.0)
        assert store.use_nonce("tisch-8", "aa", expires=1600.0, now=1001.0)  # nonces are per table
        assert store.use_nonce(DEVICE, "bb", expires=1900.0, now=1300.0)
    finally:
        store.close()
    store = SqliteCollectorStore(tmp_path / "club.sqlite3")  # reopened: still known
    try:
        assert not store.use_nonce(DEVICE, "aa", expires=1600.0, now=1600.0)
        assert stored_nonces() == [("aa", 1600.0), ("aa", 1600.0), ("bb", 1900.0)]
        assert store.use_nonce(DEVICE, "cc", expires=2200.0, now=1600.5)  # past 1600: the "aa"s are stale
        assert stored_nonces() == [("bb", 1900.0), ("cc", 2200.0)]
    finally:
        store.close()
