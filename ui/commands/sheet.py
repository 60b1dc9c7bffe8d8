"""``skattisch sheet FILE``: a whole list scored — entries, totals, ranking, settlement.

Text by default (laid out like the paper list), ``--json`` for machines, ``--csv`` for a
spreadsheet. A bad document: the error names the entry and field, exit code 2.
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import sys
from typing import Any

_SYSTEM_DE = {"classic": "Spielpunkte (klassisch)", "seeger_fabian": "Seeger-Fabian", "bierlachs": "Bierlachs",
              "danish": "Dänische Turnierwertung"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a list document (JSON); '-' reads standard input")
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="print the scored list as JSON")
    form.add_argument("--csv", action="store_true", help="print the entries as CSV")


def run(args: argparse.Namespace) -> int:
    from device.jsonin import JsonInputError, parse_json
    from device.listdoc import ListDocumentError, parse_list_document

    try:
        data = sys.stdin.buffer.read() if args.file == "-" else read_input_file(args.file)
        document = parse_list_document(parse_json(data))
    except OSError as exc:
        print(f"skattisch sheet: cannot read {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except JsonInputError as exc:
        print(f"skattisch sheet: {args.file}: {exc}", file=sys.stderr)
        return 2
    except ListDocumentError as exc:
        print(f"skattisch sheet: {args.file}: {exc}", file=sys.stderr)
        return 2
    sheet = scored_sheet(document)
    if args.json:
        print(json.dumps(sheet, ensure_ascii=False, indent=2))
    elif args.csv:
        print(as_csv(sheet), end="")
    else:
        print(as_text(sheet))
    return 0


def scored_sheet(document: Any) -> dict[str, Any]:
    """The scored list as plain JSON data (``"v": 1``); each row also has the paper list's
    columns, as the table's list screen shows them (:func:`device.table.listing.paper_rows`)."""
    from device.table.listing import paper_rows

    figures = document.figures()
    players = list(figures.players)
    rows = []
    for row, points, running, paper in zip(document.rows, figures.points, figures.running,
                                           paper_rows(document.rows, figures)):
        rows.append({
            "entry": row.entry, "dealer": players[row.dealer], "kind": row.kind,
            "declarer": players[row.declarer_seat] if row.declarer_seat is not None else None,
            "text": _row_text(row, players), "score": row.result.score if row.result else None,
            "points": list(points), "running": list(running),
            "earlier": [_row_text(old, players) for old in row.earlier],
            "game": paper.short, "base": paper.base, "tops": paper.tops, "levels": paper.levels,
            "game_points": list(paper.running), "losers": _losers(row, players),
        })
    out: dict[str, Any] = {
        "v": 1, "title": document.title, "players": players, "scoring": figures.system.value,
        "stake": str(document.stake), "rows": rows, "totals": list(figures.totals), "classic": list(figures.classic),
        "won": list(figures.won), "lost": list(figures.lost),
        "standings": [{"rank": s.rank, "player": players[s.player], "total": s.total, "won": s.won, "lost": s.lost}
                      for s in figures.standings],
        "settlement": None, "profile": document.profile.name,
    }
    if document.profile.form.value != "german":  # Tournee-Skat, Danish Skat: the rules in the header
        out["rules"] = document.profile.form.german
    if any(document.members):  # the member ids beside the names, as the document gives them
        out["members"] = list(document.members)
    if figures.bierlachs_losses is not None:
        out["bierlachs_losses"] = list(figures.bierlachs_losses)
    if figures.settlement is not None:
        s = figures.settlement
        out["settlement"] = {
            "stake": str(s.stake), "amounts": list(s.amounts),
            "transfers": [{"payer": players[t.payer], "payee": players[t.payee], "amount": t.amount}
                          for t in s.transfers],
        }
    return out


def _row_text(row: Any, players: list[str]) -> str:
    if row.kind == "passed_in":
        return "eingepasst"
    if row.kind == "ramsch":
        return "Ramsch " + ", ".join(f"{players[seat]} {score:+d}" for seat, score in zip(row.active, row.ramsch) if score)
    return f"{players[row.declarer_seat]}: {row.result.describe_de()}"


def _losers(row: Any, players: list[str]) -> str | None:
    """A Ramsch row's losers, in the declarer's column as on the screen."""
    if row.kind != "ramsch" or row.ramsch is None:
        return None
    return ", ".join(players[seat] for seat, score in zip(row.active, row.ramsch) if score < 0) or None


def _tops(tops: int | None) -> str:
    return "" if tops is None else (f"m{tops}" if tops > 0 else f"o{-tops}")


def _signed(value: int | None) -> str:
    return "" if value is None else (f"{value:+d}" if value else "0")


def paper_cells(row: dict[str, Any]) -> list[str]:
    """A row's columns as the list screen shows them: Nr, Geber, Spieler, Spiel, Grundwert,
    Spitzen, Gewinnstufen, Wert, then each player's running game points where it changed."""
    value = row["score"]
    if row["kind"] == "ramsch":
        losses = {p for p in row["points"] if p}
        value = losses.pop() if len(losses) == 1 else None
    return [str(row["entry"]), row["dealer"], row["declarer"] or row["losers"] or "", row["game"],
            "" if row["base"] is None else str(row["base"]), _tops(row["tops"]),
            "" if row["levels"] is None else str(row["levels"]), _signed(value),
            *("" if p is None else str(p) for p in row["game_points"])]


def stand_rows(sheet: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """The "Stand" lines under the list: game points, won / lost, the system's totals."""
    out = [("Spielpunkte", [str(c) for c in sheet["classic"]]),
           ("gew. / verl.", [f"{w} / {lost}" for w, lost in zip(sheet["won"], sheet["lost"])])]
    if sheet["scoring"] != "classic":
        out.append((_SYSTEM_DE[sheet["scoring"]], [str(t) for t in sheet["totals"]]))
    if "bierlachs_losses" in sheet:
        out.append(("Bierlachse verloren", [str(n) for n in sheet["bierlachs_losses"]]))
    return out


HEADER_SHORT = ["Nr", "Geber", "Spieler", "Spiel", "Gw", "Sp", "St", "Wert"]
HEADER_CSV = ["Nr", "Geber", "Alleinspieler", "Spiel", "Grundwert", "Spitzen", "Gewinnstufen", "Wert"]


def as_text(sheet: dict[str, Any]) -> str:
    """The list laid out like the paper list (and the table's list screen): one line per
    game, a corrected entry's earlier text struck through above it, the "Stand" lines."""
    players = sheet["players"]
    lines = [HEADER_SHORT + players] + [paper_cells(row) for row in sheet["rows"]]
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    left = {1, 2, 3}  # names and the game read from the left; numbers line up on the right

    def format_line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) if i in left else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))

    out = []
    if sheet["title"]:
        out.append(sheet["title"])
    out.append(f"Wertung: {_SYSTEM_DE[sheet['scoring']]}" + (f", Einsatz {sheet['stake']} Cent je Punkt"
                                                             if sheet["settlement"] else ""))
    if sheet.get("rules"):
        out.append(f"Regeln: {sheet['rules']} (Profil {sheet['profile']})")
    out.append(format_line(lines[0]))
    lead = sum(widths[:3]) + 6
    for row, cells in zip(sheet["rows"], lines[1:]):
        for old in row["earlier"]:
            out.append(" " * lead + _strike(old))
        out.append(format_line(cells))
    out.append("-" * len(format_line(lines[0])))
    label_width = sum(widths[:8]) + 2 * 7
    for label, cells in stand_rows(sheet):
        out.append(label.rjust(label_width) + "  " + "  ".join(c.rjust(w) for c, w in zip(cells, widths[8:])))
    out.append("")
    out.append("Platzierung:")
    width = max(7, *(len(p) + 1 for p in players))
    for s in sheet["standings"]:
        out.append(f"  {s['rank']}. {s['player']:<{width}} {s['total']:>7}   ({s['won']} gewonnen, {s['lost']} verloren)")
    if sheet["settlement"]:
        out.append("")
        out.append(f"Abrechnung ({sheet['settlement']['stake']} Cent je Punkt):")
        for name, amount in zip(players, sheet["settlement"]["amounts"]):
            out.append(f"  {name:<{width}} {_euro(amount):>10}")
        for t in sheet["settlement"]["transfers"]:
            out.append(f"  {t['payer']} zahlt {t['payee']} {_euro(t['amount'])}")
    return "\n".join(out)


def as_csv(sheet: dict[str, Any]) -> str:
    """The same columns as the text and the screen, a row per entry, then the "Stand" lines;
    text cells that a spreadsheet would run as a formula are escaped (:mod:`device.csvcell`),
    numbers stay numbers ("+48" is written 48)."""
    from device.csvcell import csv_text

    rows: list[list[Any]] = [[*HEADER_CSV, *sheet["players"]]]
    for row in sheet["rows"]:
        rows.append([_number(cell) for cell in paper_cells(row)])
    for label, cells in stand_rows(sheet):
        rows.append(["", "", "", label, "", "", "", "", *(_number(cell) for cell in cells)])
    return csv_text(rows)


def _number(cell: str) -> Any:
    """A cell that is a whole number as a number, else the text."""
    try:
        return int(cell)
    except ValueError:
        return cell


def read_input_file(name: str) -> bytes:
    """A named input file's bytes; a folder is refused as such (OSError, like a missing file)."""
    if os.path.isdir(name):
        raise IsADirectoryError(errno.EISDIR, "it is a folder, not a file", name)
    with open(name, "rb") as stream:
        return stream.read()


def _strike(text: str) -> str:
    return "".join(ch + "\u0336" for ch in text)


def _euro(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100},{abs(cents) % 100:02d} €"
