#!/bin/bash
# Patch statistics kernel at several register budgets (blocks per SM): run.sh once, then the
# kernel rebuilt with FISURA_PS_MIN_BLOCKS = 5, 6 and 3 and timed again. OUT=dir, repository root.
set -u
export CUDACXX=/usr/local/cuda/bin/nvcc
timeout 400 bash tests/bench/patchstats/run.sh $OUT/ps > $OUT/ps.log 2>&1; echo "run.sh rc=$?" >> $OUT/ps.log
grep -E '^(check|time|copy)' $OUT/ps/fisura.log | grep -v PASS
source .device-deps/env.sh
for nb in 5 6 3; do
  cmake -S . -B /tmp/fisura-build-patchstats -DCMAKE_CUDA_FLAGS=-DFISURA_PS_MIN_BLOCKS=$nb > /dev/null 2>&1 &&
  cmake --build /tmp/fisura-build-patchstats -j16 --target fisura-bench-patchstats > $OUT/build$nb.log 2>&1 || { tail -20 $OUT/build$nb.log; continue; }
  echo "== min blocks $nb"
  /tmp/fisura-build-patchstats/tests/bench/patchstats/fisura-bench-patchstats --json $OUT/nb$nb.json --reps 20 --no-cpu 2>&1 | grep -E '^time|FAIL|checks'
done
