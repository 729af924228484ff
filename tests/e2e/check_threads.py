#!/usr/bin/env python3
"""The parallel SM phase (issue 20) and the parallel memory phase (issue 48) give identical
results for any host thread count.

Runs each case with --threads 1, 2 and 4 and compares the exit code, the printed report and the
JSON statistics, leaving out only the host's own numbers (wall seconds, the thread count and
how many cycles ran the memory phase in parallel). Cases: synchronization workloads (a spin lock
on many SMs, shared-memory lock bits, lock instructions with lock queues, a SIMT-deadlocking
kernel the watchdog reports), barrier workloads with warp-phase statistics, the simple memory
model, and a MIMD reconvergence unit. The cases marked below must have run the memory phase in
parallel at 2 and 4 threads (JSON `memory_phases`), so that they test it.

usage: check_threads.py SIMTSYNC OUTDIR
"""
import json
import os
import re
import subprocess
import sys

CASES = [
    # (name, arguments after `run`)
    ("ht_qv100", ["ht", "--size", "test", "--config", "qv100",
                  "--set", "stats.sync_status=true"]),
    ("chan_shared", ["chan_shared", "--size", "test", "--config", "qv100"]),
    ("atm_lockinst", ["atm_lockinst", "--size", "test", "--config", "qv100"]),
    # Lock instructions whose lock queues keep their records in memory (bounded queuing: the
    # records' reads and writes go through the L2 slices) on 2 slices per channel.
    ("ht_lockinst_bounded", ["ht_lockinst", "--size", "test", "--config", "qv100",
                             "--set", "mem.lock_queue.mode=bounded",
                             "--set", "mem.l2.slices_per_partition=2"]),
    # Kernel parameters read through the constant cache: their lines run in the memory phase
    # too (qv100's 32 partitions keep a constant line in its global line's partition).
    ("vecadd_qv100", ["vecadd", "--size", "test", "--config", "qv100"]),
    ("bh_tb_bows", ["bh_tb", "--size", "test", "--config", "gtx480",
                    "--set", "sm.warp_scheduler.impl=bows"]),
    ("naive_lock_deadlock", ["naive_lock", "--size", "test", "--config", "qv100"]),
    ("sp_phases", ["sp", "--size", "test", "--config", "qv100",
                   "--set", "stats.warp_phases=true"]),
    ("pvc_mwf", ["pvc", "--size", "test", "--config", "gtx480",
                 "--set", "sm.warp_scheduler.impl=mwf_gto"]),
    ("histo_simple_mem", ["histo", "--size", "test", "--config", "qv100",
                          "--set", "mem.model=simple"]),
    ("tl_fg_mimd_aware", ["tl_fg_mimd", "--size", "test", "--config", "tesla_c2050",
                          "--set", "sm.reconvergence.impl=aware"]),
]
HOST_KEYS = {"seconds", "sim_seconds", "threads", "memory_phases"}
# Cases that must run the parallel memory phase with more than one thread (the naive lock's
# single lock word keeps too few slices busy for it).
MEMORY_PHASE = {"ht_qv100", "chan_shared", "atm_lockinst", "ht_lockinst_bounded", "vecadd_qv100",
                "bh_tb_bows"}
HOST_LINES = re.compile(r"^\s*(seconds|sim_seconds)\s")


def strip(obj):
    if isinstance(obj, dict):
        return {k: strip(v) for k, v in obj.items() if k not in HOST_KEYS}
    if isinstance(obj, list):
        return [strip(v) for v in obj]
    return obj


def run(exe, out, name, args, threads):
    js = os.path.join(out, f"{name}.t{threads}.json")
    p = subprocess.run([exe, "run", *args, "--threads", str(threads), "--json", js],
                       capture_output=True, text=True, timeout=300)
    text = "\n".join(l for l in p.stdout.splitlines() if not HOST_LINES.match(l))
    raw = json.load(open(js)) if os.path.exists(js) else None
    data = strip(raw) if raw is not None else None
    return p.returncode, text, data, (raw or {}).get("memory_phases", 0)


def main():
    exe, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    failed = 0
    for name, args in CASES:
        before = failed
        base = run(exe, out, name, args, 1)
        if base[2] is None:
            print(f"{name}: no JSON written (exit {base[0]})")
            failed += 1
            continue
        phases = []
        for t in (2, 4):
            got = run(exe, out, name, args, t)
            what = [w for w, a, b in zip(("exit code", "report", "JSON"), base[:3], got[:3])
                    if a != b]
            if what:
                print(f"{name}: --threads {t} differs from --threads 1 in: {', '.join(what)}")
                failed += 1
            phases.append(got[3])
            if name in MEMORY_PHASE and got[3] == 0:
                print(f"{name}: --threads {t} never ran the memory phase in parallel")
                failed += 1
        if failed == before:
            print(f"{name}: exit {base[0]}, cycles {base[2].get('cycles')}, identical for 1, 2 "
                  f"and 4 threads (parallel memory phases {phases[0]} and {phases[1]})")
    if failed:
        print(f"FAILED: {failed} difference(s)")
        return 1
    print("OK: every case identical for 1, 2 and 4 threads")
    return 0


if __name__ == "__main__":
    sys.exit(main())
