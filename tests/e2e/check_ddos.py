#!/usr/bin/env python3
"""DDOS against the annotated ground truth at test size (issue 15, seed 000 sec. IV-B).

With the default parameters (XOR hashing, m = k = 8, l = 8, t = 4, no time sharing), under BOWS
over GTO:
  - every synchronization workload: no false detection (FSDR 0), and every annotated
    spin-inducing branch (kernel and PC) is confirmed on at least one SM. TSDR proper counts
    (launch, SM, branch) pairs (Table I); at test size some SMs see a SIB only a few times
    without any warp repeating a spin iteration (by_spinning 0 in its record), which no
    detector can confirm, so the pair rate is printed, not required to be 1;
  - every synchronization-free workload: no branch confirmed (FSDR 0, no annotated SIB).
TSDR and FSDR are printed per workload. Usage: check_ddos.py SIMTSYNC OUTDIR
"""
import json
import os
import subprocess
import sys

exe, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
SYNC = ["ht", "atm_simt", "cp_ds_simt", "tl_fg_simt", "tl_cg_simt", "am_fg_simt", "am_cg_simt",
        "interac", "syncval_atom_lock", "syncval_shrd_lock", "syncval_tiny_lock",
        "syncval_warp_vote", "nw", "tsp", "bh", "bh_st_simt", "apriori"]
FREE = ["kmeans", "mergesort", "heartwall", "bfs", "hotspot", "pathfinder", "backprop", "lud",
        "gaussian", "nn", "srad", "streamcluster", "vecadd"]
failures = []


def run(w):
    path = os.path.join(out, f"{w}.json")
    cmd = [exe, "run", w, "--size", "test", "--json", path,
           "--set", "sm.warp_scheduler.impl=bows"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        failures.append(f"{' '.join(cmd)}: exit {r.returncode}\n{r.stdout}{r.stderr}")
        return None
    with open(path) as f:
        return json.load(f)["stats"]["gpu"]


for w in SYNC + FREE:
    g = run(w)
    if g is None:
        continue
    d = g.get("ddos", {"tsdr": 0, "fsdr": 0, "sibs": 0, "sibs_confirmed": 0, "non_sibs": 0,
                       "non_sibs_confirmed": 0})
    rows = g.get("records", {}).get("ddos_branch", [])
    print(f"{w:18} TSDR {d['tsdr']:.3f} ({d['sibs_confirmed']}/{d['sibs']})  "
          f"FSDR {d['fsdr']:.3f} ({d['non_sibs_confirmed']}/{d['non_sibs']})")
    if d["non_sibs_confirmed"] != 0:
        failures.append(f"{w}: {d['non_sibs_confirmed']} false detections")
    if w in FREE and d["sibs"] != 0:
        failures.append(f"{w}: synchronization-free but {d['sibs']} annotated SIBs")
    if w in SYNC and d["sibs"] == 0:
        failures.append(f"{w}: no annotated SIB executed")
    sibs = {}
    for r in rows:
        if r["annotated"]:
            key = (r["kernel"], r["pc"])
            sibs[key] = sibs.get(key, False) or r["confirmed"] >= 0
    for (kernel, pc), ok in sorted(sibs.items()):
        if not ok:
            failures.append(f"{w}: annotated SIB {kernel} pc {pc:#x} confirmed on no SM")

if failures:
    print("FAILED:\n" + "\n".join(failures))
    sys.exit(1)
print("ok")
