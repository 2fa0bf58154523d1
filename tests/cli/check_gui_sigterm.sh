#!/bin/sh
# The desktop application stopped by SIGTERM (logout, `kill`) while it trains: it records the run
# as cancelled (checkpoint kept, resumable) and exits 0 instead of leaving it "running".
# usage: check_gui_sigterm.sh FISURA FISURA_CLI WORKDIR
set -eu
gui="$1"; cli="$2"; work="$3"
rm -rf "$work" && mkdir -p "$work"
export QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data"
"$cli" demo-data "$work/demo" --segmentation 24 --classification 0 --patch 128 --scan 0 >/dev/null 2>&1
"$cli" project new "$work/proj" >/dev/null
"$cli" project add-dataset "$work/proj" --data "$work/demo/segmentation" >/dev/null 2>&1
"$gui" --project "$work/proj" --pane train --start-training 2>/dev/null &
pid=$!
state() { python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['runs']; print(r[0]['state'] if r else 'none')" "$work/proj/project.json"; }
i=0
while [ "$(state)" != running ]; do
    i=$((i + 1)); [ $i -lt 300 ] || { kill -9 $pid; echo "training never started"; exit 1; }
    sleep 0.1
done
kill -TERM $pid
rc=0; wait $pid || rc=$?
[ $rc -eq 0 ] || { echo "fisura exited $rc after SIGTERM"; exit 1; }
s="$(state)"
[ "$s" = cancelled ] || { echo "run recorded as $s, expected cancelled"; exit 1; }
echo "ok: run cancelled and recorded, exit 0"
