#!/bin/sh
# `fisura-cli pyramid` against libvips' `vips tiffsave --tile --pyramid` on the same generated
# 16k x 16k JPEG-tiled (YCbCr, quality 90, 256 px tiles) scan, same output settings for both:
# 256 px tiles, ZSTD level 9, horizontal predictor, BigTIFF. Wall time and peak RSS from
# /usr/bin/time -v; runs alternate between the two tools.
# usage: bench_pyramid.sh <fisura-cli> <work dir> [runs per tool, default 3]
set -eu
CLI="$1"
WORK="$2"
RUNS="${3:-3}"
SIZE="${BENCH_SIZE:-16384}"
mkdir -p "$WORK"
IN="$WORK/scan${SIZE}_jpeg.tif"
if [ ! -f "$IN" ]; then
    # The synthetic crack scene (concrete texture, cracks), then JPEG-tiled by libtiff's tiffcp.
    "$CLI" demo-data "$WORK/gen" --segmentation 0 --classification 0 --scan "$SIZE" --json >/dev/null
    tiffcp -m 0 -c jpeg:90 -t -w 256 -l 256 "$WORK/gen/scan/demo_scan.tif" "$IN"
    rm -rf "$WORK/gen"
fi
measure() { # name, command...
    name="$1"
    shift
    /usr/bin/time -v "$@" >/dev/null 2>"$WORK/time.txt"
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$WORK/time.txt" |
        awk -F: '{ if (NF == 3) print $1 * 3600 + $2 * 60 + $3; else print $1 * 60 + $2 }')
    user=$(sed -n 's/.*User time (seconds): //p' "$WORK/time.txt")
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$WORK/time.txt")
    echo "$name $wall $user $((rss / 1024)) $(uptime | sed 's/.*load average: //; s/,.*//')"
}
echo "# tool wall_s user_s peak_rss_MiB load1"
i=0
while [ "$i" -lt "$RUNS" ]; do
    rm -f "$WORK/fisura.tif" "$WORK/vips.tif"
    measure fisura "$CLI" pyramid --quiet --tile 256 --compression zstd --level 9 "$IN" "$WORK/fisura.tif"
    measure vips vips tiffsave "$IN" "$WORK/vips.tif" --tile --tile-width 256 --tile-height 256 \
        --pyramid --compression zstd --level 9 --predictor horizontal --bigtiff
    i=$((i + 1))
done
echo "# output bytes: fisura $(stat -c %s "$WORK/fisura.tif"), vips $(stat -c %s "$WORK/vips.tif")"
echo "# levels: fisura $(tiffinfo "$WORK/fisura.tif" 2>/dev/null | grep -c 'Image Width'), vips $(tiffinfo "$WORK/vips.tif" 2>/dev/null | grep -c 'Image Width')"
# Baselines: the front door alone (no LibTorch: pyramid runs in fisura-cli itself) and
# fisura-cli-net, which loads LibTorch (--version runs there).
measure fisura-startup "$CLI" pyramid --help
measure fisura-net-startup "$CLI" --version
