"""The config file: defaults, every key's check and message, finding the file, the example."""

from __future__ import annotations

import argparse
import dataclasses
import doctest
import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

import drivers.config
import drivers.panel
from device.errors import SkatError
from device.pin import hash_pin, verify_pin
from drivers.config import (
    SECTIONS,
    Config,
    ConfigError,
    GpioConfig,
    ReaderConfig,
    StoreConfig,
    SyncConfig,
    TableConfig,
    UiConfig,
    default_data_dir,
    find_config,
    load_config,
    parse_config,
    to_toml,
)
from ui.commands import config as config_command

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "deploy" / "skattisch.example.toml"


def error_of(text: str) -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        parse_config(text, "table.toml")
    return caught.value


def test_the_module_examples_run() -> None:
    for module in (drivers.config, drivers.panel):
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert result.failed == 0 and result.attempted > 0, module.__name__


# -- defaults ----------------------------------------------------------------------------------


def test_an_empty_file_gives_the_defaults() -> None:
    config = parse_config("", "empty.toml")
    assert config == Config(source="empty.toml")
    assert config.table == TableConfig(number=1, name="", language="de", club_pin_hash="")
    assert config.reader == ReaderConfig(
        enabled=True, port="/dev/skattisch-reader", baud=9600, mode="barcode", deck=None, debounce_ms=1000
    )
    assert config.gpio.enabled and config.gpio.pin_factory == "auto"
    assert config.gpio.pins() == {}  # no part fitted unless the file says where
    assert config.gpio.hold_seconds == 1.0
    assert config.sync == SyncConfig(url="", token="", interval_seconds=30)
    assert config.ui == UiConfig(fullscreen=True, width=800, height=480)


def test_the_store_defaults_to_the_users_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert parse_config("").store.path == tmp_path / "skattisch"
    assert default_data_dir({"XDG_DATA_HOME": ""}) == Path.home() / ".local" / "share" / "skattisch"


def test_given_keys_override_only_themselves() -> None:
    config = parse_config("[gpio]\nconfirm = 4\nhold_seconds = 2\n[ui]\nfullscreen = false\n")
    assert config.gpio == GpioConfig(confirm=4, hold_seconds=2.0)
    assert config.ui == UiConfig(fullscreen=False)
    assert config.reader == ReaderConfig()


def test_dotted_keys_and_inline_tables_are_toml_too() -> None:
    config = parse_config('reader.baud = 19200\ntable = { number = 4, name = "Am Fenster" }\n')
    assert (config.reader.baud, config.table.number, config.table.name) == (19200, 4, "Am Fenster")


# -- every key's check -----------------------------------------------------------------------

BAD_VALUES = [
    # (file text, the message after "table.toml, line N: ")
    ("[table]\nnumber = 0", "table.number = 0 must be between 1 and 999"),
    ('[table]\nnumber = "3"', 'table.number = "3" must be a whole number (without quotes)'),
    ("[table]\nnumber = 2.5", "table.number = 2.5 must be a whole number"),
    ("[table]\nnumber = true", "table.number = true must be a whole number"),
    ("[table]\nname = 3", "table.name = 3 must be text in quotes"),
    ('[table]\nlanguage = "fr"', 'table.language = "fr" must be one of "de", "en"'),
    (
        '[table]\nclub_pin = "2468"',
        'table.club_pin = "2468" is a PIN in plain text, which anyone who reads this file could use: '
        "run 'sudo skattisch pin' to store only its hash (table.club_pin_hash)",
    ),
    (
        '[table]\nclub_pin_hash = "2468"',
        'table.club_pin_hash = "2468" is not a PIN hash (scrypt$N$r$p$salt$hash): set the PIN with '
        "'sudo skattisch pin'",
    ),
    ('[table]\nroster = "Anna"', 'table.roster = "Anna" must be a list of names in quotes'),
    ('[table]\nroster = ["Anna", "Anna"]', 'table.roster = ["Anna", "Anna"] names Anna more than once'),
    ('[reader]\nenabled = "yes"', 'reader.enabled = "yes" must be true or false'),
    (
        '[reader]\nport = "ttyUSB0"',
        'reader.port = "ttyUSB0" must be a device path such as "/dev/serial/by-id/usb-..." or '
        '"/dev/skattisch-reader", or a pyserial URL such as "spy:///dev/ttyUSB0"',
    ),
    (
        '[reader]\nport = "http://reader"',
        'reader.port = "http://reader" is not a pyserial URL: they start with one of alt://, cp2110://, '
        "hwgrep://, loop://, rfc2217://, socket://, spy://",
    ),
    (
        "[reader]\nbaud = 9601",
        "reader.baud = 9601 is not a standard baud rate: one of 1200, 2400, 4800, 9600, 19200, 38400, "
        "57600, 115200, 230400",
    ),
    ('[reader]\nmode = "rfid"', 'reader.mode = "rfid" must be one of "barcode", "rdm6300", "uid"'),
    ("[reader]\ndeck = 1", "reader.deck = 1 must be text in quotes"),
    ("[reader]\ndebounce_ms = -1", "reader.debounce_ms = -1 must be between 0 and 10000"),
    ("[reader]\nconfirm_ms = 5000", "reader.confirm_ms = 5000 must be between 0 and 2000"),
    ("[gpio]\nenabled = 1", "gpio.enabled = 1 must be true or false"),
    ('[gpio]\npin_factory = "pigpio"', 'gpio.pin_factory = "pigpio" must be one of "auto", "lgpio", "mock"'),
    (
        "[gpio]\nconfirm = 28",
        "gpio.confirm = 28 is not a GPIO pin: use the BCM number 0 to 27 (GPIO17 is 17, not the "
        "header's pin 11); leave the key out if the part is not fitted",
    ),
    ('[gpio]\nback = "GPIO27"', 'gpio.back = "GPIO27" is not a GPIO pin: use the BCM number 0 to 27'),
    ("[gpio]\nreader_led = -1", "gpio.reader_led = -1 is not a GPIO pin"),
    ("[gpio]\nsync_led = false", "gpio.sync_led = false is not a GPIO pin"),
    ("[gpio]\nbuzzer = 40", "gpio.buzzer = 40 is not a GPIO pin"),
    ("[gpio]\nhold_seconds = 0.1", "gpio.hold_seconds = 0.1 must be between 0.3 and 10 seconds"),
    ('[gpio]\nhold_seconds = "1s"', 'gpio.hold_seconds = "1s" must be a number of seconds, e.g. 1.5'),
    ("[gpio]\nhold_seconds = nan", "gpio.hold_seconds = nan must be a number of seconds"),
    ("[gpio]\ndealer_leds = 5", "gpio.dealer_leds = 5 must be a list of BCM pin numbers, Platz 1 first"),
    (
        "[gpio]\ndealer_leds = [1, 2, 3, 4, 5, 6]",
        "gpio.dealer_leds = [1, 2, 3, 4, 5, 6] has 6 pins: at most 5, one per seat",
    ),
    ("[gpio]\ndealer_leds = [5, 31]", "gpio.dealer_leds = [5, 31] has 31, which is not a GPIO pin"),
    ('[store]\npath = ""', 'store.path = "" must not be empty'),
    (
        '[sync]\nurl = "skat-laptop:8080"',
        'sync.url = "skat-laptop:8080" must be the laptop\'s address, e.g. '
        '"http://skat-laptop.local:8080", or "" for no sync',
    ),
    ('[sync]\nurl = "ftp://laptop"', 'sync.url = "ftp://laptop" must be the laptop\'s address'),
    ("[sync]\ntoken = 1234", "sync.token = 1234 must be text in quotes"),
    ("[sync]\ninterval_seconds = 0", "sync.interval_seconds = 0 must be between 1 and 3600"),
    ('[ui]\nfullscreen = "no"', 'ui.fullscreen = "no" must be true or false'),
    ("[ui]\nwidth = 100", "ui.width = 100 must be between 320 and 7680"),
    ("[ui]\nheight = 480.0", "ui.height = 480.0 must be a whole number"),
]


@pytest.mark.parametrize(("text", "message"), BAD_VALUES, ids=[m.split(" ")[0] for _, m in BAD_VALUES])
def test_a_bad_value_names_file_line_key_and_what_is_allowed(text: str, message: str) -> None:
    error = error_of(text)
    assert str(error).startswith(f"table.toml, line 2: {message}")
    assert error.key == message.split(" ")[0]
    assert error.line == 2
    assert isinstance(error, SkatError) and isinstance(error, ValueError)


def test_every_key_has_a_bad_value_case() -> None:
    checked = {message.split(" ")[0] for _, message in BAD_VALUES}
    every = {f"{section}.{f.name}" for section, cls in SECTIONS.items() for f in dataclasses.fields(cls)}
    assert every - checked == set()


def test_good_values_at_the_edges_pass() -> None:
    text = """
        [table]
        number = 999
        club_pin = ""
        club_pin_hash = "HASH_0042"
        language = "en"
        [reader]
        port = "spy:///dev/ttyUSB0?file=/tmp/reader.log"
        baud = 230400
        mode = "uid"
        deck = "decks/club.json"
        debounce_ms = 0
        [gpio]
        pin_factory = "mock"
        confirm = 0
        back = 27
        hold_seconds = 10
        dealer_leds = []
        [sync]
        url = "https://laptop.example:8443/skat"
        interval_seconds = 3600
        [ui]
        width = 320
        height = 4320
    """
    config = parse_config(text.replace("HASH_0042", PIN_0042), "t.toml", base_dir=Path("/etc/skattisch"))
    assert verify_pin("0042", config.table.club_pin_hash)
    assert config.reader.deck == Path("/etc/skattisch/decks/club.json")  # next to the file
    assert config.gpio.pins() == {"confirm": 0, "back": 27}
    assert config.gpio.hold_seconds == 10.0 and isinstance(config.gpio.hold_seconds, float)


def test_a_pin_used_twice_is_refused() -> None:
    error = error_of("[gpio]\nconfirm = 17\ndealer_leds = [5, 17]\n")
    assert str(error) == (
        "table.toml, line 3: gpio.dealer_leds[1] = 17 is already used by gpio.confirm: "
        "each pin drives one part only"
    )
    assert error.key == "gpio.dealer_leds"
    assert "gpio.buzzer = 6 is already used by gpio.dealer_leds[0]" in str(
        error_of("[gpio]\ndealer_leds = [6]\nbuzzer = 6\n")
    )


def test_a_tag_reader_needs_a_deck() -> None:
    error = error_of('[reader]\nmode = "rdm6300"\n')
    assert error.key == "reader.mode" and error.line == 2
    assert "reader.mode = \"rdm6300\" needs reader.deck" in str(error)
    assert "skattisch deck learn" in str(error)
    assert parse_config('[reader]\nenabled = false\nmode = "rdm6300"\n').reader.deck is None


# -- unknown keys and broken files -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[reader]\nbuad = 9600", "line 2: unknown key reader.buad: did you mean reader.baud?"),
        ("[gpio]\ndealer_led = [5]", "line 2: unknown key gpio.dealer_led: did you mean gpio.dealer_leds?"),
        ("[raeder]\nbaud = 9600", "line 1: unknown section [raeder]: did you mean [reader]?"),
        ("[table]\nbaud = 9600", "line 2: unknown key table.baud: baud belongs in section [reader]"),
        ("baud = 9600", "line 1: unknown key baud: did you mean reader.baud (in section [reader])?"),
        (
            "[table]\ncolour = 1",
            "line 2: unknown key table.colour: the keys of [table] are number, name, language, club_pin_hash",
        ),
        (
            "[extras]\nx = 1",
            "line 1: unknown section [extras]: the sections are [table], [reader], [gpio], [store], [sync], [ui]",
        ),
        ("reader = 5", "line 1: reader = 5 must be a section: write [reader] on a line of its own"),
    ],
)
def test_unknown_keys_are_refused_with_a_hint(text: str, message: str) -> None:
    assert str(error_of(text)).startswith(f"table.toml, {message}")


def test_a_toml_syntax_error_names_the_line() -> None:
    error = error_of('[table]\nnumber = 3\nname = "Tisch 3\n')
    assert error.line == 3
    assert str(error).startswith("table.toml, line 3: not valid TOML: ")
    assert "(at line" not in str(error)
    assert error_of("[table]\nnumber = 1\nnumber = 2\n").line == 3  # a key given twice


def test_a_missing_or_unreadable_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"nope\.toml: no such file"):
        load_config(tmp_path / "nope.toml")
    latin = tmp_path / "latin.toml"
    latin.write_bytes('[table]\nname = "Tisch Gr\xfcn"\n'.encode("latin-1"))
    with pytest.raises(ConfigError, match="is not UTF-8 text"):
        load_config(latin)
    with pytest.raises(ConfigError, match="cannot be read"):
        load_config(tmp_path)  # a folder


def test_a_file_with_a_byte_order_mark_loads(tmp_path: Path) -> None:
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf[table]\nname = \"Tisch Gr\xc3\xbcn\"\n")
    config = load_config(path)
    assert (config.table.name, config.source) == ("Tisch Grün", str(path))


def test_relative_paths_are_taken_from_the_files_folder(tmp_path: Path) -> None:
    path = tmp_path / "conf" / "skattisch.toml"
    path.parent.mkdir()
    path.write_text('[reader]\ndeck = "deck.json"\n[store]\npath = "~/lists"\n', encoding="utf-8")
    config = load_config(path)
    assert config.reader.deck == tmp_path / "conf" / "deck.json"
    assert config.store.path == Path.home() / "lists"


# -- where the file is found -------------------------------------------------------------------


def test_find_config_order(tmp_path: Path) -> None:
    system, home = tmp_path / "etc" / "skattisch.toml", tmp_path / "home"
    user = home / ".config" / "skattisch" / "skattisch.toml"
    assert find_config({}, system=system, home=home) is None
    user.parent.mkdir(parents=True)
    user.write_text("")
    assert find_config({}, system=system, home=home) == user
    assert find_config({"XDG_CONFIG_HOME": str(tmp_path / "xdg")}, system=system, home=home) is None
    system.parent.mkdir()
    system.write_text("")
    assert find_config({}, system=system, home=home) == system
    chosen = tmp_path / "chosen.toml"  # the variable wins, even before the file exists
    assert find_config({"SKATTISCH_CONFIG": str(chosen)}, system=system, home=home) == chosen


def test_load_config_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "t.toml"
    path.write_text("[table]\nnumber = 7\n")
    monkeypatch.setenv("SKATTISCH_CONFIG", str(path))
    assert load_config().table.number == 7
    monkeypatch.setenv("SKATTISCH_CONFIG", str(tmp_path / "missing.toml"))
    with pytest.raises(ConfigError, match="missing.toml: no such file"):
        load_config()


# -- showing the settings ----------------------------------------------------------------------

FULL = """
[table]
number = 3
name = "Am Fenster"
club_pin_hash = "PIN_HASH"
[reader]
mode = "uid"
deck = "/etc/skattisch/deck.json"
[gpio]
confirm = 17
dealer_leds = [5, 6, 13]
[sync]
url = "http://skat-laptop.local:8080"
token = "s3cr3t \\"quoted\\" \u00e4"
"""


PIN_0042 = hash_pin("0042")
FULL = FULL.replace("PIN_HASH", hash_pin("2468"))


def test_to_toml_reads_back_as_the_same_config() -> None:
    config = parse_config(FULL, "full.toml")
    assert parse_config(to_toml(config, hide_secrets=False), "full.toml") == config


def test_secrets_are_hidden_when_shown() -> None:
    config = parse_config(FULL, "full.toml")
    shown = config.to_dict()
    assert (shown["table"]["club_pin_hash"], shown["sync"]["token"]) == ("****", "****")
    assert "s3cr3t" not in to_toml(config) and "scrypt" not in to_toml(config)
    assert parse_config("").to_dict()["sync"]["token"] == ""  # nothing to hide


def run_command(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser()
    config_command.add_arguments(parser)
    code = config_command.run(parser.parse_args(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_config_command_prints_the_settings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.toml"
    path.write_text(FULL, encoding="utf-8")
    code, out, err = run_command([str(path)], capsys)
    assert code == 0
    assert f"Read from {path}: the file is fine." in out
    assert "s3cr3t" not in out
    assert "warning: reader.deck /etc/skattisch/deck.json does not exist yet: teach the deck in" in err
    assert "the table starts without the reader" in err
    assert "# club_pin_hash is set (hidden)" in out and "# token is set (hidden)" in out
    shown = parse_config(out, "full.toml")  # the output is itself a config file
    full = parse_config(FULL, "full.toml")
    without_secrets = dataclasses.replace(
        full,
        table=dataclasses.replace(full.table, club_pin_hash=""),
        sync=dataclasses.replace(full.sync, token=""),
    )
    assert shown == without_secrets


def test_the_config_command_prints_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.toml"
    path.write_text("[gpio]\nbuzzer = 18\n", encoding="utf-8")
    code, out, _ = run_command([str(path), "--json"], capsys)
    shown = json.loads(out)
    assert code == 0
    assert shown["source"] == str(path)
    assert shown["gpio"]["buzzer"] == 18 and shown["gpio"]["confirm"] is None
    assert shown["reader"]["baud"] == 9600


def test_the_config_command_fails_with_exit_2_on_a_bad_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "t.toml"
    path.write_text("[reader]\nbaud = 9601\n", encoding="utf-8")
    code, out, err = run_command([str(path)], capsys)
    assert (code, out) == (2, "")
    assert err.startswith(f"skattisch config: {path}, line 2: reader.baud = 9601 is not a standard baud rate")


def test_the_config_command_without_a_file_shows_what_is_in_force(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "t.toml"
    path.write_text("[table]\nnumber = 5\n", encoding="utf-8")
    monkeypatch.setenv("SKATTISCH_CONFIG", str(path))
    from ui.cli import main

    assert main(["config", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["table"]["number"] == 5


# -- the example file in deploy/ ---------------------------------------------------------------


def test_the_example_loads_as_the_documented_table() -> None:
    config = load_config(EXAMPLE)
    assert config == Config(
        table=TableConfig(),
        reader=ReaderConfig(deck=Path("/var/lib/skattisch/deck.json")),  # beside the lists, writable
        gpio=GpioConfig(
            confirm=17, back=27, dealer_leds=(5, 6, 13, 19, 26), reader_led=22, sync_led=23, buzzer=18
        ),
        store=StoreConfig(path=Path("/var/lib/skattisch/lists")),
        sync=SyncConfig(),
        ui=UiConfig(),
        source=str(EXAMPLE),
    )


def example_keys() -> dict[str, tuple[bool, str]]:
    """Each key the example documents: whether it is set (not commented out), its "default:"."""
    found: dict[str, tuple[bool, str]] = {}
    section, default = "", None
    for line in EXAMPLE.read_text(encoding="utf-8").splitlines():
        header = re.match(r"^\[(\w+)\]$", line)
        if header:
            section, default = header.group(1), None
            continue
        claim = re.match(r"^#\s*default:\s*(.+)$", line)
        if claim:
            default = claim.group(1)
            continue
        key = re.match(r"^(#\s*)?(\w+)\s*=", line)
        known = {f.name for f in dataclasses.fields(SECTIONS[section])} if section in SECTIONS else set()
        if key and key.group(2) in known:
            dotted = f"{section}.{key.group(2)}"
            assert dotted not in found, f"{dotted} is documented twice"
            assert default is not None, f"{dotted} has no 'default:' line above it"
            found[dotted] = (key.group(1) is None, default)
            default = None
    return found


def test_the_example_documents_every_key() -> None:
    every = {f"{section}.{f.name}" for section, cls in SECTIONS.items() for f in dataclasses.fields(cls)}
    assert set(example_keys()) == every


def test_the_defaults_the_example_claims_are_the_real_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    defaults = Config()
    for dotted, (_, claim) in example_keys().items():
        section, key = dotted.split(".")
        actual: Any = getattr(getattr(defaults, section), key)
        if claim in ("none", "not fitted"):
            assert actual is None, dotted
        elif claim.startswith("~"):
            assert actual == Path(claim.split(" ")[0]).expanduser(), dotted
        else:
            claimed = tomllib.loads(f"v = {claim}")["v"]
            assert claimed == (list(actual) if isinstance(actual, tuple) else actual), dotted
