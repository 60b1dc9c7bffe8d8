"""The conditions form: the organiser's text fields to :class:`~device.club.money.Conditions`
and back. Every refusal is a :class:`~device.club.money.MoneyError` naming the field.

Extra rankings are written as blocks, one per ranking, a blank line between:

    Mannschaft; mannschaft; 8,00 je Gruppe; 100
    Kreuz-Buben: Anna, Bernd, Erik, Frida
    Herz-Damen: Carla, Dieter, Gert, Hanna

the head is name; kind (mannschaft, tandem, kategorie); Startgeld (``je Gruppe``: per group,
paid by its first player; else per player); the prizes in percent of its pot ("60; 40"),
and ``intern`` to keep the ranking off the public page. A category is one group:
``Senioren: Erik, Gert, Hanna``. Left out, the players come from the member list: a team
line without names (``Kreuz-Buben:``) takes the members of that Mannschaft, a team ranking
without lines the teams of the evening's players, a category without a line its Kategorie.

>>> c = conditions_from_form({"startgeld": "10,00", "abreiz": "1: 0,50; 4: 1,00", "betraege": "50; 30; 20",
...                           "preise": "3", "zusatz": "Tandem; tandem; 2,00; 100\\nT1: Ingo, Jana"})
>>> c.startgeld, c.extras[0].groups, conditions_from_form(form_from_conditions(c)) == c
(1000, (('T1', ('Ingo', 'Jana')),), True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from device.club.money import (
    Abreizgeld, Conditions, ExtraRanking, FeeCategory, MoneyError, PrizePlan, amount_text, amounts_text, parse_cents,
    tiers_from_text,
)


def _int(form: Mapping[str, str], name: str, field: str, default: int) -> int:
    text = form.get(name, "").strip().rstrip("%").strip()
    if not text:
        return default
    if not text.lstrip("-").isdigit():
        raise MoneyError(field, f"keine ganze Zahl: {text!r}")
    return int(text)


def _names(text: str, person: Callable[[str], str]) -> tuple[str, ...]:
    return tuple(person(n.strip()) for n in text.split(",") if n.strip())


def _amounts(text: str, field: str, percent: bool) -> tuple[int, ...]:
    parts = [p.strip().rstrip("%").strip() for p in text.replace("\n", ";").split(";") if p.strip()]
    if percent:
        bad = [p for p in parts if not p.isdigit()]
        if bad:
            raise MoneyError(field, f"kein Prozentsatz: {bad[0]!r} (ganze Zahlen, z. B. 50; 30; 20)")
        return tuple(int(p) for p in parts)
    return tuple(parse_cents(p, field) for p in parts)


def conditions_from_form(form: Mapping[str, str], person: Callable[[str], str] = str) -> Conditions:
    """The conditions the form describes (names through ``person``: the roster's person)."""
    scale = form.get("art", "prozent") or "prozent"
    plan = PrizePlan(
        payout_percent=_int(form, "auszahlung", "Preisplan: ausgezahlter Anteil", 100),
        places=_int(form, "preise", "Preisplan: Zahl der Preise", 3),
        share_of_players=_int(form, "anteil_spieler", "Preisplan: Anteil der Spieler mit Preis", 0),
        scale=scale, amounts=_amounts(form.get("betraege", ""), "Preisplan: Beträge", scale != "fest"),
        last_percent=_int(form, "letzter", "Preisplan: letzter Geldpreis in % des ersten", 50),
        round_to=_int(form, "rundung", "Preisplan: Rundung", 0), remainder_to=form.get("rest", "erster") or "erster",
        organiser_pays=form.get("veranstalter_zahlt") == "ja",
        material=tuple(m.strip() for m in form.get("sachpreise", "").splitlines() if m.strip()),
        tie=form.get("gleichstand", "los") or "los")
    return Conditions(
        startgeld=parse_cents(form.get("startgeld", ""), "Startgeld"),
        categories=_categories(form.get("kategorien", ""), person),
        tischgeld=parse_cents(form.get("tischgeld", ""), "Tischgeld"),
        abreiz=Abreizgeld(tiers_from_text(form.get("abreiz", "1: 0,50; 4: 1,00")), form.get("abreiz_abend") == "ja"),
        passed_in_fee=parse_cents(form.get("eingepasst", ""), "Gebühr je eingepasstes Spiel"),
        passed_in_payer=form.get("eingepasst_zahlt", "spieler") or "spieler",
        plan=plan, series_prizes=_amounts(form.get("serienpreise", ""), "Serienpreise", False),
        series_prizes_by_organiser=form.get("serienpreise_veranstalter") == "ja",
        extras=_extras(form.get("zusatz", ""), person),
        one_prize_each=form.get("ein_preis") == "ja", note=form.get("hinweis", "").strip())


def _categories(text: str, person: Callable[[str], str]) -> tuple[FeeCategory, ...]:
    """"Jugend: 0,00: Kurt, Tom" per line; "Jugend: 0,00": the players from the member list's Kategorie."""
    out = []
    for line in (x.strip() for x in text.splitlines()):
        if not line:
            continue
        parts = line.split(":", 2)
        if len(parts) < 2 or not parts[0].strip():
            raise MoneyError("Startgeld nach Kategorie", f"{line!r}: so schreiben: Jugend: 0,00: Kurt, Tom "
                                                         "(oder Jugend: 0,00 für die Kategorie der Mitgliederliste)")
        name = parts[0].strip()
        names = _names(parts[2], person) if len(parts) == 3 else ()
        out.append(FeeCategory(name, parse_cents(parts[1], f"Startgeld {name}"), names))
    return tuple(out)


def _extras(text: str, person: Callable[[str], str]) -> tuple[ExtraRanking, ...]:
    out = []
    for block in (b.strip() for b in text.replace("\r", "").split("\n\n")):
        if not block:
            continue
        head, *groups = [x.strip() for x in block.splitlines() if x.strip()]
        parts = [p.strip() for p in head.split(";")]
        if len(parts) < 4:
            raise MoneyError("Zusatzwertungen", f"{head!r}: so schreiben: Name; mannschaft; 8,00 je Gruppe; 60; 40")
        name, kind, fee_text = parts[0], parts[1].lower(), parts[2]
        public = not any(p.lower() == "intern" for p in parts[3:])
        shares = "; ".join(p for p in parts[3:] if p.lower() != "intern")
        per_group = "je gruppe" in fee_text.lower()
        fee = parse_cents(fee_text.lower().replace("je gruppe", "").replace("je spieler", ""), f"{name}: Startgeld")
        amounts = _amounts(shares, f"{name}: Preise", True)
        plan = PrizePlan(places=len(amounts), amounts=amounts, label=name)
        parsed = []
        for line in groups:
            group, sep, names = line.partition(":")
            if not sep:
                raise MoneyError(f"{name}: Gruppen", f"{line!r}: so schreiben: Gruppenname: Spieler, Spieler")
            parsed.append((group.strip(), _names(names, person)))
        out.append(ExtraRanking(name, kind, fee, tuple(parsed), plan, per_group, public))
    return tuple(out)


def form_from_conditions(c: Conditions) -> dict[str, str]:
    """The form's fields for ``c`` (what the organiser sees to change)."""
    plan = c.plan
    return {
        "startgeld": amount_text(c.startgeld), "tischgeld": amount_text(c.tischgeld),
        "kategorien": "\n".join(f"{k.name}: {amount_text(k.cents)}" + (f": {', '.join(k.players)}" if k.players else "")
                                for k in c.categories),
        "abreiz": "; ".join(f"{t.first_lost}: {amount_text(t.cents)}" for t in c.abreiz.tiers),
        "abreiz_abend": "ja" if c.abreiz.per_evening else "",
        "eingepasst": amount_text(c.passed_in_fee), "eingepasst_zahlt": c.passed_in_payer,
        "auszahlung": str(plan.payout_percent), "preise": str(plan.places), "anteil_spieler": str(plan.share_of_players),
        "art": plan.scale, "betraege": amounts_text(plan.amounts, plan.scale != "fest"),
        "letzter": str(plan.last_percent), "rundung": str(plan.round_to), "rest": plan.remainder_to,
        "veranstalter_zahlt": "ja" if plan.organiser_pays else "", "sachpreise": "\n".join(plan.material),
        "gleichstand": plan.tie, "serienpreise": amounts_text(c.series_prizes, False),
        "serienpreise_veranstalter": "ja" if c.series_prizes_by_organiser else "",
        "zusatz": "\n\n".join(_extra_text(e) for e in c.extras),
        "ein_preis": "ja" if c.one_prize_each else "", "hinweis": c.note,
    }


def _extra_text(e: ExtraRanking) -> str:
    head = [e.name, e.kind, amount_text(e.fee) + (" je Gruppe" if e.fee_per_group else ""),
            amounts_text(e.plan.amounts, True)]
    if not e.public:
        head.append("intern")
    return "\n".join(["; ".join(head), *(f"{g}: {', '.join(p)}" for g, p in e.groups)])
