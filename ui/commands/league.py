"""``skattisch league``: the league's server (Liga): clubs' laptops forward their tables' lists.

    skattisch league [serve]        start the league server (pages and the clubs' API)
    skattisch league code NAME      a pairing code for the club NAME (10 minutes, once)
    skattisch league clubs          the paired clubs: tables, last contact, lists kept aside
    skattisch league password       set or reset the organiser's password (asked twice; or stdin's first line)

Its own database (``--db``): a SQLite file (by default ``league.sqlite3`` in the user's data
directory) or a ``postgresql://`` database, as ``skattisch club --db`` takes it. On a server the
database, name and port come from ``/etc/skattisch/league.env`` (:mod:`drivers.league.settings`):
the service and the commands typed on the console read the same file.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from drivers.league.store import LeagueStore

ACTIONS = ("serve", "code", "clubs", "password")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", nargs="?", default="serve", choices=ACTIONS, help="what to do (default: serve)")
    parser.add_argument("target", nargs="?", help="code: the club's name")
    parser.add_argument("--db", help="the league's database: a SQLite file or a postgresql://… URL "
                                     "(default: league.sqlite3 in the user's data directory)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="serve: the address to listen on (default 127.0.0.1: behind the reverse proxy that "
                             "terminates HTTPS on the same machine)")
    parser.add_argument("--port", type=int, help="serve: the port (default 8090; 0: any free port)")
    parser.add_argument("--name", help="serve: the league's name (default: Skattisch Liga)")
    parser.add_argument("--json", action="store_true", help="code, clubs: print JSON")


def _store(args: argparse.Namespace) -> LeagueStore:
    from drivers.club.store import default_database
    from drivers.league.store import open_league_store

    return open_league_store(args.db or default_database().with_name("league.sqlite3"))


def _settled(args: argparse.Namespace) -> None:
    """The options not given on the command line, from the league's settings (environment, file)."""
    from drivers.league.settings import league_settings

    settings = league_settings()
    args.db = args.db or settings.get("SKATTISCH_LEAGUE_DB") or None
    args.name = args.name or settings.get("SKATTISCH_LEAGUE_NAME") or "Skattisch Liga"
    if args.port is None:
        port = settings.get("SKATTISCH_LEAGUE_PORT", "8090")
        if not port.isdigit() or not 0 <= int(port) < 65536:
            raise ValueError(f"SKATTISCH_LEAGUE_PORT={port!r} is not a port number")
        args.port = int(port)


def run(args: argparse.Namespace) -> int:
    try:
        import starlette  # noqa: F401
    except ModuleNotFoundError:
        print('skattisch league needs the server\'s packages: pip install "skattisch[club]"', file=sys.stderr)
        return 2
    try:
        _settled(args)
    except ValueError as exc:  # SettingsError too
        print(f"skattisch league: {exc}", file=sys.stderr)
        return 2
    from device.sync import SyncRefused
    from drivers.club.migrations import StoreError
    from drivers.club.store import redacted

    if args.action == "code" and not (args.target or "").strip():
        print("skattisch league code: name the club (e.g. skattisch league code \"SC Herz Dame\")", file=sys.stderr)
        return 2
    try:
        store = _store(args)
    except (OSError, sqlite3.Error, SyncRefused, StoreError) as exc:
        shown = redacted(args.db) if args.db else "league.sqlite3"
        print(f"skattisch league: the database {shown} cannot be used: {exc}", file=sys.stderr)
        return 2
    try:
        return int(globals()[f"_{args.action}"](store, args))
    finally:
        store.close()


def _serve(store: LeagueStore, args: argparse.Namespace) -> int:
    from drivers.league.server import serve_league
    from ui.league.pages import league_routes

    def ready(url: str) -> None:
        print(f"Skattisch league: listening on {url}", flush=True)

    try:
        serve_league(store, host=args.host, port=args.port, name=args.name, ready=ready, routes=league_routes(store))
    except OSError as exc:
        print(f"skattisch league: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 2
    return 0


def _code(store: LeagueStore, args: argparse.Namespace) -> int:
    from drivers.league.app import new_club_code

    code = new_club_code(store, args.target, now=time.time())
    if args.json:
        print(json.dumps({"code": code, "club": args.target.strip(), "valid_seconds": 600}))
    else:
        print(f"Kopplungscode für {args.target.strip()}: {code[:3]} {code[3:]}   (10 Minuten gültig, einmal)")
        print("Am Vereinslaptop: skattisch club --league URL --league-code CODE")
    return 0


def _password(store: LeagueStore, args: argparse.Namespace) -> int:
    from ui.commands.organiser_password import set_organiser_password

    return set_organiser_password(store.events, "skattisch league password")


def _clubs(store: LeagueStore, args: argparse.Namespace) -> int:
    rows = [{"club": c.club, "name": c.name, "paired": c.paired, "tables": c.tables, "last_contact": c.last_contact,
             "kept_aside": c.rejects} for c in store.clubs()]
    if args.json:
        print(json.dumps(rows))
        return 0
    if not rows:
        print("noch kein Verein gekoppelt / no club paired yet: skattisch league code NAME")
    for c in store.clubs():
        print(f"{c.name[:30]:30} {'ja' if c.paired else 'nein':5} {c.tables:>3} Tische  {c.rejects:>3} beiseite  {c.club}")
    return 0
