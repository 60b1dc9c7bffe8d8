#!/usr/bin/env bash
# Boot the SD-card image (deploy/build-image.sh) in qemu and check its first boot.
#
#   sudo deploy/test-image.sh [IMAGE]    default: build/skattisch-pi4.img
#   sudo deploy/test-image.sh --board pi5 [IMAGE]
#                                        the Pi 5's image (default: build/skattisch-pi5.img)
#   sudo deploy/test-image.sh --screen [--board pi5] [IMAGE]
#                                        the table on its own system instead: one copy booted with a
#                                        screen (virtio-gpu), a multitouch device, a USB-serial card
#                                        reader and QMP; an evening played by taps and cards (the
#                                        deck taught in at the table with RDM6300 tags, game 1 read
#                                        card by card), three pulled plugs (mid-trick, after a
#                                        confirmed game, a sync batch in flight; SKATTISCH_PLUGS=no:
#                                        none), each followed by store check on the disk, the games
#                                        and cards counted and the screen compared; at the end the
#                                        laptop compared with the table; its screendumps in
#                                        build/qemu-screen/ (deploy/qemu_table.py,
#                                        docs/development/emulation.md)
#   deploy/test-image.sh --help          this text
#
# A copy of the image gets a filled-in skattisch-settings.txt on its boot partition (table 7,
# the PIN, the laptop at 10.0.2.2 and a pairing code from a collector, "skattisch club", started
# here on 127.0.0.1: qemu's user-mode network shows this machine to the guest as 10.0.2.2).
# Then the image's own kernel and initrd (read from its boot partition with mtools) boot in
# qemu-system-aarch64 (-M virt, a Cortex-A72, the root partition as a virtio disk, the serial
# console read here), until systemd has reached its target with skattisch-first-boot.service
# done and skattisch.service started; a small unit of the test then writes what it saw to the
# console and powers off. Afterwards the image's partitions are read without mounting them
# (debugfs, mtools): the table's number in the config, the pairing (sync.json, and the
# collector's list of tables), the PIN only as its hash, the plain PIN gone from the card.
# That copy is 2 GiB larger than the image (as a card is larger than the image flashed onto
# it): skattisch-grow-root.service must have grown the root partition to the disk's end and its
# file system to the partition.
# A second boot, of a fresh copy with bad settings (a typo in the number, a short PIN, a code
# the laptop refuses): the table's service still starts, the config is as it was, and the
# problems are left for the table's screen. Both boots run at once (one boot alone keeps about
# one host core busy, measured: two at once take little longer than one); the test's unit
# powers the guest off with --force (no orderly stop of every service: its checks are read
# from the disk, synced before).
#
# The Pi 5's image (Debian 13 with trixie-backports' kernel) boots the same way, on a Cortex-A76
# (the Pi 5's core), with the same checks; its boot partition is checked for what a Pi 5's
# firmware reads (config.txt, cmdline.txt, bcm2712-rpi-5-b.dtb and the D0 chip's
# bcm2712d0-rpi-5-b.dtb, the kernel from trixie-backports) and its root for the pin that keeps
# the kernel coming from trixie-backports.
#
# What it does not show: the Pi's own firmware booting (qemu starts the kernel directly), the
# DSI touchscreen and the table's window (there is no screen: skattisch.service starts, its
# config check passes, and the table's window then fails to open, which systemd restarts a few
# times and gives up, as on a Pi without a screen), GPIO, the card reader, Wi-Fi.
#
# Needs root only to install qemu-system-arm, mtools and e2fsprogs with apt if missing. Runs
# for minutes: the arm64 machine is emulated (TCG). Prints the boot time to the service.
set -euo pipefail

SRC=$(cd "$(dirname "$0")/.." && pwd)
IMAGE=${1:-$SRC/build/skattisch-pi4.img}
TIMEOUT=${SKATTISCH_BOOT_TIMEOUT:-1500}  # seconds for the whole boot; TCG on a busy machine is slow
DISK_ID=5ca77150
TABLE=7
PIN=4826
TEST_UNIT=skattisch-boot-test.service

say() { printf '\n=== %s\n' "$*"; }
note() { printf '    %s\n' "$*"; }
die() { printf 'test-image.sh: %s\n' "$*" >&2; exit 1; }
now() { date +%s; }
FAILED=0
pass() { printf 'PASS  %s\n' "$*"; }
fail() { printf 'FAIL  %s\n' "$*"; FAILED=$((FAILED + 1)); }
check() {  # check WHAT CMD...
    local what=$1 out
    shift
    if out=$("$@" 2>&1); then pass "$what"; else fail "$what"; printf '%s\n' "$out" | tail -20 | sed 's/^/      /'; fi
}

case "${1:-}" in
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'; exit 0 ;;
esac
SCREEN=""  # --screen: the table's window, touch and reader (deploy/qemu_table.py) instead of the first-boot checks
TAPS=""
if [ "${1:-}" = --screen ]; then SCREEN=yes; shift; fi
if [ "${1:-}" = --taps ]; then TAPS=${2:?--taps needs x,y;x,y...}; shift 2; fi
BOARD=pi4
CPU=cortex-a72  # the Pi 4's core
if [ "${1:-}" = --board ]; then
    case "${2:-}" in
        pi4) ;;
        pi5) BOARD=pi5; CPU=cortex-a76 ;;  # the Pi 5's core
        *) die "--board needs pi4 or pi5" ;;
    esac
    shift 2
fi
IMAGE=${1:-$SRC/build/skattisch-$BOARD.img}
BUILD_ARGS=""; [ "$BOARD" = pi4 ] || BUILD_ARGS=" --board $BOARD"
[ -f "$IMAGE" ] || die "no image at $IMAGE (build it: sudo deploy/build-image.sh$BUILD_ARGS)"

need_apt() {
    local missing=() pkg
    for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
    [ ${#missing[@]} -eq 0 ] && return 0
    [ "$(id -u)" -eq 0 ] || die "missing ${missing[*]}: run me as root, or install them"
    note "apt-get install ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# --- the copy of the image and its partitions ------------------------------------------------

W=""
DISK=""                 # the copy the functions below read and write: $W/NAME.img
CONSOLE=""              # its boot's serial console: $W/NAME.console
declare -A QEMU_PID=()  # the boots under way, by name
declare -A BOOT_S=()    # and how long each took to its power-off
COLLECTOR_PID=""
cleanup() {
    local pid
    for pid in "${QEMU_PID[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    if [ -n "$COLLECTOR_PID" ]; then kill "$COLLECTOR_PID" 2>/dev/null || true; wait "$COLLECTOR_PID" 2>/dev/null || true; fi
    if [ -n "$W" ]; then
        if [ -n "${SKATTISCH_PI_TEST_KEEP:-}" ]; then echo "kept: $W"; else rm -rf "$W"; fi
    fi
}
trap cleanup EXIT

part_offset() {  # part_offset N: the byte offset of partition N of the copy
    sfdisk --json "$DISK" | python3 -c "import json,sys; p=json.load(sys.stdin)['partitiontable']; \
print(p['partitions'][$1 - 1]['start'] * p.get('sectorsize', 512))"
}

boot_fs() { echo "$DISK@@$BOOT_OFFSET"; }
root_fs() { echo "$DISK?offset=$ROOT_OFFSET"; }
root_cat() { debugfs -R "cat $1" "$(root_fs)" 2>/dev/null; }

# --- the laptop: a collector on this machine --------------------------------------------------

SKATTISCH=""
start_collector() {
    # the checkout's own program (./dev.sh sets up its venv with the laptop's packages)
    "$SRC/dev.sh" club tables --db "$W/club.sqlite3" >/dev/null
    SKATTISCH=$SRC/${SKATTISCH_VENV:-.venv}/bin/skattisch
    "$SKATTISCH" club serve --db "$W/club.sqlite3" --host 127.0.0.1 --port 0 --no-mdns --name "Testlaptop" \
        >"$W/collector.log" 2>&1 &
    COLLECTOR_PID=$!
    local _
    for _ in $(seq 100); do grep -q 'listening on' "$W/collector.log" && break; sleep 0.2; done
    COLLECTOR_URL=$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$W/collector.log" | head -1)
    [ -n "$COLLECTOR_URL" ] || { cat "$W/collector.log"; die "the collector did not start"; }
    CODE=$("$SKATTISCH" club pair --db "$W/club.sqlite3" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["code"])')
    note "collector at $COLLECTOR_URL (10.0.2.2:${COLLECTOR_URL##*:} from the guest), pairing code $CODE"
}

# --- what the guest is given -------------------------------------------------------------------

fill_in_settings() {  # fill_in_settings KEY=VALUE...: into the copy's skattisch-settings.txt
    mcopy -n -o -i "$(boot_fs)" ::skattisch-settings.txt "$W/settings.txt"
    python3 - "$W/settings.txt" "$@" <<'PY'
import re, sys
path, pairs = sys.argv[1], sys.argv[2:]
text = open(path, encoding="utf-8").read()
for pair in pairs:
    key, value = pair.split("=", 1)
    text, n = re.subn(rf"^{key} =.*$", f"{key} = {value}", text, flags=re.M)
    assert n == 1, key
open(path, "w", encoding="utf-8").write(text)
PY
    mcopy -o -i "$(boot_fs)" "$W/settings.txt" ::skattisch-settings.txt
}


# A unit of the test only (in the copy): once the boot is through, say what systemd saw on the
# serial console, then power off.
add_test_unit() {
    cat >"$W/$TEST_UNIT" <<'EOF'
[Unit]
Description=Skattisch boot test: report, then power off
After=multi-user.target skattisch.service skattisch-first-boot.service

[Service]
Type=oneshot
StandardOutput=tty
StandardError=tty
TTYPath=/dev/ttyAMA0
ExecStart=/bin/sh -c 'for i in $(seq 120); do [ -n "$(systemctl show -p ExecMainStartTimestampMonotonic --value skattisch.service | grep -v "^0$")" ] && break; sleep 1; done; sleep 5; \
  echo "BOOT-TEST first-boot: $(systemctl show -p Result --value skattisch-first-boot.service) $(systemctl show -p ExecMainStatus --value skattisch-first-boot.service)"; \
  echo "BOOT-TEST grow-root: $(systemctl show -p Result --value skattisch-grow-root.service) $(systemctl show -p ExecMainStatus --value skattisch-grow-root.service), / $(df -B1M --output=size / | tail -1 | tr -d " ") MiB"; \
  echo "BOOT-TEST skattisch started at: $(systemctl show -p ExecMainStartTimestampMonotonic --value skattisch.service) us"; \
  echo "BOOT-TEST skattisch restarts: $(systemctl show -p NRestarts --value skattisch.service)"; \
  echo "BOOT-TEST multi-user.target: $(systemctl is-active multi-user.target) at $(systemctl show -p ActiveEnterTimestampMonotonic --value multi-user.target) us"; \
  systemctl --no-pager --failed | sed "s/^/BOOT-TEST failed: /"; \
  journalctl -b --no-pager -o cat -u skattisch-first-boot -u skattisch | tail -40 | sed "s/^/BOOT-TEST journal: /"; \
  sync; systemctl poweroff --force'
EOF
    debugfs -w -R "write $W/$TEST_UNIT /etc/systemd/system/$TEST_UNIT" "$(root_fs)" >/dev/null 2>&1
    root_cat "/etc/systemd/system/$TEST_UNIT" | grep -q BOOT-TEST || die "could not write the test's unit into the image"
}

# --- the boot --------------------------------------------------------------------------------

# the image's own kernel and initrd, from its boot partition
take_kernel() {
    local kernel initrd
    kernel=$(mdir -b -i "$(boot_fs)" :: | sed -n 's#^::/##p' | grep '^vmlinuz-' | sort | tail -1)
    initrd=$(mdir -b -i "$(boot_fs)" :: | sed -n 's#^::/##p' | grep '^initrd.img-' | sort | tail -1)
    if [ -z "$kernel" ] || [ -z "$initrd" ]; then die "no kernel or initrd on the boot partition"; fi
    mcopy -n -i "$(boot_fs)" "::$kernel" "$W/vmlinuz"
    mcopy -n -i "$(boot_fs)" "::$initrd" "$W/initrd"
    note "the image's $kernel and $initrd, $(nproc) host cores, TCG"
}

start_boot() {  # start_boot NAME: boot $W/NAME.img in qemu, in the background
    qemu-system-aarch64 -M virt -cpu "$CPU" -smp 2 -m 1536 -nographic -no-reboot \
        -kernel "$W/vmlinuz" -initrd "$W/initrd" \
        -append "root=PARTUUID=$DISK_ID-02 rw console=ttyAMA0 systemd.wants=$TEST_UNIT systemd.show_status=1" \
        -drive "file=$W/$1.img,format=raw,if=none,id=disk,cache=unsafe" -device virtio-blk-pci,drive=disk \
        -netdev user,id=net -device virtio-net-pci,netdev=net,romfile= \
        -monitor none -serial "file:$W/$1.console" </dev/null >"$W/$1.qemu.log" 2>&1 &
    QEMU_PID[$1]=$!
    BOOT_S[$1]=$(now)
}

wait_boot() {  # wait_boot NAME: until that boot powered off (or TIMEOUT seconds from its start)
    local pid=${QEMU_PID[$1]}
    while kill -0 "$pid" 2>/dev/null; do
        if [ $(( $(now) - BOOT_S[$1] )) -gt "$TIMEOUT" ]; then
            fail "the boot did not end within $TIMEOUT s ($1)"
            kill "$pid" 2>/dev/null || true
            tail -40 "$W/$1.console"
            break
        fi
        sleep 2
    done
    wait "$pid" || true
    unset "QEMU_PID[$1]"
    BOOT_S[$1]=$(( $(now) - BOOT_S[$1] ))
}

# --- the checks -----------------------------------------------------------------------------

console_has() { grep -q "$1" "$CONSOLE" || { echo "not on the console: $1"; return 1; }; }

check_config() {
    root_cat /etc/skattisch/skattisch.toml >"$W/skattisch.toml"
    PYTHONPATH=$SRC python3 - "$W/skattisch.toml" "$PIN" "$TABLE" "${COLLECTOR_URL##*:}" <<'PY'
import sys, tomllib
from device.pin import verify_pin
path, pin, table, port = sys.argv[1:]
text = open(path, encoding="utf-8").read()
conf = tomllib.loads(text)
assert conf["table"]["number"] == int(table), conf["table"]
assert conf["sync"]["url"] == f"http://10.0.2.2:{port}", conf["sync"]
assert verify_pin(pin, conf["table"]["club_pin_hash"]), "the PIN's hash does not verify"
assert pin not in text, "the plain PIN is in the config"
PY
}

check_paired() {
    local state
    state=$(root_cat /var/lib/skattisch/lists/sync.json)
    grep -q '"secret": "[0-9a-f]\{64\}"' <<<"$state" || { echo "sync.json: $state"; return 1; }
    "$SKATTISCH" club tables --db "$W/club.sqlite3" --json | grep -q "Tisch $TABLE" \
        || { "$SKATTISCH" club tables --db "$W/club.sqlite3"; return 1; }
}

check_card() {
    mcopy -n -i "$(boot_fs)" ::skattisch-settings.txt "$W/after.txt"
    if grep -q "$PIN" "$W/after.txt" || grep -q "$CODE" "$W/after.txt"; then cat "$W/after.txt"; return 1; fi
    grep -q "^table = $TABLE" "$W/after.txt"
}

# how the Pi 4's firmware starts it: the 64-bit kernel, its initrd, the root by partition id,
# and no cma= (which would keep a Pi 4 from booting)
check_boot_files() {
    mcopy -n -i "$(boot_fs)" ::cmdline.txt "$W/cmdline.txt"
    mcopy -n -i "$(boot_fs)" ::config.txt "$W/config.txt"
    if grep -q "root=PARTUUID=$DISK_ID-02 " "$W/cmdline.txt" && ! grep -q 'cma=' "$W/cmdline.txt" \
        && grep -q '^arm_64bit=1' "$W/config.txt" && grep -q '^kernel=vmlinuz-' "$W/config.txt" \
        && grep -q '^initramfs initrd.img-' "$W/config.txt" \
        && mdir -b -i "$(boot_fs)" :: | grep -q '/bcm2711-rpi-4-b.dtb$'; then
        return 0
    fi
    cat "$W/cmdline.txt" "$W/config.txt"
    return 1
}

# how a Pi 5's firmware starts it: as a Pi 4's (the 64-bit kernel, its initrd, the root by
# partition id), with the Pi 5's DTB and the D0 chip's under its firmware's name, the kernel
# from trixie-backports (7.x, "+deb13"), and the pin that keeps it coming from there
check_pi5_boot_files() {
    mcopy -n -i "$(boot_fs)" ::cmdline.txt "$W/cmdline.txt"
    mcopy -n -i "$(boot_fs)" ::config.txt "$W/config.txt"
    local files pin
    files=$(mdir -b -i "$(boot_fs)" :: | sed -n 's#^::/##p')
    pin=$(root_cat /etc/apt/preferences.d/skattisch-kernel)
    if grep -q "root=PARTUUID=$DISK_ID-02 " "$W/cmdline.txt" \
        && grep -q '^arm_64bit=1' "$W/config.txt" && grep -q '^kernel=vmlinuz-[0-9.]*+deb13-arm64$' "$W/config.txt" \
        && grep -q '^initramfs initrd.img-[0-9.]*+deb13-arm64' "$W/config.txt" \
        && grep -qx 'bcm2712-rpi-5-b.dtb' <<<"$files" && grep -qx 'bcm2712d0-rpi-5-b.dtb' <<<"$files" \
        && grep -qx 'vmlinuz-[7-9].[0-9.]*+deb13-arm64' <<<"$files" \
        && grep -qx 'Pin: release n=trixie-backports' <<<"$pin" && grep -q '^Package: linux-image-arm64 ' <<<"$pin"; then
        return 0
    fi
    cat "$W/cmdline.txt" "$W/config.txt"
    echo "the boot partition: $files"
    echo "/etc/apt/preferences.d/skattisch-kernel: $pin"
    return 1
}

use() {  # use NAME: the functions read and write $W/NAME.img and its console
    DISK=$W/$1.img
    CONSOLE=$W/$1.console
}

# a fresh copy of the image (copy_image NAME [GROW]: GROW larger, as a larger card), its
# partitions' offsets (the same in every copy)
copy_image() {
    use "$1"
    cp --sparse=always "$IMAGE" "$DISK"
    if [ -n "${2:-}" ]; then truncate -s "+$2" "$DISK"; fi
    BOOT_OFFSET=$(part_offset 1)
    ROOT_OFFSET=$(part_offset 2)
}

boot_report() {
    grep 'BOOT-TEST\|skattisch first-boot:\|skattisch-grow-root:' "$CONSOLE" | grep -v 'BOOT-TEST journal' | tr -d '\r' \
        | sed -e 's/^\[ *[0-9.]*\] //' -e 's/^/    /' || true
}

check_booted() {
    check "the kernel found the root partition (PARTUUID=$DISK_ID-02)" console_has 'systemd\[1\]\|Welcome to'
    check "skattisch-grow-root.service succeeded" console_has 'BOOT-TEST grow-root: success 0'
    check "skattisch-first-boot.service succeeded" console_has 'BOOT-TEST first-boot: success 0'
    check "skattisch.service started (its config check passed)" console_has 'BOOT-TEST skattisch started at: [1-9]'
    check "systemd reached its target (multi-user.target active)" console_has 'BOOT-TEST multi-user.target: active at [1-9]'
}

root_fs_bytes() {  # the root's ext4: its blocks times their size
    local header
    header=$(dumpe2fs -h "$(root_fs)" 2>/dev/null)
    echo $(( $(sed -n 's/^Block count: *//p' <<<"$header") * $(sed -n 's/^Block size: *//p' <<<"$header") ))
}

# the root partition ends where the disk ends (growpart leaves the last 33 sectors free, where
# a GPT would keep its copy), and its ext4 fills the partition
check_grown() {
    local disk_sectors part_end fs_bytes part_bytes
    disk_sectors=$(( $(stat -c %s "$DISK") / 512 ))
    read -r part_end part_bytes < <(sfdisk --json "$DISK" | python3 -c "import json,sys; \
p=json.load(sys.stdin)['partitiontable']['partitions'][1]; print(p['start'] + p['size'] - 1, p['size'] * 512)")
    fs_bytes=$(root_fs_bytes)
    if [ "$part_end" -lt $(( disk_sectors - 2048 )) ] || [ $(( part_bytes - fs_bytes )) -ge 1048576 ] \
        || [ "$fs_bytes" -lt $(( ROOT_BYTES + 2 * 1024 * 1048576 - 1048576 )) ]; then
        echo "disk: $disk_sectors sectors; root partition ends at $part_end, $part_bytes bytes; ext4 $fs_bytes bytes (was $ROOT_BYTES)"
        return 1
    fi
}

no_problems_file() {
    ! debugfs -R 'stat /var/lib/skattisch/first-boot-problems.json' "$(root_fs)" 2>&1 | grep -q 'Inode:'
}

check_bad_settings() {
    local problems
    problems=$(root_cat /var/lib/skattisch/first-boot-problems.json)
    local key
    for key in table pin pairing_code; do
        grep -q "\"key\": \"$key\"" <<<"$problems" || { echo "no problem with $key in: $problems"; return 1; }
    done
    grep -q 'sieben' <<<"$problems" || { echo "$problems"; return 1; }
    root_cat /etc/skattisch/skattisch.toml >"$W/skattisch.toml"
    if ! grep -q '^number = 1$' "$W/skattisch.toml" || ! grep -q '^club_pin_hash = ""$' "$W/skattisch.toml"; then
        grep -E '^(number|club_pin_hash) =' "$W/skattisch.toml"
        return 1
    fi
}

# QEMU 8.1 or later, for virtio-multitouch-pci (bookworm has 7.2): on Debian 12, from
# bookworm-backports (its apt source added here; the arm64 root's sources leave it out)
need_multitouch_qemu() {
    has_multitouch() { qemu-system-aarch64 -device help 2>/dev/null | grep -q '"virtio-multitouch-pci"'; }
    has_multitouch && return 0
    [ "$(id -u)" -eq 0 ] || die "this qemu has no virtio-multitouch-pci: run me as root to install a newer one"
    if grep -q '^VERSION_CODENAME=bookworm' /etc/os-release; then
        printf 'Types: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
            "$(debian_mirror)" >/etc/apt/sources.list.d/skattisch-bookworm-backports.sources
        note "apt-get install -t bookworm-backports qemu-system-arm (QEMU 10: virtio-multitouch-pci)"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends -t bookworm-backports \
            qemu-system-arm >/dev/null
    fi
    has_multitouch || die "this qemu has no virtio-multitouch-pci (QEMU 8.1 or later)"
}

debian_mirror() {  # the first Debian mirror among this machine's apt sources
    local uri
    uri=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null \
        | grep -v '^ *#' | grep -oE 'https?://[^ ]*/debian/?( |$)' | head -1 | tr -d ' ')
    echo "${uri:-http://deb.debian.org/debian}"
}

laptop_equals_table() {
    python3 - "$W/after-end/lists/journal" "$W/club.sqlite3" <<'PY'
import json, sqlite3, sys
from pathlib import Path
table = []
for path in sorted(Path(sys.argv[1]).glob("*.jsonl")):
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        table.append((record["event"]["seq"], record["hash"]))
laptop = sqlite3.connect(sys.argv[2]).execute("select seq, hash from events order by seq").fetchall()
print(f"table: {len(table)} events, laptop: {len(laptop)} events")
assert sorted(table) == [tuple(row) for row in laptop], "the laptop and the table differ"
PY
}

laptop_has_four_games() {
    "$SKATTISCH" club tables --db "$W/club.sqlite3" --json | grep -q '"last_game": 4,' \
        || { "$SKATTISCH" club tables --db "$W/club.sqlite3" --json; return 1; }
}

# The table on its own system: one copy, the settings filled in, booted with a screen, a
# multitouch device, a USB-serial reader and a QMP socket (deploy/qemu_table.py drives it).
main_screen() {
    need_apt qemu-system-arm mtools e2fsprogs fdisk
    need_multitouch_qemu
    W=$(mktemp -d /var/tmp/skattisch-screen.XXXXXX)
    start_collector
    copy_image screen
    # the guest's laptop address names a proxy on this machine that can hold the laptop's answers
    PROXY_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    fill_in_settings "table=$TABLE" "laptop=10.0.2.2:$PROXY_PORT" "pairing_code=$CODE" "pin=$PIN" "reader=rdm6300"
    take_kernel
    say "the table on its own system: qemu-system-aarch64 -M virt -cpu $CPU, screen, touch, reader, QMP"
    "$SRC/dev.sh" run --help >/dev/null  # the table's own program on this machine, for the layout run
    PYTHONPATH=$SRC "$SRC/${SKATTISCH_VENV:-.venv}/bin/python" "$SRC/deploy/qemu_table.py" --work "$W" --disk "$DISK" \
        --root-offset "$ROOT_OFFSET" --pin "$PIN" --kernel "$W/vmlinuz" --initrd "$W/initrd" --root "PARTUUID=$DISK_ID-02" --cpu "$CPU" --taps "$TAPS" \
        --skattisch "$SKATTISCH" --plugs "${SKATTISCH_PLUGS:-yes}" \
        --proxy-port "$PROXY_PORT" --laptop-port "${COLLECTOR_URL##*:}" || fail "the table on its own system (above)"
    local shots=$SRC/build/qemu-screen
    rm -rf "$shots"
    mkdir -p "$shots"
    cp "$W"/shots/*.png "$W"/*.console "$W"/layout-report.jsonl "$shots"/ 2>/dev/null || true
    note "screendumps and consoles: $shots"
    say "the laptop, and the guest's disk after the last power-off (read by deploy/qemu_table.py)"
    check "the laptop holds exactly the table's events (each seq and hash)" laptop_equals_table
    check "the laptop has the evening's four games" laptop_has_four_games
    grep -h 'MTD\|ProbeSysfs\|skattisch\[' "$W"/*.console | tr -d '\r' | grep -v 'audit' | tail -40 >"$shots/journal-lines.txt" || true
    if [ "$FAILED" -gt 0 ]; then echo "test-image.sh --screen: $FAILED check(s) failed" >&2; exit 1; fi
    echo "test-image.sh --screen: every check passed"
}

main() {
    local t_start started_us grown_mib
    t_start=$(now)
    need_apt qemu-system-arm mtools e2fsprogs fdisk
    W=$(mktemp -d /var/tmp/skattisch-boot.XXXXXX)
    say "the image: $IMAGE ($(( $(stat -c %s "$IMAGE") / 1048576 )) MiB), two copies to boot at once"
    start_collector
    # boot 1: the settings filled in, on a card 2 GiB larger than the image
    copy_image good 2G
    ROOT_BYTES=$(root_fs_bytes)
    note "copy 1 is 2 GiB larger than the image; its root holds $(( ROOT_BYTES / 1048576 )) MiB"
    fill_in_settings "table=$TABLE" "laptop=10.0.2.2:${COLLECTOR_URL##*:}" "pairing_code=$CODE" "pin=$PIN"
    add_test_unit
    take_kernel
    # boot 2: bad settings (a typo in the number, a short PIN, a wrong code), the image's size
    copy_image bad
    fill_in_settings "table=sieben" "laptop=10.0.2.2:${COLLECTOR_URL##*:}" "pairing_code=000000" "pin=12"
    add_test_unit
    say "both boots: qemu-system-aarch64 -M virt -cpu $CPU, the image's kernel"
    start_boot good
    start_boot bad
    wait_boot good
    wait_boot bad

    say "boot 1, the settings filled in, on a 2 GiB larger card"
    use good
    boot_report
    started_us=$(sed -n 's/.*BOOT-TEST skattisch started at: \([0-9]*\) us.*/\1/p' "$CONSOLE" | head -1)
    check_booted
    if [ "$BOARD" = pi5 ]; then
        check "the boot partition starts a Pi 5 (config.txt, cmdline.txt, its DTBs, trixie-backports' kernel, pinned)" check_pi5_boot_files
    else
        check "the boot partition starts a Pi 4 (config.txt, cmdline.txt without cma=, its DTB)" check_boot_files
    fi
    check "the first boot says what it applied" \
        console_has 'skattisch first-boot: applied table, laptop, pin, pairing_code from /boot/firmware/skattisch-settings.txt'
    check "the table's number, the laptop and the PIN's hash are in the config" check_config
    check "paired with the collector on this machine (sync.json, and the laptop lists 'Tisch $TABLE')" check_paired
    check "the plain PIN and the used pairing code are gone from the card" check_card
    check "no first-boot problems left for the screen" no_problems_file
    check "the root grew to the larger disk (partition to its end, ext4 to the partition)" check_grown
    grown_mib=$(( $(root_fs_bytes) / 1048576 ))

    say "boot 2, bad settings (a typo in the number, a short PIN, a wrong code)"
    use bad
    boot_report
    check_booted
    check "the problems are left for the table's screen, the config is as it was" check_bad_settings

    say "figures (emulated arm64, TCG, on $(nproc) cores of this machine)"
    note "image: $(( $(stat -c %s "$IMAGE") / 1048576 )) MiB; its root $(( ROOT_BYTES / 1048576 )) MiB, grown on a 2 GiB larger disk to $grown_mib MiB"
    note "boot to skattisch.service started: $(( ${started_us:-0} / 1000000 )) s on the guest's clock (from the kernel's start)"
    note "to the power-off: boot 1 ${BOOT_S[good]} s, boot 2 ${BOOT_S[bad]} s (at once); whole test: $(( $(now) - t_start )) s"
    if [ "$FAILED" -gt 0 ]; then
        local name
        for name in good bad; do
            note "the console of boot '$name': $W/$name.console (SKATTISCH_PI_TEST_KEEP=1 keeps it), its end:"
            tail -30 "$W/$name.console" | tr -d '\r' | sed 's/^/      /'
        done
        echo "test-image.sh: $FAILED check(s) failed" >&2
        exit 1
    fi
    echo "test-image.sh: every check passed"
}

if [ -n "$SCREEN" ]; then main_screen; else main; fi
