"""The evening as the pages see it, read from the collector's store.

:class:`Evening` folds each list's events with the table's own code (``device.table.replay``,
event by event, so a list that grows by one card costs one event) and keeps, per list, which
evening, series and table it belongs to. The organiser's data lives in the store's documents
(the same table that carries the roster and the next series to the tables with each ack):

    evening          {"id", "title"}: the evening in progress (today's date by default)
    list_meta        {"device/list_id": {"evening", "series", "table"}}: where each list belongs
    season_results   {"device/list_id": {"evening", "series", "table", "results": [[player, points, won, lost, leistung]],
                      "passed": {player: [as one of the three, as dealer, at the table]} (eingepasste games),
                      "members"?: {player: member id}}} (the ids the list carries, if any)
    roster           [{"name", "short", "publish", "member"?, "card"?, "aliases"?}] (device.club.roster);
                     the tables get the short names and card ids only (the sync's ack)
    plan             the next series being prepared: {"series", "method", "seed", "tables": [[names]], "released"}
    next_series:DEV  what table DEV gets with its next ack (drivers.club.app.device_document_name)
    season_rules     {"minimum_series", "dropped_worst"}
    organiser        {"salt", "hash", "key"}: the organiser's password (scrypt) and the cookie key

A list's series is the number of lists its table had opened before in the same evening, plus
one; its table number is the first number in the table's name ("Tisch 3"), else its place.
"""

from __future__ import annotations

import datetime
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from device.club.money import Conditions, euro, series_money
from device.club.prizes import PassedCounts, passed_counts
from device.club.ranking import ListResult, PlayedList, RankLine, list_results, ranking, series_ranking
from device.club.roster import Roster
from device.club.season import SeasonLine, SeasonRules, SeriesResult, season_chart, season_ranking
from device.table.events import Event
from device.table.state import StateError, TableState, apply
from drivers.club.store import CollectorStore, ListInfo, TableInfo
from drivers.version import skattisch_version
from ui.club.paper import PaperList, in_progress, paper_list

_TABLE_NAME = re.compile(r"(?:tisch|table)\s*(\d+)|^\s*(\d+)\s*$", re.IGNORECASE)
STALE_AFTER = 120.0
"""Seconds without contact after which a table's tile turns red (2 minutes)."""
QUIET_AFTER = 45.0
"""Seconds without contact after which the tile turns amber: a syncing table sends each entry at
once and asks again at least every 30 s when idle, so silence longer than that means its
events are probably waiting (the laptop cannot see the table's journal, only its contacts)."""


@dataclass(frozen=True, slots=True)
class Tile:
    """One table on the Abend page."""

    device: str
    list_id: str | None
    table: int
    name: str
    players: tuple[str, ...]
    game: int
    series_length: int | None
    in_progress: str
    status: str  # "green", "amber", "red"
    status_text: str
    last_entry: str
    series: int
    version: str = ""  # "Version 0.1.0", "andere Version: 0.0.9 (Laptop: 0.1.0)", "Version unbekannt" (empty: no contact)
    other_version: bool = False  # the table runs another version than the laptop


@dataclass
class _Folded:
    count: int
    state: TableState
    error: str = ""
    scored: int = -1  # the count at which ``results`` were computed (a list is scored once per change)
    results: list[list[Any]] | None = None


def list_key(device: str, list_id: str) -> str:
    return f"{device}/{list_id}"


def table_number(info: TableInfo, place: int) -> int:
    """The number in the table's name ("Tisch 3", "table 3", "3" → 3), else its place (1-based).

    >>> table_number(TableInfo("d", "Tisch 12", True, 0.0, None, 0, 0), 1)
    12
    >>> table_number(TableInfo("d", "3f2a-9c", True, 0.0, None, 0, 0), 4)
    4
    """
    found = _TABLE_NAME.search(info.name)
    return int(found.group(1) or found.group(2)) if found else place


class Evening:
    """The pages' read model over a :class:`CollectorStore` (thread-safe)."""

    def __init__(self, store: CollectorStore, *, clock: Callable[[], float] = time.time,
                 laptop_version: str | None = None) -> None:
        self.store = store
        self.clock = clock
        self.laptop_version = laptop_version or skattisch_version()  # what the tables' versions are compared with
        self._lock = threading.RLock()
        self._folded: dict[str, _Folded] = {}

    # -- documents ---------------------------------------------------------------------------

    def doc(self, name: str, default: Any) -> Any:
        value = self.store.document(name)
        return default if value is None else value

    def roster(self) -> Roster:
        """The club's members (the ``roster`` document): whom each list's name means."""
        return Roster.from_json(self.store.document("roster"))

    def evening(self) -> dict[str, str]:
        current = self.store.document("evening")
        if current is None:
            today = datetime.date.fromtimestamp(self.clock()).isoformat()
            current = {"id": today, "title": f"Abend {today}"}
            self.store.set_document("evening", current)
        return dict(current)

    def start_evening(self, title: str) -> dict[str, str]:
        """A new evening: lists from now on belong to it (series counted from 1 again)."""
        today = datetime.date.fromtimestamp(self.clock()).isoformat()
        known = {m["evening"] for m in self.doc("list_meta", {}).values()}
        ident = today
        n = 2
        while ident in known:
            ident = f"{today}-{n}"
            n += 1
        current = {"id": ident, "title": title.strip() or f"Abend {ident}"}
        self.store.set_document("evening", current)
        return current

    def table_numbers(self) -> dict[str, int]:
        return {t.device: table_number(t, place) for place, t in enumerate(self.store.tables(), start=1)}

    # -- folding -----------------------------------------------------------------------------

    def list_meta(self) -> dict[str, dict[str, Any]]:
        """Every list's meta, assigning new lists to the evening in progress (nothing folded)."""
        with self._lock:
            meta: dict[str, dict[str, Any]] = self.doc("list_meta", {})
            lists = self.store.lists()
            if all(list_key(info.device, info.list_id) in meta for info in lists):
                return meta
            evening = self.evening()["id"]
            numbers = self.table_numbers()
            for info in lists:
                key = list_key(info.device, info.list_id)
                if key not in meta:
                    before = sum(1 for k, m in meta.items() if k.startswith(info.device + "/") and m["evening"] == evening)
                    meta[key] = {"evening": evening, "series": before + 1, "table": numbers.get(info.device, 0)}
            self.store.set_document("list_meta", meta)
            return meta

    def refresh(self) -> dict[str, dict[str, Any]]:
        """Fold what arrived since the last call; give every list's meta (assigning new ones)."""
        with self._lock:
            meta = self.list_meta()
            changed_results = False
            results: dict[str, Any] = self.doc("season_results", {})
            for info in self.store.lists():
                key = list_key(info.device, info.list_id)
                stored = results.get(key)
                if stored is not None and stored.get("count") == info.count and "passed" in stored:
                    continue  # scored at this length already (after a restart: no need to fold the season again)
                folded = self._fold(info.device, info.list_id, info.count)
                if folded.state.setup is None:
                    continue
                m = meta[key]
                if folded.scored != folded.count or folded.results is None:
                    folded.results = [[r.player, r.points, r.won, r.lost, r.leistung]
                                      for r in self._results(key, folded, m)]
                    folded.scored = folded.count
                results[key] = {"evening": m["evening"], "series": m["series"], "table": m["table"],
                                "count": info.count, "results": folded.results,
                                "passed": {c.player: [c.active, c.dealer, c.at_table] for c in passed_counts(
                                    PlayedList(m["series"], m["table"], folded.state.setup.players, folded.state.rows))
                                    if c.at_table}}
                if folded.state.members:  # whom each name means, by the roster's member id
                    results[key]["members"] = dict(folded.state.members)
                changed_results = True
            if changed_results:
                self.store.set_document("season_results", results)
            return meta

    def _fold(self, device: str, list_id: str, count: int) -> _Folded:
        key = list_key(device, list_id)
        folded = self._folded.get(key)
        if folded is None:
            folded = self._folded[key] = _Folded(0, TableState())
        if folded.count < count:
            events = self.store.events(device, list_id)
            for raw in events[folded.count:]:
                try:
                    folded.state = apply(folded.state, Event.from_json(raw))
                except (StateError, ValueError) as exc:  # shown on the tile, the rest still counts
                    folded.error = str(exc)
                folded.count += 1
        return folded

    def _results(self, key: str, folded: _Folded, meta: dict[str, Any]) -> tuple[ListResult, ...]:
        seating = folded.state.setup.players if folded.state.setup is not None else ()
        return list_results(PlayedList(meta["series"], meta["table"], seating, folded.state.rows))

    # -- pages -------------------------------------------------------------------------------

    def tiles(self) -> list[Tile]:
        with self._lock:
            meta = self.refresh()
            now = self.clock()
            numbers = self.table_numbers()
            newest: dict[str, ListInfo] = {}
            for listed in self.store.lists():
                newest[listed.device] = listed  # ordered by first seq: the last is the newest
            tiles = []
            shown = self.roster().shown
            for info in self.store.tables():
                latest = newest.get(info.device)
                list_id = latest.list_id if latest is not None else None
                folded = self._fold(info.device, latest.list_id, latest.count) if latest is not None else None
                state = folded.state if folded is not None else TableState()
                status, text = _sync_status(info, now, folded.error if folded else "")
                last = state.rows[-1] if state.rows else None
                version, other = version_words(info.app_version, self.laptop_version,
                                               contacted=info.last_contact is not None)
                tiles.append(Tile(
                    device=info.device, list_id=list_id, table=numbers[info.device], name=info.name,
                    players=state.seating, game=len(state.rows),
                    series_length=state.setup.series_length if state.setup else None,
                    in_progress=in_progress(state, shown), status=status, status_text=text,
                    last_entry=_row_words(last, shown) if last is not None else "",
                    series=meta.get(list_key(info.device, list_id), {}).get("series", 0) if list_id else 0,
                    version=version, other_version=other))
            return sorted(tiles, key=lambda t: (t.table, t.name))

    def paper(self, device: str, list_id: str) -> PaperList | None:
        with self._lock:
            meta = self.refresh().get(list_key(device, list_id))
            info = next((i for i in self.store.lists(device) if i.list_id == list_id), None)
            if meta is None or info is None:
                return None
            folded = self._fold(device, list_id, info.count)
            if folded.state.setup is None:
                return None
            paper = paper_list(folded.state, table=meta["table"], series=meta["series"], head=info.head)
            return replace(paper, in_progress=in_progress(folded.state, self.roster().shown),
                           money=self._list_money(meta, folded.state, paper))

    def _list_money(self, meta: dict[str, Any], state: TableState, paper: PaperList
                    ) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """A Preisskat's money of one list by its evening's conditions (none entered: no rows)."""
        raw = self.store.money(meta["evening"], "conditions")
        if raw is None or state.setup is None:
            return ()
        terms = Conditions.from_json(raw).table_terms()
        played = PlayedList(meta["series"], meta["table"], state.setup.players, state.rows)
        lines = {m.player: m for m in series_money(terms, dict(zip(paper.players, paper.lost)), passed_counts(played))}
        money = [m for p in paper.players if (m := lines.get(p)) is not None]
        rows = [("Abreizgeld (über den Abend gezählt: siehe Kasse)", tuple("–" for _ in money))
                if terms.abreiz.per_evening else ("Abreizgeld", tuple(euro(m.abreiz or 0) for m in money))]
        if terms.passed_in_fee:
            rows.append(("Gebühr eingepasste Spiele", tuple(euro(m.passed_fee) for m in money)))
        return tuple(rows)

    def evening_results(self, evening: str | None = None) -> list[ListResult]:
        with self._lock:
            self.refresh()
            wanted = evening or self.evening()["id"]
            person = self.roster().person
            out: list[ListResult] = []
            for entry in self.doc("season_results", {}).values():
                if entry["evening"] == wanted:
                    ids = entry.get("members", {})
                    out.extend(ListResult(person(p, ids.get(p, "")), entry["series"], entry["table"], pts, w, lost, lei)
                               for p, pts, w, lost, lei in entry["results"])
            return out

    def money_figures(self, evening: str | None = None) -> tuple[list[ListResult], list[PassedCounts]]:
        """The evening's list results and each player's eingepasste games per list (the money's input)."""
        with self._lock:
            self.refresh()
            wanted = evening or self.evening()["id"]
            person = self.roster().person
            entries = [e for e in self.doc("season_results", {}).values() if e["evening"] == wanted]
        results = [ListResult(person(p, e.get("members", {}).get(p, "")), e["series"], e["table"], pts, w, lost, lei)
                   for e in entries for p, pts, w, lost, lei in e["results"]]
        passed = [PassedCounts(person(p, e.get("members", {}).get(p, "")), e["series"], e["table"], *c)
                  for e in entries for p, c in e.get("passed", {}).items()]
        return results, passed

    def table_sizes(self) -> list[int]:
        """The sizes of tonight's tables (3, 4, 5) whose lists count, smallest first."""
        with self._lock:
            self.refresh()
            wanted = self.evening()["id"]
            return sorted({len(e["results"]) for e in self.doc("season_results", {}).values()
                           if e["evening"] == wanted})

    def ranking(self) -> tuple[list[tuple[int, tuple[RankLine, ...]]], tuple[RankLine, ...]]:
        """Per series and in total for the evening in progress (the lot by the evening's id)."""
        results = self.evening_results()
        seed = self.evening()["id"]  # the whole id: every evening draws its own lot (SkWO 5.1)
        series = sorted({r.series for r in results})
        return ([(s, series_ranking(results, s, lot_seed=seed)) for s in series], ranking(results, lot_seed=seed))

    def guests(self, roster: Roster | None = None) -> list[str]:
        """The names typed at tables that no roster entry knows (to merge into a person)."""
        with self._lock:
            self.refresh()
        known = roster or self.roster()
        names = {p for e in self.doc("season_results", {}).values() for p, *_ in e["results"]
                 if known.find(p, e.get("members", {}).get(p, "")) is None}
        return sorted(names, key=str.casefold)

    def season_rules(self) -> SeasonRules:
        raw = self.doc("season_rules", {})
        return SeasonRules(int(raw.get("minimum_series", 0)), int(raw.get("dropped_worst", 0)))

    def season(self) -> tuple[tuple[SeasonLine, ...], dict[str, list[int]], list[str]]:
        with self._lock:
            self.refresh()
            lot = self.evening()["id"]
        return season_from_documents(self.doc("season_results", {}), self.season_rules(), lot=lot,
                                     roster=self.roster())


def season_from_documents(entries: dict[str, Any], rules: SeasonRules, *, lot: str | None = None,
                          roster: Roster | None = None) -> tuple[
        tuple[SeasonLine, ...], dict[str, list[int]], list[str]]:
    """The season table, the chart's running totals and the evenings, from ``season_results``.

    Each list's name counts for the person ``roster`` finds (a renamed or merged member keeps
    the season; a guest is kept by name). Equal players are drawn apart by the lot of the
    evening ``lot`` (the evening in progress, so the Saison page orders them as its Wertung
    does); default: the latest evening.
    """
    person = (roster or Roster()).person
    results = [SeriesResult(e["evening"], e["series"], person(p, e.get("members", {}).get(p, "")), pts, w, lost, lei)
               for e in entries.values() for p, pts, w, lost, lei in e["results"]]
    evenings = sorted({r.evening for r in results})
    seed = lot if lot is not None else (evenings[-1] if evenings else "")
    return season_ranking(results, rules, lot_seed=seed), season_chart(results, evenings), evenings


def _sync_status(info: TableInfo, now: float, error: str) -> tuple[str, str]:
    if info.conflicts or error:
        return "red", _conflict_words(info) if info.conflicts else f"Liste fehlerhaft: {error}"
    if info.last_contact is None:
        return "red", "noch kein Kontakt"
    age = now - info.last_contact
    if age > STALE_AFTER:
        return "red", f"kein Kontakt seit {int(age // 60)} min"
    if age > QUIET_AFTER:
        return "amber", f"letzter Kontakt vor {int(age)} s"
    return "green", f"synchron, vor {int(age)} s"


def version_words(table: str | None, laptop: str, *, contacted: bool = True) -> tuple[str, bool]:
    """A table's version on its tile, and whether it is another than the laptop's.

    >>> version_words("0.1.0", "0.1.0")
    ('Version 0.1.0', False)
    >>> version_words("0.0.9", "0.1.0")
    ('andere Version: 0.0.9 (Laptop: 0.1.0)', True)
    >>> version_words(None, "0.1.0")  # a table from before tables said their version, or not since the update
    ('Version unbekannt', False)
    >>> version_words(None, "0.1.0", contacted=False)  # paired, never synced
    ('', False)
    """
    if table is None:
        return ("Version unbekannt" if contacted else ""), False
    if table == laptop:
        return f"Version {table}", False
    return f"andere Version: {table} (Laptop: {laptop})", True


def _conflict_words(info: TableInfo) -> str:
    """How many distinct conflicts, and how often the table sent them (a stuck table retries)."""
    sends = f" · {info.conflict_sends}× gesendet" if info.conflict_sends > info.conflicts else ""
    return f"{info.conflicts} Konflikt(e){sends}"


def _row_words(row: Any, shown: Callable[[str], str] = str) -> str:
    if row.kind == "passed_in":
        return f"Spiel {row.entry}: eingepasst"
    if row.kind == "ramsch":
        return f"Spiel {row.entry}: Ramsch"
    return f"Spiel {row.entry}: {shown(row.seating[row.declarer_seat])} {row.result.describe_de()}"

