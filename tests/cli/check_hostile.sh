#!/bin/sh
# Hostile and unlucky input through fisura-cli (issue 33), one case per run:
#   deep_json   project.json nested 80,000 / 50,000 deep: `project show` and `train --project`
#               fail cleanly (exit 1, not a signal) and leave the file as it was
#   names       scans, maps and masks whose names are not UTF-8 (\xff): infer (file and folder),
#               measure, score and merge-manifests --expect-in succeed and print JSON that
#               names them losslessly (README, "File names in JSON")
#   bomb        an 8 MB TIFF claiming 10^6 x 10^6 px is refused at once, naming --max-pixels
#   model_crc   eight NaN bytes inside a model's weights: refused, no map written
#   ulimit      infer under `ulimit -v`: a clean result or an out_of_memory error, never a crash,
#               and the previous map intact
# usage: check_hostile.sh <fisura-cli> <work dir> <python3> <case>
set -u
CLI="$1"
WORK="$2"
PY="$3"
CASE="$4"
rm -rf "$WORK" && mkdir -p "$WORK" || exit 1
FF=$(printf '\377')

fail() {
    echo "FAIL: $*"
    exit 1
}

# Exit code of a command, which must be a plain failure or success (no signal, no abort).
clean_rc() {
    [ "$1" -lt 128 ] || fail "$2 died with exit code $1 (a signal)"
}

model() { # a tiny U-Net on the demo data
    "$CLI" demo-data "$WORK/d" --segmentation 4 --classification 0 --patch 64 --scan 512 --json \
        >/dev/null || fail "demo-data"
    "$CLI" train --task segment --data "$WORK/d/segmentation" --out "$WORK/m.fisura" --epochs 1 \
        --batch 2 --size 32 --depth 2 --width 4 --cpu --quiet >/dev/null 2>&1 || fail "train"
}

# The JSON on stdin parses and the string at the key path $1 (e.g. 'input' or '0.input') names
# the file $2 by the rule of fisura/bytetext.h.
json_names() {
    "$PY" -c '
import json, os, sys
def raw(s):
    return b"".join(bytes([ord(c) - 0xEF00]) if 0xEF80 <= ord(c) <= 0xEFFF else c.encode()
                    for c in s)
data = sys.stdin.buffer.read()
data.decode("utf-8")  # valid UTF-8, or this raises
v = json.loads(data)
for k in sys.argv[1].split("."):
    v = v[int(k)] if isinstance(v, list) else v[k]
want = os.fsencode(sys.argv[2])
sys.exit(0 if raw(v) == want else "%r is not %r" % (raw(v), want))
' "$1" "$2"
}

case "$CASE" in
deep_json)
    "$CLI" project new "$WORK/p" >/dev/null || fail "project new"
    for depth in 80000 50000; do
        "$PY" -c "
import json, sys
deep = '[' * $depth + ']' * $depth
sys.stdout.write('{\"format\":\"fisura-project\",\"schema\":1,\"name\":\"deep\",\"next_id\":2,'
                 '\"datasets\":[{\"id\":\"ds-1\",\"name\":\"d\",\"path\":\"/data/d\",'
                 '\"task\":\"segment\",\"summary\":{\"items\":3,\"problems\":' + deep + '}}]}')
" >"$WORK/p/project.json"
        cp "$WORK/p/project.json" "$WORK/before.json"
        "$CLI" project show "$WORK/p" >"$WORK/out.txt" 2>"$WORK/err.txt"
        rc=$?
        clean_rc $rc "project show ($depth deep)"
        [ $rc -eq 1 ] || fail "project show ($depth deep) exited $rc"
        grep -q "nested deeper than 64" "$WORK/err.txt" || fail "no depth message: $(cat "$WORK/err.txt")"
        "$CLI" train --project "$WORK/p" --task segment --data "$WORK/nowhere" --out "$WORK/m.fisura" \
            --epochs 1 --cpu --quiet >/dev/null 2>"$WORK/err.txt"
        rc=$?
        clean_rc $rc "train --project ($depth deep)"
        [ $rc -ne 0 ] || fail "train --project ($depth deep) succeeded"
        cmp -s "$WORK/p/project.json" "$WORK/before.json" || fail "project.json changed"
        [ -z "$(ls -A "$WORK/p" | grep -v -e '^project.json$' -e '^models$' -e '^runs$' -e '^maps$')" ] ||
            fail "left behind: $(ls -A "$WORK/p")"
    done
    ;;
names)
    model
    mkdir -p "$WORK/in$FF"
    cp "$WORK/d/scan/demo_scan.tif" "$WORK/in$FF/scan$FF.tif"
    cp "$WORK/d/scan/demo_scan_mask.tif" "$WORK/in$FF/mask$FF.tif"
    IN="$WORK/in$FF/scan$FF.tif"
    MAP="$WORK/map$FF.tif"
    "$CLI" infer --model "$WORK/m.fisura" --in "$IN" --out "$MAP" --tile 32 --overlap 8 --cpu \
        --json >"$WORK/infer.json" 2>"$WORK/err.txt" || fail "infer: $(cat "$WORK/err.txt")"
    json_names input "$IN" <"$WORK/infer.json" || fail "infer --json does not name the input"
    json_names output "$MAP" <"$WORK/infer.json" || fail "infer --json does not name the map"
    # Folder mode, with a manifest (a shard of one), and merge-manifests naming what is missing.
    mkdir -p "$WORK/maps"
    "$CLI" infer --model "$WORK/m.fisura" --in "$WORK/in$FF" --out "$WORK/maps" --tile 32 \
        --overlap 8 --cpu --shard 1/1 --json >"$WORK/folder.json" 2>"$WORK/err.txt" ||
        fail "infer (folder): $(cat "$WORK/err.txt")"
    json_names 0.input "$WORK/in$FF/mask$FF.tif" <"$WORK/folder.json" ||
        fail "infer (folder) --json does not name the first scan"
    "$CLI" merge-manifests "$WORK/maps" --expect-in "$WORK/in$FF" --json >"$WORK/merge.json" \
        2>"$WORK/err.txt"
    clean_rc $? "merge-manifests"
    "$PY" -c 'import json,sys; json.loads(sys.stdin.buffer.read().decode("utf-8"))' \
        <"$WORK/merge.json" || fail "merge-manifests --json is not JSON"
    "$CLI" measure --map "$MAP" --json - >"$WORK/measure.json" 2>"$WORK/err.txt" ||
        fail "measure: $(cat "$WORK/err.txt")"
    "$PY" -c 'import json,sys; json.loads(sys.stdin.buffer.read().decode("utf-8"))' \
        <"$WORK/measure.json" || fail "measure --json is not JSON"
    "$CLI" score --map "$MAP" --truth "$WORK/in$FF/mask$FF.tif" --json >"$WORK/score.json" \
        2>"$WORK/err.txt" || fail "score: $(cat "$WORK/err.txt")"
    json_names map "$MAP" <"$WORK/score.json" || fail "score --json does not name the map"
    json_names truth "$WORK/in$FF/mask$FF.tif" <"$WORK/score.json" ||
        fail "score --json does not name the truth"
    ;;
bomb)
    "$PY" -c '
import struct, sys, zlib
w = h = 1000000
row = zlib.compress(bytes(w), 9)
e = [(256,4,1,w),(257,4,1,h),(258,3,1,8),(259,3,1,32946),(262,3,1,1),(273,4,h,0),(277,3,1,1),
     (278,4,1,1),(279,4,h,0)]
base = 8 + 2 + len(e) * 12 + 4
e[5] = (273,4,h,base); e[8] = (279,4,h,base + 4 * h)
out = bytearray(b"II" + struct.pack("<HIH", 42, 8, len(e)))
for t, ty, c, v in e:
    out += struct.pack("<HHIHH", t, ty, c, v, 0) if ty == 3 else struct.pack("<HHII", t, ty, c, v)
out += struct.pack("<I", 0) + struct.pack("<%dI" % h, *([base + 8 * h] * h))
out += struct.pack("<%dI" % h, *([len(row)] * h)) + row
sys.stdout.buffer.write(out)
' >"$WORK/bomb.tif"
    model
    START=$(date +%s)
    "$CLI" infer --model "$WORK/m.fisura" --in "$WORK/bomb.tif" --out "$WORK/map.tif" --cpu \
        >/dev/null 2>"$WORK/err.txt"
    rc=$?
    clean_rc $rc "infer on the bomb"
    [ $rc -eq 1 ] || fail "infer on the bomb exited $rc"
    [ $(($(date +%s) - START)) -lt 30 ] || fail "refusing the bomb took $(($(date +%s) - START)) s"
    grep -q "too_large: too_many_pixels: " "$WORK/err.txt" || fail "message: $(cat "$WORK/err.txt")"
    grep -q -- "--max-pixels 1000000000000" "$WORK/err.txt" || fail "no override named"
    [ ! -e "$WORK/map.tif" ] || fail "a map was written"
    "$CLI" infer --model "$WORK/m.fisura" --in "$WORK/bomb.tif" --out "$WORK/map.tif" --cpu \
        --max-pixels 0 >/dev/null 2>"$WORK/err.txt"
    clean_rc $? "infer --max-pixels 0"
    grep -q -- "--max-pixels-per-byte 0" "$WORK/err.txt" || fail "no ratio message: $(cat "$WORK/err.txt")"
    ;;
model_crc)
    model
    "$PY" -c '
import struct, sys, zipfile
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
# Eight NaN bytes in the middle of the largest weight record.
info = max(zipfile.ZipFile(p).infolist(), key=lambda i: i.file_size)
start = info.header_offset + 30 + struct.unpack_from("<HH", b, info.header_offset + 26)[0] + \
    struct.unpack_from("<HH", b, info.header_offset + 26)[1]
at = start + info.file_size // 2 // 4 * 4
b[at:at + 8] = struct.pack("<2I", 0x7fc00000, 0x7fc00000)
open(p, "wb").write(b)
print(info.filename, at)
' "$WORK/m.fisura" >/dev/null || fail "damaging the model"
    "$CLI" infer --model "$WORK/m.fisura" --in "$WORK/d/scan/demo_scan.tif" --out "$WORK/map.tif" \
        --tile 32 --overlap 8 --cpu >/dev/null 2>"$WORK/err.txt"
    rc=$?
    clean_rc $rc "infer with a damaged model"
    [ $rc -eq 1 ] || fail "infer with a damaged model exited $rc"
    grep -q "corrupt: " "$WORK/err.txt" || fail "message: $(cat "$WORK/err.txt")"
    grep -q "CRC-32" "$WORK/err.txt" || fail "no checksum named: $(cat "$WORK/err.txt")"
    [ ! -e "$WORK/map.tif" ] || fail "a map was written"
    ;;
ulimit)
    model
    IN="$WORK/d/scan/demo_scan.tif"
    "$CLI" infer --model "$WORK/m.fisura" --in "$IN" --out "$WORK/map.tif" --tile 32 --overlap 8 \
        --cpu >/dev/null 2>&1 || fail "infer without a limit"
    cp "$WORK/map.tif" "$WORK/before.tif"
    for kb in 600000 700000 800000 1200000; do
        (ulimit -v $kb && "$CLI" infer --model "$WORK/m.fisura" --in "$IN" --out "$WORK/map.tif" \
            --tile 32 --overlap 8 --cpu >/dev/null 2>"$WORK/err.txt")
        rc=$?
        clean_rc $rc "infer under ulimit -v $kb"
        if [ $rc -ne 0 ]; then
            grep -q "out_of_memory" "$WORK/err.txt" ||
                fail "ulimit -v $kb: exit $rc without out_of_memory: $(cat "$WORK/err.txt")"
            cmp -s "$WORK/map.tif" "$WORK/before.tif" || fail "ulimit -v $kb: the previous map changed"
        fi
        [ -z "$(ls -A "$WORK" | grep -e '\.part' -e '\.tmp')" ] || fail "temporaries left"
        echo "ulimit -v $kb: exit $rc"
    done
    ;;
*)
    echo "unknown case $CASE"
    exit 2
    ;;
esac
echo "ok: $CASE"
