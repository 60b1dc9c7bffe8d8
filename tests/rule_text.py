"""The rule texts (``../shared/rules`` beside the clone): tests that quote them read them here.

They are the project's sources, not part of the repository: where a clone has none beside it
(a CI machine), the tests that read them are skipped with one line saying so; the rule cases as
data (tests/data) still run everywhere.
"""

from __future__ import annotations

from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[1] / ".." / "shared" / "rules"


def rule_text(prefix: str) -> str:
    """The text of the rule file whose name starts with ``prefix`` (e.g. ``"001_"``)."""
    found = sorted(RULES.glob(f"{prefix}*.txt"))
    if not found:
        pytest.skip(f"no rule text {prefix}*.txt in {RULES.resolve()} (the rule texts are not beside this clone)")
    return found[0].read_text(encoding="utf-8")
