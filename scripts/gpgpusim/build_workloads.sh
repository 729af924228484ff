#!/usr/bin/env bash
# Builds every workload's standalone CUDA program (workloads/cuda: the workload's own host driver,
# inputs and validation, with its kernels compiled in) with GPGPU-Sim 4.2's CUDA 11.8 nvcc, so
# that one binary runs on GPGPU-Sim (its libcudart) and on simtsync (`simtsync exec`, the same
# fat binary, the same PTX, the same inputs). Used by scripts/correlate.py --reference gpgpusim.
#
#   scripts/gpgpusim/build_workloads.sh BUILD_DIR OUT_DIR      (ONLY="m1 m2": link just those)
#
# BUILD_DIR is a configured and built simtsync build (its generated k_*.cu kernel tables and its
# libsimtsync_workloads.a and dependencies are reused for the host side). Writes one program
# per kernel module, OUT_DIR/bin/MODULE (MODULE: the .cu file's name, e.g. ht, atm_simt), and
# OUT_DIR/lib/libcudart.so.11.0 (a link to simtsync's runtime, for `simtsync exec`). Kernels that call simtsync's own instructions (lock bits, lock
# instructions: functions named simtsync_*) are left out: GPGPU-Sim cannot run them. Needs
# $GPGPUSIM_HOME (default ~/.cache/gpgpusim-4.2) built by the side-by-side tool's setup.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(readlink -f "$1")
out=$(mkdir -p "$2" && readlink -f "$2")
H=${GPGPUSIM_HOME:-$HOME/.cache/gpgpusim-4.2}
[ -f "$H/.ready" ] || { echo "build_workloads: GPGPU-Sim is not built in $H" >&2; exit 2; }
gen=$build/workloads/cuda
[ -f "$gen/tables.cc" ] || { echo "build_workloads: $gen has no generated tables" >&2; exit 2; }
C=$H/cuda118
mkdir -p "$out/obj" "$out/lib"

# The modules of the main standalone program (tables.cc), minus those calling simtsync's own
# instructions (their committed PTX defines the function simtsync_* that the simulator
# intercepts; nvcc emits it only where it is called).
tables=$(grep -o 'kernels_[A-Za-z0-9_]*' "$gen/tables.cc" | sed 's/^kernels_//' | sort -u)
kept=()
for base in $tables; do
  ptx=$(ls "$root"/workloads/*/"$base".ptx)
  if grep -Eq '^(\.visible )?\.func simtsync_' "$ptx"; then
    echo "skip $base (calls simtsync's own instructions)"
    continue
  fi
  kept+=("$base")
done

objs=()
for base in "${kept[@]}"; do
  src=$(ls "$root"/workloads/*/"$base".cu)
  dir=$(dirname "$src")
  o=$out/obj/k_$base.o
  objs+=("$o")
  if [ ! -f "$o" ] || [ "$src" -nt "$o" ]; then
    (set +u; export PATH=$C/bin:$PATH
     nvcc -ccbin g++-11 -c -cudart shared -O3 \
       -gencode arch=compute_70,code=[sm_70,compute_70] --no-compress \
       -I"$root/workloads" -I"$root/workloads/include" -I"$dir" -o "$o" "$gen/k_$base.cu") \
      || { echo "build_workloads: nvcc 11.8 failed on $base" >&2; exit 1; }
  fi
done

libs=("$build"/workloads/libsimtsync_workloads.a "$build"/src/func/libsimtsync_func.a
      "$build"/src/analysis/libsimtsync_analysis.a "$build"/src/ptx/libsimtsync_ptx.a
      "$build"/src/simt/libsimtsync_simt.a "$build"/src/config/libsimtsync_config.a)
host=()
for f in "$root/workloads/cuda/main.cc" "$root/workloads/cuda/cuda_device.cc"; do
  o=$out/obj/host_$(basename "$f" .cc).o
  [ "$o" -nt "$f" ] || g++ -std=c++20 -O2 -DFMT_SHARED -I"$root/src" -I"$root/workloads" \
    -I"$C/include" -c -o "$o" "$f"
  host+=("$o")
done
# The program links against a stub libcudart.so.11.0 without symbol versions, so that its runtime
# calls carry no version and bind to either runtime: GPGPU-Sim's (which defines the versions
# libcudart.so.9.0 ... 11.0) and simtsync's (which defines libcudart.so.13).
mkdir -p "$out/stub"
nm -u "${objs[@]}" "${host[@]}" | awk '{print $2}' | grep -E '^(__)?cuda' | sort -u \
  | sed 's/.*/void &(void) {}/' > "$out/stub/stub.c"
gcc -shared -fPIC -Wl,-soname,libcudart.so.11.0 -o "$out/stub/libcudart.so" "$out/stub/stub.c"
# One program per module: GPGPU-Sim parses every PTX module of a program at start-up (seconds
# each), so a program holds just the kernels its workload launches.
mkdir -p "$out/bin"
for i in "${!kept[@]}"; do
  b=${kept[$i]}
  [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $b "* ]] && continue
  [ "$out/bin/$b" -nt "${objs[$i]}" ] && [ "$out/bin/$b" -nt "${host[0]}" ] && [ "$out/bin/$b" -nt "${host[1]}" ] && continue
  printf '#include "cuda/kernel_table.h"\nnamespace simtsync::standalone {\nextern const KernelEntry kernels_%s[];\nconst KernelEntry* const kKernelTables[] = {kernels_%s, nullptr};\n}\n' \
    "$b" "$b" > "$out/obj/tables_$b.cc"
  g++ -std=c++20 -O2 -I"$root/workloads" -c -o "$out/obj/tables_$b.o" "$out/obj/tables_$b.cc"
  g++ -O2 -o "$out/bin/$b" "${host[@]}" "$out/obj/tables_$b.o" "${objs[$i]}" "${libs[@]}" \
    -lyaml-cpp -lfmt -L"$out/stub" -lcudart -Wl,--allow-multiple-definition
done
ln -sf "$build/lib/libcudart.so.13" "$out/lib/libcudart.so.11.0"
echo "built ${#kept[@]} programs in $out/bin"
