#!/usr/bin/env bash
# Regenerates the committed PTX of every workload from its CUDA source with the project's nvcc
# flags; `--check DIR` writes fresh copies into DIR and fails when one differs from the
# committed copy. The .file paths are made relative so the output does not depend on where the
# repository lives.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
check_dir=""
if [ "${1:-}" = "--check" ]; then check_dir=$2; mkdir -p "$check_dir"; fi
[ -x "$NVCC" ] || { echo "nvcc not found; nothing to do"; [ -n "$check_dir" ] && exit 77; exit 0; }
status=0
for cu in "$root"/workloads/*/*.cu; do
  dir=$(dirname "$cu"); base=$(basename "$cu" .cu)
  out="$dir/$base.ptx"
  [ -n "$check_dir" ] && out="$check_dir/$base.ptx"
  (cd "$dir" && "$NVCC" -ptx -arch=sm_75 -O3 -lineinfo "$base.cu" -o "$out" 2> >(grep -v "deprecated" >&2))
  sed -i "s|\"$dir/$base.cu\"|\"$base.cu\"|" "$out"
  if [ -n "$check_dir" ] && ! cmp -s "$out" "$dir/$base.ptx"; then
    echo "STALE: workloads/$(basename "$dir")/$base.ptx differs from fresh nvcc output ($out)"
    status=1
  fi
done
exit $status
