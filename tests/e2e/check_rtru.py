#!/usr/bin/env python3
"""Warp-phase statistics on a kernel with a known imbalance (issue 16, seed 002 Eq. 1).

mb_imbalance: warp w of each CTA runs (w + 1) * iters dependent multiply-adds per phase, so
RTRU is about (W - 1) / (2 W) in every phase for W warps per CTA and warp W - 1 is always the
critical warp. Checks the phase count (barriers plus the exit point), the RTRU and the share
of warp time lost waiting, under LRR and GTO and for 1, 4 and 8 warps per CTA.
Usage: check_rtru.py SIMTSYNC OUTDIR
"""
import json
import os
import subprocess
import sys

exe, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
failures = []


def run(policy, warps, ctas=2, phases=4):
    path = os.path.join(out, f"{policy}_{warps}.json")
    cmd = [exe, "run", "mb_imbalance", "--size", "test", "--json", path,
           "--set", "stats.warp_phases=true", "--set", f"sm.warp_scheduler.impl={policy}",
           "--set", f"workload.warps={warps}", "--set", f"workload.ctas={ctas}",
           "--set", f"workload.phases={phases}"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        failures.append(f"{' '.join(cmd)}: exit {r.returncode}\n{r.stdout}{r.stderr}")
        return None
    with open(path) as f:
        g = json.load(f)["stats"]["gpu"]
    # The derived values (stats.gpu.warp_phases) and the counters they come from (sm_total).
    if "warp_phases" not in g:
        failures.append(f"{' '.join(cmd)}: no stats.gpu.warp_phases")
        return None
    return dict(g["warp_phases"], phases=g["sm_total"]["warp_phases"],
                exit_phases=g["sm_total"]["exit_phases"])


def check(what, got, want, tol):
    ok = abs(got - want) <= tol
    print(f"{'ok  ' if ok else 'FAIL'} {what}: {got:.4f} (want {want:.4f} +- {tol})")
    if not ok:
        failures.append(what)


for policy in ("lrr", "gto"):
    for warps in (4, 8):
        wp = run(policy, warps)
        if wp is None:
            continue
        want = (warps - 1) / (2 * warps)
        tag = f"{policy} W={warps}"
        check(f"{tag} phases (2 CTAs x 4)", wp["phases"], 8, 0)
        check(f"{tag} exit phases", wp["exit_phases"], 2, 0)
        check(f"{tag} mean RTRU", wp["mean_rtru"], want, 0.02)
        check(f"{tag} barrier wait fraction", wp["barrier_wait_fraction"], want, 0.02)
        check(f"{tag} critical warp never changes", wp["critical_change_rate"], 0.0, 0)
    # One warp per CTA waits for nobody.
    wp = run(policy, 1)
    if wp is not None:
        check(f"{policy} W=1 mean RTRU", wp["mean_rtru"], 0.0, 0)
        check(f"{policy} W=1 barrier wait fraction", wp["barrier_wait_fraction"], 0.0, 0)

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("all warp-phase checks passed")
