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
# (rp1_pci, pinctrl-rp1, clk-rp1), and HDMI (vc4 knowing brcm,bcm2712-hdmi0). Then whether
# those packages install on the Pi 4 image's root, Debian bookworm (Pi OS Bookworm): a linux-base
# that keeps kernel hooks in /usr/share/kernel runs them with run-parts on two folders, which
# needs debianutils 5.21 or later (linux-run-hooks says so; its package does not depend on it),
# and bookworm's is older: the kernel's postinst then fails ("run-parts: missing operand").
# Then whether the newer debianutils of the kernel's own release (trixie's for trixie-backports)
# would install on the root by itself: it pre-depends on a libc6 newer than bookworm's, and that
# libc6 breaks bookworm's base-files, so taking it means the C library and base-files too.
# That is why the Pi 5's image (deploy/build-image.sh --board pi5) is Debian 13 (trixie) with
# trixie-backports' kernel instead: the kernel installs there as it is (ROOT_SUITE=trixie shows it).
# One line per suite; docs/reference/image.md has the table this printed. About 100 MB per suite.
set -euo pipefail

MIRROR=${MIRROR:-http://deb.debian.org/debian}
ROOT_SUITE=${ROOT_SUITE:-bookworm}  # the Pi 4 image's root (deploy/test-arm64.sh's default SUITE)
RUN_PARTS_DIRS=5.21        # the debianutils whose run-parts takes more than one folder

case "${1:-}" in
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'; exit 0 ;;
esac
[ $# -gt 0 ] || set -- bookworm bookworm-backports trixie trixie-backports
SUITES=("$@")
# the root's suite (its debianutils, libc6, base-files) and each backport's own release (its debianutils)
for suite in "$ROOT_SUITE" "${@%-backports}"; do
    case " ${SUITES[*]} " in *" $suite "*) ;; *) SUITES+=("$suite") ;; esac
done

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

# Do the kernel's packages (unpacked in FILES) install on ROOT_SUITE? "yes", or "no: why".
installs_on_root() {  # installs_on_root SUITE FILES
    local files=$2 from base="" utils
    # the linux-base the kernel gets: its suite's, else the root's own
    for from in "$1" "$ROOT_SUITE"; do
        base=$(apt-cache show "linux-base/$from" 2>/dev/null | sed -n 's/^Version: //p' | head -1)
        if [ -n "$base" ]; then break; fi
    done
    utils=$(apt-cache show "debianutils/$ROOT_SUITE" 2>/dev/null | sed -n 's/^Version: //p' | head -1)
    if [ -z "$base" ] || [ -z "$utils" ]; then echo "unknown (no linux-base or no debianutils in $ROOT_SUITE)"; return; fi
    (cd "$files" && apt-get download -qq "linux-base/$from" && dpkg-deb -x linux-base_*.deb .) >/dev/null 2>&1 \
        || { echo "unknown (apt-get download linux-base/$from failed)"; return; }
    if [ -d "$files/usr/share/kernel" ] && grep -q '/usr/share/kernel' "$files/usr/bin/linux-run-hooks" 2>/dev/null \
        && dpkg --compare-versions "$utils" lt "$RUN_PARTS_DIRS"; then
        echo "no: linux-base $base runs the kernel's hooks with run-parts on /etc/kernel/*.d and /usr/share/kernel/*.d, which needs debianutils >= $RUN_PARTS_DIRS; $ROOT_SUITE has $utils (the kernel's postinst fails: run-parts: missing operand)$(newer_debianutils "$1")"
    else
        echo "yes (linux-base $base, debianutils $utils)"
    fi
}

version_of() { apt-cache show "$1" 2>/dev/null | sed -n 's/^Version: //p' | head -1; }

# the least version of PACKAGE that FIELD of PACKAGE-SPEC names with ">=" or "<<", or nothing
named_version() {  # named_version PACKAGE-SPEC FIELD PACKAGE
    apt-cache show "$1" 2>/dev/null | sed -n "s/^$2: //p" | head -1 | tr ',' '\n' \
        | sed -n "s/^ *$3 ([>=<]* \([^)]*\)).*/\1/p" | head -1
}

# Would the debianutils of the kernel's own release install on ROOT_SUITE? Nothing if there is
# none new enough or it would; else "; taking ... does not help: why".
newer_debianutils() {  # newer_debianutils SUITE
    local release=${1%-backports} utils needs libc newer_libc base_needs base
    utils=$(version_of "debianutils/$release")
    if [ -z "$utils" ] || dpkg --compare-versions "$utils" lt "$RUN_PARTS_DIRS"; then return 0; fi
    needs=$(named_version "debianutils=$utils" Pre-Depends libc6)
    libc=$(version_of "libc6/$ROOT_SUITE")
    if [ -z "$needs" ] || [ -z "$libc" ] || dpkg --compare-versions "$libc" ge "$needs"; then return 0; fi
    newer_libc=$(version_of "libc6/$release")
    base_needs=$(named_version "libc6=$newer_libc" Breaks base-files)
    base=$(version_of "base-files/$ROOT_SUITE")
    printf "; taking debianutils %s from %s does not help by itself: it pre-depends on libc6 >= %s, %s has %s" \
        "$utils" "$release" "$needs" "$ROOT_SUITE" "$libc"
    if [ -n "$base_needs" ] && [ -n "$base" ] && dpkg --compare-versions "$base" lt "$base_needs"; then
        printf ", and %s's libc6 %s breaks base-files << %s (%s has %s): the C library and base-files would come from %s too" \
            "$release" "$newer_libc" "$base_needs" "$ROOT_SUITE" "$base" "$release"
    fi
}

yes_no() { if "$@" >/dev/null 2>&1; then echo yes; else echo no; fi; }

check_suite() {  # check_suite SUITE
    local suite=$1 dir=$W/$1 packages version dtb sdhci rp1 hdmi vc4 installs
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
    installs=$(installs_on_root "$suite" "$dir/files")
    printf '%s: linux-image-arm64 %s: bcm2712-rpi-5-b.dtb %s, SD card driver (sdhci-brcmstb) %s, RP1 (rp1_pci, pinctrl-rp1) %s, HDMI (vc4 for bcm2712) %s: %s; installs on %s: %s\n' \
        "$suite" "$version" "$( [ -n "$dtb" ] && echo "yes ($(stat -c %s "$dtb") bytes)" || echo no)" "$sdhci" "$rp1" "$hdmi" \
        "$( [ -n "$dtb" ] && [ "$sdhci" = yes ] && [ "$rp1" = yes ] && [ "$hdmi" = yes ] && echo 'has what a Pi 5 needs' || echo 'not enough for a Pi 5')" \
        "$ROOT_SUITE" "$installs"
    rm -rf "$dir"
}

own_apt "${SUITES[@]}"
for suite in "$@"; do check_suite "$suite"; done
