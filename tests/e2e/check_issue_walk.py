#!/usr/bin/env python3
"""The issue stage's two walks over a scheduler's warps give the same simulation (issue 48).

For a policy whose order is a rotation of its warps (LRR), the issue stage looks only at the
warps that are not blocked, with bit masks (Sm::issue_rotated); with the timeline trace on it
walks the policy's whole order one warp at a time (Sm::issue_one), as every other policy does.
This runs each case with and without --trace and compares the exit code and every JSON
statistic, leaving out only the host's own numbers. The cases cover what the walk's masks stand
for: warps blocked on the scoreboard, on a fence and on the LD/ST queue (a memory-bound kernel),
lock retries, lock instructions with lock queues, barriers, a SIMT deadlock, and configurations
with one, two and four schedulers.

usage: check_issue_walk.py SIMTSYNC OUTDIR
"""
import json
import os
import subprocess
import sys

LRR = ["--set", "sm.warp_scheduler.impl=lrr"]
CASES = [
    ("vecadd_qv100", ["vecadd", "--size", "test", "--config", "qv100", *LRR]),
    ("ht_qv100", ["ht", "--size", "test", "--config", "qv100", *LRR]),
    ("ht_gtx480", ["ht", "--size", "test", "--config", "gtx480", *LRR]),
    ("atm_lockinst_qv100", ["atm_lockinst", "--size", "test", "--config", "qv100", *LRR]),
    ("chan_shared_qv100", ["chan_shared", "--size", "test", "--config", "qv100", *LRR]),
    ("sp_tesla", ["sp", "--size", "test", "--config", "tesla_c2050", *LRR]),
    ("bh_tb_gtx480", ["bh_tb", "--size", "test", "--config", "gtx480", *LRR]),
    ("naive_lock_qv100", ["naive_lock", "--size", "test", "--config", "qv100", *LRR]),
    ("histo_tiny", ["histo", "--size", "test", "--config", "tiny", *LRR]),
]
HOST_KEYS = {"seconds", "sim_seconds", "threads"}


def strip(obj):
    if isinstance(obj, dict):
        return {k: strip(v) for k, v in obj.items() if k not in HOST_KEYS}
    if isinstance(obj, list):
        return [strip(v) for v in obj]
    return obj


def run(exe, out, name, args, traced):
    tag = "traced" if traced else "plain"
    js = os.path.join(out, f"{name}.{tag}.json")
    extra = ["--trace", os.path.join(out, f"{name}.trace.json.gz")] if traced else []
    p = subprocess.run([exe, "run", *args, *extra, "--json", js], capture_output=True, text=True,
                       timeout=300)
    data = strip(json.load(open(js))) if os.path.exists(js) else None
    return p.returncode, data


def main():
    exe, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    failed = 0
    for name, args in CASES:
        plain = run(exe, out, name, args, False)
        traced = run(exe, out, name, args, True)
        if plain[1] is None or traced[1] is None:
            print(f"{name}: no JSON written (exit {plain[0]} / {traced[0]})")
            failed += 1
        elif plain != traced:
            diff = [k for k in plain[1] if plain[1].get(k) != traced[1].get(k)]
            print(f"{name}: the traced run differs (exit {plain[0]} / {traced[0]}; keys {diff})")
            failed += 1
        else:
            print(f"{name}: exit {plain[0]}, cycles {plain[1].get('cycles')}, identical")
    if failed:
        print(f"FAILED: {failed} case(s)")
        return 1
    print("OK: both issue walks give the same simulation in every case")
    return 0


if __name__ == "__main__":
    sys.exit(main())
