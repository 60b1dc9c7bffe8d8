"""CSV and PDF of the club pages: a table's list, the ranking, the season.

PDFs are made with fpdf2 (pure Python, installs on Windows with pip alone) in its core
Helvetica font, A4. CSV cells go through :func:`device.csvcell.safe_cell` (the project's one
rule) so a name like ``=HYPERLINK(…)`` stays text in a spreadsheet.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from device.club.ranking import RankLine
from device.club.season import SeasonLine, SeasonRules
from device.csvcell import Cell, csv_text
from ui.club.paper import PaperList

# --------------------------------------------------------------------------- CSV

RANKING_HEAD = ("Platz", "Spieler", "Leistung", "Spielpunkte", "gewonnen", "verloren", "Listen", "Tische")


def ranking_rows(lines: Sequence[RankLine]) -> list[tuple[Cell, ...]]:
    return [(f"{line.rank}" + (" (Los)" if line.by_lot else ""), line.player, line.leistung, line.points,
             line.won, line.lost, line.lists, " ".join(str(t) for t in line.tables)) for line in lines]


def ranking_csv(lines: Sequence[RankLine]) -> str:
    return csv_text([RANKING_HEAD, *ranking_rows(lines)])


SEASON_HEAD = ("Platz", "Spieler", "Serien", "gewertet", "Schnitt", "Leistung", "Spielpunkte", "gewonnen",
               "verloren", "gestrichen")


def average_text(value: Fraction) -> str:
    """An average with one decimal, German style: 1234,5."""
    return f"{float(value):.1f}".replace(".", ",")


def season_rows(lines: Sequence[SeasonLine]) -> list[tuple[Cell, ...]]:
    return [("" if line.rank is None else line.rank, line.player, line.series, line.counted,
             average_text(line.average), line.leistung, line.points, line.won, line.lost,
             " ".join(str(d) for d in line.dropped)) for line in lines]


def season_csv(lines: Sequence[SeasonLine], members: Sequence[str] | None = None) -> str:
    """The season as CSV; with ``members`` (the organiser's export) each line's member number
    first. The public export leaves member numbers out."""
    if members is None:
        return csv_text([SEASON_HEAD, *season_rows(lines)])
    return csv_text([("Mitgliedsnummer", *SEASON_HEAD),
                     *((member, *row) for member, row in zip(members, season_rows(lines), strict=True))])


def list_csv(paper: PaperList) -> str:
    head = ("Nr", "Geber", "Alleinspieler", "Spiel", "Grundwert", "Spitzen", "Gewinnstufen", "Wert", *paper.players)
    rows: list[tuple[Cell, ...]] = [head]
    for r in paper.rows:
        number = f"({r.number}) gestrichen" if r.struck else str(r.number)
        rows.append((number, r.dealer, r.declarer, r.game, r.base, r.matadors, r.levels, r.value, *r.cells))
    rows.append(("", "", "", "Spielpunkte", "", "", "", "", *paper.points))
    rows.append(("", "", "", "Leistung", "", "", "", "", *paper.leistung))
    if paper.own_scoring is not None:
        rows.append(("", "", "", paper.own_scoring[0], "", "", "", "", *paper.own_scoring[1]))
    for label, cells in paper.money:
        rows.append(("", "", "", label, "", "", "", "", *cells))
    return csv_text(rows)


# --------------------------------------------------------------------------- PDF


def _latin(text: str) -> str:
    """Helvetica speaks Latin-1 (German included); anything else prints as '?'."""
    return text.replace("×", "x").replace("–", "-").replace("…", "...").encode("latin-1", "replace").decode("latin-1")


def _Pdf(title: str, *, landscape: bool = False) -> Any:  # named as the class it makes
    """An A4 page of the club's PDFs (fpdf2 is imported with the first PDF, not at the laptop's start)."""
    return _pdf_type()(title, landscape=landscape)


@functools.cache
def _pdf_type() -> Any:
    from fpdf import FPDF

    class Pdf(FPDF):
        def __init__(self, title: str, *, landscape: bool = False) -> None:
            super().__init__(orientation="L" if landscape else "P", unit="mm", format="A4")
            self.doc_title = title
            self.set_auto_page_break(True, margin=14)
            self.set_title(_latin(title))
            self.add_page()

        def header(self) -> None:
            self.set_font("Helvetica", "B", 13)
            self.cell(0, 8, _latin(self.doc_title), new_x="LMARGIN", new_y="NEXT")
            self.ln(1)

        def footer(self) -> None:
            self.set_y(-10)
            self.set_font("Helvetica", "", 7)
            self.cell(0, 5, f"Skattisch · Seite {self.page_no()}".replace("·", "-"), align="R")

        def row(self, widths: Sequence[float], cells: Sequence[object], *, bold: bool = False, struck: bool = False,
                aligns: Sequence[str] = (), fill: bool = False, height: float = 5.2) -> None:
            """One row of bordered cells; a text too wide for its cell is set smaller or wrapped
            (at blanks and after hyphens, up to three lines), never cut where it still fits at 6 pt:
            "Hans-Joachim Müller" and "Hans-Joachim Meier" stay apart."""
            style = ("B" if bold else "") + ("S" if struck else "")
            laid = [self._layout(_latin(str(cell)), width - 1.5, style) for width, cell in zip(widths, cells, strict=True)]
            line_h = max(size for size, _ in laid) * 0.42
            row_h = max(height, max(len(lines) for _, lines in laid) * line_h + 1.4)
            if self.will_page_break(row_h):
                self.add_page()
            x, y = self.get_x(), self.get_y()
            if fill:
                self.set_fill_color(232, 232, 232)
            for i, (width, (size, lines)) in enumerate(zip(widths, laid, strict=True)):
                self.rect(x, y, width, row_h, style="DF" if fill else "D")
                self.set_font("Helvetica", style, size)
                top = y + (row_h - len(lines) * line_h) / 2
                for k, line in enumerate(lines):
                    self.set_xy(x, top + k * line_h)
                    self.cell(width, line_h, line, align=aligns[i] if i < len(aligns) else "L")
                x += width
            self.set_xy(self.l_margin, y + row_h)

        def _layout(self, text: str, width: float, style: str) -> tuple[float, list[str]]:
            """The font size and lines for ``text`` in ``width`` mm: one line at 8 or 7.5 pt,
            else two, else three lines (down to 6 pt); at worst one line at 6 pt, cut."""
            for most, sizes in ((1, (8.0, 7.5)), (2, (8.0, 7.5, 7.0, 6.5, 6.0)), (3, (8.0, 7.0, 6.0))):
                for size in sizes:
                    self.set_font("Helvetica", style, size)
                    lines = self._wrap(text, width)
                    if lines is not None and len(lines) <= most:
                        return size, lines
            self.set_font("Helvetica", style, 6.0)
            while text and self.get_string_width(text) > width:
                text = text[:-1]
            return 6.0, [text]

        def _wrap(self, text: str, width: float) -> list[str] | None:
            """``text`` in lines no wider than ``width`` at the current font (breaking at blanks and
            after hyphens), or None if one piece alone is too wide."""
            lines: list[str] = []
            line = ""
            for word in text.split(" "):
                for k, piece in enumerate(re.findall(r"[^-]+-?|-", word) or [""]):
                    joined = line + (" " if line and k == 0 else "") + piece
                    if self.get_string_width(joined) <= width:
                        line = joined
                    elif self.get_string_width(piece) <= width:
                        lines.append(line)
                        line = piece
                    else:
                        return None
            return [*lines, line]

    return Pdf


def list_pdf(paper: PaperList) -> bytes:
    """The list as an A4 page like the paper list, with lines for the signatures."""
    title = paper.title or f"Spielliste Serie {paper.series}, Tisch {paper.table}"
    pdf = _Pdf(title)
    n = len(paper.players)
    player_w = min(18.0, 72.0 / n)
    fixed = (8.0, 18.0, 18.0, 17.0, 10.0, 12.0, 0.0, 11.0)
    rest = pdf.epw - sum(fixed) - player_w * n
    widths = [*fixed[:6], rest, fixed[7], *([player_w] * n)]
    aligns = ["R", "L", "L", "L", "R", "L", "L", "R", *(["R"] * n)]
    pdf.set_font("Helvetica", "", 9)
    pdf.cell(0, 5, _latin(f"Spieler (Platz 1 zuerst): {', '.join(paper.players)}"), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(1)
    pdf.row(widths, ["Nr", "Geber", "Allein", "Spiel", "Grundw.", "Spitzen", "Gewinnstufen", "Wert",
                     *paper.players], bold=True, fill=True, aligns=aligns)
    for r in paper.rows:
        pdf.row(widths, [r.number, r.dealer, r.declarer, r.game, r.base, r.matadors, r.levels, r.value, *r.cells],
                struck=r.struck, aligns=aligns)
    label_w = sum(widths[:-n])
    totals: list[tuple[str, Sequence[object], bool]] = [
        ("Spielpunkte", paper.points, False), ("gewonnene Spiele", paper.won, False),
        ("verlorene Spiele", paper.lost, False), ("verlorene Spiele der Mitspieler", paper.others_lost, False),
        ("Leistung (Seeger-Fabian)", paper.leistung, True)]
    if paper.own_scoring is not None:  # Danish Skat's tournament scoring
        totals.append((*paper.own_scoring, True))
    for label, cells in paper.money:  # a Preisskat: each player's Abreizgeld of this list
        totals.append((label, tuple(v.replace("€", "EUR") for v in cells), False))
    for label, values, bold in totals:
        pdf.row([label_w, *([player_w] * n)], [label, *values], bold=bold,
                aligns=["R", *(["R"] * n)])
    pdf.ln(6)
    pdf.set_font("Helvetica", "", 9)
    for name in paper.players:
        mark = "  (am Tisch bestätigt)" if name in paper.confirmed else ""
        pdf.cell(0, 9, _latin(f"Unterschrift {name}: " + "_" * 40 + mark), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    pdf.set_font("Helvetica", "", 8)
    state = "von allen bestätigt" if paper.closed else f"bestätigt von {len(paper.confirmed)} von {n}"
    pdf.cell(0, 5, _latin(f"Liste {state}; Kettenkopf {paper.head[:16] or '-'}"), new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def ranking_pdf(title: str, sections: Sequence[tuple[str, Sequence[RankLine]]]) -> bytes:
    pdf = _Pdf(title)
    widths = [14.0, 58.0, 22.0, 24.0, 20.0, 20.0, 14.0, 18.0]
    aligns = ["R", "L", "R", "R", "R", "R", "R", "L"]
    for heading, lines in sections:
        pdf.set_font("Helvetica", "B", 11)
        pdf.cell(0, 8, _latin(heading), new_x="LMARGIN", new_y="NEXT")
        pdf.row(widths, RANKING_HEAD, bold=True, fill=True, aligns=aligns)
        for row in ranking_rows(lines):
            pdf.row(widths, row, aligns=aligns)
        pdf.ln(4)
    return bytes(pdf.output())


def season_pdf(title: str, lines: Sequence[SeasonLine], rules: SeasonRules) -> bytes:
    pdf = _Pdf(title, landscape=True)
    pdf.set_font("Helvetica", "", 9)
    pdf.cell(0, 5, _latin(f"Gewertet ab {rules.minimum_series} Serien; die {rules.dropped_worst} schlechtesten "
                          "Serien werden gestrichen; Rang nach Schnitt der gewerteten Serien."),
             new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    widths = [14.0, 62.0, 18.0, 20.0, 24.0, 26.0, 26.0, 20.0, 20.0, 0.0]
    widths[-1] = pdf.epw - sum(widths)
    aligns = ["R", "L", "R", "R", "R", "R", "R", "R", "R", "L"]
    pdf.row(widths, SEASON_HEAD, bold=True, fill=True, aligns=aligns)
    for row in season_rows(lines):
        pdf.row(widths, row, aligns=aligns)
    return bytes(pdf.output())
