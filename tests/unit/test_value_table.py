"""The value table of ISkO 5.6, checked exhaustively against :func:`device.value.score_game`.

Every suit and Grand game the rules allow is enumerated: game type, with or without the skat,
announcement (none, Schneider, Schwarz), ouvert, the matadors ("mit" and "ohne" 1 to 11 in a suit
game, 1 to 4 in Grand) and a set of counted results (card points and tricks) that reach each
level and lie on the boundaries (61/60, 90/89, 31/30, a 0-point trick, no trick). Each is scored
through ``score_game`` and compared with a computation written here from the rule text, in a
different shape than the code under test: the *Stufenzahl* table of 5.2.1 (as the Skat court's
text 002 prints it, "Klasse I: Spiele mit Skataufnahme" 1-3, "Klasse II: Handspiele" 2-7), so

    value = Grundwert x (Spitzen + Stufenzahl)            (5.3.2)

and a lost game is entered at twice its value (5.3.4), at least at the announced level (5.2.5).

The 664 games ("Es gibt beim Skat 664 verschiedenen Spiele, wobei es klar ist, dass eine große
Zahl nur in der Theorie besteht", file 000, "Zahlenwunder")
---------------------------------------------------------------------------------------------
The text does not say what it counts. It is reproduced exactly by counting the distinct *won*
games as the list records them (5.5.2): game type, Spitzen with "mit"/"ohne" told apart, and
the set of counted levels -- keeping a game whenever some deal allows it ("nur in der
Theorie") and dropping only what the matadors themselves rule out. Those are the top trumps a
declarer is "ohne": they sit with the defenders (the matadors count the skat) and win every
trick they fall in, so

* "ohne" no Schwarz is possible (the Kreuz Bube takes a trick; 5.4.3: "Schwarz ... ohne 1
  Spitze" is theoretically excluded), hence no Schwarz angesagt and no ouvert either;
* Schneider is impossible when the missing top trumps alone carry more than 30 Augen: in a
  suit game "ohne 7" (4 jacks + ace + ten + king = 33) and more; "ohne 6" leaves 29.

Per suit: mit 1-11 x 10 level sets (3 with the skat + 7 in hand games) = 110, ohne 1-6 x 5
(einfach, Schneider; Hand, Hand Schneider, Hand Schneider angesagt) = 30, ohne 7-11 x 2
(einfach; Hand) = 10: 150, so 600 for the four suits. Grand: mit 1-4 x 10 + ohne 1-4 x 5 = 60.
Null: 4 fixed games. 600 + 60 + 4 = 664.

The same exclusions are what ``score_game`` refuses as impossible results of a game played out
(10 tricks "ohne", more than 120 minus the missing top trumps' Augen), so the count is taken
from the results ``score_game`` accepts and checked against the prediction made here.

Where a finer analysis would drop more (for example "mit 11 einfach": the defenders then have
no trump, yet they can still take one trick worth up to 32 Augen, so it stays possible), the
count follows the text, which keeps every game the matadors allow.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from device.bidding import BID_VALUES
from device.declaration import Declaration, Level
from device.games import GameType
from device.value import InvalidResultError, Play, score_game

TABLE = Path(__file__).resolve().parents[1] / "data" / "values" / "table_5_6.json"

# --- the rule text, transcribed ----------------------------------------------------------

# 5.1.1 Grundwerte.
BASE = {GameType.DIAMONDS: 9, GameType.HEARTS: 10, GameType.SPADES: 11, GameType.CLUBS: 12, GameType.GRAND: 24}
SPITZEN = {GameType.DIAMONDS: 11, GameType.HEARTS: 11, GameType.SPADES: 11, GameType.CLUBS: 11, GameType.GRAND: 4}
# 5.1.2 Nullspiele (hand, ouvert) -> fixed value.
NULL = {(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59}

# 5.2.1 Stufenzahl by (hand game?, announcement, level reached or lost at).
# announcement: "-" none, "Schneider", "Schwarz", "ouvert" (5.2.6: counts as Schwarz angesagt).
STUFEN = {
    # Klasse I: Spiele mit Skataufnahme
    (False, "-", "einfach"): 1,
    (False, "-", "Schneider"): 2,
    (False, "-", "Schwarz"): 3,
    # Klasse II: Handspiele ("sie haben ... die Gewinnstufe Hand voraus")
    (True, "-", "einfach"): 2,
    (True, "-", "Schneider"): 3,
    (True, "Schneider", "Schneider"): 4,  # "Schneider angesagt oder Schwarz"
    (True, "-", "Schwarz"): 4,
    (True, "Schneider", "Schwarz"): 5,  # "Schneider angesagt und Schwarz"
    (True, "Schwarz", "Schwarz"): 6,  # "Schwarz angesagt"
    (True, "ouvert", "Schwarz"): 7,  # "offen"
}
LEVEL_ORDER = ("einfach", "Schneider", "Schwarz")

# Trump order and card points (file 001, "Rangfolge der Karten", "Punktwerte der Karten"):
# KreuzB PikB HerzB KaroB A 10 K D 9 8 7, worth B 2, A 11, 10 10, K 4, D 3, 9 8 7 nothing.
SUIT_TRUMP_AUGEN = (2, 2, 2, 2, 11, 10, 4, 3, 0, 0, 0)
GRAND_TRUMP_AUGEN = (2, 2, 2, 2)


@dataclass(frozen=True)
class Kind:
    """A declaration as the rule text names it."""

    hand: bool
    announcement: str  # "-", "Schneider", "Schwarz", "ouvert"

    def declaration(self, game: GameType) -> Declaration:
        level = {"-": Level.SIMPLE, "Schneider": Level.SCHNEIDER, "Schwarz": Level.SCHWARZ, "ouvert": Level.SCHWARZ}
        return Declaration.make(game, hand=self.hand, ouvert=self.announcement == "ouvert",
                                announced=level[self.announcement])

    @property
    def announced_level(self) -> str:
        return {"-": "einfach", "Schneider": "Schneider"}.get(self.announcement, "Schwarz")


KINDS = (Kind(False, "-"), Kind(True, "-"), Kind(True, "Schneider"), Kind(True, "Schwarz"), Kind(True, "ouvert"))

# Counted results (declarer's Augen incl. skat, tricks), chosen on the boundaries of 5.2.2-5.2.4.
PLAYS = (
    (120, 10),  # Schwarz
    (120, 9),  # all Augen but one 0-point trick given: only Schneider (5.2.4)
    (118, 9),
    (90, 9),
    (90, 7),  # Schneider with the 90th Auge (5.2.3: defenders 30)
    (89, 8),  # one short of Schneider
    (61, 5),  # won with the 61st Auge (5.2.2)
    (60, 5),  # lost: 60 is not enough
    (31, 3),  # lost, out of his own Schneider
    (30, 2),  # lost Schneider (5.2.3)
    (0, 1),  # a trick without Augen: not Schwarz (5.2.4)
    (22, 0),  # no trick, two aces in the skat: Schwarz
    (0, 0),
)


def missing_augen(game: GameType, matadors: int) -> int:
    """Augen of the top trumps the declarer is "ohne" (they are the defenders')."""
    augen = GRAND_TRUMP_AUGEN if game is GameType.GRAND else SUIT_TRUMP_AUGEN
    return sum(augen[: -matadors]) if matadors < 0 else 0


def possible(game: GameType, matadors: int, points: int, tricks: int) -> bool:
    """Whether the matadors allow this result of a game played out (see the module docstring)."""
    return not (matadors < 0 and tricks == 10) and points <= 120 - missing_augen(game, matadors)


@dataclass(frozen=True)
class Expected:
    won: bool
    level: str  # reached (won) or lost at
    stufen: int
    value: int
    score: int


def expected(game: GameType, kind: Kind, matadors: int, points: int, tricks: int) -> Expected:
    """The rule text's result for a played-out game at bid 18 (no game is worth less)."""
    reached = "Schwarz" if tricks == 10 else "Schneider" if points >= 90 else "einfach"
    won = points >= 61 and LEVEL_ORDER.index(reached) >= LEVEL_ORDER.index(kind.announced_level)
    if won:  # 5.2.5: a higher level than the announced one counts
        level = reached
    else:  # his own Schneider/Schwarz, at least the announced level, never twice (5.2.5)
        own = "Schwarz" if tricks == 0 else "Schneider" if points <= 30 else "einfach"
        level = max(own, kind.announced_level, key=LEVEL_ORDER.index)
    stufen = STUFEN[(kind.hand, kind.announcement, level)]
    value = BASE[game] * (abs(matadors) + stufen)
    return Expected(won, level, stufen, value, value if won else -2 * value)


@dataclass(frozen=True)
class Case:
    game: GameType
    kind: Kind
    matadors: int
    points: int
    tricks: int

    def __str__(self) -> str:
        mit = f"mit {self.matadors}" if self.matadors > 0 else f"ohne {-self.matadors}"
        return (f"{self.game.german} {'Hand' if self.kind.hand else 'mit Skat'} {self.kind.announcement} "
                f"{mit}: {self.points} Augen, {self.tricks} Stiche")


def all_cases() -> Iterator[Case]:
    for game, most in SPITZEN.items():
        for matadors in [*range(1, most + 1), *range(-1, -most - 1, -1)]:
            for kind in KINDS:
                for points, tricks in PLAYS:
                    yield Case(game, kind, matadors, points, tricks)


CASES = tuple(all_cases())


@pytest.fixture(scope="module")
def scored() -> dict[Case, Any]:
    """Each case's GameResult, or the InvalidResultError score_game raised."""
    out: dict[Case, Any] = {}
    for case in CASES:
        try:
            out[case] = score_game(case.kind.declaration(case.game), 18,
                                   Play(case.points, case.tricks, case.matadors))
        except InvalidResultError as exc:
            out[case] = exc
    return out


def test_the_enumeration_covers_every_declaration_and_spitzen() -> None:
    assert len(CASES) == (4 * 22 + 8) * len(KINDS) * len(PLAYS)


def test_impossible_results_are_exactly_those_the_matadors_rule_out(scored: dict[Case, Any]) -> None:
    wrong = [
        f"{case}: expected {'accepted' if possible(case.game, case.matadors, case.points, case.tricks) else 'refused'}, "
        f"got {result!r}"
        for case, result in scored.items()
        if isinstance(result, InvalidResultError) == possible(case.game, case.matadors, case.points, case.tricks)
    ]
    assert not wrong, "\n".join(wrong[:20])


def test_every_game_has_the_value_of_the_rule_text(scored: dict[Case, Any]) -> None:
    wrong = []
    for case, result in scored.items():
        if isinstance(result, InvalidResultError):
            continue
        want = expected(case.game, case.kind, case.matadors, case.points, case.tricks)
        got = (result.won, result.value, result.score, result.overbid, result.factor, len(result.levels) - 1)
        if got != (want.won, want.value, want.score, False, abs(case.matadors) + want.stufen, want.stufen):
            wrong.append(f"{case}: got won/value/score/overbid/factor/steps {got}, rule text says {want}")
    assert not wrong, "\n".join(wrong[:20])


def test_the_schneider_and_schwarz_flags_follow_the_level(scored: dict[Case, Any]) -> None:
    for case, result in scored.items():
        if isinstance(result, InvalidResultError):
            continue
        level = expected(case.game, case.kind, case.matadors, case.points, case.tricks).level
        # A lost game counts a Schneider its declarer made (e.g. 95 Augen, Schwarz angesagt, 9 tricks).
        made_schneider = case.points >= 90
        assert result.schwarz == (level == "Schwarz"), str(case)
        assert result.schneider == (level != "einfach" or made_schneider), str(case)


def test_klasse_i_and_ii_factors_stay_in_their_ranges(scored: dict[Case, Any]) -> None:
    """5.3.2: Summe der Fälle 2 to 14 with the skat, 3 to 18 in hand games; Grand at most 11."""
    factors: dict[tuple[bool, bool], set[int]] = {}
    for case, result in scored.items():
        if not isinstance(result, InvalidResultError):
            factors.setdefault((case.game is GameType.GRAND, case.kind.hand), set()).add(result.factor)
    assert factors[(False, False)] == set(range(2, 15))
    assert factors[(False, True)] == set(range(3, 19))
    assert factors[(True, False)] == set(range(2, 8))
    assert factors[(True, True)] == set(range(3, 12))


def test_no_game_is_worth_more_than_264_nor_costs_more_than_528(scored: dict[Case, Any]) -> None:
    results = [r for r in scored.values() if not isinstance(r, InvalidResultError)]
    assert max(r.value for r in results if r.won) == 264  # Grand ouvert mit 4
    assert min(r.score for r in results) == -528  # Grand ouvert mit 4, lost
    assert all(0 < r.value <= 264 and -528 <= r.score <= 264 for r in results)


def test_664_distinct_games(scored: dict[Case, Any]) -> None:
    """The count of the rule text (see the module docstring for what it counts)."""
    won = {(case.game, case.matadors, result.levels)
           for case, result in scored.items() if not isinstance(result, InvalidResultError) and result.won}
    nulls = {(hand, ouvert) for hand in (False, True) for ouvert in (False, True)
             if score_game(Declaration.make(GameType.NULL, hand=hand, ouvert=ouvert), 18, Play(0, 0)).won}
    # The prediction from the module docstring, per game type and "mit"/"ohne".
    per_game = Counter((game, matadors > 0) for game, matadors, _ in won)
    for suit in (GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS):
        assert per_game[(suit, True)] == 11 * 10
        assert per_game[(suit, False)] == 6 * 5 + 5 * 2
    assert per_game[(GameType.GRAND, True)] == 4 * 10
    assert per_game[(GameType.GRAND, False)] == 4 * 5
    assert len(won) + len(nulls) == 664


def test_the_level_sets_of_one_spitzen_count() -> None:
    """The ten ways to win "mit 1" (3 with the skat, 7 in hand games, 5.2.1) as the list words them."""
    seen = set()
    for kind in KINDS:
        for points, tricks in PLAYS:
            result = score_game(kind.declaration(GameType.CLUBS), 18, Play(points, tricks, 1))
            if result.won:
                seen.add(result.levels[1:])
    assert seen == {
        ("Spiel",), ("Spiel", "Schneider"), ("Spiel", "Schneider", "Schwarz"),
        ("Spiel", "Hand"), ("Spiel", "Hand", "Schneider"), ("Spiel", "Hand", "Schneider", "Schwarz"),
        ("Spiel", "Hand", "Schneider", "Schneider angesagt"),
        ("Spiel", "Hand", "Schneider", "Schneider angesagt", "Schwarz"),
        ("Spiel", "Hand", "Schneider", "Schneider angesagt", "Schwarz", "Schwarz angesagt"),
        ("Spiel", "Hand", "Schneider", "Schneider angesagt", "Schwarz", "Schwarz angesagt", "ouvert"),
    }


# --- the printed table 5.6 ---------------------------------------------------------------


def table() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(TABLE.read_text(encoding="utf-8"))
    return doc


def test_the_printed_table_is_base_times_faelle() -> None:
    """Each printed cell of 5.6 is Grundwert x Fälle (guards the transcription too)."""
    doc = table()
    assert doc["source"].startswith("ISkO 5.6")
    for row in doc["rows"]:
        assert row["base"] == BASE[GameType(row["game"])], row["label"]
        if "factors" in row:
            assert row["values"] == [row["base"] * f for f in row["factors"]], row["label"]
    assert {(n["hand"], n["ouvert"]): n["value"] for n in doc["null"]} == NULL


def test_every_printed_value_is_won_by_exactly_the_games_of_its_row(scored: dict[Case, Any]) -> None:
    """Row by row: the values score_game gives won games are exactly the printed cells."""
    won_values: dict[tuple[GameType, bool], set[int]] = {}
    ouvert_values: dict[int, set[int]] = {}
    for case, result in scored.items():
        if isinstance(result, InvalidResultError) or not result.won:
            continue
        if case.game is GameType.GRAND and case.kind.announcement == "ouvert":
            ouvert_values.setdefault(case.matadors, set()).add(result.value)
        else:
            won_values.setdefault((case.game, case.game is GameType.GRAND), set()).add(result.value)
    for row in table()["rows"]:
        game = GameType(row["game"])
        if row.get("ouvert"):
            for matadors, value in zip(row["matadors"], row["values"]):
                assert ouvert_values[matadors] == {value}, f"Grand ouvert mit {matadors}"
        else:
            assert won_values[(game, game is GameType.GRAND)] == set(row["values"]), row["label"]


def test_null_games_have_their_fixed_values() -> None:
    for row in table()["null"]:
        decl = Declaration.make(GameType.NULL, hand=row["hand"], ouvert=row["ouvert"])
        won = score_game(decl, 18, Play(0, 0))
        lost = score_game(decl, 18, Play(0, 1))
        assert (won.won, won.value, won.score) == (True, row["value"], row["value"]), row["label"]
        assert (lost.won, lost.value, lost.score) == (False, row["value"], -2 * row["value"]), row["label"]


def test_the_bid_values_are_the_values_of_the_table(scored: dict[Case, Any]) -> None:
    """ "Jeder Reiz ist eine Zahl, die dem Wert ... eines möglichen Spiels entspricht" (001)."""
    values = {r.value for r in scored.values() if not isinstance(r, InvalidResultError) and r.won}
    assert values | set(NULL.values()) == set(BID_VALUES)


def test_every_bid_against_every_declaration_overbids_by_the_rule() -> None:
    """5.4.1/5.4.2 for every bid value: below the bid the game is lost at the smallest multiple
    of the base value reaching it, never above 264 (court ruling on 5.4.2)."""
    wrong = []
    for game, most in SPITZEN.items():
        for matadors in (most, 1, -1, -most):
            for kind in KINDS:
                decl = kind.declaration(game)
                points, tricks = (120, 10) if matadors > 0 else (61, 5)
                want = expected(game, kind, matadors, points, tricks)
                for bid in BID_VALUES:
                    result = score_game(decl, bid, Play(points, tricks, matadors))
                    if want.won and want.value >= bid:
                        ok = (result.won, result.overbid, result.value) == (True, False, want.value)
                    else:
                        value = max(want.value, min(264, -(-bid // BASE[game]) * BASE[game]))
                        ok = (result.won, result.overbid, result.value, result.score) == (
                            False, want.value < bid, value, -2 * value)
                    if not ok:
                        wrong.append(f"{game.german} {kind} {matadors} bid {bid}: {result}")
    assert not wrong, "\n".join(wrong[:10])
