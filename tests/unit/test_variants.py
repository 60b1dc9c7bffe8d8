"""Club variants (device.variants): Kontra/Re, Bock triggers and rounds, Schenken, Spitze,
and the pre-1999 profile's scoring.

The worked examples of rule text 001 live in tests/data/variants/*.json, each naming its
source; targeted tests and hypothesis properties follow each group.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from device.bidding import parse_action, replay
from device.cards import DECK, Card, parse_cards
from device.declaration import Declaration, Level
from device.errors import SkatError
from device.games import GameType
from device.profile import (
    ISKO, KNEIPE, BockRules, BockStacking, BockTrigger, KontraRules, RuleProfile, SchenkenRules,
    SpitzeRules, find_profile,
)
from device.tricks import play_game
from device.value import EndedBy, Ending, Play, score_game
from device.variants import (
    BockState, Schenken, VariantError, bock_triggers, check_kontra, check_re, check_spitze,
    is_automatic_gift, kontra_multiplier, may_say_kontra, may_say_re, passed_up_18, score_schenken,
    score_spitze, spitze_cards, spitze_made, total_triggers,
)
from tests.strategies import deal, play_random

DATA = Path(__file__).resolve().parents[1] / "data" / "variants"


def load(name: str, key: str) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads((DATA / name).read_text(encoding="utf-8"))[key]
    return cases


def cases(name: str, key: str = "cases") -> pytest.MarkDecorator:
    return pytest.mark.parametrize("case", load(name, key), ids=lambda c: str(c["source"])[:70])


def profile_of(spec: str | dict[str, Any]) -> RuleProfile:
    """A case's profile: a registered name, or a rule-profile JSON object."""
    return find_profile(spec) if isinstance(spec, str) else RuleProfile.from_json(spec)


def declaration_of(case: dict[str, Any]) -> Declaration:
    return Declaration.make(GameType.parse(case["game"]), hand=case.get("hand", False),
                            ouvert=case.get("ouvert", False), announced=Level.parse(case.get("announced")))


def play_of(case: dict[str, Any]) -> Play:
    return Play(case["declarer_points"], case["declarer_tricks"], case["matadors"])


# --------------------------------------------------------------------------- Kontra and Re


@cases("kontra.json", "multiplier")
def test_kontra_multiplier_cases(case: dict[str, Any]) -> None:
    profile = profile_of(case["profile"])
    if "error" in case:
        with pytest.raises(VariantError, match=case["error"]):
            kontra_multiplier(case["kontra"], case["re"], profile)
    else:
        assert kontra_multiplier(case["kontra"], case["re"], profile) == case["multiplier"]


@cases("kontra.json", "scored")
def test_kontra_scored_cases(case: dict[str, Any]) -> None:
    profile = profile_of(case["profile"])
    m = kontra_multiplier(case["kontra"], case["re"], profile)
    r = score_game(declaration_of(case), case["bid"], play_of(case), multiplier=m, profile=profile)
    assert (r.won, r.overbid, r.value, r.score) == (case["won"], case["overbid"], case["value"], case["score"])


@cases("kontra.json", "may_kontra")
def test_may_kontra_cases(case: dict[str, Any]) -> None:
    profile = profile_of(case["profile"])
    auction = replay(map(parse_action, case["auction"])) if "auction" in case else None
    if auction is not None:
        assert auction.result is not None and auction.result.declarer == case["declarer"]
    allowed = may_say_kontra(profile, seat=case["seat"], declarer=case["declarer"],
                             cards_played=case["cards_played"], auction=auction)
    assert allowed is case["allowed"]


@given(st.booleans(), st.booleans(), st.booleans())
def test_kontra_and_re_multiply_only_with_the_profile_on(on: bool, kontra: bool, re: bool) -> None:
    profile = ISKO.with_(kontra=on)
    if re and not kontra:
        with pytest.raises(VariantError):
            kontra_multiplier(kontra, re, profile)
    elif kontra and not on:
        with pytest.raises(VariantError):
            kontra_multiplier(kontra, re, profile)
    else:
        assert kontra_multiplier(kontra, re, profile) == (2 if kontra else 1) * (2 if re else 1)


def test_kontra_needs_the_auction_when_the_18_rule_is_on() -> None:
    profile = ISKO.with_(kontra=True, kontra_rules=KontraRules(no_kontra_after_passing_18=True))
    with pytest.raises(VariantError, match="give the bidding"):
        check_kontra(profile, seat=0, declarer=1, cards_played=0)


def test_kontra_refused_under_isko_with_a_clear_reason() -> None:
    with pytest.raises(VariantError, match="not played under the rule profile 'isko'"):
        check_kontra(ISKO, seat=0, declarer=1, cards_played=0)


@pytest.mark.parametrize("actions, seat, passed", [
    (["M 18", "V passe", "H passe"], 0, True),       # 001's A: asked to hold 18, passed
    (["M 18", "V passe", "H passe"], 2, False),      # 001's C: would have needed 20
    (["M passe", "H passe", "V 18"], 1, True),       # Mittelhand could have said 18
    (["M passe", "H passe", "V 18"], 2, True),       # Hinterhand could have said 18 to Vorhand
    (["M 18", "V ja", "M 20", "V passe", "H passe"], 0, False),  # held 18 first
    (["M 18", "V ja", "M 20", "V passe", "H passe"], 2, False),  # Hinterhand faced 20
    (["M passe", "H 18", "V passe"], 0, True),       # Vorhand asked 18 by Hinterhand
])
def test_passed_up_18(actions: list[str], seat: int, passed: bool) -> None:
    assert passed_up_18(replay(map(parse_action, actions)), seat) is passed


def test_re_only_at_once_by_the_declarer_after_kontra() -> None:
    p = KNEIPE
    assert may_say_re(p, seat=2, declarer=2, kontra_said=True, cards_since_kontra=0)
    with pytest.raises(VariantError, match="only the declarer"):
        check_re(p, seat=1, declarer=2, kontra_said=True, cards_since_kontra=0)
    with pytest.raises(VariantError, match="without Kontra"):
        check_re(p, seat=2, declarer=2, kontra_said=False, cards_since_kontra=0)
    with pytest.raises(VariantError, match="at once"):
        check_re(p, seat=2, declarer=2, kontra_said=True, cards_since_kontra=1)
    assert not may_say_re(ISKO, seat=2, declarer=2, kontra_said=True, cards_since_kontra=0)


# --------------------------------------------------------------------------- Bock triggers


@cases("bock.json", "triggers")
def test_bock_trigger_cases(case: dict[str, Any]) -> None:
    profile = profile_of(case["profile"])
    kontra, re = case.get("kontra", False), case.get("re", False)
    m = kontra_multiplier(kontra, re, profile) if kontra else 1
    result = score_game(declaration_of(case), case["bid"], play_of(case), multiplier=m, profile=profile)
    fired = bock_triggers(result, profile, kontra=kontra, re=re, new_totals=case.get("new_totals", ()))
    assert [t.german for t in fired] == case["fires"]


def test_a_shortened_game_at_60_is_no_60_60() -> None:
    # 60:60 is a played-out game; one the declarer gave up at 60 Augen is not.
    result = score_game(Declaration.make(GameType.CLUBS), 18, Play(60, 5, 1),
                        ending=Ending(EndedBy.DECLARER_GAVE_UP))
    assert bock_triggers(result, KNEIPE) == ()


@pytest.mark.parametrize("totals, fired", [
    ([100], ["hundred"]), ([-400], ["hundred"]), ([0], []), ([111], ["schnapszahl"]),
    ([-555], ["schnapszahl"]), ([1111], ["schnapszahl"]), ([99], []), ([1000], ["hundred"]),
    ([888, 500], ["hundred", "schnapszahl"]), ([2212], []),
])
def test_total_triggers(totals: list[int], fired: list[str]) -> None:
    profile = ISKO.with_(bock=True, bock_rules=BockRules(triggers=frozenset(BockTrigger)))
    assert [t.value for t in total_triggers(totals, profile)] == fired
    assert total_triggers(totals, ISKO) == ()


# --------------------------------------------------------------------------- Bock rounds


def _fold(case: dict[str, Any]) -> list[int | str]:
    state = BockState.start(case["players"], profile_of(case["profile"]))
    seen: list[int | str] = []
    for item in case["deals"]:
        seen.append("R" if state.is_ramsch else state.multiplier)
        deal_ = item if isinstance(item, dict) else {"triggers": item}
        state = state.after_deal([BockTrigger(t) for t in deal_["triggers"]], counts=deal_.get("counts", True))
    return seen


@cases("bock.json", "rounds")
def test_bock_round_cases(case: dict[str, Any]) -> None:
    assert _fold(case) == case["expect"]


def test_bock_state_text_and_play_on() -> None:
    state = BockState.start(4, KNEIPE)
    assert (state.german, state.must_play_on) == ("", False)
    state = state.after_deal([BockTrigger.RE, BockTrigger.KONTRA_WON])
    assert state.german == "Bock (noch 8 Spiele)" and state.must_play_on
    concurrent = BockState.start(3, ISKO.with_(bock=True, bock_rules=BockRules(stacking=BockStacking.CONCURRENT)))
    concurrent = concurrent.after_deal([BockTrigger.RE, BockTrigger.RE])
    assert concurrent.german == "Bock ×4 (noch 3 Spiele)"
    ramsch = BockState.start(3, ISKO.with_(bock=True, bock_rules=BockRules(ramsch_round_every=1)))
    ramsch = ramsch.after_deal([BockTrigger.RE]).after_deal().after_deal().after_deal().after_deal()
    assert ramsch.german == "Ramschrunde (noch 2 Spiele)"
    relaxed = BockState.start(3, ISKO.with_(bock=True, bock_rules=BockRules(finish_open_rounds=False)))
    assert not relaxed.after_deal([BockTrigger.RE]).must_play_on


def test_bock_state_refuses_a_table_size() -> None:
    with pytest.raises(VariantError, match="3, 4 or 5 players"):
        BockState.start(2, KNEIPE)


GAME_TRIGGERS = (BockTrigger.SIXTY_SIXTY, BockTrigger.RE, BockTrigger.KONTRA_WON)
triggers_per_deal = st.lists(st.lists(st.sampled_from(GAME_TRIGGERS), max_size=3), max_size=20)


@given(triggers_per_deal, st.sampled_from([3, 4, 5]), st.sampled_from(BockStacking), st.integers(1, 3))
def test_every_triggered_round_is_played_in_full(deals: list[list[BockTrigger]], players: int,
                                                 stacking: BockStacking, per_trigger: int) -> None:
    """Each trigger brings exactly rounds x players Bock deals: with rounds one after another,
    as many deals at x2; at the same time, as many doublings summed over the deals."""
    profile = ISKO.with_(bock=True, bock_rules=BockRules(stacking=stacking, rounds_per_trigger=per_trigger))
    state = BockState.start(players, profile)
    doublings = 0
    for fired in deals + [[]] * (players * per_trigger * 60 + 1):
        m = state.multiplier
        assert m >= 1 and m & (m - 1) == 0  # a power of two
        if stacking is BockStacking.SEQUENTIAL:
            assert m in (1, 2)
        doublings += m.bit_length() - 1
        state = state.after_deal(fired)
    assert state.bock_deals_left == 0 and state.multiplier == 1
    assert doublings == sum(map(len, deals)) * per_trigger * players
    assert state.completed == sum(map(len, deals)) * per_trigger


@given(triggers_per_deal, st.sampled_from([3, 4]))
def test_without_bock_nothing_is_ever_doubled(deals: list[list[BockTrigger]], players: int) -> None:
    state = BockState.start(players, ISKO)
    for fired in deals:
        assert state.multiplier == 1 and not state.is_ramsch
        state = state.after_deal(fired)
    assert state.rounds == ()


# --------------------------------------------------------------------------- Schenken


@cases("schenken.json")
def test_schenken_cases(case: dict[str, Any]) -> None:
    profile = profile_of(case["profile"])
    m = kontra_multiplier(case.get("kontra", False), False, profile)
    args = (declaration_of(case), case["bid"], Schenken(case["outcome"]), play_of(case))
    kwargs: dict[str, Any] = {"defender_points": case.get("defender_points", 0),
                              "defender_tricks": case.get("defender_tricks", 0), "multiplier": m, "profile": profile}
    if "error" in case:
        with pytest.raises(VariantError, match=case["error"]):
            score_schenken(*args, **kwargs)
        return
    r = score_schenken(*args, **kwargs)
    assert (r.won, r.value, r.score, list(r.levels)) == (case["won"], case["value"], case["score"], case["levels"])


@cases("schenken.json", "automatic")
def test_automatic_gift_cases(case: dict[str, Any]) -> None:
    profile = KNEIPE.with_(schenken_rules=SchenkenRules(automatic=True))
    decl = declaration_of(case)
    gift = is_automatic_gift(decl, case["bid"], kontra=case.get("kontra", False), spitze=case.get("spitze", 0), profile=profile)
    assert gift is case["gift"]
    assert not is_automatic_gift(decl, case["bid"], profile=KNEIPE)  # the option is off by default


def test_a_gift_is_a_concession_by_the_defenders() -> None:
    r = score_schenken(Declaration.make(GameType.CLUBS), 18, Schenken.GIFT, Play(0, 0, 2), profile=KNEIPE)
    assert r.ended_by is EndedBy.DEFENDERS_GAVE_UP
    assert r.describe_de() == "Kreuz mit 2, Spiel 3 = 36, gewonnen +36"


def test_played_on_schneider_reads_as_announced() -> None:
    r = score_schenken(Declaration.make(GameType.CLUBS), 18, Schenken.PLAY_ON, Play(95, 8, 2), profile=KNEIPE)
    assert r.describe_de() == "Kreuz mit 2, Spiel 3, Schneider 4, Schneider angesagt 5 = 60, gewonnen +60"


def test_schenken_refusals() -> None:
    null = Declaration.make(GameType.NULL)
    with pytest.raises(VariantError, match="only be gifted"):
        score_schenken(null, 23, Schenken.PLAY_ON, Play(0, 0, 0), profile=KNEIPE)
    with pytest.raises(VariantError, match="cannot give Schneider geschenkt"):
        score_schenken(Declaration.make(GameType.CLUBS), 18, Schenken.GIFT_SCHNEIDER, Play(40, 3, 2),
                       defender_points=35, defender_tricks=3, profile=KNEIPE)


def test_the_pre_1999_profile_with_schenken_scores_a_lost_hand_single() -> None:
    profile = find_profile("pre1999").with_(schenken=True)
    decl = Declaration.make(GameType.SPADES, hand=True)
    r = score_schenken(decl, 18, Schenken.PLAY_ON, Play(80, 7, 1), profile=profile)
    assert (r.won, r.value, r.score) == (False, 55, -55)


@given(st.sampled_from([GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS, GameType.GRAND]),
       st.integers(1, 4), st.booleans())
def test_a_gift_is_worth_the_simple_win_of_the_same_game(game: GameType, mit: int, hand: bool) -> None:
    """001: the gift counts 'so, als ob er das Spiel gewonnen hätte (d. h. mit 61-89 Augen)'."""
    decl = Declaration.make(game, hand=hand)
    played = score_game(decl, 18, Play(75, 6, mit))
    gift = score_schenken(decl, 18, Schenken.GIFT, Play(0, 0, mit), profile=KNEIPE)
    assert (gift.won, gift.value, gift.score, gift.levels) == (True, played.value, played.score, played.levels)


# --------------------------------------------------------------------------- Spitze


@cases("spitze.json", "cards")
def test_spitze_card_cases(case: dict[str, Any]) -> None:
    assert spitze_cards(GameType.parse(case["game"]), case["count"]) == parse_cards(case["cards"])


@cases("spitze.json")
def test_spitze_cases(case: dict[str, Any]) -> None:
    profile = profile_of(case["profile"])
    args = (declaration_of(case), case["bid"], play_of(case), case["count"], case["made"])
    if "error" in case:
        with pytest.raises(VariantError, match=case["error"]):
            score_spitze(*args, profile=profile)
        return
    r = score_spitze(*args, profile=profile)
    assert (r.won, r.value, r.score) == (case["won"], case["value"], case["score"])
    if "overbid" in case:
        assert r.overbid is case["overbid"]


def test_spitze_refusals() -> None:
    with pytest.raises(VariantError, match="no trumps"):
        spitze_cards(GameType.NULL)
    with pytest.raises(VariantError, match="1 to 4"):
        spitze_cards(GameType.GRAND, 5)
    profile = KNEIPE.with_(spitze=True)
    with pytest.raises(VariantError, match="Null has no trumps"):
        score_spitze(Declaration.make(GameType.NULL), 23, Play(0, 0, 0), 1, True, profile=profile)
    with pytest.raises(VariantError, match="does not hold"):
        check_spitze(Declaration.make(GameType.GRAND), 1, parse_cards("CJ SJ"), profile)


# A Herz game by Vorhand holding ten of the eleven trumps (the Herz Dame is with Mittelhand);
# he leads a trump every trick and takes them all. Skat: C7 D7.
_DECLARER = "CJ SJ HJ DJ HA HT HK H9 H8 H7"
_SKAT = "C7 D7"


def _herz_game(order: str) -> Any:
    leads = parse_cards(order)
    others = [c for c in DECK if c not in parse_cards(_DECLARER) + parse_cards(_SKAT)]
    middle = [Card.parse("HQ")] + [c for c in others if c != Card.parse("HQ")][:9]
    rear = [c for c in others if c not in middle]
    tricks = [(lead, middle[i], rear[i]) for i, lead in enumerate(leads)]
    return play_game(GameType.HEARTS, 0, parse_cards(_SKAT), tricks)


def test_spitze_made_from_the_cards() -> None:
    made = _herz_game("CJ SJ HJ DJ HA HT HK H9 H8 H7")
    assert made.violation is None and made.declarer_tricks == 10
    assert spitze_made(made, 1) and spitze_made(made, 2) and spitze_made(made, 3)
    check_spitze(Declaration.make(GameType.HEARTS), 3, parse_cards(_DECLARER),
                 KNEIPE.with_(spitze=True, spitze_rules=SpitzeRules(max_cards=3)))
    # The 7 played early: the last trick is not taken with the lowest trump.
    early = _herz_game("H7 CJ SJ HJ DJ HA HT HK H9 H8")
    assert early.violation is None and not spitze_made(early, 1)
    # 9-8-7 at the end but the 7 not last: 001's Spitze takes the last trick with the 7.
    swapped = _herz_game("CJ SJ HJ DJ HA HT HK H9 H7 H8")
    assert spitze_made(swapped, 2) is False and spitze_made(swapped, 3) is False


@given(st.integers(0, 10_000), st.sampled_from([GameType.HEARTS, GameType.GRAND]), st.integers(0, 2))
def test_spitze_made_means_the_lowest_trump_took_the_last_trick(seed: int, game: GameType, declarer: int) -> None:
    rng = random.Random(seed)
    hands, skat = deal(rng)
    played = play_game(game, declarer, skat, play_random(rng, game, hands))
    last = played.tricks[-1]
    lowest = spitze_cards(game)[0]
    assert spitze_made(played) is (last.winner == declarer and last.card_of(declarer) == lowest)


@given(st.sampled_from([GameType.CLUBS, GameType.HEARTS, GameType.GRAND]), st.integers(1, 3), st.integers(1, 4),
       st.sampled_from([(61, 6), (75, 7), (90, 8), (104, 9), (120, 10)]), st.booleans())
def test_spitze_adds_its_levels_won_or_lost(game: GameType, mit: int, count: int, counts: tuple[int, int],
                                            made: bool) -> None:
    profile = KNEIPE.with_(spitze=True, spitze_rules=SpitzeRules(max_cards=4))
    decl = Declaration.make(game)
    points, tricks = counts
    plain = score_game(decl, 18, Play(points, tricks, mit))
    r = score_spitze(decl, 18, Play(points, tricks, mit), count, made, profile=profile)
    assert r.factor == plain.factor + count
    assert r.value == plain.base_value * r.factor
    assert r.won is made
    assert r.score == (r.value if made else -2 * r.value)


# --------------------------------------------------------------------------- pre-1999 profile


@cases("pre1999.json")
def test_pre1999_cases(case: dict[str, Any]) -> None:
    r = score_game(declaration_of(case), case["bid"], play_of(case), profile=profile_of(case["profile"]))
    assert (r.won, r.value, r.score) == (case["won"], case["value"], case["score"])


def test_variant_errors_are_skat_value_errors() -> None:
    assert issubclass(VariantError, SkatError) and issubclass(VariantError, ValueError)
