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
from typing import Any

from ui.i18n import pick, tr

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
    """The service's prompt in the table's language ("Mittelhand (Carla) sagt 18 — Vorhand
    (Bernd): ja / passe" or "… says 18 — Vorhand (Bernd): yes / pass"). ``positions`` is no
    longer needed (the service names the players itself); kept for the callers."""
    return str(bidding.prompt if language == "de" else bidding.prompt_en or bidding.prompt)


# --------------------------------------------------------------------------- declaration


def key_words(key: str) -> tuple[str, frozenset[str]]:
    """An option key split into its game and its words: ``"clubs/hand"`` → clubs, {hand}."""
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
        reason = next((pick(o.reason, o.reason_en) for o in listed if o.reason), tr("not_possible_now"))
        choices.append(Choice(
            name=f"game_{game}", label=tr(f"game_{game}"), key=None if best is None else best.key,
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
                                  pick(target.reason, target.reason_en)))
    return choices


# --------------------------------------------------------------------------- the list


@dataclass(frozen=True, slots=True)
class ListCell:
    text: str
    bright: bool  # changed by this row (the declarer's column on the paper list)


_OUTCOME = re.compile(r",\s*(?:gewonnen|verloren|won|lost)\b.*$")


def entry_words(text: str, declarer: str | None) -> str:
    """A row's game in words for the list's narrow column: without the declarer's name in
    front (it is shown bold beside it) and without ", gewonnen +48" (", won +48") at the end
    (the +/− column shows it).

    >>> entry_words("Bernd: Kreuz Hand mit 2, Spiel 3, Hand 4 = 48, gewonnen +48", "Bernd")
    'Kreuz Hand mit 2, Spiel 3, Hand 4 = 48'
    >>> entry_words("Bernd: Clubs Hand with 2, game 3, Hand 4 = 48, won +48", "Bernd")
    'Clubs Hand with 2, game 3, Hand 4 = 48'
    """
    if declarer and text.startswith(declarer + ": "):
        text = text[len(declarer) + 2:]
    return _OUTCOME.sub("", text)


@dataclass(frozen=True, slots=True)
class ListLine:
    number: str
    dealer: str
    declarer: str
    game: str
    suit: str
    score: str
    score_sign: int
    cells: tuple[ListCell, ...]
    struck: tuple[str, ...]  # the texts this entry had before a correction
    passed_in: bool
    marks: str
    kind: str = "game"  # "game", "passed_in", "ramsch"


def list_lines(view: Any) -> list[ListLine]:
    """The list as the paper list shows it: per row its number, dealer, game in words, the
    entry (+/−) and each player's running total, bright where the row changed it."""
    lines = []
    before: tuple[int, ...] = tuple(0 for _ in view.players)
    for row in view.rows:
        cells = []
        for index, total in enumerate(row.totals):
            changed = total != (before[index] if index < len(before) else 0)
            cells.append(ListCell(total_text(total) if changed or row.points[index] else "", changed))
        before = tuple(row.totals)
        score = row.score
        if row.kind == "ramsch":
            text, score = ramsch_words(view.players, row.points)
        elif row.kind == "passed_in":
            text = tr("passed_in")
        else:
            text = entry_words(pick(row.text, row.text_en), row.declarer)
        lines.append(ListLine(
            number=str(row.number), dealer=row.dealer, declarer=row.declarer or "", game=text,
            suit=game_suit(row.game),
            score="" if score is None else signed(score),
            score_sign=0 if not score else (1 if score > 0 else -1), cells=tuple(cells),
            struck=tuple(entry_words(t, row.declarer) for t in pick(row.earlier, row.earlier_en)),
            passed_in=row.kind == "passed_in",
            marks=" ".join(row.marks), kind=row.kind))
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


# --------------------------------------------------------------------------- corrections


#: What a corrected entry keeps of the old record: the declaration, Kontra/Re/Bock, and how
#: the game ended (the table re-enters the counts only). Cards and counts are replaced.
_KEPT_FIELDS = ("v", "game", "hand", "ouvert", "announced", "bid", "kontra", "re", "bock", "ending", "note")


def corrected_record(record: dict[str, Any], *, declarer_tricks: int, declarer_points: int | None,
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
