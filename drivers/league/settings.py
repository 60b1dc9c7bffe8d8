"""The league server's settings in one file: ``/etc/skattisch/league.env`` (systemd's
``EnvironmentFile`` format: ``KEY=value`` lines, ``#`` comments, a value in quotes may hold blanks).

The service gets them as its environment (``EnvironmentFile=`` in skattisch-league.service),
the commands typed on the server's console (``skattisch league code|clubs|password``) read the
same file, so the database is named once. What the command line gives wins; then the
environment; then the file.

    SKATTISCH_LEAGUE_DB      the database (a postgresql:// URL or a SQLite file)
    SKATTISCH_LEAGUE_NAME    the league's name, as the clubs and the pages show it
    SKATTISCH_LEAGUE_PORT    the port on 127.0.0.1 the reverse proxy forwards to (8090)
    SKATTISCH_BACKUP_DIR     where the backup timer writes (skattisch-league-backup.service)

``SKATTISCH_LEAGUE_ENV`` names another file (a test's).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

__all__ = ["ENV_FILE", "SettingsError", "league_settings", "read_env_file"]

ENV_FILE = Path("/etc/skattisch/league.env")
KEYS = ("SKATTISCH_LEAGUE_DB", "SKATTISCH_LEAGUE_NAME", "SKATTISCH_LEAGUE_PORT", "SKATTISCH_BACKUP_DIR")


class SettingsError(ValueError):
    """The settings file cannot be read or a line of it is not ``KEY=value``."""


def read_env_file(path: Path) -> dict[str, str]:
    """``KEY=value`` lines as systemd reads them (quotes around a value dropped).

    >>> import tempfile; f = Path(tempfile.mkdtemp()) / "league.env"
    >>> _ = f.write_text('# the league\\nSKATTISCH_LEAGUE_NAME="Bezirksliga Nord"\\nSKATTISCH_LEAGUE_PORT=8090\\n')
    >>> read_env_file(f)
    {'SKATTISCH_LEAGUE_NAME': 'Bezirksliga Nord', 'SKATTISCH_LEAGUE_PORT': '8090'}
    """
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise SettingsError(f"{path} cannot be read: {exc.strerror or exc}") from None
    out: dict[str, str] = {}
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text or text.startswith(("#", ";")):
            continue
        key, equals, value = text.partition("=")
        key, value = key.strip(), value.strip()
        if not equals or not key.replace("_", "").isalnum():
            raise SettingsError(f"{path}, line {number}: not KEY=value: {text[:60]!r}")
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        out[key] = value
    return out


def league_settings(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The league's settings: each from the environment, else from the settings file (if there is one)."""
    environ = os.environ if environ is None else environ
    path = Path(environ.get("SKATTISCH_LEAGUE_ENV") or ENV_FILE)
    from_file = read_env_file(path) if path.is_file() else {}
    return {key: environ.get(key) or from_file.get(key, "") for key in KEYS if environ.get(key) or from_file.get(key)}
