""""Karte zuordnen": the organiser asks for a member's card on the Spieler page, the
next unknown card read at setup at a paired table goes to the laptop and becomes that member's,
the table gets it with the roster and seats him by it; a card another member holds is refused
on the laptop in words. Real collector process, real table process, real HTTP on 127.0.0.1."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("starlette")

from tests.e2e.test_club_member_ids import table  # noqa: E402,F401
from tests.e2e.test_club_privacy import Laptop, laptop  # noqa: E402,F401


def _until(check: Callable[[], Any], what: str, seconds: float = 20) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"{what}: not within {seconds} s")


def test_a_card_read_at_a_table_is_assigned_on_the_laptop(laptop: tuple[Laptop, dict[str, Any]], table: Any) -> None:
    from drivers.club.store import SqliteCollectorStore

    server, _ = laptop
    store = SqliteCollectorStore(server.db)
    store.set_document("roster", [{"name": "Jürgen Meier", "short": "Jürgen"}, {"name": "Anna Adler", "short": "Anna"}])
    store.close()
    assert table("tag 04A1B2C3")["refusals"] == ["unknown_member_card"]  # nobody assigns a card yet
    cookie = server.login()
    status, _, page = server.request("POST", "/spieler", "aktion=karte_zuordnen&name=J%C3%BCrgen+Meier", cookie=cookie)
    assert status == 200 and "Karte für Jürgen Meier: jetzt an einem Tisch auflegen" in page.decode()
    _until(lambda: table("status")["card_wanted"], "the table hears that a card is wanted")
    assert table("tag 04a1b2c3")["refusals"] == ["card_to_laptop"]

    def jurgens_card() -> bool:
        return "Die Karte 04A1B2C3 gehört jetzt Jürgen Meier" in server.text("/spieler?fragment=1", cookie=cookie)

    _until(jurgens_card, "the laptop assigns the card")
    _until(lambda: any(p.get("card") == "04A1B2C3" for p in table("status")["roster"] or []),
           "the table gets the card with the roster")
    assert table("tag 04A1B2C3") == {"refusals": [], "seated": ["Jürgen"]}  # he sits down by it

    # Anna is given a card; the card read is Jürgen's: refused on the laptop, nothing changes
    server.request("POST", "/spieler", "aktion=karte_zuordnen&name=Anna+Adler", cookie=cookie)
    _until(lambda: table("status")["card_wanted"], "the table hears that a card is wanted again")
    table("tag 04A1B2C3")  # Jürgen's card: he stands up (a roster card is never sent)
    assert table("tag 0000FFFF")["refusals"] == ["card_to_laptop"]
    _until(lambda: "0000FFFF" in server.text("/spieler.csv", cookie=cookie), "Anna gets her card")
    roster = {p["name"]: p.get("card") for p in json.loads(json.dumps(_roster(server)))}
    assert roster == {"Jürgen Meier": "04A1B2C3", "Anna Adler": "0000FFFF"}


def _roster(server: Laptop) -> list[dict[str, Any]]:
    from drivers.club.store import SqliteCollectorStore

    store = SqliteCollectorStore(server.db)
    try:
        return list(store.document("roster") or [])
    finally:
        store.close()


def test_a_card_another_member_holds_or_no_assignment_is_refused_in_words(
        laptop: tuple[Laptop, dict[str, Any]]) -> None:
    """A table with an older roster may send a card that is already someone's."""
    from device.sync import API, sign_request
    from drivers.club.app import new_pairing_code
    from drivers.club.store import SqliteCollectorStore
    from drivers.sync import pair_with_laptop
    from tests.e2e.test_sync_refusals import post

    server, _ = laptop
    store = SqliteCollectorStore(server.db)
    store.set_document("roster", [{"name": "Jürgen Meier", "short": "Jürgen", "card": "04A1B2C3"},
                                  {"name": "Anna Adler", "short": "Anna"}])
    code = new_pairing_code(store, now=time.time())
    store.close()
    secret = pair_with_laptop(server.url, code, "tisch-8", name="Tisch 8").secret
    path = f"{API}/card"

    def send(card: str, nonce: str) -> tuple[int, dict[str, Any]]:
        body = json.dumps({"v": 1, "device": "tisch-8", "card": card}).encode()
        return post(server.url, path, body, sign_request(secret, "tisch-8", "POST", path, body, now=time.time(),
                                                         nonce=nonce * 32))

    status, answer = send("0000AAAA", "a")
    assert (status, answer["error"]) == (409, "no_assignment") and "no card is being assigned" in answer["reason"]
    cookie = server.login()
    server.request("POST", "/spieler", "aktion=karte_zuordnen&name=Anna+Adler", cookie=cookie)
    status, answer = send("04a1b2c3", "b")
    assert (status, answer["error"]) == (409, "card_taken")
    assert "Die Karte 04A1B2C3 gehört schon Jürgen Meier" in server.text("/spieler", cookie=cookie)
    assert [p.get("card") for p in _roster(server)] == ["04A1B2C3", None]
    status, answer = send("0000AAAA", "c")
    assert status == 200 and answer["assigned"] == "Anna" and answer["text"] == "Karte gehört jetzt Anna"
