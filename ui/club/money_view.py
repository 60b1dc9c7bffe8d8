"""The Preisskat's pages as tables: one :class:`Section` list per page, drawn by the HTML page,
the CSV and the PDF alike, so every amount is the same text in all three (and the JSON's cents
written with :func:`device.club.money.euro`).

The evening's money is read once per request (:class:`EveningMoney`): the conditions and the
Kasse ticks from the store (per evening), the lists' results and eingepasste games from the
read model, then the pure functions of :mod:`device.club.prizes`.
"""

from __future__ import annotations

import re

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from device.club.member_groups import from_member_list
from device.club.money import PASSED_IN_PAYERS, SCALES, TIES, Conditions, MoneyError, PrizePlan, euro
from device.club.prizes import Account, KasseLine, Payment, RankingPrizes, account, evening_prizes, kasse
from device.csvcell import Cell, csv_text
from ui.club.exports import _latin, _Pdf
from device.club.roster import Roster
from ui.club.model import Evening


_NUMBER = re.compile(r"^-?[\d.]+(?:,\d\d €)?(?: \(Los\))?$")


@dataclass(frozen=True, slots=True)
class Section:
    """One table of a money page: a heading, the column heads, rows, a sum row (or none)."""

    title: str
    head: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    foot: tuple[Cell, ...] | None = None
    note: tuple[str, ...] = ()

    def numeric(self) -> tuple[bool, ...]:
        """Per column: only numbers and amounts (set flush right on the page and in the PDF)."""
        def is_number(cell: Cell) -> bool:
            return isinstance(cell, int) or cell == "" or bool(_NUMBER.match(str(cell)))
        return tuple(bool(self.rows) and all(is_number(row[i]) for row in self.rows) for i in range(len(self.head)))

    def widths(self, total: float) -> list[float]:
        """Column widths for the PDF, by the longest text in each column."""
        longest = [max([len(str(self.head[i])), *(len(str(row[i])) for row in self.rows), 4]) for i in
                   range(len(self.head))]
        return [total * n / sum(longest) for n in longest]


@dataclass(frozen=True, slots=True)
class EveningMoney:
    """What the money pages show for one evening (names as the roster knows the people)."""

    evening: dict[str, str]
    conditions: Conditions
    lines: tuple[KasseLine, ...]
    rankings: tuple[RankingPrizes, ...]
    account: Account | None
    released: bool
    error: str = ""

    @classmethod
    def read(cls, evening: Evening) -> EveningMoney:
        current = evening.evening()
        store = evening.store
        conditions = load_conditions(evening, current["id"])
        ledger = store.money(current["id"], "kasse") or {}
        payments = {name: Payment(bool(p.get("startgeld")), tuple(p.get("extras", ())), int(p.get("other", 0)))
                    for name, p in ledger.get("paid", {}).items()}
        results, passed = evening.money_figures(current["id"])
        registered = ledger.get("players", ())
        released = bool(store.money(current["id"], "released"))
        try:
            conditions = drawn_conditions(conditions, evening.roster(), (*(r.player for r in results), *registered))
        except MoneyError as exc:  # a team of the member list without four players: said on the pages
            lines = kasse(conditions, results, passed, registered, payments)
            return cls(current, conditions, lines, (), None, released, str(exc))
        lines = kasse(conditions, results, passed, registered, payments)
        try:
            rankings = evening_prizes(conditions, results, lines, lot_seed=current["id"])
        except MoneyError as exc:  # a plan the evening's players cannot pay: said on the pages
            return cls(current, conditions, lines, (), None, released, str(exc))
        return cls(current, conditions, lines, rankings, account(conditions, lines, rankings), released)

    def public(self, roster: Roster) -> EveningMoney:
        """What the public may see: in a category ranking, a member who has not allowed
        publication is listed without his name (his line says he is in the category)."""
        kinds = {e.name: e.kind for e in self.conditions.extras}
        private = {p.name for p in roster.people if not p.publish}

        def hidden(ranked: RankingPrizes) -> RankingPrizes:
            if kinds.get(ranked.name) != "kategorie":
                return ranked
            def name(player: str) -> str:
                return WITHHELD if player in private else player
            notes = list(ranked.notes)
            for player in private:
                notes = [n.replace(player, WITHHELD) for n in notes]
            return replace(ranked, lines=tuple(replace(x, player=name(x.player)) for x in ranked.lines),
                           prizes=tuple(replace(p, winner=name(p.winner)) for p in ranked.prizes), notes=tuple(notes))

        return replace(self, rankings=tuple(hidden(r) for r in self.rankings))


WITHHELD = "(nicht veröffentlicht)"
"""A category ranking's name for a member who has not allowed publication (public pages)."""


def load_conditions(evening: Evening, evening_id: str) -> Conditions:
    return Conditions.from_json(evening.store.money(evening_id, "conditions"))


def drawn_conditions(conditions: Conditions, roster: Roster, playing: Iterable[str]) -> Conditions:
    """The conditions with the categories and teams the organiser left to the member list."""
    return from_member_list(conditions, {p.name: p.category for p in roster.people if p.category},
                            {p.name: p.team for p in roster.people if p.team}, playing)


# --------------------------------------------------------------------------- sections

KASSE_HEAD = ("Spieler", "Startgeld", "Zusatzwertungen", "Tischgeld", "verlorene Spiele", "Abreizgeld",
              "eingepasst", "gesamt", "bezahlt", "offen")
PAID = " ✓"  # beside a fee ticked as paid


def lost_text(line: KasseLine) -> str:
    """'S1: 4 · S2: 1' (lost games per series)."""
    return " · ".join(f"S{s.series}: {s.lost}" for s in line.series)


def kasse_sections(money: EveningMoney) -> list[Section]:
    rows = []
    for line in money.lines:
        extras = ", ".join(f"{name} {euro(fee)}{PAID if ok else ''}" if fee else f"{name}: Gruppe"
                           for name, fee, ok in line.extras)
        startgeld = euro(line.startgeld) + (PAID if line.startgeld_paid else "") + (
            f" {line.category}" if line.category else "")
        rows.append((line.player, startgeld, extras, euro(line.tischgeld), lost_text(line), euro(line.abreiz),
                     euro(line.passed_fee), euro(line.due), euro(line.paid), euro(line.open)))
    lines = money.lines
    foot: tuple[Cell, ...] = ("Summe", euro(sum(x.startgeld for x in lines)),
                              euro(sum(fee for x in lines for _, fee, _ in x.extras)),
                              euro(sum(x.tischgeld for x in lines)), str(sum(x.lost for x in lines)),
                              euro(sum(x.abreiz for x in lines)), euro(sum(x.passed_fee for x in lines)),
                              euro(sum(x.due for x in lines)), euro(sum(x.paid for x in lines)),
                              euro(sum(x.open for x in lines)))
    note = (f"Abreizgeld: {money.conditions.abreiz.words()}. ✓: bezahlt.",)
    return [Section("Kasse", KASSE_HEAD, tuple(rows), foot, note)]


PRIZE_HEAD = ("Platz", "Spieler", "Leistung", "gewonnen", "verloren", "Preis")


def prize_sections(money: EveningMoney, shown: Callable[[str], str], *, organiser: bool) -> list[Section]:
    """Each ranking with its prizes; rankings not public only for the organiser."""
    out = []
    for ranked in money.rankings:
        if not ranked.public and not organiser:
            continue
        by_winner: dict[str, list[str]] = {}
        for prize in ranked.prizes:
            by_winner.setdefault(prize.winner, []).append(prize_text(prize.cents, prize.material, prize.by_organiser))
        rows = tuple((f"{line.rank}" + (" (Los)" if line.by_lot else ""), shown(line.player), line.leistung,
                      line.won, line.lost, " + ".join(by_winner.get(line.player, ())))
                     for line in ranked.lines)
        paid = sum(p.cents for p in ranked.prizes)
        foot = ("", "Preise zusammen", "", "", "", euro(paid))
        notes = tuple(_shown_note(n, ranked, shown) for n in ranked.notes)
        out.append(Section(ranked.name, PRIZE_HEAD, rows, foot, notes))
    return out


def _shown_note(note: str, ranked: RankingPrizes, shown: Callable[[str], str]) -> str:
    for line in ranked.lines:
        note = note.replace(line.player, shown(line.player))
    return note


def prize_text(cents: int, material: str, by_organiser: int) -> str:
    """'36,00 €', 'Präsentkorb', '5,00 € (Veranstalter)'."""
    if material:
        return material
    return euro(cents) + (" (Veranstalter)" if by_organiser == cents and cents else
                          f" (davon {euro(by_organiser)} Veranstalter)" if by_organiser else "")


ACCOUNT_HEAD = ("Posten", "Betrag")


def account_sections(money: EveningMoney) -> list[Section]:
    books = money.account
    if books is None:
        return []
    return [
        Section("Einnahmen", ACCOUNT_HEAD, tuple((label, euro(c)) for label, c in books.income),
                ("Einnahmen zusammen", euro(books.income_total))),
        Section("Auszahlungen (Preise)", ACCOUNT_HEAD, tuple((label, euro(c)) for label, c in books.payouts),
                ("Auszahlungen zusammen", euro(books.payout_total)),
                (f"Davon zahlt der Veranstalter {euro(books.by_organiser)} aus eigener Kasse.",)
                if books.by_organiser else ()),
        Section("Verbleibt beim Veranstalter", ACCOUNT_HEAD, tuple((label, euro(c)) for label, c in books.kept),
                ("Einnahmen − Auszahlungen", euro(books.remains))),
        Section("Noch offen", ACCOUNT_HEAD, (("von den Spielern noch nicht bezahlt", euro(books.open)),)),
    ]


def condition_sections(conditions: Conditions) -> list[Section]:
    """The announcement (SkWO 6.2: Einsätze, Gebühren, Verwendung der Gelder)."""
    fees: list[tuple[Cell, ...]] = [("Startgeld", euro(conditions.startgeld))]
    fees += [(f"Startgeld {c.name}", euro(c.cents)) for c in conditions.categories]
    fees += [("Tischgeld je Serie", euro(conditions.tischgeld)), ("Abreizgeld", conditions.abreiz.words())]
    if conditions.passed_in_fee:
        fees.append(("je eingepasstes Spiel", f"{euro(conditions.passed_in_fee)}, zahlt "
                                              f"{PASSED_IN_PAYERS[conditions.passed_in_payer]}"))
    out = [Section("Einsätze und Gebühren", ("", ""), tuple(fees))]
    prizes: list[tuple[Cell, ...]] = [("Einzelwertung", plan_words(conditions.plan))]
    if conditions.series_prizes:
        source = "zahlt der Veranstalter" if conditions.series_prizes_by_organiser else "aus dem Topf"
        prizes.append(("Serienpreise", "; ".join(f"{i}. {euro(a)}" for i, a in enumerate(conditions.series_prizes, 1))
                       + f" je Serie ({source})"))
    for extra in conditions.extras:
        per = "je Gruppe" if extra.fee_per_group else "je Spieler"
        prizes.append((extra.name, f"Startgeld {euro(extra.fee)} {per}; {plan_words(extra.plan)}"))
    prizes.append(("Mehrere Preise", "nur ein Preis je Spieler (Kategorie: der nächste rückt nach)"
                   if conditions.one_prize_each else "wer in zwei Wertungen gewinnt, erhält beide Preise"))
    out.append(Section("Preise", ("", ""), tuple(prizes)))
    return out


def plan_words(plan: PrizePlan) -> str:
    """'100 % der Startgelder; 3 Preise: 50 % / 30 % / 20 %; abgerundet auf 1,00 €, Rest an den Ersten'."""
    if plan.scale == "fest":
        places = "; ".join(f"{i}. {euro(a)}" for i, a in enumerate(plan.amounts, 1))
    elif plan.scale == "prozent":
        places = " / ".join(f"{a} %" for a in plan.amounts)
    else:
        places = f"fallend bis {plan.last_percent} % des ersten"
    places_n = plan.prize_places(10**6)
    count = (f"{plan.share_of_players} % der Spieler" if plan.share_of_players else
             "1 Preis" if places_n == 1 else f"{places_n} Preise")
    words = [f"{plan.payout_percent} % der Startgelder", f"{count}: {places}"]
    if plan.organiser_pays:
        words.append("was der Topf nicht deckt, zahlt der Veranstalter")
    if plan.round_to:
        rest = "an den Ersten" if plan.remainder_to == "erster" else "an den Veranstalter"
        words.append(f"abgerundet auf {euro(plan.round_to)}, Rest {rest}")
    if plan.material:
        words.append("Sachpreise: " + ", ".join(plan.material))
    words.append(f"Gleichstand: {TIES[plan.tie]}")
    return "; ".join(words) + f" ({SCALES[plan.scale]})"


# --------------------------------------------------------------------------- CSV, PDF, JSON


def sections_csv(sections: Sequence[Section]) -> str:
    rows: list[Sequence[Cell]] = []
    for section in sections:
        rows += [(section.title,), section.head, *section.rows]
        if section.foot is not None:
            rows.append(section.foot)
        rows += [(n,) for n in section.note]
        rows.append(())
    return csv_text(rows)


def _pdf_text(cell: Cell) -> str:
    """A cell for the PDF's core font (Latin-1: the euro sign is written EUR)."""
    return str(cell).replace("€", "EUR").replace("✓", "(bez.)").replace("−", "-")


def sections_pdf(title: str, sections: Sequence[Section], *, signature: bool = False,
                 landscape: bool = False) -> bytes:
    pdf = _Pdf(title, landscape=landscape)
    for section in sections:
        if pdf.will_page_break(8 + 5.2 * (2 + min(len(section.rows), 2))):  # a heading keeps a few rows
            pdf.add_page()
        pdf.set_font("Helvetica", "B", 11)
        pdf.cell(0, 8, _latin(_pdf_text(section.title)), new_x="LMARGIN", new_y="NEXT")
        widths = section.widths(pdf.epw)
        aligns = ["R" if number else "L" for number in section.numeric()]
        pdf.row(widths, [_pdf_text(c) for c in section.head], bold=True, fill=True, aligns=aligns)
        for row in section.rows:
            pdf.row(widths, [_pdf_text(c) for c in row], aligns=aligns)
        if section.foot is not None:
            pdf.row(widths, [_pdf_text(c) for c in section.foot], bold=True, aligns=aligns)
        pdf.set_font("Helvetica", "", 8)
        for note in section.note:
            pdf.multi_cell(0, 4, _latin(_pdf_text(note)), new_x="LMARGIN", new_y="NEXT")
        pdf.ln(3)
    if signature:
        pdf.ln(12)
        pdf.set_font("Helvetica", "", 9)
        half = pdf.epw / 2 - 5
        pdf.cell(half, 5, "_" * 40, new_x="RIGHT")
        pdf.cell(10, 5, "")
        pdf.cell(half, 5, "_" * 40, new_x="LMARGIN", new_y="NEXT")
        pdf.cell(half, 5, _latin("Ort, Datum, Unterschrift Veranstalter"), new_x="RIGHT")
        pdf.cell(10, 5, "")
        pdf.cell(half, 5, _latin("Unterschrift Kassenprüfer"), new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def kasse_json(money: EveningMoney) -> dict[str, Any]:
    return {"evening": money.evening, "lines": [
        {"player": x.player, "category": x.category, "startgeld": x.startgeld, "startgeld_paid": x.startgeld_paid,
         "extras": [{"ranking": n, "fee": f, "paid": ok} for n, f, ok in x.extras], "tischgeld": x.tischgeld,
         "series": [{"series": s.series, "lost": s.lost, "abreizgeld": s.abreiz, "passed_in": s.passed_in,
                     "passed_in_fee": s.passed_fee} for s in x.series],
         "abreizgeld": x.abreiz, "passed_in_fee": x.passed_fee, "due": x.due, "paid": x.paid, "open": x.open}
        for x in money.lines], "cents": True}


def prizes_json(money: EveningMoney, shown: Callable[[str], str], *, organiser: bool) -> dict[str, Any]:
    return {"evening": money.evening, "released": money.released, "error": money.error, "cents": True, "rankings": [
        {"name": r.name, "pot": r.pot, "payout": r.payout, "notes": [_shown_note(n, r, shown) for n in r.notes],
         "lines": [{"rank": x.rank, "player": shown(x.player), "leistung": x.leistung, "won": x.won, "lost": x.lost,
                    "by_lot": x.by_lot} for x in r.lines],
         "prizes": [{"place": p.place, "winner": shown(p.winner), "cents": p.cents, "material": p.material,
                     "by_organiser": p.by_organiser} for p in r.prizes]}
        for r in money.rankings if r.public or organiser]}


def account_json(money: EveningMoney) -> dict[str, Any]:
    books = money.account
    if books is None:
        return {"evening": money.evening, "error": money.error}
    return {"evening": money.evening, "cents": True,
            "income": [{"item": label, "cents": c} for label, c in books.income],
            "payouts": [{"item": label, "cents": c} for label, c in books.payouts],
            "kept": [{"item": label, "cents": c} for label, c in books.kept],
            "income_total": books.income_total, "payout_total": books.payout_total, "remains": books.remains,
            "by_organiser": books.by_organiser, "open": books.open}
