"""The league's pages: routes to mount onto the league server (``create_league_app(store, routes=...)``).

Server-rendered (Jinja2), German, the club's look: the club's templates for the ranking
table, the list and the login are used as they are (a loader that looks in the league's
folder first, then the club's), the club's CSV/PDF code makes every export. Read-only pages
are public; the organiser's page (clubs, pairing codes, match days, season rules, what was
kept aside) needs the league organiser's password (:mod:`ui.club.auth`, as on the club's laptop).
"""

from __future__ import annotations

import datetime
import logging
import threading
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from jinja2 import ChoiceLoader, Environment, FileSystemLoader, select_autoescape
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from device.club.season import SeasonError, SeasonLine, SeasonRules
from device.league.standings import club_ranking, player_ranking
from device.csvcell import csv_text
from device.sync import SyncRefused
from drivers.club.migrations import StoreUnavailable
from drivers.league.app import new_club_code
from drivers.league.store import LeagueStore
from ui.club import exports, flash
from ui.club.pages import HERE as CLUB, Pages, _csv, series_tables
from ui.league.model import LeagueModel, Shown

HERE = Path(__file__).parent
log = logging.getLogger(__name__)
_env = Environment(loader=ChoiceLoader([FileSystemLoader(HERE / "templates"), FileSystemLoader(CLUB / "templates")]),
                   autoescape=select_autoescape(["html"]), trim_blocks=True, lstrip_blocks=True)
_env.filters["avg"] = exports.average_text
_env.filters["zip"] = zip
_env.filters["series_tables"] = series_tables


def when(stamp: float | None) -> str:
    """A time the organiser reads: '26.11. 19:42:05' (local time), '–' for none."""
    if stamp is None:
        return "–"
    return datetime.datetime.fromtimestamp(stamp).strftime("%d.%m. %H:%M:%S")


_env.filters["when"] = when


class Same:
    """The templates' ``display.get(name, name)``: the league shows names as the lists have them."""

    def get(self, name: str, default: str | None = None) -> str:
        return name


class LeaguePages(Pages):
    """The league's pages; the login and logout are the club's (:class:`ui.club.pages.Pages`)."""

    START = "/spieltag"
    ORGANISER_START = "/verwaltung"
    PASSWORD_COMMAND = "skattisch league password"

    CACHED = 512  # public pages kept (by path, query and login) until anything changes

    def __init__(self, store: LeagueStore, *, clock: Any = time.time) -> None:  # noqa: D107 - no Evening here
        self.league = store
        self.store = store.events  # the documents: the organiser's password, match days, season rules
        self.model = LeagueModel(store)
        self.clock = clock
        self._cache: dict[tuple[str, str, bool], tuple[str, bytes, int, dict[str, str]]] = {}
        self._locks: dict[tuple[str, str, bool], threading.Lock] = {}  # per page: who makes it now
        self._locks_lock = threading.Lock()
        self._stop = threading.Event()
        self._answering = 0  # readers' requests being answered (the background waits for them)
        self._answering_lock = threading.Lock()

    def warm(self, every: float = 0.5, patience: float = 10.0) -> threading.Thread:
        """Fold and score what arrived in the background, not in a reader's request: every ``every``
        s when the data were quiet since the last look and no reader's request is being answered
        (readers and a club forwarding its match day go first: storing is the ingest, scoring comes
        after), at the latest ``patience`` s after the last time. Until its first round is done a
        match day's pages read that day alone (after a restart: the kept summaries of that day)."""
        def run() -> None:
            seen, made = "", time.monotonic()
            while not self._stop.wait(every):
                try:
                    version, now = self.model.version(), time.monotonic()
                    if (version == seen and not self._answering) or now - made >= patience:
                        self.model.lists()
                        self.model.season()  # the season's lines too: made once per change
                        made = now
                    seen = version
                except StoreUnavailable:  # the database is away: said once by the server, tried again next round
                    continue
                except Exception:  # a bad moment of the store: the next request or round tries again
                    log.exception("league: scoring the lists failed")
        thread = threading.Thread(target=run, name="skattisch-league-warm", daemon=True)
        thread.start()
        return thread

    def _making(self, key: tuple[str, str, bool]) -> threading.Lock:
        with self._locks_lock:
            if len(self._locks) >= self.CACHED and key not in self._locks:
                self._locks = {k: lock for k, lock in self._locks.items() if lock.locked()}
            return self._locks.setdefault(key, threading.Lock())

    def cached(self, method: Any) -> Any:
        """``method`` as a route whose answer is kept until the league's data change (public pages).

        Under a crowd (a match day's evening: hundreds of readers while clubs forward) a page is
        made by one request at a time: the requests that wait for it take the page made after
        they arrived (the data as new as when they asked) instead of each making it again."""
        def answer(request: Request) -> Response:
            with self._answering_lock:
                self._answering += 1
            try:
                return kept(request)
            finally:
                with self._answering_lock:
                    self._answering -= 1

        def kept(request: Request) -> Response:
            key = (request.url.path, request.url.query, self.organiser(request))
            arrived = int(self.model.version())
            hit = self._cache.get(key)
            if hit is not None and int(hit[0]) >= arrived:
                return Response(hit[1], status_code=hit[2], headers=hit[3])
            with self._making(key):  # one request makes a page; the others at that moment take it
                hit = self._cache.get(key)
                if hit is not None and int(hit[0]) >= arrived:  # made since this request came: as new as asked
                    return Response(hit[1], status_code=hit[2], headers=hit[3])
                version = self.model.version()
                response: Response = method(request)
                if response.status_code == 200 and "set-cookie" not in response.headers:  # a notice shown: not kept
                    if len(self._cache) >= self.CACHED:
                        self._cache.clear()
                    self._cache[key] = (version, bytes(response.body), response.status_code, dict(response.headers))
                return response

        async def endpoint(request: Request) -> Response:
            response: Response = await run_in_threadpool(answer, request)
            return response
        return endpoint

    def render(self, request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        context.update(request=request, organiser=self.organiser(request), display=Same(), fragment=False,
                       evening={"title": context.pop("heading", "Liga")}, page=context.get("page", ""),
                       notice=context.get("notice") or flash.notice(request))
        return flash.shown(request, HTMLResponse(_env.get_template(template).render(**context), status_code=status))

    # -- match day ---------------------------------------------------------------------------

    def _matchday(self, request: Request) -> tuple[str, str, list[dict[str, str]]]:
        """The match day asked for (``?tag=``), else the latest one that has lists, else the latest."""
        days = self.model.matchdays()
        wanted = request.query_params.get("tag", "")
        if any(d["date"] == wanted for d in days):
            date = wanted
        else:
            played = self.model.played_days()
            date = next((d["date"] for d in reversed(days) if d["date"] in played), days[-1]["date"] if days else "")
        title = next((d["title"] for d in days if d["date"] == date), "kein Spieltag")
        return date, title, days

    def spieltag(self, request: Request) -> Response:
        date, title, days = self._matchday(request)
        lists = self.model.matchday_lists(date)
        lists.sort(key=lambda s: (s.item.club, s.item.table, s.item.series))
        form = request.path_params.get("form", "")
        if form == "json":
            return JSONResponse({"matchday": date, "title": title, "lists": [_list_json(s) for s in lists]})
        if form == "csv":
            rows = [(s.item.club, s.table_name, s.item.table, s.item.series, " · ".join(s.players), s.games,
                     "bestätigt" if s.closed else "beendet" if s.over else "läuft") for s in lists]
            return _csv(csv_text([("Verein", "Tisch", "Tischnummer", "Serie", "Spieler", "Spiele", "Stand"), *rows]),
                        f"spieltag-{date or 'keiner'}")
        by_club: dict[str, list[Shown]] = {}
        for shown in lists:
            by_club.setdefault(shown.item.club, []).append(shown)
        return self.render(request, "spieltag.html", page="spieltag", date=date, title=title, days=days,
                           by_club=by_club, heading=title)

    def wertung(self, request: Request) -> Response:
        date, title, days = self._matchday(request)
        items = [s.item for s in self.model.matchday_lists(date)]
        players, clubs = player_ranking(items, date), club_ranking(items, date)
        form = request.path_params.get("form", "")
        name = f"wertung-{date or 'keiner'}"
        if form == "csv":
            return _csv(exports.ranking_csv(players), name)
        if form == "json":
            return JSONResponse({"matchday": date, "title": title, "players": [asdict(x) for x in players],
                                 "clubs": [asdict(x) for x in clubs]})
        if form == "pdf":
            return _pdf(exports.ranking_pdf(f"Wertung {title}", [("Einzelwertung", players),
                                                                  ("Vereinswertung", clubs)]), name)
        return self.render(request, "wertung.html", page="wertung", date=date, title=title, days=days,
                           players=players, clubs=clubs, heading=title)

    # -- clubs and lists -----------------------------------------------------------------------

    def vereine(self, request: Request) -> Response:
        lists = self.model.lists()
        clubs = [(c, sum(1 for s in lists if s.club_id == c.club)) for c in self.league.clubs()]
        if request.url.path.endswith(".json"):
            return JSONResponse([{"club": c.club, "name": c.name, "tables": c.tables, "lists": n} for c, n in clubs])
        return self.render(request, "vereine.html", page="vereine", clubs=clubs, heading="Vereine")

    def verein(self, request: Request) -> Response:
        club = request.path_params["club"]
        info = next((c for c in self.league.clubs() if c.club == club), None)
        if info is None:
            return self.render(request, "message.html", 404, title="Verein nicht gefunden",
                               text=f"Der Verein {club} ist in dieser Liga nicht gekoppelt.")
        lists = sorted((s for s in self.model.lists() if s.club_id == club),
                       key=lambda s: (s.item.matchday or "9999", s.item.table, s.item.series))
        form = request.path_params.get("form", "")
        if form == "json":
            return JSONResponse({"club": club, "name": info.name, "lists": [_list_json(s) for s in lists]})
        titles = {d["date"]: d["title"] for d in self.model.matchdays()}
        return self.render(request, "verein.html", page="vereine", club=info, lists=lists, titles=titles,
                           heading=info.name)

    def liste(self, request: Request) -> Response:
        device, list_id = request.path_params["device"], request.path_params["list_id"]
        found = self.model.paper(device, list_id)
        if found is None:
            return self.render(request, "message.html", 404, title="Liste nicht gefunden",
                               text=f"Die Liste {list_id} von {device} ist in dieser Liga nicht bekannt.")
        paper, shown = found
        form = request.path_params.get("form", "")
        name = f"liste-{shown.club_id}-s{paper.series}-t{paper.table}"
        if form == "pdf":
            return _pdf(exports.list_pdf(paper), name)
        if form == "csv":
            return _csv(exports.list_csv(paper), name)
        if form == "json":  # the journal itself (member ids included) for the organiser only
            lines = ({"entries": [{"prev": e.prev, "hash": e.hash, "event": e.event}
                                  for e in self.league.events.entries(device, list_id)]}
                     if self.organiser(request) else {})
            return JSONResponse({**_list_json(shown), "head": paper.head, **lines})
        return self.render(request, "liste.html", page="vereine", paper=paper, shown=shown, device=device,
                           list_id=list_id, heading=f"{shown.item.club} · {shown.table_name}")

    # -- season --------------------------------------------------------------------------------

    def saison(self, request: Request) -> Response:
        rules, players, clubs = self.model.season()
        form = request.path_params.get("form", "")
        if form == "csv":
            return _csv(exports.season_csv(players), "saison")
        if form == "json":
            return JSONResponse({"rules": asdict(rules), "players": [_season_json(x) for x in players],
                                 "clubs": [_season_json(x) for x in clubs]})
        if form == "pdf":
            return _pdf(exports.season_pdf("Saisonwertung der Liga", players, rules), "saison")
        days = sorted(self.model.played_days())
        return self.render(request, "saison.html", page="saison", players=players, clubs=clubs, rules=rules,
                           matchdays=days, heading="Saison")

    # -- organiser -----------------------------------------------------------------------------

    async def verwaltung(self, request: Request) -> Response:
        if (refused := self.locked(request)) is not None:
            return refused
        error = ""
        if request.method == "POST":
            form = {k: str(v) for k, v in (await request.form()).items()}
            try:
                return flash.redirect("/verwaltung", await run_in_threadpool(self._act, form))
            except (ValueError, SyncRefused) as exc:
                error = exc.reason if isinstance(exc, SyncRefused) else str(exc)
        return await run_in_threadpool(self._verwaltung_page, request, "", error)

    def _act(self, form: dict[str, str]) -> str:
        action = form.get("aktion", "")
        if action == "code":
            name = form.get("verein", "").strip()
            code = new_club_code(self.league, name, now=self.clock())
            return f"Kopplungscode für {name}: {code[:3]} {code[3:]} (10 Minuten gültig, einmal)"
        if action == "spieltag":
            self.model.add_matchday(form.get("datum", "").strip(), form.get("titel", ""))
            return f"Spieltag {form.get('datum', '').strip()} gespeichert"
        if action == "regeln":
            try:
                rules = SeasonRules(int(form.get("mindestserien", "0")), int(form.get("streichwerte", "0")))
            except (ValueError, SeasonError):
                raise ValueError("Mindestserien und Streichwerte sind ganze Zahlen ab 0.") from None
            self.store.set_document("season_rules", asdict(rules))
            self.league.touch()
            return "Saisonregeln gespeichert"
        if action == "entkoppeln":
            if not self.league.unpair_club(form.get("verein", "")):
                raise ValueError("Dieser Verein ist nicht gekoppelt.")
            return "Verein entkoppelt: er muss sich neu koppeln"
        raise ValueError(f"unbekannte Aktion {action!r}")

    def _verwaltung_page(self, request: Request, notice: str, error: str) -> Response:
        names = self.model.club_names()
        rejects = self.league.rejects()
        tables = {t.device: t.name for t in self.league.events.tables()}
        return self.render(request, "verwaltung.html", 400 if error else 200, page="verwaltung",
                           clubs=self.league.clubs(), rejects=rejects, names=names, tables=tables, notice=notice, error=error,
                           matchdays=self.model.matchdays(), rules=self.model.season_rules(),
                           today=datetime.date.fromtimestamp(self.clock()).isoformat(), heading="Spielleitung")

    def routes(self) -> list[BaseRoute]:
        async def home(request: Request) -> Response:
            return RedirectResponse(self.START, status_code=303)

        threaded = self.cached
        return [
            Route("/", home),
            Route("/spieltag", threaded(self.spieltag)),
            Route("/spieltag.{form:str}", threaded(self.spieltag)),
            Route("/wertung", threaded(self.wertung)),
            Route("/wertung.{form:str}", threaded(self.wertung)),
            Route("/vereine", threaded(self.vereine)),
            Route("/vereine.json", threaded(self.vereine)),
            Route("/verein/{club}", threaded(self.verein)),
            Route("/verein/{club}/{form:str}", threaded(self.verein)),
            Route("/liste/{device}/{list_id}", threaded(self.liste)),
            Route("/liste/{device}/{list_id}/{form:str}", threaded(self.liste)),
            Route("/saison", threaded(self.saison)),
            Route("/saison.{form:str}", threaded(self.saison)),
            Route("/verwaltung", self.verwaltung, methods=["GET", "POST"]),
            Route("/anmelden", self.anmelden, methods=["GET", "POST"]),
            Route("/abmelden", self.abmelden, methods=["POST"]),
            Mount("/static", StaticFiles(directory=CLUB / "static"), name="static"),
        ]


def league_routes(store: LeagueStore) -> list[BaseRoute]:
    """The pages for :func:`drivers.league.app.create_league_app`, scoring new lists in the background."""
    pages = LeaguePages(store)
    pages.warm()
    return pages.routes()


def _list_json(shown: Shown) -> dict[str, Any]:
    item = shown.item
    return {"club": item.club, "club_id": shown.club_id, "device": item.device, "list_id": item.list_id,
            "table_name": shown.table_name, "matchday": item.matchday, "series": item.series, "table": item.table,
            "players": list(shown.players), "games": shown.games, "closed": shown.closed,
            "results": [asdict(r) for r in item.results]}


def _season_json(line: SeasonLine) -> dict[str, Any]:
    return {**asdict(line), "average": float(line.average)}


def _pdf(data: bytes, name: str) -> Response:
    return Response(data, media_type="application/pdf", headers={"content-disposition": f'inline; filename="{name}.pdf"'})
