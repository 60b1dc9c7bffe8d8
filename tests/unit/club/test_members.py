"""The club's member list (CSV) into the roster, and the roster's merges and renames."""

from __future__ import annotations

import pytest

from device.club.members_csv import MembersCsvError, parse_members
from device.club.roster import Person, Roster, RosterError

HEAD = ["Mitgliedsnummer", "Name", "Vorname", "Kurzname", "Karte"]
ROWS = [["101", "Meier", "Jürgen", "", "04A1B2C3"], ["102", "Größer", "Anna-Lena", "Lena", ""],
        ["103", "Schulz", "Peter", "", "0009876543"], ["104", "Müller", "Peter", "", ""]]


def text(sep: str, rows: list[list[str]] = ROWS, head: list[str] = HEAD) -> str:
    return "\r\n".join(sep.join(cells) for cells in [head, *rows]) + "\r\n"


@pytest.mark.parametrize("sep", [";", ",", "\t"])
@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp1252"])
def test_every_separator_and_encoding_reads_the_same(sep: str, encoding: str) -> None:
    rows = parse_members(text(sep).encode(encoding))
    assert [(r.line, r.member, r.name, r.short, r.card) for r in rows] == [
        (2, "101", "Jürgen Meier", "", "04A1B2C3"), (3, "102", "Anna-Lena Größer", "Lena", ""),
        (4, "103", "Peter Schulz", "", "0009876543"), (5, "104", "Peter Müller", "", "")]


def test_columns_in_any_order_and_quoted_cells() -> None:
    data = 'Vorname;Nachname;Mitglied-Nr.;Veröffentlichen\n"Hans; Joachim";"von Müller";7;ja\n\n'.encode()
    (row,) = parse_members(data)
    assert (row.first, row.last, row.member, row.publish) == ("Hans; Joachim", "von Müller", "7", True)


@pytest.mark.parametrize(("data", "words"), [
    (text(";", head=["Nummer", "Name", "Vorname"]), "Zeile 1: die Spalte Mitgliedsnummer fehlt (gefunden: Nummer, Name, Vorname)"),
    (text(";", rows=[*ROWS, ["101", "Meyer", "Jürgen", "", ""]]), "Zeile 6: die Mitgliedsnummer 101 steht schon in Zeile 2"),
    (text(";", rows=[ROWS[0], ["105", "Kurz", "Karl", "", "04A1B2C3"]]), "Zeile 3: die Karte 04A1B2C3 steht schon in Zeile 2"),
    (text(";", rows=[ROWS[0], ["106", "", "", "", ""]]), "Zeile 3: Name und Vorname fehlen"),
    (text(";", rows=[ROWS[0], ["106", "A", "B", "C", "D", "E"]]), "Zeile 3: 6 Felder, die Kopfzeile hat 5"),
    (text(";", rows=[["106", "A", "B", "Maximilianus-X", ""]]), "Zeile 2: der Kurzname 'Maximilianus-X' ist länger"),
    ("", "Zeile 1: die Datei ist leer"),
    (text(";", rows=[]), "Zeile 2: keine Mitglieder"),
])
def test_bad_files_are_refused_naming_the_line(data: str, words: str) -> None:
    with pytest.raises(MembersCsvError) as caught:
        parse_members(data.encode("utf-8"))
    assert str(caught.value).startswith(words), str(caught.value)


def test_a_file_neither_utf8_nor_windows_1252_is_named() -> None:
    with pytest.raises(MembersCsvError, match="Zeile 2: weder UTF-8 noch Windows-1252"):
        parse_members(b"Mitgliedsnummer;Name;Vorname\n1;M\x81;A\n")


def test_import_adds_members_links_known_guests_and_keeps_the_season_through_a_rename() -> None:
    before = Roster([Person("Jürgen Meier", "Jürgen"), Person("Erika Gast", "Erika")])
    roster = before.imported(parse_members(text(";").encode()))
    names = [(p.name, p.short, p.member, p.card, p.publish) for p in roster.people]
    assert names == [("Jürgen Meier", "Jürgen", "101", "04A1B2C3", True), ("Erika Gast", "Erika", "", "", True),
                     ("Anna-Lena Größer", "Lena", "102", "", False), ("Peter Schulz", "Peter", "103", "0009876543", False),
                     ("Peter Müller", "Peter M.", "104", "", False)]
    jid = roster.find("Jürgen").id  # type: ignore[union-attr]
    renamed = roster.imported(parse_members(text(";", rows=[["101", "Meier-Roth", "Jürgen", "Jü", ""]]).encode()))
    person = renamed.find("Jürgen Meier-Roth")
    assert person is not None and person.id == jid and person.card == "04A1B2C3"
    assert renamed.person("Jürgen") == renamed.person("Jürgen Meier") == renamed.person("Jü") == "Jürgen Meier-Roth"
    assert renamed.by_card("04A1B2C3") is person


def test_an_import_that_clashes_changes_nothing() -> None:
    roster = Roster([Person("Karl Karte", "Karl", card="04A1B2C3")])
    with pytest.raises(RosterError, match="Zeile 2: Karte 04A1B2C3 gehört schon Karl Karte"):
        roster.imported(parse_members(text(";").encode()))
    assert [p.name for p in roster.people] == ["Karl Karte"]
    with pytest.raises(RosterError, match="Zeile 3: den Kurznamen Lena hat schon Lena Lustig"):
        Roster([Person("Lena Lustig", "Lena")]).imported(parse_members(text(";").encode()))


def test_merging_two_entries_or_a_guests_spelling_makes_one_person() -> None:
    roster = Roster([Person("Jürgen Meier", "Jürgen", member="101"), Person("J. Meier", "J. Meier", card="C1")])
    merged = roster.merge("Jürgen Meier", "J. Meier")
    (person,) = merged.people
    assert (person.member, person.card) == ("101", "C1") and "J. Meier" in person.aliases
    assert merged.find("x", roster.people[1].id) is person  # lists carrying the merged entry's id
    guest = merged.merge("Jürgen Meier", "Juergen")
    assert guest.person("juergen") == "Jürgen Meier"
    with pytest.raises(RosterError, match="schon dieselbe Person"):
        merged.merge("Jürgen Meier", "J. Meier")
    two_cards = Roster([Person("A B", "A", card="1"), Person("C D", "C", card="2")])
    with pytest.raises(RosterError, match="verschiedene Karten"):
        two_cards.merge("A B", "C D")


def test_the_page_refuses_a_file_too_large_or_missing_in_words() -> None:
    from ui.club.members import MAX_FILE, MemberFormError, apply_action

    roster = Roster([Person("Anna Adler", "Anna")])
    with pytest.raises(MemberFormError, match="Keine Datei gewählt"):
        apply_action(roster, {"aktion": "import"}, b"")
    with pytest.raises(MemberFormError, match="zu groß für eine Mitgliederliste"):
        apply_action(roster, {"aktion": "import"}, b"x" * (MAX_FILE + 1))
    changed, said = apply_action(roster, {"aktion": "import"}, text(";").encode("cp1252"))
    assert said == "4 Mitglieder übernommen (4 neu, 0 aktualisiert)" and len(changed.people) == 5
    with pytest.raises(MemberFormError, match="Den Kurznamen Anna hat schon Anna Adler"):
        apply_action(changed, {"aktion": "speichern", "name": "Anna Berg", "kurz": "Anna"}, None)


def test_the_laptops_own_member_list_imports_again_unchanged() -> None:
    """The Spieler page's export (cells protected from spreadsheets with an apostrophe in front of
    = + - @) read back by its import: every name, short name, number and card as it was."""
    from ui.club.members import apply_action, members_csv

    people = [Person("=Max Formel", "=Max", member="1", card="@04A1"), Person("Paula +Plus", "Paula", member="2"),
              Person("Dirk -Minus", "Dirk", member="-3"), Person("'=Quote Zitat", "Quote", member="4"),
              Person("Liam O'Neill", "Liam", member="5"), Person("'Anna Apostroph", "'Anna", member="6"),
              Person("Rolf @Mail", "@Rolf", member="7")]
    exported = members_csv(Roster(people))
    assert "'=Max" in exported and "'@04A1" in exported  # the file stays safe for a spreadsheet
    again, said = apply_action(Roster([]), {"aktion": "import"}, exported.encode("utf-8"))
    assert said.startswith("7 Mitglieder übernommen")
    got = {p.member: (p.name, p.short, p.card) for p in again.people}
    assert got == {p.member: (p.name, p.short, p.card) for p in people}
    twice, _ = apply_action(again, {"aktion": "import"}, members_csv(again).encode("utf-8"))
    assert [(p.name, p.short, p.member, p.card) for p in twice.people] == [
        (p.name, p.short, p.member, p.card) for p in again.people]
def test_a_member_marked_not_for_the_league_keeps_the_mark_through_saves_and_imports() -> None:
    from device.club.members_csv import parse_members
    from ui.club.members import apply_action

    roster = Roster([Person("Anna Adler", "Anna", member="4")])
    hidden, _ = apply_action(roster, {"aktion": "speichern", "was": "Anna Adler", "name": "Anna Adler", "kurz": "Anna",
                                      "mitglied": "4", "veroeffentlichen": "ja", "nicht_liga": "ja"}, None)
    anna = hidden.find("Anna Adler")
    assert anna is not None and not anna.league and anna.league_name is None
    assert Roster.from_json(hidden.to_json()).people[0].league is False  # kept in the roster document
    again = hidden.imported(parse_members(b"Mitgliedsnummer;Name;Vorname\n4;Adler;Anna\n"))
    assert again.people[0].league is False  # the member list's import does not undo it
    shown, _ = apply_action(hidden, {"aktion": "speichern", "was": "Anna Adler", "name": "Anna Adler", "kurz": "Anna",
                                     "mitglied": "4"}, None)
    assert shown.people[0].league and shown.people[0].league_name == "Anna"  # not published: the short name


def test_kategorie_and_mannschaft_columns_import_export_and_stay_when_a_file_lacks_them() -> None:
    from ui.club.members import apply_action, members_csv

    head = [*HEAD, "Veröffentlichen", "Altersklasse", "Team"]
    rows = [[*ROWS[0], "ja", "Senioren", "Kreuz-Buben"], [*ROWS[1], "nein", "Damen, Jugend", ""]]
    roster, _ = apply_action(Roster([]), {"aktion": "import"}, text(";", rows, head).encode("utf-8"))
    got = {p.member: (p.category, p.team) for p in roster.people}
    assert got == {"101": ("Senioren", "Kreuz-Buben"), "102": ("Damen, Jugend", "")}
    assert roster.by_member("102") is not None and roster.by_member("102").in_category("jugend")  # type: ignore[union-attr]
    exported = members_csv(roster)
    assert "Kategorie" in exported.splitlines()[0] and "Mannschaft" in exported.splitlines()[0]
    again, _ = apply_action(Roster([]), {"aktion": "import"}, exported.encode("utf-8"))
    assert again.to_json() == roster.to_json()  # the round trip changes nothing
    kept, _ = apply_action(roster, {"aktion": "import"}, text(";", [ROWS[0]]).encode("utf-8"))
    assert kept.by_member("101").team == "Kreuz-Buben"  # type: ignore[union-attr]  # no such column: kept
    edited, said = apply_action(kept, {"aktion": "speichern", "was": "Jürgen Meier", "name": "Jürgen Meier",
                                       "kurz": "Jürgen", "mitglied": "101", "kategorie": " Senioren ",
                                       "mannschaft": "Herz-Damen", "veroeffentlichen": "ja"}, None)
    assert said == "Jürgen Meier gespeichert" and edited.by_member("101").team == "Herz-Damen"  # type: ignore[union-attr]
    assert Roster.from_json(edited.to_json()).by_member("101").category == "Senioren"  # type: ignore[union-attr]
