#!/usr/bin/env bash
# Issue 50's check of SSDE on every built-in workload: each at --size test with
# compile.ssde=true on the IPDOM stack (timing mode, default config), with the number of
# `ssde: not fixed` lines it printed; where that run does not exit 0, the original on the same
# stack and the original under AWARE too, so a transform that ends worse than the original can
# be seen. One line per workload; about a minute on this machine.
#     scripts/ssde_all_workloads.sh build/tools/simtsync
set -uo pipefail
S=${1:?usage: scripts/ssde_all_workloads.sh SIMTSYNC}
for w in $("$S" list | awk '/^[a-z]/ {inw = /workloads:$/; next} inw && /^  [a-z]/ {print $1}'); do
  out=$(timeout 300 "$S" run "$w" --size test --set compile.ssde=true \
        --set sm.reconvergence.impl=ipdom_stack 2>&1)
  rc=$?
  line="$w ssde_rc=$rc not_fixed=$(grep -c 'not fixed' <<<"$out")"
  if [ "$rc" != 0 ]; then
    timeout 300 "$S" run "$w" --size test --set sm.reconvergence.impl=ipdom_stack >/dev/null 2>&1
    line="$line original_rc=$?"
    timeout 300 "$S" run "$w" --size test --set sm.reconvergence.impl=aware >/dev/null 2>&1
    line="$line aware_rc=$?"
  fi
  echo "$line"
done
