"""``skattisch club password`` and ``skattisch league password``: the organiser's password, set on
the server's own console.

The web pages never set a first password: whatever sits in front of the server (a reverse
proxy, a tunnel, a port forward), a request cannot prove it comes from the machine itself. So
the password is set, or reset when forgotten, by whoever may run the server's command on it:
on a terminal it is asked twice (hidden); otherwise the first line of stdin is the password
(``echo … | skattisch league password`` in a script). A new password ends every session.
"""

from __future__ import annotations

import getpass
import sys
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from drivers.club.store import CollectorStore

MIN_LENGTH = 6


class PasswordError(ValueError):
    """The password given is not taken (too short, the two entries differ, none given)."""


def check_new_password(password: str, repeated: str | None = None) -> str:
    """``password`` if it is long enough (and equal to ``repeated`` when given).

    >>> check_new_password("geheim12", "geheim12")
    'geheim12'
    >>> check_new_password("kurz")
    Traceback (most recent call last):
    ...
    ui.commands.organiser_password.PasswordError: the password needs at least 6 characters
    """
    if len(password) < MIN_LENGTH:
        raise PasswordError(f"the password needs at least {MIN_LENGTH} characters")
    if repeated is not None and repeated != password:
        raise PasswordError("the two entries differ")
    return password


def read_new_password(stdin: TextIO, *, tty: bool) -> str:
    """Ask twice on a terminal; else the first line of ``stdin`` (its line end dropped)."""
    if tty:
        return check_new_password(getpass.getpass("Neues Passwort der Spielleitung / organiser's new password: "),
                                  getpass.getpass("Wiederholen / repeat: "))
    line = stdin.readline()
    if not line:
        raise PasswordError("no password on stdin (give it as the first line)")
    return check_new_password(line.rstrip("\r\n"))


def set_organiser_password(store: CollectorStore, command: str, stdin: TextIO | None = None) -> int:
    """Set the organiser's password in ``store`` (the ``organiser`` document); the exit status."""
    from ui.club import auth

    stdin = stdin if stdin is not None else sys.stdin
    try:
        password = read_new_password(stdin, tty=stdin.isatty())
    except PasswordError as exc:
        print(f"{command}: {exc}; nothing changed", file=sys.stderr)
        return 2
    except (EOFError, KeyboardInterrupt):
        print(f"\n{command}: nothing changed", file=sys.stderr)
        return 130
    was_set = store.document("organiser") is not None
    store.set_document("organiser", auth.new_secret(password))
    print(f"{command}: das Passwort der Spielleitung ist {'neu gesetzt' if was_set else 'festgelegt'}"
          f"{' (alle Anmeldungen sind beendet)' if was_set else ''} / the organiser's password is set")
    return 0
