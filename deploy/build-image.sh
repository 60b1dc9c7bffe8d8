#!/usr/bin/env bash
# Build the SD-card image for a Raspberry Pi 4 or 5: flash it, edit one file, boot into the table.
#
#   sudo deploy/build-image.sh [--out FILE]   the Pi 4's image (default: build/skattisch-pi4.img)
#   sudo deploy/build-image.sh --board pi5 [--out FILE]
#                                             the Pi 5's image (default: build/skattisch-pi5.img)
#   deploy/build-image.sh --help              this text
#
# Made from Debian's packages alone: Debian bookworm arm64 (the root of deploy/test-arm64.sh,
# built with mmdebstrap from this machine's Debian sources and cached), Debian's kernel
# (linux-image-arm64) and the Pi's boot firmware (raspi-firmware, from non-free-firmware),
# the Wi-Fi firmware (firmware-brcm80211), systemd-networkd with wpa_supplicant for the
# network; then Skattisch installed by deploy/install.sh --no-start as docs/aufbau.md says
# (this checkout's committed HEAD, cloned to /home/pi/skattisch for updates), its service
# enabled, skattisch-first-boot.service, which applies skattisch-settings.txt from the
# boot partition at each boot (drivers/firstboot.py), and skattisch-grow-root.service, which
# grows the root partition and file system to the card's size at the first boot (growpart from
# cloud-guest-utils, resize2fs).
#
# The Pi 5's image (--board pi5) departs from Debian 12: no kernel built for Debian 12 runs a
# Pi 5 (none has its SD card's driver, sdhci-brcmstb, nor its RP1 chip; deploy/pi5-kernel-check.sh),
# and the first Debian kernel that does, trixie-backports' linux-image-arm64 (7.3), does not
# install on bookworm (its linux-base needs trixie's run-parts, and that trixie's C library).
# So its root is Debian 13 (trixie) arm64, built the same way, with the kernel and its packages
# from trixie-backports (pinned in /etc/apt/preferences.d/skattisch-kernel: only they come
# from there, and kernel updates on the Pi follow it), raspi-firmware from trixie, the Pi 5's
# SD card and USB drivers in the initrd and the D0-chip Pi 5's DTB name on the boot partition.
#
# The image: an MBR disk (id 5ca77150) with the boot partition (FAT32, label SKATBOOT: the
# firmware, config.txt, cmdline.txt, the kernel, its initrd, the DTBs and
# skattisch-settings.txt) and the root (ext4, label skatroot). Both are made from folders,
# without loop mounts (mkfs.vfat + mcopy, mke2fs -d), with fixed ids and labels, sorted, and
# every time set to SOURCE_DATE_EPOCH (default: the time of HEAD's commit).
#
# Needs root (chroot, mounts); installs mmdebstrap, qemu-user-static, binfmt-support,
# dosfstools, mtools, e2fsprogs and fdisk with apt if missing. The root with the kernel is
# cached beside part 1's root (${XDG_CACHE_HOME:-~/.cache}/skattisch/). Prints the time each
# part took and the image's size. deploy/test-image.sh boots the image in qemu.
set -euo pipefail

# the root, the helpers to run things in it, the checks' output (deploy/test-arm64.sh)
# shellcheck source=deploy/test-arm64.sh
. "$(dirname "${BASH_SOURCE[0]}")/test-arm64.sh"

INSTALL_STEPS=""        # how long install.sh's steps took (printed with the build's figures)
DISK_ID=5ca77150        # the MBR's disk id: the partitions are PARTUUID=5ca77150-01 and -02
BOOT_LABEL=SKATBOOT
BOOT_VOLUME_ID=5ca70001
ROOT_LABEL=skatroot
ROOT_UUID=5ca77150-5ca7-4ab1-8e55-0000000000a1
ROOT_HASH_SEED=5ca77150-5ca7-4ab1-8e55-0000000000a2
BOOT_MIB=256            # the firmware, two kernels and initrds fit with room to spare
START_MIB=4             # where the boot partition starts (the Pi's firmware likes 4 MiB alignment)
ROOT_FREE_MIB=768       # free space on the root beyond what it holds (it grows to the card at the first boot)

# Debian's parts for a Pi 4 (non-free-firmware: raspi-firmware, firmware-brcm80211)
IMAGE_PACKAGES=(
    linux-image-arm64 initramfs-tools zstd raspi-firmware firmware-brcm80211 wireless-regdb
    wpasupplicant systemd-resolved systemd-timesyncd e2fsprogs dosfstools cloud-guest-utils
)
# The initrd holds only what finds the root: Debian's default (MODULES=most, some thousand
# modules) takes an hour to pack under emulation. The rest loads from the root as usual.
INITRAMFS_CONF="MODULES=list"
INITRAMFS_MODULES="# Skattisch image (deploy/build-image.sh): what mounts the root
# the SD card: a Pi 4's emmc2 (sdhci-iproc), the older SD host
sdhci_iproc
bcm2835
# a USB disk (a Pi 4 boots from one too)
reset_raspberrypi
xhci_pci
usb_storage
uas
sd_mod
# qemu's virtio disk (deploy/test-image.sh)
virtio_pci
virtio_mmio
virtio_blk
# the root's file system
ext4
crc32c_generic"
# How the Pi boots, what raspi-firmware writes to the boot partition (config.txt, cmdline.txt)
# at each kernel update: the root by its partition id, the console on the screen, no blanking,
# and no "cma=" (its hook leaves it out when it runs on a Pi 4, where it "renders it unbootable";
# in the build's chroot it cannot see the board and would write cma=64M: CMA=0 leaves it out).
RASPI_DEFAULTS="ROOTPART=PARTUUID=$DISK_ID-02
CONSOLES=\"tty1\"
KERNEL_ARCH=\"arm64\"
CMA=0"
RASPI_EXTRA_CMDLINE="consoleblank=0 quiet"
FSTAB="# <file system>           <mount point>    <type>  <options>                    <dump> <pass>
PARTUUID=$DISK_ID-02     /                ext4    defaults,noatime             0      1
PARTUUID=$DISK_ID-01     /boot/firmware   vfat    defaults,noatime,umask=0077  0      2"
WIRED_NETWORK="[Match]
Name=en* eth*

[Network]
DHCP=yes
MulticastDNS=no"
WIRELESS_NETWORK="[Match]
Name=wl*

[Network]
DHCP=yes
MulticastDNS=no"

bi_note() { printf '    %s\n' "$*" >&2; }
die() { printf 'build-image.sh: %s\n' "$*" >&2; exit 1; }

# --- the board --------------------------------------------------------------------------------

BOARD=pi4               # pi4 (Debian 12, the default) or pi5 (Debian 13 with trixie-backports' kernel)
KERNEL_SUITE=""         # where the kernel comes from if not from SUITE (pi5: trixie-backports)
# A Pi 5's kernel: the first Debian kernel with its SD card's and RP1's drivers is trixie-backports'
PI5_SUITE=trixie
PI5_KERNEL_SUITE=trixie-backports
PI5_KERNEL_PACKAGES="linux-image-arm64 linux-modules-arm64 linux-base-arm64 linux-base linux-image-*-arm64 linux-binary-*-arm64 linux-modules-*-arm64 linux-base-*-arm64"
PI5_INITRAMFS_MODULES="# a Pi 5 (deploy/build-image.sh --board pi5): its SD card is sdhci-brcmstb on the BCM2712,
# with its pins and the GPIO-switched card supplies
sdhci_brcmstb
pinctrl_brcmstb_bcm2712
gpio_brcmstb
gpio_regulator
# its USB ports (a USB disk) are on the RP1 chip behind PCIe
rp1_pci
clk_rp1
pinctrl_rp1
dwc3
xhci_plat_hcd"
# What the Pi 5's firmware looks for besides the Pi 4's: its DTB (a D0-chip Pi 5, 2 GB and 16 GB,
# asks for bcm2712d0-rpi-5-b.dtb, which Debian's kernel ships as bcm2712-d-rpi-5-b.dtb)
PI5_DTB=bcm2712-rpi-5-b.dtb
PI5_D0_DTB=bcm2712d0-rpi-5-b.dtb
PI5_D0_DTB_DEBIAN=bcm2712-d-rpi-5-b.dtb

use_board() {  # use_board pi4|pi5
    case "$1" in
        pi4) BOARD=pi4 ;;
        pi5)
            BOARD=pi5
            SUITE=$PI5_SUITE
            KERNEL_SUITE=$PI5_KERNEL_SUITE
            INITRAMFS_MODULES="$INITRAMFS_MODULES
$PI5_INITRAMFS_MODULES" ;;
        *) die "unknown board $1 (pi4 or pi5)" ;;
    esac
}

# The apt source of the kernel's suite and the pin that takes only the kernel's packages from
# it (nothing for the Pi 4: its kernel is bookworm's own)
kernel_sources() {
    [ -n "$KERNEL_SUITE" ] || return 0
    printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        "$(debian_mirror)" "$KERNEL_SUITE"
}

kernel_pin() {
    [ -n "$KERNEL_SUITE" ] || return 0
    printf '# Skattisch (deploy/build-image.sh --board %s): the kernel from %s, the first Debian\n# kernel that runs a Raspberry Pi 5; every other package from %s\nPackage: %s\nPin: release n=%s\nPin-Priority: 600\n' \
        "$BOARD" "$KERNEL_SUITE" "$SUITE" "$PI5_KERNEL_PACKAGES" "$KERNEL_SUITE"
}

# --- the root with the kernel and the firmware (cached) --------------------------------------

# This machine's Debian mirror with the non-free-firmware component (raspi-firmware lives there).
firmware_sources() {
    local uri
    uri=$(grep -hoE 'https?://[^ ]*/debian/?( |$)' "$(debian_sources | head -1)" | head -1 | tr -d ' ')
    [ -n "$uri" ] || uri=http://deb.debian.org/debian
    printf 'Types: deb\nURIs: %s\nSuites: %s %s-updates\nComponents: non-free-firmware\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        "$uri" "$SUITE" "$SUITE"
}

# install.sh's own system packages (its APT_PACKAGES): they go into the cached root, so that its
# "packages" step, the slowest of the build under emulation (about 5 minutes: build-essential,
# python3-dev ...), finds them installed and only asks apt
install_sh_packages() {
    # shellcheck disable=SC2016  # $1 and the array are the inner bash's
    bash -c 'eval "$(sed -n "/^APT_PACKAGES=(/,/^)/p" "$1")"; echo "${APT_PACKAGES[*]}"' _ "$SRC/deploy/install.sh"
}

# The cached image root's name: the suite, and a hash of the base root's name (its suite, its
# packages, its sources) and of everything added to it (kernel_sources and kernel_pin say
# nothing for the Pi 4: its name is as it was before there was a Pi 5)
image_root_name() {  # image_root_name BASE-TARBALL
    local key
    key=$( { basename "$1"; echo "${IMAGE_PACKAGES[*]}"; install_sh_packages; echo "$INITRAMFS_CONF"; echo "$INITRAMFS_MODULES"
             firmware_sources; kernel_sources; kernel_pin; } | sha256sum | cut -c1-16)
    echo "arm64-$SUITE-image-root-$key.tar"
}

image_root_tarball() {
    local base tarball
    base=$(root_tarball)
    tarball=$CACHE/$(image_root_name "$base")
    if [ -s "$tarball" ]; then
        bi_note "cached: $tarball"
        echo "$tarball"
        return
    fi
    bi_note "$(basename "$base") + ${IMAGE_PACKAGES[*]} + install.sh's $(install_sh_packages)"
    make_image_root "$base" "$tarball" >&2
    echo "$tarball"
}

# make_image_root BASE-TARBALL TARBALL (run in a subshell: its root is its own)
make_image_root() {
    unpack_root "$1"
    firmware_sources >"$R/etc/apt/sources.list.d/debian-firmware.sources"
    if [ -n "$KERNEL_SUITE" ]; then
        kernel_sources >"$R/etc/apt/sources.list.d/debian-$KERNEL_SUITE.sources"
        kernel_pin >"$R/etc/apt/preferences.d/skattisch-kernel"
    fi
    mkdir -p "$R/boot/firmware" "$R/etc/initramfs-tools/conf.d" "$R/usr/share/initramfs-tools/modules.d"
    printf '%s\n' "$INITRAMFS_CONF" >"$R/etc/initramfs-tools/conf.d/skattisch.conf"
    printf '%s\n' "$INITRAMFS_MODULES" >"$R/usr/share/initramfs-tools/modules.d/skattisch"
    no_daemons_in_root
    in_root apt-get update -qq
    local packages
    read -r -a packages <<<"$(install_sh_packages)"
    in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${IMAGE_PACKAGES[@]}" "${packages[@]}" \
        >"$R/tmp/apt.log" 2>&1 || { tail -30 "$R/tmp/apt.log"; die "apt-get install of the image's packages failed"; }
    in_root apt-get clean
    rm -f "$R/usr/sbin/policy-rc.d" "$R/tmp/apt.log"
    # back to the root as built, without this run's mounts and this machine's files
    leave_root
    tar -C "$R" --numeric-owner --xattrs --sort=name -cf "$2.part" .
    mv "$2.part" "$2"
    rm -rf --one-file-system "$R"
    R=""
}

# Packages' scripts must not start daemons in the chroot (no systemd runs there anyway).
no_daemons_in_root() {
    printf '#!/bin/sh\nexit 101\n' >"$R/usr/sbin/policy-rc.d"
    chmod 0755 "$R/usr/sbin/policy-rc.d"
}

# Unmount what unpack_root mounted and undo what it changed for the run (this machine's
# resolver, its certificate authorities, its host name).
leave_root() {
    local pid i
    for pid in /proc/[0-9]*; do
        if [ "$(readlink "$pid/root" 2>/dev/null)" = "$R" ]; then kill -9 "${pid#/proc/}" 2>/dev/null || true; fi
    done
    for (( i=${#MOUNTS[@]}-1; i>=0; i-- )); do umount -l "${MOUNTS[$i]}" 2>/dev/null || true; done
    MOUNTS=()
    if [ -f "$R/etc/pip.conf" ]; then
        rm -f "$R/etc/pip.conf"
        find "$R/usr/local/share/ca-certificates" -name '*.crt' -delete
        chroot "$R" update-ca-certificates --fresh >/dev/null 2>&1 || true
    fi
    sed -i "/^127.0.1.1 $(hostname)\$/d" "$R/etc/hosts"
}

# --- Skattisch in the root -------------------------------------------------------------------

install_skattisch() {
    # the guide's way (docs/aufbau.md, section 3), as the user pi, from this checkout's HEAD
    git -C "$SRC" diff --quiet HEAD 2>/dev/null || bi_note "uncommitted changes in $SRC are not in the image (a clone has HEAD)"
    rm -rf "$R/srv/skattisch.git"
    git clone --quiet --bare "$SRC" "$R/srv/skattisch.git"
    chown -R "$(awk -F: '$1 == "pi" { print $3 ":" $4 }' "$R/etc/passwd")" "$R/srv/skattisch.git"
    no_daemons_in_root
    # no terminal: install.sh makes a PIN up and prints it; the image must not share one, so
    # it is cleared below and set at first boot from skattisch-settings.txt
    in_root runuser -u pi -- sh -c 'cd /home/pi && git clone -q /srv/skattisch.git skattisch' </dev/null
    in_root sh -c 'cd /home/pi/skattisch && deploy/install.sh --no-start' </dev/null 2>&1 | stamp_lines >"$R/tmp/install.log" \
        || { tail -40 "$R/tmp/install.log"; die "install.sh failed in the image's root"; }
    INSTALL_STEPS=$(step_times "$R/tmp/install.log")
    sed -i 's/^club_pin_hash = .*/club_pin_hash = ""/' "$R/etc/skattisch/skattisch.toml"
    in_root runuser -u pi -- git -C /home/pi/skattisch remote remove origin
    rm -rf "$R/srv/skattisch.git" "$R/usr/sbin/policy-rc.d" "$R/tmp/install.log"
    # the first boot's settings, before the table starts
    install -m 0644 "$SRC/deploy/skattisch-first-boot.service" "$R/etc/systemd/system/skattisch-first-boot.service"
    ln -sfn /etc/systemd/system/skattisch-first-boot.service \
        "$R/etc/systemd/system/multi-user.target.wants/skattisch-first-boot.service"
    # the root grows to the card's size at the first boot (growpart, resize2fs)
    install -m 0755 "$SRC/deploy/skattisch-grow-root.sh" "$R/usr/local/sbin/skattisch-grow-root"
    install -m 0644 "$SRC/deploy/skattisch-grow-root.service" "$R/etc/systemd/system/skattisch-grow-root.service"
    ln -sfn /etc/systemd/system/skattisch-grow-root.service \
        "$R/etc/systemd/system/multi-user.target.wants/skattisch-grow-root.service"
}

# each line with the second it came (printf's own clock: no program started per line)
stamp_lines() {
    local line
    while IFS= read -r line; do printf '%(%s)T %s\n' -1 "$line"; done
}

# install.sh's steps ("==> name: ...") and the seconds each took, from stamp_lines' log
step_times() {
    awk '$2 == "==>" { if (name != "") { printf "%s%s %d s", sep, name, $1 - start; sep = ", " }
                       name = $3; sub(/:$/, "", name); start = $1 }
         END { if (name != "" && name != "done") printf "%s%s %d s", sep, name, $1 - start; print "" }' "$1"
}

# How the Pi boots: raspi-firmware's hook writes config.txt and cmdline.txt (and copies the
# kernel, initrd and DTBs) to /boot/firmware from its defaults, as at each kernel update.
configure_boot() {
    grep -q "^ROOTPART=" "$R/etc/default/raspi-firmware" || printf '%s\n' "$RASPI_DEFAULTS" >>"$R/etc/default/raspi-firmware"
    printf '%s\n' "$RASPI_EXTRA_CMDLINE" >"$R/etc/default/raspi-extra-cmdline"
    in_root env DEB_MAINT_PARAMS=configure /etc/kernel/postinst.d/z50-raspi-firmware \
        || die "raspi-firmware's hook failed"
    if [ "$BOARD" = pi5 ]; then configure_pi5_boot; fi
}

# Python 3.13 (trixie): Kivy from its wheel, lgpio built from its sources (install.sh) load
check_venv_imports() {
    local said
    said=$(in_root env KIVY_HOME=/tmp/kivy-check KIVY_NO_CONSOLELOG=1 KIVY_NO_FILELOG=1 /opt/skattisch/venv/bin/python -c '
import sys, lgpio, gpiozero, kivy, kivy._event
version = getattr(lgpio, "LGPIO_PY_VERSION", 0)
print(f"Python {sys.version_info[0]}.{sys.version_info[1]}: lgpio {version:#x} ({lgpio.__file__}), Kivy {kivy.__version__}")' 2>&1) \
        || die "the venv's lgpio or Kivy does not load: $said"
    rm -rf "$R/tmp/kivy-check"
    bi_note "$said"
}

# What a Pi 5 needs beyond what raspi-firmware's hook wrote: its DTB (the kernel's, copied by
# the hook), the D0-chip Pi 5's under the name its firmware asks for, the kernel from
# trixie-backports, and the SD card's driver in the initrd.
configure_pi5_boot() {
    local boot=$R/boot/firmware kernel
    [ -e "$boot/$PI5_DTB" ] || die "no $PI5_DTB on the boot partition: the kernel has none"
    [ -e "$boot/$PI5_D0_DTB_DEBIAN" ] || die "no $PI5_D0_DTB_DEBIAN on the boot partition: the kernel has none"
    cp "$boot/$PI5_D0_DTB_DEBIAN" "$boot/$PI5_D0_DTB"
    # shellcheck disable=SC2016  # dpkg-query's own field
    kernel=$(in_root dpkg-query -W -f '${Version}' linux-image-arm64)
    case $kernel in
        *bpo13*) bi_note "kernel: linux-image-arm64 $kernel ($KERNEL_SUITE)" ;;
        *) die "linux-image-arm64 is $kernel, not $KERNEL_SUITE's (the pin in /etc/apt/preferences.d/skattisch-kernel?)" ;;
    esac
    in_root sh -c 'lsinitramfs /boot/initrd.img-*' >"$R/tmp/initrd.txt"
    grep -q '/sdhci-brcmstb\.ko' "$R/tmp/initrd.txt" || die "the initrd has no sdhci-brcmstb (the Pi 5's SD card)"
    grep -q '/virtio_blk\.ko' "$R/tmp/initrd.txt" || die "the initrd has no virtio_blk (the boot test's disk)"
    rm -f "$R/tmp/initrd.txt"
}

configure_system() {
    printf '%s\n' "$FSTAB" >"$R/etc/fstab"
    echo skattisch >"$R/etc/hostname"
    printf '127.0.0.1\tlocalhost\n127.0.1.1\tskattisch\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' >"$R/etc/hosts"
    printf '%s\n' "$WIRED_NETWORK" >"$R/etc/systemd/network/20-wired.network"
    printf '%s\n' "$WIRELESS_NETWORK" >"$R/etc/systemd/network/25-wireless.network"
    local unit
    for unit in systemd-networkd.service systemd-resolved.service systemd-timesyncd.service; do
        in_root systemctl enable "$unit" >/dev/null 2>&1 || die "systemctl enable $unit failed"
    done
    ln -sfn ../run/systemd/resolve/stub-resolv.conf "$R/etc/resolv.conf"
    # each Pi makes its own machine id at its first boot, without asking anything on the
    # console there (systemd-firstboot would wait for a keyboard)
    : >"$R/etc/machine-id"
    ln -sfn /dev/null "$R/etc/systemd/system/systemd-firstboot.service"
    ln -sfn /usr/share/zoneinfo/Europe/Berlin "$R/etc/localtime"
    echo Europe/Berlin >"$R/etc/timezone"
    rm -f "$R/var/lib/dbus/machine-id"
    # what the build left: caches, logs, apt's lists (apt update on the Pi fetches them)
    rm -rf "$R"/var/lib/apt/lists/* "$R"/var/cache/apt/*.bin "$R"/var/cache/debconf/*-old "$R"/var/log/*.log \
        "$R"/var/log/apt/* "$R"/tmp/* "$R"/var/tmp/* "$R"/root/.cache "$R"/home/pi/.cache
}

# --- the partitions and the disk -------------------------------------------------------------

# clamp every time in DIR to SOURCE_DATE_EPOCH (the files' own times are the build's)
clamp_times() {
    find "$1" -newermt "@$SOURCE_DATE_EPOCH" -print0 | xargs -0r touch -h -d "@$SOURCE_DATE_EPOCH"
}

make_boot_partition() {  # make_boot_partition FOLDER FILE
    local folder=$1 file=$2
    rm -f "$file"
    # (--invariant first: it would set its own volume id over -i)
    mkfs.vfat -F 32 --invariant -n "$BOOT_LABEL" -i "$BOOT_VOLUME_ID" -C "$file" $((BOOT_MIB * 1024)) >/dev/null
    # sorted, folders first where they come, times clamped: the same folder makes the same bytes
    local entry
    while IFS= read -r entry; do
        if [ -d "$folder/$entry" ]; then
            MTOOLS_SKIP_CHECK=1 mmd -i "$file" "::$entry"
        else
            MTOOLS_SKIP_CHECK=1 mcopy -m -i "$file" "$folder/$entry" "::$entry"
        fi
    done < <(cd "$folder" && find . -mindepth 1 -printf '%P\n' | LC_ALL=C sort)
}

make_root_partition() {  # make_root_partition FOLDER FILE
    local folder=$1 file=$2 used_kib size_mib
    used_kib=$(du -sk --apparent-size "$folder" | cut -f1)
    size_mib=$(( used_kib * 12 / 10 / 1024 + ROOT_FREE_MIB ))
    rm -f "$file"
    truncate -s "${size_mib}M" "$file"  # (mke2fs would say it creates the file)
    E2FSPROGS_FAKE_TIME=$SOURCE_DATE_EPOCH mke2fs -q -t ext4 -L "$ROOT_LABEL" -U "$ROOT_UUID" \
        -E "hash_seed=$ROOT_HASH_SEED,root_owner=0:0" -d "$folder" "$file" "${size_mib}M"
    clamp_inode_times "$file"
}

# mke2fs 1.47.0 (bookworm's) copies each file's change and access times from the folder (the
# build's own); SOURCE_DATE_EPOCH came with 1.47.1. Every inode in use gets them set to
# SOURCE_DATE_EPOCH with debugfs (a second or two).
clamp_inode_times() {
    dumpe2fs "$1" 2>/dev/null | python3 -c '
import re, sys
text = sys.stdin.read()
count = int(re.search(r"^Inode count:\s+(\d+)", text, re.M).group(1))
free = set()
for ranges in re.findall(r"^\s+Free inodes: (.*)$", text, re.M):
    for part in filter(None, (p.strip() for p in ranges.split(","))):
        first, _, last = part.partition("-")
        free.update(range(int(first), int(last or first) + 1))
for inode in range(1, count + 1):
    if inode not in free:
        for field in ("atime", "ctime"):
            print(f"sif <{inode}> {field} @{sys.argv[1]}")
' "$SOURCE_DATE_EPOCH" >"$1.times"
    E2FSPROGS_FAKE_TIME=$SOURCE_DATE_EPOCH debugfs -w -f "$1.times" "$1" >/dev/null 2>&1 \
        || die "debugfs could not set the times in $1"
    rm -f "$1.times"
    e2fsck -fn "$1" >/dev/null 2>&1 || die "e2fsck finds $1 damaged after setting its times"
}

assemble() {  # assemble BOOT-FILE ROOT-FILE IMAGE
    local boot=$1 root=$2 image=$3 boot_bytes root_bytes root_start_mib
    boot_bytes=$(stat -c %s "$boot")
    root_bytes=$(stat -c %s "$root")
    root_start_mib=$(( START_MIB + BOOT_MIB ))
    rm -f "$image"
    truncate -s $(( (root_start_mib * 1048576) + root_bytes )) "$image"
    sfdisk --quiet "$image" <<EOF
label: dos
label-id: 0x$DISK_ID
unit: sectors

start=$(( START_MIB * 2048 )), size=$(( boot_bytes / 512 )), type=c, bootable
start=$(( root_start_mib * 2048 )), size=$(( root_bytes / 512 )), type=83
EOF
    dd if="$boot" of="$image" bs=1M seek="$START_MIB" conv=notrunc,sparse status=none
    dd if="$root" of="$image" bs=1M seek="$root_start_mib" conv=notrunc,sparse status=none
}

# --- the run ---------------------------------------------------------------------------------

build_image() {
    local out=$1 t0 t_start tarball root_s install_s image_s work
    t_start=$(now)
    setup_host
    need_apt dosfstools mtools e2fsprogs fdisk
    export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$SRC" log -1 --format=%ct)}
    say "image root ($BOARD): Debian $SUITE arm64 with Debian's kernel${KERNEL_SUITE:+ from $KERNEL_SUITE} and the Pi's firmware"
    t0=$(now)
    tarball=$(image_root_tarball)
    unpack_root "$tarball"
    root_s=$(( $(now) - t0 ))
    say "Skattisch: deploy/install.sh --no-start, as docs/aufbau.md says"
    t0=$(now)
    install_skattisch
    if [ "$BOARD" = pi5 ]; then check_venv_imports; fi
    configure_boot
    install_s=$(( $(now) - t0 ))
    say "the image: $out"
    t0=$(now)
    leave_root
    configure_system
    work=$(mktemp -d /var/tmp/skattisch-image.XXXXXX)
    mkdir "$work/boot"
    # the boot partition's files leave the root (its /boot/firmware is the mount point)
    (cd "$R/boot/firmware" && find . -mindepth 1 -maxdepth 1 -exec mv -t "$work/boot" {} +)
    install -m 0644 "$SRC/deploy/skattisch-settings.txt" "$work/boot/skattisch-settings.txt"
    if [ ! -e "$work/boot/config.txt" ] || [ ! -e "$work/boot/cmdline.txt" ]; then
        die "raspi-firmware wrote no config.txt/cmdline.txt"
    fi
    ls "$work/boot"/vmlinuz-* "$work/boot"/initrd.img-* >/dev/null || die "no kernel or initrd on the boot partition"
    clamp_times "$work/boot"
    clamp_times "$R"
    make_boot_partition "$work/boot" "$work/boot.vfat"
    make_root_partition "$R" "$work/root.ext4"
    mkdir -p "$(dirname "$out")"
    assemble "$work/boot.vfat" "$work/root.ext4" "$out"
    rm -rf "$work"
    image_s=$(( $(now) - t0 ))
    say "image built"
    note "$out: $(( $(stat -c %s "$out") / 1048576 )) MiB ($(du -m "$out" | cut -f1) MiB on disk), sha256 $(sha256sum "$out" | cut -c1-16)"
    note "image root (built, or unpacked from the cache): $root_s s; install: $install_s s; partitions and disk: $image_s s; whole build: $(( $(now) - t_start )) s"
    note "install.sh's steps under emulation: $INSTALL_STEPS"
}

main_build_image() {
    local out=""
    while [ $# -gt 0 ]; do
        case "$1" in
            -h|--help) usage; exit 0 ;;  # test-arm64.sh's: this script's own header
            --board)
                [ $# -ge 2 ] || die "--board needs pi4 or pi5"
                use_board "$2"
                shift ;;
            --out)
                [ $# -ge 2 ] || die "--out needs a file"
                out=$(realpath -m "$2")
                shift ;;
            *) die "unknown option $1 (try --help)" ;;
        esac
        shift
    done
    build_image "${out:-$SRC/build/skattisch-$BOARD.img}"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then main_build_image "$@"; fi
