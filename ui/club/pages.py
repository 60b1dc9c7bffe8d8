"""The organiser's pages: routes to mount onto the collector (``create_app(store, routes=...)``).

Server-rendered (Jinja2), German, sized for a laptop and a 1920×1080 projector. Each live page
has a ``#live`` part; ``/live`` pushes a server-sent event whenever the store changes (a table
synced, the organiser acted) and the page fetches that part again (``?fragment=1``): no reload.
Every page has its JSON beside it where the data is tabular (``/wertung.json``, ``/abend.json``).
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import AsyncIterator, Sequence
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from device.club.ranking import RankLine
from device.club.seating import SeatingError, TableAssignment, random_draw, seeded_draw, swap
from device.club.roster import Roster
from device.club.season import SeasonRules
from device.scoring import DEFENCE_CREDIT
from drivers.club.app import CARD_ASSIGN, device_document_name
from drivers.club.store import CollectorStore
from drivers.league import forward as league
from drivers.sync import LaptopError
from ui.club import auth, exports, flash, members
from ui.club.money_pages import MONEY_PARTS, money_routes
from ui.club.model import QUIET_AFTER, STALE_AFTER, Evening
from ui.club.paper import PaperList

HERE = Path(__file__).parent
STREAM_SECONDS = 300.0  # an event stream ends after 5 minutes; the browser reconnects by itself
POLL_SECONDS = 0.4
CARD_SECONDS = 120  # "Karte zuordnen" waits this long for a card to be read at a table

_env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"]),
                   trim_blocks=True, lstrip_blocks=True)
_env.filters["avg"] = exports.average_text
_env.filters["zip"] = zip
TABLE_WORDS = {3: "Dreiertisch", 4: "Vierertisch", 5: "Fünfertisch"}


def series_tables(pairs: Sequence[tuple[int, int]]) -> list[tuple[int, str]]:
    """Where a player sat, by series: [(1, "2"), (2, "1")] (two lists in one series: "2, 3").

    >>> series_tables([(1, 2), (2, 1), (2, 3)])
    [(1, '2'), (2, '1, 3')]
    """
    per: dict[int, list[str]] = {}
    for series, table in pairs:
        per.setdefault(series, []).append(str(table))
    return [(series, ", ".join(tables)) for series, tables in sorted(per.items())]


_env.filters["series_tables"] = series_tables


def seat_text(series: int, table: int, players: list[str]) -> str:
    """What the table shows: 'Serie 2 · Tisch 3: Anna (Platz 1), Bernd, Carla, Dieter'.

    >>> seat_text(2, 3, ["Anna", "Bernd", "Carla"])
    'Serie 2 · Tisch 3: Anna (Platz 1), Bernd, Carla'
    """
    rest = "".join(f", {p}" for p in players[1:])
    return f"Serie {series} · Tisch {table}: {players[0]} (Platz 1){rest}"


class Pages:
    """The pages over one store; :meth:`routes` mounts them."""

    START = "/abend"  # where a visitor lands (after logging out too)
    ORGANISER_START = "/serie"  # where the organiser lands after logging in
    PASSWORD_COMMAND = "skattisch club password"  # sets the first password, on the laptop's console

    def __init__(self, store: CollectorStore, evening: Evening | None = None) -> None:
        self.store = store
        self.evening = evening or Evening(store)

    # -- helpers -----------------------------------------------------------------------------

    def organiser(self, request: Request) -> bool:
        return auth.valid_token(self.store.document("organiser"), request.cookies.get(auth.COOKIE))

    def render(self, request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        fragment = request.query_params.get("fragment") == "1"
        page = _env.get_template(template)
        context.update(request=request, organiser=self.organiser(request), evening=self.evening.evening(),
                       display=Shown(self.evening.roster()), fragment=fragment)
        if fragment and "live" in page.blocks:
            return HTMLResponse("".join(page.blocks["live"](page.new_context(context))), status_code=status)
        context["notice"] = context.get("notice") or flash.notice(request)  # what the form's redirect carried
        return flash.shown(request, HTMLResponse(page.render(**context), status_code=status))

    def locked(self, request: Request) -> Response | None:
        """The login page unless the organiser is logged in."""
        if self.organiser(request):
            return None
        return RedirectResponse(f"/anmelden?weiter={request.url.path}", status_code=303)

    # -- read-only pages -----------------------------------------------------------------------

    def abend(self, request: Request) -> Response:
        tiles = self.evening.tiles()
        if request.url.path.endswith(".json"):
            shown = self.evening.roster().shown
            return JSONResponse([{**_dc(t), "players": [shown(p) for p in t.players]} for t in tiles])
        return self.render(request, "abend.html", tiles=tiles, page="abend")

    def liste(self, request: Request) -> Response:
        device, list_id = request.path_params["device"], request.path_params["list_id"]
        paper = _shown_paper(self.evening.paper(device, list_id), self.evening.roster())
        if paper is None:
            return self.render(request, "message.html", 404, title="Liste nicht gefunden",
                               text=f"Die Liste {list_id} von {device} ist auf diesem Laptop nicht bekannt.")
        form = request.path_params.get("form", "")
        name = f"liste-s{paper.series}-t{paper.table}"
        if form == "pdf":
            return Response(exports.list_pdf(paper), media_type="application/pdf",
                            headers={"content-disposition": f'inline; filename="{name}.pdf"'})
        if form == "csv":
            return _csv(exports.list_csv(paper), name)
        template = "liste_druck.html" if form == "druck" else "liste.html"
        return self.render(request, template, paper=paper, device=device, list_id=list_id, page="liste")

    def wertung(self, request: Request) -> Response:
        per_series, total = _shown_ranking(self.evening.ranking(), self.evening.roster())
        title = f"Wertung {self.evening.evening()['title']}"
        form = request.path_params.get("form", "")
        if form == "csv":
            return _csv(exports.ranking_csv(total), "wertung")
        if form == "pdf":
            sections = [(f"Serie {s}", lines) for s, lines in per_series] + [("Gesamt", total)]
            return Response(exports.ranking_pdf(title, sections), media_type="application/pdf",
                            headers={"content-disposition": 'inline; filename="wertung.pdf"'})
        if form == "json":
            return JSONResponse({"series": {str(s): [_dc(x) for x in lines] for s, lines in per_series},
                                 "total": [_dc(x) for x in total]})
        sizes = self.evening.table_sizes() or sorted(DEFENCE_CREDIT)  # nothing played yet: every size
        credits = [(DEFENCE_CREDIT[n], TABLE_WORDS.get(n, f"{n}er-Tisch")) for n in sizes]
        return self.render(request, "wertung.html", per_series=per_series, total=total, credits=credits,
                           five=5 in sizes, page="wertung")

    def saison(self, request: Request) -> Response:
        lines, chart, evenings = self.evening.season()
        roster = self.evening.roster()
        numbers = request.query_params.get("mitgliedsnummern") == "ja"
        if numbers and (refused := self.locked(request)) is not None:  # member numbers: the organiser's
            return refused
        member_of = {line.player: (found.member if (found := roster.find(line.player)) else "") for line in lines}
        lines = tuple(replace(line, player=roster.shown(line.player)) for line in lines)
        chart = {roster.shown(player): values for player, values in chart.items()}
        rules = self.evening.season_rules()
        form = request.path_params.get("form", "")
        if form == "csv":
            if numbers:
                return _csv(exports.season_csv(lines, list(member_of.values())), "saison-mitglieder")
            return _csv(exports.season_csv(lines), "saison")
        if form == "pdf":
            return Response(exports.season_pdf("Saisonwertung", lines, rules), media_type="application/pdf",
                            headers={"content-disposition": 'inline; filename="saison.pdf"'})
        return self.render(request, "saison.html", lines=lines, chart=_chart_svg(chart, evenings), rules=rules,
                           evenings=evenings, page="saison")

    # -- organiser -----------------------------------------------------------------------------

    async def anmelden(self, request: Request) -> Response:
        """The organiser's login. The first password is never set here but on the server's console
        (:data:`PASSWORD_COMMAND`): behind a proxy no request can prove it comes from the machine."""
        doc = self.store.document("organiser")
        target = request.query_params.get("weiter", self.ORGANISER_START)
        if not target.startswith("/") or target.startswith("//"):
            target = self.ORGANISER_START
        shown = {"first": doc is None, "command": self.PASSWORD_COMMAND, "target": target, "page": ""}
        if request.method == "GET":
            return self.render(request, "anmelden.html", **shown)
        form = await request.form()
        if doc is None:
            return self.render(request, "anmelden.html", 403, **shown,
                               error=f"Noch kein Passwort: es wird am Rechner selbst festgelegt ({self.PASSWORD_COMMAND}).")
        if not await run_in_threadpool(auth.check_password, doc, str(form.get("passwort", ""))):
            return self.render(request, "anmelden.html", 403, **shown, error="Falsches Passwort.")
        response = RedirectResponse(target, status_code=303)
        response.set_cookie(auth.COOKIE, auth.session_token(doc), max_age=auth.SESSION_SECONDS, httponly=True,
                            samesite="strict", secure=request.url.scheme == "https")
        return response

    async def abmelden(self, request: Request) -> Response:
        response = RedirectResponse(self.START, status_code=303)
        response.delete_cookie(auth.COOKIE)
        return response

    async def serie(self, request: Request) -> Response:
        if (refused := self.locked(request)) is not None:
            return refused
        error = ""
        plan: dict[str, Any] = self.evening.doc("plan", {})
        if request.method == "POST":
            form = await request.form()
            try:
                plan = await run_in_threadpool(self._plan_action, plan, {k: str(v) for k, v in form.items()})
            except SeatingError as exc:
                error = str(exc)
            else:
                return RedirectResponse("/serie", status_code=303)
        per_series, total = self.evening.ranking()
        roster = self.evening.roster()
        order = [roster.short(line.player) for line in total] or [p.short for p in roster.people]
        numbers = self.evening.table_numbers()
        unpaired = [t for t, _ in enumerate(plan.get("tables", []), start=1) if t not in numbers.values()]
        return self.render(request, "serie.html", 400 if error else 200, plan=plan, order=order, error=error, unpaired=unpaired,
                           seed=secrets.randbelow(1_000_000), next_series=self._next_series_number(),
                           setzliste=[p.short for p in roster.people],
                           seat_text=seat_text, page="serie")

    def _next_series_number(self) -> int:
        evening = self.evening.evening()["id"]
        series = [m["series"] for m in self.evening.refresh().values() if m["evening"] == evening]
        return max(series, default=0) + 1

    def _plan_action(self, plan: dict[str, Any], form: dict[str, str]) -> dict[str, Any]:
        action = form.get("aktion", "")
        if action == "auslosen":
            names = [n.strip() for n in form.get("spieler", "").splitlines() if n.strip()]
            seed = int(form.get("seed", "0") or 0)
            method = form.get("art", "zufall")
            tables = seeded_draw(names, seed=seed) if method == "gesetzt" else random_draw(names, seed=seed)
            plan = {"series": self._next_series_number(), "method": method, "seed": seed,
                    "tables": [list(t.players) for t in tables], "released": False}
        elif action == "tauschen":
            tables = swap([TableAssignment(i, tuple(t)) for i, t in enumerate(plan.get("tables", []), start=1)],
                          form.get("a", ""), form.get("b", ""))
            plan = {**plan, "tables": [list(t.players) for t in tables], "released": False}
        elif action == "freigeben":
            if not plan.get("tables"):
                raise SeatingError("Erst auslosen, dann freigeben")
            self._release(plan)
            plan = {**plan, "released": True}
        elif action == "zuruecknehmen":
            for device in self.evening.table_numbers():
                self.store.set_document(device_document_name(device), None)
            plan = {**plan, "released": False}
        else:
            raise SeatingError(f"unbekannte Aktion {action!r}")
        self.store.set_document("plan", plan)
        return plan

    def _release(self, plan: dict[str, Any]) -> None:
        """Each paired table gets its players and seat order with its next sync (the ack)."""
        numbers = self.evening.table_numbers()
        tables = plan["tables"]
        roster = self.evening.roster()
        for device, number in numbers.items():
            players = tables[number - 1] if 0 < number <= len(tables) else None
            body = None if players is None else {
                "v": 1, "series": plan["series"], "table": number, "players": players,
                "text": seat_text(plan["series"], number, players)}
            if players is not None and body is not None and any(ids := roster.ids(players)):
                body["members"] = ids  # each player's member id ("" a guest): the list carries them
            self.store.set_document(device_document_name(device), body)

    async def spieler(self, request: Request) -> Response:
        """The members (organiser only: full names and member numbers): import, edit, merge, export."""
        if (refused := self.locked(request)) is not None:
            return refused
        roster = self.evening.roster()
        if request.url.path.endswith(".csv"):
            return _csv(members.members_csv(roster), "mitglieder")
        if request.method == "POST":
            form = await request.form()
            upload = form.get("datei")
            data = await upload.read() if upload is not None and not isinstance(upload, str) else None
            fields = {k: v for k, v in form.items() if isinstance(v, str)}
            if fields.get("aktion") == "karte_zuordnen":
                return self._assign_card(request, roster, fields.get("name", ""))
            try:
                changed, notice = await run_in_threadpool(members.apply_action, roster, fields, data)
            except members.MemberFormError as exc:
                return self._spieler_page(request, roster, 400, error=str(exc), form=fields)
            self.store.set_document("roster", changed.to_json())
            return flash.redirect("/spieler", notice)
        return self._spieler_page(request, roster, editing=request.query_params.get("bearbeiten", ""))

    def _assign_card(self, request: Request, roster: Roster, name: str) -> Response:
        """"Karte zuordnen": the next member card read at setup at any paired table is this person's."""
        person = roster.find(name)
        if person is None:
            return self._spieler_page(request, roster, 400, error=f"„{name}“ steht nicht in der Spielerliste")
        until = self.evening.clock() + CARD_SECONDS
        self.store.set_document(CARD_ASSIGN, {"id": person.id, "name": person.name, "until": until})
        self.store.set_document("card_assigned", None)
        return flash.redirect("/spieler", f"Karte für {person.name}: jetzt an einem Tisch auflegen "
                                          f"(vor dem Hinsetzen, {CARD_SECONDS // 60} Minuten lang)")

    def _spieler_page(self, request: Request, roster: Roster, status: int = 200, *, error: str = "",
                      notice: str = "", editing: str = "", form: dict[str, str] | None = None) -> Response:
        person = roster.find(editing) if editing else None
        pending = self.store.document(CARD_ASSIGN)
        waiting = pending["name"] if pending and float(pending.get("until", 0)) > self.evening.clock() else ""
        return self.render(request, "spieler.html", status, roster=roster.people, error=error, notice=notice,
                           person=person, form=form or {}, guests=self.evening.guests(roster), page="spieler",
                           waiting=waiting, assigned=self.store.document("card_assigned") or {})

    async def einstellungen(self, request: Request) -> Response:
        if (refused := self.locked(request)) is not None:
            return refused
        form = {k: str(v) for k, v in (await request.form()).items()}
        if form.get("aktion") == "neuer_abend":
            self.evening.start_evening(form.get("titel", ""))
            self.store.set_document("plan", {})
            return RedirectResponse("/abend", status_code=303)
        try:
            rules = SeasonRules(int(form.get("mindestserien", "0")), int(form.get("streichwerte", "0")))
        except ValueError:
            return self.render(request, "message.html", 400, title="Einstellungen",
                               text="Mindestserien und Streichwerte sind ganze Zahlen ab 0.")
        self.store.set_document("season_rules", {"minimum_series": rules.minimum_series,
                                                 "dropped_worst": rules.dropped_worst})
        return RedirectResponse("/saison", status_code=303)

    async def liga(self, request: Request) -> Response:
        """The league (organiser only): pair this laptop with the league's server, and how far
        each table's lists have been forwarded (the rest waits here until the league acknowledges it)."""
        if (refused := self.locked(request)) is not None:
            return refused
        error = ""
        if request.method == "POST":
            form = {k: str(v) for k, v in (await request.form()).items()}
            try:
                linked = await run_in_threadpool(league.pair_with_league, self.store, form.get("url", "").strip(),
                                                 form.get("code", "").replace(" ", ""),
                                                 name=getattr(request.app.state, "name", ""))
            except LaptopError as exc:
                error = f"Koppeln mit der Liga fehlgeschlagen: {exc}"
            else:
                return flash.redirect("/liga", f"Mit der Liga {linked.league or linked.url} gekoppelt; "
                                               "die Listen gehen jetzt dorthin.")
        return await run_in_threadpool(self._liga_page, request, error, "")

    def _liga_page(self, request: Request, error: str, notice: str) -> Response:
        linked = league.link(self.store)
        tables = [(t, self.store.document(league.cursor_name(t.device)) or 0) for t in self.store.tables()]
        status = self.store.document(league.STATUS) or {}
        return self.render(request, "liga.html", 400 if error else 200, linked=linked, tables=tables, error=error,
                           notice=notice, forwarding=status, page="liga")

    # -- live ----------------------------------------------------------------------------------

    def signature(self) -> str:
        """Changes whenever a page could look different: a table's events, contact age, documents,
        the evening's money (a tick at the Kasse in another browser shows on every open Kasse)."""
        now = self.evening.clock()
        parts = [(t.device, t.held, t.conflicts, t.last_contact is not None and now - t.last_contact > QUIET_AFTER,
                  t.last_contact is not None and now - t.last_contact > STALE_AFTER) for t in self.store.tables()]
        docs = [self.store.document(n) for n in ("plan", "roster", "season_rules", "evening", CARD_ASSIGN,
                                                 "card_assigned")]
        evening_id = self.evening.evening()["id"]  # the Kasse's ticks, the conditions, the prizes' release
        money = [self.store.money(evening_id, part) for part in MONEY_PARTS]
        return str(hash(json.dumps([parts, docs, money], sort_keys=True, default=str)))

    async def live(self, request: Request) -> Response:
        closing = getattr(request.app.state, "shutting_down", lambda: False)

        async def stream() -> AsyncIterator[str]:
            last = ""
            waited = 0.0
            yield "retry: 1000\n\n"
            while waited < STREAM_SECONDS:
                if closing() or await request.is_disconnected():
                    return
                now = await run_in_threadpool(self.signature)
                if now != last:
                    if last:
                        yield f"event: change\ndata: {now}\n\n"
                    last = now
                await asyncio.sleep(POLL_SECONDS)
                waited += POLL_SECONDS

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"cache-control": "no-cache", "x-accel-buffering": "no"})

    def routes(self) -> list[BaseRoute]:
        async def home(request: Request) -> Response:
            return RedirectResponse("/abend", status_code=303)

        sync = run_in_threadpool

        def threaded(method: Any) -> Any:
            async def endpoint(request: Request) -> Response:
                response: Response = await sync(method, request)
                return response
            return endpoint

        return [
            Route("/", home),
            Route("/abend", threaded(self.abend)),
            Route("/abend.json", threaded(self.abend)),
            Route("/liste/{device}/{list_id}", threaded(self.liste)),
            Route("/liste/{device}/{list_id}/{form:str}", threaded(self.liste)),
            Route("/wertung", threaded(self.wertung)),
            Route("/wertung.{form:str}", threaded(self.wertung)),
            Route("/saison", threaded(self.saison)),
            Route("/saison.{form:str}", threaded(self.saison)),
            Route("/serie", self.serie, methods=["GET", "POST"]),
            Route("/spieler", self.spieler, methods=["GET", "POST"]),
            Route("/spieler.csv", self.spieler),
            Route("/einstellungen", self.einstellungen, methods=["POST"]),
            Route("/liga", self.liga, methods=["GET", "POST"]),
            Route("/anmelden", self.anmelden, methods=["GET", "POST"]),
            Route("/abmelden", self.abmelden, methods=["POST"]),
            Route("/live", self.live),
            Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
        ]


def club_routes(store: CollectorStore, evening: Evening | None = None) -> list[BaseRoute]:
    """The pages as routes for :func:`drivers.club.app.create_app` (the Preisskat's money beside them)."""
    pages = Pages(store, evening)
    return pages.routes() + money_routes(pages)


class Shown:
    """The templates' ``display.get(name, name)``: the one name the roster gives a list's name."""

    def __init__(self, roster: Roster) -> None:
        self.roster = roster

    def get(self, name: str, default: str | None = None) -> str:
        return self.roster.shown(name)


def _shown_ranking(ranked: tuple[list[tuple[int, tuple[RankLine, ...]]], tuple[RankLine, ...]], roster: Roster
                   ) -> tuple[list[tuple[int, tuple[RankLine, ...]]], tuple[RankLine, ...]]:
    """The evening's ranking with the names the public may see (pages, JSON, CSV and PDF alike)."""
    def lines(ranking: tuple[RankLine, ...]) -> tuple[RankLine, ...]:
        return tuple(replace(line, player=roster.shown(line.player)) for line in ranking)

    per_series, total = ranked
    return [(series, lines(ranking)) for series, ranking in per_series], lines(total)


def _shown_paper(paper: PaperList | None, roster: Roster) -> PaperList | None:
    """A table's list with the roster's names (the page, print view, CSV and PDF alike)."""
    if paper is None:
        return None
    shown = roster.shown
    rows = tuple(replace(r, dealer=shown(r.dealer) if r.dealer else r.dealer,
                         declarer=shown(r.declarer) if r.declarer else r.declarer) for r in paper.rows)
    return replace(paper, players=tuple(shown(p) for p in paper.players), rows=rows,
                   confirmed=tuple(shown(p) for p in paper.confirmed))


def _dc(value: Any) -> dict[str, Any]:
    return asdict(value)


def _csv(text: str, name: str) -> Response:
    return Response("\ufeff" + text, media_type="text/csv; charset=utf-8",
                    headers={"content-disposition": f'attachment; filename="{name}.csv"'})


def _chart_svg(chart: dict[str, list[int]], evenings: list[str]) -> str:
    """Each player's running total over the season as an inline SVG line chart (from 0)."""
    if not chart or not evenings:
        return ""
    width, height, pad = 1200, 440, 50
    series = {p: [0, *values] for p, values in chart.items()}
    # room at the right for the longest label ("Hans-Joachim Müller 1609" at 15 px: at most
    # 0.65 em a character in DejaVu Sans), so that no name is cut at the chart's edge
    right = 20 + max(round(len(f"{p} {line[-1]}") * 15 * 0.65) for p, line in series.items())
    height = max(height, 2 * pad + 17 * len(series))  # the labels stack 17 px apart
    values = [v for line in series.values() for v in line]
    low, high = min(values), max(values)
    span = (high - low) or 1
    step = (width - pad - right) / len(evenings)

    def y_of(v: int) -> float:
        return height - pad - (v - low) / span * (height - 2 * pad)

    colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#7f7f7f",
               "#bcbd22"]
    parts = [f'<svg viewBox="0 0 {width} {height}" role="img" aria-label="Saisonverlauf" class="chart">',
             f'<line x1="{pad}" y1="{y_of(0):.1f}" x2="{width - right}" y2="{y_of(0):.1f}" class="axis"/>']
    for i, evening in enumerate(["Start", *evenings]):
        parts.append(f'<text x="{pad + i * step:.1f}" y="{height - 12}" font-size="13" text-anchor="middle" '
                     f'fill="#555">{_escape(evening[5:] if i else evening)}</text>')
    ranked = sorted(series, key=lambda p: -series[p][-1])
    label_y = _spread([y_of(series[p][-1]) for p in ranked], gap=17, low=15, high=height - 30)
    for n, player in enumerate(ranked):
        colour = colours[n % len(colours)]
        points = [(pad + i * step, y_of(v)) for i, v in enumerate(series[player])]
        parts.append(f'<polyline points="{" ".join(f"{x:.1f},{y:.1f}" for x, y in points)}" fill="none" '
                     f'stroke="{colour}" stroke-width="3"/>')
        parts.extend(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="{colour}"/>' for x, y in points[1:])
        parts.append(f'<text x="{points[-1][0] + 10:.1f}" y="{label_y[n] + 5:.1f}" fill="{colour}" font-size="15">'
                     f'{_escape(player)} {series[player][-1]}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _spread(wanted: Sequence[float], *, gap: float, low: float, high: float) -> list[float]:
    """Label heights near ``wanted`` (top to bottom) at least ``gap`` apart, between ``low`` and ``high``.

    >>> _spread([100, 100, 395], gap=17, low=15, high=400)
    [100, 117, 395]
    >>> _spread([390, 395, 398], gap=17, low=15, high=400)
    [366, 383, 400]
    """
    ys = list(wanted)
    for i in range(len(ys)):  # down: never closer than the gap to the one above
        ys[i] = max(ys[i], ys[i - 1] + gap) if i else max(ys[i], low)
    for i in reversed(range(len(ys))):  # up again: never below the chart's foot
        ys[i] = min(ys[i], ys[i + 1] - gap) if i + 1 < len(ys) else min(ys[i], high)
    return ys


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
