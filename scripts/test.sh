#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test. The output ends with CTest's summary.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh"
cd "$root/build"
exec ctest --output-on-failure -j "$(nproc)"
