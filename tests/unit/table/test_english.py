"""The table service speaks English too: every text the snapshot words in German has an
English counterpart beside it (``text`` / ``text_en``, ``prompt`` / ``prompt_en``, …), and a
refusal's ``reason`` is English. The Skat terms English players use as they are (Vorhand,
Hand, Schneider, Schwarz, Grand, Null, ouvert, Jungfrau, Bock) stay; the suits are Clubs,
Spades, Hearts, Diamonds; "eingepasst" is "passed in".

Every snapshot of these tests is also swept: each ``*_en`` field is filled where its German
sibling is, and holds no German word of the table.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import fields, is_dataclass

import pytest

from device.cards import Card
from device.hardware import CardScanned
from device.profile import ISKO, PROFILES
from device.table.commands import (
    AcceptFalseFollowing, AddBock, Bid, ConsentCorrection, EndGame, EndHow, EndSeries, EnterMatadors,
    EnterRamsch, EnterResult, ProposeCorrection,
)
from device.table.service import PumpResult
from device.table.snapshot import TableSnapshot
from tests.table_helpers import Table, offer_at_table, english, german, play_up_to_the_question, revoke_game
from ui.i18n import ENGLISH, option_reason, question_text, sync_text, transfer_text
from ui.table_words import (
    bidding_history, bidding_prompt, bock_text, declaration_prompt, ending_text, game_text, note_text, ramsch_prompt,
    result_text, scoring_label, to_confirm_text,
)

#: German words of the table that must not show in an English text (whole words).
GERMAN_WORDS = (
    "gewonnen", "verloren", "überreizt", "eingepasst", "Spiel", "Spiele", "Stich", "Stiche", "Augen", "sagt",
    "passe", "ja", "bisher", "an", "mit", "ohne", "Kreuz", "Pik", "Herz", "Karo", "Bube", "Dame", "König", "Ass",
    "Alleinspieler", "Gegenspieler", "bestätigen", "noch", "zahlt", "verliert", "verlieren", "geschoben",
    "keine", "Wertung", "synchronisiert", "von", "gereizt", "spielt", "aufnehmen", "ansagen", "Ja", "Nein",
    "Falsch", "falsch", "bedient", "klassisch", "und", "je", "alle", "drei", "Durchmarsch von",
)
_GERMAN = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(w) for w in GERMAN_WORDS) + r")(?!\w)")


def english_fields(view: object, path: str = "snap") -> Iterator[tuple[str, object, object]]:
    """(path, German value, English value) for every ``*_en`` field in ``view``, all the way down."""
    if isinstance(view, tuple):
        for index, item in enumerate(view):
            yield from english_fields(item, f"{path}[{index}]")
        return
    if not is_dataclass(view) or isinstance(view, type):
        return
    for field in fields(view):
        value = getattr(view, field.name)
        if field.name.endswith("_en"):
            yield f"{path}.{field.name}", getattr(view, field.name[:-3]), value
        else:
            yield from english_fields(value, f"{path}.{field.name}")


def assert_english(snap: TableSnapshot) -> int:
    """Each English text is there where the German one is, and reads English; returns how many."""
    checked = 0
    for path, german, english in english_fields(snap):
        assert bool(german) == bool(english), (path, german, english)
        texts = english if isinstance(english, tuple) else (english,)
        for text in texts:
            if isinstance(text, str):
                assert not _GERMAN.search(text), (path, text)
                checked += 1
    return checked


class EnglishTable(Table):
    """A table under test whose every snapshot is swept for its English texts."""

    checked = 0

    def do(self, *commands: object) -> PumpResult:
        result = super().do(*commands)
        self.checked += assert_english(self.snap)
        return result


@pytest.fixture
def club(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(PROFILES, "club", ISKO.with_(name="club", kontra=True, bock=True))
    monkeypatch.setitem(PROFILES, "ramsch", PROFILES["kneipe"].with_(name="ramsch", bock=False))
    offer_at_table(monkeypatch, "club", "ramsch")


def test_the_sweep_finds_german_words() -> None:
    assert _GERMAN.search("Carla: Kreuz mit 2, Spiel 3 = 36, gewonnen +36")
    assert _GERMAN.search("Anna zahlt Bernd 1,32 €") and _GERMAN.search("eingepasst")
    assert not _GERMAN.search("Carla: Clubs Hand with 2, game 3, Hand 4 = 48, won +48 (Jungfrau: Anna)")
    assert not _GERMAN.search("Mittelhand (Carla) says 18 — Vorhand (Bernd): yes / pass")


# --------------------------------------------------------------------------- bidding and declaring


def test_the_bidding_prompt_and_its_history_in_english() -> None:
    table = EnglishTable("Anna", "Bernd", "Carla")
    bidding = table.snap.bidding
    assert bidding is not None and bidding_prompt(bidding, table.snap.positions, "en") == "Mittelhand (Carla) says … — to Vorhand (Bernd)"
    table.say("M 18")
    bidding = table.snap.bidding
    assert bidding is not None
    assert bidding_prompt(bidding, table.snap.positions, "de") == "Mittelhand (Carla) sagt 18 — Vorhand (Bernd): ja / passe"
    assert bidding_prompt(bidding, table.snap.positions, "en") == "Mittelhand (Carla) says 18 — Vorhand (Bernd): yes / pass"
    table.say("V ja", "M passe")
    bidding = table.snap.bidding
    assert bidding is not None and bidding_prompt(bidding, table.snap.positions, "en") == "Hinterhand (Anna) says … — to Vorhand (Bernd) (so far 18)"
    assert bidding_history(bidding, table.snap.positions, "en") == ("Mittelhand (Carla): 18", "Vorhand (Bernd): yes", "Mittelhand (Carla): pass")
    table.say("H passe")
    assert table.snap.declaration is not None


def test_vorhand_alone_decides_in_english() -> None:
    table = EnglishTable("Anna", "Bernd", "Carla")
    table.say("M passe", "H passe")
    bidding = table.snap.bidding
    assert bidding is not None and bidding_prompt(bidding, table.snap.positions, "en") == "Vorhand (Bernd): play (18) / pass"


def test_the_declaration_labels_prompts_and_greyed_reasons_in_english() -> None:
    table = EnglishTable("Anna", "Bernd", "Carla")
    table.say("M 36", "V passe", "H passe")
    view = table.snap.declaration
    assert view is not None and declaration_prompt(view, "en") == "Carla plays (36): take the skat or declare Hand"
    assert declaration_prompt(view, "de") == "Carla spielt (36): Skat aufnehmen oder Hand ansagen"
    options = {o.key: o for o in view.options}
    assert options["clubs/hand/schneider"].label_en == "Clubs Hand Schneider announced"
    assert options["spades/hand/ouvert"].label_en == "Spades ouvert"
    assert options["null/hand/ouvert"].label_en == "Null ouvert Hand"
    assert option_reason(options["hearts"], "en") == "take up the skat first, or declare a hand game"
    null_hand = options["null/hand"]  # 35 is below the bid of 36: allowed, but lost at once (ISkO 3.4.4)
    assert null_hand.allowed and null_hand.lost_at_once == (35, 36)
    assert ENGLISH["null_lost_at_once"].format(value=35, bid=36) == "35 < 36: lost at once"
    table.take_skat()
    view = table.snap.declaration
    assert view is not None
    assert declaration_prompt(view, "en") == "Carla: scan the two discarded cards (or at the end) and declare the game"
    assert declaration_prompt(view, "de") == "Carla: die zwei gedrückten Karten scannen (oder am Ende) und das Spiel ansagen"
    options = {o.key: o for o in view.options}
    assert option_reason(options["diamonds/hand"], "en") == "no hand game after taking up the skat (ISkO 3.4.4)"
    assert option_reason(options["diamonds/hand"], "de").startswith("Nach der Skataufnahme")
    table.push("S7", "S8")
    view = table.snap.declaration
    assert view is not None and declaration_prompt(view, "en") == "Carla: declare the game"
    assert declaration_prompt(view, "de") == "Carla: Spiel ansagen"
    table.declare("diamonds")
    play = table.snap.play
    assert play is not None and (play.declaration, play.declaration_en) == ("Karo", "Diamonds")


# --------------------------------------------------------------------------- results and the list


def test_a_result_and_its_list_row_in_english() -> None:
    table = EnglishTable("Anna", "Bernd", "Carla", "Dora")  # Anna deals and sits out: Carla is Mittelhand
    table.say("M 18", "V passe", "H passe")
    table.declare("hearts/hand")
    table.ok(EnterResult(6, 75, -2))
    result = table.snap.result
    assert result is not None
    assert result.text == "Carla: Herz Hand ohne 2, Spiel 3, Hand 4 = 40, gewonnen +40"
    assert result.text_en == "Carla: Hearts Hand without 2, game 3, Hand 4 = 40, won +40"
    assert to_confirm_text(result, "en") == "Still to confirm: the declarer (Carla) and a defender"
    assert to_confirm_text(result, "de") == "Es bestätigen noch: Alleinspieler (Carla) und ein Gegenspieler"
    table.confirm("Carla")
    result = table.snap.result
    assert result is not None and to_confirm_text(result, "en") == "Still to confirm: a defender"
    table.confirm("Bernd")
    table.say("M passe", "H passe", "V passe")  # eingepasst
    row, passed = table.entry(1), table.entry(2)
    assert row.text_en == "Carla: Hearts Hand without 2, game 3, Hand 4 = 40, won +40"
    assert row.declaration_en == "Hearts Hand" and row.earlier_en == ()
    assert (passed.text, passed.text_en, passed.declaration_en) == ("eingepasst", "passed in", None)


def test_an_overbid_null_and_a_lost_game_in_english() -> None:
    table = EnglishTable("Anna", "Bernd", "Carla")
    table.say("M 40", "V passe", "H passe")
    table.declare("diamonds/hand")
    table.ok(EnterResult(7, 80, 1))  # Karo Hand mit 1 is 27: overbid at 40, lost 5 x 9
    result = table.snap.result
    assert result is not None and result.overbid
    assert result.text_en == "Carla: Diamonds Hand with 1, overbid = 45, lost -90"
    table.confirm("Carla", "Anna")
    table.say("M 18", "V passe", "H passe")  # Bernd deals: Anna is Mittelhand
    table.declare("null/hand")
    table.ok(EnterResult(1))
    result = table.snap.result
    assert result is not None and result.text_en == "Anna: Null Hand = 35, lost -70"


def test_matadors_missing_and_how_a_shortened_game_ended_in_english() -> None:
    table = EnglishTable("Anna", "Bernd", "Carla")
    table.say("M 18", "V passe", "H passe")
    table.declare("grand/hand")
    table.ok(EndGame(EndHow.DEFENDERS_GAVE_UP))
    result = table.snap.result
    assert result is not None and result.needs_matadors
    assert result_text(result, "en") == "Matadors missing: please enter with/without …"
    assert result_text(result, "de") == "Spitzen fehlen: bitte mit/ohne … eingeben"
    assert (ending_text(result.ending, "de"), ending_text(result.ending, "en")) == (
        "Gegenspieler haben aufgegeben", "The defenders gave up")
    table.ok(EnterMatadors(1))
    result = table.snap.result
    assert result is not None and result.text_en.startswith("Carla: Grand Hand with 1, game 2, Hand 3")


def test_false_following_asked_and_noted_in_english() -> None:
    game = revoke_game()
    revoke = game.revoke
    table = EnglishTable("Anna", "Bernd", "Carla")
    refusal = play_up_to_the_question(table, game)
    assert "did not follow" in english(refusal) and "false following or a wrong scan" in english(refusal)
    assert not _GERMAN.search(english(refusal)), english(refusal)
    question = table.snap.play.question  # type: ignore[union-attr]
    assert question is not None
    asked = question_text(question, "en")
    assert f"did not follow in trick {revoke.trick_index + 1} (" in asked and not _GERMAN.search(asked), asked
    assert asked.endswith("False following (ISkO 4.2.4)?")
    assert (ENGLISH["question_accept"], ENGLISH["question_reject"]) == (
        "Yes, false following: the game ends", "No, a wrong scan: drop the card")
    table.ok(AcceptFalseFollowing())
    result = table.snap.result
    assert result is not None and result.false_following is not None
    note = note_text(result, "en")
    assert note.startswith(f"False following in trick {revoke.trick_index + 1}: ")
    assert " on " in note and "and later played" in note and not _GERMAN.search(note), note
    assert ending_text(result.ending, "en") in ("Rule violation by the declarer", "Rule violation by the defenders")


def test_a_ramsch_in_english(club: None) -> None:
    table = EnglishTable("Anna", "Bernd", "Carla", profile="ramsch")
    table.say("M passe", "H passe", "V passe")
    ramsch = table.snap.ramsch
    assert ramsch is not None and ramsch_prompt("en").startswith("Ramsch: each player's points and tricks")
    table.ok(EnterRamsch((58, 52, 0), (6, 4, 0), 10, 1))
    result = table.snap.result
    assert result is not None
    assert result.text == "Ramsch: Carla verliert mit 62 Augen, −124 (Jungfrau: Anna)"
    assert result.text_en == "Ramsch: Carla loses with 62 points, −124 (Jungfrau: Anna)"
    assert to_confirm_text(result, "en") == "Two players confirm this Ramsch"
    table.confirm("Anna", "Bernd")
    assert table.entry(1).text_en == "Ramsch: Carla -124"


def test_bock_in_english(club: None) -> None:
    table = EnglishTable("Anna", "Bernd", "Carla", profile="club")
    table.ok(AddBock())
    snap = table.snap
    assert (snap.bock_games, snap.bock_factor, snap.ramsch_games) == (3, 2, 0)
    words = (bock_text(snap.bock_games, snap.bock_factor, snap.ramsch_games, "de"),
             bock_text(snap.bock_games, snap.bock_factor, snap.ramsch_games, "en"))
    assert words == ("Bock (noch 3 Spiele)", "Bock (3 games left)")


def test_a_correction_in_english() -> None:
    table = EnglishTable("Anna", "Bernd", "Carla")
    table.say("M 18", "V passe", "H passe")
    table.declare("clubs/hand")
    table.ok(EnterResult(6, 70, 1))
    table.confirm("Carla", "Bernd")
    record = {"v": 1, "game": "clubs", "hand": True, "ouvert": False, "announced": None, "bid": 18,
              "declarer_points": 91, "declarer_tricks": 8, "matadors": 1}
    table.ok(ProposeCorrection(1, record, table.seat("Carla"), table.seat("Bernd")))
    correction = table.snap.correction
    assert correction is not None
    assert correction.old_text_en == "Carla: Clubs Hand with 1, game 2, Hand 3 = 36, won +36"
    assert correction.new_text_en == "Carla: Clubs Hand with 1, game 2, Hand 3, Schneider 4 = 48, won +48"
    table.ok(ConsentCorrection(table.seat("Anna")), ConsentCorrection(table.seat("Carla")))  # Bernd proposed it
    row = table.entry(1)
    assert row.earlier_en == ("Carla: Clubs Hand with 1, game 2, Hand 3 = 36, won +36",)
    assert row.text_en.endswith("= 48, won +48")
    table.ok(ProposeCorrection(1, None, None, table.seat("Anna")))
    correction = table.snap.correction
    assert correction is not None and correction.new_text_en == "passed in"


def test_the_end_of_the_series_the_money_and_the_status_lines_in_english() -> None:
    table = EnglishTable("Anna", "Bernd", "Carla", stake="1/2", scoring="classic", series_length=36)
    snap = table.snap
    assert (game_text(snap.game_no, snap.series_length, "de"), game_text(snap.game_no, snap.series_length, "en")) \
        == ("Spiel 1 von 36", "Game 1 of 36")
    assert sync_text(table.snap.sync, "en") == "no laptop"
    table.say("M 18", "V passe", "H passe")
    table.declare("clubs/hand")
    table.ok(EnterResult(6, 75, 2))
    table.confirm("Carla", "Bernd")
    table.ok(EndSeries())
    end, listing = table.snap.end, table.snap.list
    assert end is not None and listing is not None
    assert (scoring_label(listing.system, "de"), scoring_label(listing.system, "en")) == ("klassisch", "classic")
    assert end.system == "classic"
    texts = [(transfer_text(t, "de"), transfer_text(t, "en")) for t in end.transfers]
    assert ("Anna zahlt Carla 0,24 €", "Anna pays Carla €0.24") in texts, texts


def test_a_refusal_has_its_reason_in_english_for_the_screen() -> None:
    table = EnglishTable("Anna", "Bernd", "Carla")
    refusal = table.refused(Bid(0, 18), "not_your_turn")
    assert english(refusal) == "it is not Vorhand's turn: Mittelhand says … — to Vorhand"
    assert german(refusal).startswith("Vorhand (Bernd) ist nicht an der Reihe")
    table.say("M 18", "V passe", "H passe")
    table.declare("clubs/hand")
    table.scan("CJ")
    refusal = table.refused(CardScanned(Card.parse("CJ")), "card_seen")
    assert english(refusal).startswith("CJ already played") and german(refusal).startswith("Kreuz Bube")
    view = table.snap.refusal
    assert view is not None and (view.key, view.values) == (refusal.key, refusal.values)
    assert (german(view), english(view)) == (german(refusal), english(refusal))


def test_the_sweep_read_many_english_texts() -> None:
    table = EnglishTable("Anna", "Bernd", "Carla", "Dora", stake="1")
    table.say("M 18", "V ja", "M passe", "H passe")
    table.take_skat()
    table.push("S7", "S8")
    table.declare("spades")
    table.ok(EnterResult(7, 85, 3))
    table.confirm("Bernd", "Carla")
    assert table.checked > 40
