"""A season of 20 evenings follows the person: spellings typed at the tables, a
member renamed mid-season, lists with and without member ids, guests kept by name and one
merged later; the Saison's order and figures against a computation by hand in the test."""

from __future__ import annotations

import random
from fractions import Fraction

from device.club.roster import Person, Roster
from device.club.season import SeasonRules
from ui.club.model import season_from_documents

JUERGEN = Person("Jürgen Meier", "Jürgen", member="101")
ANNA = Person("Anna Adler", "Anna", member="102")
# who each seat is, and how the tables spelled him over the season
SPELLINGS = {"juergen": ["Jürgen", "Jürgen Meier", "jürgen", "JÜRGEN MEIER"],
             "anna": ["Anna", "Anna Adler"], "gustav": ["Gustav", "Gustl"], "otto": ["Otto"]}


def _season(rng: random.Random) -> tuple[dict[str, dict[str, object]], dict[str, list[int]]]:
    entries: dict[str, dict[str, object]] = {}
    by_hand: dict[str, list[int]] = {}  # person -> Leistung of each series played
    for evening in range(1, 21):
        day = f"2026-{1 + (evening - 1) // 4:02d}-{1 + 7 * ((evening - 1) % 4):02d}"
        for series in (1, 2):
            if evening % 5 == 0 and series == 2:
                continue  # a short evening
            results, members = [], {}
            for who, spellings in SPELLINGS.items():
                name = spellings[(evening + series) % len(spellings)]
                if who == "juergen" and evening > 12:
                    name = "Jü"  # the new short name after the rename (lists from evening 13 on)
                leistung = rng.randint(-300, 900)
                results.append([name, leistung - 100, 1, 0, leistung])
                if who in ("juergen", "anna") and evening % 3 == 0:  # some lists carry the member id
                    members[name] = (JUERGEN if who == "juergen" else ANNA).id
                by_hand.setdefault(who, []).append(leistung)
            entry: dict[str, object] = {"evening": day, "series": series, "table": 1, "count": 9, "results": results}
            if members:
                entry["members"] = members
            entries[f"pi/{day}-{series}"] = entry
    return entries, by_hand


def test_twenty_evenings_rank_by_the_person_as_computed_by_hand() -> None:
    entries, by_hand = _season(random.Random(21))
    roster = Roster([JUERGEN, ANNA]).put(Person("Jürgen Meier-Roth", "Jü", member="101"), was="Jürgen Meier")
    roster = roster.put(Person("Gustav Gast", "Gustav")).merge("Gustav Gast", "Gustl")  # a guest, merged later
    lines, chart, evenings = season_from_documents(entries, SeasonRules(0, 0), lot="2026-05-22", roster=roster)
    assert len(evenings) == 20
    names = {"juergen": "Jürgen Meier-Roth", "anna": "Anna Adler", "gustav": "Gustav Gast", "otto": "Otto"}
    expected = sorted(((names[who], len(values), sum(values), Fraction(sum(values), len(values)))
                       for who, values in by_hand.items()), key=lambda line: -line[3])
    assert [(line.player, line.series, line.leistung, line.average) for line in lines] == expected
    assert [line.rank for line in lines] == [1, 2, 3, 4]
    assert set(chart) == set(names.values()) and all(len(v) == 20 for v in chart.values())
    # before the merge, "Gustl" is a guest of his own: five players
    unmerged = Roster([JUERGEN, ANNA]).put(Person("Jürgen Meier-Roth", "Jü", member="101"), was="Jürgen Meier")
    players = {line.player for line in season_from_documents(entries, SeasonRules(0, 0), roster=unmerged)[0]}
    assert players == {"Jürgen Meier-Roth", "Anna Adler", "Gustav", "Gustl", "Otto"}
