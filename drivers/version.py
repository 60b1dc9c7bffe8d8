"""This program's version as installed: the distribution's metadata, made from pyproject.toml's
``version`` (its one source). ``skattisch --version`` says it, the table's settings show it, the
table's sync sends it, and the laptop's list of tables marks a table that runs another one."""

from __future__ import annotations

import functools

UNKNOWN = "unknown"  # run from a checkout that was never installed (pip install -e . installs it)


@functools.cache
def skattisch_version() -> str:
    """The installed distribution's version, e.g. ``"0.1.0"`` (:data:`UNKNOWN` if not installed).

    >>> skattisch_version() == skattisch_version() != ""
    True
    """
    from importlib.metadata import PackageNotFoundError, version  # here: not at every start

    try:
        return version("skattisch")
    except PackageNotFoundError:
        return UNKNOWN
