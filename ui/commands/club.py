"""``skattisch club``: the organiser's laptop.

    skattisch club [serve]        start the collector (the tables sync to it), advertised by mDNS
    skattisch club pair           show a pairing code (six digits and a QR code), valid 10 minutes
                                  (--minutes N: longer, e.g. for the SD cards' settings files)
    skattisch club tables         the paired tables: last contact, last seq, last game, conflicts
    skattisch club import DIR     take the journals a table exported to a USB stick
    skattisch club unpair DEVICE  the table's secret is void: it must pair again
    skattisch club resend DEVICE  ask the table to send everything again
    skattisch club backup FILE    copy the database into FILE (SQLite's backup API, pg_dump for PostgreSQL)
    skattisch club restore FILE   put a backup into a new, empty database (--db names it)
    skattisch club password       set or reset the organiser's password (asked twice; or stdin's first line)

``--db`` names the database: a SQLite file (the default: club.sqlite3 in the user's data
directory) or ``postgresql://user@host/name`` (needs ``pip install "skattisch[postgres]"``).

Needs ``pip install "skattisch[club]"`` (Starlette, uvicorn, zeroconf, segno), nothing else.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sqlite3
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from drivers.club.store import CollectorStore

ACTIONS = ("serve", "pair", "tables", "import", "unpair", "resend", "backup", "restore", "password")
NEEDS_TARGET = {"import": "directory", "unpair": "device", "resend": "device", "backup": "backup file",
                "restore": "backup file"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", nargs="?", default="serve", choices=ACTIONS, help="what to do (default: serve)")
    parser.add_argument("target", nargs="?", help="import: the export directory; unpair/resend: the device id; "
                                                  "backup/restore: the backup file")
    parser.add_argument("--db", help="the laptop's database: a SQLite file or a postgresql://… URL "
                                     "(default: club.sqlite3 in the user's data directory)")
    parser.add_argument("--host", default="0.0.0.0", help="serve: the address to listen on (default: all)")
    parser.add_argument("--port", type=int, default=8080, help="serve: the port (default 8080; 0: any free port)")
    parser.add_argument("--name", default="Skattisch", help="serve: the laptop's name shown on the tables")
    parser.add_argument("--no-mdns", action="store_true", help="serve: do not advertise on the network (mDNS)")
    parser.add_argument("--mdns-interface", action="append",
                        help="serve: advertise on this address only (repeatable; default: all)")
    parser.add_argument("--json", action="store_true", help="pair, tables, import: print JSON")
    parser.add_argument("--svg", metavar="FILE", help="pair: also write the QR code as an SVG file")
    parser.add_argument("--league", metavar="URL", help="serve: forward the tables' lists to the league server at URL")
    parser.add_argument("--league-code", metavar="CODE", help="serve: pair with the league first (its organiser's code)")
    parser.add_argument("--minutes", type=_minutes, default=10, metavar="N",
                        help="pair: how long the code is valid (default 10; up to 1440, e.g. while the SD cards "
                             "of new tables are prepared)")


def _minutes(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 1440:
        raise argparse.ArgumentTypeError(f"whole minutes from 1 to 1440 (a day), not {text!r}")
    return int(text)


def _store(args: argparse.Namespace) -> CollectorStore:
    from drivers.club.store import default_database, open_store

    return open_store(args.db or default_database())


def run(args: argparse.Namespace) -> int:
    try:
        import starlette  # noqa: F401
    except ModuleNotFoundError:
        print('skattisch club needs the laptop\'s packages: pip install "skattisch[club]"', file=sys.stderr)
        return 2
    if args.action in NEEDS_TARGET and not args.target:
        print(f"skattisch club {args.action}: name the {NEEDS_TARGET[args.action]}", file=sys.stderr)
        return 2
    from drivers.club.store import StoreError

    if args.action in ("backup", "restore"):  # on the database itself, not through an opened store
        try:
            return _backup_or_restore(args)
        except (StoreError, OSError, sqlite3.Error) as exc:
            print(f"skattisch club {args.action}: {exc}", file=sys.stderr)
            return 2

    try:
        store = _store(args)
    except StoreError as exc:  # PostgreSQL not reachable, psycopg missing, a newer schema
        print(f"skattisch club: {exc}", file=sys.stderr)
        return 2
    except (OSError, sqlite3.Error) as exc:  # a folder, not a database, no permission
        print(f"skattisch club: the database {args.db or 'club.sqlite3'} cannot be used: {exc}", file=sys.stderr)
        return 2
    try:
        return int(globals()[f"_{args.action}"](store, args))
    finally:
        store.close()


def _serve(store: CollectorStore, args: argparse.Namespace) -> int:
    from drivers.club.server import serve
    from ui.club.model import Evening
    from ui.club.pages import club_routes

    def ready(line: str) -> None:
        print(line if not line.startswith("http") else f"Skattisch club: listening on {line}", flush=True)

    evening = Evening(store)
    forwarder = _league(store, args, evening)
    if forwarder is False:
        return 2
    try:
        serve(store, host=args.host, port=args.port, name=args.name, advertise=not args.no_mdns, ready=ready,
              mdns_interfaces=args.mdns_interface, routes=club_routes(store, evening))
    except OSError as exc:
        print(f"skattisch club: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 2
    finally:
        if forwarder:
            forwarder.close()
    return 0


def _league(store: CollectorStore, args: argparse.Namespace, evening: Any) -> Any:
    """Pair with the league if a code is given; the forwarder (it forwards once paired), or False: failed."""
    from drivers.league.forward import Forwarder, link, pair_with_league
    from drivers.sync import LaptopError

    if args.league_code:
        if not args.league:
            print("skattisch club: --league-code needs --league URL (the league server's address)", file=sys.stderr)
            return False
        try:
            linked = pair_with_league(store, args.league, args.league_code, name=args.name)
        except LaptopError as exc:
            print(f"skattisch club: pairing with the league failed: {exc}", file=sys.stderr)
            return False
        print(f"Skattisch club: paired with the league {linked.league or linked.url} as {linked.club}", flush=True)
    elif args.league:
        known = link(store)
        if known is None:
            print("skattisch club: not paired with a league yet: add --league-code CODE (from the league's "
                  "organiser)", file=sys.stderr)
            return False
        if known.url != args.league.rstrip("/"):  # the league moved: same pairing, new address
            store.set_document("league", {**store.document("league"), "url": args.league.rstrip("/")})
    from ui.club.league_people import league_people, seated_members

    def people(members: set[str] | None) -> dict[str, Any]:  # the names the league may show
        if members is None:  # every member on the club's lists
            evening.refresh()  # the lists that arrived since, with their member ids
            members = seated_members(evening.doc("season_results", {}))
        return league_people(evening.roster(), members)

    forwarder = Forwarder(store, meta=evening.list_meta, people=people)  # idle until paired (here or on the Liga page)
    forwarder.start()
    return forwarder


def _password(store: CollectorStore, args: argparse.Namespace) -> int:
    from ui.commands.organiser_password import set_organiser_password

    return set_organiser_password(store, "skattisch club password")


def _pair(store: CollectorStore, args: argparse.Namespace) -> int:
    import segno

    from drivers.club.app import new_pairing_code

    code = new_pairing_code(store, now=time.time(), valid=args.minutes * 60.0)
    qr = segno.make(code, micro=False)
    if args.svg:
        qr.save(args.svg, scale=8)
    if args.json:
        print(json.dumps({"code": code, "valid_seconds": args.minutes * 60}))
        return 0
    print(f"Kopplungscode / pairing code: {code[:3]} {code[3:]}   ({args.minutes} Minuten gültig, einmal)")
    print("Am Tisch: Einstellungen → Laptop koppeln → Code eintippen oder scannen")
    qr.terminal(compact=True)
    return 0


def _last_game(store: CollectorStore, device: str) -> int:
    """The number of entries on the table's latest list, by the table's own rules code."""
    from device.table import Event, replay

    lists = store.lists(device)
    if not lists:
        return 0
    try:
        return len(replay([Event.from_json(e) for e in store.events(device, lists[-1].list_id)]).rows)
    except Exception:  # a list this version cannot fold still shows its seqs
        return 0


def _tables(store: CollectorStore, args: argparse.Namespace) -> int:
    from drivers.version import skattisch_version

    rows: list[dict[str, Any]] = []
    for table in store.tables():
        rows.append({"device": table.device, "name": table.name, "paired": table.paired,
                     "last_contact": table.last_contact, "last_seq": table.held,
                     "last_game": _last_game(store, table.device), "conflicts": table.conflicts,
                     "app_version": table.app_version})
    if args.json:
        print(json.dumps(rows))
        return 0
    if not rows:
        print("noch kein Tisch gekoppelt / no table paired yet: skattisch club pair")
        return 0
    laptop = skattisch_version()
    print(f"{'Tisch':20} {'gekoppelt':9} {'letzter Kontakt':19} {'Seq':>6} {'Spiel':>5} {'Konflikte':>9}  "
          f"{'Version':24}  Gerät")
    for row in rows:
        contact = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(row["last_contact"])) if row["last_contact"] else "—"
        print(f"{row['name'][:20]:20} {'ja' if row['paired'] else 'nein':9} {contact:19} {row['last_seq']:>6} "
              f"{row['last_game']:>5} {row['conflicts']:>9}  {_version_column(row['app_version'], laptop):24}  "
              f"{row['device']}")
    return 0


def _version_column(version: str | None, laptop: str) -> str:
    """A table's version in ``club tables``, marked when it is another than the laptop's.

    >>> _version_column("0.0.9", "0.1.0"), _version_column("0.1.0", "0.1.0"), _version_column(None, "0.1.0")
    ('0.0.9 (andere Version)', '0.1.0', '—')
    """
    if version is None:
        return "—"
    return version if version == laptop else f"{version} (andere Version)"


def _import(store: CollectorStore, args: argparse.Namespace) -> int:
    from drivers.club.usb import ImportError_, import_export

    try:
        results = import_export(store, Path(args.target), now=time.time())
    except ImportError_ as exc:
        print(f"skattisch club import: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([dataclasses.asdict(r) for r in results]))
    for result in results:
        if result.error:  # refused whole: nothing of this table was stored
            print(f"skattisch club import: {result.device}: abgelehnt / refused: {result.error}", file=sys.stderr)
        elif not args.json:
            print(f"{result.device}: {result.stored} neu, {result.duplicates} schon da, bis Seq {result.held}")
    return 2 if any(r.error for r in results) else 0


def _unpair(store: CollectorStore, args: argparse.Namespace) -> int:
    if store.unpair(args.target):
        print(f"{args.target}: entkoppelt / unpaired (its lists stay)")
        return 0
    print(f"{args.target}: no paired table with this device id", file=sys.stderr)
    return 1


def _resend(store: CollectorStore, args: argparse.Namespace) -> int:
    if store.request_resend(args.target):
        print(f"{args.target}: will send everything again with its next contact")
        return 0
    print(f"{args.target}: no table with this device id", file=sys.stderr)
    return 1


def _backup_or_restore(args: argparse.Namespace) -> int:
    from drivers.club.backup import backup, restore
    from drivers.club.store import default_database, redacted

    database = str(args.db or default_database())
    if args.action == "backup":
        size = backup(database, args.target)
        print(f"gesichert / backed up: {redacted(database)} → {args.target} ({size} bytes)")
    else:
        restore(args.target, database)
        print(f"wiederhergestellt / restored: {args.target} → {redacted(database)}")
    return 0
