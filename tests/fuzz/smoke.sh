#!/usr/bin/env bash
# A bounded libFuzzer run: FUZZER SOURCE_DIR WORK_DIR SECONDS [RUNS]
# Replays every input in tests/fuzz/regressions/ (each must pass), then fuzzes for SECONDS (or
# RUNS inputs when RUNS > 0) from a fixed seed, starting from every committed .ptx file. Exit 0
# when nothing was found; otherwise libFuzzer's report names the crash-* file to add to
# regressions/ once fixed.
set -euo pipefail
fuzzer=$1 src=$2 work=$3 seconds=$4 runs=${5:-0}
rm -rf "$work" && mkdir -p "$work/corpus" "$work/seeds"
# Seeds: the committed PTX (git's list where there is a checkout, else a search), copied so that
# libFuzzer's additions land in the build tree, never the source tree.
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git -C "$src" ls-files -z '*.ptx' | (cd "$src" && xargs -0 cp -t "$work/seeds" --backup=numbered)
else
  find "$src/workloads" "$src/tests" -name '*.ptx' -exec cp -t "$work/seeds" --backup=numbered {} +
fi
regressions=$(find "$src/tests/fuzz/regressions" -type f ! -name README.md | sort)
if [ -n "$regressions" ]; then
  # shellcheck disable=SC2086  # one argument per file
  "$fuzzer" -rss_limit_mb=2048 -timeout=60 $regressions
fi
args=(-seed=1 -timeout=60 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1
      "-artifact_prefix=$work/" "-max_total_time=$seconds")
[ "$runs" -gt 0 ] && args+=("-runs=$runs")
cd "$work"
exec "$fuzzer" "${args[@]}" "$work/corpus" "$work/seeds"
