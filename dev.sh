#!/usr/bin/env bash
# Skattisch developer entry point: sets up everything on a fresh machine, then runs.
#   ./dev.sh run [ARGS]   set up and start the table (on a laptop: simulated hardware)
#   ./dev.sh club [ARGS]  set up and start the club laptop's collector and pages (skattisch club)
#   ./dev.sh test [ARGS]  set up and run every check: pytest (unit, drivers, UI under Xvfb,
#                         end-to-end on SQLite and a PostgreSQL server of its own, benchmark smoke
#                         runs), mypy --strict on device/
#   ./dev.sh pi-test      deploy/install.sh as docs/aufbau.md says, on a Debian bookworm arm64
#                         root under qemu (deploy/test-arm64.sh; root, or sudo)
#   ./dev.sh image-test   build the SD-card image (deploy/build-image.sh, reusing pi-test's cached
#                         root) and boot it in qemu-system-aarch64 (deploy/test-image.sh; root, or sudo)
#   ./dev.sh image-test --board pi5   the same for the Pi 5's image (Debian 13, trixie-backports' kernel)
#   ./dev.sh image-test --screen      the image with a screen, touch, a card reader and the laptop:
#                         the table's window, taps by QMP, cards by the reader, an evening, three pulled
#                         plugs (deploy/qemu_table.py)
set -euo pipefail
cd "$(dirname "$0")"
VENV=${SKATTISCH_VENV:-.venv}

need_apt() {  # install Debian packages that are missing (root or sudo)
    local missing=()
    for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
}

setup() {
    if [ ! -x "$VENV/bin/python" ]; then python3 -m venv "$VENV"; fi
    local stamp
    stamp="$VENV/.installed-$(sha1sum pyproject.toml | cut -c1-12)-$1"
    if [ ! -f "$stamp" ]; then
        # one line to say why the first run waits; -qq: pip's errors only (no backend notices)
        echo "Skattisch: installing into $VENV ($1; the first time takes a few minutes) ..." >&2
        "$VENV/bin/pip" install -qq --upgrade pip
        "$VENV/bin/pip" install -qq -e ".[$1]"
        touch "$stamp"
    fi
}

# The start-up code cache (ui/codecache.py) is tested under each Python the images ship: 3.11
# (the Pi 4's Debian 12) and 3.13 (the Pi 5's Debian 13). Where a Python 3.13 is on this machine,
# a small venv of its own with Kivy serves the test; where none is, its 3.13 cases say so and skip.
python_3_13_for_codecache() {
    [ -n "${SKATTISCH_PYTHON_3_13:-}" ] && return 0
    local found="" candidate
    for candidate in "$(command -v python3.13 || true)" "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.13*/bin/python3.13; do
        if [ -x "$candidate" ] && "$candidate" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 13))' 2>/dev/null; then
            found=$candidate; break
        fi
    done
    [ -n "$found" ] || return 0
    local venv=.venv-python3.13
    if [ ! -f "$venv/.installed-kivy" ]; then
        "$found" -m venv "$venv" && "$venv/bin/pip" install -qq "kivy>=2.3,<2.4" && touch "$venv/.installed-kivy" \
            || echo "Skattisch: no Kivy for Python 3.13 ($found): the code cache's kv cases skip there" >&2
    fi
    if [ -x "$venv/bin/python" ]; then export SKATTISCH_PYTHON_3_13="$PWD/$venv/bin/python"; fi
}

cmd=${1:-run}; shift || true
case "$cmd" in
    run)
        setup ui
        exec "$VENV/bin/skattisch" run --simulate "$@"
        ;;
    club)
        setup "club,postgres"
        exec "$VENV/bin/skattisch" club "$@"
        ;;
    test)
        need_apt xvfb xauth fonts-dejavu-core fonts-dejavu-extra shellcheck chromium chromium-driver poppler-utils \
            xdotool nodejs postgresql libmtdev1 caddy
        setup "test,ui,club,postgres"
        python_3_13_for_codecache
        "$VENV/bin/mypy" --strict device
        exec "$VENV/bin/python" -m pytest "$@"
        ;;
    pi-test)
        if [ "$(id -u)" -ne 0 ]; then exec sudo deploy/test-arm64.sh "$@"; fi
        exec deploy/test-arm64.sh "$@"
        ;;
    image-test)
        sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
        screen=()  # --screen: the table's window, touch, reader and an evening (deploy/test-image.sh --screen)
        if [ "${1:-}" = --screen ]; then screen=(--screen); shift; fi
        board=pi4
        if [ "${1:-}" = --board ]; then board=${2:?--board needs pi4 or pi5}; shift 2; fi
        image=${1:-build/skattisch-$board.img}
        boards=(); [ "$board" = pi4 ] || boards=(--board "$board")  # the Pi 4's is the scripts' default
        $sudo deploy/build-image.sh "${boards[@]}" --out "$image"
        exec $sudo deploy/test-image.sh "${screen[@]}" "${boards[@]}" "$image"
        ;;
    *)
        echo "usage: ./dev.sh run|club|test|pi-test|image-test [ARGS]" >&2; exit 2 ;;
esac
