"""``skattisch selftest``'s checks against simulated hardware: a pty as the card reader,
gpiozero's MockFactory as the panel, a real folder as the store. The operator is played by
the test: it lays cards (writes RDM6300 frames to the pty), presses buttons (drives pins) and
answers what it "sees" from the pins' real states."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from drivers.adapters import build_reader, load_deck
from drivers.config import Config, load_config
from drivers.deck import Deck
from drivers.panel import open_panel
from drivers.reader import rdm6300_frame
from drivers.selftest import CHECKS, Check, Context, Outcome, Verdict, register_check, run_checks

ROOT = Path(__file__).resolve().parents[2]
TAGS = {"0A00C4E1F2": "CJ", "0A00C4E1F3": "SA", "0A00C4E1F4": "H7"}

CONFIG = """
[reader]
mode = "rdm6300"
port = "{port}"
deck = "{tmp}/deck.json"
debounce_ms = 0
[gpio]
pin_factory = "mock"
confirm = 17
back = 27
dealer_leds = [5, 6, 13]
reader_led = 22
buzzer = 18
[store]
path = "{tmp}/lists"
"""


class Hands:
    """The volunteer, played by the test. ``wired``: False simulates a button not connected."""

    def __init__(self, master: int, panel: object, *, wired: bool = True) -> None:
        self.master = master
        self.factory = panel.pin_factory  # type: ignore[attr-defined]
        self.wired = wired
        self.told: list[str] = []
        self.asked: list[str] = []

    def tell(self, text: str) -> None:
        self.told.append(text)
        if text.startswith("Lay 3"):
            for tag in TAGS:  # an RDM6300 repeats a tag while it lies there
                os.write(self.master, rdm6300_frame(tag) * 3)
        press = re.match(r"Press the \w+ button \(GPIO(\d+)\)", text)
        if press and self.wired:
            pin = self.factory.pin(int(press.group(1)))
            pin.drive_low()
            pin.drive_high()

    def confirm(self, question: str) -> bool:
        self.asked.append(question)
        pin = int(re.search(r"GPIO(\d+)", question).group(1))  # type: ignore[union-attr]
        if "buzzer" in question:
            self.factory.pin(pin).states  # noqa: B018  (the history of a real mock pin)
            return any(state.state for state in self.factory.pin(pin).states)
        outputs = [n for n in (5, 6, 13, 22) if n != pin]
        return bool(self.factory.pin(pin).state) and not any(self.factory.pin(n).state for n in outputs)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[Config, int]]:
    master, slave = os.openpty()
    Deck(TAGS).save(tmp_path / "deck.json")
    path = tmp_path / "skattisch.toml"
    path.write_text(CONFIG.replace("{port}", os.ttyname(slave)).replace("{tmp}", str(tmp_path)))
    try:
        yield load_config(path), master
    finally:
        os.close(master)
        os.close(slave)


def run_all(config: Config, master: int, *, wired: bool = True, wait: float = 5.0) -> tuple[list[Outcome], Hands]:
    ctx = Context(config, operator=None, wait_seconds=wait)  # type: ignore[arg-type]
    ctx.panel = open_panel(config.gpio, ctx.submit)
    hands = Hands(master, ctx.panel, wired=wired)
    ctx.operator = hands
    ctx.reader = build_reader(config.reader, simulate=False, deck=load_deck(config.reader).deck)
    ctx.reader.start(ctx.submit)
    try:
        return run_checks(ctx), hands
    finally:
        ctx.reader.close()
        ctx.panel.close()


def test_every_part_passes_on_the_simulated_table(table: tuple[Config, int]) -> None:
    outcomes, hands = run_all(*table)
    lines = [o.line() for o in outcomes]
    assert [(o.name, o.verdict) for o in outcomes] == [
        ("reader", Verdict.PASS), ("button confirm", Verdict.PASS), ("button back", Verdict.PASS),
        ("LED Platz 1", Verdict.PASS), ("LED Platz 2", Verdict.PASS), ("LED Platz 3", Verdict.PASS),
        ("LED reader", Verdict.PASS), ("buzzer", Verdict.PASS), ("store", Verdict.PASS), ("clock", Verdict.PASS),
        ("laptop", Verdict.SKIP)], lines
    assert "read CJ, SA, H7 on /dev/pts/" in lines[0]
    assert lines[-1] == "SKIP  laptop   nicht gekoppelt"
    assert len(hands.asked) == 5  # four LEDs and the buzzer
    assert list((Path(table[0].store.path)).iterdir()) == []  # the probe is gone again


def test_a_button_not_wired_and_cards_not_in_the_deck_fail_with_what_to_do(
    table: tuple[Config, int], tmp_path: Path
) -> None:
    (tmp_path / "deck.json").write_text('{"v": 1, "cards": {"FFFFFFFFFF": "CJ"}}')
    config, master = table
    config = load_config(tmp_path / "skattisch.toml")
    outcomes, _ = run_all(config, master, wired=False, wait=0.3)
    by_name = {o.name: o for o in outcomes}
    assert by_name["reader"].verdict is Verdict.FAIL and "teach the deck in" in by_name["reader"].detail
    assert by_name["button confirm"].line() == ("FAIL  button confirm no press on GPIO17 in time: "
                                                "check its wire to GND")


def test_a_store_folder_the_table_cannot_write_fails(tmp_path: Path) -> None:
    target = tmp_path / "a-file"
    target.write_text("")
    config = load_config_text(f'[store]\npath = "{target}/lists"\n', tmp_path)
    [outcome] = run_checks(Context(config, operator=None), [c for c in CHECKS if c.name == "store"])  # type: ignore[arg-type]
    assert outcome.verdict is Verdict.FAIL and str(target) in outcome.detail


def test_the_clock_fails_before_the_network_set_it(tmp_path: Path) -> None:
    config = load_config_text("", tmp_path)
    [outcome] = run_checks(Context(config, operator=None, clock=lambda: 0.0),  # type: ignore[arg-type]
                           [c for c in CHECKS if c.name == "clock"])
    assert outcome.verdict is Verdict.FAIL and "no battery clock" in outcome.detail


def test_a_check_is_pluggable() -> None:
    before = list(CHECKS)
    try:
        register_check(Check("laptop", lambda ctx: [Outcome.passed("laptop", "synchronisiert bis Spiel 3")]))
        assert [c.name for c in CHECKS] == [c.name for c in before]
        [outcome] = run_checks(Context(Config(), operator=None), [CHECKS[-1]])  # type: ignore[arg-type]
        assert outcome.line() == "PASS  laptop   synchronisiert bis Spiel 3"
    finally:
        CHECKS[:] = before


def test_the_command_prints_a_line_per_part_and_fails_on_a_fault(tmp_path: Path) -> None:
    config = tmp_path / "skattisch.toml"
    config.write_text(f'[reader]\nenabled = false\n[gpio]\nenabled = false\n[store]\npath = "{tmp_path}/lists"\n')
    done = subprocess.run([sys.executable, "-m", "ui.cli", "selftest", "--no-screen", "--config", str(config)],
                          cwd=ROOT, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60)
    assert done.returncode == 0, done.stderr
    assert re.findall(r"^(PASS|FAIL|SKIP)\s+(\w+)", done.stdout, re.MULTILINE) == [
        ("SKIP", "reader"), ("SKIP", "buttons"), ("SKIP", "leds"), ("SKIP", "buzzer"), ("PASS", "store"),
        ("PASS", "clock"), ("SKIP", "laptop")]
    assert done.stdout.rstrip().endswith("7 of 7 fine")


def load_config_text(text: str, folder: Path) -> Config:
    path = folder / "c.toml"
    path.write_text(text)
    return load_config(path)


def test_the_laptop_check_syncs_with_the_paired_laptop_over_http(tmp_path: Path) -> None:
    from tests.e2e.sync_helpers import Collector, pair_table

    lists = tmp_path / "lists"
    lists.mkdir()
    config = load_config_text(f'[store]\npath = "{lists}"\n', tmp_path)
    laptop = [c for c in CHECKS if c.name == "laptop"]
    collector = Collector(tmp_path / "club.db")
    try:
        pair_table(lists, collector, name="Tisch 3")
        [outcome] = run_checks(Context(config, operator=None, wait_seconds=5), laptop)  # type: ignore[arg-type]
        assert outcome.verdict is Verdict.PASS, outcome.line()
        assert "answers; it has this table's entries up to 0" in outcome.detail
    finally:
        collector.stop()
    [away] = run_checks(Context(config, operator=None, wait_seconds=2), laptop)  # type: ignore[arg-type]
    assert away.verdict is Verdict.FAIL and collector.url in away.detail and "is the laptop on" in away.detail
