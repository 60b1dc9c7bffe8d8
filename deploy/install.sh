#!/usr/bin/env bash
# Install Skattisch on a Raspberry Pi (Raspberry Pi OS Bookworm, best the Lite edition without
# a desktop: the table draws straight to the screen through KMS/DRM).
#
#   sudo deploy/install.sh            install or update, then (re)start the table
#   sudo deploy/install.sh --no-start install or update, enable the service, do not start it
#
# Run it from the project's checkout (git clone or unpacked archive). It is safe to run again
# after an update: it keeps /etc/skattisch/skattisch.toml and the recorded lists.
#
# What it does:
#   1. apt packages the touch UI (Kivy, SDL2 on KMS/DRM), the GPIO library and pip need
#   2. a system user "skattisch" in the groups dialout (serial reader), gpio (panel),
#      video and render (screen), input (touch)
#   3. a virtual environment under /opt/skattisch with Skattisch and its extras [ui,pi]
#   4. /etc/skattisch/skattisch.toml from deploy/skattisch.example.toml (only if missing)
#   5. the udev rule for the card reader (/dev/skattisch-reader)
#   6. the systemd service skattisch.service, enabled at boot
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
)
# From the Raspberry Pi OS archive (not in plain Debian): installed if available.
APT_OPTIONAL=(liblgpio-dev)

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'
}

start=yes
for arg in "$@"; do
    case "$arg" in
        --no-start) start=no ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $arg (try --help)" >&2; exit 2 ;;
    esac
done

say() { printf '\n==> %s\n' "$*"; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "run me as root: sudo $0 $*"
SRC=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -f "$SRC/pyproject.toml" ] || [ ! -f "$SRC/deploy/skattisch.service" ]; then
    die "run me from the Skattisch checkout (deploy/install.sh); $SRC is not one"
fi

if [ -r /etc/os-release ]; then
    # shellcheck disable=SC1091
    . /etc/os-release
    [ "${VERSION_CODENAME:-}" = bookworm ] \
        || echo "install.sh: warning: made for Raspberry Pi OS Bookworm, this is ${PRETTY_NAME:-unknown}" >&2
fi

say "Installing system packages"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${APT_PACKAGES[@]}"
for pkg in "${APT_OPTIONAL[@]}"; do
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$pkg" \
        || echo "install.sh: warning: $pkg not available; pip must find a ready-built wheel" >&2
done

say "Creating the user $SERVICE_USER"
if ! id -u "$SERVICE_USER" >/dev/null 2>&1; then
    useradd --system --user-group --home-dir "$STATE_DIR" --create-home \
        --shell /usr/sbin/nologin --comment "Skattisch table" "$SERVICE_USER"
fi
for group in "${GROUPS_WANTED[@]}"; do
    if getent group "$group" >/dev/null; then
        usermod -a -G "$group" "$SERVICE_USER"
    else
        echo "install.sh: warning: no group $group here; skipped" >&2
    fi
done
install -d -m 0750 -o "$SERVICE_USER" -g "$SERVICE_USER" "$STATE_DIR" "$STATE_DIR/lists"

say "Installing Skattisch into $VENV"
install -d -m 0755 "$PREFIX"
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/pip" install --quiet --upgrade pip
# From a copy, so that the build leaves nothing behind in the checkout and root-owned files
# never land in it.
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
tar -C "$SRC" --exclude=./.git --exclude=./.venv --exclude='*.egg-info' --exclude=./build -cf - . \
    | tar -C "$build" -xf -
(cd "$build" && "$VENV/bin/pip" install --quiet --upgrade ".[ui,pi]")

say "Configuration in $CONF_DIR"
install -d -m 0750 -o root -g "$SERVICE_USER" "$CONF_DIR"
if [ ! -e "$CONF_DIR/skattisch.toml" ]; then
    # readable by the service, not by everyone: it holds the club token and PIN
    install -m 0640 -o root -g "$SERVICE_USER" "$SRC/deploy/skattisch.example.toml" "$CONF_DIR/skattisch.toml"
    echo "created $CONF_DIR/skattisch.toml: set the table number (and the laptop's address) there"
else
    echo "kept $CONF_DIR/skattisch.toml; the current example is $SRC/deploy/skattisch.example.toml"
fi
"$VENV/bin/skattisch" config "$CONF_DIR/skattisch.toml" >/dev/null \
    || die "$CONF_DIR/skattisch.toml has a mistake (above); fix it and run me again"

# Kivy: touches from the official display through mtdev and hidinput (Kivy's RPi guide).
kivy_home=$STATE_DIR/.kivy
if [ ! -e "$kivy_home/config.ini" ]; then
    install -d -m 0750 -o "$SERVICE_USER" -g "$SERVICE_USER" "$kivy_home"
    cat >"$kivy_home/config.ini" <<'EOF'
[input]
mouse = mouse
mtdev_%(name)s = probesysfs,provider=mtdev
hid_%(name)s = probesysfs,provider=hidinput
EOF
    chown "$SERVICE_USER:$SERVICE_USER" "$kivy_home/config.ini"
fi

say "Card reader: udev rule for /dev/skattisch-reader"
install -m 0644 "$SRC/deploy/99-skattisch-reader.rules" /etc/udev/rules.d/99-skattisch-reader.rules
udevadm control --reload-rules
udevadm trigger --subsystem-match=tty --action=add || true

say "Service skattisch.service"
install -m 0644 "$SRC/deploy/skattisch.service" /etc/systemd/system/skattisch.service
systemctl daemon-reload
systemctl enable skattisch.service
if [ "$(systemctl get-default)" = graphical.target ]; then
    echo "install.sh: warning: this Pi boots into a desktop, which holds the screen; the table" >&2
    echo "  needs the console: sudo raspi-config nonint do_boot_behaviour B1 (then reboot)" >&2
fi
if [ "$start" = yes ]; then
    systemctl restart skattisch.service
    echo "started; watch it with: journalctl -u skattisch -f"
else
    echo "enabled; start it with: sudo systemctl start skattisch"
fi
