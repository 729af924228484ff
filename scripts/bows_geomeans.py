#!/usr/bin/env python3
"""Geometric means of BOWS over its base policies from recorded metrics.csv files (issue 15).

    scripts/bows_geomeans.py docs/results/bows_gtx480_paper/metrics.csv \
        docs/results/bows_tsp_paper/metrics.csv [--without nw1,nw2] [--suffix _s2]

Per kernel: BOWS(P) speedup over P (cycles of P / cycles of BOWS(P)) for P in LRR, rotating GTO
and CAWA, energy and instruction ratios against rotating GTO, the L1D transactions BOWS saves
against rotating GTO, and the base policies against each other (LRR cycles / GTO cycles: above 1
means GTO is faster). A point that stopped at the watchdog's cycle cap, or earlier at another
watchdog check (status other than ok; its cycles from the results.csv beside metrics.csv)
counts with the cycles it reached: a ratio whose numerator stopped is a lower bound (marked '>'),
one whose denominator stopped an upper bound ('<'). Geomeans for the ratios; the arithmetic mean
for the L1D saving, as the seed averages it.
"""
import argparse
import csv
import math
import os
import re
import sys


def load(paths):
    rows = {}
    for p in paths:
        reached = stopped_cycles(p)
        with open(p, newline="") as f:
            for r in csv.DictReader(f):
                if r.get("status", "ok") != "ok" and not r.get("cycles"):
                    r["cycles"] = reached.get(r["point"], "")
                rows[(r["workload"], r["policy"])] = r
    return rows


def stopped_cycles(metrics_path):
    """{point: cycles} of the stopped points in the results.csv beside `metrics_path`: metrics.csv
    leaves a stopped point's metrics empty, results.csv keeps the cycles it reached (a watchdog
    stop before the cap: starvation, no completion)."""
    path = os.path.join(os.path.dirname(metrics_path), "results.csv")
    if not os.path.exists(path):
        return {}
    with open(path, newline="") as f:
        return {r["point"]: r.get("cycles", "") for r in csv.DictReader(f)
                if r.get("status", "ok") != "ok" and r.get("cycles")}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("metrics", nargs="+")
    ap.add_argument("--without", default="", help="comma-separated workloads to leave out")
    ap.add_argument("--suffix", default="",
                    help="policy-name suffix (l2_slices: _s1 or _s2, lrr_s2 for lrr)")
    a = ap.parse_args()
    rows = load(a.metrics)
    skip = set(filter(None, a.without.split(",")))
    kernels = [w for w in dict.fromkeys(w for w, _ in rows) if w not in skip]

    def val(w, pol, key):
        r = rows.get((w, pol + a.suffix))
        if r is None:
            return None, False
        if not r.get(key):
            cap = re.search(r"cycle limit of (\d+)", r.get("reason", ""))
            if key == "cycles" and cap:  # stopped at the cap: at least that many cycles
                return float(cap.group(1)), True
            return None, False
        return float(r[key]), r["status"] != "ok"

    cols = [
        ("over LRR", lambda w: ratio(w, "lrr", "bows_lrr", "cycles")),
        ("over GTO", lambda w: ratio(w, "gto_rot", "bows_gto_rot", "cycles")),
        ("over CAWA", lambda w: ratio(w, "cawa", "bows_cawa", "cycles")),
        ("energy/GTO", lambda w: ratio(w, "gto_rot", "bows_gto_rot", "energy_j")),
        ("instr/GTO", lambda w: ratio(w, "gto_rot", "bows_gto_rot", "instructions")),
        ("LRR/GTO", lambda w: ratio(w, "lrr", "gto_rot", "cycles")),
        ("LRR/CAWA", lambda w: ratio(w, "lrr", "cawa", "cycles")),
    ]

    def ratio(w, base, other, key):
        b, b_cut = val(w, base, key)
        o, o_cut = val(w, other, key)
        if b is None or o is None or o == 0:
            return None, False
        # A stopped base point makes its ratio a lower bound; a stopped other point an upper one.
        return b / o, ">" if b_cut else "<" if o_cut else ""

    print("%-12s" % "kernel" + "".join("%12s" % c for c, _ in cols) + "%12s" % "L1D saved")
    acc = {c: [] for c, _ in cols}
    bound = {c: "" for c, _ in cols}
    l1 = []
    for w in kernels:
        line = "%-12s" % w
        for c, f in cols:
            v, cut = f(w)
            if v is None:
                line += "%12s" % "-"
                continue
            acc[c].append(v)
            bound[c] = bound[c] or cut
            line += "%12s" % ((cut + " " if cut else "") + "%.3f" % v)
        g, _ = val(w, "gto_rot", "l1_accesses")
        b, _ = val(w, "bows_gto_rot", "l1_accesses")
        if g and b is not None:
            l1.append(1 - b / g)
            line += "%11.1f%%" % (100 * (1 - b / g))
        print(line)
    line = "%-12s" % "geomean"
    for c, _ in cols:
        v = acc[c]
        s = "%.3f" % math.exp(sum(map(math.log, v)) / len(v)) if v else "-"
        line += "%12s" % ((bound[c] + " " if bound[c] else "") + s)
    if l1:
        line += "%11.1f%%" % (100 * sum(l1) / len(l1))
    print(line)
    print("(%d kernels: %s)" % (len(kernels), ", ".join(kernels)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
