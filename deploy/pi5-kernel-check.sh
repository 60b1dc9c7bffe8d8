#!/usr/bin/env bash
# Does a Debian kernel run a Raspberry Pi 5? Asks Debian's packages themselves.
#
#   deploy/pi5-kernel-check.sh [SUITE...]   default: bookworm bookworm-backports trixie trixie-backports
#   deploy/pi5-kernel-check.sh --help       this text
#
# For each suite: downloads linux-image-arm64 of that suite and the kernel packages it depends
# on (apt-get download, arm64, from MIRROR, default http://deb.debian.org/debian, with an apt
# of its own in a temporary folder: this machine's apt is not touched, no root needed), unpacks
# them and looks for what a Pi 5 needs from its kernel: the device tree bcm2712-rpi-5-b.dtb,
# the SD card's driver (sdhci-brcmstb), the RP1 chip behind USB, Ethernet and the GPIO header
# (rp1_pci, pinctrl-rp1, clk-rp1), and HDMI (vc4 knowing brcm,bcm2712-hdmi0). One line per
# suite; deploy/README.md (3a) has the table this printed. About 100 MB per suite.
set -euo pipefail

MIRROR=${MIRROR:-http://deb.debian.org/debian}

case "${1:-}" in
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'; exit 0 ;;
esac
[ $# -gt 0 ] || set -- bookworm bookworm-backports trixie trixie-backports

W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

own_apt() {  # an apt for arm64 with the given suites, in $W
    mkdir -p "$W/etc/apt/apt.conf.d" "$W/etc/apt/preferences.d" "$W/etc/apt/sources.list.d" \
        "$W/var/lib/apt/lists/partial" "$W/var/cache/apt/archives/partial" "$W/var/lib/dpkg"
    : >"$W/var/lib/dpkg/status"
    printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\nArchitectures: arm64\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        "$MIRROR" "$*" >"$W/etc/apt/sources.list.d/debian.sources"
    printf 'Dir "%s/";\nDir::State::status "%s/var/lib/dpkg/status";\nAPT::Architecture "arm64";\nAPT::Architectures { "arm64"; };\nAPT::Sandbox::User "root";\n' \
        "$W" "$W" >"$W/apt.conf"
    export APT_CONFIG=$W/apt.conf
    apt-get update -qq 2>&1 | grep -v '^W: ' >&2 || true
}

# the kernel's packages: NAME=VERSION of linux-image-arm64 in SUITE and the linux-* ones it needs
kernel_packages() {  # kernel_packages SUITE
    local version queue=() seen=() pkg dep
    version=$(apt-cache show "linux-image-arm64/$1" 2>/dev/null | sed -n 's/^Version: //p' | head -1)
    [ -n "$version" ] || return 1
    queue=("linux-image-arm64=$version")
    while [ ${#queue[@]} -gt 0 ]; do
        pkg=${queue[0]}
        queue=("${queue[@]:1}")
        seen+=("$pkg")
        for dep in $(apt-cache show "$pkg" | sed -n 's/^\(Pre-\)\{0,1\}Depends: //p' | tr ',' '\n' \
                     | sed -n 's/^ *\(linux-[^ |]*\) (= \([^)]*\)).*/\1=\2/p'); do
            case " ${seen[*]} ${queue[*]} " in *" $dep "*) ;; *) queue+=("$dep") ;; esac
        done
    done
    printf '%s\n' "${seen[@]}"
}

yes_no() { if "$@" >/dev/null 2>&1; then echo yes; else echo no; fi; }

check_suite() {  # check_suite SUITE
    local suite=$1 dir=$W/$1 packages version dtb sdhci rp1 hdmi vc4
    mapfile -t packages < <(kernel_packages "$suite") || true
    if [ ${#packages[@]} -eq 0 ]; then echo "$suite: no linux-image-arm64"; return; fi
    version=${packages[0]#*=}
    mkdir -p "$dir"
    (cd "$dir" && apt-get download -qq "${packages[@]}") || { echo "$suite: apt-get download ${packages[*]} failed" >&2; return 1; }
    for deb in "$dir"/*.deb; do dpkg-deb -x "$deb" "$dir/files"; done
    dtb=$(find "$dir/files" -name bcm2712-rpi-5-b.dtb | head -1)
    vc4=$(find "$dir/files" -name 'vc4.ko*' | head -1)
    sdhci=$(yes_no test -n "$(find "$dir/files" -name 'sdhci-brcmstb.ko*')")
    rp1=$(yes_no test -n "$(find "$dir/files" -name 'rp1_pci.ko*')" -a -n "$(find "$dir/files" -name 'pinctrl-rp1.ko*')")
    hdmi=no
    if [ -n "$vc4" ]; then
        case $vc4 in
            *.xz) xz -dc "$vc4" ;;
            *.zst) zstd -dc "$vc4" ;;
            *) cat "$vc4" ;;
        esac >"$dir/vc4.ko"
        hdmi=$(yes_no grep -q 'brcm,bcm2712-hdmi0' "$dir/vc4.ko")
    fi
    printf '%s: linux-image-arm64 %s: bcm2712-rpi-5-b.dtb %s, SD card driver (sdhci-brcmstb) %s, RP1 (rp1_pci, pinctrl-rp1) %s, HDMI (vc4 for bcm2712) %s: %s\n' \
        "$suite" "$version" "$( [ -n "$dtb" ] && echo "yes ($(stat -c %s "$dtb") bytes)" || echo no)" "$sdhci" "$rp1" "$hdmi" \
        "$( [ -n "$dtb" ] && [ "$sdhci" = yes ] && [ "$rp1" = yes ] && [ "$hdmi" = yes ] && echo 'has what a Pi 5 needs' || echo 'not enough for a Pi 5')"
    rm -rf "$dir"
}

own_apt "$@"
for suite in "$@"; do check_suite "$suite"; done
