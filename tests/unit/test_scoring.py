"""The score list's arithmetic: totals, scoring systems, ranking and money (device.scoring).

The worked examples of the rule texts live in tests/data/scoring/*.json, each naming its
source; the properties below check the same arithmetic on generated lists.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from device.errors import SkatError
from device.scoring import (
    Entry, Game, PassedIn, Ramsch, ScoreListError, ScoreSheet, ScoringSystem,
    SettlementVariant, Tally, bierlachs, bierlachs_limit, bierlachs_totals, cash_amounts,
    cash_totals, classic_totals, endzahlen, entry_points, leistung, rank, running_totals,
    seeger_fabian_totals, settle, settle_sheet, settle_variant1, settle_variant2,
    settle_variant3, standings, tallies, totals, transfers,
)

DATA = Path(__file__).resolve().parents[1] / "data" / "scoring"
VARIANT_FUNCTIONS = {1: settle_variant1, 2: settle_variant2, 3: settle_variant3}
CREDIT = {3: 40, 4: 30, 5: 24}


def cases(name: str) -> list[dict[str, Any]]:
    data: dict[str, Any] = json.loads((DATA / name).read_text(encoding="utf-8"))
    return list(data["cases"])


def by_id(name: str) -> pytest.MarkDecorator:
    return pytest.mark.parametrize("case", cases(name), ids=lambda c: str(c["id"]))


def entry_from(raw: dict[str, Any]) -> Entry:
    if raw.get("eingepasst"):
        return PassedIn()
    if "ramsch" in raw:
        return Ramsch(tuple((int(p), int(s)) for p, s in raw["ramsch"]))
    a, b, c = raw.get("active", (0, 1, 2))
    return Game(raw["declarer"], raw["score"], raw["won"], (a, b, c))


def sheet_from(case: dict[str, Any]) -> ScoreSheet:
    return ScoreSheet(case["players"], tuple(entry_from(e) for e in case["entries"]))


def as_tuples(rows: list[list[int]]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(row) for row in rows)


def net_of(moves: Any, players: int) -> tuple[int, ...]:
    net = [0] * players
    for t in moves:
        net[t.payer] -= t.amount
        net[t.payee] += t.amount
    return tuple(net)


# --------------------------------------------------------------------------- worked examples


@by_id("lists.json")
def test_running_totals_match_the_worked_list(case: dict[str, Any]) -> None:
    sheet = sheet_from(case)
    for system_name, rows in case["running"].items():
        system = ScoringSystem.parse(system_name)
        assert running_totals(sheet, system) == as_tuples(rows), system_name
        assert totals(sheet, system) == tuple(rows[-1]), system_name


def test_list_example_of_003_settles_as_its_money_table() -> None:
    (case,) = [c for c in cases("lists.json") if c["id"] == "003-three-games"]
    sheet = sheet_from(case)
    assert settle_sheet(sheet, 1).amounts == tuple(case["settlement_stake_1"])


@by_id("leistung.json")
def test_leistung_by_the_wertungsformel(case: dict[str, Any]) -> None:
    tally = Tally(case["points"], case["won"], case["lost"], case["others_lost"])
    assert leistung(tally, case["players"]) == case["leistung"]


def skwo_example_sheet() -> ScoreSheet:
    """A four-table list with the SkWO 5.1 figures: A 937 points, 18 won, 3 lost; B, C, D
    lose 14 games together (5, 5, 4). The dealer is always the player after the declarer."""
    games: list[tuple[int, int, bool]] = [(0, 60, True)] * 17 + [(0, 55, True)]
    games += [(0, -46, False)] * 3
    games += [(1, -48, False)] * 5 + [(2, -48, False)] * 5 + [(3, -48, False)] * 4
    entries = []
    for declarer, score, won in games:
        dealer = (declarer + 1) % 4
        active = tuple(p for p in range(4) if p != dealer)
        entries.append(Game(declarer, score, won, active))  # type: ignore[arg-type]
    return ScoreSheet(4, tuple(entries))


def test_skwo_example_as_a_real_four_table_list() -> None:
    sheet = skwo_example_sheet()
    assert tallies(sheet)[0] == Tally(points=937, won=18, lost=3, others_lost=14)
    # B: -240 points, 5 lost, the others lost 3 + 5 + 4 = 12 games (30 each).
    assert seeger_fabian_totals(sheet) == (2107, -240 - 250 + 360, -130, -192 - 200 + 390)
    assert standings(sheet, ScoringSystem.SEEGER_FABIAN)[0].total == 2107


@by_id("settlement.json")
def test_settlement_variants_reproduce_the_worked_example(case: dict[str, Any]) -> None:
    stake = Fraction(case["stake"])
    figures = endzahlen(case["totals"], stake)
    if "endzahlen" in case:
        assert figures == tuple(case["endzahlen"])
    assert sum(figures) == case["endzahlsumme"]
    expected = tuple(case["amounts"])
    for number in case["variants"]:
        assert VARIANT_FUNCTIONS[number](figures) == expected, f"Variante {number}"
    for number in {1, 2} - set(case["variants"]):
        with pytest.raises(ScoreListError, match=f"Variante {3 - number}"):
            VARIANT_FUNCTIONS[number](figures)
    result = settle(case["totals"], stake)
    assert result.amounts == expected
    assert net_of(result.transfers, len(expected)) == expected


def test_five_cent_example_of_001_pays_the_same_as_its_pairwise_payments() -> None:
    # rules/001: B pays A 3.30, C pays A 5.20, C pays B 1.90.
    pairwise = [(1, 0, 330), (2, 0, 520), (2, 1, 190)]
    net = [0, 0, 0]
    for payer, payee, amount in pairwise:
        net[payer] -= amount
        net[payee] += amount
    result = settle([96, 30, -8], 5)
    assert result.amounts == tuple(net)
    assert len(result.transfers) == 2        # netted: C pays A 710, B pays A 140
    assert {(t.payer, t.payee, t.amount) for t in result.transfers} == {(2, 0, 710), (1, 0, 140)}


@by_id("cash.json")
def test_cash_per_game(case: dict[str, Any]) -> None:
    entry = entry_from(case["entry"])
    amounts = cash_amounts(entry, case["players"], Fraction(case["stake"]))
    assert amounts == tuple(case["amounts"])
    assert sum(amounts) == 0


# --------------------------------------------------------------------------- the input model


@pytest.mark.parametrize(("args", "words"), [
    ((0, -54, True), "won game is entered with a positive score"),
    ((0, 54, False), "lost game is entered with minus twice"),
    ((0, -27, False), "even negative score"),
    ((3, 18, True, (0, 1, 2)), "declarer (player 3) must be one of the active"),
    ((0, 18, True, (0, 0, 1)), "three different active players"),
])
def test_game_rejects_what_cannot_be_on_a_list(args: tuple[Any, ...], words: str) -> None:
    with pytest.raises(ScoreListError) as caught:
        Game(*args)
    assert words in str(caught.value)
    assert isinstance(caught.value, SkatError) and isinstance(caught.value, ValueError)


def test_sheet_rejects_unknown_players_and_table_sizes() -> None:
    with pytest.raises(ScoreListError, match="3, 4 or 5 players, not 6"):
        ScoreSheet(6)
    with pytest.raises(ScoreListError, match="entry 2: player 4 is not on a list of 4"):
        ScoreSheet(4, (PassedIn(), Ramsch(((4, -20),))))
    with pytest.raises(ScoreListError, match="entry 1: player 3 is not on a list of 3"):
        ScoreSheet(3, (Game(3, 18, True, (1, 2, 3)),))


def test_ramsch_names_each_player_once() -> None:
    with pytest.raises(ScoreListError, match="each player once"):
        Ramsch(((1, -10), (1, -10)))
    with pytest.raises(ScoreListError, match="at least one player"):
        Ramsch(())


def test_add_returns_a_new_sheet_and_accepts_lists_of_entries() -> None:
    empty = ScoreSheet(3, [])  # type: ignore[arg-type]
    longer = empty.add(Game(1, 23, True), PassedIn())
    assert empty.entries == () and len(longer.entries) == 2
    assert classic_totals(longer) == (0, 23, 0)


def test_game_value_undoes_the_doubling_of_a_loss() -> None:
    assert Game(0, 96, True).value == 96
    assert Game(0, -96, False).value == 48


def test_entry_points_write_ramsch_and_games_per_player() -> None:
    assert entry_points(Ramsch.of({0: -20, 2: 10}), 4) == (-20, 0, 10, 0)
    assert entry_points(Game(2, -46, False, (1, 2, 3)), 5) == (0, 0, -46, 0, 0)


def test_scoring_system_parse() -> None:
    assert ScoringSystem.parse("Seeger-Fabian") is ScoringSystem.SEEGER_FABIAN
    assert ScoringSystem.parse("classic") is ScoringSystem.CLASSIC
    with pytest.raises(ScoreListError, match="unknown scoring system 'skatclub'"):
        ScoringSystem.parse("skatclub")


def test_empty_list_gives_zeros_everywhere() -> None:
    sheet = ScoreSheet(4)
    for system in ScoringSystem:
        assert totals(sheet, system) == (0, 0, 0, 0)
        assert running_totals(sheet, system) == ()
    assert settle_sheet(sheet, 1).amounts == (0, 0, 0, 0)
    assert settle_sheet(sheet, 1).transfers == ()


# --------------------------------------------------------------------------- Bierlachs


def test_bierlachs_exactly_at_the_limit_is_still_in() -> None:
    # Made-up values (301 is no game value): only the arithmetic counts here.
    sheet = ScoreSheet(3, (Game(1, 301, True),))
    assert bierlachs(sheet).rows == ((-301, 0, -301),)
    assert bierlachs(sheet).rounds == ()
    (decided,) = bierlachs(sheet.add(Game(0, -2, False))).rounds
    assert decided.totals == (-303, 0, -301) and decided.losers == (0,)


def test_bierlachs_lowest_of_several_loses_and_equal_ones_share() -> None:
    sheet = ScoreSheet(3, (Game(0, -200, False), Game(2, 324, True)))
    (decided,) = bierlachs(sheet).rounds
    assert decided.totals == (-524, -324, 0) and decided.losers == (0,)
    level = ScoreSheet(3, (Game(2, 324, True),))
    assert bierlachs(level).rounds[0].losers == (0, 1)
    assert bierlachs(level).losses == (1, 1, 0)


def test_bierlachs_starts_again_at_zero_and_counts_losses() -> None:
    sheet = ScoreSheet(4, (
        Game(0, 264, True, (0, 1, 2)), Game(0, 240, True, (0, 2, 3)),  # 1, 2, 3 at -504
        Game(1, -100, False, (1, 2, 3)),                              # new Bierlachs
        Game(3, 216, True, (3, 0, 1)), Game(3, 216, True, (3, 0, 1)),
    ))
    result = bierlachs(sheet)
    assert result.rows[2] == (0, -100, 0, 0)
    assert [(r.first_entry, r.last_entry, r.losers) for r in result.rounds] == [
        (0, 1, (1, 2, 3)), (2, 4, (1,))]
    assert result.losses == (0, 2, 1, 1)
    assert bierlachs_totals(sheet) == (-432, -532, -432, 0)


def test_bierlachs_dealer_at_four_gets_the_minus_too() -> None:
    sheet = ScoreSheet(4, (Game(1, 46, True, (1, 2, 3)),))    # dealer 0 sits out
    assert bierlachs_totals(sheet) == (-46, 0, -46, -46)


def test_bierlachs_limit_is_configurable_and_checked() -> None:
    sheet = ScoreSheet(3, (Game(0, 216, True),))
    assert bierlachs(sheet, 201).losses == (0, 1, 1)
    assert bierlachs(sheet).losses == (0, 0, 0)
    assert totals(sheet, ScoringSystem.BIERLACHS, bierlachs_limit=201) == (0, -216, -216)
    with pytest.raises(ScoreListError, match="positive number"):
        bierlachs(sheet, 0)
    assert bierlachs_limit(3) == 301 and bierlachs_limit(4) == 401
    with pytest.raises(ScoreListError, match="no usual Bierlachs limit for 5 players"):
        bierlachs(ScoreSheet(5))
    assert bierlachs(ScoreSheet(5), 501).losses == (0, 0, 0, 0, 0)


# --------------------------------------------------------------------------- ranking


def test_rank_tie_breaks_in_skwo_order() -> None:
    lines = rank(totals=[500, 500, 500, 500, 700], won=[6, 7, 6, 6, 1], lost=[2, 3, 1, 2, 9])
    assert [(s.rank, s.player) for s in lines] == [(1, 4), (2, 1), (3, 2), (4, 0), (4, 3)]
    assert lines[0].total == 700 and lines[0].won == 1 and lines[0].lost == 9


def test_rank_lot_is_seeded_reproducible_and_only_among_equals() -> None:
    args = ([100, 100, 100, 50], [2, 2, 2, 0], [0, 0, 0, 0])
    shared = rank(*args)
    assert [s.rank for s in shared] == [1, 1, 1, 4]
    outcomes = set()
    for seed in range(30):
        drawn = rank(*args, lot_seed=seed)
        assert [s.rank for s in drawn] == [1, 2, 3, 4]
        assert drawn[3].player == 3
        assert drawn == rank(*args, lot_seed=seed)
        outcomes.add(tuple(s.player for s in drawn))
    assert len(outcomes) > 1


def test_rank_needs_a_figure_per_player() -> None:
    with pytest.raises(ScoreListError, match="every player"):
        rank([1, 2, 3], [0, 0], [0, 0, 0])


def test_standings_use_the_systems_total() -> None:
    sheet = ScoreSheet(3, (Game(0, 120, True), Game(1, 48, True), Game(1, 48, True),
                           Game(2, -36, False)))
    classic = standings(sheet, ScoringSystem.CLASSIC)
    assert [(s.player, s.total) for s in classic] == [(0, 120), (1, 96), (2, -36)]
    sf = standings(sheet, ScoringSystem.SEEGER_FABIAN)
    assert [(s.player, s.total, s.won, s.lost) for s in sf] == [
        (1, 236, 2, 0), (0, 210, 1, 0), (2, -86, 0, 1)]


# --------------------------------------------------------------------------- money details


def test_stake_must_be_whole_or_a_fraction_and_not_negative() -> None:
    for bad in (0.25, True, "1/4"):
        with pytest.raises(ScoreListError, match="whole number or a fractions.Fraction"):
            settle([10, 0, -10], bad)  # type: ignore[arg-type]
    with pytest.raises(ScoreListError, match="cannot be negative"):
        settle([10, 0, -10], -1)
    assert settle([10, 0, -10], 0).amounts == (0, 0, 0)


def test_settle_checks_table_size_and_variant_choice() -> None:
    with pytest.raises(ScoreListError, match="not 2"):
        settle([10, -10], 1)
    assert settle([10, 0, -10], 1, variant=SettlementVariant.PAIRWISE).amounts == (30, 0, -30)
    with pytest.raises(ScoreListError, match="use Variante 1"):
        settle([10, 0, 5], 1, variant=SettlementVariant.ADD_SUM)
    assert settle([0, 0, 0], 1, variant=SettlementVariant(2)).amounts == (0, 0, 0)


def test_transfers_refuse_amounts_that_do_not_cancel() -> None:
    with pytest.raises(ScoreListError, match="sum to 1"):
        transfers([1, 0, 0])


def test_cash_ramsch_and_passed_in() -> None:
    assert cash_amounts(PassedIn(), 4, 1) == (0, 0, 0, 0)
    # A Ramsch loser with 37 at 1/2: 18.5 -> 19 to each other player.
    assert cash_amounts(Ramsch.of({1: -37}), 3, Fraction(1, 2)) == (19, -38, 19)


def test_cash_skat_rounds_each_game_the_list_rounds_once() -> None:
    sheet = ScoreSheet(3, (Game(0, 18, True), Game(0, 18, True)))
    assert cash_totals(sheet, Fraction(1, 4)) == (20, -10, -10)   # 5 + 5 from each
    assert settle_sheet(sheet, Fraction(1, 4)).amounts == (18, -9, -9)   # 36/4 = 9


# --------------------------------------------------------------------------- properties


@st.composite
def sheets(draw: st.DrawFn, *, ramsch: bool = True) -> ScoreSheet:
    players = draw(st.sampled_from((3, 4, 5)))
    entries: list[Entry] = []
    for index in range(draw(st.integers(0, 40))):
        dealer = index % players
        if players == 3:
            active = (0, 1, 2)
        elif players == 4:
            active = tuple(p for p in range(4) if p != dealer)  # type: ignore[assignment]
        else:  # ISkO 3.2.7: the dealer's two left neighbours and the right one play
            active = ((dealer + 1) % 5, (dealer + 2) % 5, (dealer - 1) % 5)
        kinds = ["game", "game", "game", "passed"] + (["ramsch"] if ramsch else [])
        kind = draw(st.sampled_from(kinds))
        if kind == "passed":
            entries.append(PassedIn())
        elif kind == "ramsch":
            loser = draw(st.sampled_from(active))
            entries.append(Ramsch(((loser, -draw(st.integers(0, 120))),)))
        else:
            value = draw(st.integers(18, 264)) * draw(st.sampled_from((1, 1, 2, 4)))
            won = draw(st.booleans())
            entries.append(Game(draw(st.sampled_from(active)), value if won else -2 * value,
                                won, active))
    return ScoreSheet(players, tuple(entries))


stakes = st.one_of(st.integers(0, 10),
                   st.fractions(min_value=0, max_value=3, max_denominator=20))
totals_lists = st.integers(3, 5).flatmap(
    lambda n: st.lists(st.integers(-5000, 5000), min_size=n, max_size=n))


@given(sheets())
def test_classic_totals_are_the_declarers_scores_added_up(sheet: ScoreSheet) -> None:
    expected = [0] * sheet.players
    for entry in sheet.entries:
        if isinstance(entry, Game):
            expected[entry.declarer] += entry.score
        elif isinstance(entry, Ramsch):
            for player, points in entry.scores:
                expected[player] += points
    assert classic_totals(sheet) == tuple(expected)
    rows = running_totals(sheet)
    assert len(rows) == len(sheet.entries)
    assert (rows[-1] if rows else (0,) * sheet.players) == tuple(expected)


@given(sheets())
def test_seeger_fabian_adds_50_per_game_and_the_defence_credit(sheet: ScoreSheet) -> None:
    extra = [0] * sheet.players
    for entry in sheet.entries:
        if isinstance(entry, Game):
            extra[entry.declarer] += 50 if entry.won else -50
            if not entry.won:
                for other in range(sheet.players):
                    if other != entry.declarer:
                        extra[other] += CREDIT[sheet.players]
    classic = classic_totals(sheet)
    sf = seeger_fabian_totals(sheet)
    assert tuple(s - c for s, c in zip(sf, classic)) == tuple(extra)
    rows = running_totals(sheet, ScoringSystem.SEEGER_FABIAN)
    assert (rows[-1] if rows else (0,) * sheet.players) == sf


@given(sheets(), st.integers(50, 100_000))
def test_bierlachs_rows_and_decisions(sheet: ScoreSheet, limit: int) -> None:
    result = bierlachs(sheet, limit)
    assert len(result.rows) == len(sheet.entries)
    ends = {r.last_entry: r for r in result.rounds}
    previous = (0,) * sheet.players
    for index, (entry, row) in enumerate(zip(sheet.entries, result.rows)):
        if isinstance(entry, Game) and entry.won:
            step = tuple(0 if p == entry.declarer else -entry.score
                         for p in range(sheet.players))
        else:
            step = entry_points(entry, sheet.players)
        assert row == tuple(a + b for a, b in zip(previous, step))
        if index in ends:
            lowest = min(row)
            assert lowest < -limit and ends[index].totals == row
            assert ends[index].losers == tuple(p for p, t in enumerate(row) if t == lowest)
            previous = (0,) * sheet.players
        else:
            assert min(row) >= -limit
            previous = row
    assert sum(result.losses) >= len(result.rounds)


@given(totals_lists, stakes)
def test_settlement_sums_to_zero_and_the_three_variants_agree(
        totals_: list[int], stake: Fraction | int) -> None:
    figures = endzahlen(totals_, stake)
    pairwise = settle_variant3(figures)
    if sum(figures) >= 0:
        assert settle_variant1(figures) == pairwise
    if sum(figures) <= 0:
        assert settle_variant2(figures) == pairwise
    result = settle(totals_, stake)
    assert result.amounts == pairwise
    assert sum(result.amounts) == 0
    assert net_of(result.transfers, len(totals_)) == result.amounts
    assert len(result.transfers) <= len(totals_) - 1
    assert all(t.amount > 0 for t in result.transfers)
    # Rounding each Endzahl moves it by less than one coin, so each amount stays within
    # 2 (n - 1) coins of the exact value.
    n = len(totals_)
    exact = [Fraction(stake) * (n * t - sum(totals_)) for t in totals_]
    assert all(abs(a - e) < 2 * (n - 1) for a, e in zip(result.amounts, exact))
    # A debt rounds like the equal credit: the mirrored list settles mirrored.
    assert settle([-t for t in totals_], stake).amounts == tuple(-a for a in result.amounts)


@given(totals_lists, st.integers(0, 10))
def test_whole_stakes_just_multiply(totals_: list[int], stake: int) -> None:
    once = settle(totals_, 1).amounts
    assert settle(totals_, stake).amounts == tuple(stake * a for a in once)


@given(sheets(), stakes)
def test_cash_skat_sums_to_zero_and_matches_the_list_for_whole_stakes(
        sheet: ScoreSheet, stake: Fraction | int) -> None:
    cash = cash_totals(sheet, stake)
    assert sum(cash) == 0
    if Fraction(stake).denominator == 1:
        assert cash == settle_sheet(sheet, stake).amounts


@given(sheets(), st.sampled_from(list(ScoringSystem)), st.none() | st.integers(0, 99))
@settings(max_examples=60)
def test_standings_are_ordered_by_the_tie_breaks(
        sheet: ScoreSheet, system: ScoringSystem, seed: int | None) -> None:
    limit = 10**9 if system is ScoringSystem.BIERLACHS else None
    lines = standings(sheet, system, bierlachs_limit=limit, lot_seed=seed)
    assert sorted(s.player for s in lines) == list(range(sheet.players))
    counts = tallies(sheet)
    scored = totals(sheet, system, bierlachs_limit=limit)
    for s in lines:
        assert (s.total, s.won, s.lost) == (scored[s.player], counts[s.player].won,
                                            counts[s.player].lost)
    merits = [(-s.total, -s.won, s.lost) for s in lines]
    assert merits == sorted(merits)
    ranks = [s.rank for s in lines]
    assert ranks == sorted(ranks) and ranks[0] == 1
    for a, b in zip(lines, lines[1:]):
        same = (a.total, a.won, a.lost) == (b.total, b.won, b.lost)
        if seed is None:
            assert (a.rank == b.rank) == same
        else:
            assert b.rank == a.rank + 1


def test_pre1999_single_lost_hand_games_are_accepted_and_settle_single() -> None:
    from device.scoring import Game, ScoreListError, cash_amounts

    game = Game(0, -27, False, lost_factor=1)
    assert game.value == 27
    assert cash_amounts(game, 3, 1) == (-54, 27, 27)  # pays the single value to each
    assert cash_amounts(Game(0, -54, False), 3, 1) == (-108, 54, 54)
    with pytest.raises(ScoreListError, match="negative score"):
        Game(0, -27, False)


def test_isko_5_5_4_rounds_the_amount_up_for_a_debt_too() -> None:
    """ISkO 5.5.4 "Bruchteile werden nach oben aufgerundet" on the Betrag: at 1/4 a list total of
    -75 is a debt of 18.75, rounded to 19 (not to -18); a lost game of 27 pays 7, doubled 14."""
    assert endzahlen([75, -75], Fraction(1, 4)) == (19, -19)
    assert cash_amounts(Game(0, -54, False), 3, Fraction(1, 4)) == (-28, 14, 14)  # lost 27, on the list -54
