#!/usr/bin/env python3
"""What each setting aligned between GPGPU-Sim 4.2 and simtsync changes (issue 44).

    scripts/gpgpusim/settings_effects.py SIMTSYNC PROGRAMS_DIR OUT.csv

Runs the standalone programs of build_workloads.sh (PROGRAMS_DIR) on both simulators with and
without each setting that scripts/gpgpusim/reference.py aligns (GPGPU-Sim's kernel launch
latency and copy-filled L2, the instruction caches), and with simtsync's L2 kept across kernel
launches or not, and writes one row per run: simulator, config, workload, settings, cycles,
DRAM reads (32-byte units), L2 hit rate, validated. Needs $GPGPUSIM_HOME (reference.py).
"""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference as r  # noqa: E402

LAUNCH0, MEMCPY0 = "-gpgpu_kernel_launch_latency 0", "-gpgpu_perf_sim_memcpy 0"
PERFECT = "-gpgpu_perfect_inst_const_cache 1"
GPGPUSIM_RUNS = [  # (config, workload, GPGPU-Sim options on top of the tested config)
    ("qv100", "vecadd", []),
    ("qv100", "vecadd", [LAUNCH0]),
    ("qv100", "vecadd", [LAUNCH0, MEMCPY0]),
    ("gtx480", "vecadd", [LAUNCH0, MEMCPY0]),
    ("gtx480", "vecadd", [LAUNCH0, MEMCPY0, PERFECT]),
]
KEEP_T, KEEP_F = "mem.l2.keep_across_launches=true", "mem.l2.keep_across_launches=false"
SIMTSYNC_RUNS = [  # (config, workload, --set values)
    ("qv100", "vecadd", []),
    ("qv100", "vecadd", ["sm.icache.perfect=true"]),
    ("gtx480", "vecadd", []),
    ("gtx480", "vecadd", ["sm.icache.perfect=true"]),
] + [("gtx480", w, [k]) for w in ("hotspot", "srad", "lud", "gaussian", "pathfinder")
     for k in (KEEP_F, KEEP_T)]
MULTI_LAUNCH = [("gtx480", w, [LAUNCH0, MEMCPY0])
                for w in ("hotspot", "srad", "lud", "gaussian", "pathfinder")]


def main():
    simtsync, programs, out = sys.argv[1:4]
    home = r.gpgpusim_home()
    if not os.path.exists(os.path.join(home, ".ready")):
        print(f"settings_effects: skipped: no GPGPU-Sim at {home}")
        return 0
    env = r.gpgpusim_env(home)
    rows = []
    for config, w, opts in GPGPUSIM_RUNS + MULTI_LAUNCH:
        g = r.run_gpgpusim(home, env, os.path.join(programs, "bin", w), w, "test", config, "lrr",
                           20_000_000, 1800, match=opts)
        rows.append(["gpgpusim", config, w, " ".join(opts) or "(tested config)", g["cycles"],
                     g["dram_reads"], g["l2_hit"], g["validated"]])
        print(rows[-1], flush=True)
    for config, w, sets in SIMTSYNC_RUNS:
        s = r.run_simtsync(simtsync, os.path.join(programs, "lib"), os.path.join(programs, "bin", w),
                           w, "test", config, "lrr", 20_000_000, 1800, match=sets)
        rows.append(["simtsync", config, w, " ".join(sets) or "(shipped config)", s.get("cycles"),
                     s.get("dram_reads"), s.get("l2_hit"), s["validated"]])
        print(rows[-1], flush=True)
    with open(out, "w", newline="") as f:
        wr = csv.writer(f)
        wr.writerow(["simulator", "config", "workload", "settings", "cycles", "dram_reads_32B",
                     "l2_hit_rate", "validated"])
        wr.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
