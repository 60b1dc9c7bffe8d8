"""The qemu evening's driver (deploy/qemu_table.py), the parts that need no qemu: the tags it
writes are taught in and read by the table's own reader as their cards, the plugs are pulled
where its text says, and what it expects on the disk after each cut follows from the steps
sent (``./dev.sh image-test --screen`` runs the whole of it, too long for this suite)."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import tty
from pathlib import Path
from types import ModuleType

import pytest

from device.hardware import CardScanned, ReaderStatus
from device.inbox import Inbox
from drivers.deck import TEACH_ORDER, DeckLearner
from drivers.reader import Mode, SerialCardReader
from tests.e2e.sync_helpers import ROOT


@pytest.fixture(scope="module")
def qemu_table() -> ModuleType:
    spec = importlib.util.spec_from_file_location("qemu_table", ROOT / "deploy" / "qemu_table.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["qemu_table"] = module
    spec.loader.exec_module(module)
    return module


def test_the_tags_written_in_qemu_are_taught_in_and_read_as_their_cards(qemu_table: ModuleType) -> None:
    learner = DeckLearner()
    for card in TEACH_ORDER:  # in the order the table asks for them, as the evening's taps do
        assert learner.offer(qemu_table.tag_of(card.code)).accepted, card
    assert learner.done
    master, slave = os.openpty()
    tty.setraw(slave)
    reader = SerialCardReader(os.ttyname(slave), mode=Mode.RDM6300, deck=learner.deck())  # two frames needed
    inbox: Inbox[object] = Inbox()
    try:
        reader.start(inbox.submit)
        status = inbox.get(timeout=10)
        assert isinstance(status, ReaderStatus) and status.connected, status
        read = []
        for code in ("CJ", "HA", "D7", "ST"):
            os.write(master, qemu_table.rdm6300_frame(qemu_table.tag_of(code)) * 2)  # as the guest's line gets it
            item = inbox.get(timeout=10)
            assert isinstance(item, CardScanned), item
            read.append(item.card.code)
        assert read == ["CJ", "HA", "D7", "ST"]
    finally:
        reader.close()
        os.close(master)
        os.close(slave)


def test_the_plugs_are_pulled_where_the_evening_says_and_the_disk_must_hold_what_was_shown(
        qemu_table: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("KIVY_NO_ARGS", "KIVY_NO_FILELOG", "KIVY_NO_CONSOLELOG"):  # the driver sets them for itself
        monkeypatch.setenv(name, "1")  # and they must not reach the tests after this one (their children's logs)
    lines = [{"step": step} for step in qemu_table.evening_steps("4826")]
    steps = [str(line["step"]) for line in lines]
    assert sum(step.startswith("scan ") for step in steps) == 32 + 30  # the teach-in, then game 1's cards
    assert len(qemu_table.game_scans(lines)) == 30
    assert steps.count("tap deck_teach") == 1 and [f"tap digit_{d}" for d in "4826"] == \
        steps[steps.index("tap settings") + 1:steps.index("tap pin_ok")]
    cuts = qemu_table.plugs(lines)
    assert [what for _, what in cuts] == ["mid-trick", "confirmed", "in-flight"]
    mid, confirmed, in_flight = (done for done, _ in cuts)
    assert steps[mid - 1].startswith("scan ") and qemu_table.expected_after(lines, mid) == (0, 17, 17)
    assert steps[confirmed - 1].startswith("tap confirm_") and qemu_table.expected_after(lines, confirmed) == (2, 30, 0)
    assert qemu_table.expected_after(lines, in_flight) == (3, 30, 0)
    assert qemu_table.expected_after(lines, len(lines)) == (4, 30, 0)


def test_the_journal_is_counted_as_the_table_wrote_it(qemu_table: ModuleType, tmp_path: Path) -> None:
    journal = tmp_path / "lists" / "journal"
    journal.mkdir(parents=True)
    kinds = ["list_opened", *["card_played"] * 30, "game_recorded", "card_played", "card_played", "card_withdrawn"]
    journal.joinpath("a.jsonl").write_text("".join(json.dumps({"event": {"type": kind}}) + "\n" for kind in kinds),
                                           encoding="utf-8")
    assert qemu_table.journal_counts(tmp_path / "lists") == (["a.jsonl"], 1, 31, 1)


def test_a_pixel_of_a_screendump_is_read_at_its_place(qemu_table: ModuleType, tmp_path: Path) -> None:
    x, y = qemu_table.START_BANNER_AT
    pixels = bytearray(b"\x10\x10\x10" * (800 * 480))
    at = (y * 800 + x) * 3
    pixels[at:at + 3] = bytes((255, 82, 82))  # theme.BAD, the start's banner
    dump = tmp_path / "screen.ppm"
    dump.write_bytes(b"P6\n800 480\n255\n" + bytes(pixels))
    assert qemu_table.pixel(dump, x, y) == (255, 82, 82)
    assert qemu_table.pixel(dump, x + 1, y) == qemu_table.pixel(dump, x, y + 1) == (16, 16, 16)
    assert len(qemu_table.below_status_bar(dump)) == 800 * 3 * (480 - qemu_table.STATUS_BAR)
