"""Members sit down by tapping their cards, at the real table under Xvfb: the roster
the laptop sent last is kept beside the store (the table starts offline), a member card fills
the next free seat with the short name shown large, a second tap stands him up, a playing card at setup
and an unknown card are told apart in words, a member card during play is refused as one; the
list opened carries the member ids. Screenshots in tests/artifacts/screens/800x480/."""

from __future__ import annotations

import json
import os
import termios
import threading
import time
from pathlib import Path

import pytest

from tests.ui.harness import run_table

pytestmark = pytest.mark.ui

ROSTER = [{"name": "Jürgen", "short": "Jürgen", "id": "pJ", "card": "04A1B2C3"},       # RDM6300-style UID
          {"name": "Anna", "short": "Anna", "id": "pA", "card": "0012345678"},          # UID line
          {"name": "Bernd", "short": "Bernd", "id": "pB", "card": "4006381333931"},     # barcode
          {"name": "Carla", "short": "Carla", "id": "pC", "card": "04FF0000"}]
SEATING = ["tag 04a1b2c3", "tag 0012345678", "tag 4006381333931", "tag 04FF0000"]


def test_member_cards_seat_the_players_and_are_told_apart_from_playing_cards(display: str, tmp_path: Path) -> None:
    table_dir = tmp_path / "table"
    table_dir.mkdir()
    (table_dir / "laptop-roster.json").write_text(json.dumps(ROSTER), encoding="utf-8")  # kept from the last ack
    config = f'[store]\npath = "{table_dir}"\n'
    run = run_table(display, [
        "wait_screen setup",
        "scan CJ", 'expect_text "Spielkarte erkannt: zum Hinsetzen die Mitgliedskarte auflegen"',
        "tag DEADBEEF", 'expect_text "Karte unbekannt: bitte am Laptop anmelden"',
        "screenshot member-cards-unknown",
        *SEATING,
        'expect_text "Carla: Platz 4"',
        *[f"expect_large seat_card_{seat}" for seat in range(4)],  # each name large, read across the table
        "screenshot member-cards-seated",
        "tag 0012345678",  # Anna stands up again: her seat is free
        'expect_text "Anna ist aufgestanden"',
        "expect_shown name_1",  # a field again: it can be typed
        "expect_large seat_card_0",
        "screenshot member-cards-anna-up",
        "tag 0012345678",  # and sits down in the free seat
        "expect_large seat_card_1",
        "tap setup_next", "tap length_tournament", "tap setup_next",
        "wait_screen game",
        'expect_text "Jürgen"', 'expect_text "Carla"',
        "tag 04A1B2C3", 'expect_text "Mitgliedskarte von Jürgen: jetzt wird eine Spielkarte erwartet"',
        "screenshot member-cards-in-play",
    ], config=config)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert [line for line in run.report if not line["ok"]] == []
    assert run.step("scan CJ")["refusals"] == ["playing_card_at_setup"]
    assert run.step("tag DEADBEEF")["refusals"] == ["unknown_member_card"]
    opened = [json.loads(line)["event"] for path in (table_dir / "journal").glob("*.jsonl")
              for line in path.read_text(encoding="utf-8").splitlines()]
    first = next(e for e in opened if e["type"] == "list_opened")
    assert first["data"]["players"] == ["Jürgen", "Anna", "Bernd", "Carla"]
    assert first["data"]["members"] == ["pJ", "pA", "pB", "pC"]
    # the figure: the four card reads and the three taps to the game, as the report times them
    seating = [line for line in run.report if line["step"] in {*SEATING, "tap setup_next", "tap length_tournament"}]
    seating = [line for line in seating if line["step"] not in ("tag 0012345678",)] + [run.step("tag 0012345678")]
    print(f"seating a four-table by cards: {len(seating)} reads and taps, "
          f"{sum(line['ms'] for line in seating) / 1000:.2f} s of the table's handling")


@pytest.mark.parametrize("size", ["800x480", "1280x720"])
def test_a_seat_taken_by_card_shows_the_name_large_beside_the_typed_ones(display: str, tmp_path: Path,
                                                                         size: str) -> None:
    """One player types his name (a guest), three tap their cards: the typed seat keeps its
    field, the three card seats show the short names large; the list opens with all four."""
    table_dir = tmp_path / "table"
    table_dir.mkdir()
    (table_dir / "laptop-roster.json").write_text(json.dumps(ROSTER), encoding="utf-8")
    run = run_table(display, [
        "wait_screen setup",
        "tap name_0", 'type "Gast"',
        *SEATING[:3],
        'expect_text "Bernd: Platz 4"',
        "expect_shown name_0",
        *[f"expect_large seat_card_{seat}" for seat in (1, 2, 3)],
        "screenshot member-cards-large",
        "tap setup_next", "tap length_tournament", "tap setup_next",
        "wait_screen game",
    ], size=size, config=f'[store]\npath = "{table_dir}"\n')
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    opened = [json.loads(line)["event"] for path in (table_dir / "journal").glob("*.jsonl")
              for line in path.read_text(encoding="utf-8").splitlines()]
    first = next(e for e in opened if e["type"] == "list_opened")
    assert first["data"]["players"] == ["Gast", "Jürgen", "Anna", "Bernd"]


def test_words_drawn_small_are_not_large(display: str) -> None:
    """The check itself: a button's words (20 px) are not large, the script says why."""
    run = run_table(display, ["wait_screen setup", "expect_large add_player"])
    assert run.returncode == 1
    assert str(run.report[-1]["reason"]).startswith("'Spieler +' is drawn at 20 px"), run.report[-1]


def _tap_when_open(master: int, slave: int) -> None:
    """The four members' cards on the reader, once the table's reader has opened the port
    (pyserial switches the line to raw mode and drops what waited in it)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and termios.tcgetattr(slave)[3] & termios.ICANON:
        time.sleep(0.05)
    time.sleep(0.5)
    for line in (b"04:A1:B2:C3\r\n", b"0a1b2c3d\r\n", b"04b0b0b0\r\n", b"04FF0000\r\n"):
        os.write(master, line)
        time.sleep(0.3)  # a card after the other, as players tap them


PTY_CONFIG = """
[reader]
mode = "uid"
port = "{port}"
deck = "{tmp}/deck.json"
[gpio]
pin_factory = "mock"
confirm = 17
back = 27
[store]
path = "{table}"
"""


def test_member_cards_over_the_pseudo_terminal_reader_seat_a_four_table(display: str, tmp_path: Path) -> None:
    """Not --simulate: the real serial reader (UID lines) on a pty, the four cards written into
    it once the table has opened the port (the roster was kept from the last ack)."""

    table_dir = tmp_path / "table"
    table_dir.mkdir()
    uid_cards = {"Anna": "0A1B2C3D", "Bernd": "04B0B0B0"}  # NFC UIDs of 4 bytes (a UID reader sends 4, 7 or 10)
    roster = [{**p, "card": uid_cards.get(str(p["name"]), p["card"])} for p in ROSTER]
    (table_dir / "laptop-roster.json").write_text(json.dumps(roster), encoding="utf-8")
    master, slave = os.openpty()
    tapped = threading.Thread(target=_tap_when_open, args=(master, slave), daemon=True)
    tapped.start()
    try:
        config = PTY_CONFIG.replace("{port}", os.ttyname(slave)).replace("{table}", str(table_dir))
        run = run_table(display, [
            "wait_screen setup",
            'expect_text "Carla: Platz 4"',
            "screenshot member-cards-pty-seated",
            "tap setup_next", "tap length_tournament", "tap setup_next",
            "wait_screen game",
        ], config=config, simulate=False)
    finally:
        os.close(master)
        os.close(slave)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    opened = [json.loads(line)["event"] for path in (table_dir / "journal").glob("*.jsonl")
              for line in path.read_text(encoding="utf-8").splitlines()]
    first = next(e for e in opened if e["type"] == "list_opened")
    assert first["data"]["players"] == ["Jürgen", "Anna", "Bernd", "Carla"]
    assert first["data"]["members"] == ["pJ", "pA", "pB", "pC"]
