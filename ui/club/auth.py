"""The organiser's password: scrypt hash in the store's ``organiser`` document, a signed cookie.

Read-only pages (Abend, Liste, Wertung, Saison) are open on the LAN; organiser actions need
the password. The password is set (and reset) only on the server's console
(:mod:`ui.commands.organiser_password`); while none is set, the actions stay locked for everyone.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from typing import Any

COOKIE = "skattisch_organiser"
SESSION_SECONDS = 12 * 3600


def _hash(password: str, salt: str) -> str:
    return hashlib.scrypt(password.encode("utf-8"), salt=bytes.fromhex(salt), n=2**14, r=8, p=1).hex()


def new_secret(password: str) -> dict[str, str]:
    """The document to store for ``password`` (a fresh salt and cookie key)."""
    salt = secrets.token_hex(16)
    return {"salt": salt, "hash": _hash(password, salt), "key": secrets.token_hex(32)}


def check_password(doc: dict[str, Any] | None, password: str) -> bool:
    if not doc:
        return False
    return hmac.compare_digest(_hash(password, doc["salt"]), doc["hash"])


def session_token(doc: dict[str, Any], *, now: float | None = None) -> str:
    expires = int((now if now is not None else time.time()) + SESSION_SECONDS)
    mac = hmac.new(bytes.fromhex(doc["key"]), str(expires).encode(), hashlib.sha256).hexdigest()
    return f"{expires}.{mac}"


def valid_token(doc: dict[str, Any] | None, token: str | None, *, now: float | None = None) -> bool:
    if not doc or not token or "." not in token:
        return False
    expires, mac = token.split(".", 1)
    if not expires.isdigit() or int(expires) < (now if now is not None else time.time()):
        return False
    good = hmac.new(bytes.fromhex(doc["key"]), expires.encode(), hashlib.sha256).hexdigest()
    return hmac.compare_digest(good, mac)
