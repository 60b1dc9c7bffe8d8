"""Member ids in the lists: the laptop releases a series with each player's member
id, the real table process opens the list with them, the list's events carry them to the
laptop, and the ranking finds the person by the id even after the roster renamed him
completely. Real collector process, real table process, real HTTP on 127.0.0.1."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")

from device.club.roster import new_id  # noqa: E402
from tests.e2e.club_table import running_table  # noqa: E402
from tests.e2e.test_club_privacy import Laptop, laptop  # noqa: E402,F401

PLAYERS = ("Jürgen", "Gast Gustav", "Anna")  # Jürgen and Anna from the roster, a guest


@pytest.fixture(scope="module")
def table(laptop: tuple[Laptop, dict[str, Any]]) -> Iterator[Any]:
    from drivers.club.app import new_pairing_code
    from drivers.club.store import SqliteCollectorStore

    server, _ = laptop
    store = SqliteCollectorStore(server.db)
    code = new_pairing_code(store, now=time.time())
    store.close()
    with running_table(server.url, code, name="Tisch 1", players=PLAYERS, length=6) as running:
        yield running


def test_the_list_carries_member_ids_and_the_ranking_follows_them(laptop: tuple[Laptop, dict[str, Any]],
                                                                   table: Any) -> None:
    from drivers.club.store import SqliteCollectorStore

    server, _ = laptop
    store = SqliteCollectorStore(server.db)
    roster = [{"name": "Jürgen Meier", "short": "Jürgen", "publish": True},
              {"name": "Anna Adler", "short": "Anna", "publish": True}]
    store.set_document("roster", roster)
    store.close()
    cookie = server.login()
    status, _, _ = server.request("POST", "/serie", "aktion=auslosen&art=zufall&seed=5&spieler=" +
                                  "%0A".join(PLAYERS).replace(" ", "+"), cookie=cookie)
    assert status == 303
    store = SqliteCollectorStore(server.db)
    plan = store.document("plan")
    assert [sorted(t) for t in plan["tables"]] == [sorted(PLAYERS)]  # one three-table: Tisch 1's
    store.close()
    assert server.request("POST", "/serie", "aktion=freigeben", cookie=cookie)[0] == 303
    deadline = time.monotonic() + 20
    offer = None
    while time.monotonic() < deadline and not offer:
        offer = table("status")["next_series"]
        time.sleep(0.2)
    assert offer is not None and offer["table"] == 1, offer
    ids = {"Jürgen": new_id("Jürgen Meier"), "Anna": new_id("Anna Adler"), "Gast Gustav": ""}
    assert offer["members"] == [ids[p] for p in offer["players"]]
    opened = table("open-next")
    assert not opened["refused"] and sorted(opened["players"]) == sorted(PLAYERS)
    played = table("play 6")
    assert played["acked"] == played["last_seq"]

    store = SqliteCollectorStore(server.db)
    events = store.device_events(table.device)
    first = events[0]
    assert first["type"] == "list_opened"
    assert dict(zip(first["data"]["players"], first["data"]["members"], strict=True)) == ids
    # the club renames Jürgen completely (a new import): the list's id still finds him
    store.set_document("roster", [{"name": "Jürgen Maier-Schulz", "short": "JMS", "publish": True,
                                   "id": ids["Jürgen"]}, roster[1]])
    store.close()
    total = {line["player"] for line in json.loads(server.text("/wertung.json"))["total"]}
    assert "Jürgen Maier-Schulz" in total and "Jürgen" not in total and "Gast Gustav" in total

    # another table's ack says where the members of this open list sit (its card taps are told)
    from device.sync import API, batch_body, sign_request
    from drivers.club.app import new_pairing_code
    from drivers.sync import pair_with_laptop
    from tests.e2e.test_sync_refusals import post

    store = SqliteCollectorStore(server.db)
    code = new_pairing_code(store, now=time.time())
    store.close()
    secret = pair_with_laptop(server.url, code, "tisch-2b", name="Tisch 2").secret
    path, body = f"{API}/events", batch_body("tisch-2b", [])
    status, answer = post(server.url, path, body, sign_request(secret, "tisch-2b", "POST", path, body,
                                                               now=time.time(), nonce="cd" * 16))
    assert status == 200 and answer["seated"] == {ids["Jürgen"]: "Tisch 1", ids["Anna"]: "Tisch 1"}
