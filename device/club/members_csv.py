"""The club's member list as clubs export it (CSV), read for the laptop's Spieler page.

Columns, in any order, named in the first line (case, blanks, dots and hyphens ignored):
``Mitgliedsnummer`` (also ``Mitgliedsnr``, ``Mitglied-Nr``), ``Name`` (``Nachname``),
``Vorname``; optional ``Kurzname`` (``Rufname``), ``Karte`` (``Kartennummer``, ``RFID``,
``UID``, ``Barcode``), ``Veröffentlichen`` (``vollen Namen zeigen``: ja/nein), ``Kategorie``
(``Altersklasse``, ``Wertungsklasse``: "Damen", "Senioren", "Jugend", several with commas) and
``Mannschaft`` (``Team``: the team's name). Separated
by ``;``, ``,`` or tabs (found from the first line); UTF-8 with or without BOM, or
Windows-1252 (what Excel writes on Windows). A cell the laptop's own export protected from
spreadsheets (an apostrophe before ``= + - @``: :mod:`device.csvcell`) is read as it was.

Every problem names its line (``Zeile 7: …``) and nothing is taken from a file with a
problem: :func:`parse_members` gives all rows or raises :class:`MembersCsvError`. A row
without a Mitgliedsnummer is a guest (the Spieler page's own export lists guests that way).

>>> rows = parse_members("Mitgliedsnummer;Name;Vorname;Karte\\r\\n17;Meier;Jürgen;04A1\\r\\n".encode("cp1252"))
>>> rows[0]
MemberRow(line=2, member='17', first='Jürgen', last='Meier', short='', card='04A1', publish=None, category=None, team=None)
>>> parse_members(b"Nr,Name\\n1,Meier\\n")
Traceback (most recent call last):
...
device.club.members_csv.MembersCsvError: Zeile 1: die Spalten Mitgliedsnummer, Vorname fehlen (gefunden: Nr, Name)
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from device.csvcell import read_cell

__all__ = ["MAX_SHORT", "MemberRow", "MembersCsvError", "decode_members", "parse_members"]

MAX_SHORT = 12
"""The longest short name (the table shows it large on a seat)."""

_COLUMNS: dict[str, tuple[str, ...]] = {
    "member": ("mitgliedsnummer", "mitgliedsnr", "mitgliednr", "mitgliedsnummern", "mitgliednummer", "dskvnr"),
    "last": ("name", "nachname", "familienname"),
    "first": ("vorname",),
    "short": ("kurzname", "rufname", "spitzname"),
    "card": ("karte", "kartennummer", "kartenid", "karteid", "rfid", "uid", "barcode"),
    "publish": ("veröffentlichen", "vollennamenzeigen", "namezeigen", "öffentlich"),
    "category": ("kategorie", "kategorien", "altersklasse", "wertungsklasse"),
    "team": ("mannschaft", "team"),
}
_REQUIRED = {"member": "Mitgliedsnummer", "last": "Name", "first": "Vorname"}
_YES = {"ja", "j", "yes", "y", "1", "x", "true", "wahr"}
_NO = {"nein", "n", "no", "0", "", "false", "falsch"}


class MembersCsvError(ValueError):
    """A member list that cannot be taken; the message names the line."""


@dataclass(frozen=True, slots=True)
class MemberRow:
    """One member as the file gives him (``line``: where, for messages)."""

    line: int
    member: str  # "" for a guest
    first: str
    last: str
    short: str
    card: str
    publish: bool | None  # None: the file does not say
    category: str | None = None  # None: the file has no such column (the roster keeps what it had)
    team: str | None = None

    @property
    def name(self) -> str:
        return f"{self.first} {self.last}".strip()


def decode_members(data: bytes) -> str:
    """The file's text: UTF-8 (a BOM is dropped), else Windows-1252."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise MembersCsvError(f"Zeile {line}: weder UTF-8 noch Windows-1252 (Byte 0x{data[exc.start]:02X}); "
                              "bitte als CSV (UTF-8) speichern") from None


def _separator(head: str) -> str:
    counts = {sep: head.count(sep) for sep in (";", "\t", ",")}
    best = max(counts, key=lambda sep: counts[sep])
    return best if counts[best] else ";"


def _key(cell: str) -> str:
    return "".join(ch for ch in cell.casefold() if ch not in " .-_/:#")


def _columns(head: list[str]) -> dict[str, int]:
    found: dict[str, int] = {}
    for index, cell in enumerate(head):
        key = _key(cell)
        for field, names in _COLUMNS.items():
            if key in names:
                if field in found:
                    raise MembersCsvError(f"Zeile 1: die Spalte {cell.strip()!r} steht zweimal da")
                found[field] = index
    missing = [word for field, word in _REQUIRED.items() if field not in found]
    if missing:
        plural = "n" if len(missing) > 1 else ""
        raise MembersCsvError(f"Zeile 1: die Spalte{plural} {', '.join(missing)} fehl{'en' if plural else 't'} "
                              f"(gefunden: {', '.join(c.strip() for c in head if c.strip()) or 'nichts'})")
    return found


def _publish(cell: str, line: int) -> bool | None:
    word = cell.strip().casefold()
    if word in _YES:
        return True
    if word in _NO:
        return False if word else None
    raise MembersCsvError(f"Zeile {line}: Veröffentlichen {cell.strip()!r}: ja oder nein")


def parse_members(data: bytes) -> list[MemberRow]:
    """Every member of the file, or :class:`MembersCsvError` naming the first bad line."""
    text = decode_members(data)
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise MembersCsvError("Zeile 1: die Datei ist leer (erwartet: eine Kopfzeile mit Mitgliedsnummer, Name, Vorname)")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_separator(lines[0]))
    try:
        head = next(reader)
        columns = _columns(head)
        rows: list[MemberRow] = []
        seen_members: dict[str, int] = {}
        seen_cards: dict[str, int] = {}
        line = reader.line_num
        for cells in reader:
            start, line = line + 1, reader.line_num
            if not any(c.strip() for c in cells):
                continue
            rows.append(_row(cells, columns, start, len(head), seen_members, seen_cards))
    except csv.Error as exc:
        raise MembersCsvError(f"Zeile {reader.line_num}: {exc}") from None
    if not rows:
        raise MembersCsvError("Zeile 2: keine Mitglieder unter der Kopfzeile")
    return rows


def _row(cells: list[str], columns: dict[str, int], line: int, width: int, seen_members: dict[str, int],
         seen_cards: dict[str, int]) -> MemberRow:
    if len(cells) > width:
        raise MembersCsvError(f"Zeile {line}: {len(cells)} Felder, die Kopfzeile hat {width} "
                              "(ein Trennzeichen zu viel, oder ein Name mit Trennzeichen ohne Anführungszeichen?)")

    def cell(field: str) -> str:
        index = columns.get(field)
        return " ".join(read_cell(cells[index]).split()) if index is not None and index < len(cells) else ""

    member, first, last, short, card = (cell(f) for f in ("member", "first", "last", "short", "card"))
    if not first and not last:
        raise MembersCsvError(f"Zeile {line}: Name und Vorname fehlen" + (f" (Mitgliedsnummer {member})" if member else ""))
    if member and member in seen_members:
        raise MembersCsvError(f"Zeile {line}: die Mitgliedsnummer {member} steht schon in Zeile {seen_members[member]}")
    if card and card in seen_cards:
        raise MembersCsvError(f"Zeile {line}: die Karte {card} steht schon in Zeile {seen_cards[card]}")
    if len(short) > MAX_SHORT:
        raise MembersCsvError(f"Zeile {line}: der Kurzname {short!r} ist länger als {MAX_SHORT} Zeichen")
    if member:
        seen_members[member] = line
    if card:
        seen_cards[card] = line
    publish = _publish(cells[columns["publish"]], line) if "publish" in columns and columns["publish"] < len(cells) else None
    category, team = (cell(f) if f in columns else None for f in ("category", "team"))
    return MemberRow(line, member, first, last, short, card, publish, category, team)
