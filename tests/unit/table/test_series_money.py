"""A Preisskat's Abreizgeld at the table's end of the series: the laptop's terms (with the sync's
answer) and the list's lost and eingepasste games, by the same functions as the laptop's Kasse."""

from __future__ import annotations

from device.club.money import Abreizgeld, Conditions, Tier
from device.table import EndSeries, EnterResult, MoneyTermsReceived
from tests.table_helpers import Table

TERMS = Conditions(abreiz=Abreizgeld((Tier(1, 50), Tier(2, 100))), passed_in_fee=50,
                   passed_in_payer="geber").table_terms().to_json()


def lose(t: Table) -> None:
    """Mittelhand plays Kreuz at 18 after the skat and loses with 40 Augen; both confirm."""
    t.say("M 18", "V passe", "H passe")
    t.take_skat()
    t.declare("clubs")
    t.ok(EnterResult(3, 40, 1))
    result = t.snap.result
    assert result is not None and result.score is not None and result.score < 0 and result.declarer_name
    defender = next(name for name in t.snap.players if name != result.declarer_name)
    t.confirm(result.declarer_name, defender)


def test_the_end_shows_lost_games_and_abreizgeld_by_the_laptops_terms() -> None:
    t = Table("Anna", "Bernd", "Carla")
    t.ok(MoneyTermsReceived.from_ack(TERMS))
    lose(t)  # game 1: Anna deals, Carla (Mittelhand) loses
    t.say("M passe", "H passe", "V passe")  # game 2: eingepasst, Bernd deals: the dealer pays
    lose(t)  # game 3: Carla deals, Bernd (Mittelhand) loses
    lose(t)  # game 4: Anna deals, Carla loses again: 0,50 + 1,00
    t.ok(EndSeries())
    end = t.snap.end
    assert end is not None and end.money_terms is not None
    money = {m.player: (m.lost, m.abreiz, m.passed_in, m.passed_fee) for m in end.series_money}
    assert money == {"Anna": (0, 0, 0, 0), "Bernd": (1, 50, 1, 50), "Carla": (2, 150, 0, 0)}


def test_without_the_laptops_terms_only_the_lost_games_and_no_amount() -> None:
    t = Table("Anna", "Bernd", "Carla")
    lose(t)
    t.ok(MoneyTermsReceived.from_ack(None))  # a laptop without conditions (or none at all)
    t.ok(EndSeries())
    end = t.snap.end
    assert end is not None and end.money_terms is None
    assert [(m.player, m.lost, m.abreiz) for m in end.series_money] == [("Anna", 0, None), ("Bernd", 0, None),
                                                                         ("Carla", 1, None)]


def test_tiers_over_the_evening_leave_the_amount_to_the_laptop() -> None:
    t = Table("Anna", "Bernd", "Carla")
    t.ok(MoneyTermsReceived.from_ack({**TERMS, "per_evening": True}))
    lose(t)
    t.ok(EndSeries())
    end = t.snap.end
    assert end is not None and [m.abreiz for m in end.series_money] == [None, None, None]
