#!/usr/bin/env bash
# Prove deploy/install.sh on the Pi's own system: a Debian bookworm arm64 root (what Raspberry
# Pi OS Lite 64-bit is built on), run on this machine through qemu-user-static.
#
#   sudo deploy/test-arm64.sh            build (or reuse) the root, install as docs/aufbau.md
#                                        says, check the result, install again, uninstall
#   sudo deploy/test-arm64.sh --can-run  exit 0 if this machine can run the test (root, and
#                                        binfmt_misc mounted or mountable), else say why in one line
#   sudo deploy/test-arm64.sh --build-root   only build (or reuse) the cached root
#   deploy/test-arm64.sh --help          this text
#
# SKATTISCH_SUITE=trixie (or --suite trixie before the other options) takes Debian 13 instead
# of bookworm (the Pi 5 image's root, deploy/build-image.sh --board pi5). This machine's apt
# sources name the suite, or else its Debian mirror is asked for it (SUITE, SUITE-updates,
# SUITE-security, written to the cache as sources-SUITE.sources).
#
# The root is built once with mmdebstrap from this machine's own Debian apt sources and kept
# in ${XDG_CACHE_HOME:-~/.cache}/skattisch/, named by a hash of everything that goes into it:
# a rerun only unpacks it. It holds what Raspberry Pi OS Lite has that matters here: sudo,
# python3, python3-venv, git, systemd, udev, polkitd and the user "pi" with sudo.
#
# Inside it, as the user pi, the guide's words: git clone (of this checkout's committed HEAD),
# cd skattisch, sudo deploy/install.sh (with --no-start: nothing boots in a chroot), the PIN
# typed twice on a terminal. Then, as root: the service user, owners and modes, the unit, the
# udev and polkit rules, skattisch config / score / selftest / store check, a scripted table
# evening through the real Kivy window under Xvfb, a second install that changes nothing, and
# --uninstall that keeps the data. Timings are printed at the end.
#
# Needs root (mmdebstrap, chroot, mounts); installs mmdebstrap, qemu-user-static and
# binfmt-support with apt if missing. SKATTISCH_PI_TEST_KEEP=1 keeps the unpacked root.
set -euo pipefail

SRC=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/skattisch
SUITE=${SKATTISCH_SUITE:-bookworm}
# What Raspberry Pi OS Lite has that install.sh and the guide rely on.
ROOT_PACKAGES=(
    sudo python3 python3-venv git ca-certificates netbase
    systemd systemd-sysv udev polkitd dbus
)
# The Pi OS user made in Raspberry Pi Imager: a login shell, sudo without a password
# (Pi OS's /etc/sudoers.d/010_pi-nopasswd). Run by mmdebstrap, which passes the root as $1.
# shellcheck disable=SC2016
ROOT_HOOK='chroot "$1" useradd --create-home --shell /bin/bash --groups sudo pi
echo "pi ALL=(ALL) NOPASSWD: ALL" > "$1/etc/sudoers.d/010_pi-nopasswd"
chmod 0440 "$1/etc/sudoers.d/010_pi-nopasswd"
echo skattisch-pi > "$1/etc/hostname"
printf "127.0.0.1 localhost\n127.0.1.1 skattisch-pi\n" > "$1/etc/hosts"'
# Only for the checks (not part of the install): the X server for the Kivy window.
TEST_PACKAGES=(xvfb xauth)
PIN=2468

usage() { sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'; }
say() { printf '\n=== %s\n' "$*"; }
note() { printf '    %s\n' "$*"; }
die() { printf 'test-arm64.sh: %s\n' "$*" >&2; exit 1; }
now() { date +%s; }

# --- this machine: qemu-user-static through binfmt_misc -----------------------------------------

BINFMT=/proc/sys/fs/binfmt_misc

# Why this machine cannot run arm64 programs (empty if it can).
cannot_run_arm64() {
    [ -e "$BINFMT/status" ] || { echo "binfmt_misc is not mounted at $BINFMT"; return; }
    [ -e "$BINFMT/qemu-aarch64" ] || { echo "no qemu-aarch64 in binfmt_misc (qemu-user-static)"; return; }
    grep -qx enabled "$BINFMT/qemu-aarch64" || { echo "qemu-aarch64 is registered but disabled"; return; }
    # F: the kernel opens the interpreter at registration, so it works inside a chroot
    grep -q '^flags:.*F' "$BINFMT/qemu-aarch64" \
        || { echo "qemu-aarch64 is registered without the F flag (use qemu-user-static)"; return; }
}

# Why this machine cannot run the test at all (empty if it can): qemu-user-static is installed
# by the test itself, binfmt_misc must be there or mountable.
cannot_use_binfmt() {
    [ "$(id -u)" -eq 0 ] || { echo "not root (the test needs chroot and mounts)"; return; }
    command -v apt-get >/dev/null || { echo "no apt-get here (needs Debian for mmdebstrap)"; return; }
    [ -e "$BINFMT/status" ] || mount -t binfmt_misc binfmt_misc "$BINFMT" 2>/dev/null \
        || { echo "binfmt_misc cannot be mounted at $BINFMT (a container without it?)"; return; }
}

# sudo is set-user-id: a program run through binfmt_misc gets its set-user-id bit only with
# the C flag, which Debian's qemu-aarch64 entry leaves out. For the run, an entry of our own
# with it (the newest entry wins), removed again at the end.
SUDO_BINFMT=skattisch-aarch64

register_sudo_binfmt() {
    local magic mask interpreter
    # the entry as registered (binfmt-support's /usr/share/binfmts/qemu-aarch64 with bookworm's
    # qemu-user-static, systemd's /usr/lib/binfmt.d/qemu-aarch64.conf with QEMU 10's): the same
    # magic, mask and interpreter either way
    magic=$(awk '$1 == "magic" { print $2 }' "$BINFMT/qemu-aarch64")
    mask=$(awk '$1 == "mask" { print $2 }' "$BINFMT/qemu-aarch64")
    interpreter=$(awk '$1 == "interpreter" { print $2 }' "$BINFMT/qemu-aarch64")
    # shellcheck disable=SC2001  # each hex pair as \xNN, as the register file wants it
    magic=$(sed 's/../\\x&/g' <<<"$magic")
    # shellcheck disable=SC2001
    mask=$(sed 's/../\\x&/g' <<<"$mask")
    if [ -z "$magic" ] || [ -z "$mask" ] || [ ! -x "$interpreter" ]; then
        die "cannot read the qemu-aarch64 entry in $BINFMT"
    fi
    [ ! -e "$BINFMT/$SUDO_BINFMT" ] || echo -1 >"$BINFMT/$SUDO_BINFMT"
    printf ':%s:M:0:%s:%s:%s:OCPF' "$SUDO_BINFMT" "$magic" "$mask" "$interpreter" >"$BINFMT/register"
}

unregister_sudo_binfmt() {
    if [ -e "$BINFMT/$SUDO_BINFMT" ]; then echo -1 >"$BINFMT/$SUDO_BINFMT"; fi
}

need_apt() {
    local missing=() pkg
    for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
    [ ${#missing[@]} -eq 0 ] && return 0
    note "apt-get install ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

setup_host() {
    [ "$(id -u)" -eq 0 ] || die "run me as root (sudo $0): mmdebstrap, chroot and mounts need it"
    command -v dpkg >/dev/null || die "needs a Debian-like machine (dpkg, apt)"
    need_apt mmdebstrap arch-test qemu-user-static binfmt-support
    if [ ! -e "$BINFMT/status" ]; then
        mount -t binfmt_misc binfmt_misc "$BINFMT" || die "cannot mount binfmt_misc at $BINFMT"
    fi
    if [ -n "$(cannot_run_arm64)" ]; then update-binfmts --enable qemu-aarch64 || true; fi
    local why
    why=$(cannot_run_arm64)
    [ -z "$why" ] || die "cannot run arm64 programs: $why"
}

# --- the root --------------------------------------------------------------------------------

# This machine's Debian sources (deb.debian.org or its mirror), in deb822 or one-line form,
# that name SUITE; if none does, one for SUITE on the same mirror (suite_sources).
debian_sources() {
    local file found=""
    for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
        [ -f "$file" ] || continue
        # SUITE itself, not only SUITE-backports (added here for a newer qemu: not for the root)
        if grep -qE "^[^#]*\b$SUITE([^-[:alnum:]]|-updates|-security|$)" "$file" && grep -qE '^[^#]*/debian(-security)?/?( |$)' "$file"; then
            echo "$file"
            found=yes
        fi
    done
    [ -n "$found" ] || suite_sources
}

# The first Debian mirror among this machine's apt sources (deb.debian.org if there is none).
debian_mirror() {
    local uri
    uri=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null \
        | grep -v '^ *#' | grep -oE 'https?://[^ ]*/debian/?( |$)' | head -1 | tr -d ' ')
    echo "${uri:-http://deb.debian.org/debian}"
}

# SUITE, its updates and its security archive on this machine's Debian mirror, as a deb822
# file in the cache (its path printed; the same content each time)
suite_sources() {
    local mirror file=$CACHE/sources-$SUITE.sources
    mirror=$(debian_mirror)
    mkdir -p "$CACHE"
    printf 'Types: deb\nURIs: %s\nSuites: %s %s-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n\nTypes: deb\nURIs: %s-security\nSuites: %s-security\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        "$mirror" "$SUITE" "$SUITE" "${mirror%/}" "$SUITE" >"$file"
    echo "$file"
}

root_tarball() {
    local sources key
    mapfile -t sources < <(debian_sources)
    [ ${#sources[@]} -gt 0 ] || die "no Debian $SUITE apt sources in /etc/apt/sources.list*"
    key=$( { echo "$SUITE arm64 ${ROOT_PACKAGES[*]}"; echo "$ROOT_HOOK"; cat "${sources[@]}"; } \
        | sha256sum | cut -c1-16)
    local tarball=$CACHE/arm64-$SUITE-root-$key.tar
    if [ -s "$tarball" ]; then
        note "cached: $tarball" >&2
    else
        mkdir -p "$CACHE"
        note "mmdebstrap $SUITE arm64 from ${sources[*]} ($(IFS=,; echo "${ROOT_PACKAGES[*]}"))" >&2
        mmdebstrap --quiet --format=tar --arch=arm64 --variant=minbase --include="$(IFS=,; echo "${ROOT_PACKAGES[*]}")" \
            --customize-hook="$ROOT_HOOK" "$SUITE" "$tarball.part" "${sources[@]}" >&2
        mv "$tarball.part" "$tarball"
    fi
    echo "$tarball"
}

# --- the unpacked root and running things in it ---------------------------------------------

R=""          # the unpacked root
MOUNTS=()     # mounted inside it, innermost last

mount_in() {  # mount_in TARGET MOUNT-ARGS...
    local target=$R$1
    shift
    mkdir -p "$target"
    mount "$@" "$target"
    MOUNTS+=("$target")
}

cleanup() {
    local i
    [ -n "$R" ] || return 0
    # whatever still runs in the root (Xvfb, a table that hung) goes first
    local pid
    for pid in /proc/[0-9]*; do
        if [ "$(readlink "$pid/root" 2>/dev/null)" = "$R" ]; then kill -9 "${pid#/proc/}" 2>/dev/null || true; fi
    done
    for (( i=${#MOUNTS[@]}-1; i>=0; i-- )); do umount -l "${MOUNTS[$i]}" 2>/dev/null || true; done
    unregister_sudo_binfmt
    if [ -n "${SKATTISCH_PI_TEST_KEEP:-}" ]; then
        echo "kept the root: $R"
    else
        rm -rf --one-file-system "$R"
    fi
}

unpack_root() {
    R=$(mktemp -d /var/tmp/skattisch-arm64.XXXXXX)
    trap cleanup EXIT
    tar -C "$R" --numeric-owner -xf "$1"
    mount_in /proc -t proc proc
    mount_in /sys -t sysfs -o ro sysfs
    mount_in /dev --bind /dev
    mount_in /dev/pts --bind /dev/pts
    mount_in /dev/shm -t tmpfs tmpfs
    mount_in /run -t tmpfs -o mode=0755 tmpfs  # empty: no systemd, no udevd, as in a chroot
    mkdir -p "$R/run/lock"
    register_sudo_binfmt
    cp --remove-destination -L /etc/resolv.conf "$R/etc/resolv.conf"
    trust_local_cas
    # a chroot keeps this machine's host name: sudo looks it up
    printf '127.0.1.1 %s\n' "$(hostname)" >>"$R/etc/hosts"
}

# This machine's own certificate authorities (e.g. a proxy that inspects TLS) are not the
# Pi's business, but pip in the root must reach PyPI through the same network: the root trusts
# what this machine trusts (apt's and pip's bundle), for the run only.
trust_local_cas() {
    local bundle=/etc/ssl/certs/ca-certificates.crt
    cmp -s "$bundle" "$R$bundle" && return 0
    note "this machine trusts certificate authorities of its own: so does the root, for pip"
    cp /usr/local/share/ca-certificates/*.crt "$R/usr/local/share/ca-certificates/" 2>/dev/null || true
    cp "$bundle" "$R$bundle"
    printf '[global]\ncert = %s\n' "$bundle" >"$R/etc/pip.conf"
}

# in_root CMD...: as root in the root, with a clean environment
in_root() {
    chroot "$R" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        LANG=C.UTF-8 HOME=/root TERM=dumb "$@"
}

# as_user USER CMD...: as a user of the root (the table's user runs the table's commands)
as_user() {
    local user=$1
    shift
    local home
    home=$(awk -F: -v u="$user" '$1 == u { print $6 }' "$R/etc/passwd")
    in_root runuser -u "$user" -- env HOME="$home" "$@"
}

# typed PROGRAM: run the pi's login shell with PROGRAM on a terminal, typing the PIN at its prompts
typed() {
    python3 - "$PIN" chroot "$R" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin TERM=xterm LANG=C.UTF-8 \
        runuser -l pi -c "$1" <<'PY'
import os, pty, re, sys
pin, command = sys.argv[1], sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(command[0], command)
seen = b""
while True:
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        break
    if not chunk:
        break
    sys.stdout.buffer.write(chunk)
    sys.stdout.flush()
    seen = (seen + chunk)[-200:]
    if re.search(rb"(Settings PIN \([^)]*\)|Once more): $", seen):
        os.write(fd, pin.encode() + b"\n")  # the volunteer types the PIN, as the guide says
        seen = b""
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
PY
}

# --- checks ----------------------------------------------------------------------------------

FAILED=0
pass() { printf 'PASS  %s\n' "$*"; }
fail() { printf 'FAIL  %s\n' "$*"; FAILED=$((FAILED + 1)); }
check() {  # check WHAT CMD...: PASS if CMD succeeds, else FAIL with its output
    local what=$1 out
    shift
    if out=$("$@" 2>&1); then pass "$what"; else fail "$what"; printf '%s\n' "$out" | tail -20 | sed 's/^/      /'; fi
}

# stat_is PATH MODE USER GROUP
stat_is() {
    local got
    got=$(in_root stat -c '%a %U %G' "$1") || return 1
    [ "$got" = "$2 $3 $4" ] || { echo "$1 is $got, wanted $2 $3 $4"; return 1; }
}

same_file() {  # same_file INSTALLED SOURCE (in the checkout)
    cmp "$R$1" "$SRC/$2"
}

check_user() {
    local groups
    groups=$(in_root id -nG skattisch) || { fail "service user skattisch: missing"; return; }
    local group absent=""
    for group in dialout gpio video render input; do
        [[ " $groups " == *" $group "* ]] || absent="$absent $group"
    done
    if [ -z "$absent" ]; then pass "service user skattisch in: $groups"; else fail "service user skattisch not in:$absent"; fi
    check "service user has no login shell" test "$(in_root getent passwd skattisch | cut -d: -f7)" = /usr/sbin/nologin
}

check_files() {
    check "/var/lib/skattisch 0750 skattisch" stat_is /var/lib/skattisch 750 skattisch skattisch
    check "/var/lib/skattisch/lists 0750 skattisch" stat_is /var/lib/skattisch/lists 750 skattisch skattisch
    check "/var/lib/skattisch/.kivy 0750 skattisch" stat_is /var/lib/skattisch/.kivy 750 skattisch skattisch
    check "/var/lib/skattisch/.kivy/config.ini 0640 skattisch" stat_is /var/lib/skattisch/.kivy/config.ini 640 skattisch skattisch
    check "/etc/skattisch 0750 root:skattisch" stat_is /etc/skattisch 750 root skattisch
    check "/etc/skattisch/skattisch.toml 0640 root:skattisch" stat_is /etc/skattisch/skattisch.toml 640 root skattisch
    check "/opt/skattisch/venv owned by root" stat_is /opt/skattisch/venv 755 root root
    # what SDL2's kmsdrm needs on a Pi 4 (v3d) and on the official display's KMS driver (vc4)
    check "the Pi's GPU drivers for KMS/DRM (v3d, vc4) are installed" \
        test -e "$R/usr/lib/aarch64-linux-gnu/dri/v3d_dri.so" -a -e "$R/usr/lib/aarch64-linux-gnu/dri/vc4_dri.so"
    check "the PIN typed at install is the one stored (hashed)" in_root /opt/skattisch/venv/bin/python -c "
import sys, tomllib
from device.pin import verify_pin
conf = tomllib.load(open('/etc/skattisch/skattisch.toml', 'rb'))
stored = conf['table']['club_pin_hash']
sys.exit(0 if verify_pin('$PIN', stored) and '$PIN' not in open('/etc/skattisch/skattisch.toml').read() else 1)"
}

check_unit() {
    check "unit installed and enabled" test -L "$R/etc/systemd/system/multi-user.target.wants/skattisch.service"
    check "unit is deploy/skattisch.service" same_file /etc/systemd/system/skattisch.service deploy/skattisch.service
    check "systemd-analyze verify skattisch.service" verify_unit
}

verify_unit() {
    local out
    out=$(in_root systemd-analyze verify /etc/systemd/system/skattisch.service 2>&1) || { echo "$out"; return 1; }
    [ -z "$out" ] || { echo "$out"; return 1; }
}

check_rules() {
    check "udev rule is deploy/99-skattisch-reader.rules, 0644 root" \
        bash -c "cmp '$R/etc/udev/rules.d/99-skattisch-reader.rules' '$SRC/deploy/99-skattisch-reader.rules' \
            && [ \"\$(stat -c %a '$R/etc/udev/rules.d/99-skattisch-reader.rules')\" = 644 ]"
    check "udev rule is deploy/60-skattisch-gpio.rules (the GPIO chips for the group gpio)" \
        same_file /etc/udev/rules.d/60-skattisch-gpio.rules deploy/60-skattisch-gpio.rules
    check "udevd parses the rule (udevadm test)" udev_parses
    check "polkit rule is deploy/50-skattisch-power.rules" \
        same_file /etc/polkit-1/rules.d/50-skattisch-power.rules deploy/50-skattisch-power.rules
    check "polkitd can read the polkit rule" as_user polkitd cat /etc/polkit-1/rules.d/50-skattisch-power.rules
    check "/etc/polkit-1/rules.d still the package's (polkitd, 0700)" stat_is /etc/polkit-1/rules.d 700 polkitd root
}

udev_parses() {
    local out
    out=$(in_root udevadm test --action=add /class/tty/tty0 2>&1) || true
    grep -q '99-skattisch-reader.rules' <<<"$out" || { echo "$out" | tail -20; echo "the rule was not read"; return 1; }
    if grep -iE 'skattisch.*(invalid|error|fail)|(invalid|error|fail).*skattisch' <<<"$out"; then return 1; fi
}

SKATTISCH=/opt/skattisch/venv/bin/skattisch
TABLE_ENV=(SKATTISCH_CONFIG=/etc/skattisch/skattisch.toml KIVY_HOME=/var/lib/skattisch/.kivy)

check_commands() {
    check "skattisch config (as the service user, as ExecStartPre)" as_user skattisch env "${TABLE_ENV[@]}" $SKATTISCH config
    check "skattisch score examples/records.jsonl: the same as on x86" score_records
    check "skattisch selftest against MockFactory" selftest_mock
}

score_records() {
    # the same lines as this machine's Python scores them (the example's last record is bad on
    # purpose: both say so and exit 1)
    local arm x86 arm_rc=0 x86_rc=0
    arm=$(in_root $SKATTISCH score /home/pi/skattisch/examples/records.jsonl) || arm_rc=$?
    x86=$(cd "$SRC" && env -i PATH=/usr/bin:/bin python3 -m ui.cli score examples/records.jsonl) || x86_rc=$?
    if [ -z "$arm" ] || [ "$arm" != "$x86" ] || [ "$arm_rc" != "$x86_rc" ]; then
        diff <(echo "$x86 (exit $x86_rc)") <(echo "$arm (exit $arm_rc)")
        return 1
    fi
}

selftest_mock() {
    # the installed config with gpiozero's MockFactory as the panel; buttons need hands and
    # the reader a card, so: the LEDs and buzzer (answered yes), the store, the clock, the laptop
    sed -e 's/^pin_factory = .*/pin_factory = "mock"/' "$R/etc/skattisch/skattisch.toml" >"$R/tmp/mock.toml"
    chmod 0644 "$R/tmp/mock.toml"
    local out
    out=$(printf 'y\n%.0s' {1..20} | as_user skattisch env "${TABLE_ENV[@]}" $SKATTISCH selftest --config /tmp/mock.toml \
        --no-screen --only leds,buzzer,store,clock,laptop --wait 2) || { echo "$out"; return 1; }
    echo "$out"
    # (the prompts end in no newline: a PASS line may follow one)
    grep -q 'PASS  store' <<<"$out" && grep -q 'PASS  LED Platz 1' <<<"$out" && ! grep -q 'FAIL  ' <<<"$out"
}

check_evening() {
    note "apt-get install ${TEST_PACKAGES[*]} (for the checks only)"
    in_root apt-get install -y -qq --no-install-recommends "${TEST_PACKAGES[@]}" >/dev/null
    # the steps from the UI tests' scenarios (tests/ui/scenarios.py), in the clone
    in_root sh -c "cd /home/pi/skattisch && /opt/skattisch/venv/bin/python -" >"$R/tmp/evening.txt" <<'PY'
from tests.ui.scenarios import direct_game, setup_steps
players = ("Anna", "Bernd", "Carla", "Dieter")
games = [("clubs", 7, 80, 1), ("hearts", 3, 40, 1), ("spades", 6, 75, 2), ("diamonds", 4, 50, 1)]
steps = setup_steps(players, length="length_open", stake="stake_1")
for number, (game, tricks, points, matadors) in enumerate(games):
    steps += direct_game(number, len(players), game, tricks, points, matadors)
steps += ["tap list", "wait_screen list", "tap end_series", "tap end_series_yes", "wait_screen end",
          'expect_text "Carla zahlt Dieter 1,41 €"', 'expect_text "Anna zahlt Bernd 1,15 €"']
print("\n".join(steps))
PY
    chmod 0644 "$R/tmp/evening.txt"
    in_root sh -c 'Xvfb :7 -screen 0 1280x720x24 -nolisten tcp >/tmp/xvfb.log 2>&1 &'
    local i
    for i in $(seq 60); do [ -S "$R/tmp/.X11-unix/X7" ] && break; sleep 1; done
    local t0 out
    t0=$(now)
    # the installed config and store (/var/lib/skattisch/lists): the evening stays recorded
    if out=$(as_user skattisch env "${TABLE_ENV[@]}" DISPLAY=:7 KIVY_NO_ARGS=1 timeout 900 $SKATTISCH run \
            --simulate --config /etc/skattisch/skattisch.toml --size 800x480 --script /tmp/evening.txt \
            --report /tmp/evening.jsonl --exit-when-done --seed 1 --step-wait 120 2>&1); then
        pass "a table evening (4 players, 4 games, end screen) in the Kivy window under Xvfb: $(grep -c . "$R/tmp/evening.jsonl") steps, $(( $(now) - t0 )) s"
    else
        fail "a table evening in the Kivy window under Xvfb"
        printf '%s\n' "$out" | tail -30 | sed 's/^/      /'
    fi
    check "the evening is in the store" bash -c "[ -n \"\$(ls -A '$R/var/lib/skattisch/lists')\" ]"
    check "skattisch store check (as the service user)" as_user skattisch env "${TABLE_ENV[@]}" $SKATTISCH store check
}

# What an install leaves: modes, owners and contents (not times); the venv as pip sees it.
snapshot() {
    in_root sh -c 'find /etc/passwd /etc/group /etc/shadow /etc/gshadow /etc/skattisch /etc/systemd/system \
        /etc/udev/rules.d /etc/polkit-1/rules.d /usr/lib/sysusers.d /var/lib/skattisch /opt/skattisch/venv/bin \
        -printf "%M %u %g %p -> %l\n" | sort
        find /etc/skattisch /etc/systemd/system /etc/udev/rules.d /etc/polkit-1/rules.d /usr/lib/sysusers.d \
            /var/lib/skattisch /etc/passwd /etc/group -type f -exec sha256sum {} + | sort -k2
        /opt/skattisch/venv/bin/pip freeze --all' | sed 's#file:///tmp/tmp\.[A-Za-z0-9]*#(the checkout)#'
    # (pip installs Skattisch again from a fresh copy each time, so that an update takes)
}

# --- the run ---------------------------------------------------------------------------------

main() {
    local t_start t0 root_s install_s again_s tarball
    t_start=$(now)
    setup_host
    say "root: Debian $SUITE arm64"
    t0=$(now)
    tarball=$(root_tarball)
    unpack_root "$tarball"
    root_s=$(( $(now) - t0 ))
    note "$(in_root uname -m) in $R ($root_s s)"
    [ "$(in_root uname -m)" = aarch64 ] || die "the root does not run as aarch64"

    # the guide's repository: this checkout's committed HEAD
    git -C "$SRC" diff --quiet HEAD 2>/dev/null || note "uncommitted changes in $SRC are not tested (a clone has HEAD)"
    git clone --quiet --bare "$SRC" "$R/srv/skattisch.git"
    chown -R "$(awk -F: '$1 == "pi" { print $3 ":" $4 }' "$R/etc/passwd")" "$R/srv/skattisch.git"

    say "install: docs/aufbau.md, section 3, as the user pi"
    t0=$(now)
    typed 'set -e
        sudo apt install -y git
        git clone /srv/skattisch.git skattisch
        cd skattisch
        sudo deploy/install.sh --no-start' || die "the install failed (above)"
    install_s=$(( $(now) - t0 ))

    say "checks, under emulation"
    check_user
    check_files
    check_unit
    check_rules
    check_commands
    check_evening

    say "second install: changes nothing"
    snapshot >"$R/tmp/before.txt"
    t0=$(now)
    typed 'cd skattisch && sudo deploy/install.sh --no-start' >"$R/tmp/second.log" 2>&1 \
        || { cat "$R/tmp/second.log"; die "the second install failed"; }
    again_s=$(( $(now) - t0 ))
    snapshot >"$R/tmp/after.txt"
    check "second install ($again_s s) changed nothing" diff "$R/tmp/before.txt" "$R/tmp/after.txt"
    check "second install kept the PIN" grep -q 'a PIN is set; kept it' "$R/tmp/second.log"

    say "uninstall: keeps the data"
    local lists_before
    lists_before=$(cd "$R/var/lib/skattisch" && find . -type f -exec sha256sum {} + | sort)
    typed 'cd skattisch && sudo deploy/install.sh --uninstall' || fail "install.sh --uninstall"
    check "program, unit and rules gone" bash -c "! [ -e '$R/opt/skattisch' ] && ! [ -e '$R/etc/systemd/system/skattisch.service' ] \
        && ! [ -e '$R/etc/systemd/system/multi-user.target.wants/skattisch.service' ] \
        && ! [ -e '$R/etc/udev/rules.d/99-skattisch-reader.rules' ] && ! [ -e '$R/etc/polkit-1/rules.d/50-skattisch-power.rules' ]"
    check "config and PIN kept" grep -q '^club_pin_hash = "[^"]' "$R/etc/skattisch/skattisch.toml"
    check "lists, deck and Kivy's settings kept, unchanged" \
        test "$lists_before" = "$(cd "$R/var/lib/skattisch" && find . -type f -exec sha256sum {} + | sort)"
    check "user skattisch kept" in_root id skattisch

    say "timings (emulated arm64 on $(nproc) cores of this machine)"
    note "root: $root_s s ($(basename "$tarball"))"
    note "install: $install_s s"
    note "second install: $again_s s"
    note "whole run: $(( $(now) - t_start )) s"
    if [ "$FAILED" -gt 0 ]; then
        echo "test-arm64.sh: $FAILED check(s) failed" >&2
        exit 1
    fi
    echo "test-arm64.sh: every check passed"
}

# Sourced (deploy/build-image.sh uses the root and the helpers above), it only defines them.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    if [ "${1:-}" = --suite ]; then
        [ $# -ge 2 ] || die "--suite needs a Debian suite (bookworm, trixie)"
        SUITE=$2
        shift 2
    fi
    case "${1:-}" in
        -h|--help) usage; exit 0 ;;
        --can-run)
            why=$(cannot_use_binfmt)
            if [ -n "$why" ]; then echo "$why"; exit 1; fi
            exit 0 ;;
        --build-root)
            setup_host
            t0=$(now); root_tarball; echo "root: $(( $(now) - t0 )) s"; exit 0 ;;
        "") main ;;
        *) die "unknown option $1 (try --help)" ;;
    esac
fi
