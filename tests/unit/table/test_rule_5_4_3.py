"""ISkO 5.4.3 at the table: the cards scanned decide what the matadors alone cannot.

The defenders' false following would give the declarer his announced Schwarz (4.1.5), unless
it was theoretically out of reach before the first trick (5.4.3, with the court's reading in
rules/002). The defenders are seen playing Herz and Pik Bube. With the Kreuz Bube in the skat
of the hand game ("mit 1" only through the skat) the declarer holds no trump above them, and
the violation does not win the Schwarz; with the Kreuz 8 there instead, he may hold the Kreuz
Bube, on which both can fall: Schwarz stays reachable and is awarded. The skat lies where it
lies (see device.value.reachable_level).
"""

from __future__ import annotations

from device.cards import Card
from device.hardware import CardScanned
from device.record import score_record
from device.table.commands import AcceptFalseFollowing, EnterMatadors, PushSkat
from device.table.outcome import game_record
from tests.table_helpers import Table


def anna_plays_schwarz_and_bernd_revokes(skat: tuple[str, str]) -> Table:
    t = Table("Anna", "Bernd", "Carla")  # Anna deals: Vorhand Bernd, Mittelhand Carla, Hinterhand Anna
    t.say("M passe", "H 18", "V passe")
    t.declare("clubs/hand/schwarz")
    t.scan("HA", "HJ", "HK")  # Carla trumps the Herz Ass although she holds Herz 7
    t.scan("D7", "DA", "SJ")  # Bernd trumps with the Pik Bube
    t.scan("H9")
    t.refused(CardScanned(Card.parse("H7")), "false_following")
    t.ok(AcceptFalseFollowing())  # the game ends at trick 1, before the defenders had a trick
    t.assert_phase("result")
    t.ok(*(PushSkat(Card.parse(c)) for c in skat))  # the hand game's skat, scanned at the end
    return t


def test_schwarz_out_of_reach_by_the_cards_is_not_won_by_the_defenders_violation() -> None:
    t = anna_plays_schwarz_and_bernd_revokes(("CJ", "H8"))
    result = t.snap.result
    assert result is not None and result.matadors == 1
    assert (result.won, result.score) == (False, -2 * 7 * 12)  # mit 1, Spiel, Hand, Schneider (angesagt), Schwarz (angesagt)
    deal = t.service.state.deal
    assert deal is not None
    record = game_record(deal)
    assert record is not None and record["ending"]["level_possible"] is False
    t.confirm("Anna", "Bernd")
    t.assert_list_entry(1, declarer="Anna", score=-168)
    stored = t.service.state.rows[0].record
    assert stored is not None and score_record(stored).result.score == -168  # what `skattisch score` says


def test_while_the_cards_leave_schwarz_possible_the_violation_wins_it() -> None:
    """The same play with the Kreuz 8 for the Kreuz Bube in the skat: the declarer may hold the
    Kreuz Bube (it was never seen), so Schwarz is theoretically reachable and 4.1.5 awards it.
    The matadors are entered (the cards do not show them)."""
    t = anna_plays_schwarz_and_bernd_revokes(("C8", "H8"))
    result = t.snap.result
    assert result is not None and result.needs_matadors
    t.ok(EnterMatadors(1))
    result = t.snap.result
    assert result is not None and (result.won, result.score) == (True, 7 * 12)
