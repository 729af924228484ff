#!/usr/bin/env python3
"""Seed 001 sec. 6 (Table 3): Needleman-Wunsch as atomic-lock dataflow (nw), data-parallel
wavefront (nw_dp) and tiny-lock dataflow (nw_tiny), kernel time per grid size beside the seed.

    scripts/nw_tiny_experiment.py build/tools/simtsync [--max-tiles 32] [--out docs/results/nw_tiny]

Runs `simtsync run W --size test --set workload.tiles=N --set compile.registers_per_thread=14`
on gtx480 (timing mode) for N = 1, 2, 4, ... up to --max-tiles (grid 31N x 31N); a run that takes
longer than --budget host seconds (default 300) is stopped and recorded as such. Writes
results.csv and time.png/.pdf (µs at the config's 700 MHz core clock, log-log, ours beside
Table 3). 32 tiles takes about 2.5 minutes of host time in all; 64 does not fit the budget.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import time

from simtsync_runs import OLD_MODEL  # reproduces the recording

SEED_US = {  # seed 001 Table 3 (GTX 570): atomic-lock, data-parallel, tiny-lock
    1: (175, 57, 49), 2: (466, 58, 49), 4: (1050, 58, 50), 8: (2285, 59, 51),
    16: (5052, 72, 79), 32: (14757, 79, 109), 64: (48808, 80, 165)}
WORKLOADS = ["nw", "nw_dp", "nw_tiny"]
CLOCK_MHZ = 700.0  # gtx480 gpu.core_clock_mhz


def run(simtsync, w, tiles, budget):
    with tempfile.TemporaryDirectory() as d:
        js = os.path.join(d, "s.json")
        cmd = [simtsync, "run", w, "--size", "test", "--config", "gtx480", "--set",
               f"workload.tiles={tiles}", "--set", "compile.registers_per_thread=14",
               *[x for kv in OLD_MODEL for x in ("--set", kv)], "--json", js]
        t0 = time.time()
        try:
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=budget, check=False)
        except subprocess.TimeoutExpired:
            return {"result": f"stopped after {budget} s of host time"}
        host = time.time() - t0
        if out.returncode != 0 or "VALIDATED" not in out.stdout:
            sys.exit(f"{' '.join(cmd)} failed (rc {out.returncode}):\n{out.stdout[-2000:]}{out.stderr}")
        g = json.load(open(js))["stats"]["gpu"]
        return {"result": "VALIDATED", "cycles": g["cycles"],
                "warp_instructions": g["warp_instructions"], "host_s": round(host, 2)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("simtsync")
    ap.add_argument("--max-tiles", type=int, default=32)
    ap.add_argument("--budget", type=int, default=300)
    ap.add_argument("--out", default="docs/results/nw_tiny")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    rows = []
    tiles = 1
    while tiles <= a.max_tiles:
        for k, w in enumerate(WORKLOADS):
            r = run(a.simtsync, w, tiles, a.budget)
            r.update({"tiles": tiles, "grid": f"{31 * tiles}x{31 * tiles}", "workload": w,
                      "us": round(r["cycles"] / CLOCK_MHZ, 1) if "cycles" in r else "",
                      "seed_us": SEED_US[tiles][k]})
            rows.append(r)
            print(f"{w:8} tiles {tiles:3}: {r['result']} {r.get('cycles', '')} cycles "
                  f"{r['us']} us (seed {r['seed_us']} us) {r.get('host_s', '')} s", flush=True)
        tiles *= 2
    fields = ["tiles", "grid", "workload", "result", "cycles", "us", "seed_us",
              "warp_instructions", "host_s"]
    with open(os.path.join(a.out, "results.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no plot")
        return
    fig, ax = plt.subplots(figsize=(7, 4))
    colors = {"nw": "tab:red", "nw_dp": "tab:blue", "nw_tiny": "tab:green"}
    names = {"nw": "atomic-lock", "nw_dp": "data-parallel", "nw_tiny": "tiny-lock"}
    for k, w in enumerate(WORKLOADS):
        xs = [r["tiles"] * 31 for r in rows if r["workload"] == w and r["us"] != ""]
        ys = [r["us"] for r in rows if r["workload"] == w and r["us"] != ""]
        ax.plot(xs, ys, "o-", color=colors[w], label=f"simtsync {names[w]} ({w})")
        sx = [t * 31 for t in sorted(SEED_US)]
        ax.plot(sx, [SEED_US[t][k] for t in sorted(SEED_US)], "s--", color=colors[w], alpha=0.5,
                label=f"seed 001 {names[w]}")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("grid side (cells)")
    ax.set_ylabel("kernel time (µs)")
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3, which="both")
    fig.tight_layout()
    for ext in ("png", "pdf"):
        fig.savefig(os.path.join(a.out, f"time.{ext}"), dpi=130)


if __name__ == "__main__":
    main()
