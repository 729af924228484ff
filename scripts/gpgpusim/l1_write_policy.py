#!/usr/bin/env python3
"""GPGPU-Sim SM7_QV100's L1 write policy on one kernel: write-through (its own setting) against
write-evict (Fermi's, and simtsync's on every config), the rest of the correlation settings
unchanged. Writes a CSV of cycles and L1 hit rate per policy.

    l1_write_policy.py OUT.csv [--workload lud] [--programs /work/gpgpusim_build]
"""
import argparse
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference as r  # noqa: E402

# SM7_QV100's -gpgpu_cache:dl1 with the write policy (second field of the second group) varied.
DL1 = "-gpgpu_cache:dl1  S:4:128:64,L:{}:m:L:L,A:512:8,16:0,32"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--workload", default="lud")
    ap.add_argument("--programs", default="/work/gpgpusim_build")
    a = ap.parse_args()
    home = r.gpgpusim_home()
    if not os.path.exists(os.path.join(home, ".ready")):
        print(f"l1_write_policy: skipped: no GPGPU-Sim at {home}")
        return 0
    env = r.gpgpusim_env(home)
    prog = os.path.join(a.programs, "bin", a.workload)
    rows = []
    for name, pol in (("write_through (SM7_QV100's own)", "T"), ("write_evict (Fermi's)", "E")):
        g = r.run_gpgpusim(home, env, prog, a.workload, "test", "qv100", "lrr", 50_000_000, 3600,
                           match=r.GPGPUSIM_MATCH + [DL1.format(pol)])
        rows.append({"workload": a.workload, "config": "SM7_QV100", "l1_write_policy": name,
                     "gpgpusim_cycles": g.get("cycles"), "gpgpusim_l1_hit": g.get("l1_hit"),
                     "validated": g.get("validated")})
        print(rows[-1], flush=True)
    with open(a.out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
