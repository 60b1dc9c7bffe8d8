#!/usr/bin/env bash
# Install Skattisch on a Raspberry Pi (Raspberry Pi OS Bookworm Lite, Pi 4 or 5): after it, the
# Pi boots straight into the table screen.
#
#   sudo deploy/install.sh               install or update, then (re)start the table
#   sudo deploy/install.sh --no-start    install or update, enable the service, do not start it
#   sudo deploy/install.sh --overlay     also make the root file system read-only (overlay);
#                                        the lists need their own partition (docs/aufbau.md)
#   sudo deploy/install.sh --uninstall   remove the program, service and rules; keep the
#                                        config, the lists, the deck and the user
#   deploy/install.sh --root DIR         stage everything into DIR instead of / (tests, image
#                                        building): no apt, no systemctl, no udevadm
#   deploy/install.sh --help             this text
#
# Into a chroot or an image being built (nothing booted there: no systemd, no udevd running),
# it installs all the same and skips only telling those daemons, with a line saying so; they
# read the files when they start.
#
# Run it from the project's checkout (git clone or unpacked archive). It is safe to run again:
# an update (git pull && sudo deploy/install.sh) keeps /etc/skattisch/skattisch.toml, the
# settings PIN and the recorded lists.
#
# The steps, in order (each says what it did):
#   packages   apt packages for the touch UI (SDL2 on KMS/DRM), the GPIO library and pip
#   user       the system user "skattisch" (systemd-sysusers), in the groups dialout (reader),
#              gpio (panel), video and render (screen), input (touch)
#   venv       a virtual environment /opt/skattisch/venv with Skattisch and its extras [ui,pi]
#   data       /var/lib/skattisch (lists, deck, Kivy's settings), owned by the user
#   config     /etc/skattisch/skattisch.toml from deploy/skattisch.example.toml (kept if present)
#   pin        the settings PIN, asked (or generated and printed once); stored as a salted hash
#   udev       the card reader's stable name /dev/skattisch-reader
#   polkit     lets exactly the user skattisch power off and reboot ("Ausschalten")
#   console    no auto-login on the console, no screen blanking
#   service    skattisch.service, enabled at boot (and started unless --no-start)
#   overlay    (only with --overlay) the read-only root file system
set -euo pipefail

PREFIX=/opt/skattisch
VENV=$PREFIX/venv
CONF_DIR=/etc/skattisch
STATE_DIR=/var/lib/skattisch
SERVICE_USER=skattisch
GROUPS_WANTED=(dialout gpio video render input)
APT_PACKAGES=(
    python3 python3-venv python3-pip python3-dev build-essential pkg-config
    # Kivy's wheels bring SDL2; the Pi's GL, KMS/DRM and touch libraries come from apt
    libgl1 libgles2 libegl1 libgbm1 libdrm2 libmtdev1
    # a font with the suit symbols ♣ ♠ ♥ ♦
    fonts-dejavu-core
    # to build lgpio (gpiozero's pin library on Bookworm) if pip finds no wheel for this Pi
    swig
    # the service user and its folders are declared, then made by systemd's own tools
    systemd polkitd
)
# Only in the Raspberry Pi OS archive (Debian bookworm has no lgpio): installed where apt has it.
APT_OPTIONAL=(liblgpio-dev)

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'
}

say() { printf '\n==> %s\n' "$*"; }
note() { printf '    %s\n' "$*"; }
warn() { printf 'install.sh: warning: %s\n' "$*" >&2; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

ROOT=""
start=yes
action=install
overlay=no
while [ $# -gt 0 ]; do
    case "$1" in
        --no-start) start=no ;;
        --overlay) overlay=yes ;;
        --uninstall) action=uninstall ;;
        --root)
            if [ $# -lt 2 ] || [ -z "$2" ]; then
                echo "install.sh: --root needs a directory" >&2
                exit 2
            fi
            ROOT=$(mkdir -p "$2" && cd "$2" && pwd)
            [ "$ROOT" != / ] || ROOT=""
            shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
    esac
    shift
done

staged() { [ -n "$ROOT" ]; }
if staged && [ "$overlay" = yes ]; then
    echo "install.sh: --overlay switches the running Pi's root file system; not with --root" >&2
    exit 2
fi
if ! staged && [ "$(id -u)" -ne 0 ]; then
    die "run me as root: sudo $0 (or stage into a folder with --root DIR)"
fi
SRC=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -f "$SRC/pyproject.toml" ] || [ ! -f "$SRC/deploy/skattisch.service" ]; then
    die "run me from the Skattisch checkout (deploy/install.sh); $SRC is not one"
fi
CONF_FILE=$CONF_DIR/skattisch.toml

# --- helpers: every path below is the installed one; $ROOT is put in front here --------------

# The numeric ids of a user and a group in the tree being installed (a staged tree has its
# own /etc/passwd), so that chown never looks the names up on the wrong machine.
owner_ids() {
    local uid=0 gid=0  # root is 0 everywhere, even in a tree without /etc/passwd yet
    [ "$1" = root ] || uid=$(awk -F: -v u="$1" '$1 == u { print $3 }' "$ROOT/etc/passwd")
    [ "$2" = root ] || gid=$(awk -F: -v g="$2" '$1 == g { print $3 }' "$ROOT/etc/group")
    if [ -z "$uid" ] || [ -z "$gid" ]; then die "no user $1 or group $2 in $ROOT/etc/passwd"; fi
    printf '%s:%s' "$uid" "$gid"
}

# set_owner USER GROUP PATH...: as root; a staging run by another user leaves its own.
set_owner() {
    local ids
    ids=$(owner_ids "$1" "$2")
    shift 2
    if [ "$(id -u)" -eq 0 ]; then
        chown "$ids" "${@/#/$ROOT}"
    elif [ -z "${owner_warned:-}" ]; then
        owner_warned=yes
        warn "not root: the staged files keep your ownership (they would be $ids)"
    fi
}

# put_dir MODE USER GROUP DIR...
put_dir() {
    local mode=$1 user=$2 group=$3
    shift 3
    local dir
    for dir in "$@"; do
        install -d -m "$mode" "$ROOT$dir"
        chmod "$mode" "$ROOT$dir"  # also for a folder that was there (our own folders)
    done
    set_owner "$user" "$group" "$@"
}

# put_file MODE SOURCE TARGET (root-owned)
put_file() {
    # a folder that is there keeps its mode: polkitd's rules.d is 0700, and GNU install -d
    # would make it 0755 (found on the arm64 root)
    [ -d "$(dirname "$ROOT$3")" ] || install -d -m 0755 "$(dirname "$ROOT$3")"
    install -m "$1" "$2" "$ROOT$3"
    set_owner root root "$3"
}

# --- daemons: told about new files only where they run ------------------------------------
# Installing into an image being built or a chroot (nothing booted there) is an install too:
# systemd and udevd read their files when they start, so telling them is skipped, with a line.
SYSTEMD_RUN_DIR=/run/systemd/system

daemon_running() {
    case "$1" in
        systemd) [ -d "$SYSTEMD_RUN_DIR" ] ;;  # what sd_booted() checks
        udevd) udevadm control --ping >/dev/null 2>&1 ;;
    esac
}

# running_here DAEMON WHAT: true if DAEMON runs on this machine; otherwise says that WHAT is
# skipped (staged, or a chroot or an image being built, where nothing booted)
running_here() {
    if staged; then
        note "staged: skipped $2"
    elif daemon_running "$1"; then
        return 0
    else
        note "no $1 running here (a chroot or an image being built): skipped $2; it reads the files when it starts"
    fi
    return 1
}

# --- the steps --------------------------------------------------------------------------------

step_packages() {
    say "packages: system packages for the touch UI, GPIO and pip"
    if staged; then
        note "staged: skipped (apt-get install ${APT_PACKAGES[*]})"
        return
    fi
    if [ -r /etc/os-release ]; then
        # shellcheck disable=SC1091
        . /etc/os-release
        # Bookworm (Pi OS, the Pi 4 image); Trixie (Debian 13: the Pi 5 image, deploy/build-image.sh)
        case "${VERSION_CODENAME:-}" in
            bookworm|trixie) ;;
            *) warn "made for Raspberry Pi OS Bookworm or Debian Trixie, this is ${PRETTY_NAME:-unknown}" ;;
        esac
    fi
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${APT_PACKAGES[@]}"
    local pkg
    for pkg in "${APT_OPTIONAL[@]}"; do
        if apt-cache policy "$pkg" 2>/dev/null | grep -q '^ *Candidate: [^(]'; then
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$pkg"
        else
            note "$pkg is not in this system's archive (plain Debian): pip's lgpio is used (its wheel, or built with the library inside)"
        fi
    done
}

step_user() {
    say "user: $SERVICE_USER in ${GROUPS_WANTED[*]}"
    local conf=/usr/lib/sysusers.d/skattisch.conf
    local declared
    declared=$(mktemp)
    {
        echo "# Skattisch: the table's service user (deploy/install.sh)"
        echo "u $SERVICE_USER - \"Skattisch table\" $STATE_DIR /usr/sbin/nologin"
        local group
        for group in "${GROUPS_WANTED[@]}"; do echo "m $SERVICE_USER $group"; done
    } >"$declared"
    put_file 0644 "$declared" "$conf"
    rm -f "$declared"
    install -d -m 0755 "$ROOT/etc"
    if staged; then
        systemd-sysusers --root="$ROOT" "$ROOT$conf" >/dev/null
    else
        systemd-sysusers "$conf"
    fi
    note "$(grep "^$SERVICE_USER:" "$ROOT/etc/passwd")"
}

step_venv() {
    say "venv: Skattisch into $VENV"
    install -d -m 0755 "$ROOT$PREFIX"
    [ -x "$ROOT$VENV/bin/python" ] || python3 -m venv "$ROOT$VENV"
    "$ROOT$VENV/bin/pip" install --quiet --upgrade pip
    # From a copy, so that the build leaves nothing behind in the checkout and root-owned
    # files never land in it.
    local build
    build=$(mktemp -d)
    tar -C "$SRC" --exclude=./.git --exclude=./.venv --exclude='*.egg-info' --exclude=./build -cf - . \
        | tar -C "$build" -xf -
    # lgpio has wheels for some Pythons only (none for Debian 13's 3.13): pip then builds it from
    # its sources, which link against liblgpio, a library plain Debian lacks; PYPI=1 makes its
    # build put the library inside the module instead (as its own wheels are made)
    local lgpio_build=()
    if ! staged && ! ldconfig -p 2>/dev/null | grep -q 'liblgpio\.so'; then lgpio_build=(env PYPI=1); fi
    (cd "$build" && "${lgpio_build[@]}" "$ROOT$VENV/bin/pip" install --quiet --upgrade ".[ui,pi]") || { rm -rf "$build"; exit 1; }
    rm -rf "$build"
    note "$VENV/bin/skattisch"
}

step_data() {
    say "data: $STATE_DIR (lists, deck, Kivy's settings), owned by $SERVICE_USER"
    put_dir 0750 "$SERVICE_USER" "$SERVICE_USER" "$STATE_DIR" "$STATE_DIR/lists" "$STATE_DIR/.kivy"
    # Kivy: touches from the display through mtdev (libmtdev1), one reader per multitouch device:
    # the key is the one Kivy would add by itself, so it adds no second probe (skattisch run
    # makes the two probes older images wrote into one as well)
    local ini=$STATE_DIR/.kivy/config.ini
    if [ ! -e "$ROOT$ini" ]; then
        cat >"$ROOT$ini" <<'EOF'
[input]
mouse = mouse
%(name)s = probesysfs,provider=mtdev
EOF
        chmod 0640 "$ROOT$ini"
        set_owner "$SERVICE_USER" "$SERVICE_USER" "$ini"
    fi
    if [ -e "$ROOT$CONF_DIR/deck.json" ] && [ ! -e "$ROOT$STATE_DIR/deck.json" ]; then
        # the deck used to live in /etc/skattisch, where the table cannot write it
        install -m 0640 "$ROOT$CONF_DIR/deck.json" "$ROOT$STATE_DIR/deck.json"
        set_owner "$SERVICE_USER" "$SERVICE_USER" "$STATE_DIR/deck.json"
        rm -f "$ROOT$CONF_DIR/deck.json"
        note "moved the deck: $CONF_DIR/deck.json -> $STATE_DIR/deck.json"
    fi
}

step_config() {
    say "config: $CONF_FILE"
    put_dir 0750 root "$SERVICE_USER" "$CONF_DIR"
    if [ ! -e "$ROOT$CONF_FILE" ]; then
        # readable by the service, not by everyone: it holds the club token and the PIN's hash
        install -m 0640 "$SRC/deploy/skattisch.example.toml" "$ROOT$CONF_FILE"
        set_owner root "$SERVICE_USER" "$CONF_FILE"
        note "created from the example: set the table number (and the laptop's address) there"
    else
        note "kept; the current example is $SRC/deploy/skattisch.example.toml"
        if grep -q "^deck = \"$CONF_DIR/deck.json\"" "$ROOT$CONF_FILE"; then
            sed -i "s#^deck = \"$CONF_DIR/deck.json\"#deck = \"$STATE_DIR/deck.json\"#" "$ROOT$CONF_FILE"
            note "reader.deck now $STATE_DIR/deck.json, where the table may write it"
        fi
    fi
}

step_pin() {
    say "pin: the PIN of the settings screen"
    # Asks on a terminal, else makes one up and prints it once; a PIN already set is kept,
    # a PIN written in plain text by an older version is replaced by its hash.
    "$ROOT$VENV/bin/skattisch" pin --config "$ROOT$CONF_FILE" --if-unset
    "$ROOT$VENV/bin/skattisch" config "$ROOT$CONF_FILE" >/dev/null \
        || die "$CONF_FILE has a mistake (above); fix it and run me again"
}

step_udev() {
    say "udev: the card reader as /dev/skattisch-reader, the GPIO chips for the group gpio"
    put_file 0644 "$SRC/deploy/99-skattisch-reader.rules" /etc/udev/rules.d/99-skattisch-reader.rules
    put_file 0644 "$SRC/deploy/60-skattisch-gpio.rules" /etc/udev/rules.d/60-skattisch-gpio.rules
    if running_here udevd "udevadm control --reload-rules, udevadm trigger"; then
        udevadm control --reload-rules
        udevadm trigger --subsystem-match=tty --action=add || true
        udevadm trigger --subsystem-match=gpio --action=add || true
    fi
}

step_polkit() {
    say "polkit: $SERVICE_USER may power off and reboot"
    put_file 0644 "$SRC/deploy/50-skattisch-power.rules" /etc/polkit-1/rules.d/50-skattisch-power.rules
}

step_console() {
    say "console: no auto-login, no screen blanking"
    # raspi-config's console auto-login is this drop-in; without it tty1 asks for a login,
    # and the table (Conflicts=getty@tty1.service) holds the screen anyway.
    local autologin=/etc/systemd/system/getty@tty1.service.d/autologin.conf
    if [ -e "$ROOT$autologin" ]; then
        rm -f "$ROOT$autologin"
        note "removed $autologin"
    fi
    # Boot to the console: a desktop would hold the screen.
    install -d -m 0755 "$ROOT/etc/systemd/system"
    ln -sfn /lib/systemd/system/multi-user.target "$ROOT/etc/systemd/system/default.target"
    # The kernel console blanks after 10 minutes by default; Bookworm keeps the kernel's
    # command line in /boot/firmware/cmdline.txt (one line).
    local cmdline
    for cmdline in /boot/firmware/cmdline.txt /boot/cmdline.txt; do
        [ -f "$ROOT$cmdline" ] || continue
        if grep -q 'consoleblank=' "$ROOT$cmdline"; then
            sed -i -E 's/consoleblank=[0-9]+/consoleblank=0/' "$ROOT$cmdline"
        else
            sed -i -E '1s/[[:space:]]*$/ consoleblank=0/' "$ROOT$cmdline"
        fi
        note "$cmdline: consoleblank=0 (after the next reboot)"
        return
    done
    note "no /boot/firmware/cmdline.txt here: screen blanking left as it is"
}

step_service() {
    say "service: skattisch.service"
    put_file 0644 "$SRC/deploy/skattisch.service" /etc/systemd/system/skattisch.service
    # what "systemctl enable" does, done by hand so that it works in a staged tree too
    install -d -m 0755 "$ROOT/etc/systemd/system/multi-user.target.wants"
    ln -sfn /etc/systemd/system/skattisch.service \
        "$ROOT/etc/systemd/system/multi-user.target.wants/skattisch.service"
    if staged; then
        note "staged: enabled, not started"
        return
    fi
    local what="systemctl daemon-reload"
    if [ "$start" = yes ]; then what="$what, systemctl restart skattisch"; fi
    if ! running_here systemd "$what"; then
        note "enabled; it starts at the next boot"
        return
    fi
    systemctl daemon-reload
    if [ "$start" = yes ]; then
        systemctl restart skattisch.service
        note "started; watch it with: journalctl -u skattisch -f"
    else
        note "enabled; start it with: sudo systemctl start skattisch"
    fi
}

step_overlay() {
    say "overlay: read-only root file system"
    # With the overlay every write to / goes to memory and is gone after a reboot: the lists
    # must live on a partition of their own (docs/aufbau.md, section 8).
    if ! mountpoint -q "$STATE_DIR"; then
        die "$STATE_DIR is not a partition of its own: with the overlay the lists would be lost at
  every reboot. Give it one first (docs/aufbau.md, section 8), then run me again."
    fi
    command -v raspi-config >/dev/null || die "raspi-config is missing: the overlay needs Raspberry Pi OS"
    raspi-config nonint do_overlayfs 0
    note "the root file system is read-only after the next reboot; $STATE_DIR stays writable"
    note "to update later: sudo raspi-config nonint do_overlayfs 1, reboot, update, then --overlay again"
}

uninstall() {
    say "uninstall: program, service and rules (config, lists, deck and user stay)"
    local systemd=no
    if running_here systemd "systemctl disable --now skattisch, systemctl daemon-reload"; then
        systemd=yes
        systemctl disable --now skattisch.service 2>/dev/null || true
    fi
    rm -f "$ROOT/etc/systemd/system/multi-user.target.wants/skattisch.service" \
        "$ROOT/etc/systemd/system/skattisch.service" \
        "$ROOT/etc/udev/rules.d/99-skattisch-reader.rules" \
        "$ROOT/etc/udev/rules.d/60-skattisch-gpio.rules" \
        "$ROOT/etc/polkit-1/rules.d/50-skattisch-power.rules"
    rm -rf "$ROOT$PREFIX"
    if [ "$systemd" = yes ]; then systemctl daemon-reload; fi
    if running_here udevd "udevadm control --reload-rules"; then udevadm control --reload-rules; fi
    note "kept $CONF_DIR (config, PIN), $STATE_DIR (lists, deck) and the user $SERVICE_USER"
    note "to remove them too: sudo rm -r $CONF_DIR $STATE_DIR && sudo userdel $SERVICE_USER"
}

if [ "$action" = uninstall ]; then
    uninstall
    exit 0
fi
step_packages
step_user
step_venv
step_data
step_config
step_pin
step_udev
step_polkit
step_console
step_service
if [ "$overlay" = yes ]; then step_overlay; fi
say "done${ROOT:+ (staged in $ROOT)}"
