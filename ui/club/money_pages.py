"""The Preisskat's pages on the laptop: the conditions (the announcement, public; the form, the
organiser's), the Kasse (organiser), the Preise (public once released) and the Abrechnung
(organiser; CSV and a PDF to print and sign). Each has its ``.json`` and ``.csv`` beside it;
what a page shows, the CSV and the PDF write from the same rows (:mod:`ui.club.money_view`).

Everything is kept per evening in the store's ``evening_money`` (through the store port, on
SQLite and PostgreSQL alike): "conditions", "kasse" ({"players": [late entries], "paid":
{player: {"startgeld", "extras", "other"}}}) and "released". Every POST answers with a
redirect (303) to the page; a refused form is shown again as typed, with the reason, and
nothing is stored.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from collections.abc import Callable
from typing import Any, Protocol

from markupsafe import Markup, escape
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from device.club.money import PASSED_IN_PAYERS, SCALES, TIES, Conditions, MoneyError, euro, parse_cents
from device.club.prizes import kasse
from ui.club import flash
from ui.club.money_form import conditions_from_form, form_from_conditions
from ui.club.money_view import (
    EveningMoney, Section, account_json, drawn_conditions, account_sections, condition_sections, kasse_json, kasse_sections,
    prize_sections, prizes_json, sections_csv, sections_pdf,
)
from ui.club.model import Evening
from drivers.club.store import CollectorStore

class Pages(Protocol):
    """What the money pages use of the club's :class:`ui.club.pages.Pages`: its login and rendering."""

    store: CollectorStore
    evening: Evening

    def organiser(self, request: Request) -> bool: ...
    def locked(self, request: Request) -> Response | None: ...
    def render(self, request: Request, template: str, status: int = 200, **context: Any) -> Response: ...


def _csv(text: str, name: str) -> Response:
    """A CSV download as the club's other pages give it (UTF-8 with its mark, for spreadsheets)."""
    return Response("\ufeff" + text, media_type="text/csv; charset=utf-8",
                    headers={"content-disposition": f'attachment; filename="{name}.csv"'})


MONEY_PARTS = ("conditions", "kasse", "released")
"""What the store keeps of an evening's money (``evening_money``), by part."""

ROUNDINGS = (("0", "nicht runden"), ("50", "0,50 €"), ("100", "1,00 €"), ("500", "5,00 €"), ("1000", "10,00 €"))


class MoneyPages:
    """The money pages over :class:`~ui.club.pages.Pages` (its login, rendering and read model)."""

    def __init__(self, pages: Pages) -> None:
        self.pages = pages
        self.evening = pages.evening
        self.store = pages.store
        self._lock = threading.Lock()  # the Kasse's ticks: read, change, write one at a time

    def _id(self) -> str:
        return self.evening.evening()["id"]

    def _shown(self) -> Callable[[str], str]:
        return self.evening.roster().shown

    # -- the conditions ------------------------------------------------------------------------

    def bedingungen(self, request: Request) -> Response:
        conditions = Conditions.from_json(self.store.money(self._id(), "conditions"))
        sections = condition_sections(conditions)
        form = request.path_params.get("form", "")
        if form == "json":
            data = conditions.to_json()
            if not self.pages.organiser(request):  # who is in which category or team: the organiser's
                data = public_conditions(data)
            return JSONResponse({"evening": self.evening.evening(), "cents": True, **data})
        if form == "csv":
            return _csv(sections_csv(sections), "bedingungen")
        links = [("CSV", "/bedingungen.csv"), ("JSON", "/bedingungen.json")]
        if self.pages.organiser(request):
            links.insert(0, ("Bedingungen ändern", "/bedingungen/bearbeiten"))
        return self.pages.render(request, "geld.html", heading="Ausschreibung: Bedingungen", sections=sections,
                                 links=links, forms=[], intro=conditions.note, page="bedingungen")

    async def bearbeiten(self, request: Request) -> Response:
        if (refused := self.pages.locked(request)) is not None:
            return refused
        if request.method == "GET":
            conditions = Conditions.from_json(self.store.money(self._id(), "conditions"))
            return self._form(request, form_from_conditions(conditions), "")
        fields = {k: str(v) for k, v in (await request.form()).items()}
        try:
            await run_in_threadpool(self._save_conditions, fields)
        except MoneyError as exc:
            return self._form(request, fields, str(exc), 400)
        return flash.redirect("/bedingungen", "Bedingungen gespeichert")

    def _save_conditions(self, fields: dict[str, str]) -> None:
        roster = self.evening.roster()
        conditions = conditions_from_form(fields, roster.person)
        evening_id = self._id()
        ledger = self.store.money(evening_id, "kasse") or {}
        results = self.evening.evening_results()
        registered = ledger.get("players", ())
        drawn = drawn_conditions(conditions, roster, (*(r.player for r in results), *registered))
        lines = kasse(drawn, results, registered=registered)
        if lines:  # the prizes against the pot of the players known now
            conditions.check_pot(sum(line.startgeld for line in lines))
        self.store.set_money(evening_id, "conditions", conditions.to_json())

    def _form(self, request: Request, fields: dict[str, str], error: str, status: int = 200) -> Response:
        return self.pages.render(request, "bedingungen_form.html", status, f=fields, error=error,
                                 payers=PASSED_IN_PAYERS, scales=SCALES, ties=TIES, roundings=ROUNDINGS,
                                 page="bedingungen")

    # -- the Kasse -----------------------------------------------------------------------------

    def kasse(self, request: Request) -> Response:
        if (refused := self.pages.locked(request)) is not None:
            return refused
        money = EveningMoney.read(self.evening)
        sections = kasse_sections(money)
        form = request.path_params.get("form", "")
        if form == "json":
            return JSONResponse(kasse_json(money))
        if form == "csv":
            return _csv(sections_csv(sections), "kasse")
        extras = {line.player: [name for name, fee, _ in line.extras if fee] for line in money.lines}
        paid = {line.player: (line.startgeld_paid, {n for n, _, ok in line.extras if ok}, line.open)
                for line in money.lines}

        def actions(player: str) -> Markup:
            ticked, extra_ok, open_ = paid[player]
            buttons = [_button("startgeld", player, "Startgeld ✓" if ticked else "Startgeld")]
            buttons += [_button("zusatz", player, f"{n} ✓" if n in extra_ok else n, wertung=n) for n in extras[player]]
            if open_ > 0:
                buttons.append(_button("rest", player, "Rest bezahlt", title=f"{euro(open_)} bezahlt"))
            return Markup(" ".join(buttons))

        names = "".join(f'<option>{escape(line.player)}</option>' for line in money.lines)
        below = Markup(
            '<form method="post" action="/kasse" class="kasse-form"><input type="hidden" name="aktion" value="betrag">'
            f'<label>Spieler <select name="spieler">{names}</select></label> '
            '<label>sonst bezahlt (gesamt) <input name="betrag" size="8"></label> <button>Eintragen</button></form>'
            '<form method="post" action="/kasse" class="kasse-form"><input type="hidden" name="aktion" value="nachmelden">'
            '<label>Spieler nachmelden <input name="name" size="20"></label> <button>Nachmelden</button></form>')
        return self.pages.render(request, "geld.html", heading="Kasse", sections=sections, actions=actions,
                                 links=[("CSV", "/kasse.csv"), ("JSON", "/kasse.json")], forms=[],
                                 intro="Abreizgeld und eingepasste Spiele kommen live aus den Listen der Tische; "
                                       "eine Korrektur am Tisch ändert sie sofort.",
                                 below=below, error=money.error, page="kasse")

    async def kasse_post(self, request: Request) -> Response:
        if (refused := self.pages.locked(request)) is not None:
            return refused
        fields = {k: str(v) for k, v in (await request.form()).items()}
        try:
            notice = await run_in_threadpool(self._kasse_action, fields)
        except MoneyError as exc:
            return self.pages.render(request, "message.html", 400, title="Nicht eingetragen", text=str(exc), page="kasse")
        return flash.redirect("/kasse", notice)

    def _kasse_action(self, fields: dict[str, str]) -> str:
        """One Kasse form taken; what to tell the organiser."""
        with self._lock:
            evening_id = self._id()
            ledger: dict[str, Any] = self.store.money(evening_id, "kasse") or {}
            players: list[str] = list(ledger.get("players", []))
            paid: dict[str, Any] = ledger.setdefault("paid", {})
            action = fields.get("aktion", "")
            if action == "nachmelden":
                name = self.evening.roster().person(" ".join(fields.get("name", "").split()))
                if not name:
                    raise MoneyError("Spieler nachmelden", "kein Name eingegeben")
                notice = f"{name} ist schon gemeldet" if name in players else f"{name} nachgemeldet"
                if name not in players:
                    players.append(name)
            else:
                player = fields.get("spieler", "")
                entry = paid.setdefault(player, {"startgeld": False, "extras": [], "other": 0})
                if action == "startgeld":
                    entry["startgeld"] = not entry.get("startgeld", False)
                    notice = f"{player}: Startgeld {'bezahlt' if entry['startgeld'] else 'nicht mehr als bezahlt markiert'}"
                elif action == "zusatz":
                    wertung = fields.get("wertung", "")
                    have = set(entry.get("extras", []))
                    entry["extras"] = sorted(have ^ {wertung})
                    notice = f"{player}: {wertung} {'bezahlt' if wertung in entry['extras'] else 'nicht mehr als bezahlt markiert'}"
                elif action == "rest":
                    line = next((x for x in EveningMoney.read(self.evening).lines if x.player == player), None)
                    rest = line.open if line is not None else 0
                    entry["other"] = int(entry.get("other", 0)) + rest
                    notice = f"{player}: {euro(rest)} bezahlt"
                elif action == "betrag":
                    entry["other"] = parse_cents(fields.get("betrag", ""), "sonst bezahlt", negative=False)
                    notice = f"{player}: sonst bezahlt {euro(entry['other'])}"
                else:
                    raise MoneyError("Kasse", f"unbekannte Aktion {action!r}")
            self.store.set_money(evening_id, "kasse", {**ledger, "players": players, "paid": paid})
            return notice

    # -- the prizes ------------------------------------------------------------------------------

    def preise(self, request: Request) -> Response:
        money = EveningMoney.read(self.evening)
        organiser = self.pages.organiser(request)
        if not organiser:
            money = money.public(self.evening.roster())
        if not money.released and not organiser:
            return self.pages.render(request, "message.html", 403, title="Preise noch nicht freigegeben",
                                     text="Die Spielleitung gibt die Preise nach der letzten Serie frei.",
                                     page="preise")
        # the public sees the names the roster allows; the organiser too (as on the Wertung page)
        shown = self._shown()
        sections = prize_sections(money, shown, organiser=organiser)
        form = request.path_params.get("form", "")
        if form == "json":
            return JSONResponse(prizes_json(money, shown, organiser=organiser))
        if form == "csv":
            return _csv(sections_csv(sections), "preise")
        forms = []
        if organiser:
            label = "Freigabe zurücknehmen" if money.released else "Preise öffentlich freigeben"
            forms.append(Markup('<form method="post" action="/preise" class="inline">'
                                f'<button class="primary" name="aktion" value="{"zurueck" if money.released else "frei"}">'
                                f'{label}</button></form>'))
        intro = "" if money.released else "Noch nicht freigegeben: nur die Spielleitung sieht diese Seite."
        return self.pages.render(request, "geld.html", heading="Preise", sections=sections, forms=forms,
                                 links=[("CSV", "/preise.csv"), ("JSON", "/preise.json")], intro=intro,
                                 error=money.error, page="preise")

    async def preise_post(self, request: Request) -> Response:
        if (refused := self.pages.locked(request)) is not None:
            return refused
        action = str((await request.form()).get("aktion", ""))
        await run_in_threadpool(self.store.set_money, self._id(), "released", action == "frei")
        return flash.redirect("/preise", "Preise öffentlich freigegeben" if action == "frei"
                              else "Freigabe zurückgenommen: nur die Spielleitung sieht die Preise")

    # -- the account ------------------------------------------------------------------------------

    def abrechnung(self, request: Request) -> Response:
        if (refused := self.pages.locked(request)) is not None:
            return refused
        money = EveningMoney.read(self.evening)
        sections = account_sections(money)
        form = request.path_params.get("form", "")
        title = f"Abrechnung {money.evening['title']}"
        if form == "json":
            return JSONResponse(account_json(money))
        if form == "csv":
            return _csv(sections_csv(sections), "abrechnung")
        if form == "pdf":
            pdf = sections_pdf(title, sections + _prize_list(money), signature=True)
            return Response(pdf, media_type="application/pdf",
                            headers={"content-disposition": 'inline; filename="abrechnung.pdf"'})
        return self.pages.render(request, "geld.html", heading=title, sections=sections, forms=[],
                                 links=[("PDF zum Unterschreiben", "/abrechnung.pdf"), ("CSV", "/abrechnung.csv"),
                                        ("JSON", "/abrechnung.json")],
                                 intro="Die Abrechnung nach SkWO 3.3: Einnahmen, Auszahlungen und was beim "
                                       "Veranstalter bleibt, auf den Cent.", error=money.error, page="abrechnung")

    def routes(self) -> list[BaseRoute]:
        def threaded(method: Any) -> Any:
            async def endpoint(request: Request) -> Response:
                response: Response = await run_in_threadpool(method, request)
                return response
            return endpoint

        return [
            Route("/bedingungen", threaded(self.bedingungen)),
            Route("/bedingungen.{form:str}", threaded(self.bedingungen)),
            Route("/bedingungen/bearbeiten", self.bearbeiten, methods=["GET", "POST"]),
            Route("/kasse", threaded(self.kasse)),
            Route("/kasse", self.kasse_post, methods=["POST"]),
            Route("/kasse.{form:str}", threaded(self.kasse)),
            Route("/preise", threaded(self.preise)),
            Route("/preise", self.preise_post, methods=["POST"]),
            Route("/preise.{form:str}", threaded(self.preise)),
            Route("/abrechnung", threaded(self.abrechnung)),
            Route("/abrechnung.{form:str}", threaded(self.abrechnung)),
        ]


def public_conditions(data: dict[str, Any]) -> dict[str, Any]:
    """The conditions as the public JSON gives them: without the players of categories and groups.

    >>> public_conditions({"categories": [{"name": "Jugend", "cents": 0, "players": ["Kurt"]}],
    ...                    "extras": [{"name": "Tandem", "groups": [["T1", ["Ingo", "Jana"]]]}]})
    {'categories': [{'name': 'Jugend', 'cents': 0, 'players': []}], 'extras': [{'name': 'Tandem', 'groups': [['T1', []]]}]}
    """
    return {**data, "categories": [{**c, "players": []} for c in data.get("categories", [])],
            "extras": [{**e, "groups": [[g, []] for g, _ in e.get("groups", [])]} for e in data.get("extras", [])]}


def _prize_list(money: EveningMoney) -> list[Section]:
    """The account's PDF lists each ranking's prize winners (full names: the organiser's paper)."""
    return [replace(section, title=f"Preise {section.title}", rows=tuple(row for row in section.rows if row[-1]))
            for section in prize_sections(money, str, organiser=True)]


def _button(action: str, player: str, label: str, *, title: str = "", **extra: str) -> str:
    hidden = "".join(f'<input type="hidden" name="{k}" value="{escape(v)}">' for k, v in extra.items())
    return (f'<form method="post" action="/kasse"><input type="hidden" name="aktion" value="{action}">'
            f'<input type="hidden" name="spieler" value="{escape(player)}">{hidden}'
            f'<button title="{escape(title or label)}">{escape(label)}</button></form>')


def money_routes(pages: Pages) -> list[BaseRoute]:
    """The money pages as routes beside the club's pages."""
    return MoneyPages(pages).routes()
