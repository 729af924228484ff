#!/usr/bin/env python3
"""Seed 003 sec. V-B2 (Fig. 10-12): MIMD kernels on AWARE against their hand-restructured
SIMT-compliant versions and SSDE on the IPDOM stack, with independent thread scheduling as a
fourth column; AWARE's timeout sensitivity; virtualized split and reconvergence tables.

    scripts/aware_experiment.py build/tools/simtsync [--out DIR] [--jobs N] [--size S]
                                [--parts fig10,fig11,fig12] [--inputs seed] [--replot]

Every point runs on tesla_c2050 (the seed's GPGPU-Sim configuration, GLRR issue) in the timing
mode. Fig. 10: per kernel the SIMT-compliant version on the stack (the baseline), the MIMD version
with SSDE (compile.ssde=true) on the stack, on AWARE (delayed reconvergence on, timeout off: the
seed's setting) and on ITS (the MIMD versions alone on the stack SIMT-deadlock: the e2e tests and
the sync_suite experiment record that). Fig. 11: the MIMD versions on AWARE with timeouts of
1000 and 10,000 cycles, with delayed reconvergence and without it. Fig. 12: AWARE with physical ST/RT entries
32/32, 8/4, 4/2, 2/1 and 1/1. Writes results.csv and PNG plots into OUT; the README there is
written by hand from them. `--inputs seed` runs each kernel at seed 003 Table I's input where the
table states one (SEED_INPUTS; the default size elsewhere) and labels the rows' size `seed003`.
"""
import argparse
import csv
import os
import subprocess

from simtsync_runs import run_point, run_points

CONFIG = "tesla_c2050"
# (label, SIMT-compliant workload, MIMD workload); BH-FC has no synchronization to restructure.
KERNELS = [("HT", "ht", "ht_mimd"), ("ATM", "atm_simt", "atm_mimd"),
           ("CP-DS", "cp_ds_simt", "cp_ds_mimd"), ("BH-TB", "bh_tb", "bh_tb_mimd"),
           ("BH-SM", "bh_sm", "bh_sm_mimd"), ("BH-ST", "bh_st_simt", "bh_st_mimd"),
           ("BH-FC", "bh_fc", "bh_fc"), ("TL-FG", "tl_fg_simt", "tl_fg_mimd"),
           ("TL-CG", "tl_cg_simt", "tl_cg_mimd"), ("AM-FG", "am_fg_simt", "am_fg_mimd"),
           ("AM-CG", "am_cg_simt", "am_cg_mimd")]
STACK = "sm.reconvergence.impl=ipdom_stack"
AWARE = "sm.reconvergence.impl=aware"
FIG10 = [("simt_stack", "simt", [STACK]),
         ("mimd_ssde", "mimd", [STACK, "compile.ssde=true"]),
         ("mimd_aware", "mimd", [AWARE]), ("mimd_its", "mimd", ["sm.reconvergence.impl=its"])]
FIG11 = [("delayed", [AWARE])] + [
    (f"{'delayed' if d else 'ipdom'}_t{t}",
     [AWARE, f"sm.reconvergence.delayed={'true' if d else 'false'}",
      f"sm.reconvergence.timeout={t}"]) for d in (True, False) for t in (1000, 10000)]
FIG12 = [(f"st{s}_rt{r}", [AWARE, f"sm.reconvergence.st_entries={s}",
                           f"sm.reconvergence.rt_entries={r}"])
         for s, r in ((32, 32), (8, 4), (4, 2), (2, 1), (1, 1))]
# Seed 003 Table I's inputs: HT "80K entries and 40K threads" (157 x 256 threads, 2 insertions
# each: 80,384), ATM "122K transactions, 1M accounts, 24K threads" (96 x 256 threads, 5 each:
# 122,880), BarnesHut "30,000 bodies" (its four kernels), AM "133K entries" (the default n).
# CP-DS and TL state no input: the default size.
SEED_INPUTS = {
    "HT": ["workload.ctas=157", "workload.threads=256", "workload.per_thread=2"],
    "ATM": ["workload.ctas=96", "workload.threads=256", "workload.per_thread=5",
            "workload.accounts=1000000"],
    "BH-TB": ["workload.bodies=30000"], "BH-SM": ["workload.bodies=30000"],
    "BH-ST": ["workload.bodies=30000"], "BH-FC": ["workload.bodies=30000"],
    "AM-FG": ["workload.n=133000"], "AM-CG": ["workload.n=133000"],
}
# mem.l2.set_index=global reproduces the recording (made before the L2 set index fix, 2026-11-29).
# mem.atomic.l2_access=false: recorded before atomics waited the L2 access latency (2026-11-29);
# mem.const_cache.kernel_params=resident: before kernel parameters went through the constant cache;
# sm.icache.wait_for_fill=false: before a missed I-cache line made other warps wait for its fill.
COMMON = ["mem.l2.set_index=global", "mem.l2.keep_across_launches=false",
          "mem.atomic.l2_access=false", "mem.const_cache.kernel_params=resident",
          "sm.icache.wait_for_fill=false",
          "watchdog.no_completion_window=0",
          "watchdog.max_cycles=50000000"]
FIELDS = ["part", "kernel", "variant", "workload", "size", "cycles", "norm_cycles", "instructions",
          "norm_instructions", "exit_code", "validated", "note", "simd_efficiency",
          "unit_splits", "unit_fifo_switches", "unit_delayed", "unit_timeouts",
          "unit_table_bytes", "unit_st_spills", "unit_rt_spills", "mem_requests",
          "l1_misses", "mshr_fail", "stall_structural", "seconds"]


def find(j, *path, default=0):
    for k in path:
        if not isinstance(j, dict) or k not in j:
            return default
        j = j[k]
    return j


def run(simtsync, workload, size, sets):
    j, rc, out = run_point(simtsync, workload, CONFIG, size, sets + COMMON)
    fs = find(j, "stats", "func", default={})
    gpu = find(j, "stats", "gpu", default={})
    row = {"cycles": j.get("cycles", 0), "exit_code": j.get("exit_code", rc),
           "validated": j.get("validated", False), "seconds": j.get("seconds", 0),
           "instructions": fs.get("warp_instructions", 0),
           "simd_efficiency": find(gpu, "simd_efficiency"),
           "mem_requests": sum(find(gpu, "memory", "requests", default={}).values())
           if isinstance(find(gpu, "memory", "requests", default={}), dict)
           else find(gpu, "memory", "requests"),
           "mshr_fail": find(gpu, "memory", "l1", "reservation_failures"),
           "l1_misses": find(gpu, "memory", "l1", "misses"),
           "stall_structural": find(gpu, "scheduler_cycles", "structural")}
    # The unit's declared statistics (stats.func.reconvergence.stats; none on the stack), in
    # the results' unit_* columns.
    unit = find(fs, "reconvergence", "stats", default={})
    for k in ("splits", "fifo_switches", "delayed", "timeouts", "table_bytes", "st_spills",
              "rt_spills"):
        row[f"unit_{k}"] = unit.get(k, 0)
    if row["exit_code"] == 3 or "deadlock" in out or "livelock" in out:
        row["note"] = "watchdog"
    return row


def workloads_available(simtsync):
    out = subprocess.run([simtsync, "list"], capture_output=True, text=True, check=True).stdout
    return {line.split()[0] for line in out.splitlines() if line.startswith("  ") and line.split()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("simtsync")
    ap.add_argument("--out", default="docs/results/aware_mimd")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--size", default="default")
    ap.add_argument("--parts", default="fig10,fig11,fig12")
    ap.add_argument("--kernels", help="comma-separated labels (default: all); with an existing "
                    "OUT/results.csv the rows of other kernels and parts are kept")
    ap.add_argument("--inputs", choices=("size", "seed"), default="size",
                    help="seed: seed 003 Table I's inputs where it states them (SEED_INPUTS)")
    ap.add_argument("--replot", action="store_true", help="only redraw from OUT/results.csv")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, "results.csv")
    if a.replot:
        with open(path) as f:
            rows = list(csv.DictReader(f))
        plot(a.out, rows)
        return
    have = workloads_available(a.simtsync)
    wanted = a.kernels.split(",") if a.kernels else [k[0] for k in KERNELS]
    kept = []
    parts = a.parts.split(",")
    if os.path.exists(path) and (a.kernels or a.parts != "fig10,fig11,fig12"):
        with open(path) as f:
            kept = [r for r in csv.DictReader(f)
                    if r["kernel"] not in wanted or r["part"] not in parts]
    kernels = [k for k in KERNELS if k[1] in have and k[2] in have and k[0] in wanted]
    for k in KERNELS:
        if k not in kernels and k[0] in wanted:
            print(f"{k[0]}: {k[1]} or {k[2]} is not a workload of this binary: left out")
    jobs = []
    for label, simt, mimd in kernels:
        extra = SEED_INPUTS.get(label, []) if a.inputs == "seed" else []
        if "fig10" in parts:
            for v, which, sets in FIG10:
                jobs.append(("fig10", label, v, simt if which == "simt" else mimd, sets + extra))
        if "fig11" in parts:
            for v, sets in FIG11:
                jobs.append(("fig11", label, v, mimd, sets + extra))
        if "fig12" in parts:
            for v, sets in FIG12:
                jobs.append(("fig12", label, v, mimd, sets + extra))
    rows = []
    for key, r in run_points([(j[:4], (a.simtsync, j[3], a.size, j[4])) for j in jobs], run,
                             a.jobs):
        r.update(dict(zip(("part", "kernel", "variant", "workload"), key)),
                 size="seed003" if a.inputs == "seed" else a.size)
        rows.append(r)
        print(f"{key[0]} {key[1]:6} {key[2]:14} {key[3]:12} cycles {r['cycles']:>11} exit "
              f"{r['exit_code']} {r.get('note', '')} {r['seconds']:.1f}s", flush=True)
        write(path, rows + kept)  # so far: an interrupted run keeps its points
    write(path, rows + kept)
    with open(path) as f:
        plot(a.out, list(csv.DictReader(f)))


def write(path, rows):
    labels = [k[0] for k in KERNELS]
    variants = [v for v, _, _ in FIG10] + [v for v, _ in FIG11] + [v for v, _ in FIG12]
    rows = sorted(rows, key=lambda r: (r["part"], labels.index(r["kernel"]),
                                       variants.index(r["variant"])))
    base_of = {"fig10": "simt_stack", "fig11": "delayed", "fig12": "st32_rt32"}
    base = {(r["part"], r["kernel"]): r for r in rows if r["variant"] == base_of[r["part"]]}
    for r in rows:
        b = base.get((r["part"], r["kernel"]))
        ok = b and int(r["exit_code"]) == 0 and int(b["exit_code"]) == 0 and float(b["cycles"])
        r["norm_cycles"] = round(float(r["cycles"]) / float(b["cycles"]), 4) if ok else ""
        r["norm_instructions"] = round(float(r["instructions"]) / float(b["instructions"]), 4) \
            if ok and float(b["instructions"]) else ""
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)


def geomean(xs):
    xs = [float(x) for x in xs if x not in ("", None)]
    if not xs:
        return ""
    p = 1.0
    for x in xs:
        p *= x
    return round(p ** (1.0 / len(xs)), 4)


def plot(out, rows):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no plots")
        return
    for part, variants, title in (
            ("fig10", [v for v, _, _ in FIG10 if v != "simt_stack"],
             "Fig. 10: time / SIMT-compliant version on the IPDOM stack"),
            ("fig11", [v for v, _ in FIG11 if v != "delayed"],
             "Fig. 11: AWARE time / delayed reconvergence without timeout"),
            ("fig12", [v for v, _ in FIG12 if v != "st32_rt32"],
             "Fig. 12: AWARE time / 32 ST and 32 RT entries")):
        sel = [r for r in rows if r["part"] == part]
        if not sel:
            continue
        kernels = list(dict.fromkeys(r["kernel"] for r in sel))
        for metric, suffix in (("norm_cycles", "time"), ("norm_instructions", "instructions")):
            if part != "fig10" and suffix == "instructions":
                continue
            fig, ax = plt.subplots(figsize=(9, 3.6))
            width = 0.8 / len(variants)
            labels = kernels + ["geomean"]
            for k, v in enumerate(variants):
                vals, xs = [], []
                for i, kern in enumerate(kernels):
                    r = next((x for x in sel if x["kernel"] == kern and x["variant"] == v), None)
                    x = i - 0.4 + width * (k + 0.5)
                    val = r[metric] if r else ""
                    if val in ("", None):
                        capped = r and float(r["cycles"]) >= 5e7
                        ax.text(x, 1.02, ("over 50M cycles" if capped else "exit 3")
                                if r and str(r.get("exit_code")) == "3" else "n/a",
                                rotation=90, fontsize=6, ha="center", va="bottom")
                        continue
                    xs.append(x)
                    vals.append(float(val))
                g = geomean([x[metric] for x in sel if x["variant"] == v])
                if g != "":
                    xs.append(len(kernels) - 0.4 + width * (k + 0.5))
                    vals.append(g)
                ax.bar(xs, vals, width, label=v)
            ax.axhline(1.0, color="black", lw=0.8)
            ax.set_yscale("log")
            ax.set_xticks(range(len(labels)))
            ax.set_xticklabels(labels, rotation=20, fontsize=8)
            ax.set_ylabel(f"{suffix}, normalized")
            ax.set_title(title if suffix == "time" else
                         "Fig. 10b: dynamic instructions / SIMT-compliant version", fontsize=9)
            ax.legend(fontsize=7, ncol=3)
            fig.tight_layout()
            fig.savefig(os.path.join(out, f"{part}_{suffix}.png"), dpi=120)
            plt.close(fig)


if __name__ == "__main__":
    main()
