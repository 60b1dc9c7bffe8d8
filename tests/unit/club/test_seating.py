"""The seat draw: everyone placed once, tables of 3 and 4 only, at most three three-tables."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from device.club.seating import SeatingError, random_draw, seeded_draw, swap, table_sizes

counts = st.integers(3, 120).filter(lambda n: n != 5)


def _names(n: int) -> list[str]:
    return [f"P{i:03d}" for i in range(n)]


def _check(tables, names) -> None:  # type: ignore[no-untyped-def]
    seated = [p for t in tables for p in t.players]
    assert sorted(seated) == sorted(names)
    sizes = [len(t.players) for t in tables]
    assert set(sizes) <= {3, 4}
    assert sizes.count(3) <= 3
    assert [t.table for t in tables] == list(range(1, len(tables) + 1))


@given(n=counts, seed=st.integers())
def test_random_draw_places_everyone_once_at_three_and_four_tables(n: int, seed: int) -> None:
    names = _names(n)
    tables = random_draw(names, seed=seed)
    _check(tables, names)
    assert random_draw(names, seed=seed) == tables


@given(n=counts, seed=st.integers())
def test_seeded_draw_snakes_the_order_over_the_tables(n: int, seed: int) -> None:
    order = _names(n)
    tables = seeded_draw(order, seed=seed)
    _check(tables, order)
    assert seeded_draw(order, seed=seed) == tables
    # independent snake: place k (0-based) goes to table k mod T on even rounds, backwards on odd ones
    t = len(tables)
    if all(len(x.players) == 4 for x in tables):
        for k, name in enumerate(order):
            rnd, pos = divmod(k, t)
            table = pos if rnd % 2 == 0 else t - 1 - pos
            assert name in tables[table].players
    # the best players are spread: the first T of the order sit at T different tables
    firsts = [next(i for i, x in enumerate(tables) if name in x.players) for name in order[:t]]
    assert sorted(firsts) == list(range(t))


def test_a_seed_changes_the_draw() -> None:
    names = _names(16)
    assert len({random_draw(names, seed=s) for s in range(10)}) > 1


@pytest.mark.parametrize("n", [0, 1, 2, 5])
def test_impossible_counts_are_refused_in_words(n: int) -> None:
    with pytest.raises(SeatingError, match="Spieler"):
        table_sizes(n)
    with pytest.raises(ValueError):
        random_draw(_names(n), seed=1)


def test_names_twice_and_unknown_swaps_are_refused() -> None:
    with pytest.raises(SeatingError, match="zweimal"):
        random_draw(["A", "B", "A", "C"], seed=1)
    tables = random_draw(_names(8), seed=1)
    with pytest.raises(SeatingError, match="keinem Tisch"):
        swap(tables, "P000", "Zoe")
    swapped = swap(tables, tables[0].players[0], tables[1].players[2])
    assert swapped[0].players[0] == tables[1].players[2] and swapped[1].players[2] == tables[0].players[0]
    _check(swapped, _names(8))
