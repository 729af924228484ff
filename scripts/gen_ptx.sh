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
# nvcc derives internal symbol names (in the debug strings) from the source file's absolute
# path, so every file is compiled from one fixed staging directory: the output then does not
# depend on where the repository lives.
stage=/tmp/simtsync-gen-ptx
rm -rf "$stage"; mkdir -p "$stage"
cp -r "$root/workloads/include" "$stage/include"
for cu in "$root"/workloads/*/*.cu; do
  dir=$(dirname "$cu"); base=$(basename "$cu" .cu); name=$(basename "$dir")
  out="$dir/$base.ptx"
  [ -n "$check_dir" ] && out="$check_dir/$base.ptx"
  mkdir -p "$stage/$name"
  cp "$dir"/*.cu "$stage/$name/"
  cp "$dir"/*.cuh "$dir"/*.h "$stage/$name/" 2>/dev/null || true
  (cd "$stage/$name" && "$NVCC" -ptx -arch=sm_75 -O3 -lineinfo -I../include "$base.cu" -o "$out" 2> >(grep -v "deprecated" >&2))
  # CUDA's own headers are named by the path nvcc was started from (/usr/local/cuda/bin/../,
  # /usr/local/cuda-13.0/bin/../, ...): name them relative to the toolkit instead.
  sed -i "s|\"$stage/$name/$base.cu\"|\"$base.cu\"|; s|\"$stage/include/|\"include/|" "$out"
  sed -i -E 's|^(\s*\.file\s+[0-9]+ )"[^"]*/targets/[^/"]+/include/|\1"cuda/include/|' "$out"
  if [ -n "$check_dir" ] && ! cmp -s "$out" "$dir/$base.ptx"; then
    echo "STALE: workloads/$name/$base.ptx differs from fresh nvcc output ($out)"
    status=1
  fi
done
exit $status
