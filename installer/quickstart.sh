#!/usr/bin/env bash
# Fisura quick start on Debian 12 (root or sudo). Idempotent: run it again at any time.
#
#   installer/quickstart.sh demo   install what is missing, build the application (not the
#                                  tests; fisura-cli only with two or more GPUs) and start Fisura
#                                  on the demo project (generated on first use into
#                                  Documents/Fisura/demo-project, a visible folder)
#   installer/quickstart.sh test   install what is missing, build and run the whole test suite
#                                  (but the `cluster` label: ctest -L cluster runs it)
#   installer/quickstart.sh package  install what is missing, build and write the Debian
#                                  packages fisura-cli_*.deb and fisura_*.deb into the build folder
#
# Environment: FISURA_BUILD_DIR (default <repo>/build), FISURA_JOBS (default: number of cores).
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

# What each mode builds: the demo only what it runs (the tests are `test`'s job): the application,
# and fisura-cli where the application starts it (training on two or more GPUs).
gpus=$( (nvidia-smi -L 2>/dev/null || true) | grep -c '^GPU' || true)
case "$mode" in
demo)
    steps=4
    if [ "${gpus:-0}" -ge 2 ]; then
        targets=(--target fisura fisura-cli); what="the application and fisura-cli (it trains on the other GPUs)"
    else
        targets=(--target fisura); what="the application"
    fi ;;
*) targets=(); steps=3; what="everything, tests included" ;;
esac
step() { echo "quickstart: [$1/$steps] $2 ($(( $(date +%s) - start )) s so far)"; }

step 1 "installing what is missing (Debian packages, QCustomPlot source)"
"$root/installer/setup-debian.sh"

step 2 "configuring in $build"
# A one-shot build: core's LibTorch sources in batches (FISURA_UNITY_BUILD: what they share is
# compiled once per batch); a development build configured by hand leaves it off.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFISURA_UNITY_BUILD=ON >/dev/null
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

# The demo project (datasets, the demo scan queued in Analyze) is made by Fisura itself on first
# use, with its progress in the status bar; the data are generated, never downloaded.
step 4 "starting Fisura on the demo project"
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    echo "quickstart: no display found. Fisura is built." >&2
    echo "quickstart: on a desktop session run: $build/app/gui/fisura --demo-project" >&2
    exit 1
fi
exec "$build/app/gui/fisura" --demo-project
