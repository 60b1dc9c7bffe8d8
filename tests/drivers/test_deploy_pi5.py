"""The Raspberry Pi 5's image (deploy/build-image.sh --board pi5): its settings, read from the
scripts themselves without building anything. The build and the boot are deploy/test-image.sh's."""

from __future__ import annotations

import fnmatch
import os
import re
import subprocess
from pathlib import Path

import pytest

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
BUILD = DEPLOY / "build-image.sh"
TEST_IMAGE = DEPLOY / "test-image.sh"

# trixie-backports' kernel and the packages it needs (apt-cache show, November 2026)
KERNEL_PACKAGES = ("linux-image-arm64", "linux-modules-arm64", "linux-base-arm64", "linux-base",
                   "linux-image-7.3.4+deb13-arm64", "linux-binary-7.3.4+deb13-arm64",
                   "linux-modules-7.3.4+deb13-arm64", "linux-base-7.3.4+deb13-arm64")
# ... and packages that must stay trixie's own (the C library's kernel headers come with build-essential)
NOT_KERNEL = ("linux-libc-dev", "linux-headers-7.3.4+deb13-arm64", "linux-image-7.3.4+deb13-arm64-dbg",
              "raspi-firmware", "firmware-brcm80211", "initramfs-tools", "libc6", "debianutils", "base-files")


def board(name: str, *commands: str) -> dict[str, str]:
    """build-image.sh sourced (nothing built), the board chosen, then NAME=VALUE lines of what
    the commands print (each as `NAME command...`)."""
    lines = "".join(f'printf "%s=%s\\0" {cmd.split()[0]} "$({cmd.split(" ", 1)[1]})"\n' for cmd in commands)
    script = f'set -euo pipefail\n. "{BUILD}"\nuse_board {name}\n{lines}'
    env = {**os.environ, "XDG_CACHE_HOME": "/nonexistent-cache"}
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60, cwd=DEPLOY, env=env)
    assert done.returncode == 0, done.stderr
    return dict(item.split("=", 1) for item in done.stdout.split("\0") if item)


def pin_stanza(text: str) -> dict[str, str]:
    fields = dict(line.split(": ", 1) for line in text.splitlines() if line and not line.startswith("#"))
    assert set(fields) == {"Package", "Pin", "Pin-Priority"}, text
    return fields


def test_the_pi5_takes_debian_13_and_only_the_kernel_from_trixie_backports() -> None:
    pi5 = board("pi5", "suite echo $SUITE", "kernel echo $KERNEL_SUITE", "pin kernel_pin", "sources kernel_sources")
    assert (pi5["suite"], pi5["kernel"]) == ("trixie", "trixie-backports")
    stanza = pin_stanza(pi5["pin"])
    assert stanza["Pin"] == "release n=trixie-backports"
    # above trixie's own 500 (backports have 100), below 1000 (no downgrades)
    assert 500 < int(stanza["Pin-Priority"]) < 1000
    patterns = stanza["Package"].split()
    for package in KERNEL_PACKAGES:
        assert any(fnmatch.fnmatchcase(package, p) for p in patterns), f"{package} would come from trixie"
    for package in NOT_KERNEL:
        assert not any(fnmatch.fnmatchcase(package, p) for p in patterns), f"{package} would come from backports"
    assert re.search(r"^Suites: trixie-backports$", pi5["sources"], re.M)
    assert re.search(r"^Components: main$", pi5["sources"], re.M)


def test_the_pi4_stays_debian_12_with_its_own_kernel() -> None:
    pi4 = board("pi4", "suite echo $SUITE", "kernel echo $KERNEL_SUITE", "pin kernel_pin", "sources kernel_sources",
                "modules echo \"$INITRAMFS_MODULES\"")
    assert pi4 == {"suite": "bookworm", "kernel": "", "pin": "", "sources": "", "modules": pi4["modules"]}
    assert "sdhci_brcmstb" not in pi4["modules"]  # the Pi 4's initrd (and its cached root) as it was


def module_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def test_the_pi5_initrd_finds_its_sd_card_and_the_boot_tests_disk() -> None:
    pi4 = module_lines(board("pi4", "modules echo \"$INITRAMFS_MODULES\"")["modules"])
    pi5 = module_lines(board("pi5", "modules echo \"$INITRAMFS_MODULES\"")["modules"])
    assert pi5[:len(pi4)] == pi4  # everything the Pi 4's has (virtio for qemu, ext4, USB disks)
    for module in ("sdhci_brcmstb", "virtio_blk", "virtio_pci", "ext4", "rp1_pci", "xhci_plat_hcd", "usb_storage"):
        assert module in pi5, module
    assert all(re.fullmatch(r"[a-z0-9_]+", module) for module in pi5)
    assert len(pi5) == len(set(pi5))
    assert "MODULES=list" in board("pi5", "conf echo $INITRAMFS_CONF")["conf"]
    # and the build refuses an initrd without them (checked in the unpacked root)
    build = BUILD.read_text(encoding="utf-8")
    assert "/sdhci-brcmstb\\.ko" in build and "/virtio_blk\\.ko" in build


def test_the_pi5_boot_partition_has_the_dtbs_its_firmware_asks_for() -> None:
    names = board("pi5", "dtb echo $PI5_DTB", "d0 echo $PI5_D0_DTB", "debian echo $PI5_D0_DTB_DEBIAN")
    assert names == {"dtb": "bcm2712-rpi-5-b.dtb", "d0": "bcm2712d0-rpi-5-b.dtb", "debian": "bcm2712-d-rpi-5-b.dtb"}
    build = BUILD.read_text(encoding="utf-8")
    assert 'cp "$boot/$PI5_D0_DTB_DEBIAN" "$boot/$PI5_D0_DTB"' in build
    # the boot test looks for both on the image, and for the pin in its root
    check = TEST_IMAGE.read_text(encoding="utf-8").split("check_pi5_boot_files() {", 1)[1].split("\n}\n", 1)[0]
    for text in ("bcm2712-rpi-5-b.dtb", "bcm2712d0-rpi-5-b.dtb", "+deb13-arm64", "Pin: release n=trixie-backports",
                 "/etc/apt/preferences.d/skattisch-kernel"):
        assert text in check, text


def test_the_boot_settings_are_the_same_for_both_boards() -> None:
    """raspi-firmware's hook writes config.txt and cmdline.txt from these: the root by its partition
    id, no cma= (CMA=0), for either board."""
    pi4 = board("pi4", "defaults echo \"$RASPI_DEFAULTS\"", "extra echo $RASPI_EXTRA_CMDLINE")
    assert board("pi5", "defaults echo \"$RASPI_DEFAULTS\"", "extra echo $RASPI_EXTRA_CMDLINE") == pi4
    assert "ROOTPART=PARTUUID=5ca77150-02" in pi4["defaults"] and "CMA=0" in pi4["defaults"]


def test_each_board_has_its_own_cached_root_and_image() -> None:
    """The cache's names carry the suite: the bookworm caches stay valid beside trixie's."""
    name = "image_root_name /cache/arm64-$SUITE-root-0123456789abcdef.tar"
    pi4, pi5 = board("pi4", f"name {name}")["name"], board("pi5", f"name {name}")["name"]
    assert re.fullmatch(r"arm64-bookworm-image-root-[0-9a-f]{16}\.tar", pi4)
    assert re.fullmatch(r"arm64-trixie-image-root-[0-9a-f]{16}\.tar", pi5)
    test_arm64 = (DEPLOY / "test-arm64.sh").read_text(encoding="utf-8")
    assert 'tarball=$CACHE/arm64-$SUITE-root-$key.tar' in test_arm64
    assert 'key=$( { echo "$SUITE arm64' in test_arm64


def test_a_suite_this_machine_has_no_sources_for_comes_from_its_mirror(tmp_path: Path) -> None:
    script = f'set -euo pipefail\n. "{DEPLOY / "test-arm64.sh"}"\nSUITE=trixie\ncat "$(suite_sources)"\necho "mirror=$(debian_mirror)"\n'
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=30, env=env)
    assert done.returncode == 0, done.stderr
    mirror = done.stdout.rsplit("mirror=", 1)[1].strip()
    assert re.fullmatch(r"https?://\S+/debian/?", mirror)
    stanzas = [dict(line.split(": ", 1) for line in block.splitlines()) for block in
               done.stdout.rsplit("mirror=", 1)[0].strip().split("\n\n")]
    assert [(s["URIs"], s["Suites"]) for s in stanzas] == [
        (mirror, "trixie trixie-updates"), (mirror.rstrip("/") + "-security", "trixie-security")]
    assert (tmp_path / "skattisch" / "sources-trixie.sources").is_file()


def test_a_board_that_does_not_exist_is_named() -> None:
    done = subprocess.run(["bash", str(BUILD), "--board", "pi3"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 1 and "unknown board pi3 (pi4 or pi5)" in done.stderr
    done = subprocess.run(["bash", str(TEST_IMAGE), "--board", "pi3"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 1 and "--board needs pi4 or pi5" in done.stderr


def test_the_guides_image_path_names_the_pi5_image_and_why_it_is_debian_13() -> None:
    guide = " ".join((DEPLOY.parent / "docs" / "reference" / "image.md").read_text(encoding="utf-8").split())
    for text in ("sudo deploy/build-image.sh --board pi5", "skattisch-pi5.img", "Debian 13 (trixie)",
                 "trixie-backports", "./dev.sh image-test --board pi5"):
        assert text in guide, text


@pytest.mark.parametrize("codename, warned", [("bookworm", False), ("trixie", False), ("bullseye", True)])
def test_install_sh_takes_trixie_as_its_own(tmp_path: Path, codename: str, warned: bool) -> None:
    """The Pi 5's image is Debian 13: install.sh says nothing about it (it warned of anything but Bookworm)."""
    text = (DEPLOY / "install.sh").read_text(encoding="utf-8")
    block = text.split('        case "${VERSION_CODENAME:-}" in', 1)[1].split("        esac", 1)[0]
    script = ('warn() { echo "warning: $*"; }\nVERSION_CODENAME=' + codename + '\nPRETTY_NAME=x\n'
              'case "${VERSION_CODENAME:-}" in' + block + "esac\n")
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0 and ("warning" in done.stdout) == warned, done.stdout


def test_install_sh_builds_lgpio_with_its_library_inside_where_debian_has_none() -> None:
    """lgpio 0.2.2.0 has no wheel for Python 3.13 (Debian 13): pip builds its sources, which link
    against liblgpio unless PYPI=1 (its setup.py); plain Debian has no liblgpio."""
    text = (DEPLOY / "install.sh").read_text(encoding="utf-8")
    venv = text.split("step_venv() {", 1)[1].split("\n}\n", 1)[0]
    assert "ldconfig -p" in venv and "liblgpio" in venv and "lgpio_build=(env PYPI=1)" in venv
    assert '"${lgpio_build[@]}" "$ROOT$VENV/bin/pip" install' in venv
    packages = text.split("APT_PACKAGES=(", 1)[1].split("\n)\n", 1)[0]
    assert re.search(r"^\s+swig$", packages, re.M) and "build-essential" in packages  # what the build needs
