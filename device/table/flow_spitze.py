"""Spitze at the table (001 "Spitze", where the profile plays it), as taps.

"Dies ist die Ansage, dass der Alleinspieler den letzten Stich mit dem niedrigsten Trumpf
gewinnen wird ... Sie können mehr als eine einzige Spitze ansagen": the declarer announces it
with his declaration, before the first card (:class:`AnnounceSpitze`, the count of lowest
trumps). Played from scanned cards, the record's tricks decide whether it was made
(device.variants.spitze_made); for a result typed in the table asks (:class:`EnterSpitzeMade`).
While the cards are scanned the table shows as soon as they prove it lost: a Spitze card
played by a defender or before its trick, or one of the last tricks taken by a defender.
Spitze and Schenken do not meet: a game with a Spitze is played (device.record refuses both).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from device.table.commands import AnnounceSpitze, EnterSpitzeMade
from device.table.decision import Decision, Refuse, _deal
from device.table.events import SpitzeAnnounced, SpitzeMadeEntered
from device.table.state import Deal, Phase, TableState
from device.tricks import trump_order
from device.variants import spitze_cards

__all__ = ["SPITZE_HANDLERS", "spitze_choices", "spitze_lost"]

#: The counts the screen offers (001's example is three: "die letzten 3 Stiche mit der Trumpf 9-8-7").
SHOWN_COUNTS = 4


def spitze_choices(state: TableState, deal: Deal) -> tuple[int, ...]:
    """The counts the declarer may announce now (none when the table takes no Spitze now)."""
    try:
        _may_announce(state, deal)
    except Refuse:
        return ()
    assert deal.game is not None
    most = min(state.profile.spitze_rules.max_cards, len(trump_order(deal.game)), SHOWN_COUNTS)
    return tuple(n for n in range(1, most + 1) if not _in_skat(deal, n))


def _may_announce(state: TableState, deal: Deal) -> None:
    if not state.profile.spitze:
        raise Refuse("not_in_profile", "no_spitze_in_profile", profile=state.profile.name)
    assert deal.game is not None
    if deal.game.is_null:
        raise Refuse("not_allowed", "spitze_null")
    if deal.spitze:
        raise Refuse("not_allowed", "spitze_said", count=deal.spitze)
    if deal.cards_played or deal.schenken is not None or deal.gift_offers:
        raise Refuse("too_late", "spitze_too_late")


def _in_skat(deal: Deal, count: int) -> bool:
    assert deal.game is not None
    return any(card in deal.skat for card in spitze_cards(deal.game, count))


def _announce(state: TableState, command: AnnounceSpitze) -> Decision:
    deal = _deal(state, Phase.PLAYING)
    _may_announce(state, deal)
    assert deal.game is not None
    count = command.count
    most = min(state.profile.spitze_rules.max_cards, len(trump_order(deal.game)))
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= most:
        raise Refuse("bad_spitze", "bad_spitze_count", count=count, most=most)
    if _in_skat(deal, count):
        card = next(c for c in spitze_cards(deal.game, count) if c in deal.skat)
        raise Refuse("bad_spitze", "spitze_card_in_skat", card=card.code)
    return Decision(events=(SpitzeAnnounced(count),))


def _made(state: TableState, command: EnterSpitzeMade) -> Decision:
    deal = _deal(state, Phase.RESULT)
    if not deal.spitze or deal.entered is None:
        raise Refuse("not_now", "spitze_from_cards")
    if not isinstance(command.made, bool):
        raise Refuse("bad_result", "bad_spitze_made", made=command.made)
    return Decision(events=(SpitzeMadeEntered(command.made),))


def spitze_lost(deal: Deal) -> bool:
    """Whether the cards scanned so far prove the Spitze lost: a Spitze card played by a
    defender, or by the declarer before the last ``count`` tricks or out of its order (the
    lowest takes the last trick), or one of the last ``count`` tricks taken by a defender."""
    if not deal.spitze or deal.game is None:
        return False
    cards = spitze_cards(deal.game, deal.spitze)
    first = 10 - deal.spitze
    leaders = deal.trick_leaders()
    for card, (trick, position) in deal.who_played().items():
        if card not in cards:
            continue
        if position != deal.declarer or trick < first or (card == cards[0] and trick != 9):
            return True
    return any(winner != deal.declarer for winner in leaders[1 + first:])


SPITZE_HANDLERS: dict[type, Callable[[TableState, Any], Decision]] = {
    AnnounceSpitze: _announce, EnterSpitzeMade: _made,
}
