#!/usr/bin/env bash
# The sanitizer and fuzz step (run by scripts/test.sh before the main tests; CI runs it too).
# Builds build-san/ with clang, AddressSanitizer + UndefinedBehaviorSanitizer (findings abort)
# and the libFuzzer targets, then runs under the sanitizers: every unit test, the quick e2e
# subset (label `sanitize`: bad input of every kind, analysis, transform, one run per mode and
# deadlock kind), and a bounded fuzz run per target (label `fuzz`, SIMTSYNC_FUZZ_SECONDS each,
# default 20). Output ends with CTest's summary. A unity build (16 sources per compilation):
# about a third of the time of a file-by-file build (the main build is one too under CI=true).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh" clang libclang-rt-14-dev
seconds=${SIMTSYNC_FUZZ_SECONDS:-20}
cmake -S "$root" -B "$root/build-san" -G Ninja -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=Sanitize "-DCMAKE_CXX_FLAGS_SANITIZE=-O1 -gline-tables-only" \
  -DSIMTSYNC_SANITIZE=address,undefined -DSIMTSYNC_FUZZ=ON -DCMAKE_UNITY_BUILD=ON \
  -DSIMTSYNC_FUZZ_SECONDS="$seconds" >/dev/null
cmake --build "$root/build-san" -j "$(nproc)"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
cd "$root/build-san"
exec ctest --output-on-failure -j "$(nproc)" -L '^(unit|sanitize|fuzz)$'
