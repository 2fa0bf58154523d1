#!/bin/sh
# `fisura --help` and `fisura --version` behave like any command-line program: without a display
# (no DISPLAY, no WAYLAND_DISPLAY, no QT_QPA_PLATFORM: ssh, scripts, CI) they print and exit 0.
# usage: check_gui_nodisplay.sh FISURA VERSION
set -u
gui="$1"; version="$2"
run() { env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$gui" "$@" 2>&1; }
out="$(run --version)"; rc=$?
[ $rc -eq 0 ] || { echo "fisura --version exited $rc: $out"; exit 1; }
case "$out" in
"fisura $version (LibTorch "*) ;;
*) echo "unexpected --version output: $out"; exit 1 ;;
esac
out="$(run --help)"; rc=$?
[ $rc -eq 0 ] || { echo "fisura --help exited $rc: $out"; exit 1; }
for want in "Usage:" "--project" "--report-pdf" "--version"; do
    case "$out" in
    *"$want"*) ;;
    *) echo "fisura --help does not mention $want: $out"; exit 1 ;;
    esac
done
echo "ok: --help and --version print and exit 0 without a display"
