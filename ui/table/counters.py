"""What the table App did, counted for scripts, tests and the benchmarks: pumps, refreshes,
events, and the latest commands sent and refusals (a script's report lists a step's)."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Sent:
    """A command that reached the service's inbox, and from where (for the script report)."""

    source: str
    command: object


COUNTERS_KEPT = 256  # the latest commands and refusals kept (a script's step sends a few; an evening thousands)


@dataclass
class Counters:
    """What the App did, for scripts, tests and the benchmark. Of the commands sent and the
    refusals, the latest :data:`COUNTERS_KEPT` are kept (``sent``, ``refusals``) besides their
    counts: a whole evening's would grow with every card."""

    pumps: int = 0
    refreshes: int = 0
    events: int = 0
    refusals_counted: int = 0
    sent_counted: int = 0
    refusals: deque[str] = field(default_factory=lambda: deque(maxlen=COUNTERS_KEPT))
    sent: deque[Sent] = field(default_factory=lambda: deque(maxlen=COUNTERS_KEPT))

    def add_sent(self, sent: Sent) -> None:
        self.sent.append(sent)
        self.sent_counted += 1

    def add_refusal(self, code: str) -> None:
        self.refusals.append(code)
        self.refusals_counted += 1

    def sent_since(self, counted: int) -> list[Sent]:
        """The commands sent since ``sent_counted`` was ``counted`` (the latest kept of them)."""
        return _latest(self.sent, self.sent_counted - counted)

    def refusals_since(self, counted: int) -> list[str]:
        """The refusals since ``refusals_counted`` was ``counted`` (the latest kept of them)."""
        return _latest(self.refusals, self.refusals_counted - counted)


def _latest(kept: deque[Any], count: int) -> list[Any]:
    """The last ``count`` items of ``kept`` (all of them if it keeps fewer).

    >>> _latest(deque([1, 2, 3]), 2), _latest(deque([1, 2, 3]), 0), _latest(deque([1, 2, 3]), 5)
    ([2, 3], [], [1, 2, 3])
    """
    return list(kept)[len(kept) - min(count, len(kept)):] if count > 0 else []
