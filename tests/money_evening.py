"""A worked Preisskat evening, computed by hand: the tables' events and the conditions.

Three tables (4, 4 and 3 players), two series; Kurt (Jugend, no Startgeld) plays only the first
series, Lena only the second. Games (Seeger-Fabian; a lost game counts twice, -50 for the
declarer, +30 to each of the three others at a four-table, +40 to each of the two others at a
three-table):

    W18  Karo mit 1, won:      +18 points, Leistung +68
    L36  Karo mit 1, lost:     -36 points, Leistung -86 (others +30 / +40)
    G48  Grand mit 1, won:     +48 points, Leistung +98
    G96- Grand mit 1, lost:    -96 points, Leistung -146 (others +30)

Series 1
  Tisch 1 (Anna, Bernd, Carla, Dieter; Platz 1 deals first):
    1 Bernd W18 · 2 Carla L36 · 3 eingepasst (Dieter, Anna, Bernd in it) · 4 Anna Grand won,
    corrected afterwards to Grand LOST (a won game turned into a lost one)
    Anna -96-50+30 = -116 (lost 1) · Bernd 68+30+30 = 128 · Carla -86+30 = -56 (lost 1) ·
    Dieter 30+30 = 60
  Tisch 2 (Erik, Frida, Gert, Hanna):
    1 Frida L36 · 2 Gert L36 · 3 Frida L36 · 4 Frida L36 · 5 Frida L36 · 6 Hanna W18
    Erik 5x30 = 150 · Frida 4x(-86)+30 = -314 (lost 4) · Gert -86+4x30 = 34 (lost 1) ·
    Hanna 68+5x30 = 218
  Tisch 3 (Ingo, Jana, Kurt):
    1 Ingo W18 · 2 Jana L36 · 3 Kurt G48 · 4 eingepasst (all three in it)
    Ingo 68+40 = 108 · Jana -86 (lost 1) · Kurt 98+40 = 138
Series 2
  Tisch 1 (Anna, Erik, Ingo, Lena):
    1 Lena W18 · 2 Anna W18 · 3 Erik L36 · 4 Anna L36
    Anna 68-86+30 = 12 (lost 1) · Erik -86+30 = -56 (lost 1) · Ingo 60 · Lena 68+60 = 128
  Tisch 2 (Bernd, Frida, Jana, Carla):
    1 Jana W18 · 2 Bernd L36 · 3 eingepasst (Carla, Bernd, Frida in it) · 4 Frida W18
    Bernd -86 (lost 1) · Frida 68+30 = 98 · Jana 68+30 = 98 · Carla 30
  Tisch 3 (Dieter, Gert, Hanna):
    1 Dieter W18 · 2 Gert W18 · 3 Hanna L36
    Dieter 108 · Gert 108 · Hanna -86 (lost 1)

The evening (Leistung, won, lost): Dieter 168 (1, 0) and Ingo 168 (1, 0) equal in everything
(a tie at places 1-2) · Gert 142 · Kurt 138 · Hanna 132 · Lena 128 · Erik 94 · Bernd 42 ·
Jana 12 · Carla -26 · Anna -104 · Frida -216.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from device.club.money import Abreizgeld, Conditions, ExtraRanking, FeeCategory, PrizePlan
from device.club.prizes import PassedCounts, passed_counts
from device.club.ranking import ListResult, PlayedList, list_results
from device.journal import JournalEntry
from device.sync import GENESIS, journal_entries
from device.table.state import TableState, apply
from device.table.events import CorrectionApplied, CorrectionConsented, CorrectionProposed, Event
from tests.club_helpers import Entry, list_events

W18 = {"game": "diamonds", "bid": 18, "matadors": 1, "declarer_points": 70, "declarer_tricks": 6}
L36 = {"game": "diamonds", "bid": 18, "matadors": 1, "declarer_points": 50, "declarer_tricks": 4}
G48 = {"game": "grand", "bid": 18, "matadors": 1, "declarer_points": 70, "declarer_tricks": 6}
G96_LOST = {"game": "grand", "bid": 18, "matadors": 1, "declarer_points": 40, "declarer_tricks": 3}
PASSED = Entry(None, None)

SERIES_1: dict[str, tuple[tuple[str, ...], list[Entry]]] = {
    "pi-1": (("Anna", "Bernd", "Carla", "Dieter"), [Entry(1, W18), Entry(2, L36), PASSED, Entry(0, G48)]),
    "pi-2": (("Erik", "Frida", "Gert", "Hanna"),
             [Entry(1, L36), Entry(2, L36), Entry(1, L36), Entry(1, L36), Entry(1, L36), Entry(3, W18)]),
    "pi-3": (("Ingo", "Jana", "Kurt"), [Entry(0, W18), Entry(1, L36), Entry(2, G48), PASSED]),
}
SERIES_2: dict[str, tuple[tuple[str, ...], list[Entry]]] = {
    "pi-1": (("Anna", "Erik", "Ingo", "Lena"), [Entry(3, W18), Entry(0, W18), Entry(1, L36), Entry(0, L36)]),
    "pi-2": (("Bernd", "Frida", "Jana", "Carla"), [Entry(2, W18), Entry(0, L36), PASSED, Entry(1, W18)]),
    "pi-3": (("Dieter", "Gert", "Hanna"), [Entry(0, W18), Entry(1, W18), Entry(2, L36)]),
}
TABLES = {"pi-1": "Tisch 1", "pi-2": "Tisch 2", "pi-3": "Tisch 3"}


def correction_events(device: str, list_id: str, seq: int) -> list[dict[str, Any]]:
    """Anna's Grand (entry 4 at Tisch 1, series 1) was lost, not won: proposed, consented, applied."""
    fixed = {**G96_LOST, "seat": 0, "player": "Anna"}
    bodies = [CorrectionProposed(4, fixed, 0, 1), CorrectionConsented(0), CorrectionConsented(2),
              CorrectionConsented(3), CorrectionApplied(4)]
    return [Event(f"fix{i}", seq + i, device, list_id, b).to_json() for i, b in enumerate(bodies)]


def device_events(device: str, *, corrected: bool = True, series: Sequence[int] = (1, 2)) -> list[dict[str, Any]]:
    """Everything ``device`` sends for the evening, in order (seq from 1)."""
    out: list[dict[str, Any]] = []
    for number in series:
        players, entries = (SERIES_1 if number == 1 else SERIES_2)[device]
        list_id = f"S{number}"
        events = list_events(device, list_id, players, entries, seq=len(out) + 1)
        out += events
        if number == 1 and device == "pi-1" and corrected:
            out += correction_events(device, list_id, len(out) + 1)
    return out


TEAMS = (("Kreuz-Buben", ("Anna", "Bernd", "Erik", "Frida")), ("Herz-Damen", ("Carla", "Dieter", "Gert", "Hanna")))
TANDEMS = (("Ingo & Jana", ("Ingo", "Jana")), ("Kurt & Lena", ("Kurt", "Lena")))


def conditions() -> Conditions:
    """Startgeld 10 € (Jugend: Kurt, 0 €), Tischgeld 1 € a series, the default Abreizgeld tiers,
    0,50 € per eingepasstes game from each of its three players; 90 % of the Startgelder paid
    out, 5 € to each series' winner from that, the rest 50/30/20 % rounded down to 1 €, the
    remainder to the first; equal players share; a Präsentkorb for place 4. Teams of four:
    8 € per team; tandems: 2 € per player; each pays all its pot to its winner."""
    winner_takes_all = PrizePlan(places=1, amounts=(100,))
    return Conditions(
        startgeld=1000, categories=(FeeCategory("Jugend", 0, ("Kurt",)),), tischgeld=100, abreiz=Abreizgeld(),
        passed_in_fee=50, passed_in_payer="spieler",
        plan=PrizePlan(payout_percent=90, places=3, amounts=(50, 30, 20), round_to=100, remainder_to="erster",
                       material=("Präsentkorb",), tie="teilen"),
        series_prizes=(500,),
        extras=(ExtraRanking("Mannschaft", "mannschaft", 800, TEAMS, winner_takes_all, fee_per_group=True),
                ExtraRanking("Tandem", "tandem", 200, TANDEMS, winner_takes_all)),
    )


def played_lists(*, corrected: bool = True) -> list[PlayedList]:
    """The evening's six lists folded by the table's own code (series, table, seating, rows)."""
    out = []
    for device in TABLES:
        events = device_events(device, corrected=corrected)
        for number in (1, 2):
            state = TableState()
            for raw in events:
                if raw["list_id"] == f"S{number}":
                    state = apply(state, Event.from_json(raw))
            assert state.setup is not None
            out.append(PlayedList(number, int(device[-1]), state.setup.players, state.rows))
    return out


def evening_figures(*, corrected: bool = True) -> tuple[list[ListResult], list[PassedCounts]]:
    """Every player's list results and eingepasste games, as the laptop computes them."""
    lists = played_lists(corrected=corrected)
    return ([r for p in lists for r in list_results(p)], [c for p in lists for c in passed_counts(p)])


def device_entries(device: str, *, corrected: bool = True) -> list[JournalEntry]:
    """``device_events`` as the table's journal sends them: each list its own hash chain."""
    heads: dict[str, str] = {}
    out = []
    for event in device_events(device, corrected=corrected):
        (entry,) = journal_entries([event], prev=heads.get(event["list_id"], GENESIS))
        heads[event["list_id"]] = entry.hash
        out.append(entry)
    return out
