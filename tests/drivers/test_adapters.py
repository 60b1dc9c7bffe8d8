"""Adapters built by name from the config: real ones when asked, fakes when simulating."""

from __future__ import annotations

import os
import tty
from pathlib import Path

import pytest


from device.cards import Card
from device.hardware import Button, ButtonPressed, CardScanned, ReaderStatus, UnknownCardScanned
from device.inbox import Inbox
from drivers.adapters import SimulatedReader, build_panel, build_reader, build_store
from drivers.config import parse_config
from drivers.panel import FakePanel
from drivers.reader import SerialCardReader
from drivers.store import MemoryEventStore, JournalEventStore


def test_the_simulated_reader_submits_what_a_real_reader_would() -> None:
    inbox: Inbox[object] = Inbox()
    reader = SimulatedReader()
    reader.start(inbox.submit)
    for card in ("cj", Card.parse("HT"), "X9"):
        thread = reader.scan(card)
        assert thread.name == "simulated reader"  # submitted from its own thread, like a real reader
        thread.join(timeout=10)
    reader.unplug()
    reader.close()
    reader.scan("SA").join(timeout=10)  # after close: nothing
    got = inbox.drain()
    assert got[0] == ReaderStatus(True, "simulated", "Simulation: Karten im Kartenwähler antippen")
    assert got[1:3] == [CardScanned(Card.parse("CJ"), raw="CJ", source="reader"),
                        CardScanned(Card.parse("HT"), raw="HT", source="reader")]
    assert isinstance(got[3], UnknownCardScanned) and got[3].raw == "X9"
    assert isinstance(got[4], ReaderStatus) and not got[4].connected
    assert len(got) == 5


def test_simulate_builds_fakes_and_touches_no_hardware(tmp_path: Path) -> None:
    config = parse_config('[reader]\nport = "/dev/does-not-exist"\n[gpio]\nconfirm = 17\n')
    inbox: Inbox[object] = Inbox()
    assert isinstance(build_reader(config.reader, simulate=True), SimulatedReader)
    built = build_panel(config, inbox.submit, simulate=True)
    panel = built.panel
    assert isinstance(panel, FakePanel) and built.problem == ""
    panel.press(Button.CONFIRM)
    assert inbox.drain() == [ButtonPressed(Button.CONFIRM)]
    assert isinstance(build_store(config, simulate=True), MemoryEventStore)
    store = build_store(config, simulate=True, directory=tmp_path)
    assert isinstance(store, JournalEventStore)
    store.close()


def test_the_configured_serial_reader_reads_from_its_port() -> None:
    master, slave = os.openpty()
    tty.setraw(slave)
    config = parse_config(f'[reader]\nport = "{os.ttyname(slave)}"\nmode = "barcode"\ndebounce_ms = 0\n')
    reader = build_reader(config.reader, simulate=False)
    assert isinstance(reader, SerialCardReader)
    inbox: Inbox[object] = Inbox()
    reader.start(inbox.submit)
    try:
        assert isinstance(inbox.get(timeout=10), ReaderStatus)
        os.write(master, b"SQ\r\n")
        assert inbox.get(timeout=10) == CardScanned(Card.parse("SQ"), raw="SQ")
    finally:
        reader.close()
        os.close(master)
        os.close(slave)


def test_the_configured_store_lives_where_the_config_says(tmp_path: Path) -> None:
    config = parse_config(f'[store]\npath = "{tmp_path / "data"}"\n')
    store = build_store(config, simulate=False)
    store.append("evening", [{"id": "a", "seq": 1}])
    store.close()
    assert (tmp_path / "data").is_dir()
    reopened = JournalEventStore(tmp_path / "data")
    assert reopened.load("evening") == [{"id": "a", "seq": 1}]
    reopened.close()


def test_a_disabled_gpio_gives_the_fake_panel_even_without_simulate() -> None:
    config = parse_config("[gpio]\nenabled = false\n")
    built = build_panel(config, lambda c: None, simulate=False)
    assert isinstance(built.panel, FakePanel) and built.problem == ""  # not fitted: no alarm


def test_a_disabled_reader_is_none_and_a_simulation_always_has_its_picker() -> None:
    config = parse_config("[reader]\nenabled = false\n")
    assert build_reader(config.reader, simulate=False) is None
    assert isinstance(build_reader(config.reader, simulate=True), SimulatedReader)


def test_a_panel_without_a_loadable_pin_factory_is_a_fake_and_the_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    # a PC, qemu or an unknown board revision: gpiozero finds no pin factory it can load
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    config = parse_config("[gpio]\nconfirm = 17\nback = 27\nbuzzer = 12\n")
    inbox: Inbox[object] = Inbox()
    built = build_panel(config, inbox.submit, simulate=False)
    assert isinstance(built.panel, FakePanel)
    assert "GPIO panel" in built.problem and "no-such-factory" in built.problem
    built.panel.press(Button.CONFIRM)  # the table's on-screen path still works through it
    assert inbox.drain() == [ButtonPressed(Button.CONFIRM)]


def test_a_panel_whose_pin_is_busy_is_a_fake_and_frees_the_pins_it_took(monkeypatch: pytest.MonkeyPatch) -> None:
    from gpiozero import Device, LED

    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")  # gpiozero's default factory: the one "auto" uses
    Device.pin_factory = None
    holder = LED(12)  # another program (or a second table process) holds the buzzer's pin
    try:
        config = parse_config("[gpio]\nconfirm = 17\nback = 27\nbuzzer = 12\n")
        built = build_panel(config, Inbox().submit, simulate=False)
        assert isinstance(built.panel, FakePanel)
        assert "GPIO12" in built.problem or "12" in built.problem
        again = LED(17)  # the confirm pin taken before the failure was let go
        again.close()
    finally:
        holder.close()
        if Device.pin_factory is not None:
            Device.pin_factory.close()
        Device.pin_factory = None


def test_a_working_panel_has_no_problem() -> None:
    config = parse_config('[gpio]\npin_factory = "mock"\nconfirm = 17\n')
    built = build_panel(config, Inbox().submit, simulate=False)
    try:
        assert not isinstance(built.panel, FakePanel) and built.problem == ""
    finally:
        built.panel.close()
