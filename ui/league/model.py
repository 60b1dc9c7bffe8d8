"""The league as its pages see it, read from the league's store.

Each list is folded with the table's own code (``device.table.state.apply``) and scored with
the club's (:func:`device.club.ranking.list_results`). Where it belongs comes from what its
club said when forwarding it (the club's evening, series and table number: the store's
``list_meta``); the league's organiser decides which dates are match days (``matchdays``)
and the season's rules (``season_rules``, as the club's: minimum series and Streichwerte).

A list is folded once per change: its summary (players, games, each player's figures) is
kept in the store at the count of events it was made for (``list_summaries``), so a restart
folds nothing again, and :meth:`LeagueModel.lists` is kept until anything changes
(:meth:`LeagueModel.version`). Documents:

    matchdays     [{"date": "2026-11-26", "title": "1. Spieltag"}], in date order
    season_rules  {"minimum_series", "dropped_worst"}
    organiser     the league organiser's password (ui.club.auth)
    season_lines  the season's lines (players, clubs) at the generation they were made for
"""

from __future__ import annotations

import datetime
import re
import threading
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from device.club.ranking import ListResult, PlayedList, list_results
from device.club.season import SeasonLine, SeasonRules
from device.league.standings import LeagueList, club_season, player_season
from device.table.events import Event
from device.table.state import StateError, TableState, apply
from drivers.club.store import ListInfo
from drivers.league.store import LeagueStore, ListMeta
from ui.club.paper import PaperList, paper_list
from ui.league.names import LeagueNames, renamed_paper

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass(frozen=True, slots=True)
class Shown:
    """A list on the pages: the club's name, the table's, and where it counts."""

    item: LeagueList
    club_id: str
    table_name: str
    players: tuple[str, ...]
    games: int
    closed: bool
    over: bool  # the series ended (not yet confirmed by every player)
    error: str


@dataclass
class _Folded:
    count: int
    state: TableState
    error: str = ""


class LeagueModel:
    """The pages' read model over a :class:`LeagueStore` (thread-safe)."""

    def __init__(self, store: LeagueStore) -> None:
        self.store = store
        self._lock = threading.RLock()
        self._folded: dict[tuple[str, str], _Folded] = {}  # lists still being played (played-out ones are dropped)
        self._version = ""
        self._lists: list[Shown] = []
        self._kept: dict[tuple[str, str], tuple[int, dict[str, Any]]] | None = None  # the store's summaries
        self._days: dict[str, tuple[str, list[Shown]]] = {}  # match days read alone, before every list was read
        self._day_lock = threading.Lock()
        self._made: dict[tuple[str, str], tuple[tuple[Any, ...], Shown | None]] = {}  # what each Shown was made of
        self._context: tuple[Any, ...] = ()
        self._season_lock = threading.Lock()
        self._season: tuple[tuple[str, SeasonRules], Season] | None = None
        self._pseudonyms: dict[tuple[str, str], int] = {}  # "Spieler N" of each (club, person), as kept

    def names(self, people: dict[tuple[str, str], tuple[str, str | None]],
              seats: list[tuple[str, dict[str, Any]]]) -> LeagueNames:
        """The shown names for the lists' ``seats`` ((club id, summary) each): a pseudonym made for
        every member the league may not name (kept in the store: the same N ever after)."""
        wanted = LeagueNames.unnamed(people, ((club, str(m)) for club, summary in seats
                                              for m in (summary.get("members") or {}).values()))
        if wanted - self._pseudonyms.keys():
            self._pseudonyms = self.store.pseudonyms(wanted | self._pseudonyms.keys())
        return LeagueNames(people, self._pseudonyms)

    def doc(self, name: str, default: Any) -> Any:
        value = self.store.events.document(name)
        return default if value is None else value

    def version(self) -> str:
        """Changes whenever a page could look different (the store's generation)."""
        return str(self.store.generation())

    def matchdays(self) -> list[dict[str, str]]:
        return sorted(self.doc("matchdays", []), key=lambda m: m["date"])

    def add_matchday(self, date: str, title: str) -> None:
        try:
            datetime.date.fromisoformat(date)
        except ValueError:
            raise ValueError(f"„{date}“ ist kein Datum (JJJJ-MM-TT)") from None
        days = [m for m in self.matchdays() if m["date"] != date]
        days.append({"date": date, "title": title.strip() or f"Spieltag {date}"})
        self.store.events.set_document("matchdays", sorted(days, key=lambda m: m["date"]))
        self.store.touch()

    def season_rules(self) -> SeasonRules:
        raw = self.doc("season_rules", {})
        return SeasonRules(int(raw.get("minimum_series", 0)), int(raw.get("dropped_worst", 0)))

    def club_names(self) -> dict[str, str]:
        return {c.club: c.name for c in self.store.clubs()}

    def _fold(self, device: str, list_id: str, count: int) -> _Folded:
        folded = self._folded.setdefault((device, list_id), _Folded(0, TableState()))
        if folded.count < count:
            for raw in self.store.events.events(device, list_id)[folded.count:]:
                try:
                    folded.state = apply(folded.state, Event.from_json(raw))
                except (StateError, ValueError) as exc:
                    folded.error = str(exc)
                folded.count += 1
        return folded

    def _summary(self, info: ListInfo) -> dict[str, Any]:
        """A list as the pages need it, folded from its events (then kept in the store)."""
        folded = self._fold(info.device, info.list_id, info.count)
        state = folded.state
        if state.closed or state.series_over:  # played out: its summary is kept, not its state (the
            del self._folded[(info.device, info.list_id)]  # signatures still to come fold it once more)
        if state.setup is None:
            return {"opened": False}
        results = list_results(PlayedList(1, 0, state.setup.players, state.rows))
        return {"opened": True, "seating": list(state.seating), "games": len(state.rows), "closed": state.closed,
                "over": state.series_over, "error": folded.error, "members": dict(state.members),
                "results": [[r.player, r.points, r.won, r.lost, r.leistung] for r in results]}

    def lists(self) -> list[Shown]:
        """Every list the league holds, with its club, match day and results."""
        with self._lock:
            version = self.version()
            if version == self._version:
                return self._lists
            if self._kept is None:  # read once; afterwards only the lists that grew are folded and written
                self._kept = self.store.summaries()
            kept = self._kept
            fresh: dict[tuple[str, str], tuple[int, dict[str, Any]]] = {}
            meta = self.store.list_meta()
            days = {m["date"] for m in self.matchdays()}
            names = self.club_names()
            owners = self.store.club_tables()
            tables = {t.device: t.name for t in self.store.events.tables()}
            people = self.store.people()
            context = (days, names, people)
            made = self._made if context == self._context else {}  # a list's Shown again while nothing of it changed
            now_made: dict[tuple[str, str], tuple[tuple[Any, ...], Shown | None]] = {}
            out: list[Shown] = []
            for info in self.store.events.lists():
                key = (info.device, info.list_id)
                inputs = (info, meta.get(key), owners.get(info.device), tables.get(info.device))
                before = made.get(key)
                if before is not None and before[0] == inputs:
                    now_made[key] = before
                else:
                    count, summary = kept.get(key, (-1, {}))
                    if count != info.count or (summary.get("opened") and "members" not in summary):
                        summary = self._summary(info)  # (kept before the lists' member ids were: once more)
                        fresh[key] = (info.count, summary)
                    club = _club_of(info, meta.get(key), owners)
                    shown = (_shown(info, summary, meta.get(key), owners, names, tables, days,
                                    self.names(people, [(club, summary)])) if summary["opened"] else None)
                    now_made[key] = (inputs, shown)
                made_now = now_made[key][1]
                if made_now is not None:
                    out.append(made_now)
            self.store.keep_summaries(fresh)
            kept.update(fresh)
            self._made, self._context = now_made, context
            self._version, self._lists = version, out
            return out

    def season(self) -> Season:
        """The season's rules, its players' and its clubs' lines over every list (kept until anything
        changes; the background makes them after each change, so a reader seldom waits for them).
        Also kept in the store (the document ``season_lines``, at the generation they were made
        for), so after a restart the season page reads them back instead of every list."""
        with self._season_lock:
            version, rules = self.version(), self.season_rules()
            if self._season is not None and self._season[0] == (version, rules):
                return self._season[1]
            value = _season_from_doc(self.doc(SEASON_DOC, {}), version, rules)
            if value is None:
                items = [s.item for s in self.lists()]
                version = self._version  # what the lists were read at
                value = (rules, player_season(items, rules), club_season(items, rules))
                self.store.events.set_document(SEASON_DOC, _season_doc(version, value))
            self._season = ((version, rules), value)
            return value

    @property
    def read_every_list(self) -> bool:
        """Whether :meth:`lists` was made once (after the server's start: by the background)."""
        return bool(self._version)

    def matchday_lists(self, date: str) -> list[Shown]:
        """The lists of the match day ``date``. Once every list was read (:meth:`lists`) from there;
        before (the first requests after the server's start, while the background reads every
        list back) only that day's kept summaries are read, if each is current: without waiting
        for the background (its own lock)."""
        if not self.read_every_list and date:
            with self._day_lock:
                version = self.version()
                hit = self._days.get(date)
                if hit is not None and hit[0] == version:
                    return list(hit[1])
                rows = self.store.day_lists(date)
                if rows is not None and all("members" in r.summary for r in rows if r.summary["opened"]):
                    names, owners = self.club_names(), self.store.club_tables()
                    tables = {t.device: t.name for t in self.store.events.tables()}
                    days = {m["date"] for m in self.matchdays()}
                    who = self.names(self.store.people(), [(r.meta.club, r.summary) for r in rows])
                    shown = (_shown(r.info, r.summary, r.meta, owners, names, tables, days, who) for r in rows
                             if r.summary["opened"])
                    out = [s for s in shown if s.item.matchday == date]
                    self._days[date] = (version, out)
                    return list(out)
        return [s for s in self.lists() if date and s.item.matchday == date]

    def played_days(self) -> set[str]:
        """The match days that have a list (before every list was read: from the kept summaries)."""
        if not self.read_every_list:
            days = self.store.summarised_days()
            if days is not None:
                return days & {m["date"] for m in self.matchdays()}
        return {s.item.matchday for s in self.lists()} - {""}

    def paper(self, device: str, list_id: str) -> tuple[PaperList, Shown] | None:
        with self._lock:
            shown = next((s for s in self.lists() if s.item.device == device and s.item.list_id == list_id), None)
            info = next((i for i in self.store.events.lists(device) if i.list_id == list_id), None)
            if shown is None or info is None:
                return None
            state = self._fold(device, list_id, info.count).state
            if state.closed or state.series_over:
                del self._folded[(device, list_id)]
            paper = paper_list(state, table=shown.item.table, series=shown.item.series, head=info.head)
            members = dict(state.members)
            who = self.names(self.store.people(), [(shown.club_id, {"members": members})])
            return renamed_paper(paper, who.of_list(shown.club_id, members)), shown


SEASON_DOC = "season_lines"

Season = tuple[SeasonRules, tuple[SeasonLine, ...], tuple[SeasonLine, ...]]


def _line_json(line: SeasonLine) -> list[Any]:
    return [line.rank, line.player, line.series, line.points, line.leistung, line.won, line.lost, line.counted,
            [line.average.numerator, line.average.denominator], list(line.dropped), line.by_lot]


def _line_of(raw: list[Any]) -> SeasonLine:
    rank, player, series, points, leistung, won, lost, counted, (num, den), dropped, by_lot = raw
    return SeasonLine(rank, player, series, points, leistung, won, lost, counted, Fraction(num, den),
                      tuple(dropped), by_lot)


def _season_doc(version: str, season: Season) -> dict[str, Any]:
    rules, players, clubs = season
    return {"generation": version, "rules": [rules.minimum_series, rules.dropped_worst],
            "players": [_line_json(x) for x in players], "clubs": [_line_json(x) for x in clubs]}


def _season_from_doc(doc: Any, version: str, rules: SeasonRules) -> Season | None:
    """The season's lines as kept in the store, if made at ``version`` with ``rules``."""
    if not isinstance(doc, dict) or doc.get("generation") != version or doc.get("rules") != [
            rules.minimum_series, rules.dropped_worst]:
        return None
    return rules, tuple(_line_of(x) for x in doc["players"]), tuple(_line_of(x) for x in doc["clubs"])


def _club_of(info: ListInfo, meta: ListMeta | None, owners: dict[str, str]) -> str:
    return meta.club if meta is not None else owners.get(info.device, "")


def _shown(info: ListInfo, summary: dict[str, Any], meta: ListMeta | None, owners: dict[str, str],
           names: dict[str, str], tables: dict[str, str], days: set[str], who: LeagueNames) -> Shown:
    """A list as the pages show it: each player under the one name the club lets the league show."""
    club = _club_of(info, meta, owners)
    date = meta.evening[:10] if meta is not None else ""
    matchday = date if _DATE.fullmatch(date) and date in days else ""
    series, table = (meta.series or 1, meta.table) if meta is not None else (1, 0)
    shown = who.of_list(club, {p: str(m) for p, m in (summary.get("members") or {}).items()})
    results = tuple(ListResult(shown.get(p, p), series, table, pts, won, lost, lei)
                    for p, pts, won, lost, lei in summary["results"])
    return Shown(LeagueList(names.get(club, club), info.device, info.list_id, matchday, series, table, results),
                 club, tables.get(info.device, info.device), tuple(shown.get(p, p) for p in summary["seating"]),
                 summary["games"], summary["closed"], summary["over"], summary["error"])
