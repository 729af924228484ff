#!/usr/bin/env python3
"""Seed 004 ch. 9 (future work): try-lock instructions (sec. 9.2.2) and a finite reconvergence
stack whose entries spill to memory (sec. 7.3), on the lock-instruction workloads.

    scripts/lock_future_work_experiment.py build/tools/simtsync [--out DIR] [--jobs N] [--quick]

Part 1, try-locks (what they change in Fig. 7.1-7.3 and Table 7.1): for each config (fx5800,
the thesis's Table 6.1 machine; gtx480) BarnesHut tree building at the bodies of
docs/results/lock_instructions and ht run as the atomic original, with the blocking lock
instruction (Example 18), with it and ideal lock queuing (Fig. 7.3, Table 7.1), and with the
try-lock instruction at 1 attempt (the original's single atomicCAS) and 4 attempts. Writes the
cycles over the atomic original, the share of critical sections that inserted nothing (Fig.
7.2), lock and unlock writes, the try-lock statistics and the queue storage.

Part 2, a finite lock stack: every lock-instruction workload on fx5800 with
sm.reconvergence.stack_entries = 0 (unbounded), 32, 16, 8, 4 and 2: cycles over unbounded,
spills, fills, bytes, fill stall cycles and the deepest stack.

fx5800 runs pin the model of docs/results/lock_instructions (simtsync_runs.OLD_MODEL), so its
numbers sit beside that recording (its fx5800 rows reproduce exactly); gtx480 runs today's
model, because under the pinned one ht_trylock starves on gtx480 (README). Writes trylock.csv
and stack.csv to OUT.
"""
import argparse
import csv
import os

from simtsync_runs import OLD_MODEL, run_point, run_points

CONFIGS = ["fx5800", "gtx480"]
BH_BODIES = [4096, 16384, 30000, 50000, 100000, 200000]
GTX480_BODIES = [4096, 16384, 30000, 50000]  # the larger inputs on fx5800 only
PINS = {"fx5800": OLD_MODEL, "gtx480": []}
QUICK_BODIES = [512]
RECORD_BYTES = 8  # a queue record: thread id + next pointer (sec. 7.3)
TRY_VARIANTS = [("atomic", None, []), ("lockinst", "lockinst", []),
                ("lockinst_ideal", "lockinst", ["mem.lock_queue.mode=ideal"]),
                ("trylock1", "trylock", ["workload.attempts=1"]),
                ("trylock4", "trylock", ["workload.attempts=4"])]
DEPTHS = [0, 32, 16, 8, 4, 2]
STACK_WORKLOADS = [("apriori", "apriori_lockinst", []), ("interac", "interac_lockinst", []),
                   ("ht", "ht_lockinst", []), ("atm", "atm_lockinst", []),
                   ("BarnesHut-4096", "bh_tb_lockinst", ["workload.bodies=4096"]),
                   ("BarnesHut-4096 trylock1", "bh_tb_trylock", ["workload.bodies=4096"]),
                   ("ht trylock1", "ht_trylock", [])]


# gtx480's ht_trylock with 4 attempts livelocks at default size (README): stopped at 3 M cycles.
CAPS = {("gtx480", "ht_trylock"): ["watchdog.max_cycles=3000000"]}
# docs/results/lock_instructions's variant names for the rows --reuse takes from its CSV.
RECORDED = {"atomic": "atomic", "lockinst": "lockinst", "lockinst_ideal": "ideal"}


def run(simtsync, workload, config, size, sets):
    sets = sets + CAPS.get((config, workload), [])
    j, rc, out = run_point(simtsync, workload, config, size, sets + PINS[config])
    fs = j["stats"].get("func", {})
    rs = fs.get("reconvergence", {}).get("stats", {})
    lq = j["stats"].get("gpu", {}).get("memory", {}).get("lock_queue", {})
    row = {"cycles": j.get("cycles", 0), "exit_code": j.get("exit_code", rc),
           "validated": j.get("validated", False), "seconds": round(j.get("seconds", 0), 1),
           "lock_requests": fs.get("lock_requests", 0),
           "unlock_requests": fs.get("unlock_requests", 0),
           "lock_retries": fs.get("lock_retries", 0), "cas_attempts": fs.get("cas_attempts", 0),
           "queued_records": lq.get("created", 0) + lq.get("parked", 0),
           "parked": lq.get("parked", 0)}
    for k in ("lock_entry_pushes", "try_lock_instructions", "try_lock_attempts",
              "try_lock_acquired", "try_lock_failed", "try_lock_retries", "stack_spills",
              "stack_fills", "stack_memory_bytes", "stack_fill_stall_cycles", "stack_max_depth"):
        row[k] = rs.get(k, 0)
    notes = dict(n.split("=", 1) for n in j.get("notes", []) if "=" in n)
    if "critical_sections" in notes:
        row["critical_sections"] = int(notes["critical_sections"])
        row["wasteful"] = int(notes["critical_sections_no_insert"])
    if "deadlock" in out or "livelock" in out or row["exit_code"] == 3:
        row["note"] = "watchdog"
    return row


def write(path, rows, fields):
    with open(path, "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        wr.writeheader()
        wr.writerows(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("simtsync")
    ap.add_argument("--out", default="docs/results/lock_future_work")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--quick", action="store_true", help="test size, small BarnesHut")
    ap.add_argument("--part", choices=["trylock", "stack", "both"], default="both")
    ap.add_argument("--reuse", metavar="CSV",
                    help="take fx5800's atomic, lockinst and lockinst_ideal rows from "
                    "docs/results/lock_instructions/results.csv (same model, same cycles) instead "
                    "of running them")
    a = ap.parse_args()
    size = "test" if a.quick else "default"
    os.makedirs(a.out, exist_ok=True)
    bodies = QUICK_BODIES if a.quick else BH_BODIES

    if a.part in ("trylock", "both"):
        jobs = []
        for c in CONFIGS:
            cb = bodies if c == "fx5800" or a.quick else GTX480_BODIES
            benches = [("ht", "ht", "ht_", [])] + [
                (f"BarnesHut-{b}", "bh_tb", "bh_tb_", [f"workload.bodies={b}"]) for b in cb]
            for label, atomic, prefix, sets in benches:
                for v, kind, vs in TRY_VARIANTS:
                    w = atomic if kind is None else prefix + kind
                    jobs.append((c, label, v, w, sets + vs))
        rows = []
        if a.reuse:
            with open(a.reuse) as f:
                rec = {(r["config"], r["benchmark"], r["variant"]): r for r in csv.DictReader(f)}
            keep = []
            for c, l, v, w, s in jobs:
                old = rec.get((c, l, RECORDED.get(v, ""))) if c == "fx5800" else None
                if old is None:
                    keep.append((c, l, v, w, s))
                    continue
                r = {k: old.get(k, "") for k in ("cycles", "exit_code", "lock_requests",
                                                  "unlock_requests", "lock_retries",
                                                  "cas_attempts", "parked", "seconds")}
                r = {k: int(float(x)) if x not in ("", None) else 0 for k, x in r.items()}
                r["validated"] = old["validated"]
                r["queued_records"] = int(old["queued_records"] or 0)
                if old.get("critical_sections"):
                    r["critical_sections"] = int(old["critical_sections"])
                    r["wasteful"] = int(old["wasteful"])
                r.update({"config": c, "benchmark": l, "variant": v, "workload": w,
                          "note": "from lock_instructions/results.csv"})
                rows.append(r)
            jobs_run = keep
        else:
            jobs_run = jobs
        for (c, l, v, w), r in run_points([((c, l, v, w), (a.simtsync, w, c, size, s))
                                            for c, l, v, w, s in jobs_run], run, a.jobs):
            r.update({"config": c, "benchmark": l, "variant": v, "workload": w})
            rows.append(r)
            print(f"{c:7} {l:18} {v:15} cycles {r['cycles']:>10} exit {r['exit_code']}",
                  flush=True)
        order = {(c, l, v): i for i, (c, l, v, _, _) in enumerate(jobs)}
        rows.sort(key=lambda r: order[(r["config"], r["benchmark"], r["variant"])])
        base = {(r["config"], r["benchmark"]): r for r in rows if r["variant"] == "atomic"}
        for r in rows:
            b = base[(r["config"], r["benchmark"])]
            ok = r["exit_code"] == 0 and b["exit_code"] == 0 and b["cycles"]
            r["normalized_cycles"] = round(r["cycles"] / b["cycles"], 3) if ok else ""
            cs = r.get("critical_sections")
            r["wasteful_share"] = round(r["wasteful"] / cs, 4) if cs else ""
            r["writes"] = r["lock_requests"] + r["unlock_requests"]
            r["queue_storage_mb"] = round(r["queued_records"] * RECORD_BYTES / 1e6, 4)
        for r in rows:
            r["model"] = "pinned (lock_instructions)" if r["config"] == "fx5800" else "current"
        write(os.path.join(a.out, "trylock.csv"), rows,
              ["config", "model", "benchmark", "variant", "workload", "cycles", "normalized_cycles",
               "exit_code", "validated", "note", "critical_sections", "wasteful",
               "wasteful_share", "writes", "lock_requests", "unlock_requests", "lock_retries",
               "cas_attempts", "lock_entry_pushes", "try_lock_instructions",
               "try_lock_attempts", "try_lock_acquired", "try_lock_failed", "try_lock_retries",
               "queued_records", "queue_storage_mb", "seconds"])

    if a.part in ("stack", "both"):
        jobs = []
        for label, w, sets in STACK_WORKLOADS:
            if a.quick and label.startswith("BarnesHut"):
                sets = [f"workload.bodies={QUICK_BODIES[0]}"]
            for d in DEPTHS:
                jobs.append(("fx5800", label, d, w, sets + [f"sm.reconvergence.stack_entries={d}"]))
        rows = []
        for (c, l, d, w), r in run_points([((c, l, d, w), (a.simtsync, w, c, size, s))
                                            for c, l, d, w, s in jobs], run, a.jobs):
            r.update({"config": c, "benchmark": l, "stack_entries": d, "workload": w})
            rows.append(r)
            print(f"{c:7} {l:24} entries {d:>3} cycles {r['cycles']:>10} spills "
                  f"{r['stack_spills']:>8} exit {r['exit_code']}", flush=True)
        order = {(l, d): i for i, (_, l, d, _, _) in enumerate(jobs)}
        rows.sort(key=lambda r: order[(r["benchmark"], r["stack_entries"])])
        base = {r["benchmark"]: r for r in rows if r["stack_entries"] == 0}
        for r in rows:
            b = base[r["benchmark"]]
            ok = r["exit_code"] == 0 and b["exit_code"] == 0 and b["cycles"]
            r["cycles_over_unbounded"] = round(r["cycles"] / b["cycles"], 4) if ok else ""
        write(os.path.join(a.out, "stack.csv"), rows,
              ["config", "benchmark", "workload", "stack_entries", "cycles",
               "cycles_over_unbounded", "exit_code", "validated", "note", "stack_max_depth",
               "stack_spills", "stack_fills", "stack_memory_bytes", "stack_fill_stall_cycles",
               "lock_entry_pushes", "seconds"])


if __name__ == "__main__":
    main()
