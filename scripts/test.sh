#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test. The output ends with CTest's summary.
# First the sanitizer and fuzz step (scripts/sanitize.sh: build-san/, clang, ASan + UBSan,
# libFuzzer smoke runs); SIMTSYNC_SKIP_SANITIZE=1 leaves it out. Then the main build (build/)
# and every test.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
start=$SECONDS
if [ "${SIMTSYNC_SKIP_SANITIZE:-0}" != 1 ]; then
  "$root/scripts/sanitize.sh"
  echo "== sanitizer and fuzz step: $((SECONDS - start)) s"
fi
step=$SECONDS
"$root/scripts/build.sh"
echo "== main build: $((SECONDS - step)) s (all so far: $((SECONDS - start)) s)"
cd "$root/build"
exec ctest --output-on-failure -j "$(nproc)"
