"""The image's first boot (drivers/firstboot.py, ``skattisch first-boot``): the settings file a
volunteer edits on the SD card, its bad inputs named clearly, and applying it to a real config
file and a real collector (``skattisch club``) on 127.0.0.1. Fast, x86, no qemu."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from device.pin import verify_pin
from drivers.club.app import new_pairing_code
from drivers.club.store import SqliteCollectorStore
from drivers.config import parse_config
from drivers.firstboot import (
    Actions, Paths, Problem, Settings, apply_settings, load_problems, parse_settings, settings_after,
    wpa_supplicant_conf,
)
from drivers.sync import STATE_FILE, SyncStateFile
from tests.e2e.sync_helpers import ROOT, Collector

DEPLOY = ROOT / "deploy"
TEMPLATE = DEPLOY / "skattisch-settings.txt"


def problems_of(text: str) -> list[str]:
    return [problem.en for problem in parse_settings(text)[1]]


# --- the file: parsing -------------------------------------------------------------------------


def test_the_template_on_the_card_parses_without_a_problem_and_changes_only_the_table() -> None:
    settings, problems = parse_settings(TEMPLATE.read_text(encoding="utf-8"))
    assert problems == ()
    assert settings == Settings(table=1, wifi_country="DE")


def test_a_filled_in_file_as_a_volunteer_writes_it() -> None:
    text = ("\ufefftable = 12\r\nwifi_name = \"Vereinsheim 2.4\"\r\nwifi_password = geheim123\r\n"
            "wifi_country = at\r\nlaptop = 192.168.1.20\r\npairing_code = 123 456\r\npin = 2468\r\n")
    settings, problems = parse_settings(text)
    assert problems == ()
    assert settings == Settings(table=12, wifi_name="Vereinsheim 2.4", wifi_password="geheim123", wifi_country="AT",
                                laptop="http://192.168.1.20:8080", pairing_code="123456", pin="2468")


def test_german_names_for_the_keys_are_understood() -> None:
    settings, problems = parse_settings("Tisch = 3\nWLAN_Name = Club\nWLAN_Passwort = 12345678\nWLAN_Land = de\nKopplungscode = 654321\n")
    assert problems == ()
    assert (settings.table, settings.wifi_name, settings.wifi_password, settings.pairing_code) == (3, "Club", "12345678", "654321")


def test_the_reader_is_named_as_a_volunteer_would() -> None:
    for written, mode in (("RFID", "rdm6300"), ("rdm6300", "rdm6300"), ("nfc", "uid"), ("Strichcode", "barcode"),
                          ("kein", "none"), ("", "")):
        settings, problems = parse_settings(f"table = 3\nKartenleser = {written}\n")
        assert (settings.reader, problems) == (mode, ()), written


@pytest.mark.parametrize(("text", "expected"), [
    ("table = 3\nreader = laser\n", ["line 2: reader: 'laser' is not a card reader (barcode, rdm6300, nfc or none)"]),
    ("tabel = 3\n", ["line 1: unknown setting 'tabel': did you mean 'table'?",
                     "the line 'table = ...' (the table's number) is missing"]),
    ("# nothing\n", ["the line 'table = ...' (the table's number) is missing"]),
    ("table =\n", ["line 1: table: the table's number is missing (1 to 999)"]),
    ("table = zwölf\n", ["line 1: table: 'zwölf' is not a table number (1 to 999)"]),
    ("table = 0\n", ["line 1: table: '0' is not a table number (1 to 999)"]),
    ("table 3\n", ["line 1: 'table 3' is not a setting (write: name = value)",
                   "the line 'table = ...' (the table's number) is missing"]),
    ("table = 3\ntable = 4\n", ["line 2: 'table' is there twice (first on line 1); the first one counts"]),
    ("table = 3\npin = 12\n", ["line 2: pin: the PIN has 4 to 8 digits"]),
    ("table = 3\npin = abcd\n", ["line 2: pin: the PIN has 4 to 8 digits"]),
    ("table = 3\npairing_code = 12345\n",
     ["line 2: pairing_code: '12345' is not a pairing code (six digits, on the laptop: skattisch club pair)"]),
    ("table = 3\nlaptop = http://lap top\n",
     ["line 2: laptop: 'http://lap top' is not a laptop address (e.g. 192.168.1.20 or 192.168.1.20:8080)"]),
    ("table = 3\nlaptop = 192.168.1.20:99999\n",
     ["line 2: laptop: '192.168.1.20:99999' is not a laptop address (e.g. 192.168.1.20 or 192.168.1.20:8080)"]),
    ("table = 3\nwifi_name = Club\nwifi_country = DE\n", ["the password for the Wi-Fi 'Club' is missing"]),
    ("table = 3\nwifi_name = Club\nwifi_password = kurz\nwifi_country = DE\n",
     ["line 3: wifi_password: a Wi-Fi password (WPA2) has 8 to 63 characters, no accented letters"]),
    ("table = 3\nwifi_name = Club\nwifi_password = 12345678\nwifi_country = Deutschland\n",
     ["line 4: wifi_country: 'Deutschland' is not a country code (two letters, e.g. DE or AT)"]),
])
def test_each_bad_input_is_named_with_its_line_and_what_to_do(text: str, expected: list[str]) -> None:
    said = problems_of(text)
    assert [s.removesuffix(" Correct it in skattisch-settings.txt on the SD card.").rstrip(".") for s in said] == \
        [e.rstrip(".") for e in expected]
    for problem in parse_settings(text)[1]:  # the German text says the same, and where to correct it
        assert problem.de.endswith("In skattisch-settings.txt auf der SD-Karte korrigieren.")


def test_wpa_supplicant_gets_the_derived_key_not_the_password() -> None:
    conf = wpa_supplicant_conf(Settings(wifi_name="Club", wifi_password="geheim123", wifi_country="DE"))
    assert "geheim123" not in conf
    assert 'ssid="Club"' in conf and "country=DE" in conf
    # a name with a quote or an umlaut goes as hex, which wpa_supplicant reads as well
    assert "ssid=4bc3bc6368652022" in wpa_supplicant_conf(Settings(wifi_name='Küche "', wifi_password="12345678",
                                                                   wifi_country="DE"))


def test_only_the_used_keys_are_emptied_and_say_why() -> None:
    text = TEMPLATE.read_text(encoding="utf-8").replace("pin =", "pin = 2468").replace("table = 1", "table = 4")
    after = settings_after(text, {"pin": "set"})
    assert "2468" not in after and "table = 4" in after and "# pin: set" in after
    assert parse_settings(after) == (Settings(table=4, wifi_country="DE"), ())


# --- applying: a real config, a real collector ---------------------------------------------------


@pytest.fixture(scope="module")
def collector(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Collector]:
    collector = Collector(tmp_path_factory.mktemp("laptop") / "club.sqlite3")
    yield collector
    collector.stop()


def code_from(collector: Collector) -> str:
    store = SqliteCollectorStore(collector.db)
    try:
        return new_pairing_code(store, now=time.time())
    finally:
        store.close()


@pytest.fixture
def card(tmp_path: Path) -> Paths:
    """A table as the image leaves it: the example config (store in tmp), the template on the card."""
    config = tmp_path / "etc" / "skattisch.toml"
    config.parent.mkdir()
    example = (DEPLOY / "skattisch.example.toml").read_text(encoding="utf-8")
    config.write_text(example.replace('"/var/lib/skattisch/lists"', json.dumps(str(tmp_path / "lists")))
                      .replace('"/var/lib/skattisch/deck.json"', json.dumps(str(tmp_path / "deck.json"))), encoding="utf-8")
    config.chmod(0o640)
    (tmp_path / "lists").mkdir()
    settings = tmp_path / "boot" / "skattisch-settings.txt"
    settings.parent.mkdir()
    settings.write_text(TEMPLATE.read_text(encoding="utf-8"), encoding="utf-8")
    return Paths(settings=settings, config=config, problems=tmp_path / "first-boot-problems.json", wpa=tmp_path / "wpa.conf")


def fill_in(card: Paths, **values: str) -> None:
    text = card.settings.read_text(encoding="utf-8")
    for key, value in values.items():
        lines = [f"{key} = {value}" if line.split("=")[0].strip() == key else line for line in text.splitlines()]
        text = "\n".join(lines) + "\n"
    card.settings.write_text(text, encoding="utf-8")


def table_section(card: Paths) -> dict[str, object]:
    return tomllib.loads(card.config.read_text(encoding="utf-8"))["table"]  # type: ignore[no-any-return]


def test_a_first_boot_applies_everything_and_leaves_no_pin_on_the_card(card: Paths, collector: Collector) -> None:
    calls: list[list[str]] = []
    fill_in(card, table="12", wifi_name="Vereinsheim", wifi_password="geheim123", laptop=collector.url.split("//")[1],
            pairing_code=code_from(collector), pin="2468")
    outcome = apply_settings(card, Actions(systemctl=lambda args: calls.append(list(args)), wait_seconds=5))
    assert outcome.problems == ()
    assert set(outcome.applied) == {"table", "laptop", "pin", "wifi_name", "pairing_code"}
    config = parse_config(card.config.read_text(encoding="utf-8"))
    assert config.table.number == 12 and config.sync.url == collector.url
    assert verify_pin("2468", config.table.club_pin_hash)
    assert oct(card.config.stat().st_mode & 0o777) == "0o640"  # still readable by the service's group only
    on_card = card.settings.read_text(encoding="utf-8")
    assert "2468" not in on_card and "geheim123" in on_card and "table = 12" in on_card
    assert "# pairing_code: gekoppelt mit / paired with" in on_card
    state = SyncStateFile(config.store.path / STATE_FILE).load()
    assert state.paired and state.url == collector.url
    assert (config.store.path / "device-id").exists()
    assert "Vereinsheim" in card.wpa.read_text(encoding="utf-8") and oct(card.wpa.stat().st_mode & 0o777) == "0o600"
    assert ["enable", "wpa_supplicant@wlan0.service"] in calls
    assert not card.problems.exists()
    # the next boot: nothing left to do, nothing changes
    before = card.config.read_bytes(), card.settings.read_bytes(), card.wpa.read_bytes()
    calls.clear()
    again = apply_settings(card, Actions(systemctl=lambda args: calls.append(list(args))))
    assert again.problems == () and calls == []
    assert (card.config.read_bytes(), card.settings.read_bytes(), card.wpa.read_bytes()) == before


def test_bad_settings_keep_the_table_working_and_say_what_to_do(card: Paths) -> None:
    fill_in(card, table="zwölf", pin="12")
    original = card.config.read_text(encoding="utf-8")
    outcome = apply_settings(card, Actions())
    assert [p.key for p in outcome.problems] == ["table", "pin"]
    assert card.config.read_text(encoding="utf-8") == original  # the table starts as before (number 1, no PIN)
    assert "pin = 12" in card.settings.read_text(encoding="utf-8")  # nothing lost: it waits for the correction
    shown = load_problems(card.problems)
    assert [p.de for p in shown] == [p.de for p in outcome.problems]
    assert "zwölf" in shown[0].de and "1 bis 999" in shown[0].de


def test_a_wrong_pairing_code_is_refused_once_and_the_rest_is_applied(card: Paths, collector: Collector) -> None:
    fill_in(card, table="5", laptop=collector.url, pairing_code="000000", pin="1357")
    outcome = apply_settings(card, Actions(wait_seconds=5))
    assert [p.key for p in outcome.problems] == ["pairing_code"]
    problem = outcome.problems[0]
    assert not problem.retry and "skattisch club pair" in problem.de and "Laptop koppeln" in problem.de
    assert table_section(card)["number"] == 5 and verify_pin("1357", str(table_section(card)["club_pin_hash"]))
    on_card = card.settings.read_text(encoding="utf-8")
    assert "000000" not in on_card and "# pairing_code: vom Laptop abgelehnt" in on_card and "1357" not in on_card
    assert not SyncStateFile(card.config.parent.parent / "lists" / STATE_FILE).load().paired


def test_without_a_network_the_pairing_waits_then_is_tried_again_at_the_next_boot(card: Paths, collector: Collector) -> None:
    code = code_from(collector)
    fill_in(card, table="6", laptop="127.0.0.1:9", pairing_code=code)  # nobody listens on port 9
    clock = [0.0]
    waited: list[float] = []

    def sleep(seconds: float) -> None:
        waited.append(seconds)
        clock[0] += seconds

    outcome = apply_settings(card, Actions(sleep=sleep, clock=lambda: clock[0], wait_seconds=30))
    assert [p.key for p in outcome.problems] == ["pairing_code"] and outcome.problems[0].retry
    assert "nächsten Start" in outcome.problems[0].de and 0 < sum(waited) <= 30
    assert code in card.settings.read_text(encoding="utf-8")  # kept for the next boot
    assert table_section(card)["number"] == 6  # the rest did not wait
    # the next boot, the laptop is there (its address corrected on the card): paired
    fill_in(card, laptop=collector.url)
    assert apply_settings(card, Actions(wait_seconds=5)).problems == ()
    assert code not in card.settings.read_text(encoding="utf-8")
    assert not card.problems.exists()


def test_a_tag_reader_from_the_card_waits_for_its_deck_to_be_taught_in(card: Paths) -> None:
    from drivers.adapters import load_deck

    fill_in(card, reader="rdm6300")
    assert apply_settings(card, Actions()).problems == ()
    reader = parse_config(card.config.read_text(encoding="utf-8"), str(card.config)).reader
    assert (reader.enabled, reader.mode, reader.deck) == (True, "rdm6300", card.config.parent.parent / "deck.json")
    assert "Kartensatz anlernen" in load_deck(reader).problem  # the table starts and says what to do
    fill_in(card, reader="none")
    apply_settings(card, Actions())
    assert not parse_config(card.config.read_text(encoding="utf-8"), str(card.config)).reader.enabled


def test_a_config_without_a_deck_gets_one_where_the_table_may_write_it(card: Paths) -> None:
    card.config.write_text("[table]\nnumber = 1\n", encoding="utf-8")
    fill_in(card, reader="nfc")
    assert apply_settings(card, Actions()).problems == ()
    reader = parse_config(card.config.read_text(encoding="utf-8"), str(card.config)).reader
    assert (reader.mode, reader.deck) == ("uid", Path("/var/lib/skattisch/deck.json"))


def test_no_settings_file_changes_nothing(card: Paths) -> None:
    card.settings.unlink()
    original = card.config.read_bytes()
    assert apply_settings(card, Actions()).problems == ()
    assert card.config.read_bytes() == original


def test_a_file_that_is_not_text_is_named(card: Paths) -> None:
    card.settings.write_bytes(b"table = \xff\xfe\n")
    problems = apply_settings(card, Actions()).problems
    assert len(problems) == 1 and "cannot be read" in problems[0].en and "UTF-8" in problems[0].de


def test_a_damaged_problems_file_is_itself_a_problem(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text("{", encoding="utf-8")
    assert "damaged" in load_problems(path)[0].en
    assert load_problems(tmp_path / "none.json") == ()


def test_the_command_always_lets_the_table_start(card: Paths) -> None:
    fill_in(card, table="tisch")
    result = subprocess.run(
        [sys.executable, "-m", "ui.cli", "first-boot", "--settings", str(card.settings), "--config", str(card.config),
         "--problems", str(card.problems), "--wpa", str(card.wpa), "--no-systemctl", "--wait", "1"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, env={**os.environ, "SKATTISCH_CONFIG": str(card.config)})
    assert result.returncode == 0, result.stderr
    assert "PROBLEM line 17: table: 'tisch' is not a table number (1 to 999)" in result.stdout
    assert load_problems(card.problems)[0] == Problem(
        "table", "Zeile 17: table: „tisch“ ist keine Tischnummer (1 bis 999). In skattisch-settings.txt auf der SD-Karte "
                 "korrigieren.",
        "line 17: table: 'tisch' is not a table number (1 to 999). Correct it in skattisch-settings.txt on the SD card.")


# --- the image's scripts and unit ---------------------------------------------------------------

IMAGE_SCRIPTS = [DEPLOY / "build-image.sh", DEPLOY / "test-image.sh"]
FIRST_BOOT_UNIT = DEPLOY / "skattisch-first-boot.service"
GROW_ROOT_SCRIPT = DEPLOY / "skattisch-grow-root.sh"
PI5_CHECK = DEPLOY / "pi5-kernel-check.sh"
GROW_ROOT_UNIT = DEPLOY / "skattisch-grow-root.service"


@pytest.mark.skipif(subprocess.run(["which", "shellcheck"], capture_output=True).returncode != 0,
                    reason="shellcheck is not installed")
@pytest.mark.parametrize("script", [*IMAGE_SCRIPTS, GROW_ROOT_SCRIPT, PI5_CHECK], ids=lambda p: p.name)
def test_the_image_scripts_pass_shellcheck(script: Path) -> None:
    result = subprocess.run(["shellcheck", "-x", str(script)], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stdout


@pytest.mark.parametrize("script", IMAGE_SCRIPTS, ids=lambda p: p.name)
def test_the_image_scripts_explain_themselves(script: Path) -> None:
    result = subprocess.run(["bash", str(script), "--help"], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    assert f"sudo deploy/{script.name}" in result.stdout and "qemu" in result.stdout
    assert os.access(script, os.X_OK)


def unit_lines(unit: Path) -> list[str]:
    """A systemd unit's settings, one per line, without comments and blank lines."""
    text = unit.read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


def test_the_first_boot_unit_runs_before_the_table_and_never_holds_it_back() -> None:
    lines = unit_lines(FIRST_BOOT_UNIT)
    assert "Before=skattisch.service" in lines and "Type=oneshot" in lines
    assert "ExecStart=/opt/skattisch/venv/bin/skattisch first-boot" in lines
    assert not [line for line in lines if line.startswith(("Requires=", "RequiredBy=", "BindsTo="))]
    assert "RequiresMountsFor=/boot/firmware /var/lib/skattisch" in lines
    # the settings file it reads is the one the image puts on the boot partition
    assert "skattisch-settings.txt" in (DEPLOY / "build-image.sh").read_text(encoding="utf-8")


@pytest.mark.skipif(subprocess.run(["which", "systemd-analyze"], capture_output=True).returncode != 0,
                    reason="systemd-analyze is not installed")
def test_systemd_accepts_the_first_boot_unit() -> None:
    result = subprocess.run(["systemd-analyze", "verify", str(FIRST_BOOT_UNIT)], capture_output=True, text=True)
    complaints = [line for line in (result.stdout + result.stderr).splitlines()
                  if line.strip() and "is not executable" not in line and "skattisch.service" not in line]
    assert complaints == []


def test_the_pi5_check_explains_itself_and_the_guide_names_it() -> None:
    result = subprocess.run(["bash", str(PI5_CHECK), "--help"], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    assert "bcm2712-rpi-5-b.dtb" in result.stdout and "sdhci-brcmstb" in result.stdout
    # and whether the kernel installs on the image's bookworm root (run-parts of debianutils)
    assert "debianutils 5.21" in result.stdout and "bookworm" in result.stdout
    # and whether the kernel's own release's debianutils would (it pre-depends on a newer libc6)
    assert "libc6" in result.stdout and "base-files" in result.stdout
    assert os.access(PI5_CHECK, os.X_OK)
    guide = " ".join((DEPLOY.parent / "docs" / "reference" / "image.md").read_text(encoding="utf-8").split())  # as read, not as wrapped
    assert "deploy/pi5-kernel-check.sh" in guide and "debianutils 5.21 or later" in guide
    assert "pre-depends on libc6 >= 2.38" in guide


def test_the_root_grows_before_the_table_starts_and_the_image_has_what_it_needs() -> None:
    lines = unit_lines(GROW_ROOT_UNIT)
    assert "Type=oneshot" in lines and "ExecStart=/usr/local/sbin/skattisch-grow-root" in lines
    assert "Before=skattisch-first-boot.service skattisch.service" in lines
    assert not [line for line in lines if line.startswith(("Requires=", "RequiredBy=", "BindsTo="))]
    assert os.access(GROW_ROOT_SCRIPT, os.X_OK)
    build = (DEPLOY / "build-image.sh").read_text(encoding="utf-8")
    # growpart is Debian's cloud-guest-utils; the script and the enabled unit go into the root
    assert "cloud-guest-utils" in build.split("IMAGE_PACKAGES=(", 1)[1].split(")", 1)[0]
    assert '"$R/usr/local/sbin/skattisch-grow-root"' in build
    assert "multi-user.target.wants/skattisch-grow-root.service" in build
    # the boot test boots a larger copy and checks the grown root
    assert "copy_image good 2G" in (DEPLOY / "test-image.sh").read_text(encoding="utf-8")


def test_the_boot_defaults_leave_cma_out_as_raspi_firmware_does_on_a_pi_4(tmp_path: Path) -> None:
    """raspi-firmware's kernel hook writes cmdline.txt from /etc/default/raspi-firmware: it starts
    from CMA=64M and omits "cma=" only when it runs on a Pi 4 ("specifying CMA ... renders it
    unbootable") or when CMA=0. In the build's chroot it cannot see the board, so the image's
    defaults must say CMA=0; the hook reads the file as shell, as here."""
    defaults = tmp_path / "raspi-firmware"
    script = (f'set -euo pipefail\n. "{DEPLOY}/build-image.sh"\nprintf "%s\\n" "$RASPI_DEFAULTS" >"{defaults}"\n'
              f'CMA=64M; . "{defaults}"; echo "CMA=$CMA ROOTPART=$ROOTPART"\n')
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["CMA=0", "ROOTPART=PARTUUID=5ca77150-02"]
    assert "check_boot_files" in (DEPLOY / "test-image.sh").read_text(encoding="utf-8")  # and the boot test looks


@pytest.mark.skipif(subprocess.run(["which", "systemd-analyze"], capture_output=True).returncode != 0,
                    reason="systemd-analyze is not installed")
def test_systemd_accepts_the_grow_root_unit() -> None:
    result = subprocess.run(["systemd-analyze", "verify", str(GROW_ROOT_UNIT)], capture_output=True, text=True)
    complaints = [line for line in (result.stdout + result.stderr).splitlines()
                  if line.strip() and "is not executable" not in line and "skattisch" not in line.split(":")[-1]
                  and "/usr/local/sbin/skattisch-grow-root" not in line]
    assert complaints == []


NEEDED = ("mkfs.vfat", "mcopy", "mke2fs", "debugfs", "dumpe2fs", "sfdisk")


@pytest.mark.skipif(any(subprocess.run(["which", tool], capture_output=True).returncode for tool in NEEDED),
                    reason=f"needs {', '.join(NEEDED)} (dosfstools, mtools, e2fsprogs, fdisk)")
def test_the_image_is_made_without_mounts_the_same_bytes_each_time(tmp_path: Path) -> None:
    """build-image.sh's partitions and disk (small ones) from the same folders: byte for byte
    the same, whenever the folders' files were last touched; fixed ids and labels."""
    boot, root = tmp_path / "boot", tmp_path / "root" / "etc"
    boot.mkdir()
    root.mkdir(parents=True)
    (boot / "config.txt").write_text("arm_64bit=1\n")
    (boot / "skattisch-settings.txt").write_text(TEMPLATE.read_text(encoding="utf-8"))
    (root / "hostname").write_text("skattisch\n")
    script = (f'set -euo pipefail\n. "{DEPLOY}/build-image.sh"\nBOOT_MIB=40; ROOT_FREE_MIB=8; export SOURCE_DATE_EPOCH=1700000000\n'
              f'clamp_times "{boot}"; clamp_times "{root.parent}"\n'
              f'make_boot_partition "{boot}" "$1.vfat"; make_root_partition "{root.parent}" "$1.ext4"\n'
              f'assemble "$1.vfat" "$1.ext4" "$1"\n')
    images = []
    for name in ("one.img", "two.img"):
        (root / "hostname").touch()  # a later build: the files' own times differ
        done = subprocess.run(["bash", "-c", script, "build", str(tmp_path / name)], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        images.append((tmp_path / name).read_bytes())
    assert images[0] == images[1]
    table = json.loads(subprocess.run(["sfdisk", "--json", str(tmp_path / "one.img")], capture_output=True, text=True,
                                      check=True).stdout)["partitiontable"]
    assert table["id"] == "0x5ca77150" and [p["type"] for p in table["partitions"]] == ["c", "83"]
    boot_at = table["partitions"][0]["start"] * 512
    listing = subprocess.run(["mdir", "-i", f"{tmp_path / 'one.img'}@@{boot_at}", "::"], capture_output=True,
                             text=True, check=True).stdout
    assert "SKATBOOT" in listing and "5CA7-0001" in listing and "skattisch-settings.txt" in listing
    root_at = table["partitions"][1]["start"] * 512
    stat = subprocess.run(["debugfs", "-R", "stat /etc/hostname", f"{tmp_path / 'one.img'}?offset={root_at}"],
                          capture_output=True, text=True, check=True).stdout
    assert stat.count("2023") >= 4  # ctime, atime, mtime, crtime: all SOURCE_DATE_EPOCH (2023-11-14)


def test_a_pairing_code_for_the_cards_may_be_valid_longer_than_ten_minutes(tmp_path: Path) -> None:
    """Twenty cards take longer than ten minutes to prepare: 'club pair --minutes N'."""
    db = tmp_path / "club.sqlite3"

    def pair_code(*options: str) -> dict[str, object]:
        done = subprocess.run([sys.executable, "-m", "ui.cli", "club", "pair", "--db", str(db), "--json", *options],
                              cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)  # type: ignore[no-any-return]

    long, short = pair_code("--minutes", "90"), pair_code()
    assert (long["valid_seconds"], short["valid_seconds"]) == (5400, 600)
    store = SqliteCollectorStore(db)
    try:
        later = time.time() + 30 * 60
        store.pair(str(long["code"]), "table-a", "Tisch 1", "s" * 64, now=later)
        with pytest.raises(Exception, match="not valid"):
            store.pair(str(short["code"]), "table-b", "Tisch 2", "s" * 64, now=later)
    finally:
        store.close()
    wrong = subprocess.run([sys.executable, "-m", "ui.cli", "club", "pair", "--db", str(db), "--minutes", "0"],
                           cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert wrong.returncode == 2 and "whole minutes from 1 to 1440" in wrong.stderr
