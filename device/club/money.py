"""The Preisskat's conditions (SkWO 6.2): fees, Abreizgeld, the prize plans, extra rankings.

Money is integer cents everywhere; :func:`parse_cents` reads what an organiser types
("0,50 €", "0.50", "12") and :func:`euro` writes it back. The conditions are frozen values
that check themselves when built and refuse in words naming the field (:class:`MoneyError`);
:meth:`Conditions.from_json` / :meth:`Conditions.to_json` keep them in the laptop's store.
What the evening costs each player and who wins what are pure functions of the conditions
and the lists (:mod:`device.club.prizes`).

>>> parse_cents("0,50 €", "Startgeld"), parse_cents("12", "Startgeld"), euro(1250), euro(-5)
(50, 1200, '12,50 €', '-0,05 €')
>>> DEFAULT_ABREIZ.charge(0, 5)          # 3 x 0,50 + 2 x 1,00
350
>>> DEFAULT_ABREIZ.charge(2, 2)          # the 3rd and 4th lost game: 0,50 + 1,00
150
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

__all__ = ["DEFAULT_ABREIZ", "Abreizgeld", "Conditions", "ExtraRanking", "FeeCategory", "MoneyError", "PassedCounts",

           "PrizePlan", "SeriesMoney", "TableTerms", "Tier", "passed_counts", "series_money", "amount_text", "euro", "parse_cents"]

_AMOUNT = re.compile(r"^(-?)(\d{1,7})(?:[.,](\d{1,2}))?$")

PASSED_IN_PAYERS = {"spieler": "die drei Spieler des eingepassten Spiels",
                    "geber": "der Geber", "tisch": "jeder Spieler am Tisch"}
SCALES = {"prozent": "Prozent je Platz", "fest": "feste Beträge", "fallend": "fallende Staffel"}
KINDS = {"mannschaft": 4, "tandem": 2, "kategorie": 0}
REMAINDER_TO = ("erster", "veranstalter")
TIES = {"los": "das Los entscheidet (SkWO 5.1)", "teilen": "die Preise der gleichen Plätze werden geteilt"}


class MoneyError(ValueError):
    """Conditions or an amount that cannot be taken; ``field`` names what was wrong."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


def parse_cents(text: str | int, field: str, *, negative: bool = False) -> int:
    """Cents from what an organiser types: "0,50 €", "0.50", "12", "1.5" (no floats on the way).

    >>> parse_cents("1.5", "Tischgeld"), parse_cents(" 3,05€ ", "Tischgeld"), parse_cents("", "Tischgeld")
    (150, 305, 0)
    >>> parse_cents("-1", "Startgeld")
    Traceback (most recent call last):
    ...
    device.club.money.MoneyError: Startgeld: darf nicht negativ sein (-1,00)
    >>> parse_cents("zwei", "Startgeld")
    Traceback (most recent call last):
    ...
    device.club.money.MoneyError: Startgeld: kein Betrag: 'zwei' (z. B. 5,00 oder 0,50)
    """
    if isinstance(text, int):
        cents = text
    else:
        cleaned = text.replace("€", "").replace("EUR", "").strip().replace(" ", "")
        if not cleaned:
            return 0
        found = _AMOUNT.match(cleaned)
        if found is None:
            raise MoneyError(field, f"kein Betrag: {text.strip()!r} (z. B. 5,00 oder 0,50)")
        sign, whole, part = found.groups()
        cents = int(whole) * 100 + int((part or "0").ljust(2, "0"))
        cents = -cents if sign else cents
    if cents < 0 and not negative:
        raise MoneyError(field, f"darf nicht negativ sein ({euro(cents)[:-2]})")
    return cents


def euro(cents: int) -> str:
    """12,50 € (German style, thousands with a dot: 1.234,00 €)."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}{whole:,}".replace(",", ".") + f",{part:02d} €"


def amount_text(cents: int) -> str:
    """An amount as a form shows it, without the € and thousands dots: "1234,50" (read back by
    :func:`parse_cents`).

    >>> amount_text(123450), parse_cents(amount_text(123450), "x")
    ('1234,50', 123450)
    """
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100},{abs(cents) % 100:02d}"


def _not_negative(value: int, field: str) -> None:
    if value < 0:
        raise MoneyError(field, f"darf nicht negativ sein ({euro(value)})")


def _percent(value: int, field: str) -> None:
    if not 0 <= value <= 100:
        raise MoneyError(field, f"muss zwischen 0 und 100 % liegen, nicht {value} %")


@dataclass(frozen=True, slots=True)
class Tier:
    """From the ``first_lost``-th lost game on, each lost game costs ``cents``."""

    first_lost: int
    cents: int


@dataclass(frozen=True, slots=True)
class Abreizgeld:
    """The Abreizgeld tiers per lost game, counted per series or over the whole evening.

    >>> Abreizgeld((Tier(1, 50), Tier(1, 100)))
    Traceback (most recent call last):
    ...
    device.club.money.MoneyError: Abreizgeld: die Stufe ab dem 1. verlorenen Spiel überschneidet sich mit der davor
    """

    tiers: tuple[Tier, ...] = (Tier(1, 50), Tier(4, 100))
    per_evening: bool = False

    def __post_init__(self) -> None:
        if not self.tiers:
            return
        if self.tiers[0].first_lost != 1:
            raise MoneyError("Abreizgeld", "die erste Stufe muss beim 1. verlorenen Spiel beginnen")
        for before, tier in zip(self.tiers, self.tiers[1:]):
            if tier.first_lost <= before.first_lost:
                raise MoneyError("Abreizgeld", f"die Stufe ab dem {tier.first_lost}. verlorenen Spiel "
                                               "überschneidet sich mit der davor")
        for tier in self.tiers:
            _not_negative(tier.cents, f"Abreizgeld ab dem {tier.first_lost}. verlorenen Spiel")

    def price(self, nth: int) -> int:
        """What the ``nth`` lost game (1-based) costs."""
        return next((t.cents for t in reversed(self.tiers) if t.first_lost <= nth), 0)

    def charge(self, lost_before: int, lost_now: int) -> int:
        """What ``lost_now`` more lost games cost after ``lost_before`` counted already."""
        return sum(self.price(n) for n in range(lost_before + 1, lost_before + lost_now + 1))

    def words(self) -> str:
        """'0,50 € je verlorenes Spiel, ab dem 4. 1,00 € (je Serie)'."""
        if not self.tiers:
            return "kein Abreizgeld"
        parts = [f"{euro(self.tiers[0].cents)} je verlorenes Spiel"]
        parts += [f"ab dem {t.first_lost}. {euro(t.cents)}" for t in self.tiers[1:]]
        return ", ".join(parts) + (" (gezählt über den ganzen Abend)" if self.per_evening else " (gezählt je Serie)")


DEFAULT_ABREIZ = Abreizgeld()


@dataclass(frozen=True, slots=True)
class PrizePlan:
    """How one ranking's pot goes out as prizes.

    ``payout_percent`` of the pot is paid out; ``places`` money prizes (or ``share_of_players``
    percent of the ranked, at least one); ``scale``: "prozent" (``amounts`` are percents of the
    payout per place, adding up to 100), "fest" (``amounts`` are cents; more than the pot only
    if ``organiser_pays``) or "fallend" (linear from the 1st down to the last money place, which
    gets ``last_percent`` of the 1st). Prizes are rounded down to ``round_to`` cents; the
    remainder goes to ``remainder_to`` ("erster" or "veranstalter"). ``material`` are the
    places after the money places (a Sachpreis each). ``tie``: at equal Leistung, won and lost
    games, "los" (SkWO 5.1) or "teilen" (the tied players share their places' prizes).

    >>> PrizePlan(scale="prozent", amounts=(50, 30, 10))
    Traceback (most recent call last):
    ...
    device.club.money.MoneyError: Preisplan: die Anteile ergeben 90 %, nicht 100 %
    """

    payout_percent: int = 100
    places: int = 3
    share_of_players: int = 0
    scale: str = "prozent"
    amounts: tuple[int, ...] = (50, 30, 20)
    last_percent: int = 50
    round_to: int = 0
    remainder_to: str = "erster"
    organiser_pays: bool = False
    material: tuple[str, ...] = ()
    tie: str = "los"
    label: str = field(default="Preisplan", compare=False)

    def __post_init__(self) -> None:
        _percent(self.payout_percent, f"{self.label}: ausgezahlter Anteil")
        _percent(self.share_of_players, f"{self.label}: Anteil der Spieler mit Preis")
        _percent(self.last_percent, f"{self.label}: letzter Geldpreis in % des ersten")
        if self.scale not in SCALES:
            raise MoneyError(f"{self.label}: Staffel", f"unbekannt: {self.scale!r} (prozent, fest, fallend)")
        if self.remainder_to not in REMAINDER_TO:
            raise MoneyError(f"{self.label}: Rest", f"an 'erster' oder 'veranstalter', nicht {self.remainder_to!r}")
        if self.tie not in TIES:
            raise MoneyError(f"{self.label}: Gleichstand", f"'los' oder 'teilen', nicht {self.tie!r}")
        if self.round_to not in (0, 50, 100, 500, 1000):
            raise MoneyError(f"{self.label}: Rundung", "auf 0,50 €, 1 €, 5 € oder 10 € (oder gar nicht)")
        if self.places < 0:
            raise MoneyError(f"{self.label}: Zahl der Preise", "darf nicht negativ sein")
        for amount in self.amounts:
            _not_negative(amount, f"{self.label}: Beträge")
        if self.scale == "prozent" and self.amounts and sum(self.amounts) != 100:
            raise MoneyError(self.label, f"die Anteile ergeben {sum(self.amounts)} %, nicht 100 %")
        if self.scale == "prozent" and self.share_of_players == 0 and self.places != len(self.amounts):
            raise MoneyError(f"{self.label}: Zahl der Preise",
                             f"{self.places} Preise, aber {len(self.amounts)} Anteile")

    def prize_places(self, ranked: int) -> int:
        """How many money prizes with ``ranked`` players (or teams) in the ranking.

        >>> PrizePlan(scale="fallend", places=0, share_of_players=25, amounts=()).prize_places(11)
        2
        """
        if self.scale == "fest":
            count = len(self.amounts)
        elif self.share_of_players:
            count = max(1, ranked * self.share_of_players // 100)
        else:
            count = self.places
        return min(count, ranked)

    def check_pot(self, pot: int) -> None:
        """Refuse fixed prizes above what the pot pays out, unless the organiser pays them."""
        paid = pot * self.payout_percent // 100
        if self.scale == "fest" and sum(self.amounts) > paid and not self.organiser_pays:
            raise MoneyError(f"{self.label}: Beträge",
                             f"die Preise ({euro(sum(self.amounts))}) übersteigen den Topf ({euro(paid)}); "
                             "weniger Preise oder 'zahlt der Veranstalter' ankreuzen")


@dataclass(frozen=True, slots=True)
class FeeCategory:
    """A Startgeld of its own for some players (e.g. Jugend 0,00 €: they still may win); no
    players named: the evening's players the member list puts in the category."""

    name: str
    cents: int
    players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ExtraRanking:
    """A ranking beside the individual one, with its own fee and prize plan.

    ``kind``: "mannschaft" (groups of four; result = the sum of its players' Leistung),
    "tandem" (groups of two), "kategorie" (one group: its players ranked by their own
    Leistung). A group without players (or a team or category ranking without groups) takes
    them from the member list (:func:`device.club.member_groups.from_member_list`). ``fee`` per player or, with ``fee_per_group``, per group (paid by its first
    named player). ``public``: shown on the public Preise page (else the organiser's only).
    """

    name: str
    kind: str
    fee: int
    groups: tuple[tuple[str, tuple[str, ...]], ...]
    plan: PrizePlan
    fee_per_group: bool = False
    public: bool = True

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise MoneyError("Zusatzwertung: Name", "fehlt")
        if self.kind not in KINDS:
            raise MoneyError(f"{self.name}: Art", f"unbekannt: {self.kind!r} (mannschaft, tandem, kategorie)")
        _not_negative(self.fee, f"{self.name}: Startgeld")
        size = KINDS[self.kind]
        seen: dict[str, str] = {}
        for group, players in self.groups:
            if size and players and len(players) != size:  # none named: drawn from the member list
                raise MoneyError(f"{self.name}: {group}", f"hat {len(players)} Spieler, nicht {size}")
            for player in players:
                if player in seen:
                    raise MoneyError(f"{self.name}: {group}", f"{player} spielt schon in {seen[player]}")
                seen[player] = group

    def members(self) -> tuple[str, ...]:
        return tuple(p for _, players in self.groups for p in players)

    def fee_of(self, player: str) -> int:
        """What ``player`` pays to be in this ranking."""
        for _, players in self.groups:
            if player in players:
                return self.fee if not self.fee_per_group or player == players[0] else 0
        return 0


@dataclass(frozen=True, slots=True)
class Conditions:
    """An evening's conditions, as announced (SkWO 6.2)."""

    startgeld: int = 0
    categories: tuple[FeeCategory, ...] = ()
    tischgeld: int = 0
    abreiz: Abreizgeld = DEFAULT_ABREIZ
    passed_in_fee: int = 0
    passed_in_payer: str = "spieler"
    plan: PrizePlan = PrizePlan()
    series_prizes: tuple[int, ...] = ()
    series_prizes_by_organiser: bool = False
    extras: tuple[ExtraRanking, ...] = ()
    one_prize_each: bool = False
    note: str = ""

    def __post_init__(self) -> None:
        _not_negative(self.startgeld, "Startgeld")
        _not_negative(self.tischgeld, "Tischgeld")
        _not_negative(self.passed_in_fee, "Gebühr je eingepasstes Spiel")
        for amount in self.series_prizes:
            _not_negative(amount, "Serienpreise")
        if self.passed_in_payer not in PASSED_IN_PAYERS:
            raise MoneyError("eingepasst: wer zahlt", f"unbekannt: {self.passed_in_payer!r}")
        seen: dict[str, str] = {}
        for category in self.categories:
            _not_negative(category.cents, f"Startgeld {category.name}")
            for player in category.players:
                if player in seen:
                    raise MoneyError(f"Startgeld {category.name}", f"{player} steht schon bei {seen[player]}")
                seen[player] = category.name
        names = [e.name for e in self.extras]
        if len(set(names)) != len(names):
            raise MoneyError("Zusatzwertungen", "zwei Wertungen mit demselben Namen")

    def startgeld_of(self, player: str) -> tuple[int, str]:
        """(cents, category name or "") for ``player``."""
        for category in self.categories:
            if player in category.players:
                return category.cents, category.name
        return self.startgeld, ""

    def check_pot(self, individual_pot: int) -> None:
        """Refuse prizes the pot cannot pay (with the evening's players as now)."""
        self.plan.check_pot(individual_pot)
        paid = individual_pot * self.plan.payout_percent // 100
        if not self.series_prizes_by_organiser and sum(self.series_prizes) > paid:
            raise MoneyError("Serienpreise", f"die Serienpreise ({euro(sum(self.series_prizes))} je Serie) "
                                             f"übersteigen den Topf ({euro(paid)}); oder 'zahlt der Veranstalter'")

    # -- JSON (the laptop's store) -------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "startgeld": self.startgeld, "tischgeld": self.tischgeld,
            "categories": [{"name": c.name, "cents": c.cents, "players": list(c.players)} for c in self.categories],
            "abreiz": {"tiers": [[t.first_lost, t.cents] for t in self.abreiz.tiers],
                       "per_evening": self.abreiz.per_evening},
            "passed_in_fee": self.passed_in_fee, "passed_in_payer": self.passed_in_payer,
            "plan": _plan_json(self.plan), "series_prizes": list(self.series_prizes),
            "series_prizes_by_organiser": self.series_prizes_by_organiser,
            "extras": [{"name": e.name, "kind": e.kind, "fee": e.fee, "fee_per_group": e.fee_per_group,
                        "public": e.public, "groups": [[g, list(p)] for g, p in e.groups], "plan": _plan_json(e.plan)}
                       for e in self.extras],
            "one_prize_each": self.one_prize_each, "note": self.note,
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any] | None) -> Conditions:
        """The conditions from the store (None: the defaults: nothing charged but the Abreizgeld tiers)."""
        if not raw:
            return cls()
        abreiz = raw.get("abreiz", {})
        return cls(
            startgeld=int(raw.get("startgeld", 0)), tischgeld=int(raw.get("tischgeld", 0)),
            categories=tuple(FeeCategory(str(c["name"]), int(c["cents"]), tuple(c["players"]))
                             for c in raw.get("categories", ())),
            abreiz=Abreizgeld(tuple(Tier(int(a), int(b)) for a, b in abreiz.get("tiers", ((1, 50), (4, 100)))),
                              bool(abreiz.get("per_evening", False))),
            passed_in_fee=int(raw.get("passed_in_fee", 0)), passed_in_payer=str(raw.get("passed_in_payer", "spieler")),
            plan=_plan_from(raw.get("plan", {}), "Preisplan"), series_prizes=tuple(int(a) for a in raw.get("series_prizes", ())),
            series_prizes_by_organiser=bool(raw.get("series_prizes_by_organiser", False)),
            extras=tuple(ExtraRanking(str(e["name"]), str(e["kind"]), int(e["fee"]),
                                      tuple((str(g), tuple(p)) for g, p in e.get("groups", ())),
                                      _plan_from(e.get("plan", {}), str(e["name"])),
                                      bool(e.get("fee_per_group", False)), bool(e.get("public", True)))
                         for e in raw.get("extras", ())),
            one_prize_each=bool(raw.get("one_prize_each", False)), note=str(raw.get("note", "")))


    def table_terms(self) -> TableTerms:
        """What a table needs to show each player's money at the end of a series."""
        return TableTerms(self.abreiz, self.passed_in_fee, self.passed_in_payer)


@dataclass(frozen=True, slots=True)
class TableTerms:
    """The evening's Abreizgeld tiers and eingepasst fee as the laptop sends them to the tables
    with each sync answer (``"money"``), so the end screen shows each player's Abreizgeld.

    >>> terms = TableTerms.from_json({"tiers": [[1, 50], [4, 100]], "per_evening": False, "passed_in_fee": 50,
    ...                               "passed_in_payer": "spieler"})
    >>> terms == TableTerms.from_json(terms.to_json()), TableTerms.from_json({"tiers": "x"})
    (True, None)
    """

    abreiz: Abreizgeld
    passed_in_fee: int = 0
    passed_in_payer: str = "spieler"

    def to_json(self) -> dict[str, Any]:
        return {"tiers": [[t.first_lost, t.cents] for t in self.abreiz.tiers], "per_evening": self.abreiz.per_evening,
                "passed_in_fee": self.passed_in_fee, "passed_in_payer": self.passed_in_payer}

    @classmethod
    def from_json(cls, raw: object) -> TableTerms | None:
        """The terms from a sync answer; None when there are none or they are malformed."""
        if not isinstance(raw, dict):
            return None
        try:
            tiers = tuple(Tier(int(a), int(b)) for a, b in raw["tiers"])
            payer = str(raw.get("passed_in_payer", "spieler"))
            fee = int(raw.get("passed_in_fee", 0))
            if payer not in PASSED_IN_PAYERS or fee < 0:
                return None
            return cls(Abreizgeld(tiers, raw.get("per_evening") is True), fee, payer)
        except (KeyError, TypeError, ValueError):
            return None


class _Row(Protocol):
    @property
    def kind(self) -> str: ...
    @property
    def seating(self) -> tuple[str, ...]: ...
    @property
    def active(self) -> tuple[int, int, int]: ...
    @property
    def dealer(self) -> int: ...


class _Played(Protocol):
    @property
    def series(self) -> int: ...
    @property
    def table(self) -> int: ...
    @property
    def seating(self) -> tuple[str, ...]: ...
    @property
    def rows(self) -> Sequence[_Row]: ...


@dataclass(frozen=True, slots=True)
class PassedCounts:
    """How many eingepasste games of one list a player was in: as one of the three, as the
    dealer, at the table at all."""

    player: str
    series: int
    table: int
    active: int
    dealer: int
    at_table: int

    def charged(self, payer: str) -> int:
        """The eingepasste games this player pays the fee for, by who pays (the conditions)."""
        return {"spieler": self.active, "geber": self.dealer, "tisch": self.at_table}[payer]


def passed_counts(played: _Played) -> tuple[PassedCounts, ...]:
    """Each player's eingepasste games at ``played`` (a list: its series, table, seating, rows)."""
    counts: dict[str, list[int]] = {name: [0, 0, 0] for name in played.seating}
    for row in played.rows:
        if row.kind != "passed_in":
            continue
        for seat, name in enumerate(row.seating):
            c = counts.setdefault(name, [0, 0, 0])
            c[0] += seat in row.active
            c[1] += seat == row.dealer
            c[2] += 1
    return tuple(PassedCounts(p, played.series, played.table, *c) for p, c in counts.items())


@dataclass(frozen=True, slots=True)
class SeriesMoney:
    """One player's money of one series at a table: lost games, their Abreizgeld (None when
    the tiers count over the whole evening: only the laptop knows the earlier series), the
    eingepasste games charged and their fee."""

    player: str
    lost: int
    abreiz: int | None
    passed_in: int
    passed_fee: int


def series_money(terms: TableTerms, lost: Mapping[str, int], passed: Sequence[PassedCounts]) -> tuple[SeriesMoney, ...]:
    """Each player's money of the series by ``terms`` (players in the order of ``lost``).

    >>> terms = TableTerms(Abreizgeld(), 50, "spieler")
    >>> [(m.player, m.lost, m.abreiz, m.passed_fee) for m in series_money(terms, {"Anna": 4, "Bernd": 0},
    ...  [PassedCounts("Anna", 1, 1, 1, 0, 1), PassedCounts("Bernd", 1, 1, 0, 1, 1)])]
    [('Anna', 4, 250, 50), ('Bernd', 0, 0, 0)]
    """
    charged = {c.player: c.charged(terms.passed_in_payer) for c in passed}
    return tuple(SeriesMoney(name, n, None if terms.abreiz.per_evening else terms.abreiz.charge(0, n),
                             charged.get(name, 0), charged.get(name, 0) * terms.passed_in_fee)
                 for name, n in lost.items())


_PLAN_FIELDS = ("payout_percent", "places", "share_of_players", "scale", "amounts", "last_percent", "round_to",
                "remainder_to", "organiser_pays", "material", "tie")


def _plan_json(plan: PrizePlan) -> dict[str, Any]:
    out = {name: getattr(plan, name) for name in _PLAN_FIELDS}
    return {**out, "amounts": list(plan.amounts), "material": list(plan.material)}


def _plan_from(raw: Mapping[str, Any], label: str) -> PrizePlan:
    known: dict[str, Any] = {k: v for k, v in raw.items() if k in _PLAN_FIELDS}
    if "amounts" in known:
        known["amounts"] = tuple(int(a) for a in known["amounts"])
    if "material" in known:
        known["material"] = tuple(str(m) for m in known["material"])
    return PrizePlan(**known, label=label)


def tiers_from_text(text: str, field: str = "Abreizgeld") -> tuple[Tier, ...]:
    """Tiers from "1: 0,50; 4: 1,00" (from the n-th lost game on: the amount).

    >>> tiers_from_text("1: 0,50; 4: 1,00")
    (Tier(first_lost=1, cents=50), Tier(first_lost=4, cents=100))
    >>> tiers_from_text("1: 0,50; x: 1")
    Traceback (most recent call last):
    ...
    device.club.money.MoneyError: Abreizgeld: 'x: 1' ist keine Stufe (z. B. 4: 1,00 = ab dem 4. verlorenen Spiel 1,00 €)
    """
    tiers = []
    for part in (p.strip() for p in text.split(";")):
        if not part:
            continue
        nth, _, amount = part.partition(":")
        if not nth.strip().isdigit() or not amount.strip():
            raise MoneyError(field, f"{part!r} ist keine Stufe (z. B. 4: 1,00 = ab dem 4. verlorenen Spiel 1,00 €)")
        tiers.append(Tier(int(nth), parse_cents(amount, f"{field} ab dem {nth.strip()}. verlorenen Spiel")))
    return tuple(tiers)


def amounts_text(values: Sequence[int], percent: bool) -> str:
    """What the form shows for a plan's amounts: "50; 30; 20" or "100,00; 50,00"."""
    return "; ".join(str(v) if percent else amount_text(v) for v in values)
