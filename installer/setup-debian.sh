#!/usr/bin/env bash
# Install what Fisura needs on Debian 12 (idempotent; root or sudo) and fetch QCustomPlot's
# source package, which Fisura compiles for Qt 6 (Debian ships only a Qt 5 build).
#
#   installer/setup-debian.sh [--no-gui]
#
# Environment: FISURA_DEPS_DIR (default ~/.cache/fisura) holds the fetched QCustomPlot source.
set -euo pipefail

gui=1
[ "${1:-}" = "--no-gui" ] && gui=0

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "setup: run as root or install sudo" >&2; exit 1; }
    SUDO="sudo"
fi

pkgs=(build-essential cmake ninja-build ccache git pkg-config python3
      libtorch-dev libgloo-dev libopencv-dev libtiff-dev libtiff-tools libzstd-dev zlib1g-dev libdeflate-dev nlohmann-json3-dev libcli11-dev libtbb-dev
      libgdal-dev gdal-bin python3-ezdxf) # GDAL/OGR: vector and GeoTIFF export; gdal-bin, ezdxf: its tests
if [ "$gui" = 1 ]; then
    pkgs+=(qt6-base-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-translations-l10n libgl-dev dpkg-dev
           help2man debootstrap appstream desktop-file-utils)
fi

missing=()
for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

[ "$gui" = 1 ] || exit 0

# QCustomPlot 2.1 from Debian's source package. A deb-src entry is derived from the system's
# own deb entries (same mirror, suites and components).
deps="${FISURA_DEPS_DIR:-$HOME/.cache/fisura}"
qcp="$deps/qcustomplot"
if [ ! -f "$qcp/qcustomplot.cpp" ]; then
    src_list=/etc/apt/sources.list.d/fisura-deb-src.sources
    if ! grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/; then
        if [ -f /etc/apt/sources.list.d/debian.sources ]; then
            sed -E 's/^Types:.*/Types: deb-src/' /etc/apt/sources.list.d/debian.sources |
                $SUDO tee "$src_list" >/dev/null
        else
            grep -E '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' |
                $SUDO tee /etc/apt/sources.list.d/fisura-deb-src.list >/dev/null
        fi
        $SUDO apt-get update -qq
    fi
    tmp="$(mktemp -d)"
    ( cd "$tmp" && apt-get source -q --download-only qcustomplot >/dev/null &&
      dpkg-source -q --no-check -x ./*.dsc src >/dev/null )
    mkdir -p "$deps"
    rm -rf "$qcp" && mkdir -p "$qcp"
    cpp="$(find "$tmp/src" -name qcustomplot.cpp | head -n 1)"
    [ -n "$cpp" ] || { echo "setup: qcustomplot.cpp not found in the source package" >&2; exit 1; }
    cp "$cpp" "$(dirname "$cpp")/qcustomplot.h" "$qcp/"
    cp "$(find "$tmp/src" -maxdepth 2 -iname 'GPL*' -o -maxdepth 2 -iname 'copyright' | head -n 1)" "$qcp/" 2>/dev/null || true
    rm -rf "$tmp"
    echo "setup: QCustomPlot source in $qcp"
fi
