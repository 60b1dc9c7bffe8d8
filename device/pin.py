"""The settings PIN: stored only as a salted hash, and guessed only slowly.

The config keeps ``table.club_pin_hash``, never the PIN itself: an scrypt hash with a random
salt, written as ``scrypt$N$r$p$<salt hex>$<hash hex>``. :class:`PinGuard` limits the tries:
three wrong PINs in a row are free, then each further try waits longer (30 s, 60 s, 120 s …,
at most 15 minutes); a right PIN starts the count afresh. The clock is handed in, so tests
never sleep.

>>> stored = hash_pin("2468", salt=bytes(16))
>>> stored.startswith("scrypt$16384$8$1$")
True
>>> verify_pin("2468", stored), verify_pin("2469", stored)
(True, False)
>>> now = [0.0]
>>> guard = PinGuard(stored, clock=lambda: now[0])
>>> [guard.attempt("0000").kind.value for _ in range(3)]
['wrong', 'wrong', 'wait']
>>> guard.attempt("2468")  # still waiting: not even the right PIN is tried
PinAttempt(kind=<PinResult.WAIT: 'wait'>, wait_seconds=30.0)
>>> now[0] = 30.0
>>> guard.attempt("2468").kind
<PinResult.OK: 'ok'>
"""

from __future__ import annotations

import enum
import hashlib
import hmac
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from device.errors import SkatError

SCHEME = "scrypt"
# scrypt's cost: 16 MiB and about 0.1 s on a Raspberry Pi 4 per try
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
SALT_BYTES = 16
HASH_BYTES = 32
PIN_LENGTHS = range(4, 9)

FREE_ATTEMPTS = 3  # wrong PINs in a row before the first wait
FIRST_WAIT_SECONDS = 30.0  # then doubled with every further wrong PIN
LONGEST_WAIT_SECONDS = 15 * 60.0


class PinError(SkatError, ValueError):
    """A PIN (or a stored PIN hash) that cannot be used; the message says why."""


def check_pin_format(pin: str) -> str:
    """``pin`` if it is 4 to 8 digits, else :class:`PinError`.

    >>> check_pin_format("0042")
    '0042'
    >>> check_pin_format("12a4")
    Traceback (most recent call last):
    ...
    device.pin.PinError: a PIN is 4 to 8 digits, not '12a4'
    """
    if not (pin.isascii() and pin.isdigit() and len(pin) in PIN_LENGTHS):
        raise PinError(f"a PIN is 4 to 8 digits, not {pin!r}")
    return pin


def new_pin(length: int = 6) -> str:
    """A random PIN of ``length`` digits (for an installer that asks nobody)."""
    check_pin_format("0" * length)
    return "".join(secrets.choice("0123456789") for _ in range(length))


def hash_pin(pin: str, *, salt: bytes | None = None) -> str:
    """The salted hash of ``pin`` as the config stores it."""
    check_pin_format(pin)
    salt = secrets.token_bytes(SALT_BYTES) if salt is None else salt
    digest = _scrypt(pin, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P)
    return f"{SCHEME}${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${salt.hex()}${digest.hex()}"


def check_pin_hash(stored: str) -> str:
    """``stored`` if it is a PIN hash this module wrote, else :class:`PinError`.

    >>> check_pin_hash("2468")
    Traceback (most recent call last):
    ...
    device.pin.PinError: not a PIN hash (scrypt$N$r$p$salt$hash): set the PIN with 'sudo skattisch pin'
    """
    _parse(stored)
    return stored


def verify_pin(pin: str, stored: str) -> bool:
    """Whether ``pin`` is the PIN whose hash is ``stored`` (in constant time)."""
    n, r, p, salt, digest = _parse(stored)
    return hmac.compare_digest(_scrypt(pin, salt, n, r, p), digest)


def _scrypt(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(pin.encode(), salt=salt, n=n, r=r, p=p, maxmem=256 * 1024 * 1024, dklen=HASH_BYTES)


def _parse(stored: str) -> tuple[int, int, int, bytes, bytes]:
    parts = stored.split("$")
    try:
        if len(parts) != 6 or parts[0] != SCHEME:
            raise ValueError(stored)
        n, r, p = (int(part) for part in parts[1:4])
        salt, digest = bytes.fromhex(parts[4]), bytes.fromhex(parts[5])
        if n < 2 or n & (n - 1) or r < 1 or p < 1 or len(salt) < 8 or len(digest) != HASH_BYTES:
            raise ValueError(stored)
    except ValueError:
        raise PinError("not a PIN hash (scrypt$N$r$p$salt$hash): set the PIN with 'sudo skattisch pin'") from None
    return n, r, p, salt, digest


class PinResult(enum.Enum):
    OK = "ok"
    WRONG = "wrong"  # wrong, and the next try may follow at once
    WAIT = "wait"  # wrong (or too early): the next try only after ``wait_seconds``


@dataclass(frozen=True, slots=True)
class PinAttempt:
    kind: PinResult
    wait_seconds: float = 0.0


class PinGuard:
    """Checks PINs against ``stored`` (a hash; "" means no PIN: everything opens), with a
    growing wait after :data:`FREE_ATTEMPTS` wrong ones in a row."""

    def __init__(self, stored: str, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._stored = check_pin_hash(stored) if stored else ""
        self._clock = clock
        self._wrong = 0
        self._not_before = float("-inf")

    @property
    def locked(self) -> bool:
        """Whether a PIN is set at all."""
        return bool(self._stored)

    def wait_seconds(self) -> float:
        """How long until the next try is taken (0: now)."""
        return max(0.0, self._not_before - self._clock())

    def attempt(self, pin: str) -> PinAttempt:
        if not self._stored:
            return PinAttempt(PinResult.OK)
        waiting = self.wait_seconds()
        if waiting > 0:
            return PinAttempt(PinResult.WAIT, waiting)
        if verify_pin(pin, self._stored):
            self._wrong = 0
            return PinAttempt(PinResult.OK)
        self._wrong += 1
        if self._wrong < FREE_ATTEMPTS:
            return PinAttempt(PinResult.WRONG)
        delay = min(LONGEST_WAIT_SECONDS, FIRST_WAIT_SECONDS * 2 ** (self._wrong - FREE_ATTEMPTS))
        self._not_before = self._clock() + delay
        return PinAttempt(PinResult.WAIT, delay)
