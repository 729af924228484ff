#!/usr/bin/env bash
# The main job: install what is missing, build, and run the showcase on built-in data:
# the hash table validated (with timeline pages under GTO and BOWS), the naive spin lock reported as a SIMT deadlock, recursion with
# call entries, unmodified CUDA programs on the simulator's CUDA runtime (when nvcc built them),
# and the simulation speed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" || exit 1
sim="$root/build/tools/simtsync"
status=0
run() {  # run EXPECTED_EXIT ARGS...
  local want=$1; shift
  echo; echo "\$ simtsync $*"
  "$sim" "$@"; local rc=$?
  if [ "$rc" -ne "$want" ]; then echo "!! expected exit code $want, got $rc"; status=1; fi
}
run 0 list
# The hash table under GTO and under BOWS, each with its timeline (docs/timeline.md): two pages
# on one cycle axis show the spinning and the back-off.
pages="$root/build/showcase"
mkdir -p "$pages"
run 0 run ht --size default --trace "$pages/ht_gto.json.gz"
run 3 run naive_lock
run 3 run barrier_skip
run 0 run ht_mimd --set compile.ssde=true --size test
run 0 run mb_chase --size paper
run 0 run ht --set sm.warp_scheduler.impl=lrr
run 0 run ht --set sm.warp_scheduler.impl=bows --trace "$pages/ht_bows.json.gz"
run 0 view "$pages/ht_gto.json.gz" -o "$pages/ht_gto.html" --cycles 440000 --title "ht, GTO"
run 0 view "$pages/ht_bows.json.gz" -o "$pages/ht_bows.html" --cycles 440000 --title "ht, BOWS over GTO"
echo "timeline pages: $pages/ht_gto.html $pages/ht_bows.html"
run 0 run recursion --mode functional
# Unmodified CUDA programs (nvcc -cudart shared) through simtsync's libcudart.so.13: a tiled
# matrix multiply; device printf; a naive spin lock that deadlocks under the IPDOM stack and
# finishes with SSDE; a built-in workload as a standalone CUDA program.
cuda="$root/build/tests/cuda"
if [ -x "$cuda/matrix_mul" ] && [ -x "$root/build/workloads/cuda/simtsync_workloads_cuda" ]; then
  run 0 exec -- "$cuda/matrix_mul"
  run 0 exec --quiet -- "$cuda/device_printf"
  run 3 exec -- "$cuda/spin_lock"
  run 0 exec --set compile.ssde=true -- "$cuda/spin_lock"
  run 0 exec --config qv100 -- "$root/build/workloads/cuda/simtsync_workloads_cuda" ht --size test
else
  echo; echo "(CUDA programs not built: nvcc or the CUDA headers are missing; skipping simtsync exec)"
fi
run 0 bench
exit $status
