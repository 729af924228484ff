#!/usr/bin/env bash
# Average power of the energy model's microbenchmarks on every shipped config (docs/energy.md,
# "Checks against the outside world"): an FP32 FMA loop, an SFU loop and an integer loop
# (mb_power), a DRAM stream (mb_stream) and an almost idle GPU (one CTA of one warp), at
# default size with grids that fill every SM. Prints one markdown row per run from its
# stats.gpu.energy.   scripts/energy_microbenchmarks.sh [SIMTSYNC] [CONFIG...]
set -euo pipefail
B=${1:-build/tools/simtsync}
shift || true
configs=${*:-gtx480 gtx1080ti qv100 fx5800 tesla_c2050}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
row() {  # config label args...
  local cfg=$1 label=$2
  shift 2
  "$B" run "$@" --config "$cfg" --size default --json "$tmp/r.json" > /dev/null || true
  python3 - "$cfg" "$label" "$*" "$tmp/r.json" <<'PY'
import json, sys
cfg, label, args, path = sys.argv[1:]
j = json.load(open(path)); g = j["stats"]["gpu"]; e = g["energy"]; s = e["seconds"]
print(f"| {cfg} | {label} | `{args}` | {j['exit_code']} | {g['ipc']:.1f} | "
      f"{e['avg_power_w']:.1f} W | {e['sm_dynamic_j'] / s:.1f} / {e['memory_dynamic_j'] / s:.1f} W | "
      f"{e['static_j'] / s:.1f} W | {e['nj_per_warp_instruction']:.2f} |")
PY
}
# CTAs that fill every SM (8 x 192 threads on gtx480, 8 x 256 where 2048 threads fit, fewer
# where occupancy caps them) and half that for the stream.
declare -A full=([gtx480]=120 [gtx1080ti]=224 [qv100]=640 [fx5800]=120 [tesla_c2050]=84)
declare -A threads=([gtx480]=192 [gtx1080ti]=256 [qv100]=256 [fx5800]=256 [tesla_c2050]=256)
for cfg in $configs; do
  f=${full[$cfg]:-120}; t=${threads[$cfg]:-256}
  grid=(--set workload.ctas=$f --set workload.threads=$t)
  row "$cfg" "FP32 FMA loop" mb_power "${grid[@]}"
  row "$cfg" "SFU loop" mb_power --set workload.op=1 "${grid[@]}"
  row "$cfg" "integer loop" mb_power --set workload.op=2 "${grid[@]}"
  row "$cfg" "DRAM stream" mb_stream --set workload.ctas=$((f / 2))
  row "$cfg" "idle SMs" mb_power --set workload.ctas=1 --set workload.threads=32
done
