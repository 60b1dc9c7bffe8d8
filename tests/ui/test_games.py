"""Whole games through the real table screen, by simulated touches, under Xvfb.

Each test starts ``skattisch run --simulate`` with a script: names typed into the setup
screen, bids tapped, the declaration chosen, cards through the on-screen picker (``card``)
or the simulated reader (``scan``), the two confirmation taps, the list and the end of the
series read back from the widgets on screen (``expect_text``). The runner's report says which
commands each step sent. Screenshots land in ``tests/artifacts/screens/800x480/``.
"""

from __future__ import annotations

import pytest

from tests.ui.harness import run_table
from tests.ui.scenarios import cards_steps, play_order, setup_steps

pytestmark = pytest.mark.ui

FOUR = ("Anna", "Bernd", "Carla", "Dieter")
THREE = ("Anna", "Bernd", "Carla")

# Kreuz won by Mittelhand (Carla) at a four-table: Anna deals and sits out.
SUIT_V = "SA ST SK SQ S9 S8 HA HT HK HQ"
SUIT_M = "CJ SJ HJ DJ CA CT CK CQ C9 C8"
SUIT_H = "H9 H8 H7 DA DT DK DQ D9 D8 D7"  # the skat: C7 S7, taken up and pushed again

# Grand Hand lost by Vorhand (Bernd) at a three-table: Anna deals and is Hinterhand.
GRAND_V = "CJ D7 D8 D9 H7 H8 H9 S7 S8 S9"
GRAND_M = "SJ HJ CA CT CK CQ C9 C8 C7 DA"
GRAND_H = "DJ SA ST SK SQ HA HT HK HQ DT"  # the skat (never seen): DK DQ

# Null ouvert won by Mittelhand (Carla), who takes up the skat and pushes DK DA.
NULL_V = "CT CJ CQ ST SJ SQ HT HJ HQ D9"
NULL_M = "C7 C8 C9 S7 S8 S9 H7 H8 D7 D8"
NULL_H = "CK CA SK SA HK HA H9 DT DJ DQ"


@pytest.fixture(scope="module")
def suit_game(display: str):  # type: ignore[no-untyped-def]
    order = play_order("clubs", [SUIT_V, SUIT_M, SUIT_H])
    steps = setup_steps(FOUR, stake="stake_1", shots="01") + [
        "expect_text \"Spiel 1/48 · Geber: Anna (sitzt aus)\"",
        "expect_text \"Mittelhand (Carla) sagt\"",
        "screenshot 03-game-bidding",
        "tap bid_18",
        "expect_text \"Mittelhand (Carla) sagt 18 — Vorhand (Bernd): ja / passe\"",
        "screenshot 04-game-answer",
        "tap hold", "tap bid_20", "tap pass", "tap pass",
        "wait_screen declare",
        "screenshot 05-declare",
        "tap take_skat", "card C7", "card S7", "tap picker_done",
        "tap game_clubs",
        "expect_text \"Kreuz\"",
        "screenshot 06-declare-chosen",
        "tap declare",
        "wait_screen play",
        "expect_text \"Carla spielt Kreuz, gereizt 20\"",
        "screenshot 07-play-start",
        *cards_steps(order[:4]),
        "screenshot 08-play-picker",
        "tap picker_done",
        "expect_text \"sticht: Carla\"",
        "screenshot 09-play-trick",
        *cards_steps(order[4:], via="scan"),
        "wait_screen result",
        "expect_text \"Carla: Kreuz mit 11, Spiel 12, Schneider 13, Schwarz 14 = 168, gewonnen +168\"",
        "expect_text \"Es bestätigen noch: Alleinspieler (Carla) und ein Gegenspieler\"",
        "screenshot 10-result",
        "tap confirm_2",
        "expect_text \"bestätigt: Carla\"",
        "screenshot 11-result-confirmed-once",
        "tap confirm_3",
        "wait_screen game",
        "expect_text \"Spiel 2/48 · Geber: Bernd (sitzt aus)\"",
        "tap list",
        "wait_screen list",
        "expect_text \"Kreuz\"", "expect_text \"m11\"",  # Spitzen
        "expect_text \"+168\"",
        "screenshot 12-list",
        "tap close_list",
        "wait_screen game",
    ]
    return run_table(display, steps).check()


def test_a_suit_game_won_goes_from_bidding_to_the_list(suit_game) -> None:  # type: ignore[no-untyped-def]
    assert suit_game.step("tap declare")["sent"] == [{"source": "screen", "command": "Declare(game=<GameType.CLUBS: "
                                                      "'clubs'>, hand=False, ouvert=False, announced=<Level.SIMPLE: 0>)"}]
    events = suit_game.step("tap confirm_3")["events"]
    assert isinstance(events, int) and events >= 2  # the confirmation and the game entered
    assert suit_game.report[-1]["screen"] == "game"


def test_touch_once_register_once(suit_game) -> None:  # type: ignore[no-untyped-def]
    """One tap on a bid button sends exactly one command, which makes exactly one event."""
    bid = suit_game.step("tap bid_18")
    assert bid["sent"] == [{"source": "screen", "command": "Bid(position=1, value=18)"}]
    assert bid["events"] == 1 and bid["refusals"] == []
    for text in ("tap hold", "tap bid_20", "tap confirm_2"):
        assert len(suit_game.sent(text)) == 1, text
    # choosing a game or opening the picker sends nothing: only "ansagen" does
    assert suit_game.sent("tap game_clubs") == [] and suit_game.sent("tap picker_done") == []


def test_cards_from_the_picker_and_the_reader_are_the_same_command(suit_game) -> None:  # type: ignore[no-untyped-def]
    order = play_order("clubs", [SUIT_V, SUIT_M, SUIT_H])
    picked = suit_game.sent(f"card {order[0]}")
    scanned = suit_game.sent(f"scan {order[4]}")
    assert picked == [f"CardScanned(card=Card.parse('{order[0]}'), raw='{order[0]}', source='picker')"]
    assert scanned == [f"CardScanned(card=Card.parse('{order[4]}'), raw='{order[4]}', source='reader')"]
    assert all(line["events"] == 1 for line in suit_game.report if str(line["step"]).startswith(("card", "scan"))
               and line["step"] not in ("card C7", "card S7"))


def test_grand_hand_lost(display: str) -> None:
    order = play_order("grand", [GRAND_V, GRAND_M, GRAND_H])
    steps = setup_steps(THREE, length="length_open") + [
        "expect_text \"Vorhand Bernd\"",
        "tap bid_18", "tap hold", "tap pass", "tap pass",
        "wait_screen declare",
        "tap choose_hand",  # Hand or mit Skat first: never a default
        "tap game_grand",
        "expect_text \"Grand Hand\"",
        "tap declare",
        "wait_screen play",
        *cards_steps(order[:3]),
        "tap picker_done",
        *cards_steps(order[3:], via="scan"),
        "wait_screen result",
        "expect_text \"Bernd: Grand Hand mit 1, Spiel 2, Hand 3, Schneider 4 = 96, verloren -192\"",
        "screenshot 20-result-grand-hand-lost",
        "tap confirm_1",
        "press confirm",  # the panel's confirm button: the dealer's confirmation (Anna, a defender)
        "wait_screen game",
        "tap list",
        "expect_text \"Grand H\"", "expect_text \"24\"", "expect_text \"m1\"",  # Grundwert, Spitzen
        "expect_text \"−192\"",
        "screenshot 21-list-grand-hand-lost",
    ]
    run = run_table(display, steps).check()
    assert run.sent("tap declare") == ["Declare(game=<GameType.GRAND: 'grand'>, hand=True, ouvert=False, "
                                       "announced=<Level.SIMPLE: 0>)"]
    press = run.step("press confirm")
    assert press["sent"] == [{"source": "panel", "command": "ButtonPressed(button=<Button.CONFIRM: 'confirm'>, "
                                                            "source='panel')"}]
    assert isinstance(press["events"], int) and press["events"] >= 2 and press["screen"] == "game"


def test_null_ouvert_won_with_kontra_and_re(display: str) -> None:
    order = play_order("null", [NULL_V, NULL_M, NULL_H], low=(False, True, False))
    steps = setup_steps(THREE, length="length_open", profile="profile_kneipe") + [
        "tap bid_18", "tap pass", "tap pass",
        "wait_screen declare",
        "tap take_skat",
        "expect_text \"Carla: die zwei gedrückten Karten scannen\"",
        "card DK", "card DA", "tap picker_done",
        "tap game_null", "tap word_ouvert",
        "expect_text \"Null ouvert\"",
        "screenshot 22-declare-null-ouvert",
        "tap declare",
        "wait_screen play",
        "expect_text \"Kontra (Bernd)\"",
        "screenshot 28-play-kontra",
        "tap kontra_0",
        "expect_text \"Re (Carla)\"",
        "tap re",
        "expect_text \"Carla spielt Null ouvert, gereizt 18 · Kontra Re\"",
        *cards_steps(order, via="scan"),
        "wait_screen result",
        "expect_text \"Carla: Null ouvert = 46, gewonnen +184\"",
        "expect_text \"Kontra Re\"",
        "tap confirm_2", "tap confirm_0",
        "wait_screen game",
    ]
    run = run_table(display, steps).check()
    assert run.sent("tap declare") == ["Declare(game=<GameType.NULL: 'null'>, hand=False, ouvert=True, "
                                       "announced=<Level.SIMPLE: 0>)"]
    assert run.sent("tap kontra_0") == ["Kontra(position=0)"] and run.sent("tap re") == ["Re(position=1)"]


def test_eingepasst_overbid_shortened_then_the_list_and_the_end_of_the_series(display: str) -> None:
    steps = setup_steps(THREE, length="length_open", stake="stake_1") + [
        # 1. eingepasst: everybody passes; Bernd deals the next game
        "tap pass", "tap pass", "tap pass",
        "expect_text \"Spiel 1: eingepasst\"",
        "expect_text \"Spiel 2 · Geber: Bernd\"",
        # 2. overbid: Mittelhand (Anna) bids 36 and plays Karo mit 1: result entered directly
        "tap more_values", "tap bid_36", "tap pass", "tap pass",
        "wait_screen declare",
        "tap take_skat", "tap game_diamonds", "tap declare",
        "wait_screen play",
        "tap result_direct",
        "tap tricks_7", "tap digit_8", "tap digit_0",
        "screenshot 23-result-direct",
        "tap enter_result",
        "screenshot 24-result-direct-matadors",
        "tap matadors_p1",
        "wait_screen result",
        "expect_text \"Anna: Karo mit 1, überreizt = 36, verloren -72\"",
        "tap confirm_0", "tap confirm_1",
        # 3. shortened: Vorhand (Anna) plays Herz and gives up after a trick and a half
        "wait_screen game",
        "tap bid_18", "tap hold", "tap pass", "tap pass",
        "wait_screen declare",
        "tap take_skat", "card C7", "card C8", "tap picker_done",
        "tap game_hearts", "tap declare",
        "wait_screen play",
        "scan HA", "scan H7", "scan H8", "scan SA", "scan S7",
        "expect_text \"Alleinspieler (Anna): 11 Augen · 1 Stich\"",
        "tap undo",
        "tap shorten",
        "screenshot 25-play-shorten",
        "tap end_declarer_gave_up",
        "wait_screen result",
        "expect_text \"Spitzen fehlen\"",
        "screenshot 26-result-matadors",
        "tap matadors_m2",
        "expect_text \"Anna: Herz ohne 2, Spiel 3 = 30, verloren -60\"",
        "expect_text \"Alleinspieler hat aufgegeben\"",
        "tap confirm_0", "tap confirm_1",
        "wait_screen game",
        # the list: one tap away, laid out like the paper list
        "tap list",
        "wait_screen list",
        "expect_text \"eingepasst\"",
        "expect_text \"Karo\"", "expect_text \"Herz\"", "expect_text \"o2\"",
        "expect_text \"−72\"", "expect_text \"−60\"",
        "expect_text \"Stand Spielpunkte\"", "expect_text \"Seeger-Fabian\"",
        "screenshot 13-list-series",
        "tap end_series",
        "tap end_series_yes",
        "wait_screen end",
        "expect_text \"Ende der Serie · Seeger-Fabian\"",
        "expect_text \"Anna zahlt Bernd 1,32 €\"",
        "expect_text \"Anna zahlt Carla 1,32 €\"",
        "expect_text \"−232\"",
        "screenshot 14-end-of-series",
        "tap confirm_list_0", "tap confirm_list_1",
        "expect_text \"bestätigt: Anna, Bernd\"",
        "tap confirm_list_2",
        "expect_text \"Die Liste ist abgeschlossen\"",
        "screenshot 15-end-closed",
    ]
    run = run_table(display, steps).check()
    assert run.sent("tap undo") == ["Undo()"]
    assert run.sent("tap matadors_p1") == ["EnterResult(declarer_tricks=7, declarer_points=80, matadors=1)"]
    assert run.sent("tap end_declarer_gave_up") == [
        "EndGame(how=<EndHow.DECLARER_GAVE_UP: 'declarer_gave_up'>, matadors=None)"]
    assert run.sent("tap end_series_yes") == ["EndSeries()"]
    assert [run.sent(f"tap confirm_list_{seat}") for seat in range(3)] == [
        [f"ConfirmList(seat={seat})"] for seat in range(3)]


def test_false_following_is_asked_and_answered_both_ways(display: str) -> None:
    """Carla did not follow hearts in the first trick; a heart of hers later is put to the
    table (ISkO 4.2.4): "no, a wrong scan" withdraws the card, "yes" ends the game against
    the defenders."""
    steps = setup_steps(THREE, length="length_open") + [
        "tap bid_18", "tap hold", "tap pass", "tap pass",  # Vorhand (Bernd) plays
        "wait_screen declare",
        "tap choose_hand", "tap game_grand", "tap declare",
        "wait_screen play",
        "scan HA", "scan S7", "scan H7",  # trick 1: Carla (Mittelhand) plays a spade on hearts
        "scan HK", "scan H8",  # trick 2: now a heart of hers
        "expect_text \"Falsch bedient?\"",
        "expect_text \"Mittelhand (Carla) hat im 1. Stich nicht bedient (Pik 7 auf Herz Ass) und spielt jetzt Herz 8\"",
        "screenshot 39-play-false-following",
        "tap reject_card",  # a wrong scan: the card is withdrawn
        "expect_no_text \"Falsch bedient?\"",
        "expect_no_text \"♥ 8\"",  # the trick shows Bernd's ♥ K alone again
        "card S8", "tap picker_done",  # what she really played
        "scan H9",
        "scan HQ", "scan H8",  # trick 3: the heart again
        "expect_text \"Falsch bedient?\"",
        "tap accept_false_following",
        "wait_screen result",
        "expect_text \"Regelverstoß der Gegenspieler\"",
        "expect_text \"Falsch bedient im 1. Stich: Mittelhand gab Pik 7 auf Herz Ass und spielte später Herz 8\"",
        "expect_text \"Spitzen fehlen\"",
        "expect_no_text \"mit 5\"",  # a Grand has at most 4 matadors: only those are offered
        "tap matadors_m1",
        "expect_text \"Bernd: Grand Hand ohne 1, Spiel 2, Hand 3 = 72, gewonnen +72\"",
        "screenshot 40-result-false-following",
        "tap confirm_1", "tap confirm_2",
        "wait_screen game",
    ]
    run = run_table(display, steps).check()
    asked = run.step("scan H8")
    assert asked["refusals"] == ["false_following"] and asked["events"] == 1  # the question, not the card
    assert run.sent("tap reject_card") == ["RejectCard()"] and run.step("tap reject_card")["events"] == 1
    assert run.step("card S8")["events"] == 1 and run.step("card S8")["refusals"] == []
    assert run.step("scan H8", 2)["refusals"] == ["false_following"]
    assert run.sent("tap accept_false_following") == ["AcceptFalseFollowing()"]
    assert run.sent("tap matadors_m1") == ["EnterMatadors(matadors=-1)"]
