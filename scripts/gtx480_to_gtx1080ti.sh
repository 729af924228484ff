#!/usr/bin/env bash
# Moves the gtx480 config to gtx1080ti one group of keys at a time and prints the cycles of one
# workload after each step (each group alone, then cumulative; the last cumulative step equals
# gtx1080ti). Used by docs/results/bows_gtx1080ti to find what makes a kernel faster or slower
# on Pascal. Usage: scripts/gtx480_to_gtx1080ti.sh SIMTSYNC WORKLOAD [--set KEY=VALUE ...]
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 SIMTSYNC WORKLOAD [--set KEY=VALUE ...]" >&2
  exit 2
fi
sim=$1 workload=$2
shift 2
groups=(
  "sm_count|gpu.num_sms=28"
  "sm_resources|sm.max_threads=2048 sm.max_warps=64 sm.max_ctas=32 sm.registers=65536 sm.shared_memory_bytes=98304"
  "pipeline|sm.num_schedulers=4 sm.icache.size_bytes=4096 sm.units.sp=4 sm.ii.imul=1 sm.ii.idiv=4 sm.ii.dp=1 sm.shared.latency=24 sm.shared.atomics=native"
  "l1|mem.l1.size_bytes=49152 mem.l1.assoc=6 mem.l1.mshrs=128"
  "partitions_l2|mem.partitions=11 mem.l2.size_bytes=262144 mem.l2.assoc=16"
  "clocks_dram|gpu.core_clock_mhz=1481 clock.icnt_mhz=2962 clock.l2_mhz=1481 clock.dram_mhz=1375 mem.dram.bus_bytes=4 mem.dram.data_rate=8 mem.dram.burst_length=16"
)
cycles() {
  "$sim" run "$workload" "$@" 2>&1 | awk '/^ *cycles /{c=$2} /^exit code/{e=$3} END{printf "%s (exit %s)", c, e}'
}
sets() {  # "a=1 b=2" -> --set a=1 --set b=2
  local kv
  for kv in $1; do printf -- '--set %s ' "$kv"; done
}
echo "gtx480: $(cycles --config gtx480 "$@")"
for g in "${groups[@]}"; do
  # shellcheck disable=SC2046
  echo "only ${g%%|*}: $(cycles --config gtx480 "$@" $(sets "${g#*|}"))"
done
all=""
for g in "${groups[@]}"; do
  all="$all ${g#*|}"
  # shellcheck disable=SC2046
  echo "through ${g%%|*}: $(cycles --config gtx480 "$@" $(sets "$all"))"
done
echo "gtx1080ti: $(cycles --config gtx1080ti "$@")"
