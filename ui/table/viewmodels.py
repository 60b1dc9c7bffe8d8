"""What the screens show, as plain values computed from the service's snapshot.

No Kivy and no rules here: the service has decided everything (which bids, which
declarations and why not, the list's numbers). These functions only lay the snapshot out
for the screen: pages of bid buttons, the declaration's toggles built from the option list,
the list's rows and columns, the chart's lines. They are unit-tested without a window.

>>> page_of_values(tuple(range(18, 40)), 0, 7)
ValuesPage(values=(18, 19, 20, 21, 22, 23, 24), start=0, more=True, less=False)
>>> suit_in("Bernd: Kreuz Hand mit 2, Spiel 3, Hand 4 = 48"), suit_in("eingepasst")
('C', '')
>>> signed(24), signed(-48), signed(0)
('+24', '−48', '0')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ui.i18n import tr

WORDS = ("hand", "schneider", "schwarz", "ouvert")
GAMES = ("clubs", "spades", "hearts", "diamonds", "grand", "null")
GAME_SUITS = {"clubs": "C", "spades": "S", "hearts": "H", "diamonds": "D"}
_SUIT_WORDS = {"Kreuz": "C", "Pik": "S", "Herz": "H", "Karo": "D"}
_SUIT_RE = re.compile(r"(?:^|[:\s])(Kreuz|Pik|Herz|Karo)\b")


def signed(value: int) -> str:
    """A list number with its sign (a true minus sign: easier to read than a hyphen)."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"−{-value}"
    return "0"


def suit_in(text: str) -> str:
    """The suit code of the first suit game named in a text ("" if none), for its chip.

    The snapshot's rows and play view give the game in words only; the chip needs the suit.
    """
    match = _SUIT_RE.search(text or "")
    return _SUIT_WORDS[match.group(1)] if match else ""


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
    """The prompt in the player's words. German: the service's own prompt; English: the
    same facts (role, speaker, value) put in English words."""
    if language == "de":
        return str(bidding.prompt)
    word = ("Vorhand", "Mittelhand", "Hinterhand")
    speaker = f"{word[bidding.speaker]} ({bidding.speaker_name})"
    if bidding.role == "answering" and bidding.partner is not None:
        partner = f"{word[bidding.partner]} ({positions[bidding.partner]})"
        return f"{partner} says {bidding.current} — {speaker}: yes / pass"
    if bidding.role == "deciding":
        return f"{speaker}: play (18) or pass?"
    target = f" — to {word[bidding.partner]} ({positions[bidding.partner]})" if bidding.partner is not None else ""
    so_far = f" (so far {bidding.current})" if bidding.current else ""
    return f"{speaker} says …{target}{so_far}"


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
    """The six game buttons: ♣ Kreuz, ♠ Pik, ♥ Herz, ♦ Karo, Grand, Null."""
    sel_game, sel_words = key_words(selected) if selected else ("", frozenset())
    names = {"clubs": "Kreuz", "spades": "Pik", "hearts": "Herz", "diamonds": "Karo", "grand": "Grand", "null": "Null"}
    choices = []
    for game in GAMES:
        best = _best(options, game, sel_words)
        listed = [o for o in options if key_words(o.key)[0] == game]
        reason = next((o.reason for o in listed if o.reason), tr("not_possible_now"))
        choices.append(Choice(
            name=f"game_{game}", label=names[game], key=None if best is None else best.key, on=game == sel_game,
            greyed=best is None or not best.allowed, reason="" if best is not None and best.allowed else reason,
            suit=GAME_SUITS.get(game, "")))
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
            reason = tr("word_not_in_game", word=labels[word], game=current.label if current is not None else game)
            choices.append(Choice(f"word_{word}", labels[word], None, on, True, reason))
        else:
            choices.append(Choice(f"word_{word}", labels[word], target.key, on, not target.allowed, target.reason))
    return choices


# --------------------------------------------------------------------------- the list


@dataclass(frozen=True, slots=True)
class ListCell:
    text: str
    bright: bool  # changed by this row (the declarer's column on the paper list)


_OUTCOME = re.compile(r",\s*(?:gewonnen|verloren)\b.*$")


def entry_words(text: str, declarer: str | None) -> str:
    """A row's game in words for the list's narrow column: without the declarer's name in
    front (it is shown bold beside it) and without ", gewonnen +48" at the end (the +/−
    column shows it).

    >>> entry_words("Bernd: Kreuz Hand mit 2, Spiel 3, Hand 4 = 48, gewonnen +48", "Bernd")
    'Kreuz Hand mit 2, Spiel 3, Hand 4 = 48'
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


def list_lines(view: Any) -> list[ListLine]:
    """The list as the paper list shows it: per row its number, dealer, game in words, the
    entry (+/−) and each player's running total, bright where the row changed it."""
    lines = []
    before: tuple[int, ...] = tuple(0 for _ in view.players)
    for row in view.rows:
        cells = []
        for index, total in enumerate(row.totals):
            changed = total != (before[index] if index < len(before) else 0)
            cells.append(ListCell(str(total) if changed or row.points[index] else "", changed))
        before = tuple(row.totals)
        text = entry_words(row.text, row.declarer) if row.kind != "passed_in" else tr("passed_in")
        lines.append(ListLine(
            number=str(row.number), dealer=row.dealer, declarer=row.declarer or "", game=text,
            suit=suit_in(row.text),
            score="" if row.score is None else signed(row.score),
            score_sign=0 if not row.score else (1 if row.score > 0 else -1), cells=tuple(cells),
            struck=tuple(entry_words(t, row.declarer) for t in row.earlier), passed_in=row.kind == "passed_in", marks=" ".join(row.marks)))
    return lines


def chart_series(view: Any) -> list[list[int]]:
    """Each player's running total over the evening, starting at 0 (for the end chart)."""
    series: list[list[int]] = [[0] for _ in view.players]
    for row in view.rows:
        for index, total in enumerate(row.totals):
            series[index].append(total)
    return series
