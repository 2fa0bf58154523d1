#!/usr/bin/env bash
# The Debian packages as a user gets them: build them with CPack from this build tree, make a
# clean Debian 12 root (debootstrap, minbase), install the .debs there with apt (dependencies
# from the Debian archive, nothing from this machine) and run Fisura inside it: versions, machine
# facts, the GUI offscreen, and demo data -> a short training -> tiled inference -> a map.
#
#   check_package.sh BUILD_DIR WORK_DIR
#
# Needs root (debootstrap, chroot, mounts) and the Debian archive. When either is missing the
# check is skipped (exit 77), not passed: a broken package always fails.
set -euo pipefail
build="$1"
work="$2"
src="$(cd "$(dirname "$0")/../.." && pwd)"
skip() { echo "SKIPPED: $*"; exit 77; }

[ "$(id -u)" -eq 0 ] || skip "needs root for debootstrap and chroot"
command -v debootstrap >/dev/null || skip "debootstrap is not installed (installer/setup-debian.sh installs it)"

# The mirror this machine's apt uses (deb822 or one-line format), so local mirrors work too.
mirror="$(sed -n 's/^URIs:[[:space:]]*\([^[:space:]]*\).*/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null |
          grep -v security | head -n 1)"
[ -n "$mirror" ] || mirror="$(awk '$1 == "deb" && $0 !~ /security/ { print $2; exit }' /etc/apt/sources.list 2>/dev/null)"
mirror="${mirror:-http://deb.debian.org/debian}"

root="$work/root"
cleanup() {
    for m in "$root/proc" "$root/dev"; do mountpoint -q "$m" 2>/dev/null && umount -l "$m"; done
    rm -rf "$root"
}
trap cleanup EXIT
cleanup
mkdir -p "$work"

echo "== packages"
rm -f "$build"/fisura*.deb
( cd "$build" && cpack -G DEB ) >"$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; exit 1; }
debs=("$build"/fisura*.deb)
[ ${#debs[@]} -eq 2 ] || { echo "expected 2 packages, got: ${debs[*]}"; exit 1; }
for d in "${debs[@]}"; do
    echo "-- $(basename "$d")"
    dpkg-deb --field "$d" Package Version Depends Recommends
    # Nothing may point into the build tree.
    if dpkg-deb --fsys-tarfile "$d" | tar -xO 2>/dev/null | grep -aq "$build/"; then
        echo "$(basename "$d") contains paths into the build tree ($build)"; exit 1
    fi
done

echo "== clean Debian 12 root from $mirror"
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1 ||
    { tail -n 5 "$work/debootstrap.log"; skip "debootstrap could not build a root from $mirror"; }
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mkdir -p "$root/tmp/debs"
cp "${debs[@]}" "$root/tmp/debs/"

echo "== apt install"
chroot "$root" apt-get update -q >"$work/apt.log" 2>&1 || skip "the archive is not reachable"
inside_debs=()
for d in "${debs[@]}"; do inside_debs+=("/tmp/debs/$(basename "$d")"); done
chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    "${inside_debs[@]}" >>"$work/apt.log" 2>&1 || { tail -n 30 "$work/apt.log"; exit 1; }

run() { echo "\$ $*"; chroot "$root" env HOME=/root QT_QPA_PLATFORM=offscreen "$@"; }
echo "== inside"
run fisura-cli --version
run test -x /usr/libexec/fisura/fisura-cli-net # the network commands (app/cli/front.cpp)
run fisura-cli info --json >"$work/info.json"
grep -q '"cpu"' "$work/info.json" || { cat "$work/info.json"; echo "info --json has no cpu"; exit 1; }
run fisura --version | tee "$work/gui-version.txt"
grep -q '^fisura [0-9]' "$work/gui-version.txt"
run test -f /usr/share/applications/org.fisura.Fisura.desktop
run test -f /usr/share/icons/hicolor/16x16/apps/org.fisura.Fisura.png
run test -f /usr/share/metainfo/org.fisura.Fisura.metainfo.xml
run test -f /usr/share/man/man1/fisura-cli.1.gz
run fisura-cli demo-data /tmp/demo --segmentation 6 --classification 0 --patch 64 --scan 0 >/dev/null
run fisura-cli train --task segment --data /tmp/demo/segmentation --out /tmp/m.fisura --epochs 1 \
    --batch 4 --size 32 --depth 2 --width 4 --precision fp32 --cpu --quiet >/dev/null
scan="$(cd "$root/tmp/demo/segmentation/images" && ls | head -n 1)"
run fisura-cli infer --model /tmp/m.fisura --in "/tmp/demo/segmentation/images/$scan" \
    --out /tmp/map.tif --tile 32 --overlap 8 --cpu --json >/dev/null
[ -s "$root/tmp/map.tif" ] || { echo "no map written"; exit 1; }
# The starter model, when the source tree has one: in both packages, found by both programs.
if [ -f "$src/resources/models/starter-crack-unet.fisura" ]; then
    run test -f /usr/share/fisura-cli/models/starter-crack-unet.fisura
    run test -f /usr/share/fisura/models/starter-crack-unet.fisura
    run fisura-cli model-info | tee "$work/starter.txt"
    grep -q '^Licence:' "$work/starter.txt" || { echo "the starter model has no licence"; exit 1; }
    run fisura-cli infer --in "/tmp/demo/segmentation/images/$scan" --out /tmp/starter.tif --cpu \
        --json >/dev/null
    [ -s "$root/tmp/starter.tif" ] || { echo "no map from the starter model"; exit 1; }
fi
echo "PASSED: installed from the .debs into a clean Debian 12 and ran"
