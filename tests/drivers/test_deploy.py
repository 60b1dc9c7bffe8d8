"""The Raspberry Pi installation files in deploy/: they parse, and they agree with each other."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from drivers.config import Config, load_config

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
INSTALL = DEPLOY / "install.sh"
UNIT = DEPLOY / "skattisch.service"
RULES = DEPLOY / "99-skattisch-reader.rules"


def unit_entries() -> dict[str, list[tuple[str, str]]]:
    """The unit file as sections of (key, value) pairs, in order (keys may repeat)."""
    sections: dict[str, list[tuple[str, str]]] = {}
    current = None
    for line in UNIT.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        header = re.fullmatch(r"\[(\w+)\]", line)
        if header:
            current = sections.setdefault(header.group(1), [])
            continue
        assert current is not None, f"{line!r} before the first section"
        key, sep, value = line.partition("=")
        assert sep, f"not a key=value line: {line!r}"
        current.append((key.strip(), value.strip()))
    return sections


def values(section: str, key: str) -> list[str]:
    return [value for k, value in unit_entries().get(section, []) if k == key]


def install_variable(name: str) -> str:
    found = re.search(rf"^{name}=(\S+)$", INSTALL.read_text(encoding="utf-8"), re.MULTILINE)
    assert found, f"install.sh sets no {name}"
    return found.group(1)


def test_install_script_is_valid_bash() -> None:
    result = subprocess.run(["bash", "-n", str(INSTALL)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_the_scripts_the_guide_runs_are_executable() -> None:
    """The arm64 run's first stop: a fresh clone's ``sudo deploy/install.sh`` said "command not found"."""
    for script in (INSTALL, DEPLOY / "test-arm64.sh", DEPLOY.parent / "dev.sh", DEPLOY.parent / ".ci" / "run"):
        assert os.access(script, os.X_OK), f"{script} is not executable (git update-index --chmod=+x)"


def test_install_script_explains_itself_without_root() -> None:
    result = subprocess.run(["bash", str(INSTALL), "--help"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "sudo deploy/install.sh" in result.stdout and "--no-start" in result.stdout
    wrong = subprocess.run(["bash", str(INSTALL), "--bogus"], capture_output=True, text=True)
    assert wrong.returncode == 2 and "unknown option --bogus" in wrong.stderr


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
def test_install_script_passes_shellcheck() -> None:
    result = subprocess.run(["shellcheck", str(INSTALL)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def test_install_script_does_what_the_brief_asks() -> None:
    text = INSTALL.read_text(encoding="utf-8")
    assert text.startswith("#!/usr/bin/env bash\n") and "set -euo pipefail" in text
    assert install_variable("VENV") == "$PREFIX/venv" and install_variable("PREFIX") == "/opt/skattisch"
    assert '".[ui,pi]"' in text
    for group in ("dialout", "gpio", "video", "input"):
        assert re.search(rf"GROUPS_WANTED=\(.*\b{group}\b.*\)", text), group
    for name in (UNIT.name, RULES.name, "skattisch.example.toml", "50-skattisch-power.rules"):  # the files it installs exist
        assert f"$SRC/deploy/{name}" in text and (DEPLOY / name).is_file()
    assert "multi-user.target.wants/skattisch.service" in text  # enabled (works when staging, too)
    # that an existing config is kept: test_install_staged.py runs the script twice


def test_unit_has_the_needed_keys() -> None:
    assert values("Unit", "Description")
    assert values("Service", "Restart") == ["on-failure"]
    assert values("Service", "User") == ["skattisch"]
    assert values("Install", "WantedBy") == ["multi-user.target"]
    env = dict(value.split("=", 1) for value in values("Service", "Environment"))
    assert env["SDL_VIDEODRIVER"] == "kmsdrm" and env["KIVY_WINDOW"] == "sdl2"
    assert env["SKATTISCH_CONFIG"] == "/etc/skattisch/skattisch.toml"
    assert env["KIVY_NO_ARGS"] == "1"  # Kivy must leave the command line to skattisch


def test_unit_sends_the_tables_log_and_kivys_to_the_journal() -> None:
    env = dict(value.split("=", 1) for value in values("Service", "Environment"))
    # Kivy adds no handlers (no files under ~/.kivy/logs); skattisch run logs to stderr
    assert env["KIVY_LOG_MODE"] == "PYTHON" and env["KIVY_NO_FILELOG"] == "1"
    assert env["SKATTISCH_KIVY_LOG"] == "info"  # Kivy's window, GL and input lines: why a screen or a tap fails
    assert env["PYTHONUNBUFFERED"] == "1"
    assert values("Service", "StandardError") == ["journal"]


def test_unit_runs_the_installed_skattisch() -> None:
    venv = "/opt/skattisch/venv"  # install.sh: PREFIX=/opt/skattisch, VENV=$PREFIX/venv
    assert values("Service", "ExecStart") == [f"{venv}/bin/skattisch run"]
    assert values("Service", "ExecStartPre") == [f"{venv}/bin/skattisch config"]


def test_unit_state_folder_holds_the_example_store() -> None:
    state = Path("/var/lib") / values("Service", "StateDirectory")[0]
    assert load_config(DEPLOY / "skattisch.example.toml").store.path.is_relative_to(state)
    assert values("Service", "WorkingDirectory") == [str(state)]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_systemd_accepts_the_unit() -> None:
    result = subprocess.run(["systemd-analyze", "verify", str(UNIT)], capture_output=True, text=True)
    complaints = [
        line
        for line in (result.stdout + result.stderr).splitlines()
        if line.strip() and "is not executable" not in line  # /opt/skattisch is not installed here
    ]
    assert complaints == []


def rules(path: Path = RULES) -> list[dict[str, str]]:
    """The active udev rules, each as {"KEY op": value}."""
    parsed = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        pairs = re.findall(r'\s*([A-Za-z_]+(?:\{[^}]*\})?)\s*(==|!=|\+=|:=|=)\s*"([^"]*)"\s*(?:,|$)', line)
        rebuilt = ", ".join(f'{key}{op}"{value}"' for key, op, value in pairs)
        assert rebuilt == line.strip(), f"cannot read this rule: {line}"
        parsed.append({f"{key} {op}": value for key, op, value in pairs})
    return parsed


def test_udev_rules_make_the_reader_symlink_the_config_expects() -> None:
    assert rules(), "no active rule"
    default_port = Config().reader.port
    for rule in rules():
        assert rule["SUBSYSTEM =="] == "tty"
        assert re.fullmatch(r"[0-9a-f]{4}", rule["ATTRS{idVendor} =="])
        assert re.fullmatch(r"[0-9a-f]{4}", rule["ATTRS{idProduct} =="])
        assert "/dev/" + rule["SYMLINK +="] == default_port
        assert rule["GROUP ="] == "dialout"  # a group the service's user is in
    pairs = [(r["ATTRS{idVendor} =="], r["ATTRS{idProduct} =="]) for r in rules()]
    assert len(pairs) == len(set(pairs))


GPIO_RULES = DEPLOY / "60-skattisch-gpio.rules"
DEBIAN_UDEV = Path("/usr/lib/udev/rules.d/50-udev-default.rules")  # the image's udev is Debian's


def service_groups() -> set[str]:
    found = re.search(r"^GROUPS_WANTED=\((.*)\)$", INSTALL.read_text(encoding="utf-8"), re.MULTILINE)
    assert found, "install.sh sets no GROUPS_WANTED"
    return set(found.group(1).split())


def test_the_gpio_chips_are_given_to_a_group_of_the_service_user() -> None:
    # Debian's udev leaves /dev/gpiochip* to root: lgpio, and so the panel, would be denied
    assert rules(GPIO_RULES) == [{"SUBSYSTEM ==": "gpio", "KERNEL ==": "gpiochip[0-9]*", "GROUP =": "gpio",
                                  "MODE =": "0660"}]
    assert "gpio" in service_groups()
    assert f"$SRC/deploy/{GPIO_RULES.name}" in INSTALL.read_text(encoding="utf-8")


def test_every_device_the_table_opens_belongs_to_a_group_of_the_service_user() -> None:
    given = {rule["GROUP ="] for rule in rules() + rules(GPIO_RULES)}  # the reader's tty, the GPIO chips
    if DEBIAN_UDEV.exists():  # the screen (kmsdrm: card and render nodes) and the touchscreen (evdev)
        text = DEBIAN_UDEV.read_text(encoding="utf-8")
        for match, group in (('SUBSYSTEM=="drm", KERNEL!="renderD*"', "video"),
                             ('SUBSYSTEM=="drm", KERNEL=="renderD*"', "render"), ('SUBSYSTEM=="input"', "input")):
            assert re.search(rf'^{re.escape(match)}, GROUP="{group}"', text, re.MULTILINE), (match, group)
            given.add(group)
    assert given <= service_groups(), given - service_groups()
    assert {"dialout", "gpio", "video", "render", "input"} <= service_groups()
    # systemd gives a User= service that user's groups; a Group= of its own does not take them away
    assert values("Service", "User") == ["skattisch"] and not values("Service", "SupplementaryGroups")
    assert not values("Service", "PrivateDevices") and not values("Service", "DevicePolicy")


TEST_ARM64 = DEPLOY / "test-arm64.sh"


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
def test_the_arm64_test_passes_shellcheck() -> None:
    result = subprocess.run(["shellcheck", str(TEST_ARM64)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def test_the_arm64_test_explains_itself() -> None:
    result = subprocess.run(["bash", str(TEST_ARM64), "--help"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "sudo deploy/test-arm64.sh" in result.stdout and "--can-run" in result.stdout
    wrong = subprocess.run(["bash", str(TEST_ARM64), "--bogus"], capture_output=True, text=True)
    assert wrong.returncode == 1 and "unknown option --bogus" in wrong.stderr


def daemon_helpers() -> str:
    """install.sh's own code that decides whether systemd or udevd is told about new files."""
    text = INSTALL.read_text(encoding="utf-8")
    start = text.index("SYSTEMD_RUN_DIR=")
    end = text.index("\n}\n", text.index("running_here() {")) + 3
    return text[start:end]


def ask_daemons(tmp_path: Path, *, udevd: bool, systemd: bool) -> subprocess.CompletedProcess[str]:
    """install.sh's helpers, not staged, on a machine where udevd and systemd run or not: a fake
    udevadm answers the ping (or fails as in a chroot) and records every call."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    udevadm = bin_dir / "udevadm"
    udevadm.write_text('#!/bin/sh\necho "$*" >> "$CALLS"\n'
                       + ('exit 0\n' if udevd else 'echo "Failed to send reload request: No such file" >&2; exit 1\n'))
    udevadm.chmod(0o755)
    run_dir = tmp_path / "run-systemd-system"
    if systemd:
        run_dir.mkdir()
    script = ('note() { printf "    %s\\n" "$*"; }\nstaged() { false; }\n' + daemon_helpers()
              + f'SYSTEMD_RUN_DIR={run_dir}\n'
              + 'if running_here udevd "udevadm control --reload-rules"; then echo "told udevd"; fi\n'
              + 'if running_here systemd "systemctl daemon-reload"; then echo "told systemd"; fi\n')
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "CALLS": str(tmp_path / "calls")}
    return subprocess.run(["bash", "-euo", "pipefail", "-c", script], capture_output=True, text=True, env=env)


def test_an_install_into_a_chroot_skips_telling_daemons_that_do_not_run(tmp_path: Path) -> None:
    """The arm64 run's first stop: "udevadm control --reload" failed where no udevd runs."""
    result = ask_daemons(tmp_path, udevd=False, systemd=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "    no udevd running here (a chroot or an image being built): skipped udevadm control --reload-rules;"
        " it reads the files when it starts",
        "    no systemd running here (a chroot or an image being built): skipped systemctl daemon-reload;"
        " it reads the files when it starts"]
    assert (tmp_path / "calls").read_text() == "control --ping\n"  # asked, never told


def test_on_a_running_pi_the_daemons_are_told(tmp_path: Path) -> None:
    result = ask_daemons(tmp_path, udevd=True, systemd=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["told udevd", "told systemd"]


def test_every_daemon_call_in_install_sh_is_behind_the_check() -> None:
    """A udevadm or systemctl call comes after its function asked ``running_here`` for that daemon."""
    lines = INSTALL.read_text(encoding="utf-8").splitlines()
    guarded = 0
    for number, line in enumerate(lines):
        call = re.search(r"^\s*(?:if .*; then )?(udevadm|systemctl) ", line.split("#", 1)[0])
        if not call or "running_here" in line:
            continue
        start = max(n for n in range(number) if re.match(r"^\w+\(\) \{", lines[n]))
        daemon = "udevd" if call.group(1) == "udevadm" else "systemd"
        assert f"running_here {daemon} " in "\n".join(lines[start:number]), f"line {number + 1}: {line}"
        guarded += 1
    assert guarded >= 6


def test_a_slow_table_may_wait_longer_for_each_script_step() -> None:
    """The arm64 run's table under emulation needs more than a step's 5 s (``--step-wait``)."""
    from ui.cli import build_parser

    assert build_parser().parse_args(["run", "--step-wait", "120"]).step_wait == 120.0
    assert build_parser().parse_args(["run"]).step_wait is None  # the runner's own 5 s
    for wrong, said in (("0", "more than 0"), ("soon", "not 'soon'")):
        result = subprocess.run([sys.executable, "-m", "ui.cli", "run", "--step-wait", wrong],
                                capture_output=True, text=True, cwd=DEPLOY.parent)
        assert result.returncode == 2 and said in result.stderr, result.stderr
