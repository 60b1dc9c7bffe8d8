"""The settings file on the SD card's boot partition, applied at boot (``skattisch first-boot``).

A table flashed from the image (``deploy/build-image.sh``) is set up by one small text file
that a volunteer edits on any computer before the first boot:
``/boot/firmware/skattisch-settings.txt`` (``deploy/skattisch-settings.txt`` is the template).
Lines are ``key = value``; ``#`` starts a comment line; an empty value changes nothing.

At every boot, before the table starts, ``skattisch-first-boot.service`` applies it:

- ``table``: the table's number, into ``[table] number`` of the config;
- ``wifi_name``, ``wifi_password``, ``wifi_country``: the Wi-Fi, as wpa_supplicant's file for
  ``wlan0`` (the image's network: systemd-networkd with DHCP, wpa_supplicant for Wi-Fi);
- ``laptop``: the club laptop's address, into ``[sync] url`` (empty: found on the network);
- ``pairing_code``: pairs the table with the laptop (``skattisch club pair`` there), as the
  settings screen's "Laptop koppeln" does; used once, then removed from the file;
- ``pin``: the settings PIN, stored as its salted hash; the plain PIN is removed from the file;
- ``reader``: which card reader is fitted, into ``[reader]`` of the config: ``barcode`` (a
  scanner reading printed codes), ``rdm6300`` (125 kHz tags), ``nfc`` (NFC tags' UIDs) or
  ``none``; a tag reader's deck is then taught in at the table (Einstellungen → Kartensatz
  anlernen) and kept in ``/var/lib/skattisch/deck.json``.

Bad settings never stop the table: each problem is written to a small file the table shows on
its screen at start (what is wrong, what to do), and the parts that failed for want of a
network are tried again at the next boot. The parsing and the planning are pure functions
(:func:`parse_settings`, :func:`config_with`, :func:`settings_after`); :func:`apply_settings`
does the writing.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

__all__ = [
    "KEYS", "PROBLEMS_FILE", "SETTINGS_FILE", "Outcome", "Problem", "Settings", "apply_settings", "config_with",
    "load_problems", "parse_settings", "settings_after", "wpa_supplicant_conf",
]

SETTINGS_FILE = Path("/boot/firmware/skattisch-settings.txt")
PROBLEMS_FILE = Path("/var/lib/skattisch/first-boot-problems.json")
WPA_FILE = Path("/etc/wpa_supplicant/wpa_supplicant-wlan0.conf")
WPA_UNIT = "wpa_supplicant@wlan0.service"
LAPTOP_PORT = 8080  # skattisch club's default port

KEYS = ("table", "wifi_name", "wifi_password", "wifi_country", "laptop", "pairing_code", "pin", "reader")
ALIASES = {  # German names a volunteer may write instead
    "tisch": "table", "tischnummer": "table", "wlan_name": "wifi_name", "wlan_passwort": "wifi_password",
    "wlan_password": "wifi_password", "wlan_land": "wifi_country", "wifi_land": "wifi_country",
    "kopplungscode": "pairing_code", "code": "pairing_code", "kartenleser": "reader", "leser": "reader",
}
READERS = {  # what a volunteer may write for ``reader``, and the config's reader.mode ("none": no reader)
    "barcode": "barcode", "strichcode": "barcode", "scanner": "barcode",
    "rdm6300": "rdm6300", "rfid": "rdm6300",
    "nfc": "uid", "uid": "uid", "pn532": "uid",
    "none": "none", "kein": "none", "keiner": "none", "aus": "none", "off": "none",
}
DECK_FILE = Path("/var/lib/skattisch/deck.json")  # where a tag reader's deck is taught in
SECRET_KEYS = ("pin", "pairing_code")  # removed from the card once used


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing that could not be applied: which key, and what to do, in both languages.
    ``retry``: tried again at the next boot (no network yet), the rest waits for an edit."""

    key: str
    de: str
    en: str
    retry: bool = False

    def text(self, language: str) -> str:
        return self.de if language == "de" else self.en


@dataclass(frozen=True, slots=True)
class Settings:
    """What the file asks for; ``None``/``""``: leave it as it is."""

    table: int | None = None
    wifi_name: str = ""
    wifi_password: str = ""
    wifi_country: str = ""
    laptop: str = ""  # an http URL (normalised)
    pairing_code: str = ""  # six digits
    pin: str = ""  # four to eight digits
    reader: str = ""  # a reader.mode ("barcode", "rdm6300", "uid") or "none"


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one run did: what it applied (names of keys) and what it could not."""

    applied: tuple[str, ...] = ()
    problems: tuple[Problem, ...] = ()
    paired_with: str = ""


# --- parsing (pure) --------------------------------------------------------------------------


_KEY_LINE = re.compile(r"^\s*([A-Za-z_äöüÄÖÜß-]+)\s*[=:]\s?(.*?)\s*$")


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def _canonical(key: str) -> str:
    key = key.strip().lower().replace("-", "_")
    return ALIASES.get(key, key)


def parse_settings(text: str) -> tuple[Settings, tuple[Problem, ...]]:
    """The settings a file asks for, and every problem with it (named by line and key).

    >>> settings, problems = parse_settings("table = 7\\npin = 2468\\n")
    >>> settings.table, settings.pin, problems
    (7, '2468', ())
    >>> _, problems = parse_settings("tabel = 7\\n")
    >>> problems[0].en
    "line 1: unknown setting 'tabel': did you mean 'table'? Correct it in skattisch-settings.txt on the SD card."
    """
    raw: dict[str, tuple[int, str]] = {}
    problems: list[Problem] = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip().lstrip("\ufeff")
        if not stripped or stripped.startswith(("#", ";")):
            continue
        match = _KEY_LINE.match(stripped)
        if match is None:
            problems.append(_edit_problem(
                "", f"Zeile {number}: „{stripped[:30]}“ ist keine Einstellung (so: name = wert)",
                f"line {number}: '{stripped[:30]}' is not a setting (write: name = value)"))
            continue
        key, value = _canonical(match.group(1)), _unquote(match.group(2))
        if key not in KEYS:
            problems.append(_unknown_key(number, match.group(1)))
        elif key in raw:
            problems.append(_edit_problem(
                key, f"Zeile {number}: „{key}“ steht zweimal (zuerst in Zeile {raw[key][0]}); die erste gilt",
                f"line {number}: '{key}' is there twice (first on line {raw[key][0]}); the first one counts"))
        else:
            raw[key] = (number, value)
    if "table" not in raw:
        problems.append(_edit_problem(
            "table", "Die Zeile „table = …“ (die Tischnummer) fehlt", "the line 'table = ...' (the table's number) is missing"))
    settings = Settings()
    for key, (number, value) in raw.items():
        try:
            settings = replace(settings, **{key: _CHECKS[key](value)})
        except _Bad as bad:
            problems.append(_edit_problem(key, f"Zeile {number}: {key}: {bad.de}", f"line {number}: {key}: {bad.en}"))
    problems.extend(_together(settings, {problem.key for problem in problems}))
    return settings, tuple(problems)


def _edit_problem(key: str, de: str, en: str) -> Problem:
    def stop(text: str) -> str:
        return text if text.endswith("?") else text + "."

    return Problem(key, f"{stop(de)} In skattisch-settings.txt auf der SD-Karte korrigieren.",
                   f"{stop(en)} Correct it in skattisch-settings.txt on the SD card.")


def _unknown_key(number: int, key: str) -> Problem:
    close = difflib.get_close_matches(_canonical(key), [*KEYS, *ALIASES], n=1)
    guess = _canonical(close[0]) if close else ""
    return _edit_problem(
        key, f"Zeile {number}: unbekannte Einstellung „{key}“" + (f": gemeint ist „{guess}“?" if guess else ""),
        f"line {number}: unknown setting '{key}'" + (f": did you mean '{guess}'?" if guess else ""))


class _Bad(ValueError):
    def __init__(self, de: str, en: str) -> None:
        super().__init__(en)
        self.de = de
        self.en = en


def _table(value: str) -> int | None:
    if not value:
        raise _Bad("die Tischnummer fehlt (1 bis 999)", "the table's number is missing (1 to 999)")
    if not value.isdigit() or not 1 <= int(value) <= 999:
        raise _Bad(f"„{value}“ ist keine Tischnummer (1 bis 999)", f"'{value}' is not a table number (1 to 999)")
    return int(value)


def _wifi_name(value: str) -> str:
    if len(value.encode("utf-8")) > 32:
        raise _Bad("ein WLAN-Name hat höchstens 32 Zeichen", "a Wi-Fi name has at most 32 characters")
    return value


def _wifi_password(value: str) -> str:
    if value and not (8 <= len(value) <= 63 and value.isascii() and value.isprintable()
                      or re.fullmatch(r"[0-9A-Fa-f]{64}", value)):
        raise _Bad("ein WLAN-Passwort (WPA2) hat 8 bis 63 Zeichen, ohne Umlaute",
                   "a Wi-Fi password (WPA2) has 8 to 63 characters, no accented letters")
    return value


def _wifi_country(value: str) -> str:
    if value and not re.fullmatch(r"[A-Za-z]{2}", value):
        raise _Bad(f"„{value}“ ist kein Ländercode (zwei Buchstaben, z. B. DE oder AT)",
                   f"'{value}' is not a country code (two letters, e.g. DE or AT)")
    return value.upper()


def _laptop(value: str) -> str:
    if not value:
        return ""
    url = value if "://" in value else f"http://{value}"
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        parts, port = None, None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname \
            or not re.fullmatch(r"[A-Za-z0-9.:\[\]-]+", parts.netloc):
        raise _Bad(f"„{value}“ ist keine Laptop-Adresse (z. B. 192.168.1.20 oder 192.168.1.20:8080)",
                   f"'{value}' is not a laptop address (e.g. 192.168.1.20 or 192.168.1.20:8080)")
    return f"{parts.scheme}://{parts.hostname}:{port or LAPTOP_PORT}{parts.path.rstrip('/')}"


def _pairing_code(value: str) -> str:
    code = value.replace(" ", "")
    if code and not re.fullmatch(r"\d{6}", code):
        raise _Bad(f"„{value}“ ist kein Kopplungscode (sechs Ziffern, am Laptop: skattisch club pair)",
                   f"'{value}' is not a pairing code (six digits, on the laptop: skattisch club pair)")
    return code


def _pin(value: str) -> str:
    from device.pin import PinError, check_pin_format

    if not value:
        return ""
    try:
        return check_pin_format(value)
    except PinError:
        raise _Bad("die PIN hat 4 bis 8 Ziffern", "the PIN has 4 to 8 digits") from None


def _reader(value: str) -> str:
    if not value:
        return ""
    mode = READERS.get(value.strip().lower())
    if mode is None:
        raise _Bad(f"„{value}“ ist kein Kartenleser (barcode, rdm6300, nfc oder none)",
                   f"'{value}' is not a card reader (barcode, rdm6300, nfc or none)")
    return mode


_CHECKS: dict[str, Callable[[str], Any]] = {
    "table": _table, "wifi_name": _wifi_name, "wifi_password": _wifi_password, "wifi_country": _wifi_country,
    "laptop": _laptop, "pairing_code": _pairing_code, "pin": _pin, "reader": _reader,
}


def _together(settings: Settings, bad: set[str]) -> list[Problem]:
    """What a key lacks from another one (a Wi-Fi name without its password or country); a key
    already named as bad is not named again."""
    if not settings.wifi_name:
        return []
    problems = []
    if not settings.wifi_password and "wifi_password" not in bad:
        problems.append(_edit_problem("wifi_password", f"das Passwort für das WLAN „{settings.wifi_name}“ fehlt",
                                      f"the password for the Wi-Fi '{settings.wifi_name}' is missing"))
    if not settings.wifi_country and "wifi_country" not in bad:
        problems.append(_edit_problem("wifi_country", "das Land des WLANs fehlt (wifi_country = DE)",
                                      "the Wi-Fi's country is missing (wifi_country = DE)"))
    return problems


# --- what to write (pure) ----------------------------------------------------------------------


def config_with(text: str, settings: Settings, pin_hash: str = "") -> str:
    """The config ``text`` with what the settings ask for: the table's number, the laptop's
    address, the PIN's hash, the reader; untouched keys and comments stay. A tag reader gets
    the deck file it needs (:data:`DECK_FILE`) if the config names none.

    >>> print(config_with('[table]\\nnumber = 1\\n', Settings(table=12, laptop="http://10.0.2.2:8080")), end="")
    [table]
    number = 12
    <BLANKLINE>
    [sync]
    url = "http://10.0.2.2:8080"
    """
    from drivers.config import config_with_line

    if settings.table is not None:
        text = config_with_line(text, "table", "number", str(settings.table))
    if settings.laptop:
        text = config_with_line(text, "sync", "url", json.dumps(settings.laptop))
    if pin_hash:
        text = config_with_line(text, "table", "club_pin_hash", json.dumps(pin_hash))
    if settings.reader:
        text = _config_with_reader(text, settings.reader)
    return text


def _config_with_reader(text: str, mode: str) -> str:
    """The config with ``[reader]`` set for ``mode`` (a reader.mode, or "none").

    >>> print(_config_with_reader('[reader]\\nmode = "barcode"\\n', "rdm6300"), end="")
    [reader]
    deck = "/var/lib/skattisch/deck.json"
    enabled = true
    mode = "rdm6300"
    """
    import tomllib

    from drivers.config import config_with_line

    if mode == "none":
        return config_with_line(text, "reader", "enabled", "false")
    text = config_with_line(text, "reader", "mode", json.dumps(mode))
    text = config_with_line(text, "reader", "enabled", "true")
    if mode != "barcode" and "deck" not in tomllib.loads(text).get("reader", {}):
        text = config_with_line(text, "reader", "deck", json.dumps(str(DECK_FILE)))
    return text


def settings_after(text: str, done: dict[str, str]) -> str:
    """The settings file with each key in ``done`` emptied and a comment saying why (the plain
    PIN and a used pairing code do not stay on the card); every other line stays as it was.

    >>> print(settings_after("table = 3\\npin = 2468\\n", {"pin": "PIN gesetzt / PIN set"}), end="")
    table = 3
    # pin: PIN gesetzt / PIN set
    pin =
    """
    kept: list[str] = []
    for raw in text.splitlines():
        match = _KEY_LINE.match(raw.strip())
        key = _canonical(match.group(1)) if match else ""
        if match and key in done and match.group(2):
            indent = raw[: len(raw) - len(raw.lstrip())]
            kept += [f"{indent}# {key}: {done[key]}", f"{indent}{match.group(1)} ="]
        else:
            kept.append(raw)
    return "\n".join(kept) + "\n"


def wpa_psk(password: str, ssid: str) -> str:
    """The WPA2 key wpa_supplicant derives from a passphrase (so the file need not hold it)."""
    if len(password) == 64:
        return password.lower()
    return hashlib.pbkdf2_hmac("sha1", password.encode(), ssid.encode(), 4096, 32).hex()


def _ssid(name: str) -> str:
    """The network's name as wpa_supplicant reads it: quoted, or as hex when it has quotes or
    letters beyond ASCII."""
    if name.isascii() and name.isprintable() and '"' not in name:
        return f'"{name}"'
    return name.encode("utf-8").hex()


def wpa_supplicant_conf(settings: Settings) -> str:
    """wpa_supplicant's file for wlan0 (``wpa_supplicant@wlan0.service``).

    >>> print(wpa_supplicant_conf(Settings(wifi_name="Club", wifi_password="12345678", wifi_country="DE")), end="")
    # Written by skattisch first-boot from skattisch-settings.txt on the boot partition.
    ctrl_interface=DIR=/run/wpa_supplicant GROUP=netdev
    update_config=0
    country=DE
    <BLANKLINE>
    network={
        ssid="Club"
        psk=c98c922633c1cc2a01b84dc2dda62fefcc4b8354172bc5e36fb77af2ca78731a
        key_mgmt=WPA-PSK
    }
    """
    return "\n".join([
        "# Written by skattisch first-boot from skattisch-settings.txt on the boot partition.",
        "ctrl_interface=DIR=/run/wpa_supplicant GROUP=netdev",
        "update_config=0",
        f"country={settings.wifi_country}",
        "",
        "network={",
        f"    ssid={_ssid(settings.wifi_name)}",
        f"    psk={wpa_psk(settings.wifi_password, settings.wifi_name)}",
        "    key_mgmt=WPA-PSK",
        "}",
        "",
    ])


# --- applying (files, the network) -----------------------------------------------------------


@dataclass
class Paths:
    """Where the files are (a test points them into a temporary folder)."""

    settings: Path = SETTINGS_FILE
    config: Path = Path("/etc/skattisch/skattisch.toml")
    problems: Path = PROBLEMS_FILE
    wpa: Path = WPA_FILE


@dataclass
class Actions:
    """What touches the system beyond files: pairing over the network, systemctl, the clock."""

    pair: Callable[[str, str, str, str], Any] | None = None  # (url, code, device, name) -> SyncState
    discover: Callable[[], str | None] = lambda: None
    systemctl: Callable[[Sequence[str]], None] = lambda args: None
    sleep: Callable[[float], None] = time.sleep
    clock: Callable[[], float] = time.monotonic
    wait_seconds: float = 60.0  # how long to wait for the network (and the laptop) at boot


def apply_settings(paths: Paths, actions: Actions) -> Outcome:
    """Apply the settings file (see the module's text); never raises for bad settings."""
    from drivers.config import ConfigError, parse_config
    from drivers.deck import write_atomically

    try:
        text = paths.settings.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        return _finish(paths, Outcome())
    except (OSError, UnicodeDecodeError) as exc:
        return _finish(paths, Outcome(problems=(Problem(
            "", f"skattisch-settings.txt kann nicht gelesen werden ({exc}). Die Datei auf einem Computer neu "
                "speichern (als reinen Text, UTF-8).",
            f"skattisch-settings.txt cannot be read ({exc}). Save it again on a computer (plain text, UTF-8)."),)))
    settings, problems = parse_settings(text)
    bad = {problem.key for problem in problems}
    cleared: dict[str, Any] = {key: ("" if key != "table" else None) for key in KEYS if key in bad}
    settings = replace(settings, **cleared)  # a bad key is applied as if it were empty
    try:
        config_text = paths.config.read_text(encoding="utf-8")
        config = parse_config(config_text, str(paths.config))
    except (OSError, UnicodeDecodeError, ConfigError) as exc:  # the table's own start says the same
        return _finish(paths, Outcome(problems=(*problems, Problem(
            "", f"Die Einstellungen des Tisches ({paths.config}) sind fehlerhaft: {exc}",
            f"the table's config ({paths.config}) is broken: {exc}"),)))
    applied: list[str] = []
    done: dict[str, str] = {}
    paired = ""
    pin_hash = _hash(settings.pin)
    new_text = config_with(config_text, settings, pin_hash)
    try:
        config = parse_config(new_text, str(paths.config))
    except ConfigError as exc:  # not expected (each value was checked): keep the config as it is
        problems += (Problem("", f"Einstellungen nicht übernommen: {exc}", f"settings not applied: {exc}"),)
    else:
        if new_text != config_text:
            write_atomically(paths.config, new_text, keep_mode=True)
        applied += [key for key in ("table", "laptop", "pin", "reader") if getattr(settings, key)]
        if pin_hash:
            done["pin"] = "gesetzt und hier gelöscht / set, and removed from here"
    if settings.wifi_name and not {"wifi_name", "wifi_password", "wifi_country"} & bad:
        applied += _apply_wifi(paths, actions, settings)
    if settings.pairing_code:
        problem, paired = _pair(config, settings, actions)
        if problem is None:
            applied.append("pairing_code")
            done["pairing_code"] = f"gekoppelt mit / paired with {paired}"
        else:
            problems += (problem,)
            if not problem.retry:
                done["pairing_code"] = "vom Laptop abgelehnt / refused by the laptop"
    if done:
        write_atomically(paths.settings, settings_after(text, done))
    return _finish(paths, Outcome(tuple(applied), problems, paired))


def _hash(pin: str) -> str:
    from device.pin import hash_pin

    return hash_pin(pin) if pin else ""


def _apply_wifi(paths: Paths, actions: Actions, settings: Settings) -> list[str]:
    wanted = wpa_supplicant_conf(settings)
    try:
        before = paths.wpa.read_text(encoding="utf-8")
    except FileNotFoundError:
        before = ""
    if wanted != before:
        from drivers.deck import write_atomically

        paths.wpa.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(paths.wpa, wanted)  # a new file of mode 0600 (mkstemp's), as the key wants
        actions.systemctl(["enable", WPA_UNIT])
        actions.systemctl(["restart", "--no-block", WPA_UNIT])
    return ["wifi_name"]


def _pair(config: Any, settings: Settings, actions: Actions) -> tuple[Problem | None, str]:
    """Pair with the laptop, waiting for the network up to ``actions.wait_seconds``."""
    from drivers.store import StoreError, device_id
    from drivers.sync import LaptopError, SyncStateFile, pair_with_laptop, STATE_FILE

    store = Path(config.store.path)
    try:
        device = device_id(store)
    except StoreError as exc:
        return Problem("pairing_code", f"Koppeln geht nicht: {exc}", f"cannot pair: {exc}"), ""
    pair = actions.pair or (lambda url, code, dev, name: pair_with_laptop(url, code, dev, name=name))
    deadline = actions.clock() + actions.wait_seconds
    delay = 1.0
    while True:
        url = settings.laptop or config.sync.url or actions.discover() or ""
        try:
            if not url:
                raise LaptopError("no laptop found on the network", code="no_laptop")
            state = pair(url, settings.pairing_code, device, f"Tisch {config.table.number}")
        except LaptopError as exc:
            if exc.code in ("unreachable", "no_laptop") and actions.clock() + delay < deadline:
                actions.sleep(delay)
                delay = min(delay * 2, 10.0)
                continue
            _own_like(store, [store / "device-id"])
            return _pairing_problem(exc, url), ""
        SyncStateFile(store / STATE_FILE).save(state)
        _own_like(store, [store / "device-id", store / STATE_FILE])
        return None, state.laptop or state.url


def _pairing_problem(exc: Any, url: str) -> Problem:
    if exc.code in ("unreachable", "no_laptop"):
        where = f" unter {url}" if url else ""
        return Problem(
            "pairing_code",
            f"Laptop{where} nicht erreichbar: kein Netz, oder der Laptop läuft nicht (skattisch club). Der Tisch "
            "versucht es beim nächsten Start wieder; oder am Tisch: Einstellungen → Laptop koppeln.",
            f"laptop{' at ' + url if url else ''} not reachable: no network, or the laptop is not running "
            "(skattisch club). The table tries again at the next start; or on the table: Settings → Pair laptop.",
            retry=True)
    reason = str(exc).removeprefix("the laptop refused: ")
    return Problem(
        "pairing_code",
        "Der Laptop lehnt den Kopplungscode ab: falsch, schon benutzt oder älter als 10 Minuten. Am Laptop einen neuen "
        "holen (skattisch club pair) und am Tisch unter Einstellungen → Laptop koppeln eingeben.",
        f"the laptop refused the pairing code ({reason}). Get a new one on the laptop (skattisch club pair) and enter "
        "it on the table: Settings → Pair laptop.")


def _own_like(directory: Path, paths: list[Path]) -> None:
    """As root, give what was written in the store the store's owner (the table's user)."""
    if os.geteuid() != 0:
        return
    owner = directory.stat()
    for path in paths:
        if path.exists():
            os.chown(path, owner.st_uid, owner.st_gid)


def _finish(paths: Paths, outcome: Outcome) -> Outcome:
    """Leave this run's problems where the table shows them at start (none: no file)."""
    if not outcome.problems:
        paths.problems.unlink(missing_ok=True)
        return outcome
    from drivers.deck import write_atomically

    paths.problems.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(paths.problems, json.dumps(
        {"v": 1, "problems": [{"key": p.key, "de": p.de, "en": p.en, "retry": p.retry} for p in outcome.problems]},
        ensure_ascii=False, indent=1) + "\n")
    paths.problems.chmod(0o644)
    return outcome


def load_problems(path: Path = PROBLEMS_FILE) -> tuple[Problem, ...]:
    """The problems the last boot's run left for the table's screen (none if no file)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return tuple(Problem(str(p["key"]), str(p["de"]), str(p["en"]), bool(p.get("retry")))
                     for p in data["problems"])
    except FileNotFoundError:
        return ()
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return (Problem("", f"{path} ist beschädigt ({exc})", f"{path} is damaged ({exc})"),)
