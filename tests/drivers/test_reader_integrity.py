"""The reader never invents a card: the two-frame rule against bit errors, well-formed lines,
the hold after a reconnect, and a port that can never open — all over a real pty.

Bit errors are seeded (``random.Random(SEED)``), so a failure reproduces. The deck has
sequentially numbered tags, the worst case for a one-byte XOR checksum.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from device.hardware import CardScanned, UnknownCardScanned
from device.inbox import Inbox
from drivers.barcode import Symbology
from drivers.deck import Deck, DeckLearner
from drivers.reader import (
    Confirmer,
    Mode,
    Payload,
    PortError,
    Rdm6300Framing,
    SerialCardReader,
    Verdict,
    rdm6300_frame,
)
from tests.drivers.test_reader import FAST_RETRY, Cli, FakeClock, PtyDevice, take, take_status

SEED = 13
TAGS = [f"0A0000{i:04X}" for i in range(32)]  # numbered in sequence, as a club buys them
DECK_OF_TAGS = Deck(zip(TAGS, Deck().missing()), source="sequential-deck")
CARD_OF_TAG = {tag: DECK_OF_TAGS.lookup(tag) for tag in TAGS}
MARK = "FFFFFFFFFF"  # not in the deck: comes back as unknown


def flip(frame: bytes, bits: tuple[int, ...]) -> bytes:
    data = bytearray(frame)
    for bit in bits:
        data[bit // 8] ^= 1 << (bit % 8)
    return bytes(data)


def wrong_cards_of(tag: str) -> list[bytes]:
    """Every two-bit error of ``tag``'s frame that decodes, checksum and all, to another card."""
    frame = rdm6300_frame(tag)
    found = []
    for bits in itertools.combinations(range(len(frame) * 8), 2):
        decoded = Rdm6300Framing.decode(flip(frame, bits))
        if (len(decoded) == 1 and isinstance(decoded[0], Payload) and decoded[0].raw != tag
                and decoded[0].raw in CARD_OF_TAG):
            found.append(flip(frame, bits))
    return found


class Table:
    """A reader over a pty; :meth:`lay` writes a placement's frames and returns what it read."""

    def __init__(self, device: PtyDevice, **options: Any) -> None:
        self.device = device
        self.reader = SerialCardReader(device.path, mode=Mode.RDM6300, deck=DECK_OF_TAGS, debounce=0.0,
                                       clock=FakeClock(), backoff=FAST_RETRY, **options)
        self.inbox: Inbox[object] = Inbox()
        self.reader.start(self.inbox.submit)
        take_status(self.inbox, connected=True)

    def lay(self, frames: list[bytes]) -> list[str]:
        """The cards read from ``frames``, up to a marker tag sent twice after them."""
        self.device.write(b"".join(frames) + rdm6300_frame(MARK) * 2)
        read: list[str] = []
        while True:
            (item,) = take(self.inbox)
            if isinstance(item, UnknownCardScanned) and item.raw == MARK:
                return read
            assert isinstance(item, CardScanned), item
            read.append(item.raw)

    def close(self) -> None:
        self.reader.close()


@pytest.fixture
def device(tmp_path: Path) -> Iterator[PtyDevice]:
    dev = PtyDevice(tmp_path)
    yield dev
    dev.close()


def test_confirmer_needs_the_same_frame_twice_in_a_row_within_the_window() -> None:
    c = Confirmer(0.2)
    assert c.offer("A", 0.0) is Verdict.PENDING
    assert c.offer("A", 0.3) is Verdict.PENDING  # too late: starts afresh
    assert c.offer("A", 0.4) is Verdict.CONFIRMED
    assert c.offer("A", 0.5) is Verdict.CONFIRMED  # lying there: the debouncer counts it once
    c.interrupt()  # a bad frame in between
    assert c.offer("A", 0.55) is Verdict.PENDING
    assert c.offer("B", 0.6) is Verdict.DISAGREEMENT
    assert Confirmer(0.0).offer("A", 0.0) is Verdict.CONFIRMED


def test_every_two_bit_error_that_checks_as_another_card_is_refused_by_the_two_frame_rule(
    device: PtyDevice,
) -> None:
    rng = random.Random(SEED)
    tags = rng.sample(TAGS, 12)
    dangerous = {tag: wrong_cards_of(tag) for tag in tags}
    assert sum(map(len, dangerous.values())) >= 12, dangerous  # the checksum alone lets these through
    placements = []
    for tag, bad in dangerous.items():
        good = rdm6300_frame(tag)
        for one, other in zip(bad, bad[1:] + bad[:1]):
            # the tag lies there; some of its frames arrive corrupted, two different ones in a row
            twice = [other, one, good] if other != one else []
            placements.append((tag, [one, good, good, one, good, *twice]))
    for confirm, expect_wrong in ((0.0, True), (None, False)):  # without the rule, then the default
        table = Table(device, confirm=confirm)
        wrong = [raw for tag, frames in placements for raw in table.lay(frames) if raw != tag]
        counters = table.reader.counters
        table.close()
        if expect_wrong:
            assert len(wrong) >= len(placements), "without the rule the errors must show"
        else:
            assert wrong == [], f"{len(wrong)} wrong cards: {wrong[:5]}"
            assert counters.disagreements > 0 and counters.cards >= len(placements)


def test_seeded_random_two_bit_errors_give_no_wrong_card_and_nearly_every_right_one(device: PtyDevice) -> None:
    rng = random.Random(SEED)
    table = Table(device)
    placements, wrong, missed = 400, [], 0
    for _ in range(placements):
        tag = rng.choice(TAGS)
        frames = []
        for _ in range(10):  # the tag lies there for ten frames; each is hit with chance 0.3
            good = rdm6300_frame(tag)
            hit = rng.random() < 0.3
            frames.append(flip(good, tuple(rng.sample(range(len(good) * 8), 2))) if hit else good)
        read = table.lay(frames)
        wrong += [raw for raw in read if raw != tag]
        missed += not read
    table.close()
    assert wrong == []
    assert missed <= placements * 0.05, f"{missed} of {placements} placements read nothing"


def test_a_card_lying_through_a_long_unplug_is_not_counted_again_until_lifted(device: PtyDevice) -> None:
    clock = FakeClock()
    reader = SerialCardReader(device.path, mode=Mode.RDM6300, deck=DECK_OF_TAGS, debounce=1.0, clock=clock,
                              backoff=FAST_RETRY)
    inbox: Inbox[object] = Inbox()
    with reader:
        reader.start(inbox.submit)
        take_status(inbox, connected=True)
        lying = rdm6300_frame(TAGS[3]) * 2
        device.write(lying)
        assert [i.raw for i in take(inbox) if isinstance(i, CardScanned)] == [TAGS[3]]
        device.unplug()
        take_status(inbox, connected=False)
        clock.advance(5.0)  # far longer than the debounce window
        device.plug()
        take_status(inbox, connected=True)
        device.write(lying * 3)  # still lying there, frame after frame
        device.write(rdm6300_frame(MARK) * 2)
        (item,) = take(inbox)
        assert isinstance(item, UnknownCardScanned) and item.raw == MARK, item
        assert (reader.counters.cards, reader.counters.held) == (1, 5)  # the first frame waits for its twin
        clock.advance(2.0)  # lifted, and laid again: a new read
        device.write(lying)
        (item,) = take(inbox)
        assert isinstance(item, CardScanned) and item.raw == TAGS[3]


def test_uid_and_barcode_lines_must_be_well_formed_and_checked(device: PtyDevice) -> None:
    ean = Deck({"4006381333931": "CJ", "4006381333948": "SJ"}, barcode=Symbology.EAN13)
    inbox: Inbox[object] = Inbox()
    with SerialCardReader(device.path, mode=Mode.BARCODE, deck=ean, backoff=FAST_RETRY) as reader:
        reader.start(inbox.submit)
        take_status(inbox, connected=True)
        # one wrong digit, two neighbours swapped, a digit dropped, then the two good codes
        device.write(b"4006381333941\r\n4006381339331\r\n400638133393\r\n4006381333931\r\n4006381333948\r\n")
        items = take(inbox, 2)
        assert [i.card.code for i in items if isinstance(i, CardScanned)] == ["CJ", "SJ"]
        assert reader.counters.garbage == 3
    with SerialCardReader(device.path, mode=Mode.UID, backoff=FAST_RETRY) as reader:
        inbox = Inbox()
        reader.start(inbox.submit)
        take_status(inbox, connected=True)
        device.write(b"04A23B1C5D6E8\n04A23B1C5D\n04:A2:3B:1C:5D:6E:80\n")  # 6.5 and 5 bytes: refused
        (item,) = take(inbox)
        assert isinstance(item, UnknownCardScanned) and item.raw == "04A23B1C5D6E80"
        assert reader.counters.garbage == 2


def test_a_deck_file_refuses_a_barcode_its_symbology_does_not_check() -> None:
    with pytest.raises(ValueError, match="check digit"):
        Deck({"4006381333932": "CJ"}, barcode=Symbology.EAN13)
    code39 = Deck({"CJ": "CJ", "X1": "SA"}, barcode=Symbology.CODE39_MOD43)
    assert Deck.from_json(code39.to_json()) == code39 and code39.to_json()["barcode"] == "code39-mod43"


def test_deck_learn_warns_when_two_tags_are_one_character_apart() -> None:
    learner = DeckLearner()
    assert learner.offer("0A00000001").warning == ""
    step = learner.offer("0A00000003")  # 1 -> 3: one bit
    assert step.accepted and "0A00000001" in step.warning and "Kreuz Bube" in step.warning
    assert learner.offer("0A00001100").warning == ""
    assert learner.deck().near_misses() == [("0A00000001", "0A00000003")]


@pytest.mark.parametrize("command", [["reader-test"], ["deck", "learn", "--out", "deck.json"]])
def test_a_port_url_pyserial_does_not_know_is_one_line_and_exit_2(command: list[str], tmp_path: Path) -> None:
    started = time.monotonic()
    run = Cli(*command[:1], *[str(tmp_path / a) if a == "deck.json" else a for a in command[1:]],
              "--port", "foo://bar")
    code, err = run.finish()
    assert code == 2 and time.monotonic() - started < 5
    assert "Traceback" not in err and "foo://bar" in err and "foo" in err.splitlines()[0]
    with pytest.raises(PortError, match="foo"):
        SerialCardReader("foo://bar")


def test_a_card_lifted_before_the_unplug_counts_when_laid_again_after_it(device: PtyDevice) -> None:
    clock = FakeClock()
    with SerialCardReader(device.path, mode=Mode.RDM6300, deck=DECK_OF_TAGS, debounce=1.0, clock=clock,
                          backoff=FAST_RETRY) as reader:
        inbox: Inbox[object] = Inbox()
        reader.start(inbox.submit)
        take_status(inbox, connected=True)
        device.write(rdm6300_frame(TAGS[4]) * 2)
        assert [i.raw for i in take(inbox) if isinstance(i, CardScanned)] == [TAGS[4]]
        clock.advance(3.0)  # lifted long before the cable came out
        device.unplug()
        take_status(inbox, connected=False)
        device.plug()
        take_status(inbox, connected=True)
        device.write(rdm6300_frame(TAGS[4]) * 2)  # the next deal begins with the same card
        (item,) = take(inbox)
        assert isinstance(item, CardScanned) and item.raw == TAGS[4] and reader.counters.held == 0
