"""Rule profiles (device.profile): the registry, the switches and their JSON form.

The variants' rules themselves are tested in test_variants.py and test_ramsch.py; here: that a
profile says what it should, refuses what it cannot be, and survives a JSON round trip.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from device.errors import SkatError
from device.profile import (
    DEFAULT_BOCK_TRIGGERS, ISKO, KNEIPE, PRE_1999, PROFILES, BockRules, BockStacking, BockTrigger,
    InvalidProfileError, KontraRules, KontraTiming, ProfileError, RamschRules, RamschTie, RamschValue,
    RuleProfile, SchenkenRules, SkatTo, SpitzeRules, find_profile,
)

VARIANT_SWITCHES = ("kontra", "bock", "ramsch", "schenken", "spitze")


# --------------------------------------------------------------------------- registry


def test_registered_profiles_are_found_by_name() -> None:
    assert set(PROFILES) == {"isko", "pre1999", "kneipe", "texas", "tournee", "danish", "danish_aarhus"}
    for name, profile in PROFILES.items():
        assert find_profile(name) is profile
        assert profile.name == name


def test_unknown_name_is_a_key_error_naming_the_choices() -> None:
    with pytest.raises(ProfileError) as info:
        find_profile("skatclub")
    assert isinstance(info.value, KeyError) and isinstance(info.value, SkatError)
    assert str(info.value) == "unknown rule profile 'skatclub': one of danish, danish_aarhus, isko, kneipe, pre1999, texas, tournee"


def test_isko_is_the_default_and_has_every_variant_off() -> None:
    assert RuleProfile() == ISKO
    assert (ISKO.lost_hand_doubled, ISKO.grand_ouvert_base, ISKO.grand_ouvert_counts_ouvert) == (True, 24, True)
    assert not any(getattr(ISKO, switch) for switch in VARIANT_SWITCHES)
    assert not ISKO.has_ramsch


def test_pre1999_changes_only_the_two_scoring_rules() -> None:
    # 001, Punktwertungs- und Spielvarianten 1 and 2.
    assert PRE_1999.lost_hand_doubled is False
    assert PRE_1999.grand_ouvert_base == 36
    assert PRE_1999.grand_ouvert_counts_ouvert is False
    assert PRE_1999.with_(name="isko", lost_hand_doubled=True, grand_ouvert_base=24,
                          grand_ouvert_counts_ouvert=True) == ISKO


def test_kneipe_is_a_pub_profile() -> None:
    assert (KNEIPE.kontra, KNEIPE.bock, KNEIPE.ramsch, KNEIPE.schenken, KNEIPE.spitze) == (True, True, True, True, False)
    assert KNEIPE.ramsch_rules.schieben and KNEIPE.ramsch_rules.jungfrau and KNEIPE.ramsch_rules.durchmarsch
    assert KNEIPE.bock_rules.triggers == DEFAULT_BOCK_TRIGGERS
    assert KNEIPE.lost_hand_doubled and KNEIPE.grand_ouvert_base == 24  # scoring stays ISkO


def test_the_default_bock_triggers_are_the_game_events_001_lists() -> None:
    assert DEFAULT_BOCK_TRIGGERS == {BockTrigger.SIXTY_SIXTY, BockTrigger.KONTRA_WON,
                                     BockTrigger.GRAND_HAND_WON, BockTrigger.RE}
    assert all(t.in_001 for t in DEFAULT_BOCK_TRIGGERS)
    assert [t for t in BockTrigger if not t.in_001] == [BockTrigger.ALL_POINTS, BockTrigger.OVERBID, BockTrigger.VALUE_100]
    assert len({t.german for t in BockTrigger}) == len(BockTrigger)


def test_with_changes_one_switch_and_leaves_the_original() -> None:
    club = ISKO.with_(name="club", kontra=True)
    assert club.kontra and not ISKO.kontra
    assert club.with_(name="isko", kontra=False) == ISKO


def test_has_ramsch_covers_the_ramsch_rounds_after_bock() -> None:
    assert ISKO.with_(ramsch=True).has_ramsch
    assert ISKO.with_(bock=True, bock_rules=BockRules(ramsch_round_every=1)).has_ramsch
    assert not ISKO.with_(bock=True).has_ramsch
    assert not ISKO.with_(bock_rules=BockRules(ramsch_round_every=1)).has_ramsch  # Bock itself off


def test_variants_in_german_for_the_screen() -> None:
    assert KNEIPE.variants_de() == (
        "Kontra/Re", "Bock (60 zu 60, Kontra gewonnen, Grand Hand gewonnen, Re angesagt)",
        "Ramsch (Schieben, Jungfrau, Durchmarsch)", "Schenken",
    )
    simple = ISKO.with_(ramsch=True, ramsch_rules=RamschRules(value=RamschValue.FIXED, jungfrau=False, durchmarsch=False))
    assert simple.variants_de() == ("Einfacher Ramsch",)


# --------------------------------------------------------------------------- values refused


@pytest.mark.parametrize("build, field", [
    (lambda: RuleProfile(grand_ouvert_base=0), "grand_ouvert_base"),
    (lambda: RuleProfile(name=""), "name"),
    (lambda: BockRules(rounds_per_trigger=0), "rounds_per_trigger"),
    (lambda: BockRules(ramsch_round_every=-1), "ramsch_round_every"),
    (lambda: BockRules(triggers=frozenset({"re"})), "triggers"),  # type: ignore[arg-type]
    (lambda: RamschRules(fixed_values=(10, 15)), "fixed_values"),  # type: ignore[arg-type]
    (lambda: RamschRules(fixed_values=(20, 15, 10)), "fixed_values"),
    (lambda: SpitzeRules(max_cards=0), "max_cards"),
    (lambda: SpitzeRules(levels_per_card=True), "levels_per_card"),
    (lambda: RuleProfile(kontra_rules=BockRules()), "kontra_rules"),  # type: ignore[arg-type]
])
def test_impossible_values_are_refused_naming_the_field(build: Any, field: str) -> None:
    with pytest.raises(InvalidProfileError) as info:
        build()
    assert info.value.field == field
    assert isinstance(info.value, ValueError)


# --------------------------------------------------------------------------- JSON


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_registered_profiles_round_trip_through_json_text(name: str) -> None:
    profile = find_profile(name)
    text = json.dumps(profile.to_json())
    data = json.loads(text)
    assert data["v"] == 1 and data["name"] == name
    assert RuleProfile.from_json(data) == profile


def test_json_shape_is_plain_and_stable() -> None:
    data = KNEIPE.to_json()
    assert list(data) == [
        "v", "name", "lost_hand_doubled", "grand_ouvert_base", "grand_ouvert_counts_ouvert",
        "grand_base", "null_values", "schneider_at", "announce_after_skat", "ouvert_doubles", "look_at_discards",
        "form", "ouvert_any", "kontra", "kontra_rules", "bock", "bock_rules", "ramsch", "ramsch_rules",
        "schenken", "schenken_rules", "spitze", "spitze_rules", "pot", "pot_rules",
    ]
    assert data["bock_rules"] == {
        "triggers": ["grand_hand_won", "kontra_won", "re", "sixty_sixty"], "rounds_per_trigger": 1,
        "each_trigger_counts": True, "stacking": "sequential", "finish_open_rounds": True,
        "ramsch_round_every": 0,
    }
    assert data["ramsch_rules"]["fixed_values"] == [10, 15, 20]
    assert data["ramsch_rules"]["skat_to"] == "last_trick"


def test_missing_fields_take_the_isko_default() -> None:
    assert RuleProfile.from_json({}) == ISKO
    assert RuleProfile.from_json({"v": 1, "name": "x", "bock_rules": {"stacking": "concurrent"}}) == ISKO.with_(
        name="x", bock_rules=BockRules(stacking=BockStacking.CONCURRENT))


@pytest.mark.parametrize("data, field, words", [
    ({"v": 2}, "v", "version 2 is not supported"),
    ({"v": True}, "v", "not supported"),
    ({"kontra": True, "contra": True}, "contra", "unknown field"),
    ({"ramsch_rules": {"schieberamsch": True}}, "ramsch_rules.schieberamsch", "unknown field"),
    ({"kontra": "yes"}, "kontra", "true or false"),
    ({"grand_ouvert_base": 36.0}, "grand_ouvert_base", "a whole number"),
    ({"grand_ouvert_base": True}, "grand_ouvert_base", "a whole number"),
    ({"grand_ouvert_base": 0}, "grand_ouvert_base", "from 1 to 100"),
    ({"name": 7}, "name", "a str"),
    ({"kontra_rules": {"timing": "whenever"}}, "kontra_rules.timing", "'before_own_card', 'before_lead'"),
    ({"kontra_rules": True}, "kontra_rules", "an object"),
    ({"bock_rules": {"triggers": ["re", "schnaps"]}}, "bock_rules.triggers", "'schnaps': one of"),
    ({"bock_rules": {"triggers": "re"}}, "bock_rules.triggers", "a list"),
    ({"bock_rules": {"rounds_per_trigger": 0}}, "bock_rules.rounds_per_trigger", "from 1 to 10"),
    ({"ramsch_rules": {"fixed_values": [10, 15]}}, "ramsch_rules.fixed_values", "a list of 3 numbers"),
    ({"ramsch_rules": {"fixed_values": [10, "x", 20]}}, "ramsch_rules.fixed_values", "three whole amounts"),
    ({"spitze_rules": {"max_cards": 12}}, "spitze_rules.max_cards", "from 1 to 11"),
])
def test_bad_json_is_refused_naming_the_field(data: dict[str, Any], field: str, words: str) -> None:
    with pytest.raises(InvalidProfileError) as info:
        RuleProfile.from_json(data)
    assert info.value.field == field
    assert words in info.value.reason


def test_json_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(InvalidProfileError, match="a rule profile is a JSON object"):
        RuleProfile.from_json([("kontra", True)])  # type: ignore[arg-type]


@st.composite
def profiles(draw: st.DrawFn) -> RuleProfile:
    """Any valid profile: every switch and option drawn."""
    ints = st.integers
    return RuleProfile(
        name=draw(st.text(min_size=1, max_size=12).filter(str.strip)),
        lost_hand_doubled=draw(st.booleans()),
        grand_ouvert_base=draw(ints(1, 100)),
        grand_ouvert_counts_ouvert=draw(st.booleans()),
        kontra=draw(st.booleans()),
        kontra_rules=KontraRules(draw(st.sampled_from(KontraTiming)), draw(st.booleans())),
        bock=draw(st.booleans()),
        bock_rules=BockRules(
            triggers=draw(st.frozensets(st.sampled_from(BockTrigger))),
            rounds_per_trigger=draw(ints(1, 10)), each_trigger_counts=draw(st.booleans()),
            stacking=draw(st.sampled_from(BockStacking)), finish_open_rounds=draw(st.booleans()),
            ramsch_round_every=draw(ints(0, 10)),
        ),
        ramsch=draw(st.booleans()),
        ramsch_rules=RamschRules(
            skat_to=draw(st.sampled_from(SkatTo)), value=draw(st.sampled_from(RamschValue)),
            fixed_values=tuple(sorted(draw(st.lists(ints(1, 100), min_size=3, max_size=3)))),  # type: ignore[arg-type]
            jungfrau=draw(st.booleans()), durchmarsch=draw(st.booleans()),
            tie=draw(st.sampled_from(RamschTie)), schieben=draw(st.booleans()),
            push_jacks=draw(st.booleans()), grand_hand=draw(st.booleans()),
        ),
        schenken=draw(st.booleans()),
        schenken_rules=SchenkenRules(draw(st.booleans())),
        spitze=draw(st.booleans()),
        spitze_rules=SpitzeRules(draw(ints(1, 11)), draw(ints(1, 4))),
    )


@given(profiles())
def test_any_profile_round_trips_through_json(profile: RuleProfile) -> None:
    data = json.loads(json.dumps(profile.to_json()))
    assert RuleProfile.from_json(data) == profile


@given(profiles())
def test_variants_de_names_exactly_the_switches_that_are_on(profile: RuleProfile) -> None:
    shown = " | ".join(profile.variants_de())
    assert ("Kontra/Re" in shown) == profile.kontra
    assert ("Bock" in shown) == profile.bock
    assert ("Ramsch" in shown) == profile.ramsch
    assert ("Schenken" in shown) == profile.schenken
    assert ("Spitze" in shown) == profile.spitze


def test_the_club_profile_takes_the_options_the_text_offers() -> None:
    """001 "Spitze", "Ouvert-Spiele", "Spiel um einen Pot": options of the club profile, named with it."""
    from device.profile import ProfileError, club_profile_name, find_profile
    p = find_profile("kneipe+spitze+ouvert_doubles+pot")
    assert (p.spitze, p.ouvert_doubles, p.pot, p.ouvert_any, p.schenken, p.ramsch) == (True, True, True, False, True, True)
    assert p.spitze_rules.max_cards == 11  # "Sie können mehr als eine einzige Spitze ansagen"
    assert find_profile("kneipe+ouvert_any").ouvert_any
    assert find_profile(club_profile_name(())) is KNEIPE
    assert find_profile("kneipe+pot") is find_profile("kneipe+pot")  # built once
    for bad, words in (("kneipe+pot+spitze", "in the order"), ("kneipe+rum", "unknown option 'rum'"),
                       ("texas+pot", "belong to the club profile"), ("kneipe+ouvert_any+ouvert_doubles", "not both"),
                       ("kneipe+pot+pot", "each option once")):
        with pytest.raises(ProfileError, match=words):
            find_profile(bad)
