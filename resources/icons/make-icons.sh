#!/usr/bin/env bash
# Renders the application icon's PNG sizes from fisura.svg (run after editing the SVG; needs
# rsvg-convert from librsvg2-bin). The PNGs are committed so building needs no SVG renderer.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
for s in 16 22 24 32 48 64 128 256; do
    rsvg-convert -w "$s" -h "$s" fisura.svg -o "fisura-$s.png"
done
