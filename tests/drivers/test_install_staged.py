"""``deploy/install.sh --root DIR``: the tree it would install, checked file by file.

The script runs for real into a temporary folder (twice: an update must keep the config, the
PIN and the data), with ``PIP_NO_DEPS=1`` so that the venv gets Skattisch itself without
fetching Kivy and lgpio for a Pi (the entry point and the config check need neither).
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from device.pin import verify_pin
from drivers.config import load_config

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
INSTALL = DEPLOY / "install.sh"
CMDLINE = "console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 rootfstype=ext4 fsck.repair=yes rootwait\n"
LEGACY_DECK = '{"v": 1, "cards": {"0A00C4E1F2": "CJ"}}\n'


@dataclass
class Staged:
    root: Path
    first: subprocess.CompletedProcess[str]
    second: subprocess.CompletedProcess[str]

    def path(self, installed: str) -> Path:
        return self.root / installed.lstrip("/")

    def ids(self, name: str) -> int:
        """The uid (or gid) of ``name`` in the staged /etc/passwd (/etc/group)."""
        for file in ("passwd", "group"):
            for line in self.path(f"/etc/{file}").read_text().splitlines():
                fields = line.split(":")
                if fields[0] == name:
                    return int(fields[2])
        raise AssertionError(f"no {name} in the staged passwd/group")


def install(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PIP_NO_DEPS": "1"}
    return subprocess.run(["bash", str(INSTALL), "--root", str(root), *args], capture_output=True, text=True,
                          env=env, stdin=subprocess.DEVNULL, timeout=300)


@pytest.fixture(scope="module")
def staged(tmp_path_factory: pytest.TempPathFactory) -> Staged:
    root = tmp_path_factory.mktemp("pi")
    # what a fresh Raspberry Pi OS has that the script changes
    (root / "boot/firmware").mkdir(parents=True)
    (root / "boot/firmware/cmdline.txt").write_text(CMDLINE)
    autologin = root / "etc/systemd/system/getty@tty1.service.d/autologin.conf"
    autologin.parent.mkdir(parents=True)
    autologin.write_text("[Service]\nExecStart=\nExecStart=-/sbin/agetty --autologin pi --noclear %I $TERM\n")
    (root / "etc/polkit-1/rules.d").mkdir(parents=True, mode=0o700)  # as the polkitd package has it
    (root / "etc/skattisch").mkdir(parents=True)
    (root / "etc/skattisch/deck.json").write_text(LEGACY_DECK)  # where an older example put it
    first = install(root)
    assert first.returncode == 0, first.stdout[-3000:] + first.stderr[-3000:]
    second = install(root)
    assert second.returncode == 0, second.stdout[-3000:] + second.stderr[-3000:]
    return Staged(root, first, second)


def test_every_step_is_named_in_order(staged: Staged) -> None:
    steps = re.findall(r"^==> (\w+):", staged.first.stdout, re.MULTILINE)
    assert steps == ["packages", "user", "venv", "data", "config", "pin", "udev", "polkit", "console", "service"]


def test_the_service_user_and_its_groups(staged: Staged) -> None:
    user = next(line for line in staged.path("/etc/passwd").read_text().splitlines()
                if line.startswith("skattisch:"))
    assert user.split(":")[5:] == ["/var/lib/skattisch", "/usr/sbin/nologin"]
    groups = {line.split(":")[0]: line.split(":")[3].split(",") for line in
              staged.path("/etc/group").read_text().splitlines()}
    for group in ("dialout", "gpio", "video", "render", "input"):
        assert "skattisch" in groups[group], group


def test_unit_udev_and_polkit_rules_are_installed_and_enabled(staged: Staged) -> None:
    for source, target in (("skattisch.service", "/etc/systemd/system/skattisch.service"),
                           ("99-skattisch-reader.rules", "/etc/udev/rules.d/99-skattisch-reader.rules"),
                           ("60-skattisch-gpio.rules", "/etc/udev/rules.d/60-skattisch-gpio.rules"),
                           ("50-skattisch-power.rules", "/etc/polkit-1/rules.d/50-skattisch-power.rules")):
        installed = staged.path(target)
        assert installed.read_bytes() == (DEPLOY / source).read_bytes(), target
        assert stat.S_IMODE(installed.stat().st_mode) == 0o644, target
    # a folder of another package keeps its mode (the arm64 run found polkitd's made 0755)
    assert stat.S_IMODE(staged.path("/etc/polkit-1/rules.d").stat().st_mode) == 0o700
    wants = staged.path("/etc/systemd/system/multi-user.target.wants/skattisch.service")
    assert os.readlink(wants) == "/etc/systemd/system/skattisch.service"
    assert os.readlink(staged.path("/etc/systemd/system/default.target")).endswith("/multi-user.target")


def test_polkit_lets_exactly_the_service_user_power_off_and_reboot() -> None:
    rule = (DEPLOY / "50-skattisch-power.rules").read_text()
    code = re.sub(r"//.*", "", rule)
    assert re.findall(r'"(org\.freedesktop\.[\w.-]+)"', code) == [
        "org.freedesktop.login1.power-off", "org.freedesktop.login1.power-off-multiple-sessions",
        "org.freedesktop.login1.reboot", "org.freedesktop.login1.reboot-multiple-sessions"]
    assert re.findall(r"subject\.(\w+)", code) == ["user"]
    assert 'subject.user === "skattisch" && allowed.indexOf(action.id) >= 0' in code
    assert code.count("polkit.Result.YES") == 1


def test_the_config_comes_from_the_example_with_a_hashed_pin_and_is_kept(staged: Staged) -> None:
    config_file = staged.path("/etc/skattisch/skattisch.toml")
    pin = re.search(r"the settings PIN is (\d{6}) ", staged.first.stdout)
    assert pin, staged.first.stdout
    text = config_file.read_text()
    assert pin.group(1) not in text  # never in plain text
    config = load_config(config_file)  # the same code the table reads it with
    assert verify_pin(pin.group(1), config.table.club_pin_hash)
    assert not verify_pin("000000" if pin.group(1) != "000000" else "111111", config.table.club_pin_hash)
    example = (DEPLOY / "skattisch.example.toml").read_text()
    assert text == example.replace('club_pin_hash = ""', f'club_pin_hash = "{config.table.club_pin_hash}"')
    assert config.reader.deck == Path("/var/lib/skattisch/deck.json")
    # the second run (an update) kept the file and the PIN, and printed no new PIN
    assert "a PIN is set; kept it" in staged.second.stdout
    assert "the settings PIN is" not in staged.second.stdout


def test_folders_and_files_have_the_right_owner_and_mode(staged: Staged) -> None:
    user, group = staged.ids("skattisch"), staged.ids("skattisch")
    expected = {
        "/etc/skattisch": (0o750, 0, group, True),
        "/etc/skattisch/skattisch.toml": (0o640, 0, group, False),
        "/var/lib/skattisch": (0o750, user, user, True),
        "/var/lib/skattisch/lists": (0o750, user, user, True),
        "/var/lib/skattisch/.kivy": (0o750, user, user, True),
        "/var/lib/skattisch/.kivy/config.ini": (0o640, user, user, False),
        "/var/lib/skattisch/deck.json": (0o640, user, user, False),
        "/etc/systemd/system/skattisch.service": (0o644, 0, 0, False),
    }
    as_root = os.geteuid() == 0
    for path, (mode, uid, gid, is_dir) in expected.items():
        info = staged.path(path).stat()
        assert stat.S_ISDIR(info.st_mode) == is_dir, path
        assert stat.S_IMODE(info.st_mode) == mode, path
        if as_root:  # not root, the script can only keep the caller's ownership (and says so)
            assert (info.st_uid, info.st_gid) == (uid, gid), path
    if not as_root:
        assert "not root: the staged files keep your ownership" in staged.first.stderr
    assert staged.path("/var/lib/skattisch/deck.json").read_text() == LEGACY_DECK


def test_the_venv_entry_point_runs_and_checks_the_installed_config(staged: Staged) -> None:
    entry = staged.path("/opt/skattisch/venv/bin/skattisch")
    assert os.access(entry, os.X_OK)
    done = subprocess.run([str(entry), "config", str(staged.path("/etc/skattisch/skattisch.toml"))],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "the file is fine" in done.stdout and "# club_pin_hash is set (hidden)" in done.stdout


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_systemd_accepts_the_staged_unit_and_finds_its_programs(staged: Staged, tmp_path: Path) -> None:
    # The unit names /opt/skattisch/...: point it into the staged tree, so that systemd checks
    # that the installed entry point is there and executable. (--root=DIR would need a whole
    # systemd in DIR: sysinit.target and the rest.)
    unit = staged.path("/etc/systemd/system/skattisch.service").read_text()
    assert "/opt/skattisch/venv/bin/skattisch" in unit
    (tmp_path / "skattisch.service").write_text(unit.replace("/opt/skattisch", str(staged.path("/opt/skattisch"))))
    done = subprocess.run(["systemd-analyze", "verify", str(tmp_path / "skattisch.service")],
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout + done.stderr) == (0, "")


def test_console_has_no_auto_login_and_no_blanking(staged: Staged) -> None:
    assert not staged.path("/etc/systemd/system/getty@tty1.service.d/autologin.conf").exists()
    assert staged.path("/boot/firmware/cmdline.txt").read_text() == CMDLINE.rstrip("\n") + " consoleblank=0\n"


def test_uninstall_removes_the_program_and_keeps_the_data(staged: Staged, tmp_path: Path) -> None:
    root = tmp_path / "pi"
    shutil.copytree(staged.root, root, symlinks=True)
    (root / "var/lib/skattisch/lists/evening.jsonl").write_text("{}\n")
    done = install(root, "--uninstall")
    assert done.returncode == 0, done.stderr
    for gone in ("etc/systemd/system/skattisch.service", "etc/systemd/system/multi-user.target.wants/skattisch.service",
                 "etc/udev/rules.d/99-skattisch-reader.rules", "etc/udev/rules.d/60-skattisch-gpio.rules",
                 "etc/polkit-1/rules.d/50-skattisch-power.rules",
                 "opt/skattisch"):
        assert not (root / gone).exists(), gone
    for kept in ("etc/skattisch/skattisch.toml", "var/lib/skattisch/lists/evening.jsonl",
                 "var/lib/skattisch/deck.json"):
        assert (root / kept).exists(), kept
    assert "skattisch:" in (root / "etc/passwd").read_text()


def test_overlay_is_refused_when_staging(tmp_path: Path) -> None:
    done = install(tmp_path, "--overlay")
    assert done.returncode == 2 and "not with --root" in done.stderr
    assert list(tmp_path.iterdir()) == []


POLKIT_HARNESS = """
const polkit = {Result: {YES: "yes", NO: "no", NOT_HANDLED: "not_handled"}, rules: [],
                addRule(rule) { this.rules.push(rule); }};
eval(require("fs").readFileSync(process.argv[2], "utf8"));
const cases = JSON.parse(process.argv[3]);
console.log(JSON.stringify(cases.map(([user, id]) => polkit.rules[0]({id}, {user}))));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed to run polkit's JavaScript rule")
def test_the_polkit_rule_run_as_polkit_would_run_it(tmp_path: Path) -> None:
    import json

    cases = [("skattisch", "org.freedesktop.login1.power-off"), ("skattisch", "org.freedesktop.login1.reboot"),
             ("skattisch", "org.freedesktop.login1.power-off-multiple-sessions"),
             ("skattisch", "org.freedesktop.login1.reboot-multiple-sessions"),
             ("skattisch", "org.freedesktop.login1.power-off-ignore-inhibit"),
             ("skattisch", "org.freedesktop.systemd1.manage-units"), ("skattisch", "org.freedesktop.login1.halt"),
             ("pi", "org.freedesktop.login1.power-off"), ("skattisch2", "org.freedesktop.login1.reboot")]
    (tmp_path / "harness.js").write_text(POLKIT_HARNESS)
    done = subprocess.run(["node", str(tmp_path / "harness.js"), str(DEPLOY / "50-skattisch-power.rules"),
                           json.dumps(cases)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == ["yes"] * 4 + ["not_handled"] * 5
