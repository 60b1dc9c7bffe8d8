"""Member cards over the three reader kinds on a real pty: an RDM6300 tag, a UID
line and a barcode the deck does not know reach the table as unknown payloads, and the table
seats the member whose roster card they are; a playing card's tag stays a playing card."""

from __future__ import annotations

from pathlib import Path

import pytest

from device.hardware import CardScanned, UnknownCardScanned
from device.inbox import Inbox
from device.table import RosterReceived
from drivers.barcode import Symbology
from drivers.deck import Deck
from drivers.reader import Mode, SerialCardReader, rdm6300_frame
from tests.drivers.test_reader import FAST_RETRY, PtyDevice, take, take_status
from tests.table_helpers import Table, german

TAGS = [f"0A0000{i:04X}" for i in range(32)]
DECK = Deck(zip(TAGS, Deck().missing()), source="club-deck")
EAN_DECK = Deck({"4006381333931": "CJ"}, barcode=Symbology.EAN13)
ROSTER = [{"name": "Jürgen", "id": "pJ", "card": "0B000000AA"},  # a 125 kHz member tag
          {"name": "Anna", "id": "pA", "card": "04A23B1C5D6E80"},  # an NFC card's UID
          {"name": "Bernd", "id": "pB", "card": "4006381333948"}]  # the barcode on his member card


@pytest.mark.parametrize(("mode", "deck", "written", "member"), [
    (Mode.RDM6300, DECK, rdm6300_frame("0B000000AA") * 3, "Jürgen"),
    (Mode.UID, None, b"04:a2:3b:1c:5d:6e:80\r\n", "Anna"),
    (Mode.BARCODE, EAN_DECK, b"4006381333948\r\n", "Bernd"),
])
def test_a_member_card_on_each_reader_kind_seats_its_member(tmp_path: Path, mode: Mode, deck: Deck | None,
                                                             written: bytes, member: str) -> None:
    device = PtyDevice(tmp_path)
    table = Table(open=False)
    received = RosterReceived.from_ack(ROSTER)
    assert received is not None
    table.ok(received)
    inbox: Inbox[object] = Inbox()
    try:
        with SerialCardReader(device.path, mode=mode, deck=deck, backoff=FAST_RETRY) as reader:
            reader.start(inbox.submit)
            take_status(inbox, connected=True)
            device.write(written)
            (item,) = take(inbox)
    finally:
        device.close()
    assert isinstance(item, UnknownCardScanned), item
    table.ok(item)
    assert table.snap.setup.card_seats == (member,)


def test_a_playing_cards_tag_at_setup_is_told_apart(tmp_path: Path) -> None:
    device = PtyDevice(tmp_path)
    table = Table(open=False)
    table.ok(RosterReceived.from_ack(ROSTER))
    inbox: Inbox[object] = Inbox()
    try:
        with SerialCardReader(device.path, mode=Mode.RDM6300, deck=DECK, backoff=FAST_RETRY) as reader:
            reader.start(inbox.submit)
            take_status(inbox, connected=True)
            device.write(rdm6300_frame(TAGS[0]) * 3)
            (item,) = take(inbox)
    finally:
        device.close()
    assert isinstance(item, CardScanned)
    assert "Mitgliedskarte" in german(table.refused(item, "playing_card_at_setup"))
    assert table.snap.setup.card_seats == ()
