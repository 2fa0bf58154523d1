# Shared by the starter-model scripts (sourced): the fisura-cli to use, logging, and data in a
# form this build reads.
#
# CLI    fisura-cli to run; unset: built here in $BUILD (default build-gpu) with the GUI and the
#        tests off, after `source .device-deps/env.sh` when that file exists (the GPU hosts).
# WORK   scratch space (default /tmp/fisura-starter); never inside the repository.
set -u
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
WORK=${WORK:-/tmp/fisura-starter}
mkdir -p "$WORK"
log() { echo "[$(date +%T)] $*" >&2; }

ensure_cli() {
    if [ -n "${CLI:-}" ]; then
        return 0
    fi
    local b=${BUILD:-$SRC/build-gpu}
    [ -f "$SRC/.device-deps/env.sh" ] && source "$SRC/.device-deps/env.sh"
    log "build $b"
    local t0=$SECONDS
    { [ -f "$b/build.ninja" ] ||
        cmake -S "$SRC" -B "$b" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFISURA_BUILD_GUI=OFF \
            -DFISURA_BUILD_TESTS=OFF; } >"$WORK/build.log" 2>&1 &&
        cmake --build "$b" -j"$(nproc)" --target fisura-cli >>"$WORK/build.log" 2>&1 ||
        { tail -40 "$WORK/build.log" >&2; return 1; }
    log "build done in $((SECONDS - t0)) s"
    CLI=$b/app/cli/fisura-cli
}

# A folder of images/ + masks/ this build can read: the TIFF copies pairs_to_tiff.py makes when
# python3 has cv2 and tifffile (the GPU hosts, whose Fisura reads TIFF only), else the folder
# itself (a build with OpenCV's imgcodecs reads JPEG and PNG).
readable_pairs() { # SRC_DIR NAME -> prints the folder to use
    local src=$1 name=$2
    if python3 -c 'import cv2, tifffile' 2>/dev/null; then
        local dst=$WORK/tiff/$name
        if [ ! -f "$dst/.done" ]; then
            rm -rf "$dst"
            python3 "$SRC/tests/bench/starter/pairs_to_tiff.py" "$src" "$dst" >&2 || return 1
            touch "$dst/.done"
        fi
        echo "$dst"
    else
        echo "$src"
    fi
}

# Links pairs of SRC (images/ + masks/) into DST, stems listed on stdin, each REPEAT times
# (names <prefix><stem>_rN). Links, not copies: the data stay where they are.
link_pairs() { # SRC DST PREFIX REPEAT < stems
    local src=$1 dst=$2 prefix=$3 repeat=$4 stem f m r b
    local -A img msk
    mkdir -p "$dst/images" "$dst/masks"
    for f in "$src"/images/*; do b=${f##*/}; img[${b%.*}]=$f; done
    for f in "$src"/masks/*; do b=${f##*/}; msk[${b%.*}]=$f; done
    while read -r stem; do
        f=${img[$stem]:-} m=${msk[$stem]:-}
        [ -n "$f" ] && [ -n "$m" ] || continue
        for ((r = 1; r <= repeat; r++)); do
            ln -sf "$f" "$dst/images/${prefix}${stem}_r$r.${f##*.}"
            ln -sf "$m" "$dst/masks/${prefix}${stem}_r$r.${m##*.}"
        done
    done
}

# Links every pair of SRC into DST under its own name, in two processes however many there are.
link_all() { # SRC DST (absolute SRC)
    mkdir -p "$2"
    cp -as "$1/images" "$1/masks" "$2/"
}

stems_of() { # DIR -> sorted stems of DIR/images
    ls "$1/images" | sed 's/\.[^.]*$//' | sort
}

commit_id() {
    if [ -n "${COMMIT:-}" ]; then
        echo "$COMMIT"
    else
        git -C "$SRC" rev-parse --short=12 HEAD 2>/dev/null || echo unknown
    fi
}
