"""The App's counters keep the latest commands and refusals, not an evening's: they grew with
every card (about 40 commands a game played out) and were never given back."""

from __future__ import annotations

from ui.table.counters import COUNTERS_KEPT, Counters, Sent


def test_an_evening_of_commands_keeps_only_the_latest_and_counts_them_all() -> None:
    counters = Counters()
    for n in range(10 * COUNTERS_KEPT):
        counters.add_sent(Sent("reader", n))
        counters.add_refusal(f"refusal {n}")
    assert len(counters.sent) == len(counters.refusals) == COUNTERS_KEPT
    assert counters.sent_counted == counters.refusals_counted == 10 * COUNTERS_KEPT
    assert counters.sent[-1].command == 10 * COUNTERS_KEPT - 1


def test_a_steps_commands_are_those_sent_since_its_mark() -> None:
    counters = Counters()
    counters.add_sent(Sent("screen", "before"))
    mark, refused = counters.sent_counted, counters.refusals_counted
    assert counters.sent_since(mark) == [] and counters.refusals_since(refused) == []
    counters.add_sent(Sent("screen", "Bid(1, 18)"))
    counters.add_sent(Sent("reader", "CardScanned(SA)"))
    counters.add_refusal("not_your_turn")
    assert [s.command for s in counters.sent_since(mark)] == ["Bid(1, 18)", "CardScanned(SA)"]
    assert counters.refusals_since(refused) == ["not_your_turn"]
