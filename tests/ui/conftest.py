"""UI tests run the real table in a real Kivy window on a private Xvfb display."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.ui.harness import start_xvfb


@pytest.fixture(scope="session")
def display() -> Iterator[str]:
    """An X display of our own (Xvfb, 1280×720×24), so tests never draw on a desktop."""
    started = start_xvfb()
    if started is None:
        pytest.skip("Xvfb is not installed (./dev.sh test installs it)")
    process, name = started
    try:
        yield name
    finally:
        process.terminate()
        process.wait(timeout=10)
