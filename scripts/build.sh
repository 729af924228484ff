#!/usr/bin/env bash
# Installs missing packages, then configures and builds simtsync into build/ (Release-like).
# SIMTSYNC_UNITY=1 builds in unity mode (16 sources per compilation; about 40% of the CPU time of
# a file-by-file build) without debug information: the default under CI=true, where the build
# is fresh and only tested. Developers keep file-by-file builds with -g, whose incremental
# rebuilds recompile one file. SIMTSYNC_UNITY=0 forces file by file.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
unity=${SIMTSYNC_UNITY:-}
[ -z "$unity" ] && [ "${CI:-}" = true ] && unity=1
flags=()
if [ "$unity" = 1 ]; then
  flags=(-DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=16
         "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -DNDEBUG")
elif [ "$unity" = 0 ]; then
  flags=(-DCMAKE_UNITY_BUILD=OFF "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g -DNDEBUG")
fi
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${flags[@]}" >/dev/null
cmake --build "$root/build" -j "$(nproc)"
