"""The list's figures for the screen: running totals, totals, ranking and money.

A thin adapter from the table's rows to :mod:`device.scoring`, which does all the arithmetic.
Players are the people on the list, in the order they first sat down. When the table changed
(a player joined or left at the start of a round, ISkO 3.1.2) the list is scored in
segments of the same table, each with its own table size (Seeger-Fabian's credit is 40 at
three, 30 at four), and the segments are added up per person.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from device.scoring import (
    BierlachsResult, Entry, Game, PassedIn, Ramsch, ScoreSheet, ScoringSystem,
    Settlement, Standing, bierlachs, classic_totals, entry_points, rank,
    running_totals, settle, tallies, totals, transfers,
)
from device.declaration import Declaration, Level, form_short
from device.value import GameResult
from device.skatform import SkatForm
from device.table.state import Row

__all__ = ["ListFigures", "PaperRow", "figures", "game_short", "paper_rows", "row_entry"]


@dataclass(frozen=True, slots=True)
class ListFigures:
    """Everything the list screen shows, per person (index into ``players``).

    ``points``: what each row writes on the classic list (None: not at the table then).
    ``running``: the totals under the list's scoring system after each row.
    ``standings``: SkWO ranking (higher total, more won, fewer lost; equal places shared).
    ``settlement``: the money (ISkO 5.5.4/5.5.5) on the classic totals; None without a stake.
    ``bierlachs``: the Bierlachs games each person lost (Bierlachs lists only).
    """

    players: tuple[str, ...]
    system: ScoringSystem
    points: tuple[tuple[int | None, ...], ...]
    running: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    classic: tuple[int, ...]
    won: tuple[int, ...]
    lost: tuple[int, ...]
    standings: tuple[Standing, ...]
    settlement: Settlement | None
    bierlachs_losses: tuple[int, ...] | None


def row_entry(row: Row) -> Entry:
    """The :mod:`device.scoring` entry of a row (players are the row's seats)."""
    if row.kind == "game" and row.result is not None and row.declarer_seat is not None:
        result = row.result
        # Lost games count double, except lost hand games under the pre-1999 rules.
        lost_factor = 2 if result.won else -result.score // (result.value * result.multiplier)
        return Game(row.declarer_seat, result.score, result.won, row.active, lost_factor)
    if row.kind == "ramsch" and row.ramsch is not None:
        return Ramsch.of({row.active[position]: score for position, score in enumerate(row.ramsch)})
    return PassedIn()


def _segments(rows: Sequence[Row], seating: Sequence[str]) -> list[tuple[tuple[str, ...], list[Row]]]:
    segments: list[tuple[tuple[str, ...], list[Row]]] = []
    for row in rows:
        if segments and segments[-1][0] == row.seating:
            segments[-1][1].append(row)
        else:
            segments.append((row.seating, [row]))
    return segments or [(tuple(seating), [])]


def figures(rows: Sequence[Row], seating: Sequence[str], system: ScoringSystem, *,
            bierlachs_limit: int | None = None, stake: Fraction = Fraction(0)) -> ListFigures:
    """The list's figures for ``rows`` (``seating``: the table now, for an empty list)."""
    segments = _segments(rows, seating)
    players: list[str] = []
    for names, _ in segments:
        players.extend(n for n in names if n not in players)
    for name in seating:
        if name not in players:
            players.append(name)
    count = len(players)
    zero = (0,) * count
    point_rows: list[tuple[int | None, ...]] = []
    running: list[tuple[int, ...]] = []
    total, classic, won, lost, losses = list(zero), list(zero), list(zero), list(zero), list(zero)
    endz, amounts = list(zero), list(zero)
    carried = list(zero)  # Bierlachs: where each person's running Bierlachs stands
    for names, seg_rows in segments:
        index = [players.index(n) for n in names]
        sheet = ScoreSheet(len(names), tuple(row_entry(r) for r in seg_rows))
        base = tuple(total)
        for entry in sheet.entries:
            written: list[int | None] = [None] * count
            for seat, value in enumerate(entry_points(entry, sheet.players)):
                written[index[seat]] = value
            point_rows.append(tuple(written))
        if system is ScoringSystem.BIERLACHS:
            # One Bierlachs per person across the evening: a change of table carries it on.
            result: BierlachsResult = bierlachs(sheet, bierlachs_limit, start=[carried[i] for i in index])
            for seg_row in result.rows:
                _put(total, index, seg_row)
                running.append(tuple(total))
            _put(carried, index, result.final)
            _add(losses, index, result.losses)
        else:
            for seg_running in running_totals(sheet, system, bierlachs_limit=bierlachs_limit):
                row_total = list(base)
                for seat, value in enumerate(seg_running):
                    row_total[index[seat]] += value
                running.append(tuple(row_total))
            _add(total, index, totals(sheet, system, bierlachs_limit=bierlachs_limit))
        seg_classic = classic_totals(sheet)
        _add(classic, index, seg_classic)
        if stake > 0:
            # Each player pays or receives only for the games he sat at (ISkO 3.5.3): settle
            # every stretch of the same table on its own and add the amounts up per person.
            part = settle(seg_classic, stake)
            _add(endz, index, part.endzahlen)
            _add(amounts, index, part.amounts)
        tally = tallies(sheet)
        _add(won, index, [t.won for t in tally])
        _add(lost, index, [t.lost for t in tally])
    return ListFigures(
        players=tuple(players), system=system, points=tuple(point_rows), running=tuple(running),
        totals=tuple(total), classic=tuple(classic), won=tuple(won), lost=tuple(lost),
        standings=rank(total, won, lost),
        settlement=Settlement(stake, tuple(endz), tuple(amounts), transfers(amounts)) if stake > 0 else None,
        bierlachs_losses=tuple(losses) if system is ScoringSystem.BIERLACHS else None,
    )


def _add(into: list[int], index: Sequence[int], values: Sequence[int]) -> None:
    for seat, value in enumerate(values):
        into[index[seat]] += value


def _put(into: list[int], index: Sequence[int], values: Sequence[int]) -> None:
    for seat, value in enumerate(values):
        into[index[seat]] = value



# --------------------------------------------------------------------------- the paper list


@dataclass(frozen=True, slots=True)
class PaperRow:
    """A row laid out like the official list (ISkO 5.5.2, SkWO 7.2): one line per game with
    Nr, Geber, Alleinspieler, the game, Grundwert, Spitzen, Gewinnstufen, Wert and each
    player's running game points, written only where the row changed them (the declarer's
    column; a Ramsch's losers). The screen, ``skattisch sheet`` and its CSV all use it.

    ``base`` is the Grundwert (a Null: its fixed value); ``tops`` the matadors, signed (+2
    "mit 2", −3 "ohne 3"); ``levels`` the Gewinnstufen beyond the Spitzen (Spiel, Hand,
    Schneider, … as counted); ``value`` the signed entry.
    None where a column does not apply (Null has no Spitzen, eingepasst no game).
    """

    number: int
    kind: str  # "game", "passed_in", "ramsch"
    dealer: str
    declarer: str | None
    game: str | None  # the game type ("clubs" … "null")
    short: str  # the game in short: "Kreuz H", "Null o", "eingepasst", "Ramsch"
    short_en: str
    base: int | None
    tops: int | None
    levels: int | None
    value: int | None
    running: tuple[int | None, ...]  # per list player: the game points after this row, where it changed them


_SHORT_EN = {"clubs": "Clubs", "spades": "Spades", "hearts": "Hearts", "diamonds": "Diamonds", "grand": "Grand",
             "null": "Null"}


def game_short(declaration: Declaration, *, english: bool = False) -> str:
    """A declaration in the list's short form: the game and H (Hand), S (Schneider angesagt),
    Sw (Schwarz angesagt), o (ouvert).

    >>> from device.games import GameType
    >>> game_short(Declaration(GameType.CLUBS, hand=True, ouvert=False, announced=Level.SCHNEIDER))
    'Kreuz H S'
    >>> game_short(Declaration(GameType.NULL, hand=True, ouvert=True, announced=Level.SIMPLE), english=True)
    'Null o H'
    """
    if declaration.form is not SkatForm.GERMAN:  # Tournee, Solo, Guckser; Nul, Dækker (device.declaration)
        return form_short(declaration, _SHORT_EN[declaration.game.value] if english else declaration.game.german)
    words = [_SHORT_EN[declaration.game.value] if english else declaration.game.german]
    if declaration.ouvert:
        words.append("o")
    if declaration.hand:
        words.append("H")
    if not declaration.ouvert and declaration.announced is Level.SCHNEIDER:
        words.append("S")
    elif not declaration.ouvert and declaration.announced is Level.SCHWARZ:
        words.append("Sw")
    return " ".join(words)


#: A Schenken in the list's short form (001): g geschenkt, S g Schneider geschenkt, w S / w Sw
#: weitergespielt auf Schneider / Schwarz.
_SCHENKEN_SHORT = {"geschenkt": ("g", "g"), "schneider_geschenkt": ("S g", "S g"),
                   "weiterspielen": ("w S", "p S"), "weiterspielen_schwarz": ("w Sw", "p Sw")}


def _result_short(result: GameResult, english: bool) -> str:
    """The game's short form, with a Spitze ("Herz Sp", "Herz Sp3") and how a Schenken ended ("Kreuz g": geschenkt)."""
    short = game_short(result.declaration, english=english)
    spitze = sum(1 for level in result.levels if level in ("Spitze", "Musik"))
    if spitze:  # 001 "Spitze" (levels per card: the Århus Musik counts two)
        short += " Sp" + (str(spitze) if spitze > 1 else "")
    if result.schenken:
        short += " " + _SCHENKEN_SHORT[result.schenken][english]
    return short


def paper_rows(rows: Sequence[Row], figs: ListFigures) -> tuple[PaperRow, ...]:
    """The list's rows as the paper list writes them, with the running game points."""
    running = [0] * len(figs.players)
    out = []
    for row, written in zip(rows, figs.points):
        cells: list[int | None] = []
        for index, points in enumerate(written):
            if points:
                running[index] += points
            cells.append(running[index] if points else None)
        result = row.result
        if row.kind == "game" and result is not None and row.declarer_seat is not None:
            null = result.declaration.game.is_null
            out.append(PaperRow(
                row.entry, row.kind, row.seating[row.dealer], row.seating[row.declarer_seat],
                result.declaration.game.value, _result_short(result, False),
                _result_short(result, True), result.value if null else result.base_value,
                None if null else result.matadors, None if null else max(0, len(result.levels) - 1),
                result.score, tuple(cells)))
        else:
            short, short_en = ("Ramsch", "Ramsch") if row.kind == "ramsch" else ("eingepasst", "passed in")
            out.append(PaperRow(row.entry, row.kind, row.seating[row.dealer], None, None, short, short_en, None, None,
                                None, None, tuple(cells)))
    return tuple(out)
