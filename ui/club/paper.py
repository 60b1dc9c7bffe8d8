"""One table's list laid out like the official paper list (SkWO 7.2, ISkO 5.5.2).

The view data for the Liste page, its print view, its PDF and its CSV: every figure comes from
:func:`device.table.listing.figures` (the table's own list code) and the game results the
table recorded. Columns as on the DSkV list: Nr, Geber, Alleinspieler, Spiel, Grundwert,
Spitzen, Gewinnstufen, Wert, then each player's running Spielpunkte; below: Spielpunkte, won
and lost games, the credit for the others' lost games, the Leistung, the signatures.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from device.games import GameType
from device.scoring import DEFENCE_CREDIT, ScoringSystem
from device.skatform import SkatForm
from device.table.listing import figures, game_short
from device.table.state import Row, TableState

@dataclass(frozen=True, slots=True)
class PaperRow:
    """One line of the paper list; ``struck``: an original a correction replaced."""

    number: int
    dealer: str
    declarer: str
    game: str
    base: str
    matadors: str
    levels: str
    value: str
    cells: tuple[str, ...]
    kind: str
    struck: bool = False
    won: bool | None = None


@dataclass(frozen=True, slots=True)
class PaperList:
    """A whole list for the page, the print view and the PDF."""

    title: str
    table: int
    series: int
    players: tuple[str, ...]
    rows: tuple[PaperRow, ...]
    points: tuple[int, ...]
    won: tuple[int, ...]
    lost: tuple[int, ...]
    others_lost: tuple[int, ...]
    credit: tuple[int, ...]
    leistung: tuple[int, ...]
    games: int
    series_length: int | None
    confirmed: tuple[str, ...]
    closed: bool
    head: str
    in_progress: str = ""
    notes: tuple[str, ...] = field(default=())
    #: The list's own scoring where it is neither Seeger-Fabian nor plain points (Danish Skat's
    #: tournament scoring, 001 "Dänischer Skat"): its name and each player's total.
    own_scoring: tuple[str, tuple[int, ...]] | None = None
    #: A Preisskat's money of this list (the evening's conditions known): rows of a label and
    #: each player's amount ("Abreizgeld": "1,50 €"; "Gebühr eingepasst": "0,50 €").
    money: tuple[tuple[str, tuple[str, ...]], ...] = ()


def _game_parts(row: Row) -> tuple[str, str, str, str, str]:
    """(Spiel, Grundwert, Spitzen, Gewinnstufen, Wert) of one row."""
    if row.kind == "passed_in":
        return "eingepasst", "", "", "", ""
    if row.kind == "ramsch" or row.result is None:
        return "Ramsch", "", "", "", ""
    result = row.result
    declaration = result.declaration
    name = declaration.game.german
    if declaration.form is not SkatForm.GERMAN:  # Tournee, Solo, Guckser; Nul, Dækker: as the table's list writes them
        name = game_short(declaration)
        if declaration.game is GameType.NULL:
            return name, str(result.value), "", "", f"{result.score:+d}"
    elif declaration.game is GameType.NULL:
        extras = [w for w, on in (("Hand", declaration.hand), ("ouvert", declaration.ouvert)) if on]
        return " ".join([name, *extras]), str(result.value), "", "", f"{result.score:+d}"
    spitzen = f"{'mit' if result.matadors > 0 else 'ohne'} {abs(result.matadors)}"
    levels = [w for w in result.levels[1:]]
    if result.overbid:
        levels.append("überreizt")
    if result.multiplier > 1:
        levels.append(f"×{result.multiplier}")
    return name, str(result.base_value), spitzen, ", ".join(levels), f"{result.score:+d}"


def _paper_row(row: Row, players: Sequence[str], cells: tuple[str, ...], struck: bool) -> PaperRow:
    game, base, spitzen, levels, value = _game_parts(row)
    declarer = row.seating[row.declarer_seat] if row.declarer_seat is not None and row.kind == "game" else ""
    return PaperRow(number=row.entry, dealer=row.seating[row.dealer], declarer=declarer, game=game, base=base,
                    matadors=spitzen, levels=levels, value=value, cells=cells, kind=row.kind, struck=struck,
                    won=row.result.won if row.result is not None and row.kind == "game" else None)


def paper_list(state: TableState, *, table: int, series: int, head: str = "", title: str = "") -> PaperList:
    """The list of ``state`` as the paper list shows it."""
    seating = state.setup.players if state.setup is not None else state.seating
    classic = figures(state.rows, seating, ScoringSystem.CLASSIC)
    leistung = figures(state.rows, seating, ScoringSystem.SEEGER_FABIAN)
    players = classic.players
    rows: list[PaperRow] = []
    for row, points, running in zip(state.rows, classic.points, classic.running, strict=True):
        blank = ("",) * len(players)
        for old in row.earlier:
            rows.append(_paper_row(old, players, blank, struck=True))
        cells = tuple("" if not p else str(running[i]) for i, p in enumerate(points))
        rows.append(_paper_row(row, players, cells, struck=False))
    credits = _credits(state.rows, players)
    others_lost = tuple(c[0] for c in credits)
    confirmed = tuple(state.seating[s] for s in state.list_confirmations if s < len(state.seating))
    length = state.setup.series_length if state.setup is not None else None
    return PaperList(
        title=title, table=table, series=series, players=players, rows=tuple(rows), points=classic.classic,
        won=classic.won, lost=classic.lost, others_lost=others_lost, credit=tuple(c[1] for c in credits),
        leistung=leistung.totals, games=len(state.rows), series_length=length, confirmed=confirmed,
        closed=state.closed, head=head, in_progress=in_progress(state), own_scoring=_own_scoring(state, seating))


#: The scoring systems a list may be kept in that the paper list shows as a row of their own.
OWN_SCORING_WORDS = {ScoringSystem.DANISH: "Dänische Turnierwertung"}


def _own_scoring(state: TableState, seating: Sequence[str]) -> tuple[str, tuple[int, ...]] | None:
    system = ScoringSystem(state.setup.scoring) if state.setup is not None else None
    if system not in OWN_SCORING_WORDS:
        return None
    return OWN_SCORING_WORDS[system], figures(state.rows, seating, system).totals


def _credits(rows: Sequence[Row], players: Sequence[str]) -> list[tuple[int, int]]:
    """Per player: games lost by another player at his table, and the credit they earn him."""
    out = {p: [0, 0] for p in players}
    for row in rows:
        if row.kind != "game" or row.result is None or row.result.won or row.declarer_seat is None:
            continue
        size = len(row.seating)
        for seat, name in enumerate(row.seating):
            if seat != row.declarer_seat:
                out[name][0] += 1
                out[name][1] += DEFENCE_CREDIT[size]
    return [(out[p][0], out[p][1]) for p in players]


def in_progress(state: TableState, shown: Callable[[str], str] = str) -> str:
    """The game at the table now, in a few words ("Spiel 12: Reizen", "Spiel 12: Kreuz, 4. Stich");
    the declarer named as ``shown`` gives him (the roster's public name)."""
    deal = state.deal
    if state.setup is None:
        return "keine Liste"
    if state.closed:
        return "Liste abgeschlossen"
    if deal is None or state.series_over:
        return "Serie beendet, Unterschriften fehlen"
    number = deal.number
    if deal.declaration is None:
        return f"Spiel {number}: Reizen" if not deal.auction.is_finished else f"Spiel {number}: Ansage"
    name = deal.declaration.game.german
    declarer = shown(state.seating[deal.declarer_seat]) if deal.declarer_seat is not None else ""
    if deal.finished:
        return f"Spiel {number}: {name} von {declarer}, Ergebnis wird bestätigt"
    return f"Spiel {number}: {name} von {declarer}, {len(deal.tricks) + 1}. Stich"
