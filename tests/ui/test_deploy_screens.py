"""What a volunteer's table does when the deck is missing or cannot be saved, the PIN's wait,
and the panel's long press: the real table under Xvfb (screenshots 40-46)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from device.pin import hash_pin
from drivers.deck import TEACH_ORDER
from tests.ui.harness import ARTIFACTS, ROOT, run_table

pytestmark = pytest.mark.ui

NO_DECK = """
[table]
number = 7
[reader]
mode = "rdm6300"
port = "{port}"
deck = "{tmp}/deck.json"
[gpio]
pin_factory = "mock"
confirm = 17
back = 27
[store]
path = "{tmp}/lists"
"""


def test_without_a_deck_the_table_starts_says_so_and_takes_results_by_tap(display: str, tmp_path: Path) -> None:
    # a real serial reader (on a pty) and gpiozero's mock pins: not --simulate
    master, slave = os.openpty()
    try:
        config = NO_DECK.replace("{port}", os.ttyname(slave))
        checked = tmp_path / "skattisch.toml"
        checked.write_text(config.replace("{tmp}", str(tmp_path)))
        # the unit's ExecStartPre: warns, does not stop the start (no crash-loop)
        check = subprocess.run([sys.executable, "-m", "ui.cli", "config", str(checked)], cwd=ROOT,
                               capture_output=True, text=True, timeout=60)
        assert check.returncode == 0, check.stderr
        assert "deck.json does not exist yet: teach the deck in" in check.stderr
        steps = [
            "wait_screen game",
            'expect_text "Kartensatz fehlt: anlernen"',
            "screenshot 40-deck-missing-status-bar",
            # results can still be entered by tap: all three pass, eingepasst
            "tap pass", "tap pass", "tap pass",
            'expect_text "eingepasst"',
            "tap settings",
            "wait_screen settings",
            'expect_text "Kartensatz fehlt: anlernen"',
            "screenshot 41-deck-missing-settings",
        ]
        run = run_table(display, steps, config=config, simulate=False, args=["--players", "Anna,Bernd,Carla"])
    finally:
        os.close(master)
        os.close(slave)
    run.check()
    assert "deck.json does not exist yet" in run.stderr  # said in the journal, too
    assert any(line["events"] for line in run.report if line["step"] == "tap pass")
    assert (ARTIFACTS / "800x480" / "41-deck-missing-settings.png").stat().st_size > 0


UNWRITABLE = """
[table]
club_pin_hash = "{pin_hash}"
[reader]
deck = "/sys/skattisch-deck.json"
[store]
path = "{tmp}/lists"
"""


def test_teach_in_unsaved_pin_wait_and_long_press_shutdown(display: str) -> None:
    config = UNWRITABLE.replace("{pin_hash}", hash_pin("2468"))
    pin = ["tap digit_2", "tap digit_4", "tap digit_6", "tap digit_8", "tap pin_ok"]
    wrong = ["tap settings", "tap digit_1", "tap digit_1", "tap digit_1", "tap digit_1", "tap pin_ok"]
    steps = [
        "wait_screen game",
        "tap settings", *pin,
        "wait_screen settings",
        # /sys cannot be written, not even by root: the 32 cards taught are kept all the same
        "tap deck_teach",
        *[f"scan {card.code}" for card in TEACH_ORDER],
        'expect_text "Kartensatz nicht gespeichert"',
        "screenshot 42-teach-in-not-saved",
        "tap teach_done",
        "expect_screen settings",
        "tap close_settings",
        "wait_screen game",
        # three wrong PINs, then a wait
        *wrong, 'expect_text "Falsche PIN"',
        *wrong, 'expect_text "Falsche PIN"',
        *wrong, 'expect_text "Zu viele falsche PINs: nächster Versuch in 30 s"',
        "screenshot 43-pin-wait",
        "expect_screen game",
        # the panel's long press: asks first, the second one shuts down
        "press menu",
        'expect_text "Tisch ausschalten?"',
        "screenshot 44-long-press-shutdown",
        "press menu",
    ]
    run = run_table(display, steps, config=config, args=["--players", "Anna,Bernd,Carla"])
    assert run.returncode == 0, run.stderr[-3000:]
    failed = [line for line in run.report if not line["ok"]]
    assert failed == []
    assert "skattisch run: shutting down" in run.stdout
    assert run.step("tap pin_ok", 4)["screen"] == "game"  # the third wrong PIN: still locked
    assert run.step('expect_text "Zu viele falsche PINs: nächster Versuch in 30 s"')["ok"]
    assert run.sent("press menu") == ["ButtonPressed(button=<Button.MENU: 'menu'>, source='panel')"]


def test_settings_the_first_boot_could_not_apply_are_said_on_the_screen(
        display: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # what skattisch first-boot leaves for a card with a typo in the table's number
    from drivers.firstboot import Actions, Paths, apply_settings

    config = tmp_path / "skattisch.toml"
    config.write_text(f'[table]\nnumber = 4\n[store]\npath = "{tmp_path}/lists"\n', encoding="utf-8")
    settings = tmp_path / "skattisch-settings.txt"
    settings.write_text("table = zwölf\npin = 2468\n", encoding="utf-8")
    problems = tmp_path / "first-boot-problems.json"
    outcome = apply_settings(Paths(settings=settings, config=config, problems=problems, wpa=tmp_path / "wpa"), Actions())
    assert [p.key for p in outcome.problems] == ["table"]
    monkeypatch.setenv("SKATTISCH_FIRST_BOOT_PROBLEMS", str(problems))
    steps = ['expect_text "„zwölf“ ist keine Tischnummer (1 bis 999). In skattisch-settings.txt auf der SD-Karte '
             'korrigieren."', "screenshot 47-first-boot-problem"]
    run = run_table(display, steps, config=config.read_text(encoding="utf-8"))
    run.check()
    assert "'zwölf' is not a table number" not in run.stderr and "„zwölf“" in run.stderr  # and in the journal
    assert (ARTIFACTS / "800x480" / "47-first-boot-problem.png").stat().st_size > 0
