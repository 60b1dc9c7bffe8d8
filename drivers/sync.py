"""The table's sync client: sends this device's journal entries to the club laptop.

One thread (:class:`SyncClient`) reads the entries the laptop has not acknowledged, sends
them in batches (``POST /api/v1/events``, signed with the table's secret), and on each answer
stores the acknowledged seq durably and hands ``SyncAcknowledged`` to the service's inbox.
While the laptop is away it backs off (0.2 s doubling to 15 s, with jitter) and tries again;
a new event wakes it at once. Standard library only (``http.client``): the Pi needs nothing
more. The protocol is in docs/reference/sync.md.

The sync state (laptop URL, this table's secret, the last acknowledged seq) is a small JSON
document written atomically (:func:`drivers.store.atomic_write`), so a restart resumes where
the laptop stopped acknowledging instead of resending the evening.
"""

from __future__ import annotations

import http.client
import json
import logging
import random
import secrets
import ssl
import threading
import time
import urllib.parse
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from device.errors import SkatError
from device.journal import JournalEntry
from device.ports import EventStore
from device.sync import API, MAX_BATCH, PROTOCOL_VERSION, batch_body, sign_request
from device.table.commands import SyncAcknowledged, SyncStatus
from drivers.store import atomic_write
from drivers.version import skattisch_version

__all__ = [
    "EntrySource", "LaptopError", "StoreEntries", "SyncClient", "SyncState", "SyncStateFile", "entry_source",
    "pair_with_laptop", "signed_post", "table_batch_body",
]

log = logging.getLogger(__name__)

STATE_FILE = "sync.json"


class LaptopError(SkatError, OSError):
    """The laptop could not be reached, or refused a request (``code`` says why)."""

    def __init__(self, message: str, *, code: str = "unreachable", status: int = 0,
                 answer: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.status = status
        self.answer = dict(answer or {})


@dataclass(frozen=True, slots=True)
class SyncState:
    """What the table keeps about its laptop: where, its secret with it, and how far it got."""

    url: str = ""
    secret: str = ""
    laptop: str = ""  # the laptop's name, as it told us when pairing
    acked: int = 0

    @property
    def paired(self) -> bool:
        return bool(self.secret)


class SyncStateFile:
    """The sync state as one JSON document, replaced atomically (owner-only file)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def load(self) -> SyncState:
        try:
            data = json.loads(self.path.read_bytes())
        except FileNotFoundError:
            return SyncState()
        except ValueError:
            log.error("sync state %s is damaged; starting unpaired", self.path)
            return SyncState()
        known = {k: data[k] for k in ("url", "secret", "laptop", "acked") if k in data}
        return SyncState(**known)

    def save(self, state: SyncState) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(self.path, json.dumps({"v": 1, **asdict(state)}, indent=1).encode("utf-8"))


# --- where the entries come from -------------------------------------------------------------


class EntrySource(Protocol):
    def entries_after(self, seq: int, limit: int | None = None) -> list[JournalEntry]: ...


class StoreEntries:
    """This device's entries from its store (the journal's own ``entries_after``)."""

    def __init__(self, store: EventStore, device: str) -> None:
        self._store = store
        self._device = device

    def entries_after(self, seq: int, limit: int | None = None) -> list[JournalEntry]:
        return self._store.entries_after(seq, limit)


def entry_source(store: EventStore, device: str) -> EntrySource:
    return StoreEntries(store, device)


# --- HTTP -----------------------------------------------------------------------------------


def untrusted_certificate(url: str, exc: ssl.SSLCertVerificationError) -> str:
    """One line: the server at ``url`` showed a certificate this machine does not trust, and why."""
    why = exc.verify_message or exc.reason or str(exc)
    return (f"the server at {url} is not trusted: its HTTPS certificate does not verify ({why}); "
            "nothing was sent")


def _post(url: str, path: str, body: bytes, headers: Mapping[str, str], timeout: float,
          peer: str = "the laptop") -> dict[str, Any]:
    """POST ``body``; the JSON answer, or :class:`LaptopError` (unreachable or refused) in words
    naming ``peer``, who answers there ("the laptop" for a table, "the league" for a club)."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise LaptopError(f"{peer}'s address {url!r} is not an http URL", code="bad_url")
    connection_type = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    connection = connection_type(parts.hostname, parts.port, timeout=timeout)
    try:
        connection.request("POST", parts.path.rstrip("/") + path, body=body,
                           headers={"Content-Type": "application/json", "Connection": "close", **headers})
        response = connection.getresponse()
        raw = response.read()
    except ssl.SSLCertVerificationError as exc:
        raise LaptopError(untrusted_certificate(url, exc), code="bad_certificate") from None
    except (OSError, http.client.HTTPException) as exc:
        raise LaptopError(f"{peer} at {url} cannot be reached ({exc.__class__.__name__}: {exc})") from None
    finally:
        connection.close()
    try:
        answer = json.loads(raw)
    except ValueError:
        raise LaptopError(f"{peer} at {url} answered {response.status} without JSON",
                          code="bad_answer", status=response.status) from None
    if not isinstance(answer, dict):
        raise LaptopError(f"{peer} at {url} answered with something else than a JSON object",
                          code="bad_answer", status=response.status)
    if response.status != 200 or "error" in answer:
        raise LaptopError(f"{peer} refused: {answer.get('reason', response.status)}",
                          code=str(answer.get("error", "refused")), status=response.status, answer=answer)
    return answer


def signed_post(url: str, endpoint: str, body: bytes, *, secret: str, signer: str, timeout: float,
                now: float | None = None, peer: str = "the laptop") -> dict[str, Any]:
    """One request signed as ``signer`` to ``API/endpoint`` at ``url``: the answer, or :class:`LaptopError`."""
    path = urllib.parse.urlsplit(url).path.rstrip("/") + f"{API}/{endpoint}"
    headers = sign_request(secret, signer, "POST", path, body, now=time.time() if now is None else now,
                           nonce=secrets.token_hex(16))
    return _post(url, f"{API}/{endpoint}", body, headers, timeout, peer)


def pair_with_laptop(url: str, code: str, device: str, *, name: str = "", timeout: float = 10.0,
                     peer: str = "the laptop") -> SyncState:
    """Pair this table with the laptop at ``url`` using the six-digit code the laptop shows."""
    code = code.strip().replace(" ", "")
    body = json.dumps({"v": PROTOCOL_VERSION, "code": code, "device": device, "name": name}).encode("utf-8")
    answer = _post(url, f"{API}/pair", body, {}, timeout, peer)
    secret = answer.get("secret")
    if not isinstance(secret, str) or len(secret) != 64:
        raise LaptopError(f"{peer}'s pairing answer has no secret", code="bad_answer")
    return SyncState(url=url.rstrip("/"), secret=secret, laptop=str(answer.get("name", "")), acked=0)


# --- the client thread ------------------------------------------------------------------------


PERMANENT = frozenset({"not_paired", "bad_signature", "conflict", "broken_chain", "bad_device", "bad_payload",
                       "foreign_table", "bad_confirmation"})  # the last two: the league's refusals of a club


def table_batch_body(device: str, entries: Sequence[JournalEntry]) -> bytes:
    """A table's batch with the version it runs (``app_version``), looked up at the first batch,
    in the sync thread: reading the installed distribution's metadata costs some 30 ms, which
    the table's cold start does not wait for."""
    return batch_body(device, entries, app_version=skattisch_version())


class SyncClient:
    """Sends the entries the laptop has not acknowledged, in its own thread.

    ``submit`` is the service's inbox (``SyncAcknowledged``, ``SyncStatus``); ``discover``
    (optional) finds the laptop's URL when none is stored (mDNS). ``on_answer`` sees each
    ack's JSON (roster, next series: part 2). Call :meth:`wake` after new events. A table's
    batches carry the version it runs (``app_version``: the laptop shows it beside the table).
    A club's laptop forwarding a table's entries to the league uses the same client:
    ``signer`` (the club's id), ``endpoint`` ("forward") and ``make_body`` (the batch with the
    club's word on its lists) are set by :mod:`drivers.league.forward`.
    """

    def __init__(
        self, source: EntrySource, state_file: SyncStateFile, *, device: str,
        submit: Callable[[object], None] = lambda command: None,
        discover: Callable[[], str | None] | None = None, fallback_url: str = "",
        batch_size: int = MAX_BATCH, timeout: float = 5.0, backoff: tuple[float, float] = (0.2, 15.0),
        idle_poll: float = 30.0, on_answer: Callable[[dict[str, Any]], None] | None = None,
        rng: random.Random | None = None, clock: Callable[[], float] = time.time,
        signer: str | None = None, endpoint: str = "events",
        make_body: Callable[[str, Sequence[JournalEntry]], bytes] | None = None, peer: str = "the laptop",
    ) -> None:
        self._peer = peer  # who answers, in the words of its errors ("the league" for a club forwarding)
        self._source = source
        self._signer = signer or device  # a club's laptop forwarding a table's entries signs as the club
        self._endpoint = endpoint
        self._make_body = make_body or table_batch_body
        self._file = state_file
        self._device = device
        self._submit = submit
        self._discover = discover
        self._discovery_failed = False  # said once in the log until discovery works again
        self._fallback_url = fallback_url.rstrip("/")
        self._batch = batch_size
        self._timeout = timeout
        self._backoff = backoff
        self._idle_poll = idle_poll
        self._on_answer = on_answer
        self._rng = rng or random.Random()
        self._clock = clock  # the Pi's clock: may be far off (no battery), corrected by the laptop's
        self._state = state_file.load()
        self._offset = 0.0  # the laptop's clock minus ours (the Pi has no battery clock)
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.last_error: LaptopError | None = None
        self.sent_batches = 0
        self._shown: SyncStatus | None = None
        self._current = ""
        self._cards: list[str] = []  # member cards read for the laptop's "Karte zuordnen"
        self._cards_lock = threading.Lock()

    # -- state ---------------------------------------------------------------------------------

    @property
    def state(self) -> SyncState:
        return self._state

    @property
    def url(self) -> str:
        """The laptop's address in use: last one that answered, else the paired or configured one."""
        return self._current or self._state.url or self._fallback_url

    def _resolve(self) -> str:
        """Where to send: the address that answered last; after a failure, discovery (mDNS) first,
        then the configured address, then the one we paired with."""
        if not self._current:
            found = self._discovered()
            self._current = (found or self._fallback_url or self._state.url).rstrip("/")
        return self._current

    def _discovered(self) -> str | None:
        """The laptop's address by discovery, or None: discovery that fails (no network,
        zeroconf unable to start) must not keep the table from the configured or paired one."""
        if self._discover is None:
            return None
        try:
            found = self._discover()
        except Exception as exc:  # noqa: BLE001 - any failure of mDNS is "not found"
            if not self._discovery_failed:
                log.warning("sync: looking for the laptop by mDNS failed, using the configured or paired "
                            "address: %s: %s", type(exc).__name__, exc)
            self._discovery_failed = True
            return None
        self._discovery_failed = False
        return found

    def _save(self, state: SyncState) -> None:
        if state != self._state:
            self._file.save(state)
            self._state = state

    def pair(self, code: str, url: str | None = None, *, name: str = "") -> SyncState:
        """Pair with the laptop (its URL given, stored, configured or discovered)."""
        target = (url or self._resolve()).rstrip("/")
        if not target:
            raise LaptopError("no laptop found: enter its address in the settings", code="no_laptop")
        state = pair_with_laptop(target, code, self._device, name=name or self._device)
        self._save(state)
        self._status()
        self.wake()
        return state

    def forget(self) -> None:
        """Unpair this side (the laptop's operator unpairs there)."""
        self._save(SyncState())
        self._status()

    def _status(self, reachable: bool = False) -> None:
        laptop = (self._state.laptop or self.url) if self._state.paired else ""
        status = SyncStatus(laptop=laptop, reachable=reachable, detail=self.last_error.code if self.last_error else "")
        if status != self._shown:  # tell the service only what changed
            self._shown = status
            self._submit(status)

    # -- one round -----------------------------------------------------------------------------

    def sync_once(self) -> bool:
        """Send one batch (possibly empty: a poll). True if more entries wait to be sent."""
        state = self._state
        if not state.paired:
            raise LaptopError("this table is not paired with a laptop", code="no_laptop")
        url = self._resolve()
        if not url:
            raise LaptopError("no laptop found", code="no_laptop")
        entries = self._source.entries_after(state.acked, self._batch)
        body = self._make_body(self._device, entries)
        path = urllib.parse.urlsplit(url).path.rstrip("/") + f"{API}/{self._endpoint}"
        try:
            answer = self._signed_post(url, path, body, endpoint=self._endpoint)
        except LaptopError as exc:
            if exc.code == "out_of_order" and isinstance(exc.answer.get("acked"), int):
                self._save(replace(self._state, acked=int(exc.answer["acked"])))
                return True
            if exc.code == "unreachable":
                self._current = ""  # look for the laptop again next time
            raise
        self.sent_batches += 1
        acked = answer.get("acked")
        if not isinstance(acked, int) or acked < 0:
            raise LaptopError(f"{self._peer}'s answer has no acknowledged seq", code="bad_answer")
        resend = answer.get("resend_from")
        cursor = min(acked, int(resend) - 1) if isinstance(resend, int) and resend >= 1 else acked
        self._save(replace(self._state, url=url, acked=cursor))
        self._submit(SyncAcknowledged(acked))
        if self._on_answer is not None:
            self._on_answer(answer)
        last = entries[-1].event["seq"] if entries else state.acked
        return cursor < last or len(entries) == self._batch or cursor < state.acked

    def _signed_post(self, url: str, path: str, body: bytes, endpoint: str = "events") -> dict[str, Any]:
        for attempt in range(2):
            headers = sign_request(self._state.secret, self._signer, "POST", path, body,
                                   now=self._clock() + self._offset, nonce=secrets.token_hex(16))
            try:
                answer = _post(url, f"{API}/{endpoint}", body, headers, self._timeout, self._peer)
            except LaptopError as exc:
                laptop_time = exc.answer.get("time")
                if exc.code == "stale" and isinstance(laptop_time, (int, float)) and attempt == 0:
                    self._offset = float(laptop_time) - self._clock()  # set our clock by the laptop's, once
                    continue
                raise
            laptop_time = answer.get("time")
            if isinstance(laptop_time, (int, float)):
                self._offset = float(laptop_time) - self._clock()
            return answer
        raise AssertionError("unreachable")  # pragma: no cover

    # -- the thread ----------------------------------------------------------------------------

    def start(self) -> None:
        if self._state.acked:
            self._submit(SyncAcknowledged(self._state.acked))
        self._status()
        self._thread = threading.Thread(target=self._run, name="skattisch-sync", daemon=True)
        self._thread.start()

    def wake(self) -> None:
        self._wake.set()

    def send_card(self, card: str) -> None:
        """Report a member card read at this table to the laptop (its organiser is assigning a
        card: "Karte zuordnen"); sent from the client's thread, then the roster is asked again."""
        with self._cards_lock:
            self._cards.append(card)
        self.wake()

    def _send_cards(self) -> None:
        with self._cards_lock:
            cards, self._cards = self._cards, []
        url = self._resolve()
        path = urllib.parse.urlsplit(url).path.rstrip("/") + f"{API}/card"
        for card in cards:
            body = json.dumps({"v": PROTOCOL_VERSION, "device": self._device, "card": card}).encode("utf-8")
            try:
                answer = self._signed_post(url, path, body, endpoint="card")
            except LaptopError as exc:  # nobody waits for a card now, or it is another's: said on the laptop
                answer = {"error": exc.code, **exc.answer}
            if self._on_answer is not None:
                self._on_answer({"card_answer": answer})

    def close(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self) -> None:
        delay = self._backoff[0]
        while not self._stop.is_set():
            self._wake.clear()
            try:
                if self._cards:
                    self._send_cards()
                more = self.sync_once()
            except LaptopError as exc:
                self._note_error(exc)
                wait = self._backoff[1] if exc.code in PERMANENT else delay
                delay = min(delay * 2, self._backoff[1])
                self._wake.wait(wait * (0.5 + self._rng.random()))
                continue
            except Exception:  # never let a bug end the thread: log and back off
                log.exception("sync round failed")
                self._wake.wait(self._backoff[1])
                continue
            delay = self._backoff[0]
            if self.last_error is not None:
                self.last_error = None
            self._status(reachable=True)
            if not more:
                self._wake.wait(self._idle_poll)

    def _note_error(self, exc: LaptopError) -> None:
        changed = self.last_error is None or self.last_error.code != exc.code
        self.last_error = exc
        if changed:
            log.warning("sync: %s", exc)
            self._status()


def make_client(store: EventStore, directory: str | Path, device: str, submit: Callable[[object], None],
                **options: Any) -> SyncClient:
    """A client for the table whose store lives in ``directory`` (state in ``sync.json`` there)."""
    return SyncClient(entry_source(store, device), SyncStateFile(Path(directory) / STATE_FILE), device=device,
                      submit=submit, **options)
