"""Play trick by trick from scanned or tapped cards, undo, refusals, false following,
Null lost, shortened games and results typed in (ISkO 4, 5)."""

from __future__ import annotations

import random
import pytest

from device.cards import Card
from device.games import GameType
from device.hardware import CardScanned
from device.profile import ISKO, PROFILES
from device.record import score_record
from device.table.commands import (
    AcceptFalseFollowing, AddBock, Confirm, EndGame, EndHow, EndSeries, EnterMatadors, EnterRamsch, EnterResult,
    Kontra, PlayCard, Re, RejectCard,
)
from device.table.outcome import game_record
from device.tricks import play_game, trick_winner
from tests.strategies import deal, play_random
from tests.table_helpers import Table, offer_at_table, german, play_up_to_the_question, revoke_game
from ui.i18n import question_text
from ui.table_words import bock_text, ending_text, note_text

GAMES = {"clubs": GameType.CLUBS, "grand": GameType.GRAND, "null": GameType.NULL, "hearts": GameType.HEARTS}


def codes(cards: object) -> list[str]:
    return [c.code for c in cards]  # type: ignore[attr-defined]


def carla_plays(key: str, seed: int = 3, *, bid: int = 18, push: bool = True) -> tuple[Table, list[tuple[Card, ...]], tuple[Card, ...]]:
    """Anna deals; Carla (Mittelhand) plays ``key``; returns the table, the tricks to play and the skat."""
    rng = random.Random(seed)
    hands, skat = deal(rng)
    table = Table("Anna", "Bernd", "Carla")
    table.say(f"M {bid}", "V passe", "H passe")
    if "hand" not in key:
        table.take_skat()
        if push:
            table.scan(*codes(skat))
    table.declare(key)
    tricks = [tuple(t) for t in play_random(rng, GAMES[key.split("/")[0]], hands)]
    return table, tricks, tuple(skat)


def expected(key: str, tricks: list[tuple[Card, ...]], skat: tuple[Card, ...], bid: int = 18) -> int:
    words = key.split("/")
    record = {"game": words[0], "hand": "hand" in words, "bid": bid, "declarer": 1, "skat": codes(skat),
              "tricks": [codes(t) for t in tricks]}
    return int(score_record(record).result.score)


def test_a_game_played_card_by_card_shows_trick_winner_and_running_points() -> None:
    table, tricks, skat = carla_plays("grand")
    table.scan(*codes(tricks[0]), *codes(tricks[1][:2]))
    play = table.snap.play
    assert play is not None
    game = play_game(GameType.GRAND, 1, skat, tricks[:1])
    assert play.last_trick is not None
    assert play.last_trick.winner == game.tricks[0].winner
    assert [c.card for c in play.last_trick.cards] == codes(tricks[0])
    # during play only his tricks show: the pushed skat stays hidden until the result
    assert play.declarer_points == game.declarer_points - game.skat_points
    assert play.defender_points == game.defender_points and play.tricks_done == 1
    assert [c.card for c in play.trick.cards] == codes(tricks[1][:2])
    assert play.trick.winner == (game.next_leader + trick_winner(tricks[1][:2], GameType.GRAND)) % 3
    assert play.to_play == (game.next_leader + 2) % 3
    assert play.to_play_name == ("Bernd", "Carla", "Anna")[play.to_play]


def test_a_whole_game_is_reconstructed_and_scored_as_the_rules_core_does() -> None:
    table, tricks, skat = carla_plays("clubs")
    table.play(tricks)
    table.assert_phase("result")
    result = table.snap.result
    assert result is not None and result.score == expected("clubs", tricks, skat)
    assert result.text.startswith("Carla: Kreuz")
    table.confirm("Carla", "Bernd")
    table.assert_list_entry(1, declarer="Carla", score=expected("clubs", tricks, skat))
    record = table.service.state.rows[0].record
    assert record is not None and record["tricks"] == [codes(t) for t in tricks] and record["seat"] == 2


def test_the_skat_of_a_hand_game_is_the_two_cards_nobody_played() -> None:
    table, tricks, skat = carla_plays("hearts/hand")
    table.tap(*[c.code for t in tricks for c in t])  # tapped on the picker: the same path
    result = table.snap.result
    assert result is not None and result.score == expected("hearts/hand", tricks, skat)
    deal = table.service.state.deal
    assert deal is not None
    record = game_record(deal)
    assert record is not None and sorted(record["skat"]) == sorted(codes(skat))


def test_a_card_seen_twice_is_refused_with_where_it_was() -> None:
    table, tricks, _ = carla_plays("grand")
    table.scan(*codes(tricks[0]))
    refusal = table.refused(CardScanned(tricks[0][1]), "card_seen")
    assert "wurde schon gespielt" in german(refusal) and "1. Stich" in german(refusal)
    assert tricks[0][1].german in german(refusal)


def test_undo_takes_back_the_last_card_even_across_a_trick() -> None:
    table, tricks, _ = carla_plays("grand")
    table.scan(*codes(tricks[0]), codes(tricks[1])[0])
    table.undo()
    play = table.snap.play
    assert play is not None and play.tricks_done == 1 and play.trick.cards == ()
    table.undo()
    play = table.snap.play
    assert play is not None and play.tricks_done == 0 and len(play.trick.cards) == 2
    table.scan(codes(tricks[0])[2])
    assert table.snap.play.tricks_done == 1  # type: ignore[union-attr]


def test_false_following_is_put_to_the_table_and_ends_the_game_when_confirmed() -> None:
    game = revoke_game()
    skat, tricks, revoke, full, cards, proof = game.skat, game.tricks, game.revoke, game.played, game.cards, game.proof
    table = Table("Anna", "Bernd", "Carla")
    refusal = play_up_to_the_question(table, game)
    assert "ISkO 4.2.4" in german(refusal) and "nicht bedient" in german(refusal)
    question = table.snap.play.question  # type: ignore[union-attr]
    assert question is not None and question.trick == revoke.trick_index + 1
    assert (question.discarded, question.led, question.card) == (revoke.card.code, revoke.led.code, cards[proof].code)
    assert f"{revoke.trick_index + 1}. Stich" in question_text(question, "de")
    if proof + 1 < len(cards):
        table.refused(CardScanned(cards[proof + 1]), "question_pending")
    # a wrong scan: the card is dropped and play goes on as before
    before = table.service.state.deal
    table.ok(RejectCard())
    assert table.snap.play is not None and table.snap.play.question is None
    assert table.service.state.deal.cards_played == before.cards_played  # type: ignore[union-attr]
    # now the table rules it false following: the game ends at the revoke's trick
    table.refused(CardScanned(cards[proof]), "false_following")
    table.ok(AcceptFalseFollowing())
    table.assert_phase("result")
    result = table.snap.result
    if result is not None and result.needs_matadors:
        table.ok(EnterMatadors(full.matadors))  # type: ignore[arg-type]
        result = table.snap.result
    record = {"game": "grand", "bid": 18, "declarer": 1, "skat": codes(skat), "tricks": [codes(t) for t in tricks]}
    want = score_record(record).result
    assert result is not None and result.score == want.score and result.won == want.won
    early = table.service.state.deal.early  # type: ignore[union-attr]
    assert early is not None and note_text(result, "de") == early.note  # as the list's record says it
    assert note_text(result, "de").startswith(f"Falsch bedient im {revoke.trick_index + 1}. Stich: ")
    assert ("Regelverstoß der Gegenspieler" if revoke.seat != 1 else "Regelverstoß des Alleinspielers") == ending_text(result.ending, "de")


def test_null_is_lost_as_soon_as_the_declarer_takes_a_trick() -> None:
    for seed in range(40):
        table, tricks, skat = carla_plays("null/hand", seed)
        leaders = play_game(GameType.NULL, 1, skat, tricks).trick_winners
        if 1 in leaders[2:]:
            break
    first = leaders.index(1)
    table.play(tricks[:first])
    assert not table.snap.play.null_lost  # type: ignore[union-attr]
    table.refused(EndGame(EndHow.NULL_LOST), "bad_end")
    table.play(tricks[first:first + 1])
    assert table.snap.play.null_lost  # type: ignore[union-attr]
    table.end(EndHow.NULL_LOST)
    result = table.snap.result
    assert result is not None and (result.won, result.value, result.score) == (False, 35, -70)
    assert ending_text(result.ending, "de") == "Null verloren: Stich bekommen"
    table.confirm("Bernd", "Carla")
    table.assert_list_entry(1, declarer="Carla", score=-70, text="Null Hand")


def test_declarer_gives_up_and_the_table_gives_the_matadors() -> None:
    table, tricks, _ = carla_plays("hearts/hand", seed=5)
    table.end(EndHow.DECLARER_GAVE_UP)
    result = table.snap.result
    assert result is not None and result.needs_matadors and -11 in result.matador_choices
    assert german(table.refused(Confirm(table.seat("Carla")), "needs_matadors"))
    table.refused(EnterMatadors(12), "bad_result")
    table.ok(EnterMatadors(-2))
    result = table.snap.result
    assert result is not None and (result.won, result.score) == (False, -2 * 10 * 4)  # ohne 2, Spiel, Hand
    assert result.matadors == -2 and ending_text(result.ending, "de") == "Alleinspieler hat aufgegeben"


def test_defenders_give_up_after_some_tricks_the_declarer_wins() -> None:
    table, tricks, skat = carla_plays("grand", seed=8)
    table.play(tricks[:2])
    table.end(EndHow.DEFENDERS_GAVE_UP, matadors=None)
    result = table.snap.result
    if result is not None and result.needs_matadors:
        full = play_game(GameType.GRAND, 1, skat, tricks)
        table.ok(EnterMatadors(full.matadors))  # type: ignore[arg-type]
        result = table.snap.result
    assert result is not None and result.won is True and ending_text(result.ending, "de") == "Gegenspieler haben aufgegeben"


def test_matadors_that_the_cards_contradict_are_refused() -> None:
    for seed in range(50):  # a game whose first 6 tricks already show all four jacks
        table, tricks, skat = carla_plays("grand", seed=seed)
        shown = {c for t in tricks[:6] for c in t} | set(skat)
        if all(Card.parse(j) in shown for j in ("CJ", "SJ", "HJ", "DJ")):
            break
    table.play(tricks[:6])
    known = play_game(GameType.GRAND, 1, skat, tricks).matadors
    assert known is not None
    wrong = -known
    refusal = table.refused(EndGame(EndHow.DECLARER_VIOLATION, matadors=wrong), "bad_result")
    assert "Die Karten zeigen" in german(refusal)


def test_the_result_typed_in_instead_of_cards() -> None:
    table = Table("Anna", "Bernd", "Carla")
    table.say("M 18", "V passe", "H passe")
    table.declare("clubs/hand")
    assert table.snap.play is not None and table.snap.play.may_enter_result
    table.refused(EnterResult(6, 130, 2), "bad_result")
    table.refused(EnterResult(6, 75), "bad_result")  # no matadors
    table.refused(EnterResult(1, 100, 2), "bad_result")  # 100 points cannot be in one trick and the skat
    table.ok(EnterResult(6, 75, 2))
    result = table.snap.result
    assert result is not None and result.text == "Carla: Kreuz Hand mit 2, Spiel 3, Hand 4 = 48, gewonnen +48"
    assert (result.base_value, result.matadors, result.levels, result.value, result.score) == (
        12, 2, ("mit 2", "Spiel", "Hand"), 48, 48)
    table.confirm("Anna", "Carla")
    table.assert_list_entry(1, declarer="Carla", score=48)


def test_a_null_typed_in_needs_only_the_tricks_and_no_result_after_cards() -> None:
    table, tricks, _ = carla_plays("null/hand")
    table.ok(EnterResult(0))
    assert table.snap.result is not None and table.snap.result.score == 35
    table.undo()
    table.scan(*codes(tricks[0][:1]))
    table.refused(EnterResult(0), "cards_played")


@pytest.fixture
def club(monkeypatch: pytest.MonkeyPatch) -> None:
    kneipe = PROFILES["kneipe"]
    monkeypatch.setitem(PROFILES, "club", ISKO.with_(name="club", kontra=True, bock=True))
    monkeypatch.setitem(PROFILES, "ramsch", kneipe.with_(name="ramsch", bock=False))
    offer_at_table(monkeypatch, "club", "ramsch")


def test_kontra_and_re_double_the_score_when_the_profile_has_them(club: None) -> None:
    plain = Table("Anna", "Bernd", "Carla")
    plain.say("M 18", "V passe", "H passe"); plain.declare("clubs/hand")
    plain.refused(Kontra(0), "not_in_profile")
    table = Table("Anna", "Bernd", "Carla", profile="club")
    table.say("M 18", "V passe", "H passe"); table.declare("clubs/hand")
    table.refused(Re(1), "not_allowed")
    table.refused(Kontra(1), "not_allowed")  # the declarer
    assert table.snap.play is not None and table.snap.play.may_kontra == (0, 2)
    table.ok(Kontra(0), Re(1))
    table.ok(EnterResult(6, 75, 2))
    result = table.snap.result
    assert result is not None and result.score == 48 * 4 and result.marks == ("Kontra", "Re")
    table.confirm("Carla", "Anna")
    assert table.entry(1).marks == ("Kontra", "Re")


def test_bock_by_hand_doubles_the_next_games(club: None) -> None:
    table = Table("Anna", "Bernd", "Carla", profile="club")
    table.ok(AddBock())
    snap = table.snap
    assert snap.bock_games == 3 and bock_text(snap.bock_games, snap.bock_factor, snap.ramsch_games, "de") == "Bock (noch 3 Spiele)"
    table.say("M 18", "V passe", "H passe"); table.declare("clubs/hand")
    table.ok(EnterResult(6, 75, 2)); table.confirm("Carla", "Bernd")
    table.assert_list_entry(1, score=96)
    assert table.entry(1).marks == ("Bock",) and table.snap.bock_games == 2


def test_a_bock_trigger_of_the_profile_brings_a_bock_round(club: None) -> None:
    table = Table("Anna", "Bernd", "Carla", "Dora", profile="club")  # Re is a trigger (001)
    table.say("M 18", "V passe", "H passe"); table.declare("clubs/hand")
    table.ok(Kontra(0), Re(1), EnterResult(6, 75, 2)); table.confirm("Carla", "Bernd")
    assert table.snap.bock_games == 4  # one round at four
    table.say("M passe", "H passe", "V passe")  # eingepasst counts as a Bock deal
    assert table.snap.bock_games == 3
    refusal = table.refused(EndSeries(), "bock_open")
    assert german(refusal) == "Erst die offenen Bockrunden zu Ende spielen (Bock (noch 3 Spiele))"
    table.undo()  # taking back the wrong "passe" gives the Bock deal back
    assert table.snap.bock_games == 4


def test_ramsch_instead_of_eingepasst_when_the_profile_says_so(club: None) -> None:
    table = Table("Anna", "Bernd", "Carla", profile="ramsch")
    table.say("M passe", "H passe", "V passe")
    table.assert_phase("ramsch")
    table.refused(EnterRamsch((58, 52, 0), (6, 5, 0), 10, 1), "bad_result")  # 11 tricks
    table.ok(EnterRamsch((58, 52, 0), (6, 4, 0), 10, 1))
    table.assert_phase("result")
    result = table.snap.result
    assert result is not None and result.text == "Ramsch: Carla verliert mit 62 Augen, −124 (Jungfrau: Anna)"
    table.confirm("Anna", "Bernd")
    row = table.assert_list_entry(1, kind="ramsch")
    assert row.points == (0, 0, -124)


def test_scans_go_nowhere_while_bidding_and_unknown_cards_are_refused() -> None:
    from device.hardware import UnknownCardScanned
    table = Table("Anna", "Bernd", "Carla")
    assert "gereizt" in german(table.refused(CardScanned(Card.parse("CJ")), "no_card_expected"))
    refusal = table.refused(UnknownCardScanned("0x1234", "not in the deck file"), "unknown_card")
    assert "0x1234" in german(refusal)
    table.refused(PlayCard(Card.parse("CJ")), "not_now")
