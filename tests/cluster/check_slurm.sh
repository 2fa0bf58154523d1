#!/usr/bin/env bash
# A cluster run on a single-node Slurm started here: Debian's slurm-wlm (slurmctld + slurmd) and
# munge on localhost, configured in WORK and stopped at the end, also on failure. Submits
# installer/slurm/fisura-array.sbatch as a 3-task array over a folder of small generated scans
# with its dependent merge job, checks the merged manifest and the maps; then deletes one map,
# submits again and checks that only that scan ran again.
#
#   check_slurm.sh FISURA_CLI SOURCE_DIR WORK_DIR
#
# Installs slurm-wlm and munge with apt-get when they are missing (needs root and the Debian
# archive); skipped (exit 77), not passed, when they cannot be installed or started.
set -euo pipefail
cli="$(readlink -f "$1")"
src="$(readlink -f "$2")"
work="$3"
skip() { echo "SKIPPED: $*"; exit 77; }
say() { echo "== $*"; }

need_install=0
for tool in slurmctld slurmd sbatch munged; do
    command -v "$tool" >/dev/null 2>&1 || need_install=1
done
if [ "$need_install" = 1 ]; then
    [ "$(id -u)" -eq 0 ] || skip "slurm-wlm and munge are not installed and installing them needs root"
    command -v apt-get >/dev/null || skip "slurm-wlm and munge are not installed and there is no apt-get"
    say "installing slurm-wlm and munge"
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-get install -y -q slurm-wlm munge >"${TMPDIR:-/tmp}/fisura-slurm-apt.log" 2>&1; then
        apt-get update -q >>"${TMPDIR:-/tmp}/fisura-slurm-apt.log" 2>&1 &&
            apt-get install -y -q slurm-wlm munge >>"${TMPDIR:-/tmp}/fisura-slurm-apt.log" 2>&1 ||
            { tail -n 5 "${TMPDIR:-/tmp}/fisura-slurm-apt.log"; skip "apt-get could not install slurm-wlm and munge"; }
    fi
fi
[ "$(id -u)" -eq 0 ] || skip "starting slurmd needs root"

rm -rf "$work"
mkdir -p "$work"
work="$(readlink -f "$work")"
sl="$work/slurm"
mkdir -p "$sl/state" "$sl/spool" "$sl/munge" "$work/jobs"
chmod 700 "$sl/munge"
pids=()

stop_all() {
    set +e
    if [ -n "${SLURM_CONF:-}" ] && [ -f "$SLURM_CONF" ]; then
        scancel --quiet --full --signal=KILL --user=root >/dev/null 2>&1
        scancel --quiet --user=root >/dev/null 2>&1
    fi
    # Our daemons by the ids we started them with, newest first.
    for ((k = ${#pids[@]} - 1; k >= 0; k--)); do
        kill "${pids[k]}" 2>/dev/null
    done
    for p in "${pids[@]}"; do
        for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$p" 2>/dev/null
    done
    # slurmstepd of our node: started by our slurmd, found by its spool folder.
    for p in $(pgrep slurmstepd 2>/dev/null); do
        if { tr '\0' '\n' <"/proc/$p/environ" | grep -qx "SLURM_CONF=$sl/slurm.conf"; } 2>/dev/null; then
            kill -9 "$p" 2>/dev/null
        fi
    done
}
on_exit() {
    rc=$?
    stop_all
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ]; then
        for f in "$sl/slurmctld.log" "$sl/slurmd.log" "$sl/munged.log"; do
            [ -f "$f" ] && { echo "---- tail of $f"; tail -n 25 "$f"; }
        done
        for f in "$work"/jobs/*.out; do
            [ -f "$f" ] && { echo "---- $f"; tail -n 20 "$f"; }
        done
    fi
    exit "$rc"
}
trap on_exit EXIT
trap 'exit 1' INT TERM

say "munge"
dd if=/dev/urandom of="$sl/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$sl/munge/munge.key"
munged --foreground --force --socket="$sl/munge/munge.socket" --key-file="$sl/munge/munge.key" \
    --pid-file="$sl/munge/munged.pid" --log-file="$sl/munged.log" \
    --seed-file="$sl/munge/munged.seed" >/dev/null 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$sl/munge/munge.socket" ] && break; sleep 0.1; done
[ -S "$sl/munge/munge.socket" ] || skip "munged did not start (see $sl/munged.log)"
munge --socket="$sl/munge/munge.socket" -n </dev/null | unmunge --socket="$sl/munge/munge.socket" \
    >/dev/null || skip "munge does not round-trip a credential"

say "slurm.conf"
host="$(hostname -s)"
cpus="$(nproc)"
port=$((20000 + RANDOM % 20000))
cat >"$sl/slurm.conf" <<EOF
# A single-node cluster on this machine, for Fisura's cluster test only.
ClusterName=fisuratest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sl/munge/munge.socket
StateSaveLocation=$sl/state
SlurmdSpoolDir=$sl/spool
SlurmctldPidFile=$sl/slurmctld.pid
SlurmdPidFile=$sl/slurmd.pid
SlurmctldLogFile=$sl/slurmctld.log
SlurmdLogFile=$sl/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
# Jobs that ended stay visible to squeue/scontrol for a while.
MinJobAge=600
# A "gpu" per task as the example script asks for; counted only, no device files.
GresTypes=gpu
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=4000 Gres=gpu:3 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
# Three stand-in GPUs: Slurm's gpu plugin counts device files; these are /dev/null's twins.
for k in 0 1 2; do mknod "$sl/fakegpu$k" c 1 3 2>/dev/null || touch "$sl/fakegpu$k"; done
echo "NodeName=$host Name=gpu File=$sl/fakegpu[0-2]" >"$sl/gres.conf"
export SLURM_CONF="$sl/slurm.conf"

say "slurmctld and slurmd (ports $port, $((port + 1)))"
slurmctld -D -i -f "$SLURM_CONF" >>"$sl/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -v -f "$SLURM_CONF" -N "$host" >>"$sl/slurmd.out" 2>&1 &
pids+=($!)
state=""
for _ in $(seq 150); do
    state="$(sinfo -h -o %T 2>/dev/null | head -n 1)"
    [ "$state" = idle ] && break
    sleep 0.2
done
[ "$state" = idle ] || { cat "$sl"/*.out; skip "the single-node Slurm did not come up (node state \"$state\")"; }
sinfo

say "scans and a tiny model"
"$cli" demo-data "$work/demo" --segmentation 6 --classification 0 --patch 64 --scan 0 >/dev/null
"$cli" train --task segment --data "$work/demo/segmentation" --out "$work/m.fisura" --epochs 1 \
    --batch 4 --size 32 --depth 2 --width 4 --precision fp32 --cpu --quiet >/dev/null
in="$work/demo/segmentation/images"
out="$work/maps"
nscans=$(ls "$in" | wc -l)
[ "$nscans" -eq 6 ] || { echo "expected 6 scans, got $nscans"; exit 1; }

# Submits the example script (array + dependent merge) and waits for both jobs to leave the queue.
submit_and_wait() {
    local log ids array merge
    log="$(cd "$work/jobs" && FISURA_CLI="$cli" MODEL="$work/m.fisura" INPUT="$in" OUTPUT="$out" \
        INFER_ARGS="--tile 32 --overlap 8 --cpu --threads 1 --readers 1" \
        FISURA_ARRAY_ARGS="--array=0-2 --cpus-per-task=1 --mem=200M --time=00:10:00" \
        bash "$src/installer/slurm/fisura-array.sbatch" submit)"
    echo "$log"
    ids="$(echo "$log" | sed -n 's/^submitted array \([0-9]*\) and merge \([0-9]*\)$/\1 \2/p')"
    array="${ids% *}"
    merge="${ids#* }"
    [ -n "$array" ] && [ -n "$merge" ] || { echo "could not read the job ids"; exit 1; }
    local waited=0
    while [ -n "$(squeue -h -j "$array,$merge" -o %i 2>/dev/null)" ]; do
        sleep 1
        waited=$((waited + 1))
        [ $waited -lt 300 ] || { squeue; echo "jobs still queued after 300 s"; exit 1; }
    done
    echo "jobs ended after about ${waited} s"
    merge_out="$work/jobs/fisura-merge-${array}.out"
    [ -f "$merge_out" ] || { echo "no merge output $merge_out"; exit 1; }
    for k in 0 1 2; do
        [ -f "$work/jobs/fisura-infer-${array}_${k}.out" ] || { echo "no output of task $k"; exit 1; }
    done
    last_array="$array"
}

say "first submission"
submit_and_wait
cat "$merge_out"
grep -q "^Complete: every scan is done." "$merge_out" || { echo "the merge job did not report a complete run"; exit 1; }
[ -f "$out/redo.txt" ] && [ ! -s "$out/redo.txt" ] || { echo "the merge job left no empty redo list"; exit 1; }
for k in 1 2 3; do
    [ -f "$out/fisura-manifest.$k-of-3.json" ] || { echo "no manifest of shard $k/3"; exit 1; }
done
"$cli" merge-manifests "$out" --expect-in "$in" --json >"$work/merge1.json" ||
    { cat "$work/merge1.json"; echo "merge-manifests says the run is not complete"; exit 1; }
grep -q '"done": 6' "$work/merge1.json" || { cat "$work/merge1.json"; echo "not 6 done"; exit 1; }
nmaps=$(ls "$out"/*.probability.tif | wc -l)
[ "$nmaps" -eq 6 ] || { echo "$nmaps maps, expected 6"; exit 1; }
# Every task ran its own group: two scans each.
for k in 0 1 2; do
    grep -q "shard $((k + 1))/3 (Slurm array task $k): 2 of 6 scans" "$work/jobs/fisura-infer-${last_array}_${k}.out" ||
        { cat "$work/jobs/fisura-infer-${last_array}_${k}.out"; echo "task $k did not run its 2 scans"; exit 1; }
done

say "one map deleted, second submission"
victim="$(ls "$out"/*.probability.tif | sed -n 4p)"
for f in "$out"/*.probability.tif; do stat -c '%n %Y.%y' "$f"; done | sort >"$work/before.txt"
rm "$victim"
if "$cli" merge-manifests "$out" --expect-in "$in" >"$work/merge-gap.txt"; then
    echo "merge-manifests says complete with a map deleted"; exit 1
fi
grep -q "MISSING   $(basename "${victim%.probability.tif}").*map missing" "$work/merge-gap.txt" ||
    { cat "$work/merge-gap.txt"; echo "the deleted map is not reported missing"; exit 1; }
submit_and_wait
cat "$merge_out"
grep -q "^Complete: every scan is done." "$merge_out" || { echo "the second run is not complete"; exit 1; }
[ -f "$victim" ] || { echo "the deleted map was not made again"; exit 1; }
for f in "$out"/*.probability.tif; do stat -c '%n %Y.%y' "$f"; done | sort >"$work/after.txt"
changed="$( (diff "$work/before.txt" "$work/after.txt" || true) | sed -n 's/^> \([^ ]*\) .*/\1/p')"
if [ "$changed" != "$victim" ]; then
    echo "expected only $victim to be written again, changed: ${changed:-nothing}"; exit 1
fi
ran=$(cat "$work"/jobs/fisura-infer-"${last_array}"_*.out | grep -c "^Wrote " || true)
[ "$ran" -eq 1 ] || { echo "$ran scans ran in the second submission, expected 1"; exit 1; }
echo "cluster run: 6 scans in 3 tasks, one deleted map made again, nothing else re-run"
