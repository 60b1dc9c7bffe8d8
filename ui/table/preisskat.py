"""A Preisskat's money at the table's end of the series, in words: each player's lost games,
Abreizgeld and eingepasst fee by the terms the laptop sent with its sync answer
(:class:`device.club.money.TableTerms`). Without terms the table shows no amount: the lost
games stand in the ranking, and what they cost is the laptop's Kasse to say."""

from __future__ import annotations

from typing import Any

from ui.i18n import money, tr


def abreiz_lines(end: Any) -> list[str]:
    """A Preisskat's money of this series (the laptop sent the evening's terms): a head with
    the tiers, then each player's lost games, Abreizgeld and eingepasst fee. Without terms
    nothing: the lost games stand in the ranking, the amounts are the laptop's to say.

    >>> from device.club.money import Abreizgeld, SeriesMoney, TableTerms
    >>> from types import SimpleNamespace
    >>> end = SimpleNamespace(money_terms=TableTerms(Abreizgeld(), 50), series_money=(
    ...     SeriesMoney("Anna", 4, 250, 1, 50), SeriesMoney("Bernd", 0, 0, 0, 0)))
    >>> abreiz_lines(end)  # doctest: +NORMALIZE_WHITESPACE
    ['Abreizgeld dieser Serie: 0,50\xa0€ je verl. Spiel, ab dem 4. 1,00\xa0€; eingepasst 0,50\xa0€ je Spiel',
     'Anna: 4 verl. 2,50\xa0€ · 1×\\xa0eingep.\\xa00,50\xa0€', 'Bernd: 0 verl. 0,00\xa0€']
    """
    terms = getattr(end, "money_terms", None)
    if terms is None:
        return []
    if terms.abreiz.per_evening:
        return [tr("abreiz_evening")] + [tr("abreiz_lost_only", name=m.player, lost=m.lost) for m in end.series_money]

    def amount(cents: int) -> str:
        return money(cents).replace(" €", "\u00a0€")  # never breaks from its € sign

    tiers = terms.abreiz.tiers
    words = [tr("abreiz_tier_first", amount=amount(tiers[0].cents))] if tiers else []
    words += [tr("abreiz_tier", nth=t.first_lost, amount=amount(t.cents)) for t in tiers[1:]]
    fee = tr("abreiz_fee", amount=amount(terms.passed_in_fee)) if terms.passed_in_fee else ""
    lines = [tr("abreiz_head", tiers=", ".join(words)) + fee]
    for m in end.series_money:
        passed = tr("abreiz_passed", count=m.passed_in, amount=amount(m.passed_fee)) if m.passed_fee else ""
        lines.append(tr("abreiz_player", name=m.player, lost=m.lost, amount=amount(m.abreiz or 0)) + passed)
    return lines
