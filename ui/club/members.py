"""The Spieler page's actions on the roster: import the club's member list, edit, merge, remove,
and the member list (CSV) to take away. The roster's rules are in :mod:`device.club.roster`,
the member list's format in :mod:`device.club.members_csv`; here only the page's forms."""

from __future__ import annotations

from collections.abc import Mapping

from device.club.members_csv import MAX_SHORT, MembersCsvError, parse_members
from device.club.roster import Person, Roster, RosterError, fold
from device.csvcell import csv_text

MAX_FILE = 2_000_000
"""The largest member list taken (bytes): a club's list of a few hundred members is ~30 kB."""
MEMBERS_HEAD = ("Mitgliedsnummer", "Name", "Vorname", "Kurzname", "Karte", "Veröffentlichen", "Kategorie", "Mannschaft")


class MemberFormError(ValueError):
    """What the organiser entered cannot be taken; the words say why (nothing was changed)."""


def apply_action(roster: Roster, form: Mapping[str, str], upload: bytes | None) -> tuple[Roster, str]:
    """The roster after one of the page's forms, and what to tell the organiser."""
    action = form.get("aktion", "")
    try:
        if action == "import":
            if not upload:
                raise MemberFormError("Keine Datei gewählt: die Mitgliederliste als CSV-Datei wählen")
            if len(upload) > MAX_FILE:
                raise MemberFormError(f"Die Datei ist mit {len(upload) // 1000} kB zu groß für eine Mitgliederliste "
                                      f"(höchstens {MAX_FILE // 1_000_000} MB): die richtige Datei gewählt?")
            rows = parse_members(upload)
            changed = roster.imported(rows)
            added = len(changed.people) - len(roster.people)
            guests = sum(1 for r in rows if not r.member)
            note = f"; {guests} ohne Mitgliedsnummer als Gäste" if guests else ""
            return changed, f"{len(rows)} Mitglieder übernommen ({added} neu, {len(rows) - added} aktualisiert{note})"
        if action == "loeschen":
            return roster.remove(form.get("name", "")), f"{form.get('name', '')} entfernt"
        if action == "zusammenfuehren":
            keep, other = form.get("behalten", ""), form.get("mit", "")
            return roster.merge(keep, other), f"{other} und {keep} sind jetzt eine Person: {keep}"
        if action in ("", "speichern"):
            return _saved(roster, form)
    except (RosterError, MembersCsvError) as exc:
        raise MemberFormError(str(exc)) from None
    raise MemberFormError(f"unbekannte Aktion {action!r}")


def _saved(roster: Roster, form: Mapping[str, str]) -> tuple[Roster, str]:
    name = " ".join(form.get("name", "").split())
    if not name:
        raise MemberFormError("Der Name fehlt")
    short = " ".join(form.get("kurz", "").split()) or name.split()[0]
    if len(short) > MAX_SHORT:
        raise MemberFormError(f"Der Kurzname {short!r} ist länger als {MAX_SHORT} Zeichen")
    was = form.get("was", "").strip()
    old = roster.find(was) if was else None
    found = roster.find(name)
    if old is None and found is not None and fold(found.name) == fold(name):
        old = found  # the add form with a known name: change that entry
    person = Person(name, short, form.get("veroeffentlichen") == "ja", form.get("mitglied", "").strip(),
                    form.get("karte", "").strip(), first=old.first if old is not None and old.name == name else "",
                    league=form.get("nicht_liga") != "ja",
                    category=" ".join(form.get("kategorie", "").split()), team=" ".join(form.get("mannschaft", "").split()))
    taken = next((p for p in roster.people if p is not old and fold(p.short) == fold(short)), None)
    if taken is not None:
        raise MemberFormError(f"Den Kurznamen {short} hat schon {taken.name}: einen anderen wählen")
    try:
        changed = roster.put(person, was=old.name if old is not None else "")
    except RosterError as exc:
        raise MemberFormError(str(exc)) from None
    return changed, f"{name} gespeichert"


def members_csv(roster: Roster) -> str:
    """The roster as the member list (the columns the import reads)."""
    rows = []
    for p in roster.people:
        first, last = p.first_and_last
        rows.append((p.member, last, first, p.short, p.card, "ja" if p.publish else "nein", p.category, p.team))
    return csv_text([MEMBERS_HEAD, *rows])
