"""Schenken at the table (001 "Schenken"; SkWO 9.5 forbids it under the ISkO), as taps.

"Wenn die Gegner zu Beginn des Spiels feststellen, dass sie den Alleinspieler nicht schlagen
können, können sie aufgeben ("schenken")": one defender says "schenken" (:class:`OfferGift`),
the other agrees (his own "schenken" tap) or not (:class:`DeclineGift`: "wird das Spiel
fortgesetzt, als ob nichts passiert wäre"). The declarer then accepts (:class:`AcceptGift`:
the game ends, won simple) or plays on (:class:`PlayOn`: he must make Schneider). After playing
on the defenders may give again: "Schneider geschenkt", or he plays on for Schwarz.

The first offer comes before the first card ("zu Beginn des Spiels"); the second at any time
while the game is played on. A Null game can only be given. A game the declarer could not
accept (the gift is worth less than his bid: he must play on) is refused at the accept, naming
why. A card scanned while an offer waits for its answer is refused until it is answered.

With the club option ``auto_gift`` (001: "Einige Spieler handhaben dies folgendermaßen") a Karo
at 18 and a Karo or Herz at 20 are given without asking, unless Kontra was said or the declarer
announced more (:class:`AutomaticGift`, tapped before the first card: the table cannot know
that nobody will say Kontra).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from device.errors import RecordError
from device.record import score_record
from device.table.commands import AcceptGift, AutomaticGift, DeclineGift, OfferGift, PlayOn
from device.table.decision import Decision, Refuse, _deal, _player, _position
from device.table.events import SchenkenSaid
from device.table.outcome import game_record
from device.table.state import Deal, Phase, TableState
from device.variants import is_automatic_gift

__all__ = ["GIFT_HANDLERS", "gift_allowed", "gift_pending"]

GiftCommand = OfferGift | DeclineGift | AcceptGift | PlayOn | AutomaticGift


def gift_pending(deal: Deal) -> bool:
    """An offer waits for its answer (the other defender's, or the declarer's)."""
    return bool(deal.gift_offers)


def _start(state: TableState, command: OfferGift | DeclineGift | AcceptGift | PlayOn) -> tuple[Deal, int]:
    deal = _deal(state, Phase.PLAYING)
    if not state.profile.schenken:
        raise Refuse("not_in_profile", "no_schenken_in_profile", profile=state.profile.name)
    position = _position(command.position)
    if deal.query is not None:
        raise Refuse("question_pending", "question_pending")
    return deal, position


def _offer(state: TableState, command: OfferGift) -> Decision:
    deal, position = _start(state, command)
    who = {"position": position, "player": _player(state, position)}
    if position == deal.declarer:
        raise Refuse("not_allowed", "gift_by_declarer", **who)
    if position in deal.gift_offers:
        raise Refuse("not_allowed", "gift_already_offered", **who)
    if len(deal.gift_offers) == 2:
        raise Refuse("not_allowed", "gift_waits_for_declarer")
    if deal.schenken == "weiterspielen_schwarz":
        raise Refuse("not_allowed", "gift_after_schwarz")
    if deal.spitze:
        raise Refuse("not_allowed", "gift_with_spitze")
    if deal.schenken is None and deal.cards_played:
        raise Refuse("too_late", "gift_too_late", **who)
    return Decision(events=(SchenkenSaid(position, "offer"),))


def _decline(state: TableState, command: DeclineGift) -> Decision:
    deal, position = _start(state, command)
    who = {"position": position, "player": _player(state, position)}
    if len(deal.gift_offers) != 1 or position == deal.declarer or position in deal.gift_offers:
        raise Refuse("not_allowed", "gift_nothing_to_decline", **who)
    return Decision(events=(SchenkenSaid(position, "decline"),))


def _answer(state: TableState, command: AcceptGift | PlayOn) -> tuple[Deal, int]:
    deal, position = _start(state, command)
    who = {"position": position, "player": _player(state, position)}
    if position != deal.declarer:
        raise Refuse("not_allowed", "gift_answer_by_declarer", **who)
    if len(deal.gift_offers) != 2:
        raise Refuse("not_allowed", "gift_not_offered")
    return deal, position


def _accept(state: TableState, command: AcceptGift) -> Decision:
    deal, position = _answer(state, command)
    accepted = SchenkenSaid(position, "accept")
    record = game_record(deal._schenken_step(accepted))  # the deal as the accept leaves it
    assert record is not None and deal.game is not None
    if deal.game.is_null or "matadors" in record:  # else the result asks for them and says so
        try:
            score_record(record, profile=state.profile)
        except RecordError as exc:
            raise Refuse("bad_gift", "gift_not_acceptable", error=exc.reason, problem_german=exc.german) from None
    return Decision(events=(accepted,))


def _play_on(state: TableState, command: PlayOn) -> Decision:
    deal, position = _answer(state, command)
    assert deal.game is not None
    if deal.game.is_null:
        raise Refuse("not_allowed", "gift_null_no_play_on")
    return Decision(events=(SchenkenSaid(position, "play_on"),))


def _automatic(state: TableState, command: AutomaticGift) -> Decision:
    deal = _deal(state, Phase.PLAYING)
    profile = state.profile
    if not (profile.schenken and profile.schenken_rules.automatic):
        raise Refuse("not_in_profile", "no_automatic_gift_in_profile", profile=profile.name)
    assert deal.declaration is not None and deal.bid is not None
    if deal.cards_played or deal.gift_offers or deal.schenken is not None:
        raise Refuse("too_late", "automatic_gift_too_late")
    if not is_automatic_gift(deal.declaration, deal.bid, kontra=deal.kontra is not None, spitze=deal.spitze,
                             profile=profile):
        raise Refuse("not_allowed", "not_an_automatic_gift", bid=deal.bid)
    return Decision(events=(SchenkenSaid(deal.declarer if deal.declarer is not None else 0, "automatic"),))


def gift_allowed(state: TableState, command: GiftCommand) -> bool:
    """Whether the table would take ``command`` now (for showing its button)."""
    try:
        GIFT_HANDLERS[type(command)](state, command)
    except Refuse:
        return False
    return True


GIFT_HANDLERS: dict[type, Callable[[TableState, Any], Decision]] = {AutomaticGift: _automatic, OfferGift: _offer, DeclineGift: _decline, AcceptGift: _accept, PlayOn: _play_on}
