"""The lot that separates equal players (SkWO 5.1) on the laptop's pages: one order on the
Wertung and the Saison page, drawn anew for every evening (from its whole id)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")

from drivers.club.store import CollectorStore, open_store  # noqa: E402
from ui.club.model import Evening  # noqa: E402

EQUAL = [f"Spieler {c}" for c in "ABCDEFGH"]  # eight players with the same figures: only the lot orders them


@pytest.fixture
def store(store_target: str) -> Iterator[CollectorStore]:
    club = open_store(store_target)  # SQLite, then PostgreSQL
    yield club
    club.close()


def results(evening: str, players: list[str], series: int = 1, leistung: int = 500) -> dict[str, Any]:
    return {f"pi-{evening}-{series}/L": {"evening": evening, "series": series, "table": 1, "count": 1,
                                          "results": [[p, 100, 3, 1, leistung] for p in players]}}


def evening_order(store: CollectorStore, evening: str) -> list[str]:
    store.set_document("evening", {"id": evening, "title": evening})
    store.set_document("season_results", results(evening, EQUAL))
    _, total = Evening(store).ranking()
    assert [line.rank for line in total] == list(range(1, 9)) and all(line.by_lot for line in total)
    return [line.player for line in total]


def test_each_evening_of_a_month_draws_its_own_lot(store: CollectorStore) -> None:
    # the ids share their first 8 characters ("2026-11-"): the whole id seeds the lot
    orders = {tuple(evening_order(store, f"2026-11-{day:02d}")) for day in (5, 12, 19, 26)}
    assert len(orders) == 4
    assert evening_order(store, "2026-11-26") == evening_order(store, "2026-11-26")  # reproducible


def test_the_saison_page_orders_equal_players_as_the_wertung_does(store: CollectorStore) -> None:
    documents = {**results("2026-11-05", ["Zora"], leistung=900),  # an earlier evening: one more player
                 **results("2026-11-26", EQUAL)}
    store.set_document("evening", {"id": "2026-11-26", "title": "Abend"})
    store.set_document("season_results", documents)
    evening = Evening(store)
    _, total = evening.ranking()
    wertung = [line.player for line in total]
    lines, _, _ = evening.season()
    saison = [line.player for line in lines]
    assert saison == ["Zora", *wertung]
    assert all(line.by_lot for line in lines[1:]) and not lines[0].by_lot
