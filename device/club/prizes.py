"""The Preisskat's money from the conditions and the lists: the Kasse, the prizes, the account.

Pure functions of :class:`~device.club.money.Conditions`, the players' list results
(:class:`~device.club.ranking.ListResult`, the same figures the ranking adds up) and the
eingepasste games each list holds (:func:`passed_counts`), in integer cents:

- :func:`kasse`: per player what is due (Startgeld by category, extra rankings, Tischgeld per
  series played, Abreizgeld by the tiers, the eingepasst fee), what is paid, what is open;
- :func:`evening_prizes`: the individual ranking (SkWO 5.1 with the lot by the evening's id,
  :func:`device.club.ranking.ranking`), the series prizes, the extra rankings, each with its
  prizes by the plan;
- :func:`account`: the account (SkWO 3.3): income, payouts, what stays with the organiser;
  it adds up to the cent (checked when it is built).

A player who left early or came late pays what was entered for them and ranks by what they
played (the ranking adds up their lists, as always).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from device.club.money import Conditions, ExtraRanking, MoneyError, PassedCounts, PrizePlan, euro, passed_counts
from device.club.ranking import ListResult, RankLine, ranking, series_ranking

__all__ = ["Account", "KasseLine", "PassedCounts", "Payment", "Prize", "RankingPrizes", "account", "distribute",
           "evening_prizes", "kasse", "passed_counts"]


@dataclass(frozen=True, slots=True)
class Payment:
    """What the organiser ticked as paid for a player: the Startgeld, extra rankings by name,
    and ``other`` cents paid on the rest (Tischgeld, Abreizgeld at the end)."""

    startgeld: bool = False
    extras: tuple[str, ...] = ()
    other: int = 0


@dataclass(frozen=True, slots=True)
class SeriesCharge:
    series: int
    lost: int
    abreiz: int
    passed_in: int  # eingepasste games charged
    passed_fee: int


@dataclass(frozen=True, slots=True)
class KasseLine:
    """One player's line of the Kasse."""

    player: str
    category: str
    startgeld: int
    startgeld_paid: bool
    extras: tuple[tuple[str, int, bool], ...]  # (ranking, fee, paid)
    tischgeld: int
    abreiz: int
    passed_fee: int
    series: tuple[SeriesCharge, ...]
    due: int
    paid: int
    open: int

    @property
    def lost(self) -> int:
        return sum(s.lost for s in self.series)


def series_charges(conditions: Conditions, lost_by_series: Mapping[int, int],
                   passed_by_series: Mapping[int, int]) -> tuple[SeriesCharge, ...]:
    """A player's Abreizgeld and eingepasst fee per series (tiers per series or per evening).

    >>> from device.club.money import Conditions
    >>> [(s.series, s.lost, s.abreiz) for s in series_charges(Conditions(), {1: 4, 2: 1}, {})]
    [(1, 4, 250), (2, 1, 50)]
    """
    out = []
    before = 0
    for series in sorted(set(lost_by_series) | set(passed_by_series)):
        lost = lost_by_series.get(series, 0)
        counted = before if conditions.abreiz.per_evening else 0
        passed = passed_by_series.get(series, 0)
        out.append(SeriesCharge(series, lost, conditions.abreiz.charge(counted, lost), passed,
                                passed * conditions.passed_in_fee))
        before += lost
    return tuple(out)


def kasse(conditions: Conditions, results: Iterable[ListResult], passed: Iterable[PassedCounts] = (),
          registered: Iterable[str] = (), payments: Mapping[str, Payment] | None = None) -> tuple[KasseLine, ...]:
    """The Kasse: one line per player who played, was registered or is in an extra ranking."""
    payments = payments or {}
    lost: dict[str, dict[int, int]] = {}
    for r in results:
        per = lost.setdefault(r.player, {})
        per[r.series] = per.get(r.series, 0) + r.lost
    charged: dict[str, dict[int, int]] = {}
    for c in passed:
        per = charged.setdefault(c.player, {})
        per[c.series] = per.get(c.series, 0) + c.charged(conditions.passed_in_payer)
    fees: dict[str, list[tuple[str, int]]] = {}  # player -> (extra ranking, his fee), once for all lines
    for extra in conditions.extras:
        for _, players in extra.groups:
            for player in players:
                fees.setdefault(player, []).append((extra.name, extra.fee_of(player)))
    names = set(lost) | set(registered) | set(fees)
    return tuple(_line(conditions, name, lost.get(name, {}), charged.get(name, {}), payments.get(name, Payment()),
                       fees.get(name, ()))
                 for name in sorted(names, key=str.casefold))


def _line(conditions: Conditions, name: str, lost: Mapping[int, int], passed: Mapping[int, int],
          payment: Payment, fees: Sequence[tuple[str, int]]) -> KasseLine:
    startgeld, category = conditions.startgeld_of(name)
    extras = tuple((extra, fee, extra in payment.extras) for extra, fee in fees)
    series = series_charges(conditions, lost, passed)
    played = sum(1 for s in lost)
    tischgeld = played * conditions.tischgeld
    abreiz = sum(s.abreiz for s in series)
    passed_fee = sum(s.passed_fee for s in series)
    due = startgeld + sum(fee for _, fee, _ in extras) + tischgeld + abreiz + passed_fee
    paid = (startgeld if payment.startgeld else 0) + sum(fee for _, fee, ok in extras if ok) + payment.other
    return KasseLine(name, category, startgeld, payment.startgeld, extras, tischgeld, abreiz, passed_fee, series,
                     due, paid, due - paid)


@dataclass(frozen=True, slots=True)
class Prize:
    """One prize: ``cents`` (of which ``by_organiser`` the organiser pays) or a Sachpreis."""

    ranking: str
    place: int
    winner: str
    cents: int
    material: str = ""
    by_organiser: int = 0
    note: str = ""


@dataclass(frozen=True, slots=True)
class RankingPrizes:
    """One ranking with its prizes: ``pot`` (what its fees brought), ``payout`` (of it for
    prizes), ``kept`` (of the pot not paid out: the share not paid out and rounding remainders)."""

    name: str
    public: bool
    lines: tuple[RankLine, ...]
    prizes: tuple[Prize, ...]
    pot: int
    payout: int
    kept: int
    notes: tuple[str, ...] = ()

    def prize_of(self, player: str) -> tuple[Prize, ...]:
        return tuple(p for p in self.prizes if p.winner == player)


def _merit(line: RankLine) -> tuple[int, int, int]:
    return (line.leistung, line.won, line.lost)


def base_amounts(plan: PrizePlan, payout: int, ranked: int) -> list[int]:
    """The money prizes by place before ties, rounded down; the remainder not yet placed.

    >>> base_amounts(PrizePlan(places=3, amounts=(50, 30, 20), round_to=100), 3350, 10)
    [1600, 1000, 600]
    >>> base_amounts(PrizePlan(scale="fallend", places=7, amounts=(), last_percent=50), 7000, 20)
    [1333, 1222, 1111, 1000, 888, 777, 666]
    """
    k = plan.prize_places(ranked)
    if plan.scale == "fest":
        return list(plan.amounts[:k])
    if plan.scale == "prozent":
        amounts = [payout * p // 100 for p in plan.amounts[:k]]
    else:
        weights = [100 * (k - 1) - (100 - plan.last_percent) * i for i in range(k)] if k > 1 else [1] * k
        amounts = [payout * w // sum(weights) for w in weights]
    if plan.round_to:
        amounts = [a - a % plan.round_to for a in amounts]
    return amounts


def distribute(plan: PrizePlan, name: str, lines: Sequence[RankLine], payout: int, *,
               skip: frozenset[str] = frozenset()) -> tuple[tuple[Prize, ...], int, tuple[str, ...]]:
    """The prizes of one ranking by ``plan`` from ``payout`` cents: (prizes, kept, notes).

    ``lines`` are ordered (the lot already drawn); players in ``skip`` (a prize elsewhere, when
    one prize each is the rule) get none here, the next one moves up. ``kept``: what of
    ``payout`` goes back to the organiser (negative: what the organiser adds).
    """
    eligible = [line for line in lines if line.player not in skip]
    amounts = base_amounts(plan, payout, len(eligible))
    total = sum(amounts)
    notes: list[str] = []
    if plan.scale != "fest" and plan.remainder_to == "erster" and amounts:
        amounts[0] += payout - total
        total = payout
    cents = amounts + [0] * (len(eligible) - len(amounts))
    cents = _ties(plan, name, eligible, cents, len(amounts), notes)
    short = max(0, total - payout)  # fixed prizes above the pot: the organiser pays, from the last place up
    prizes = []
    for index, line in enumerate(eligible):
        material = plan.material[index - len(amounts)] if 0 <= index - len(amounts) < len(plan.material) else ""
        if cents[index] == 0 and not material:
            continue
        prizes.append(Prize(name, line.rank, line.player, cents[index], material))
    for i in range(len(prizes) - 1, -1, -1):
        if short <= 0:
            break
        take = min(short, prizes[i].cents)
        prizes[i] = replace(prizes[i], by_organiser=take)
        short -= take
    return tuple(prizes), payout - total, tuple(notes)


def _ties(plan: PrizePlan, name: str, lines: Sequence[RankLine], cents: list[int], paid_places: int,
          notes: list[str]) -> list[int]:
    """Equal players at a prize place: the lot stands (noted) or they share their places' prizes."""
    start = 0
    out = list(cents)
    while start < len(lines):
        end = start
        while end + 1 < len(lines) and _merit(lines[end + 1]) == _merit(lines[start]):
            end += 1
        if end > start and start < paid_places:
            group = lines[start:end + 1]
            who = ", ".join(line.player for line in group)
            same = (f"gleich mit Leistung {group[0].leistung}, {group[0].won} gewonnenen und "
                    f"{group[0].lost} verlorenen Spielen")
            places = f"Platz {start + 1}–{end + 1}"
            if plan.tie == "teilen":
                pool = sum(cents[start:end + 1])
                share, left = divmod(pool, len(group))
                for i in range(start, end + 1):
                    out[i] = share + (left if i == start else 0)
                extra = f", der Rest von {euro(left)} an {group[0].player} (Los)" if left else ""
                notes.append(f"{name} {places}: {who} {same}: die Preise ({euro(pool)}) geteilt, "
                             f"je {euro(share)}{extra}")
            else:
                notes.append(f"{name} {places}: {who} {same}: die Reihenfolge entschied das Los")
        start = end + 1
    return out


def _team_results(extra: ExtraRanking, results: Sequence[ListResult]) -> list[ListResult]:
    """Each group's result as one name's: the sum of its players' Leistung, won and lost games."""
    group_of = {p: g for g, players in extra.groups for p in players}
    return [ListResult(group_of[r.player], r.series, r.table, r.points, r.won, r.lost, r.leistung)
            for r in results if r.player in group_of]


def evening_prizes(conditions: Conditions, results: Sequence[ListResult], lines: Sequence[KasseLine], *,
                   lot_seed: str) -> tuple[RankingPrizes, ...]:
    """Every ranking of the evening with its prizes: Einzel, the series, the extra rankings."""
    pot = sum(line.startgeld for line in lines)
    series = sorted({r.series for r in results})
    paid_out = pot * conditions.plan.payout_percent // 100
    series_from_pot = 0 if conditions.series_prizes_by_organiser else sum(conditions.series_prizes) * len(series)
    if series_from_pot > paid_out:
        raise MoneyError("Serienpreise", f"die Serienpreise ({euro(series_from_pot)}) übersteigen, was der Topf "
                                         f"auszahlt ({euro(paid_out)})")
    out: list[RankingPrizes] = []
    total = ranking(results, lot_seed=lot_seed)
    prizes, kept, notes = distribute(conditions.plan, "Einzel", total, paid_out - series_from_pot)
    out.append(RankingPrizes("Einzel", True, total, prizes, pot, paid_out - series_from_pot, pot - paid_out + kept, notes))
    if conditions.series_prizes:
        fixed = PrizePlan(scale="fest", amounts=conditions.series_prizes, places=0, organiser_pays=True,
                          label="Serienpreise")
        for s in series:
            lines_s = series_ranking(results, s, lot_seed=lot_seed)
            budget = 0 if conditions.series_prizes_by_organiser else sum(conditions.series_prizes)
            won, kept_s, notes_s = distribute(fixed, f"Serie {s}", lines_s, budget)
            out.append(RankingPrizes(f"Serie {s}", True, lines_s, won, 0, budget, kept_s, notes_s))
    winners = frozenset(p.winner for r in out for p in r.prizes) if conditions.one_prize_each else frozenset()
    for extra in conditions.extras:
        members = set(extra.members())
        extra_pot = sum(extra.fee_of(p) for p in members)
        payout = extra_pot * extra.plan.payout_percent // 100
        if extra.kind == "kategorie":
            ranked = ranking([r for r in results if r.player in members], lot_seed=lot_seed)
            won, kept_e, notes_e = distribute(extra.plan, extra.name, ranked, payout, skip=winners)
        else:
            ranked = ranking(_team_results(extra, results), lot_seed=lot_seed)
            won, kept_e, notes_e = distribute(extra.plan, extra.name, ranked, payout)
        out.append(RankingPrizes(extra.name, extra.public, ranked, won, extra_pot, payout,
                                 extra_pot - payout + kept_e, notes_e))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Account:
    """The evening's account (SkWO 3.3): income, payouts, what stays with the organiser.

    ``income`` and ``payouts`` are (label, cents); ``kept`` explains ``remains`` line by line
    (it adds up: income - payouts == remains == sum of kept). ``open`` is what players still
    owe of the income (the Kasse's open sum).
    """

    income: tuple[tuple[str, int], ...]
    payouts: tuple[tuple[str, int], ...]
    kept: tuple[tuple[str, int], ...]
    by_organiser: int
    open: int

    @property
    def income_total(self) -> int:
        return sum(c for _, c in self.income)

    @property
    def payout_total(self) -> int:
        return sum(c for _, c in self.payouts)

    @property
    def remains(self) -> int:
        return self.income_total - self.payout_total


def account(conditions: Conditions, lines: Sequence[KasseLine], rankings: Sequence[RankingPrizes]) -> Account:
    """The account from the Kasse and the prizes; refuses (AssertionError) if it does not add up."""
    income = [("Startgelder Einzel", sum(line.startgeld for line in lines))]
    for extra in conditions.extras:
        income.append((f"Startgelder {extra.name}", sum(fee for line in lines for n, fee, _ in line.extras
                                                        if n == extra.name)))
    income += [("Tischgeld", sum(line.tischgeld for line in lines)),
               ("Abreizgeld", sum(line.abreiz for line in lines)),
               ("Gebühr eingepasste Spiele", sum(line.passed_fee for line in lines))]
    payouts = []
    by_organiser = 0
    for r in rankings:
        for p in r.prizes:
            if p.cents:
                note = f" (davon {euro(p.by_organiser)} vom Veranstalter)" if p.by_organiser else ""
                payouts.append((f"{p.ranking} Platz {p.place}: {p.winner}{note}", p.cents))
                by_organiser += p.by_organiser
    kept = income[-3:]  # Tischgeld, Abreizgeld and the eingepasst fee stay with the organiser
    for r in rankings:
        if r.kept:
            kept.append((f"{r.name}: nicht ausgezahlt" if r.kept > 0 else f"{r.name}: zahlt der Veranstalter", r.kept))
    result = Account(tuple(income), tuple(payouts), tuple(kept), by_organiser, sum(line.open for line in lines))
    assert result.remains == sum(c for _, c in result.kept), "the account must add up to the cent"
    return result
