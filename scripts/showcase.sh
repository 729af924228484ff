#!/usr/bin/env bash
# The main job: install what is missing, build, and run the showcase on built-in data:
# the hash table validated, the naive spin lock reported as a SIMT deadlock, recursion with
# call entries, and the simulation speed.
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
run 0 run ht --size default
run 3 run naive_lock
run 3 run barrier_skip
run 0 run ht_mimd --set compile.ssde=true --size test
run 0 run mb_chase --size paper
run 0 run ht --set sm.warp_scheduler.impl=lrr
run 0 run recursion --mode functional
run 0 bench
exit $status
