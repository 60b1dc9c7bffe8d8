"""The Preisskat's money: the worked evening of tests/money_evening.py, every amount by hand,
and the conditions that are refused in words naming the field."""

from __future__ import annotations

from dataclasses import replace

import pytest

from device.club.money import Abreizgeld, Conditions, ExtraRanking, MoneyError, PrizePlan, Tier, parse_cents
from device.club.prizes import Payment, account, evening_prizes, kasse
from tests.money_evening import TANDEMS, conditions, evening_figures

LOT = "2026-12-05"


def _kasse(corrected: bool = True, payments: dict[str, Payment] | None = None):  # type: ignore[no-untyped-def]
    results, passed = evening_figures(corrected=corrected)
    return kasse(conditions(), results, passed, payments=payments)


def test_the_kasse_of_the_worked_evening() -> None:
    # due = Startgeld (10 €, Kurt Jugend 0 €) + extra fees (team 8 € paid by its first player,
    # tandem 2 € each) + Tischgeld 1 € per series played + Abreizgeld + 0,50 € per eingepasstes game
    #   Anna   10 + 8 + 2 + 1,00 (1 lost in each series) + 0,50          = 21,50
    #   Bernd  10     + 2 + 0,50 (series 2) + 1,00 (two eingepasste)      = 13,50
    #   Carla  10 + 8 + 2 + 0,50 + 0,50                                   = 21,00
    #   Dieter 10     + 2        + 0,50                                   = 12,50
    #   Erik   10     + 2 + 0,50                                          = 12,50
    #   Frida  10     + 2 + 2,50 (4 lost in series 1: 3x0,50 + 1,00) + 0,50 = 15,00
    #   Gert   10     + 2 + 0,50                                          = 12,50
    #   Hanna  10     + 2 + 0,50                                          = 12,50
    #   Ingo   10 + 2 + 2        + 0,50                                   = 14,50
    #   Jana   10 + 2 + 2 + 0,50 + 0,50                                   = 15,00
    #   Kurt    0 + 2 + 1 (series 1 only)   + 0,50                        =  3,50
    #   Lena   10 + 2 + 1 (series 2 only)                                 = 13,00
    paid = {"Anna": Payment(startgeld=True, extras=("Mannschaft",), other=350), "Kurt": Payment(True, ("Tandem",))}
    lines = {line.player: line for line in _kasse(payments=paid)}
    due = {name: line.due for name, line in lines.items()}
    assert due == {"Anna": 2150, "Bernd": 1350, "Carla": 2100, "Dieter": 1250, "Erik": 1250, "Frida": 1500,
                   "Gert": 1250, "Hanna": 1250, "Ingo": 1450, "Jana": 1500, "Kurt": 350, "Lena": 1300}
    assert sum(due.values()) == 16700
    anna, frida, kurt = lines["Anna"], lines["Frida"], lines["Kurt"]
    assert (anna.startgeld, anna.extras, anna.tischgeld, anna.abreiz, anna.passed_fee) == (
        1000, (("Mannschaft", 800, True),), 200, 100, 50)
    assert (anna.paid, anna.open) == (1000 + 800 + 350, 0)
    assert [(s.series, s.lost, s.abreiz) for s in frida.series] == [(1, 4, 250), (2, 0, 0)]
    assert (kurt.category, kurt.startgeld, kurt.paid, kurt.open) == ("Jugend", 0, 200, 150)
    assert lines["Bernd"].extras == (("Mannschaft", 0, False),)  # the team's fee is Anna's


def test_a_correction_at_the_table_changes_the_abreizgeld_at_once() -> None:
    # before the correction Anna's Grand was won: no lost game in series 1, 0,50 € less
    before = {line.player: line for line in _kasse(corrected=False)}
    after = {line.player: line for line in _kasse(corrected=True)}
    assert (before["Anna"].abreiz, after["Anna"].abreiz) == (50, 100)
    assert [s.lost for s in after["Anna"].series] == [1, 1]


def test_the_prizes_of_the_worked_evening() -> None:
    # Startgelder 110 €, 90 % paid out = 99 €; the series winners' 2 x 5 € from it: 89 € for the
    # ranking: 50/30/20 % = 44,50 / 26,70 / 17,80, down to 1 €: 44 / 26 / 17, the 2 € left to the
    # first: 46 / 26 / 17. Dieter and Ingo are equal (168, 1 won, 0 lost): places 1-2 share
    # 46 + 26 = 72 €: 36 € each; Gert (3rd) 17 €; Kurt (4th) the Präsentkorb.
    results, passed = evening_figures()
    lines = kasse(conditions(), results, passed)
    rankings = {r.name: r for r in evening_prizes(conditions(), results, lines, lot_seed=LOT)}
    einzel = rankings["Einzel"]
    assert (einzel.pot, einzel.payout, einzel.kept) == (11000, 8900, 1100)
    won = {p.winner: (p.cents, p.material) for p in einzel.prizes}
    assert won == {"Dieter": (3600, ""), "Ingo": (3600, ""), "Gert": (1700, ""), "Kurt": (0, "Präsentkorb")}
    assert len(einzel.notes) == 1 and "Dieter" in einzel.notes[0] and "je 36,00 €" in einzel.notes[0]
    # series 1: Hanna 218 first; series 2: Lena 128 first; 5 € each
    assert [(p.winner, p.cents) for p in rankings["Serie 1"].prizes] == [("Hanna", 500)]
    assert [(p.winner, p.cents) for p in rankings["Serie 2"].prizes] == [("Lena", 500)]
    # teams: Herz-Damen -26+168+142+132 = 416 beat Kreuz-Buben -104+42+94-216 = -184: the 16 € pot
    team = rankings["Mannschaft"]
    assert [(line.player, line.leistung) for line in team.lines] == [("Herz-Damen", 416), ("Kreuz-Buben", -184)]
    assert [(p.winner, p.cents) for p in team.prizes] == [("Herz-Damen", 1600)]
    # tandems: Kurt & Lena 138+128 = 266 beat Ingo & Jana 168+12 = 180: the 4 x 2 € pot
    tandem = rankings["Tandem"]
    assert [(line.player, line.leistung) for line in tandem.lines] == [("Kurt & Lena", 266), ("Ingo & Jana", 180)]
    assert [(p.winner, p.cents) for p in tandem.prizes] == [("Kurt & Lena", 800)]


def test_the_account_adds_up_to_the_cent() -> None:
    # income 110 + 16 + 8 (Startgelder) + 22 (Tischgeld) + 6,50 (Abreizgeld) + 4,50 (eingepasst) = 167 €
    # payouts 36 + 36 + 17 + 5 + 5 + 16 + 8 = 123 €; stays with the organiser 44 € =
    # Tischgeld 22 + Abreizgeld 6,50 + eingepasst 4,50 + the 10 % of the Startgelder not paid out 11
    results, passed = evening_figures()
    lines = kasse(conditions(), results, passed)
    books = account(conditions(), lines, evening_prizes(conditions(), results, lines, lot_seed=LOT))
    assert dict(books.income) == {"Startgelder Einzel": 11000, "Startgelder Mannschaft": 1600,
                                  "Startgelder Tandem": 800, "Tischgeld": 2200, "Abreizgeld": 650,
                                  "Gebühr eingepasste Spiele": 450}
    assert (books.income_total, books.payout_total, books.remains) == (16700, 12300, 4400)
    assert dict(books.kept) == {"Tischgeld": 2200, "Abreizgeld": 650, "Gebühr eingepasste Spiele": 450,
                                "Einzel: nicht ausgezahlt": 1100}
    assert books.open == 16700 and books.by_organiser == 0


def test_prizes_the_organiser_pays_are_shown_as_such() -> None:
    # series prizes paid by the organiser: the whole 89 + 10 € pot goes to the ranking (99 €:
    # 49,50 / 29,70 / 19,80 down to 1 €: 49 / 29 / 19, 2 € to the first), the 10 € come on top
    by_organiser = replace(conditions(), series_prizes_by_organiser=True)
    results, passed = evening_figures()
    lines = kasse(by_organiser, results, passed)
    rankings = {r.name: r for r in evening_prizes(by_organiser, results, lines, lot_seed=LOT)}
    assert sum(p.cents for p in rankings["Einzel"].prizes) == 9900
    assert [(p.cents, p.by_organiser) for p in rankings["Serie 1"].prizes] == [(500, 500)]
    books = account(by_organiser, lines, list(rankings.values()))
    assert books.by_organiser == 1000 and books.remains == 16700 - (9900 + 1000 + 1600 + 800)
    assert ("Serie 1: zahlt der Veranstalter", -500) in books.kept


def test_one_prize_each_gives_a_category_prize_to_the_next() -> None:
    plan = PrizePlan(places=1, amounts=(100,))
    seniors = ExtraRanking("Senioren", "kategorie", 100, (("Senioren", ("Gert", "Hanna", "Erik")),), plan)
    base = conditions()
    for each, winner in ((False, "Gert"), (True, "Hanna")):  # Gert has the 3rd prize already
        rules = Conditions(startgeld=base.startgeld, categories=base.categories, plan=base.plan, extras=(seniors,),
                           one_prize_each=each)
        results, passed = evening_figures()
        lines = kasse(rules, results, passed)
        ranked = {r.name: r for r in evening_prizes(rules, results, lines, lot_seed=LOT)}
        assert [p.winner for p in ranked["Senioren"].prizes] == [winner]


@pytest.mark.parametrize(("build", "field"), [
    (lambda: PrizePlan(amounts=(50, 30, 30)), "Preisplan"),
    (lambda: Conditions(startgeld=-100), "Startgeld"),
    (lambda: Abreizgeld((Tier(1, 50), Tier(4, 100), Tier(3, 200))), "Abreizgeld"),
    (lambda: Conditions(passed_in_fee=-1), "Gebühr je eingepasstes Spiel"),
    (lambda: ExtraRanking("Tandem", "tandem", 200, (("T", ("Anna", "Bernd", "Carla")),), PrizePlan()), "Tandem: T"),
    (lambda: ExtraRanking("Tandem", "tandem", 200, TANDEMS + (("Doppelt", ("Ingo", "Anna")),), PrizePlan()),
     "Tandem: Doppelt"),
    (lambda: parse_cents("1,234", "Tischgeld"), "Tischgeld"),
])
def test_bad_conditions_are_refused_naming_the_field(build, field) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(MoneyError) as refused:
        build()
    assert refused.value.field == field


def test_fixed_prizes_above_the_pot_are_refused_unless_the_organiser_pays() -> None:
    plan = PrizePlan(scale="fest", amounts=(10000, 5000), places=0)
    with pytest.raises(MoneyError, match="übersteigen den Topf") as refused:
        plan.check_pot(11000)
    assert refused.value.field == "Preisplan: Beträge"
    PrizePlan(scale="fest", amounts=(10000, 5000), places=0, organiser_pays=True).check_pot(11000)


def test_conditions_survive_the_store_as_json() -> None:
    assert Conditions.from_json(conditions().to_json()) == conditions()


def test_categories_and_teams_left_to_the_member_list_give_the_same_evening() -> None:
    # the organiser writes "Jugend: 0,00" and a team ranking without teams; the member list puts
    # Kurt (and Zora, who is not here tonight) in the Jugend and the eight team players in their
    # Mannschaft: the Kasse and every prize are those of the worked evening's named groups
    from device.club.member_groups import from_member_list
    from device.club.money import FeeCategory
    from tests.money_evening import TEAMS

    named = conditions()
    left = replace(named, categories=(FeeCategory("Jugend", 0, ()),),
                   extras=(replace(named.extras[0], groups=()), named.extras[1]))
    team_of = {player: team for team, players in TEAMS for player in players}
    results, passed = evening_figures()
    playing = {r.player for r in results}
    drawn = from_member_list(left, {"Kurt": "Jugend", "Zora": "Jugend", "Anna": "Damen"}, team_of, playing)
    assert drawn.categories == named.categories
    assert sorted(drawn.extras[0].groups) == sorted(TEAMS)
    assert kasse(drawn, results, passed) == kasse(named, results, passed)
    lines = kasse(named, results, passed)
    assert evening_prizes(drawn, results, lines, lot_seed=LOT) == evening_prizes(named, results, lines, lot_seed=LOT)


def test_a_named_team_or_category_wins_over_the_member_list_and_a_short_team_is_refused() -> None:
    from device.club.member_groups import from_member_list
    from device.club.money import FeeCategory

    plan = PrizePlan(places=1, amounts=(100,))
    teams = ExtraRanking("Mannschaft", "mannschaft", 400, (("Asse", ()), ("Buben", ("A", "B", "C", "D"))), plan)
    damen = ExtraRanking("Damen", "kategorie", 200, (), plan)
    given = Conditions(categories=(FeeCategory("Jugend", 0, ("Kurt",)), FeeCategory("Senioren", 500, ())),
                       extras=(teams, damen))
    team_of = {"E": "Asse", "F": "asse", "G": "Asse", "H": "Asse", "A": "Asse"}
    cats = {"Kurt": "Senioren", "Olga": "Senioren, Damen", "Eva": "Damen"}
    drawn = from_member_list(given, cats, team_of, ["Kurt", "Olga", "Eva", "A", "E"])
    assert drawn.categories[0].players == ("Kurt",) and drawn.categories[1].players == ("Olga",)  # Kurt: Jugend only
    # A is in the list's Asse, but the organiser put him in Buben: Asse are the other four
    assert drawn.extras[0].groups == (("Asse", ("E", "F", "G", "H")), ("Buben", ("A", "B", "C", "D")))
    assert drawn.extras[1].groups == (("Damen", ("Eva", "Olga")),)
    with pytest.raises(MoneyError, match="Mannschaft: Asse: hat 3 Spieler, nicht 4"):
        from_member_list(given, cats, {"E": "Asse", "F": "Asse", "G": "Asse"}, ["E"])
