#!/usr/bin/env bash
# Regenerates the committed PTX of every workload from its CUDA source with the project's nvcc
# flags, and records in workloads/ptx_manifest.txt, per file, a key of what nvcc read (its
# version and flags, the .cu and the headers beside it, workloads/include) and the PTX's hash.
#
#   scripts/gen_ptx.sh                   regenerate every .ptx and the manifest
#   scripts/gen_ptx.sh --check DIR       compile every .cu into DIR; fail when one differs from
#                                        the committed copy or the manifest is stale
#   scripts/gen_ptx.sh --check-changed DIR
#                                        the same, but a file whose sources and committed PTX
#                                        both match their manifest row (the output gen_ptx.sh
#                                        wrote for exactly these inputs) is not compiled again
#                                        (CTest's e2e.ptx_fresh; about 2 s instead of 3 minutes)
#
# The .file paths are made relative so the output does not depend on where the repository
# lives. Compiles run in parallel ($(nproc)).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
FLAGS="-ptx -arch=sm_75 -O3 -lineinfo"
manifest=$root/workloads/ptx_manifest.txt
mode=write check_dir=""
case "${1:-}" in
  --check) mode=check; check_dir=$2 ;;
  --check-changed) mode=changed; check_dir=$2 ;;
  "") ;;
  *) echo "usage: $0 [--check DIR | --check-changed DIR]" >&2; exit 2 ;;
esac
[ -n "$check_dir" ] && mkdir -p "$check_dir" && check_dir=$(cd "$check_dir" && pwd)
[ -x "$NVCC" ] || { echo "nvcc not found; nothing to do"; [ -n "$check_dir" ] && exit 77; exit 0; }

# The key of one .cu: everything nvcc reads that the repository holds, and nvcc itself.
nvcc_id=$("$NVCC" --version | sha256sum | cut -c1-64)
include_id=$(cd "$root/workloads/include" && find . -type f | LC_ALL=C sort | xargs sha256sum |
             sha256sum | cut -c1-64)
source_key() {  # DIR BASE
  { echo "$nvcc_id $include_id $FLAGS $2"
    (cd "$1" && find . -maxdepth 1 -type f \( -name '*.cu' -o -name '*.cuh' -o -name '*.h' \) |
       LC_ALL=C sort | xargs sha256sum); } |
    sha256sum | cut -c1-16
}
ptx_hash() { sha256sum "$1" | cut -c1-16; }

# nvcc derives internal symbol names (in the debug strings) from the source file's absolute
# path, so every file is compiled from one fixed staging directory: the output then does not
# depend on where the repository lives.
stage_sources() {
  # One staging directory at a time (the path is fixed): concurrent runs wait here.
  exec 9> /tmp/simtsync-gen-ptx.lock
  flock 9
  rm -rf "$stage"; mkdir -p "$stage"
  cp -r "$root/workloads/include" "$stage/include"
  for dir in "$root"/workloads/*/; do
    dir=${dir%/}
    ls "$dir"/*.cu > /dev/null 2>&1 || continue
    mkdir -p "$stage/$(basename "$dir")"
    cp "$dir"/*.cu "$stage/$(basename "$dir")/"
    cp "$dir"/*.cuh "$dir"/*.h "$stage/$(basename "$dir")/" 2>/dev/null || true
  done
}

compile() {  # CU OUT
  local cu=$1 out=$2 name base
  base=$(basename "$cu" .cu); name=$(basename "$(dirname "$cu")")
  (cd "$stage/$name" && "$NVCC" $FLAGS -I../include "$base.cu" -o "$out" \
     2> >(grep -v "deprecated" >&2))
  # CUDA's own headers are named by the path nvcc was started from (/usr/local/cuda/bin/../,
  # /usr/local/cuda-13.0/bin/../, ...): name them relative to the toolkit instead.
  sed -i "s|\"$stage/$name/$base.cu\"|\"$base.cu\"|; s|\"$stage/include/|\"include/|" "$out"
  sed -i -E 's|^(\s*\.file\s+[0-9]+ )"[^"]*/targets/[^/"]+/include/|\1"cuda/include/|' "$out"
}
export -f compile
stage=/tmp/simtsync-gen-ptx
export NVCC FLAGS stage

declare -A row_key row_ptx
if [ -f "$manifest" ]; then
  while read -r file key hash; do
    [ "${file:0:1}" = "#" ] && continue
    row_key[$file]=$key row_ptx[$file]=$hash
  done < "$manifest"
fi

status=0 jobs=() reused=0
for cu in "$root"/workloads/*/*.cu; do
  dir=$(dirname "$cu"); base=$(basename "$cu" .cu); name=$(basename "$dir")
  rel=$name/$base.ptx key=$(source_key "$dir" "$base")
  if [ "$mode" = changed ] && [ "${row_key[$rel]:-}" = "$key" ] && [ -f "$dir/$base.ptx" ] &&
     [ "${row_ptx[$rel]:-}" = "$(ptx_hash "$dir/$base.ptx")" ]; then
    reused=$((reused + 1))
    continue
  fi
  out="$dir/$base.ptx"
  [ -n "$check_dir" ] && out="$check_dir/$base.ptx"
  jobs+=("$cu" "$out")
done
# Compile the rest in parallel.
if [ ${#jobs[@]} -gt 0 ]; then
  stage_sources
  printf '%s\0' "${jobs[@]}" | xargs -0 -n 2 -P "$(nproc)" bash -c 'compile "$0" "$1"'
fi
for ((i = 0; i < ${#jobs[@]}; i += 2)); do
  cu=${jobs[i]} out=${jobs[i + 1]}
  dir=$(dirname "$cu"); base=$(basename "$cu" .cu); name=$(basename "$dir")
  rel=$name/$base.ptx
  if [ -n "$check_dir" ]; then
    if ! cmp -s "$out" "$dir/$base.ptx"; then
      echo "STALE: workloads/$rel differs from fresh nvcc output ($out)"
      status=1
    elif [ "${row_key[$rel]:-}" != "$(source_key "$dir" "$base")" ] ||
         [ "${row_ptx[$rel]:-}" != "$(ptx_hash "$out")" ]; then
      echo "STALE MANIFEST: workloads/ptx_manifest.txt's row for $rel (run scripts/gen_ptx.sh)"
      status=1
    fi
  fi
done
if [ "$mode" = write ]; then
  {
    echo "# workloads/DIR/BASE.ptx, the key of its sources (nvcc version and flags, the .cu and"
    echo "# the headers beside it, workloads/include) and its sha256; written by scripts/gen_ptx.sh"
    for cu in "$root"/workloads/*/*.cu; do
      dir=$(dirname "$cu"); base=$(basename "$cu" .cu); name=$(basename "$dir")
      echo "$name/$base.ptx $(source_key "$dir" "$base") $(ptx_hash "$dir/$base.ptx")"
    done
  } > "$manifest"
fi
[ "$mode" != write ] && echo "$(( ${#jobs[@]} / 2 )) compiled and compared, $reused unchanged since the manifest"
exit $status
