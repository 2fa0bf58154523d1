#!/usr/bin/env bash
# Debian 12's Qt 6 Core and Qt Test (libraries, headers, CMake packages, moc) in a folder, for a
# host that has no Qt and no network (the GPU host: Ubuntu 24.04 with a CUDA LibTorch), so that a
# build there with -DFISURA_BUILD_GUI=OFF also builds and runs the core test suites
# (find_package(Qt6 COMPONENTS Core Test)). Nothing of Qt Gui or Widgets travels.
#
#   bash tests/gpu/prepare-qt-core.sh [DEST]   # on the Debian machine, in the project root;
#                                              # DEST defaults to ./.device-deps/qt
# and on the GPU host, after the libraries of ../shared/device/prepare-deps.sh:
#   source .device-deps/env.sh && source .device-deps/qt/env.sh
#   cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DFISURA_BUILD_GUI=OFF
#
# The files keep Debian's layout under DEST/usr, where Qt's CMake packages find each other
# (relative to themselves). GLib (which Qt Core links) goes to DEST/fallback and is used only
# where the host has none.
set -euo pipefail
dest="$(realpath -m "${1:-$PWD/.device-deps/qt}")"
arch=x86_64-linux-gnu
pkgs=(libqt6core6 libqt6test6 qt6-base-dev qt6-base-dev-tools qmake6 libicu72 libdouble-conversion3
      libb2-1 libpcre2-16-0 libglib2.0-0)
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
( cd "$tmp" && apt-get download "${pkgs[@]}" >/dev/null 2>&1 ) ||
    { apt-get update -qq && ( cd "$tmp" && apt-get download "${pkgs[@]}" >/dev/null ); }
for d in "$tmp"/*.deb; do dpkg -x "$d" "$tmp/root"; done

rm -rf "$dest" && mkdir -p "$dest/usr/lib/$arch/cmake" "$dest/usr/lib/$arch/qt6" \
    "$dest/usr/include/$arch/qt6" "$dest/usr/lib/qt6/libexec" "$dest/fallback"
src="$tmp/root/usr"
# Libraries: Qt Core and Test and what they link that Ubuntu 24.04 lacks (ICU 72, ...).
for l in libQt6Core.so libQt6Test.so libicui18n.so libicuuc.so libicudata.so \
         libdouble-conversion.so libb2.so libpcre2-16.so; do
    cp -a "$src/lib/$arch/$l".* "$dest/usr/lib/$arch/"
done
# The unversioned names the CMake packages link (qt6-base-dev carries them for Qt itself).
ln -sf libQt6Core.so.6 "$dest/usr/lib/$arch/libQt6Core.so"
ln -sf libQt6Test.so.6 "$dest/usr/lib/$arch/libQt6Test.so"
cp -a "$src/lib/$arch"/libglib-2.0.so.* "$dest/fallback/"
# CMake packages of Core, Test and what they load, headers, mkspecs (linux-g++ is in Core's include
# path; qmake6 carries it), the code generators Core's package declares (moc, rcc, ...).
for c in Qt6 Qt6Core Qt6CoreTools Qt6Test Qt6HostInfo Qt6BuildInternals; do
    cp -a "$src/lib/$arch/cmake/$c" "$dest/usr/lib/$arch/cmake/"
done
cp -a "$src/lib/$arch/qt6/mkspecs" "$dest/usr/lib/$arch/qt6/"
for h in QtCore QtTest; do cp -a "$src/include/$arch/qt6/$h" "$dest/usr/include/$arch/qt6/"; done
for t in moc rcc tracegen cmake_automoc_parser qlalr; do
    cp -a "$src/lib/qt6/libexec/$t" "$dest/usr/lib/qt6/libexec/"
done
cp -a "$src/share/doc/libqt6core6/copyright" "$dest/COPYRIGHT.qt6"
# CoreTools also declares qmake, qtpaths and the Android tools, which a CMake build of Fisura never
# runs and which do not travel: drop the check that every declared file exists.
sed -i 's/foreach(_cmake_target IN LISTS _cmake_import_check_targets)/foreach(_cmake_target IN LISTS _no_import_check_targets)/' \
    "$dest/usr/lib/$arch/cmake/Qt6CoreTools/Qt6CoreToolsTargets.cmake"

cat > "$dest/env.sh" <<'ENV'
# source me on the GPU host (after .device-deps/env.sh): Debian's Qt 6 Core + Test
_q="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export CMAKE_PREFIX_PATH="$_q/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
export LD_LIBRARY_PATH="$_q/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# GLib from Debian only where the host has none (a newer one must win where it exists).
if ! ldconfig -p 2>/dev/null | grep -q 'libglib-2\.0\.so\.0 '; then
    export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$_q/fallback"
fi
unset _q
ENV
du -sh "$dest"
