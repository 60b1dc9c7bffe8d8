"""The settings PIN: a salted hash only, and a growing wait after three wrong PINs (a clock
handed in: no sleeps)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from device.pin import (FIRST_WAIT_SECONDS, LONGEST_WAIT_SECONDS, PinError, PinGuard, PinResult, hash_pin,
                        new_pin, verify_pin)
from drivers.config import ConfigError, load_config

ROOT = Path(__file__).resolve().parents[2]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_same_pin_hashes_differently_each_time_and_verifies() -> None:
    first, second = hash_pin("2468"), hash_pin("2468")
    assert first != second  # a fresh salt each time
    assert "2468" not in first
    assert verify_pin("2468", first) and verify_pin("2468", second)
    assert not verify_pin("2469", first) and not verify_pin("", first)


@pytest.mark.parametrize("bad", ["123", "123456789", "12a4", "", " 1234", "１２３４"])
def test_a_pin_is_four_to_eight_ascii_digits(bad: str) -> None:
    with pytest.raises(PinError, match="4 to 8 digits"):
        hash_pin(bad)


def test_a_generated_pin_has_six_digits() -> None:
    pins = {new_pin() for _ in range(20)}
    assert all(len(pin) == 6 and pin.isdigit() for pin in pins) and len(pins) > 1


def test_the_wait_grows_after_three_wrong_pins_and_a_right_pin_resets_it() -> None:
    clock = Clock()
    guard = PinGuard(hash_pin("2468"), clock=clock)
    assert [guard.attempt("1111").kind for _ in range(2)] == [PinResult.WRONG, PinResult.WRONG]
    waits = []
    for _ in range(8):
        attempt = guard.attempt("1111")
        assert attempt.kind is PinResult.WAIT
        waits.append(attempt.wait_seconds)
        # too early: refused without trying, even the right PIN, and the wait does not grow
        clock.now += attempt.wait_seconds - 1
        early = guard.attempt("2468")
        assert (early.kind, early.wait_seconds) == (PinResult.WAIT, 1.0)
        clock.now += 1
    assert waits == [FIRST_WAIT_SECONDS * 2**n for n in range(5)] + [LONGEST_WAIT_SECONDS] * 3
    assert guard.attempt("2468").kind is PinResult.OK
    assert guard.attempt("1111").kind is PinResult.WRONG  # three free tries again


def test_without_a_pin_the_settings_are_open() -> None:
    guard = PinGuard("")
    assert not guard.locked and guard.attempt("").kind is PinResult.OK


def run_pin(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ui.cli", "pin", "--config", str(config), *args], cwd=ROOT,
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60)


def test_skattisch_pin_generates_prints_once_and_keeps_the_file(tmp_path: Path) -> None:
    config = tmp_path / "skattisch.toml"
    config.write_text("# my table\n[table]\nnumber = 4 # by the window\n\n[ui]\nwidth = 1024\n")
    config.chmod(0o640)
    done = run_pin(config)
    assert done.returncode == 0, done.stderr
    pin = done.stdout.split("the settings PIN is ")[1].split()[0]
    text = config.read_text()
    assert pin not in text
    assert text.startswith("# my table\n[table]\nclub_pin_hash = \"scrypt$")
    assert "number = 4 # by the window\n\n[ui]\nwidth = 1024\n" in text
    assert stat.S_IMODE(config.stat().st_mode) == 0o640
    assert verify_pin(pin, load_config(config).table.club_pin_hash)
    again = run_pin(config, "--if-unset")
    assert (again.returncode, config.read_text()) == (0, text)
    assert "a PIN is set; kept it" in again.stdout
    changed = run_pin(config)  # without --if-unset: a new PIN
    assert changed.returncode == 0 and config.read_text() != text


def test_skattisch_pin_replaces_a_plain_text_pin_by_its_hash(tmp_path: Path) -> None:
    config = tmp_path / "skattisch.toml"
    config.write_text('[table]\nclub_pin = "0042"\nnumber = 2\n')
    with pytest.raises(ConfigError, match="PIN in plain text"):  # the table refuses it as it stands
        load_config(config)
    done = run_pin(config, "--if-unset")
    assert done.returncode == 0, done.stderr
    assert "0042" not in config.read_text() and "club_pin =" not in config.read_text()
    assert verify_pin("0042", load_config(config).table.club_pin_hash)
    assert load_config(config).table.number == 2


def test_skattisch_pin_says_why_it_cannot_write(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root may write a read-only folder")
    folder = tmp_path / "etc"
    folder.mkdir()
    config = folder / "skattisch.toml"
    config.write_text("[table]\n")
    folder.chmod(0o500)
    try:
        done = run_pin(config)
    finally:
        folder.chmod(0o700)
    assert done.returncode == 2 and "cannot be written" in done.stderr and "sudo" in done.stderr


def test_skattisch_pin_asks_twice_on_a_terminal(tmp_path: Path) -> None:
    config = tmp_path / "skattisch.toml"
    config.write_text("[table]\n")
    master, slave = os.openpty()
    process = subprocess.Popen([sys.executable, "-m", "ui.cli", "pin", "--config", str(config)], cwd=ROOT,
                               stdin=slave, stdout=slave, stderr=slave, start_new_session=True)
    os.close(slave)
    try:
        for prompt, answer in ((b"Settings PIN", b"13579\n"), (b"Once more", b"13579\n")):
            seen = b""
            while prompt not in seen:
                seen += os.read(master, 1024)
            os.write(master, answer)
        assert process.wait(timeout=60) == 0
    finally:
        process.kill()
        os.close(master)
    assert verify_pin("13579", load_config(config).table.club_pin_hash)
