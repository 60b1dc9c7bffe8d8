"""The table's configuration: one TOML file, every key with a default, every mistake named.

(One module over 600 lines on purpose: every key, its default and its check read as one table;
split, a key's default and its check would sit in different files.)

An empty file (or none at all) gives a working configuration; ``deploy/skattisch.example.toml``
documents every key. Where the file is looked for: :func:`find_config`.

>>> config = parse_config('[table]\\nnumber = 3\\n[reader]\\nbaud = 19200\\n', "table3.toml")
>>> config.table.number, config.reader.baud, config.reader.mode
(3, 19200, 'barcode')
>>> parse_config('[reader]\\nbaud = 9601\\n', "table3.toml")
Traceback (most recent call last):
...
drivers.config.ConfigError: table3.toml, line 2: reader.baud = 9601 is not a standard baud \
rate: one of 1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400
>>> parse_config('[reader]\\nbuad = 9600\\n', "table3.toml")
Traceback (most recent call last):
...
drivers.config.ConfigError: table3.toml, line 2: unknown key reader.buad: did you mean \
reader.baud?
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from device.errors import SkatError

ENV_VAR = "SKATTISCH_CONFIG"
SYSTEM_CONFIG = Path("/etc/skattisch/skattisch.toml")

Language = Literal["de", "en"]
ReaderMode = Literal["barcode", "rdm6300", "uid"]
PinFactoryName = Literal["auto", "lgpio", "mock"]

LANGUAGES: tuple[Language, ...] = ("de", "en")
READER_MODES: tuple[ReaderMode, ...] = ("barcode", "rdm6300", "uid")
PIN_FACTORIES: tuple[PinFactoryName, ...] = ("auto", "lgpio", "mock")
STANDARD_BAUD_RATES = (1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400)
# pyserial's URL handlers (serial.serial_for_url): "spy://" logs the traffic while installing.
SERIAL_URL_SCHEMES = ("alt", "cp2110", "hwgrep", "loop", "rfc2217", "socket", "spy")
BCM_PINS = range(0, 28)  # the 40-pin header's GPIO 0..27 on every Pi model since the B+
MAX_SEATS = 5  # a Skat table seats at most five (ISkO 3.2.7)
SECRET = "****"  # how secrets are shown by to_dict / the config command


class ConfigError(SkatError, ValueError):
    """A config file that cannot be used; the message names the file, the line and the key."""

    def __init__(self, source: str, reason: str, *, key: str | None = None, line: int | None = None) -> None:
        where = source if line is None else f"{source}, line {line}"
        super().__init__(f"{where}: {reason}")
        self.source = source
        self.reason = reason
        self.key = key
        self.line = line


def default_data_dir(env: Mapping[str, str] | None = None) -> Path:
    """The user's data directory for Skattisch (XDG): ``~/.local/share/skattisch``."""
    env = os.environ if env is None else env
    base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "skattisch"


@dataclass(frozen=True, slots=True)
class TableConfig:
    number: int = 1
    name: str = ""  # empty: the UI calls the table "Tisch <number>"
    language: Language = "de"
    club_pin_hash: str = ""  # the salted hash of the settings PIN (device.pin); empty: not locked
    roster: tuple[str, ...] = ()  # the club's players, offered as buttons on the setup screen


@dataclass(frozen=True, slots=True)
class ReaderConfig:
    enabled: bool = True
    port: str = "/dev/skattisch-reader"  # the udev symlink from deploy/99-skattisch-reader.rules
    baud: int = 9600
    mode: ReaderMode = "barcode"
    deck: Path | None = None  # needed for "rdm6300" and "uid"; barcodes may carry the card code
    debounce_ms: int = 1000
    confirm_ms: int | None = None  # two identical frames within this; None: the mode's default


@dataclass(frozen=True, slots=True)
class GpioConfig:
    """BCM pin numbers; a part whose pin is None (not in the file) is not fitted."""

    enabled: bool = True
    pin_factory: PinFactoryName = "auto"  # "auto": gpiozero's choice (GPIOZERO_PIN_FACTORY)
    confirm: int | None = None
    back: int | None = None
    hold_seconds: float = 1.0  # holding confirm this long sends MENU instead
    dealer_leds: tuple[int, ...] = ()  # one per seat, Platz 1 first
    reader_led: int | None = None
    sync_led: int | None = None
    buzzer: int | None = None

    def pins(self) -> dict[str, int]:
        """Every fitted part's pin by its key, e.g. ``{"confirm": 17, "dealer_leds[0]": 5}``.

        >>> GpioConfig(confirm=17, dealer_leds=(5, 6)).pins()
        {'confirm': 17, 'dealer_leds[0]': 5, 'dealer_leds[1]': 6}
        """
        named = {"confirm": self.confirm, "back": self.back}
        named.update({f"dealer_leds[{seat}]": pin for seat, pin in enumerate(self.dealer_leds)})
        named.update(reader_led=self.reader_led, sync_led=self.sync_led, buzzer=self.buzzer)
        return {key: pin for key, pin in named.items() if pin is not None}


@dataclass(frozen=True, slots=True)
class StoreConfig:
    path: Path = field(default_factory=default_data_dir)


@dataclass(frozen=True, slots=True)
class SyncConfig:
    url: str = ""  # the club laptop, e.g. "http://skat-laptop.local:8080"; empty: no sync
    token: str = ""  # the club token the laptop pairs tables with
    interval_seconds: int = 30


@dataclass(frozen=True, slots=True)
class UiConfig:
    fullscreen: bool = True
    width: int = 800
    height: int = 480


@dataclass(frozen=True, slots=True)
class Config:
    table: TableConfig = field(default_factory=TableConfig)
    reader: ReaderConfig = field(default_factory=ReaderConfig)
    gpio: GpioConfig = field(default_factory=GpioConfig)
    store: StoreConfig = field(default_factory=StoreConfig)
    sync: SyncConfig = field(default_factory=SyncConfig)
    ui: UiConfig = field(default_factory=UiConfig)
    source: str = "defaults"  # the file the settings came from

    def to_dict(self, *, hide_secrets: bool = True) -> dict[str, Any]:
        """The settings as JSON-compatible sections (paths as text, unset pins as None)."""
        result: dict[str, Any] = {"source": self.source}
        for section in SECTIONS:
            values = {}
            for key, value in _fields(getattr(self, section)).items():
                if hide_secrets and (section, key) in SECRETS and value:
                    value = SECRET
                values[key] = _plain(value)
            result[section] = values
        return result


SECTIONS: dict[str, type] = {
    "table": TableConfig,
    "reader": ReaderConfig,
    "gpio": GpioConfig,
    "store": StoreConfig,
    "sync": SyncConfig,
    "ui": UiConfig,
}
SECRETS = frozenset({("table", "club_pin_hash"), ("sync", "token")})
# keys older versions wrote, still read (and checked) but no longer kept
LEGACY_KEYS = frozenset({("table", "club_pin")})


# ---------------------------------------------------------------------------------------------
# Finding and loading the file


def find_config(
    env: Mapping[str, str] | None = None,
    *,
    system: Path = SYSTEM_CONFIG,
    home: Path | None = None,
) -> Path | None:
    """The config file in force: ``$SKATTISCH_CONFIG`` (which then must exist), else
    ``/etc/skattisch/skattisch.toml`` if present, else ``~/.config/skattisch/skattisch.toml``
    (``$XDG_CONFIG_HOME``) if present, else None (the defaults)."""
    env = os.environ if env is None else env
    if env.get(ENV_VAR):
        return Path(env[ENV_VAR]).expanduser()
    if system.is_file():
        return system
    config_home = env.get("XDG_CONFIG_HOME") or str((home or Path.home()) / ".config")
    user = Path(config_home) / "skattisch" / "skattisch.toml"
    return user if user.is_file() else None


def load_config(path: str | os.PathLike[str] | None = None) -> Config:
    """Read and check a config file (by default the one :func:`find_config` finds)."""
    if path is None:
        path = find_config()
        if path is None:
            return parse_config("", "defaults")
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ConfigError(str(path), "no such file") from None
    except OSError as exc:
        raise ConfigError(str(path), f"cannot be read: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8-sig")  # tolerate the byte-order mark some editors write
    except UnicodeDecodeError:
        raise ConfigError(str(path), "is not UTF-8 text (save it as UTF-8)") from None
    return parse_config(text, str(path), base_dir=path.parent)


def parse_config(text: str, source: str = "<config>", *, base_dir: Path | None = None) -> Config:
    """Check the TOML ``text`` and build the :class:`Config`; ``source`` names it in errors.

    Relative paths in it (``reader.deck``, ``store.path``) are taken relative to ``base_dir``
    (the config file's folder), or kept relative if None.
    """
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _syntax_error(source, exc) from None
    return _Checker(text, source, base_dir).config(document)


def _syntax_error(source: str, exc: tomllib.TOMLDecodeError) -> ConfigError:
    # Python 3.11's TOMLDecodeError carries the position only in its message.
    message = str(exc)
    found = re.search(r"\s*\(at line (\d+), column (\d+)\)$", message)
    if found is None:
        return ConfigError(source, f"not valid TOML: {message}")
    reason = f"not valid TOML: {message[: found.start()]} (column {found.group(2)})"
    return ConfigError(source, reason, line=int(found.group(1)))


# ---------------------------------------------------------------------------------------------
# Checking values: each check returns the value to keep or raises _Invalid(reason), where the
# reason completes the sentence "<key> = <value> ...".


class _Invalid(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


Check = Callable[[Any], Any]


def _boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise _Invalid("must be true or false")
    return value


def _integer(low: int, high: int) -> Check:
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _Invalid("must be a whole number" + (" (without quotes)" if isinstance(value, str) else ""))
        if not low <= value <= high:
            raise _Invalid(f"must be between {low} and {high}")
        return value

    return check


def _seconds(low: float, high: float) -> Check:
    def check(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise _Invalid("must be a number of seconds, e.g. 1.5")
        if not low <= value <= high:
            raise _Invalid(f"must be between {low:g} and {high:g} seconds")
        return float(value)

    return check


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise _Invalid("must be text in quotes")
    return value


def _choice(options: tuple[str, ...]) -> Check:
    def check(value: Any) -> str:
        if value not in options:
            raise _Invalid("must be one of " + ", ".join(_show(option) for option in options))
        return str(value)

    return check


def _roster(value: Any) -> tuple[str, ...]:
    """The club's players: a list of names in quotes, each once, none empty."""
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise _Invalid('must be a list of names in quotes, e.g. ["Anna", "Bernd"]')
    names = tuple(name.strip() for name in value)
    if any(not name for name in names):
        raise _Invalid("must not have an empty name")
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise _Invalid(f"names {', '.join(twice)} more than once")
    return names


def _club_pin(value: Any) -> str:
    """The PIN in plain text, as older versions kept it: only "" (none) is still accepted."""
    if value != "":
        raise _Invalid(
            "is a PIN in plain text, which anyone who reads this file could use: "
            "run 'sudo skattisch pin' to store only its hash (table.club_pin_hash)"
        )
    return ""


def _club_pin_hash(value: Any) -> str:
    from device.pin import PinError, check_pin_hash

    text = _text(value)
    if not text:
        return text
    try:
        return check_pin_hash(text)
    except PinError as exc:
        raise _Invalid(f"is {exc}") from None


def _baud(value: Any) -> int:
    baud: int = _integer(1, 10**7)(value)
    if baud not in STANDARD_BAUD_RATES:
        rates = ", ".join(str(rate) for rate in STANDARD_BAUD_RATES)
        raise _Invalid(f"is not a standard baud rate: one of {rates}")
    return baud


def _port(value: Any) -> str:
    port = _text(value)
    scheme = port.split("://", 1)[0] if "://" in port else None
    if scheme is not None and scheme not in SERIAL_URL_SCHEMES:
        schemes = ", ".join(f"{name}://" for name in SERIAL_URL_SCHEMES)
        raise _Invalid(f"is not a pyserial URL: they start with one of {schemes}")
    if scheme is None and not port.startswith("/"):
        raise _Invalid(
            'must be a device path such as "/dev/serial/by-id/usb-..." or "/dev/skattisch-reader", '
            'or a pyserial URL such as "spy:///dev/ttyUSB0"'
        )
    return port


def _url(value: Any) -> str:
    url = _text(value)
    if not url:
        return url
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise _Invalid(
            'must be the laptop\'s address, e.g. "http://skat-laptop.local:8080", or "" for no sync'
        )
    return url


def _pin(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in BCM_PINS:
        raise _Invalid(
            f"is not a GPIO pin: use the BCM number {BCM_PINS.start} to {BCM_PINS.stop - 1} "
            "(GPIO17 is 17, not the header's pin 11); leave the key out if the part is not fitted"
        )
    return value


def _pin_list(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise _Invalid("must be a list of BCM pin numbers, Platz 1 first, e.g. [5, 6, 13, 19, 26]")
    if len(value) > MAX_SEATS:
        raise _Invalid(f"has {len(value)} pins: at most {MAX_SEATS}, one per seat")
    for pin in value:
        try:
            _pin(pin)
        except _Invalid as invalid:
            raise _Invalid(f"has {_show(pin)}, which {invalid.reason}") from None
    return tuple(value)


def _path(base_dir: Path | None, *, optional: bool) -> Check:
    def check(value: Any) -> Path | None:
        text = _text(value)
        if not text:
            if optional:
                return None
            raise _Invalid("must not be empty")
        path = Path(text).expanduser()
        return base_dir / path if base_dir is not None and not path.is_absolute() else path

    return check


def _schema(base_dir: Path | None) -> dict[str, dict[str, Check]]:
    return {
        "table": {
            "number": _integer(1, 999),
            "name": _text,
            "language": _choice(LANGUAGES),
            "club_pin_hash": _club_pin_hash,
            "club_pin": _club_pin,
            "roster": _roster,
        },
        "reader": {
            "enabled": _boolean,
            "port": _port,
            "baud": _baud,
            "mode": _choice(READER_MODES),
            "deck": _path(base_dir, optional=True),
            "debounce_ms": _integer(0, 10_000),
            "confirm_ms": _integer(0, 2_000),
        },
        "gpio": {
            "enabled": _boolean,
            "pin_factory": _choice(PIN_FACTORIES),
            "confirm": _pin,
            "back": _pin,
            "hold_seconds": _seconds(0.3, 10.0),
            "dealer_leds": _pin_list,
            "reader_led": _pin,
            "sync_led": _pin,
            "buzzer": _pin,
        },
        "store": {"path": _path(base_dir, optional=False)},
        "sync": {
            "url": _url,
            "token": _text,
            "interval_seconds": _integer(1, 3600),
        },
        "ui": {
            "fullscreen": _boolean,
            "width": _integer(320, 7680),
            "height": _integer(240, 4320),
        },
    }


class _Checker:
    """Walks one parsed document; knows the text so that errors can name their line."""

    def __init__(self, text: str, source: str, base_dir: Path | None) -> None:
        self.text = text
        self.source = source
        self.schema = _schema(base_dir)

    def config(self, document: dict[str, Any]) -> Config:
        sections: dict[str, Any] = {}
        for name, body in document.items():
            if name not in self.schema:
                raise self.error(None, name, self._unknown_top(name))
            if not isinstance(body, dict):
                reason = f"must be a section: write [{name}] on a line of its own, its keys below it"
                raise self.error(None, name, f"{name} = {_show(body)} {reason}")
            sections[name] = self.section(name, body)
        config = Config(
            **{name: sections.get(name) or cls() for name, cls in SECTIONS.items()},
            source=self.source,
        )
        self.cross_check(config)
        return config

    def section(self, name: str, body: dict[str, Any]) -> Any:
        checks = self.schema[name]
        values: dict[str, Any] = {}
        for key, value in body.items():
            if key not in checks:
                raise self.error(name, key, self._unknown_key(name, key))
            try:
                checked = checks[key](value)
                if (name, key) not in LEGACY_KEYS:
                    values[key] = checked
            except _Invalid as invalid:
                raise self.error(name, key, f"{name}.{key} = {_show(value)} {invalid.reason}") from None
        return SECTIONS[name](**values)

    def cross_check(self, config: Config) -> None:
        used: dict[int, str] = {}
        for key, pin in config.gpio.pins().items():
            if pin in used:
                reason = f"is already used by gpio.{used[pin]}: each pin drives one part only"
                raise self.error("gpio", key.split("[")[0], f"gpio.{key} = {pin} {reason}")
            used[pin] = key
        reader = config.reader
        if reader.enabled and reader.mode != "barcode" and reader.deck is None:
            raise self.error(
                "reader",
                "mode",
                f"reader.mode = {_show(reader.mode)} needs reader.deck: the reader sends tag "
                "numbers, and the deck file says which card each tag is (make one with "
                "'skattisch deck learn')",
            )

    def _unknown_top(self, name: str) -> str:
        hint = _close(name, list(self.schema))
        if hint:
            return f"unknown section [{name}]: did you mean [{hint}]?"
        owners = [section for section, checks in self.schema.items() if name in checks]
        if owners:
            return f"unknown key {name}: did you mean {owners[0]}.{name} (in section [{owners[0]}])?"
        return f"unknown section [{name}]: the sections are " + ", ".join(f"[{s}]" for s in self.schema)

    def _unknown_key(self, section: str, key: str) -> str:
        hint = _close(key, list(self.schema[section]))
        if hint:
            return f"unknown key {section}.{key}: did you mean {section}.{hint}?"
        owners = [other for other, checks in self.schema.items() if key in checks]
        if owners:
            return f"unknown key {section}.{key}: {key} belongs in section [{owners[0]}]"
        keys = [name for name in self.schema[section] if (section, name) not in LEGACY_KEYS]
        return f"unknown key {section}.{key}: the keys of [{section}] are " + ", ".join(keys)

    def error(self, section: str | None, key: str, reason: str) -> ConfigError:
        dotted = key if section is None else f"{section}.{key}"
        return ConfigError(self.source, reason, key=dotted, line=_line_of(self.text, section, key))


def _close(word: str, choices: list[str]) -> str | None:
    import difflib  # only for a misspelt key: not at every start

    matches = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return matches[0] if matches else None


_HEADER = re.compile(r"^\s*\[\s*([A-Za-z0-9_-]+)\s*\]")


def _line_of(text: str, section: str | None, key: str) -> int | None:
    """The line that sets ``key`` (in ``[section]``), or a top-level ``[key]`` header.

    Good enough for the plain files people write; None when it cannot tell.
    """
    current: str | None = None
    assign = re.compile(rf"^\s*{re.escape(key)}\s*=")
    dotted = re.compile(rf"^\s*{re.escape(section or '')}\s*\.\s*{re.escape(key)}\s*=")
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header:
            current = header.group(1)
            if section is None and current == key:
                return number
            continue
        if current == section and assign.match(line):
            return number
        if current is None and section is not None and dotted.match(line):
            return number
    return None


# ---------------------------------------------------------------------------------------------
# Showing values the way they are written in the file


def _show(value: Any) -> str:
    """A value as TOML writes it.

    >>> _show("de"), _show(True), _show([5, 6]), _show(1.5), _show(Path("/var/lib"))
    ('"de"', 'true', '[5, 6]', '1.5', '"/var/lib"')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str | Path):
        return json.dumps(str(value), ensure_ascii=False)  # a JSON string is a TOML basic string
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_show(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_show(v)}" for k, v in value.items()) + " }"
    return str(value)


def _fields(section: Any) -> dict[str, Any]:
    return {f.name: getattr(section, f.name) for f in dataclasses.fields(section)}


def _plain(value: Any) -> Any:
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, tuple):
        return list(value)
    return value


def to_toml(config: Config, *, hide_secrets: bool = True) -> str:
    """The settings as a config file: unset values and hidden secrets become comments, so the
    text always reads back (to ``config`` itself when no secrets are hidden)."""
    lines: list[str] = []
    for section, values in config.to_dict(hide_secrets=False).items():
        if section == "source":
            continue
        lines.append(f"[{section}]")
        for key, value in values.items():
            if value is None:
                lines.append(f"# {key} is not set")
            elif hide_secrets and value and (section, key) in SECRETS:
                lines.append(f"# {key} is set (hidden)")
            else:
                lines.append(f"{key} = {_show(value)}")
        lines.append("")
    return "\n".join(lines)


def config_with_line(text: str, section: str, key: str, value: str, *, replacing: tuple[str, ...] = ()) -> str:
    """The config ``text`` with ``key = value`` in ``[section]``, where the key's line (or one of
    the ``replacing`` keys' lines) was, else right below the header, else in a new section at the
    end; comments and every other line stay as the volunteer wrote them.

    >>> print(config_with_line('[table]\\nnumber = 3\\nclub_pin = "1234"\\n[ui]\\n', "table", "club_pin_hash",
    ...                        '"H"', replacing=("club_pin",)), end="")
    [table]
    number = 3
    club_pin_hash = "H"
    [ui]
    >>> print(config_with_line('# empty\\n', "table", "number", "7"), end="")
    # empty
    <BLANKLINE>
    [table]
    number = 7
    """
    line = f"{key} = {value}"
    key_line = re.compile(rf"^\s*({'|'.join(re.escape(k) for k in (key, *replacing))})\s*=")
    kept: list[str] = []
    current: str | None = None
    header_at: int | None = None
    placed = False
    for raw in text.splitlines():
        header = _HEADER.match(raw)
        if header:
            current = header.group(1)
            if current == section:
                header_at = len(kept)
        elif current == section and key_line.match(raw):
            if not placed:
                kept.append(line)
                placed = True
            continue
        kept.append(raw)
    if not placed:
        if header_at is None:
            kept += ["", f"[{section}]", line]
        else:
            kept.insert(header_at + 1, line)
    return "\n".join(kept) + "\n"
