#!/usr/bin/env bash
# Fisura quick start on Debian 12 (root or sudo). Idempotent: run it again at any time.
#
#   installer/quickstart.sh demo   install what is missing, build the application (not the
#                                  tests), generate the demo data and start Fisura on it
#   installer/quickstart.sh test   install what is missing, build and run the whole test suite
#                                  (but the `cluster` label: ctest -L cluster runs it)
#   installer/quickstart.sh package  install what is missing, build and write the Debian
#                                  packages fisura-cli_*.deb and fisura_*.deb into the build folder
#
# Environment: FISURA_BUILD_DIR (default <repo>/build), FISURA_DEMO_DIR (default
# <build>/demo-data), FISURA_JOBS (default: number of cores).
set -euo pipefail

mode="${1:-}"
case "$mode" in
demo | test | package) ;;
*) echo "usage: $0 demo|test|package" >&2; exit 2 ;;
esac

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FISURA_BUILD_DIR:-$root/build}"
jobs="${FISURA_JOBS:-$(nproc)}"
start=$(date +%s)

# What each mode builds: the demo only the two programs it runs (the tests are `test`'s job).
case "$mode" in
demo) targets=(--target fisura fisura-cli); steps=4; what="the application and fisura-cli" ;;
*) targets=(); steps=3; what="everything, tests included" ;;
esac
step() { echo "quickstart: [$1/$steps] $2 ($(( $(date +%s) - start )) s so far)"; }

step 1 "installing what is missing (Debian packages, QCustomPlot source)"
"$root/installer/setup-debian.sh"

step 2 "configuring in $build"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
step 3 "building $what with $jobs jobs"
cmake --build "$build" -j "$jobs" "${targets[@]}"
echo "quickstart: built in $(( $(date +%s) - start )) s (set-up included)"

if [ "$mode" = package ]; then
    ( cd "$build" && cpack -G DEB )
    ls -1 "$build"/fisura*.deb
    echo "quickstart: install with: sudo apt install $build/fisura-cli_*.deb $build/fisura_*.deb"
    exit 0
fi

if [ "$mode" = test ]; then
    cd "$build"
    # GPU-only checks skip themselves on machines without CUDA. The cluster test (a real Slurm,
    # installed and started as root) runs only when asked for: ctest -L cluster.
    ctest --output-on-failure -j "$jobs" --timeout 900 -LE cluster
    echo "quickstart: tests finished $(( $(date +%s) - start )) s after start"
    exit 0
fi

demo="${FISURA_DEMO_DIR:-$build/demo-data}"
step 4 "generating the demo data in $demo"
"$build/app/cli/fisura-cli" demo-data "$demo"
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    echo "quickstart: no display found. Fisura is built; the demo data is in $demo." >&2
    echo "quickstart: on a desktop session run: $build/app/gui/fisura --demo $demo" >&2
    exit 1
fi
exec "$build/app/gui/fisura" --demo "$demo"
