"""docs/aufbau.md, the volunteer's guide (German), agrees with the example config and the
program: the wiring table and diagram name the pins the config uses, on the right header pins,
and every status bar text it explains is one the table shows."""

from __future__ import annotations

import re
from pathlib import Path

from drivers.config import load_config
from ui.i18n import GERMAN

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
GUIDE = (ROOT / "docs" / "aufbau.md").read_text(encoding="utf-8")
# BCM GPIO number -> physical pin on the 40-pin header (the same on every Pi since the B+)
HEADER = {2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27, 5: 29, 6: 31, 13: 33, 19: 35,
          26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26, 1: 28, 12: 32, 16: 36, 20: 38, 21: 40}
GROUND = {6, 9, 14, 20, 25, 30, 34, 39}


def wiring_rows() -> dict[str, tuple[int, int, int]]:
    """config key -> (GPIO, header pin, ground pin) from the guide's wiring table."""
    rows = {}
    for key, gpio, pin, ground in re.findall(r"^\| [^|]+ \| `([\w\[\]]+)` \| GPIO(\d+) \| (\d+) \| .*?pin (\d+)\) \|$",
                                             GUIDE, re.MULTILINE | re.IGNORECASE):
        rows[key] = (int(gpio), int(pin), int(ground))
    return rows


def test_the_wiring_table_matches_the_example_config() -> None:
    pins = load_config(DEPLOY / "skattisch.example.toml").gpio.pins()
    rows = wiring_rows()
    assert set(rows) == set(pins)
    for key, (gpio, pin, ground) in rows.items():
        assert gpio == pins[key], key
        assert HEADER[gpio] == pin, f"{key}: GPIO{gpio} is header pin {HEADER[gpio]}, not {pin}"
        assert ground in GROUND, f"{key}: pin {ground} is not a ground pin"


def test_the_diagram_shows_each_part_on_its_pin() -> None:
    diagram = GUIDE.split("40-polige Leiste von oben gesehen", 1)[1].split("```", 1)[0]
    lines = diagram.splitlines()[1:]
    assert len(lines) == 20
    for row, line in enumerate(lines):
        odd, even = 2 * row + 1, 2 * row + 2
        assert f"({odd:2}) ({even:2})" in line, line
    parts = {"confirm": "Taster ✔", "back": "Taster ↩", "reader_led": "Leser-LED +", "sync_led": "+ Laptop-LED",
             "buzzer": "Summer +", **{f"dealer_leds[{n}]": f"LED Platz {n + 1} +" for n in range(5)}}
    for key, gpio in load_config(DEPLOY / "skattisch.example.toml").gpio.pins().items():
        pin = HEADER[gpio]
        line = lines[(pin - 1) // 2]
        assert f"GPIO{gpio} ({pin:2})" in line or f"({pin:2}) GPIO{gpio}" in line, (key, line)
        side = line.split(f"({pin:2})")[0 if pin % 2 else 1]
        assert parts[key] in side, (key, line)


def test_every_status_bar_text_explained_is_one_the_table_shows() -> None:
    table = GUIDE.split("## 10. Was die Statusleiste sagt", 1)[1]
    explained = re.findall(r"^\| \*\*([^*]+)\*\*", table, re.MULTILINE)
    shown = {GERMAN[key] for key in ("reader_ok", "reader_off", "reader_none", "deck_missing", "sync_none")}
    assert shown <= set(explained)
    assert GERMAN["sync_upto"].replace("{game}", "n") in explained
    banners = re.findall(r"^\| Banner \*\*([^*]+)\*\*", table, re.MULTILINE)
    assert GERMAN["pin_wait"].split(":")[0] in [b.split(":")[0] for b in banners]
    assert GERMAN["deck_not_saved"].split(" (")[0] in [b.split(" (")[0] for b in banners]


def test_the_guide_names_the_commands_a_volunteer_needs() -> None:
    for text in ("git pull && sudo deploy/install.sh", "journalctl -u skattisch", "skattisch selftest",
                 "Einstellungen → Laptop koppeln", "skattisch club pair", "Kartensatz anlernen",
                 "sudo deploy/install.sh --overlay", "skattisch pin"):
        assert text in GUIDE, text
