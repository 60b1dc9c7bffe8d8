"""Deck files: which tag UID or barcode payload stands for which card.

A deck file is JSON, versioned, with one entry per tagged card::

    {
      "v": 1,
      "cards": {
        "0A00C4E1F2": "CJ",
        "0A00C4E1F3": "SJ",
        "4006381333931": "HA"
      }
    }

- ``v`` is the format version, 1 for now; a reader refuses any other.
- ``cards`` maps a *payload* to a *card code*. The payload is what the reader reports: the
  10 hex characters of a 125 kHz (RDM6300) tag, the hex UID of an NFC tag without separators,
  or a barcode's text, exactly as ``skattisch reader-test`` prints it under ``"raw"``.
  Payloads are compared without surrounding blanks and without regard to case.
- A card code is suit ``C S H D`` + rank ``7 8 9 T J Q K A`` (see :mod:`device.cards`),
  case-insensitive in the file, written upper case.
- Each payload stands for one card and each card has at most one payload. A deck may be
  partial (:meth:`Deck.missing`); ``skattisch deck learn`` writes complete ones.
- ``barcode`` (optional, default ``"text"``) names the symbology of the deck's barcodes, so
  the reader checks each line's check digit: ``ean13``, ``ean8``, ``upca``, ``code39-mod43``
  (see :mod:`drivers.barcode`). Every payload in the file must be well-formed for it.
- A barcode that *is* a card code (``"CJ"``, ``"cj"``) stands for that card even without a
  deck, so such a payload may appear in a deck only for its own card.

Loading a bad file raises :class:`DeckError` naming the file and the entry.

>>> deck = Deck({"0a00c4e1f2": "cj"})
>>> deck.lookup("0A00C4E1F2"), deck.lookup(" sa "), deck.lookup("FFFF")
(Card.parse('CJ'), Card.parse('SA'), None)
>>> deck.to_json()
{'v': 1, 'cards': {'0A00C4E1F2': 'CJ'}}
>>> Deck({"0A": "CJ", "0B": "cj"})
Traceback (most recent call last):
...
drivers.deck.DeckError: <deck>: card CJ (Kreuz Bube) appears twice, for payloads '0A' and '0B'
"""

from __future__ import annotations

import errno
import json
import os
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.cards import DECK, Card, Rank, Suit
from device.errors import CardError, SkatError
from device.jsonin import JsonInputError, parse_json
from drivers.barcode import CODE39_CHARSET, Symbology, check_line, code39_mod43_check

VERSION = 1

# The order ``deck learn`` shows the cards in: the jacks, then each suit from the ace down,
# the way players sort a hand.
_JACKS = tuple(Card(suit, Rank.JACK) for suit in Suit)
_SUIT_ORDER = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.NINE, Rank.EIGHT, Rank.SEVEN)
TEACH_ORDER: tuple[Card, ...] = _JACKS + tuple(Card(s, r) for s in Suit for r in _SUIT_ORDER)


class DeckError(SkatError, ValueError):
    """A deck file (or deck entries) that cannot be used; the message names file and entry."""


def normalize_payload(raw: str) -> str:
    """The form a payload is compared in: no surrounding blanks, upper case.

    >>> normalize_payload(" 0a1b2c \\r")
    '0A1B2C'
    """
    return raw.strip().upper()


def card_of_code(raw: str) -> Card | None:
    """The card a payload names by its own code (``'CJ'``, ``'cj'``), else None.

    >>> card_of_code("hT"), card_of_code("0A1B")
    (Card.parse('HT'), None)
    """
    try:
        return Card.parse(raw)
    except CardError:
        return None


class Deck:
    """An immutable mapping from payloads to cards, validated when built."""

    __slots__ = ("_by_payload", "_by_card", "source", "barcode")

    def __init__(
        self,
        entries: Mapping[str, Card | str] | Iterable[tuple[str, Card | str]] = (),
        *,
        source: str = "<deck>",
        barcode: Symbology = Symbology.TEXT,
    ) -> None:
        self.source = source
        self.barcode = barcode
        self._by_payload: dict[str, Card] = {}
        self._by_card: dict[Card, str] = {}
        pairs = entries.items() if isinstance(entries, Mapping) else entries
        for payload, card in pairs:
            self._add(payload, card)

    def _add(self, payload: str, card: Card | str) -> None:
        where = f"{self.source}: entry {payload!r}"
        if not normalize_payload(payload):
            raise DeckError(f"{where}: the payload is empty")
        if isinstance(card, str):
            try:
                card = Card.parse(card)
            except CardError as exc:
                raise DeckError(f"{where}: {exc}") from None
        elif not isinstance(card, Card):
            raise DeckError(f"{where}: the card must be a card code such as \"CJ\", not {card!r}")
        key = normalize_payload(payload)
        if key in self._by_payload:
            raise DeckError(f"{self.source}: payload {key!r} appears twice")
        self._check_symbology(where, key)
        named = card_of_code(key)
        if named is not None and named != card:
            raise DeckError(
                f"{where}: the payload is itself the card code {named.code}, it cannot stand for "
                f"{card.code} ({card.german})"
            )
        if card in self._by_card:
            raise DeckError(
                f"{self.source}: card {card.code} ({card.german}) appears twice, "
                f"for payloads {self._by_card[card]!r} and {key!r}"
            )
        self._by_payload[key] = card
        self._by_card[card] = key

    def _check_symbology(self, where: str, key: str) -> None:
        if self.barcode is Symbology.CODE39_MOD43:  # the payload is the text before the check character
            line = key + code39_mod43_check(key) if key and all(c in CODE39_CHARSET for c in key) else key
        else:
            line = key
        try:
            check_line(line, self.barcode)
        except ValueError as exc:
            raise DeckError(f"{where}: not a {self.barcode.value} barcode: {exc}") from None

    def near_misses(self) -> list[tuple[str, str]]:
        """Pairs of payloads one misread character apart (see :func:`one_character_apart`)."""
        keys = sorted(self._by_payload)
        return [(a, b) for i, a in enumerate(keys) for b in keys[i + 1:] if one_character_apart(a, b)]

    # -- queries ---------------------------------------------------------------------------

    def lookup(self, raw: str) -> Card | None:
        """The card a payload stands for: the deck's entry, else the card it names, else None."""
        key = normalize_payload(raw)
        return self._by_payload.get(key) or card_of_code(key)

    def payload_of(self, card: Card) -> str | None:
        return self._by_card.get(card)

    def items(self) -> list[tuple[str, Card]]:
        """(payload, card) pairs in teach order."""
        return [(self._by_card[c], c) for c in TEACH_ORDER if c in self._by_card]

    def missing(self) -> tuple[Card, ...]:
        """The cards without a payload, in teach order."""
        return tuple(c for c in TEACH_ORDER if c not in self._by_card)

    @property
    def is_complete(self) -> bool:
        return len(self._by_card) == len(DECK)

    def __len__(self) -> int:
        return len(self._by_payload)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deck) and self._by_payload == other._by_payload and self.barcode == other.barcode

    __hash__ = None  # type: ignore[assignment]  # equal decks may come from different files

    def __repr__(self) -> str:
        return f"Deck({ {p: c.code for p, c in self.items()} !r})"

    # -- JSON and files ----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"v": VERSION}
        if self.barcode is not Symbology.TEXT:
            doc["barcode"] = self.barcode.value
        doc["cards"] = {p: c.code for p, c in self.items()}
        return doc

    @classmethod
    def from_json(cls, doc: object, *, source: str = "<deck>") -> Deck:
        if not isinstance(doc, dict):
            raise DeckError(f"{source}: a deck file is a JSON object {{\"v\": 1, \"cards\": {{...}}}}")
        if doc.get("v") != VERSION:
            raise DeckError(f"{source}: field 'v': expected {VERSION}, found {doc.get('v')!r}")
        cards = doc.get("cards")
        if not isinstance(cards, dict):
            raise DeckError(f"{source}: field 'cards': expected an object mapping payloads to card codes")
        try:
            barcode = Symbology.parse(doc.get("barcode", Symbology.TEXT.value))
        except ValueError as exc:
            raise DeckError(f"{source}: field 'barcode': {exc}") from None
        return cls(cards, source=source, barcode=barcode)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Deck:
        """Read and check a deck file; any problem raises :class:`DeckError` naming the file."""
        name = os.fspath(path)
        try:
            if Path(name).is_dir():
                raise IsADirectoryError(errno.EISDIR, "it is a folder, not a file")
            data = Path(name).read_bytes()
        except OSError as exc:
            raise DeckError(f"{name}: cannot read the deck file: {exc.strerror or exc}") from None
        try:
            doc = parse_json(data)
        except JsonInputError as exc:
            if exc.field is not None:
                raise DeckError(f"{name}: entry {exc.field!r} appears twice") from None
            raise DeckError(f"{name}: {exc}") from None
        return cls.from_json(doc, source=name)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the deck file atomically: a power cut leaves the old file or the new one."""
        write_atomically(Path(path), json.dumps(self.to_json(), indent=2) + "\n")


def one_character_apart(a: str, b: str) -> bool:
    """Whether two payloads differ in exactly one character (so also in one bit): one misread
    character of one tag is the other tag, and only a checksum can tell.

    >>> one_character_apart("0A00C4E1F2", "0A00C4E1F3"), one_character_apart("0A00C4E1F2", "0A00C4E1E3")
    (True, False)
    """
    return len(a) == len(b) and sum(x != y for x, y in zip(a, b)) == 1


def write_atomically(path: Path, text: str, *, keep_mode: bool = False) -> None:
    """Write ``text`` to ``path`` via a temp file in the same folder, fsync, replace, fsync.

    ``keep_mode``: the new file gets the old one's mode and owner (a config readable by the
    service's group stays so)."""
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            if keep_mode and path.exists():
                old = path.stat()
                os.fchmod(handle.fileno(), old.st_mode & 0o7777)
                if os.geteuid() == 0:
                    os.fchown(handle.fileno(), old.st_uid, old.st_gid)
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    dir_fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


# -- teach-in ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LearnStep:
    """What became of one payload offered during teach-in; ``message`` is German, for the user."""

    accepted: bool
    card: Card
    message: str
    warning: str = ""  # set when the tag is one misread character from another of the deck


class DeckLearner:
    """Teach-in as a pure state machine: offer each payload read, in :data:`TEACH_ORDER`.

    >>> learner = DeckLearner()
    >>> learner.prompt()
    'Bitte Kreuz Bube auflegen (1/32)'
    >>> learner.offer("0A00C4E1F2").accepted
    True
    >>> learner.offer("0A00C4E1F2").message
    'Dieser Chip ist schon Kreuz Bube – bitte Pik Bube auflegen'
    """

    def __init__(self, order: Iterable[Card] = TEACH_ORDER) -> None:
        self._order = tuple(order)
        self._entries: list[tuple[str, Card]] = []
        self._used: dict[str, Card] = {}

    @property
    def expected(self) -> Card | None:
        """The card to lay on the reader now; None when done."""
        n = len(self._entries)
        return self._order[n] if n < len(self._order) else None

    @property
    def done(self) -> bool:
        return self.expected is None

    def prompt(self) -> str:
        card = self.expected
        if card is None:
            return "Alle Karten angelernt"
        return f"Bitte {card.german} auflegen ({len(self._entries) + 1}/{len(self._order)})"

    def offer(self, raw: str) -> LearnStep:
        card = self.expected
        if card is None:
            raise RuntimeError("teach-in is complete; no card expected")
        key = normalize_payload(raw)
        if key in self._used:
            other = self._used[key]
            return LearnStep(False, card, f"Dieser Chip ist schon {other.german} – bitte {card.german} auflegen")
        named = card_of_code(key)
        if named is not None and named != card:
            return LearnStep(False, card, f"Dieser Code ist {named.german}, nicht {card.german}")
        self._entries.append((key, card))
        self._used[key] = card
        near = [(p, c) for p, c in self._entries[:-1] if one_character_apart(p, key)]
        warning = "".join(
            f"Achtung: {key} ({card.german}) unterscheidet sich von {p} ({c.german}) nur in einem Zeichen – "
            f"ein Lesefehler kann die beiden Karten verwechseln"
            for p, c in near[:1])
        return LearnStep(True, card, f"{card.german}: {key}", warning)

    def deck(self, *, source: str = "<deck>", barcode: Symbology = Symbology.TEXT) -> Deck:
        """The deck learned so far (complete once :attr:`done`)."""
        return Deck(self._entries, source=source, barcode=barcode)
