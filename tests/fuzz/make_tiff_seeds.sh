#!/bin/sh
# Writes small, varied TIFFs for the TIFF fuzz target's seed corpus into $1 (created):
# strips and tiles, 1/2/4/8/16/32/64-bit, signed and float samples, gray/RGB/RGBA, planar
# separate, MinIsWhite, BigTIFF, page and SubIFD pyramids, the compressions libtiff decodes.
# Needs libvips' command line tool (vips) and libtiff's tools (tiffcp); images are noise so that
# every compressor has something to do, and tiny so the fuzzer runs fast.
# Usage: make_tiff_seeds.sh OUTDIR [SHARED_DATA]  (SHARED_DATA: add its TIFFs under 1 MB too;
# SEED_WIDTH / SEED_HEIGHT: image size, default 67 x 45)
set -eu
out=$1
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

vips gaussnoise "$tmp/noise.v" "${SEED_WIDTH:-67}" "${SEED_HEIGHT:-45}" --mean 128 --sigma 60
vips cast "$tmp/noise.v" "$tmp/u8.v" uchar
vips bandjoin "$tmp/u8.v $tmp/u8.v $tmp/u8.v" "$tmp/rgb.v"
vips bandjoin "$tmp/rgb.v $tmp/u8.v" "$tmp/rgba.v"
vips bandjoin "$tmp/u8.v $tmp/u8.v" "$tmp/ga.v"

n=0
save() { # save IMAGE NAME [tiffsave options...]
    img=$1 name=$2
    shift 2
    vips tiffsave "$img" "$out/$name.tif" "$@" && n=$((n + 1))
}
for fmt in uchar char ushort short uint int float double; do
    vips cast "$tmp/noise.v" "$tmp/$fmt.v" $fmt
    save "$tmp/$fmt.v" "gray-$fmt-strip"
    save "$tmp/$fmt.v" "gray-$fmt-tile16-deflate" --tile --tile-width 16 --tile-height 16 --compression deflate
done
save "$tmp/float.v" "gray-float-lzw-predfloat" --compression lzw --predictor float
save "$tmp/ushort.v" "gray-ushort-zstd-pred" --compression zstd --predictor horizontal --tile --tile-width 32 --tile-height 16
for bits in 1 2 4; do
    save "$tmp/u8.v" "gray-$bits-bit" --bitdepth $bits
    save "$tmp/u8.v" "gray-$bits-bit-tile" --bitdepth $bits --tile --tile-width 16 --tile-height 16
done
save "$tmp/u8.v" "gray-1-bit-miniswhite" --bitdepth 1 --miniswhite
save "$tmp/u8.v" "gray-1-bit-g4" --bitdepth 1 --compression ccittfax4
for c in none lzw deflate packbits zstd jpeg webp; do
    save "$tmp/rgb.v" "rgb-$c" --compression $c
done
save "$tmp/rgb.v" "rgb-jpeg-tile" --compression jpeg --tile --tile-width 16 --tile-height 16
save "$tmp/rgba.v" "rgba-tile" --tile --tile-width 16 --tile-height 16
save "$tmp/rgba.v" "rgba-premultiplied" --premultiply
save "$tmp/ga.v" "gray-alpha"
save "$tmp/rgb.v" "rgb-bigtiff-tile" --bigtiff --tile --tile-width 16 --tile-height 16
save "$tmp/u8.v" "gray-pyramid-pages" --tile --pyramid --tile-width 16 --tile-height 16 --compression deflate
save "$tmp/rgb.v" "rgb-pyramid-subifd" --tile --pyramid --subifd --tile-width 16 --tile-height 16
save "$tmp/ushort.v" "gray-ushort-pyramid" --tile --pyramid --tile-width 16 --tile-height 16 --bigtiff
# Planar separate and rows-per-strip variants through tiffcp.
tiffcp -p separate "$out/rgb-none.tif" "$out/rgb-planar-strip.tif" && n=$((n + 1))
tiffcp -p separate -t -w 16 -l 16 "$out/rgba-tile.tif" "$out/rgba-planar-tile.tif" && n=$((n + 1))
tiffcp -r 3 -c lzw "$out/gray-ushort-strip.tif" "$out/gray-ushort-rps3.tif" && n=$((n + 1))
tiffcp -r 1 "$out/rgb-none.tif" "$out/rgb-rps1.tif" && n=$((n + 1))
tiffcp "$out/gray-uchar-strip.tif" "$out/rgb-none.tif" "$out/multipage.tif" && n=$((n + 1))
echo "$n generated TIFFs in $out"

if [ $# -ge 2 ] && [ -d "$2/tiff_corpus" ]; then
    find "$2/tiff_corpus" -name '*.tif*' -size -1000k -exec cp {} "$out/" \;
    echo "plus the TIFFs under 1 MB of $2/tiff_corpus"
fi
