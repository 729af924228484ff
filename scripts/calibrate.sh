#!/usr/bin/env bash
# Runs the memory-calibration microbenchmarks on one config (default gtx480) and prints what
# each reports; docs/memory-calibration.md records the output. Usage: scripts/calibrate.sh [CONFIG]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
exe=${SIMTSYNC:-$root/build/tools/simtsync}
cfg=${1:-gtx480}
run() {
  local label=$1; shift
  local msg
  msg=$("$exe" run "$@" --config "$cfg" 2>&1 | grep -E "^VALIDATED|FAILED" | head -1)
  printf '%-28s %s\n' "$label" "${msg#VALIDATED: }"
}
run "L1 hit (4 KB ring)" mb_chase --size test
run "L2 hit (256 KB ring)" mb_chase --size default
run "L2 hit, ld.cg (256 KB)" mb_chase --size default --set workload.cg=1
run "DRAM (8 MB ring)" mb_chase --size paper
run "stream copy (2 x 4 MB)" mb_stream --size default
run "stream copy (2 x 16 MB)" mb_stream --size paper
run "atomics, 1 address" mb_atomic --size default
run "atomics, 32 addresses" mb_atomic --size default --set workload.addresses=32
for w in 1 2 4 8 16 32; do
  run "shared, ${w}-way conflict" mb_bank --size default --set workload.ways=$w
done
