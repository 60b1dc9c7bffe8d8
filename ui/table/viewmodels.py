"""What the screens show, as plain values computed from the service's snapshot.

No Kivy and no rules here: the service has decided everything (which bids, which
declarations and why not, the list's numbers). These functions only lay the snapshot out
for the screen: pages of bid buttons, the declaration's toggles built from the option list,
the list's rows and columns, the chart's lines. They are unit-tested without a window.

>>> page_of_values(tuple(range(18, 40)), 0, 7)
ValuesPage(values=(18, 19, 20, 21, 22, 23, 24), start=0, more=True, less=False)
>>> game_suit("clubs"), game_suit("grand"), game_suit(None)
('C', '', '')
>>> signed(24), signed(-48), signed(0)
('+24', '−48', '0')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from device.record import spitze_made_by_cards
from device.tournee import RECORD_FIELDS as TOURNEE_FIELDS
from ui.i18n import option_reason, pick, sync_text, tr, transfer_text
from ui import table_words
from ui.table_words import scoring_label

WORDS = ("hand", "schneider", "schwarz", "ouvert")
GAMES = ("clubs", "spades", "hearts", "diamonds", "grand", "null")
GAME_SUITS = {"clubs": "C", "spades": "S", "hearts": "H", "diamonds": "D"}


def signed(value: int) -> str:
    """A list number with its sign (a true minus sign: easier to read than a hyphen)."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"−{-value}"
    return "0"


def escape(text: str) -> str:
    """A player's name (or any typed text) for a label that reads colour markup: shown as
    typed, never as markup ("[color=00000000]Bernd[/color]" must not make a name invisible).

    >>> escape("[b]Bernd[/b] & Co")
    '&bl;b&br;Bernd&bl;/b&br; &amp; Co'
    """
    return text.replace("&", "&amp;").replace("[", "&bl;").replace("]", "&br;")


SHORT_NAME = 9  # characters: a name up to this long is its own short name
SHORT_NAME_FIVE = 7  # at a five-table the list's columns are narrower


def short_names(players: Sequence[str], limit: int | None = None) -> dict[str, str]:
    """Each player's short name for the list's headers and the buttons, unique at the table:
    a name up to nine characters (seven at five players) as it is; a longer one cut to its
    first part and the next part's initial ("Hans-Joachim" → "Hans-J.", "Karl-Heinz" →
    "Karl-H."), or to its first letters and a dot. Where two would read alike, both keep
    their whole names.

    >>> short_names(["Hannelore", "Hans-Joachim", "Wolfgang", "Karl-Heinz"])
    {'Hannelore': 'Hannelore', 'Hans-Joachim': 'Hans-J.', 'Wolfgang': 'Wolfgang', 'Karl-Heinz': 'Karl-H.'}
    >>> short_names(["Hannelore", "Hans-Joachim", "Wolfgang", "Karl-Heinz", "Ingrid"])
    {'Hannelore': 'Hannel.', 'Hans-Joachim': 'Hans-J.', 'Wolfgang': 'Wolfga.', 'Karl-Heinz': 'Karl-H.', 'Ingrid': 'Ingrid'}
    >>> short_names(["Hans-Jürgen", "Hans-Joachim", "Bernhardine"])
    {'Hans-Jürgen': 'Hans-Jürgen', 'Hans-Joachim': 'Hans-Joachim', 'Bernhardine': 'Bernhard.'}
    """
    most = limit if limit is not None else (SHORT_NAME if len(players) <= 4 else SHORT_NAME_FIVE)

    def cut(name: str) -> str:
        if len(name) <= most:
            return name
        parts = re.split(r"([- ])", name, maxsplit=1)
        if len(parts) == 3 and 2 <= len(parts[0]) <= most - 3 and parts[2]:
            return f"{parts[0]}{parts[1]}{parts[2][0]}."
        return name[:most - 1] + "."

    cuts = {name: cut(name) for name in players}
    taken = [c.casefold() for c in cuts.values()]
    return {name: (c if taken.count(c.casefold()) == 1 else name) for name, c in cuts.items()}


def total_text(value: int) -> str:
    """A running total: no plus sign, but a true minus like the entries beside it.

    >>> total_text(-248), total_text(40)
    ('−248', '40')
    """
    return f"−{-value}" if value < 0 else str(value)


def game_suit(game: str | None) -> str:
    """The suit code of a game as the snapshot names it ("clubs" → "C"), for its chip; ""
    for Grand, Null, a Ramsch or eingepasst."""
    return GAME_SUITS.get(game or "", "")


def is_null(game: str | None) -> bool:
    """Whether the snapshot's game is a Null (no matadors to ask for)."""
    return game == "null"


# --------------------------------------------------------------------------- the status bar


@dataclass(frozen=True, slots=True)
class Status:
    """The status bar's reader and sync: a text and a level each ("ok" green, "wait" amber,
    "bad" red, "none" grey: a part the table was set up without is no alarm)."""

    reader: str
    reader_level: str
    sync: str
    sync_level: str
    panel: str = ""  # "" unless the button panel is missing (always an alarm: red)


def status_of(snap: Any, *, simulate: bool, reader_fitted: bool, deck_problem: bool = False,
              panel_problem: bool = False) -> Status:
    """What the status bar says about the reader and the sync. A table set up without a
    reader ("ohne Leser": results typed in) or without a laptop ("ohne Laptop", the
    snapshot's ``sync.laptop``) is not an alarm; a fitted reader that is gone is ("Leser
    fehlt", red), and so is one without a usable deck ("Kartensatz fehlt: anlernen");
    games the laptop has not taken yet are amber. A button panel that could not be opened
    is said as well ("Tastenfeld fehlt"); a working one, or none, is not."""
    panel = tr("panel_missing") if panel_problem else ""
    reader = snap.reader
    if simulate:
        reader_text, reader_level = tr("reader_simulated"), "ok"
    elif reader_fitted and deck_problem:
        reader_text, reader_level = tr("deck_missing"), "bad"
    elif reader.connected:
        reader_text, reader_level = tr("reader_ok"), "ok"
    elif not reader_fitted:
        reader_text, reader_level = tr("reader_none"), "none"
    else:
        reader_text, reader_level = tr("reader_off"), "bad"
    sync = snap.sync
    if not getattr(sync, "laptop", True):
        return Status(reader_text, reader_level, tr("sync_no_laptop"), "none", panel)
    return Status(reader_text, reader_level, sync_text(sync), "ok" if sync.all_sent else "wait", panel)


# --------------------------------------------------------------------------- bidding


@dataclass(frozen=True, slots=True)
class ValuesPage:
    values: tuple[int, ...]
    start: int
    more: bool
    less: bool


def page_of_values(values: Sequence[int], start: int, size: int) -> ValuesPage:
    """The bid buttons shown: ``size`` values from ``start``, and whether there are more."""
    start = max(0, min(start, max(0, len(values) - 1)))
    shown = tuple(values[start:start + size])
    return ValuesPage(shown, start, start + size < len(values), start > 0)


def positions_line(snap: Any) -> list[tuple[str, str]]:
    """(position word, name) for Vorhand, Mittelhand, Hinterhand of the current deal."""
    words = (tr("forehand"), tr("middlehand"), tr("rearhand"))
    return list(zip(words, snap.positions))


def bidding_prompt(bidding: Any, positions: Sequence[str], language: str) -> str:
    """The bidding's prompt in the table's language ("Mittelhand (Carla) sagt 18 — Vorhand
    (Bernd): ja / passe" or "… says 18 — Vorhand (Bernd): yes / pass"), worded by
    :func:`ui.table_words.bidding_prompt` from the snapshot's facts."""
    return table_words.bidding_prompt(bidding, tuple(positions), language)


# --------------------------------------------------------------------------- declaration


@lru_cache(maxsize=512)
def key_words(key: str) -> tuple[str, frozenset[str]]:
    """An option key split into its game and its words: ``"clubs/hand"`` → clubs, {hand}.
    Kept per key: the declaration screen asks about a thousand times a tap, for a few dozen keys."""
    game, *words = key.split("/")
    return game, frozenset(words)


@dataclass(frozen=True, slots=True)
class Choice:
    """A declaration button: what it selects (``key``), whether it is on, and if greyed, why."""

    name: str
    label: str
    key: str | None
    on: bool
    greyed: bool
    reason: str
    suit: str = ""


def _best(options: Sequence[Any], game: str, words: frozenset[str], *, want: str | None = None,
          drop: str | None = None) -> Any | None:
    """The listed option of ``game`` nearest to ``words``, with ``want`` and without ``drop``.

    The service lists every declaration there is; a tap moves to the nearest one (an allowed
    one first), so "Schneider" on a plain game lands on the Hand game announced Schneider.
    """
    found = []
    for option in options:
        o_game, o_words = key_words(option.key)
        if o_game != game or (want is not None and want not in o_words) or (drop is not None and drop in o_words):
            continue
        found.append(((not option.allowed, -len(o_words & words), len(o_words ^ words)), option))
    found.sort(key=lambda pair: pair[0])
    return found[0][1] if found else None


def _find(options: Sequence[Any], key: str | None) -> Any | None:
    return next((o for o in options if o.key == key), None)


def game_choices(options: Sequence[Any], selected: str | None) -> list[Choice]:
    """The six game buttons: ♣ Kreuz, ♠ Pik, ♥ Herz, ♦ Karo, Grand, Null (♣ Clubs … in English)."""
    sel_game, sel_words = key_words(selected) if selected else ("", frozenset())
    choices = []
    for game in GAMES:
        best = _best(options, game, sel_words)
        listed = [o for o in options if key_words(o.key)[0] == game]
        reason = next((option_reason(o) for o in listed if o.refused), tr("not_possible_now"))
        plain = _find(options, game) if game == "null" else None  # the profile's word: Danish "Nul"
        label = pick(plain.label, plain.label_en) if plain is not None and plain.label_en else tr(f"game_{game}")
        choices.append(Choice(
            name=f"game_{game}", label=label, key=None if best is None else best.key,
            on=game == sel_game, greyed=best is None or not best.allowed,
            reason="" if best is not None and best.allowed else reason, suit=GAME_SUITS.get(game, "")))
    return choices


def word_choices(options: Sequence[Any], selected: str | None) -> list[Choice]:
    """The toggles Hand, Schneider angesagt, Schwarz angesagt, Ouvert for the chosen game."""
    labels = {"hand": tr("hand"), "schneider": tr("schneider_announced"), "schwarz": tr("schwarz_announced"),
              "ouvert": tr("ouvert")}
    if not selected:
        return [Choice(f"word_{w}", labels[w], None, False, True, tr("choose_game_first")) for w in WORDS]
    game, words = key_words(selected)
    choices = []
    for word in WORDS:
        on = word in words
        target = _best(options, game, words, drop=word) if on else _best(options, game, words, want=word)
        if target is None:
            current = _find(options, selected)
            reason = tr("word_not_in_game", word=labels[word],
                        game=pick(current.label, current.label_en) if current is not None else game)
            choices.append(Choice(f"word_{word}", labels[word], None, on, True, reason))
        else:
            choices.append(Choice(f"word_{word}", labels[word], target.key, on, not target.allowed,
                                  option_reason(target)))
    return choices


# --------------------------------------------------------------------------- the list


@dataclass(frozen=True, slots=True)
class ListCell:
    text: str
    bright: bool  # changed by this row (the declarer's column on the paper list)


_OUTCOME = re.compile(r",\s*(?:gewonnen|verloren|won|lost)\b.*$")


def without_name(text: str, declarer: str | None) -> str:
    """A row's text without the declarer's name in front (shown bold beside it).

    >>> without_name("Bernd: Kreuz mit 2, Spiel 3 = 36, gewonnen +36", "Bernd")
    'Kreuz mit 2, Spiel 3 = 36, gewonnen +36'
    """
    return text[len(declarer) + 2:] if declarer and text.startswith(declarer + ": ") else text


def entry_words(text: str, declarer: str | None) -> str:
    """A row's game in words for the list's narrow column: without the declarer's name in
    front (it is shown bold beside it) and without ", gewonnen +48" (", won +48") at the end
    (the +/− column shows it).

    >>> entry_words("Bernd: Kreuz Hand mit 2, Spiel 3, Hand 4 = 48, gewonnen +48", "Bernd")
    'Kreuz Hand mit 2, Spiel 3, Hand 4 = 48'
    >>> entry_words("Bernd: Clubs Hand with 2, game 3, Hand 4 = 48, won +48", "Bernd")
    'Clubs Hand with 2, game 3, Hand 4 = 48'
    """
    return _OUTCOME.sub("", without_name(text, declarer))


@dataclass(frozen=True, slots=True)
class ListLine:
    """One line of the list as the paper list writes it (ISkO 5.5.2): Nr, Geber,
    Alleinspieler, the game in short with its suit chip, Grundwert, Spitzen, Gewinnstufen,
    Wert, and each player's running game points where the row changed them. Names are the
    players' short names."""

    number: str
    dealer: str
    declarer: str  # a Ramsch: the loser(s)
    game: str  # "Kreuz H", "eingepasst", "Ramsch"
    suit: str
    base: str  # Grundwert
    tops: str  # Spitzen: "m2", "o3"
    levels: str  # Gewinnstufen beyond the Spitzen
    score: str  # Wert, signed
    score_sign: int
    cells: tuple[ListCell, ...]
    struck: tuple[str, ...]  # the entries this row had before a correction, in words with their scores
    passed_in: bool
    marks: str
    kind: str = "game"  # "game", "passed_in", "ramsch"
    words: str = ""  # the whole entry in words ("Kreuz mit 2, Spiel 3 = 36, gewonnen +36")


def tops_text(tops: int | None) -> str:
    """Spitzen in the list's short form: +2 → "m2" ("w2" in English), −3 → "o3" ("wo3").

    >>> tops_text(2), tops_text(-3), tops_text(None)
    ('m2', 'o3', '')
    """
    if tops is None:
        return ""
    return f"{tr('tops_with')}{tops}" if tops > 0 else f"{tr('tops_without')}{-tops}"


def list_lines(view: Any, name_limit: int | None = None) -> list[ListLine]:
    """The list as the paper list shows it, one line per game (see :class:`ListLine`);
    ``name_limit``: the short names' length (default: by the table's size)."""
    short = short_names(view.players, name_limit)
    lines = []
    for row in view.rows:
        cells = tuple(ListCell("" if p is None else total_text(p), p is not None)
                      for p in (row.game_points or (None,) * len(view.players)))
        score = row.score
        declarer = short.get(row.declarer or "", row.declarer or "")
        if row.kind == "ramsch":
            _text, score = ramsch_words(view.players, row.points)
            declarer = ", ".join(short[name] for name, p in zip(view.players, row.points) if p)
        lines.append(ListLine(
            number=str(row.number), dealer=short.get(row.dealer, row.dealer), declarer=declarer,
            game=pick(row.short, row.short_en) or (tr("passed_in") if row.kind == "passed_in" else "Ramsch"),
            suit=game_suit(row.game), base="" if row.base_value is None else str(row.base_value),
            tops=tops_text(row.tops), levels="" if row.levels is None else str(row.levels),
            score="" if score is None else signed(score),
            score_sign=0 if not score else (1 if score > 0 else -1), cells=cells,
            # the earlier entry with its score: a correction may change the score only
            struck=tuple(without_name(t, row.declarer) for t in pick(row.earlier, row.earlier_en)),
            passed_in=row.kind == "passed_in", marks=" ".join(row.marks), kind=row.kind,
            words=without_name(pick(row.text, row.text_en), row.declarer)))
    return lines


@dataclass(frozen=True, slots=True)
class StandLine:
    """A "Stand" line under the list: a label and one figure per player."""

    label: str
    cells: tuple[str, ...]
    bold: bool


def stand_lines(view: Any) -> list[StandLine]:
    """The totals as on paper: each player's game points, won and lost games, and the
    scoring system's total (the 50/40/30 of Seeger-Fabian belong here, not in the rows)."""
    lines = [StandLine(tr("col_game_points"), tuple(total_text(t) for t in view.classic), True),
             StandLine(tr("col_won_lost"), tuple(f"{w} / {lost}" for w, lost in zip(view.won, view.lost)), False)]
    if view.system != "classic":
        lines.append(StandLine(scoring_label(view.system),
                               tuple(total_text(t) for t in view.totals), True))
    if view.pot is not None:  # 001 "Spiel um einen Pot": what each took out or paid in
        lines.append(StandLine(tr("pot_line", content=view.pot), tuple(signed(n) for n in view.pot_net), False))
    return lines


def ramsch_words(players: Sequence[str], points: Sequence[int | None]) -> tuple[str, int | None]:
    """A Ramsch row for the list: who scored what, with a true minus, and the score for the
    +/− column when everybody who scored has the same (the loser, or two losers alike).

    >>> ramsch_words(("Anna", "Bernd", "Carla"), (0, None, -124))
    ('Ramsch: Carla −124', -124)
    >>> ramsch_words(("Anna", "Bernd", "Carla"), (-90, -90, 0))
    ('Ramsch: Anna −90, Bernd −90', -90)
    """
    scored = [(name, p) for name, p in zip(players, points) if p]
    if not scored:
        return f"Ramsch: {tr('ramsch_no_score')}", None
    text = "Ramsch: " + ", ".join(f"{name} {signed(p)}" for name, p in scored if p is not None)
    values = {p for _, p in scored}
    return text, (values.pop() if len(values) == 1 else None)


def chart_series(view: Any) -> list[list[int]]:
    """Each player's running total over the evening, starting at 0 (for the end chart)."""
    series: list[list[int]] = [[0] for _ in view.players]
    for row in view.rows:
        for index, total in enumerate(row.totals):
            series[index].append(total)
    return series


# --------------------------------------------------------------------------- the result


def _one(key: str, tricks: int) -> str:
    """The text's key for one trick ("1 Stich", not "1 Stiche")."""
    return f"{key}_one" if tricks == 1 else key


def result_counts(result: Any, declarer: str) -> str:
    """What was entered, for the two players who confirm to check: the declarer's Augen and
    Stiche and the bid ("Carla: 80 Augen · 7 Stiche · gereizt 36"; a Null: the tricks only).
    An overbid game is valued at the bid, so the bid is what explains its value."""
    if result.declarer_tricks is None:  # not counted: the Augen alone (a Null "verloren": nothing)
        if result.game == "null" or result.declarer_points is None:
            return ""
        counts = tr("result_points", name=declarer, points=result.declarer_points)
    elif result.game == "null" or result.declarer_points is None:
        counts = tr(_one("result_tricks", result.declarer_tricks), name=declarer, tricks=result.declarer_tricks)
    else:
        counts = tr(_one("result_counts", result.declarer_tricks), name=declarer, points=result.declarer_points,
                    tricks=result.declarer_tricks)
    return counts + (f" · {tr('bid_was', bid=result.bid)}" if result.bid else "")


# --------------------------------------------------------------------------- end of the series


@dataclass(frozen=True, slots=True)
class StandingLine:
    """A line of the ranking: the plain game points beside the scoring system's total, so
    the table can check the amounts (the money is computed from the game points)."""

    rank: str
    name: str
    won_lost: str
    game_points: str
    total: str


def standing_lines(end: Any, view: Any) -> list[StandingLine]:
    """The ranking with each player's won/lost games, game points and total, best first."""
    classic = dict(zip(view.players, view.classic))
    return [StandingLine(f"{s.rank}.", s.name, tr("won_lost", won=s.won, lost=s.lost),
                         total_text(classic.get(s.name, 0)), total_text(s.total)) for s in end.ranking]


def money_lines(end: Any, players: Sequence[str] = ()) -> list[str]:
    """Every payment of the settlement, one line each ("Dieter zahlt Bernd 0,24 €"), or
    "Niemand zahlt" when the stake is set and nobody owes; nothing without a stake. With a pot
    (``players``: the list's, in order) a line first says what each took out or paid in."""
    pot = []
    if end.pot_net and players:  # 001 "Spiel um einen Pot": paid out with the game points
        pot = [tr("pot_paid_out", left=end.pot_left,
                  shares=", ".join(f"{name} {signed(n)}" for name, n in zip(players, end.pot_net)))]
    if end.transfers:  # the amount never breaks from its € sign
        return pot + [transfer_text(t).replace(" €", "\u00a0€") for t in end.transfers]
    return pot + ([tr("nobody_pays")] if end.stake not in ("", "0") else [])


# --------------------------------------------------------------------------- corrections


#: What a corrected entry keeps of the old record: the declaration, Kontra/Re/Bock, and how
#: the game ended (the table re-enters the counts only). Cards and counts are replaced.
_KEPT_FIELDS = ("v", "game", "hand", "ouvert", "announced", "bid", "kontra", "re", "bock", "ending", "note", "schenken",
                "spitze", "spitze_made", *TOURNEE_FIELDS)  # Tournée-Skat: which game (device.tournee), the card turned up


def corrected_record(record: dict[str, Any], *, declarer_tricks: int | None, declarer_points: int | None,
                     matadors: int | None) -> dict[str, Any]:
    """The corrected game record in the counted form (ISkO 5.5.3): the entry's declaration
    with the counts the table entered again. The service checks it (ProposeCorrection).

    >>> old = {"v": 1, "game": "clubs", "hand": False, "bid": 20, "declarer": 1, "skat": ["C7", "S7"],
    ...        "tricks": [], "seat": 2, "player": "Carla"}
    >>> corrected_record(old, declarer_tricks=8, declarer_points=91, matadors=2)
    {'v': 1, 'game': 'clubs', 'hand': False, 'bid': 20, 'declarer_tricks': 8, 'declarer_points': 91, 'matadors': 2}
    >>> corrected_record({"game": "null", "bid": 23}, declarer_tricks=1, declarer_points=None, matadors=None)
    {'game': 'null', 'bid': 23, 'declarer_tricks': 1}
    >>> corrected_record({"game": "null", "bid": 24, "matadors": 1, "lost_as": "clubs"},  # overbid Null (ISkO 3.4.4)
    ...                  declarer_tricks=0, declarer_points=0, matadors=-2)
    {'game': 'null', 'bid': 24, 'declarer_tricks': 0, 'declarer_points': 0, 'matadors': -2}
    """
    new = {key: record[key] for key in _KEPT_FIELDS if key in record}
    if "spitze" in record and "spitze_made" not in record and "tricks" in record:  # the cards showed it
        made = spitze_made_by_cards(record)
        if made is not None:
            new["spitze_made"] = made
    if declarer_tricks is not None or record.get("game") == "null":  # not counted: left out (Null: null, lost)
        new["declarer_tricks"] = declarer_tricks
    if declarer_points is not None:
        new["declarer_points"] = declarer_points
    overbid_null = record.get("game") == "null" and "matadors" in record  # lost as a suit game (ISkO 3.4.4)
    if matadors is not None and (record.get("game") != "null" or overbid_null):
        new["matadors"] = matadors
    return new


# --------------------------------------------------------------------------- Ramsch entry


RAMSCH_POINTS = ("points_0", "points_1", "points_2")
RAMSCH_TRICKS = ("tricks_0", "tricks_1", "tricks_2")
RAMSCH_FIELDS = (*RAMSCH_POINTS, "skat", *RAMSCH_TRICKS, "pushes")  # as the screen reads: row by row
_RAMSCH_LIMITS = {"skat": 22, "pushes": 3, **{f: 120 for f in RAMSCH_POINTS}, **{f: 10 for f in RAMSCH_TRICKS}}


class RamschForm:
    """What the table has typed into the Ramsch entry so far: each position's card points
    and tricks, the skat's points, the pushes (Schieberamsch) and who took the last trick.

    A field is chosen by a tap and filled from the number pad; the first digit after the
    choice replaces what the field held (so a wrong number is typed over, not appended to).
    The service checks the counts (``EnterRamsch``); the form only says what is still empty.

    >>> form = RamschForm(may_push=True)
    >>> for key in "58": form.press(key)
    >>> form.select("points_1"); form.press("5"); form.press("2"); form.press("0")  # 520: the 0 is ignored
    >>> form.values["points_0"], form.values["points_1"]
    (58, 52)
    >>> form.select("points_0"); form.press("6"); form.values["points_0"]  # typed over
    6
    >>> form.missing()[:2]
    ['points_2', 'skat']
    """

    def __init__(self, *, may_push: bool = False, max_pushes: int = 3) -> None:
        self.may_push = may_push
        self.max_pushes = max_pushes
        self.values: dict[str, int | None] = {f: None for f in RAMSCH_FIELDS}
        if may_push:
            self.values["pushes"] = 0  # nobody pushed unless the table says so
        self.selected = RAMSCH_FIELDS[0]
        self.fresh = True
        self.last_trick: int | None = None

    def limit(self, field: str) -> int:
        return self.max_pushes if field == "pushes" else _RAMSCH_LIMITS[field]

    def select(self, field: str) -> None:
        if field not in RAMSCH_FIELDS or (field == "pushes" and not self.may_push):
            raise ValueError(f"no Ramsch field {field!r}")
        self.selected = field
        self.fresh = True

    def press(self, key: str) -> None:
        """A key of the number pad: a digit, "C" (clear) or "⌫" (the last digit)."""
        field = self.selected
        value = self.values[field]
        if key == "C":
            self.values[field] = None
        elif key == "⌫":
            digits = "" if value is None else str(value)[:-1]
            self.values[field] = int(digits) if digits else None
        elif key.isdigit():
            typed = key if self.fresh or value is None else f"{value}{key}"
            if int(typed) <= self.limit(field):  # a digit too many is ignored, as on a calculator
                self.values[field] = int(typed)
        else:
            raise ValueError(f"no key {key!r} on the number pad")
        self.fresh = False

    def set_last_trick(self, position: int) -> None:
        self.last_trick = None if self.last_trick == position else position

    def missing(self) -> list[str]:
        """The fields still empty, in the order of the screen (and "last" for the last trick)."""
        empty = [f for f in RAMSCH_FIELDS if self.values[f] is None and (f != "pushes" or self.may_push)]
        return empty + (["last"] if self.last_trick is None else [])

    def sums(self) -> tuple[int, int]:
        """The card points typed so far (the skat's included) and the tricks."""
        points = sum(self.values[f] or 0 for f in (*RAMSCH_POINTS, "skat"))
        return points, sum(self.values[f] or 0 for f in RAMSCH_TRICKS)

    def command_args(self) -> tuple[tuple[int, int, int], tuple[int, int, int], int, int, int]:
        """The arguments of ``EnterRamsch``; call when nothing is missing."""
        if self.missing():
            raise ValueError(f"still empty: {', '.join(self.missing())}")
        v = {k: int(x) for k, x in self.values.items() if x is not None}
        assert self.last_trick is not None
        return ((v["points_0"], v["points_1"], v["points_2"]), (v["tricks_0"], v["tricks_1"], v["tricks_2"]),
                v["skat"], self.last_trick, v.get("pushes", 0))
