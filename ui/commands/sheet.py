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

_SYSTEM_DE = {"classic": "Spielpunkte (klassisch)", "seeger_fabian": "Seeger-Fabian", "bierlachs": "Bierlachs"}


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
    """The scored list as plain JSON data (``"v": 1``)."""
    figures = document.figures()
    players = list(figures.players)
    rows = []
    for row, points, running in zip(document.rows, figures.points, figures.running):
        rows.append({
            "entry": row.entry, "dealer": players[row.dealer], "kind": row.kind,
            "declarer": players[row.declarer_seat] if row.declarer_seat is not None else None,
            "text": _row_text(row, players), "score": row.result.score if row.result else None,
            "points": list(points), "running": list(running),
            "earlier": [_row_text(old, players) for old in row.earlier],
        })
    out: dict[str, Any] = {
        "v": 1, "title": document.title, "players": players, "scoring": figures.system.value,
        "stake": str(document.stake), "rows": rows, "totals": list(figures.totals), "classic": list(figures.classic),
        "won": list(figures.won), "lost": list(figures.lost),
        "standings": [{"rank": s.rank, "player": players[s.player], "total": s.total, "won": s.won, "lost": s.lost}
                      for s in figures.standings],
        "settlement": None,
    }
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


def as_text(sheet: dict[str, Any]) -> str:
    players = sheet["players"]
    width = max(7, *(len(p) + 1 for p in players))
    text_width = max([len(r["text"]) for r in sheet["rows"]] + [20])
    line = lambda head, cells: f"{head:<{14 + text_width}}" + "".join(f"{c:>{width}}" for c in cells)  # noqa: E731
    out = []
    if sheet["title"]:
        out.append(sheet["title"])
    out.append(f"Wertung: {_SYSTEM_DE[sheet['scoring']]}" + (f", Einsatz {sheet['stake']} Cent je Punkt"
                                                             if sheet["settlement"] else ""))
    out.append(line(f"{'Nr':>3} {'Geber':<9}Spiel", players))
    for row in sheet["rows"]:
        cells = [f"{p:+d}" if p else "" for p in (q or 0 for q in row["points"])]
        for old in row["earlier"]:
            out.append(line(f"{'':>3} {'':<9}" + _strike(old), [""] * len(players)))
        out.append(line(f"{row['entry']:>3} {row['dealer'][:8]:<9}{row['text']}", cells))
    out.append("-" * (14 + text_width + width * len(players)))
    out.append(line("Spielpunkte", sheet["classic"]))
    out.append(line("gewonnen/verloren", [f"{w}/{lost}" for w, lost in zip(sheet["won"], sheet["lost"])]))
    if sheet["scoring"] != "classic":
        out.append(line(_SYSTEM_DE[sheet["scoring"]], sheet["totals"]))
    if "bierlachs_losses" in sheet:
        out.append(line("Bierlachse verloren", sheet["bierlachs_losses"]))
    out.append("")
    out.append("Platzierung:")
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
    """The entries as CSV; text cells that a spreadsheet would run as a formula are escaped
    (:mod:`device.csvcell`), numbers stay numbers."""
    from device.csvcell import csv_text

    players = sheet["players"]
    rows: list[list[Any]] = [["Nr", "Geber", "Alleinspieler", "Spiel", "Wert", *players]]
    for row in sheet["rows"]:
        rows.append([row["entry"], row["dealer"], row["declarer"], row["text"], row["score"], *row["running"]])
    rows.append(["", "", "", "Summe", "", *sheet["totals"]])
    return csv_text(rows)


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
