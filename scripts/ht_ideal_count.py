#!/usr/bin/env python3
"""Seed 000 Fig. 16b's "Ideal Block Inst. Count" from the recorded ht_contention_ideal sweep:

    scripts/ht_ideal_count.py [--results docs/results/ht_contention_ideal]

Reads metrics.csv (written by `simtsync report ht_contention_ideal`) and writes ideal.csv, one
row per bucket count, and prints it as a Markdown table. Per bucket count:
- lrr_*, bows_*: ht's warp / thread instructions under LRR and BOWS over LRR;
- ideal_*_lrr, ideal_*_bows: the same minus the lock-retry instructions of that run (the
  instructions of failed lock-loop iterations, stats.gpu.sync_status.lock_retry_*): ht with
  every lock taken on its first attempt. Warp figures are an upper bound on the ideal count
  (a warp pass in which some lanes took their lock counts as useful), thread figures exact;
- lockq_*: ht_lockinst (seed 004's lock instructions) with the ideal lock queue, where no
  thread retries; lockinst_*: the same kernel without the queue;
- savings ratios: LRR / ideal (what an ideal queuing lock saves over LRR), BOWS / ideal (the
  overhead of BOWS against it, the gap between Fig. 16b's two curves) and LRR / BOWS.
Python 3 standard library only; no simulator run.
"""
import argparse
import csv
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fmt(spec, x):
    """`spec` applied to x, or '-' where the point was not run."""
    return "-" if x is None else spec.format(x)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--results", default=os.path.join(ROOT, "docs", "results",
                                                       "ht_contention_ideal"))
    a = ap.parse_args()
    with open(os.path.join(a.results, "metrics.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    by = {}
    for r in rows:
        if r["status"] != "ok":
            sys.exit(f"{r['point']}: status {r['status']} ({r['reason']})")
        by[(r["workload"], r["policy"], int(r["workload.buckets"]))] = r
    out = []
    for b in sorted({k[2] for k in by}):
        def v(w, p, m):
            r = by.get((w, p, b))
            return float(r[m]) if r is not None and r.get(m, "") != "" else None

        def div(x, y):
            return x / y if x is not None and y else None

        def sub(x, y):
            return x - y if x is not None and y is not None else None
        o = {"buckets": b}
        for tag, pol in (("lrr", "lrr"), ("bows", "bows_lrr")):
            o[f"{tag}_warp"] = v("ht", pol, "instructions")
            o[f"{tag}_thread"] = v("ht", pol, "thread_instructions")
            o[f"{tag}_retry_warp"] = v("ht", pol, "retry_warp")
            o[f"{tag}_retry_thread"] = v("ht", pol, "retry_thread")
            o[f"ideal_warp_{tag}"] = sub(o[f"{tag}_warp"], o[f"{tag}_retry_warp"])
            o[f"ideal_thread_{tag}"] = sub(o[f"{tag}_thread"], o[f"{tag}_retry_thread"])
        # The ideal thread count does not depend on the scheduler: BOWS's where LRR is absent.
        ideal_t = o["ideal_thread_lrr"] if o["ideal_thread_lrr"] is not None else \
            o["ideal_thread_bows"]
        o["lockq_warp"] = v("ht_lockinst", "lrr_lockq", "instructions")
        o["lockq_thread"] = v("ht_lockinst", "lrr_lockq", "thread_instructions")
        o["lockinst_warp"] = v("ht_lockinst", "lrr", "instructions")
        o["lockinst_thread"] = v("ht_lockinst", "lrr", "thread_instructions")
        o["lrr_over_ideal_warp"] = div(o["lrr_warp"], o["ideal_warp_lrr"])
        o["lrr_over_ideal_thread"] = div(o["lrr_thread"], ideal_t)
        o["bows_over_ideal_thread"] = div(o["bows_thread"], ideal_t)
        o["bows_over_ideal_warp"] = div(o["bows_warp"], o["ideal_warp_lrr"])
        o["lrr_over_bows_warp"] = div(o["lrr_warp"], o["bows_warp"])
        o["lrr_over_lockq_warp"] = div(o["lrr_warp"], o["lockq_warp"])
        o["bows_over_lockq_warp"] = div(o["bows_warp"], o["lockq_warp"])
        out.append(o)
    with open(os.path.join(a.results, "ideal.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(out[0]))
        w.writeheader()
        for o in out:
            w.writerow({k: ("" if x is None else int(x) if isinstance(x, float) and
                            x.is_integer() else "%.6g" % x if isinstance(x, float) else x)
                        for k, x in o.items()})
    print("| buckets | LRR | BOWS | ideal (LRR - retries) | ideal (BOWS - retries) | "
          "ht_lockinst + ideal queue | LRR / ideal | BOWS / ideal | LRR / BOWS | "
          "LRR / queue |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")  # warp instructions
    for o in out:
        print("| {:,} | ".format(o["buckets"]) + " | ".join(
            [fmt("{:,.0f}", o[k]) for k in ("lrr_warp", "bows_warp", "ideal_warp_lrr",
                                            "ideal_warp_bows", "lockq_warp")] +
            [fmt("{:.2f}x", o[k]) for k in ("lrr_over_ideal_warp", "bows_over_ideal_warp",
                                            "lrr_over_bows_warp", "lrr_over_lockq_warp")]) +
            " |")
    print()
    print("| buckets | LRR | BOWS | ideal (LRR - retries) | ideal (BOWS - retries) | "
          "ht_lockinst + ideal queue | ht_lockinst, no queue | LRR / ideal | BOWS / ideal |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for o in out:
        print("| {:,} | ".format(o["buckets"]) + " | ".join(
            [fmt("{:,.0f}", o[k]) for k in ("lrr_thread", "bows_thread", "ideal_thread_lrr",
                                            "ideal_thread_bows", "lockq_thread",
                                            "lockinst_thread")] +
            [fmt("{:.2f}x", o[k]) for k in ("lrr_over_ideal_thread",
                                            "bows_over_ideal_thread")]) + " |")

if __name__ == "__main__":
    main()
