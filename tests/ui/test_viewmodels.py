"""The screens' plain-Python parts, without a window: view-models on real snapshots of the
table service, the words in both languages, the --script format."""

from __future__ import annotations

import doctest
import random
import re
from pathlib import Path

import pytest

import ui.i18n
import ui.table.script
import ui.table.theme
import ui.table.viewmodels
from device.table import (
    Bid, Confirm, ConsentCorrection, Declare, EnterRamsch, EnterResult, Hold, OpenList, Pass, ProposeCorrection,
    TableService, TakeSkat,
)
from drivers.store import MemoryEventStore
from ui.i18n import ENGLISH, GERMAN, set_language, tr
from ui.table.script import ScriptError, Step, load_script, parse_script
from ui.table.viewmodels import (
    RamschForm, chart_series, corrected_record, entry_words, game_choices, game_suit, list_lines, page_of_values,
    ramsch_words, word_choices,
)

UI = Path(__file__).resolve().parents[2] / "ui"


@pytest.fixture(autouse=True)
def german() -> None:
    set_language("de")


def service(*commands: object, profile: str = "isko") -> TableService:
    table = TableService(MemoryEventStore(), device_id="test", rng=random.Random(1))
    table.handle(OpenList(("Anna", "Bernd", "Carla"), profile=profile))
    for command in commands:
        result = table.handle(command)
        assert not result.refusals, result.refusals
    return table


@pytest.mark.parametrize("module", [ui.i18n, ui.table.script, ui.table.theme, ui.table.viewmodels])
def test_the_doctests(module: object) -> None:
    failures, tried = doctest.testmod(module)  # type: ignore[arg-type]
    assert tried > 0 and failures == 0


# --------------------------------------------------------------------------- declaration


def declaring(*more: object) -> object:
    snap = service(Bid(1, 18), Hold(0), Pass(1), Pass(2), *more).snapshot()
    assert snap.declaration is not None
    return snap.declaration


def test_a_game_before_the_skat_is_taken_lands_on_its_hand_game() -> None:
    options = declaring().options  # type: ignore[attr-defined]
    games = {c.name: c for c in game_choices(options, None)}
    assert games["game_clubs"].key == "clubs/hand" and not games["game_clubs"].greyed
    assert games["game_null"].key == "null/hand"
    assert games["game_clubs"].suit == "C" and games["game_grand"].suit == ""
    words = {c.name: c for c in word_choices(options, "clubs/hand")}
    assert words["word_hand"].on
    # taking Hand away would leave a plain game, which needs the skat taken: greyed, with why
    assert words["word_hand"].greyed and "Skat aufnehmen" in words["word_hand"].reason
    assert words["word_schneider"].key == "clubs/hand/schneider" and not words["word_schneider"].greyed
    assert words["word_ouvert"].key == "clubs/hand/ouvert"


def test_after_taking_the_skat_hand_and_announcements_are_greyed_with_the_reason() -> None:
    options = declaring(TakeSkat()).options  # type: ignore[attr-defined]
    games = {c.name: c for c in game_choices(options, None)}
    assert games["game_spades"].key == "spades"
    words = {c.name: c for c in word_choices(options, "spades")}
    for name in ("word_hand", "word_schneider", "word_schwarz", "word_ouvert"):
        assert words[name].greyed and "Skataufnahme" in words[name].reason, name
    null_words = {c.name: c for c in word_choices(options, "null")}
    assert null_words["word_ouvert"].key == "null/ouvert" and not null_words["word_ouvert"].greyed
    assert null_words["word_schneider"].greyed and "Null" in null_words["word_schneider"].reason


def test_the_toggles_wait_for_a_game() -> None:
    options = declaring().options  # type: ignore[attr-defined]
    assert all(c.greyed and c.reason == "Erst ein Spiel wählen" for c in word_choices(options, None))


# --------------------------------------------------------------------------- bidding and the list


def test_bid_values_come_in_pages() -> None:
    values = service().snapshot().bidding.values  # type: ignore[union-attr]
    first = page_of_values(values, 0, 7)
    assert first.values == (18, 20, 22, 23, 24, 27, 30) and first.more and not first.less
    second = page_of_values(values, 6, 7)
    assert second.values[0] == 30 and second.less
    last = page_of_values(values, len(values) - 3, 7)
    assert last.values == values[-3:] and not last.more


def test_the_list_lines_read_like_the_paper_list() -> None:
    table = service(Pass(1), Pass(2), Pass(0),  # eingepasst
                    Bid(1, 18), Hold(0), Pass(1), Pass(2), TakeSkat(), Declare.parse("clubs"),
                    EnterResult(7, 80, 2))
    snap = table.snapshot()
    for seat in snap.result.may_confirm[:2]:  # type: ignore[union-attr]
        table.handle(Confirm(seat))
    view = table.snapshot().list
    assert view is not None
    lines = list_lines(view)
    assert [line.number for line in lines] == ["1", "2"]
    assert lines[0].passed_in and lines[0].game == "eingepasst" and lines[0].score == ""
    assert lines[1].declarer == "Carla" and lines[1].suit == "C"
    assert lines[1].game == "Kreuz" and lines[1].score == "+36" and lines[1].score_sign == 1
    assert (lines[1].base, lines[1].tops, lines[1].levels) == ("12", "m2", "1")
    assert lines[1].words == "Kreuz mit 2, Spiel 3 = 36, gewonnen +36"
    bright = [cell for cell in lines[1].cells if cell.bright]
    assert len(bright) >= 1 and all(not cell.bright for cell in lines[0].cells)
    assert chart_series(view) == [[0, *(row.totals[i] for row in view.rows)] for i in range(3)]


def test_in_english_the_list_lines_and_the_declaration_choices_use_the_service_s_english() -> None:
    table = service(Pass(1), Pass(2), Pass(0),  # eingepasst
                    Bid(1, 18), Hold(0), Pass(1), Pass(2), TakeSkat(), Declare.parse("clubs"),
                    EnterResult(7, 80, 2))
    for seat in table.snapshot().result.may_confirm[:2]:  # type: ignore[union-attr]
        table.handle(Confirm(seat))
    set_language("en")
    lines = list_lines(table.snapshot().list)
    assert lines[0].game == "passed in" and lines[1].game == "Clubs" and lines[1].tops == "w2"
    options = declaring(TakeSkat()).options  # type: ignore[attr-defined]
    games = {c.name: c for c in game_choices(options, None)}
    assert [games[f"game_{g}"].label for g in ("clubs", "spades", "hearts", "diamonds")] == [
        "Clubs", "Spades", "Hearts", "Diamonds"]
    words = {c.name: c for c in word_choices(options, "spades")}
    assert words["word_hand"].reason == "no hand game after taking up the skat (ISkO 3.4.4)"
    null_words = {c.name: c for c in word_choices(options, "null")}
    assert null_words["word_schneider"].reason == "Null has no Schneider announced"
    set_language("de")
    assert list_lines(table.snapshot().list)[1].game == "Kreuz"


def test_entry_words_and_suits() -> None:
    assert entry_words("Anna: Karo mit 1, überreizt = 36, verloren -72", "Anna") == "Karo mit 1, überreizt = 36"
    assert entry_words("eingepasst", None) == "eingepasst"
    # the chip comes from the snapshot's game, never from the words (a player may be called Herzog)
    assert [game_suit(g) for g in ("clubs", "spades", "hearts", "diamonds", "grand", "null", None)] == [
        "C", "S", "H", "D", "", "", ""]


# --------------------------------------------------------------------------- Ramsch and corrections


def test_the_ramsch_form_sends_what_the_table_typed() -> None:
    table = service(Pass(1), Pass(2), Pass(0), profile="kneipe")
    view = table.snapshot().ramsch
    assert view is not None and view.may_push
    form = RamschForm(may_push=view.may_push, max_pushes=view.max_pushes)
    assert form.missing() == ["points_0", "points_1", "points_2", "skat", "tricks_0", "tricks_1", "tricks_2", "last"]
    for field, keys in (("points_0", "58"), ("points_1", "52"), ("points_2", "0"), ("skat", "10"),
                        ("tricks_0", "6"), ("tricks_1", "4"), ("tricks_2", "0"), ("pushes", "1")):
        form.select(field)
        for key in keys:
            form.press(key)
    assert form.sums() == (120, 10) and form.missing() == ["last"]
    with pytest.raises(ValueError, match="last"):
        form.command_args()
    form.set_last_trick(1)
    form.select("tricks_1")
    form.press("1"); form.press("1")  # 11 tricks cannot be typed: the second 1 is ignored
    form.press("⌫"); form.press("4")
    assert form.values["tricks_1"] == 4
    args = form.command_args()
    assert args == ((58, 52, 0), (6, 4, 0), 10, 1, 1)
    result = table.handle(EnterRamsch(*args))
    assert not result.refusals
    assert table.snapshot().result.text == "Ramsch: Carla verliert mit 62 Augen, −248 (Jungfrau: Anna; 1× geschoben)"  # type: ignore[union-attr]


def test_no_pushes_to_type_where_nobody_pushes() -> None:
    form = RamschForm(may_push=False)
    assert "pushes" not in form.missing() and form.values["pushes"] is None
    with pytest.raises(ValueError):
        form.select("pushes")
    form.select("skat")
    for key in "25":  # two cards hold at most 22 points: the 5 is ignored
        form.press(key)
    assert form.values["skat"] == 2
    form.press("C")
    assert form.values["skat"] is None


def test_a_ramsch_row_shows_the_losers_minus() -> None:
    table = service(Pass(1), Pass(2), Pass(0), EnterRamsch((58, 52, 0), (6, 4, 0), 10, 1), Confirm(0), Confirm(1),
                    profile="kneipe")
    view = table.snapshot().list
    assert view is not None
    line = list_lines(view)[0]
    assert line.kind == "ramsch" and line.game == "Ramsch" and line.score == "−124"
    assert line.score_sign == -1 and line.suit == "" and line.declarer == "Carla"
    assert ramsch_words(("A", "B", "C"), (0, 0, 0)) == ("Ramsch: keine Wertung", None)
    assert ramsch_words(("A", "B", "C"), (120, 0, None)) == ("Ramsch: A +120", 120)


def test_a_corrected_record_is_the_entry_with_the_counts_entered_again() -> None:
    table = service(Bid(1, 18), Hold(0), Pass(1), Pass(2), TakeSkat(), Declare.parse("diamonds"),
                    EnterResult(7, 80, 1), Confirm(1), Confirm(0))
    row = table.snapshot().list.rows[0]  # type: ignore[union-attr]
    assert (row.game, row.declaration, row.declarer_seat) == ("diamonds", "Karo", 1)
    assert (row.declarer_tricks, row.declarer_points, row.matadors) == (7, 80, 1)
    record = table.state.rows[0].record
    assert record is not None
    new = corrected_record(record, declarer_tricks=8, declarer_points=91, matadors=row.matadors)
    assert new == {"v": 1, "game": "diamonds", "hand": False, "ouvert": False, "announced": None, "bid": 18,
                   "declarer_tricks": 8, "declarer_points": 91, "matadors": 1}
    for command in (ProposeCorrection(1, new, row.declarer_seat, 2), ConsentCorrection(0), ConsentCorrection(1)):
        assert not table.handle(command).refusals
    lines = list_lines(table.snapshot().list)
    assert lines[0].words == "Karo mit 1, Spiel 2, Schneider 3 = 27, gewonnen +27" and lines[0].suit == "D"
    assert lines[0].struck == ("Karo mit 1, Spiel 2 = 18, gewonnen +18",)  # the old score too


# --------------------------------------------------------------------------- the words


def test_every_word_the_screens_use_exists_in_both_languages() -> None:
    used: set[str] = set()
    prefixes: set[str] = set()
    for path in (UI / "table").rglob("*"):
        if path.suffix in (".py", ".kv"):
            text = path.read_text(encoding="utf-8")
            used |= set(re.findall(r"\btr\(\s*\"([a-z_0-9]+)\"", text))
            prefixes |= set(re.findall(r"\btr\(f\"([a-z_]+)\{", text))
    assert len(used) > 80
    assert sorted(k for k in used if k not in GERMAN) == []
    assert sorted(k for k in used if k not in ENGLISH) == []
    for prefix in prefixes:
        assert any(k.startswith(prefix) for k in GERMAN), prefix
    assert set(GERMAN) == set(ENGLISH)
    for key in GERMAN:
        assert set(re.findall(r"\{(\w+)\}", GERMAN[key])) == set(re.findall(r"\{(\w+)\}", ENGLISH[key])), key


def test_english_and_back() -> None:
    set_language("en")
    assert tr("pass") == "pass" and tr("game_n_of", n=3, total=36) == "Game 3/36"
    set_language("de")
    assert tr("game_n_of", n=3, total=36) == "Spiel 3/36"
    with pytest.raises(ValueError):
        set_language("fr")


# --------------------------------------------------------------------------- the script format


def test_script_lines_in_words_and_in_json(tmp_path: Path) -> None:
    script = tmp_path / "demo.txt"
    script.write_text('# a demo\n\ntap bid_18\n{"tap_text": "passe"}\ncard cj\nscan HT\npress confirm\n'
                      'expect_text "Kreuz Hand mit 2"\nscreenshot 01-game\n{"sleep": 0.5}\n', encoding="utf-8")
    steps = load_script(script)
    assert steps == [Step("tap", "bid_18", 3), Step("tap_text", "passe", 4), Step("card", "cj", 5),
                     Step("scan", "HT", 6), Step("press", "confirm", 7), Step("expect_text", "Kreuz Hand mit 2", 8),
                     Step("screenshot", "01-game", 9), Step("sleep", "0.5", 10)]


@pytest.mark.parametrize("line, message", [
    ("tap", "tap takes 1 argument, not 0"),
    ("card XX", "unknown card code 'XX'"),
    ("press enter", "press takes one of confirm, back, menu"),
    ("sleep soon", "sleep takes seconds"),
    ('{"tap": "a", "card": "CJ"}', "a JSON step is an object with one key"),
    ("{nonsense", "not a JSON object"),
    ('expect_text "open', "No closing quotation"),
])
def test_script_mistakes_name_the_line(line: str, message: str) -> None:
    with pytest.raises(ScriptError, match=re.escape(message)) as caught:
        parse_script(f"wait_screen game\n{line}")
    assert str(caught.value).startswith("line 2: ")


def test_a_missing_script_file(tmp_path: Path) -> None:
    with pytest.raises(ScriptError, match="cannot be read"):
        load_script(tmp_path / "none.txt")
