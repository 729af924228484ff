#!/usr/bin/env python3
"""Correlates simulated with native kernel time (issue 21), or with GPGPU-Sim 4.2's cycles
(issue 44, `--reference gpgpusim`: scripts/gpgpusim/reference.py), as Accel-Sim reports it.

    scripts/correlate.py build/tools/simtsync --reference gpgpusim [--configs gtx480,qv100]
                         [--schedulers lrr,gto] [--size test] [--jobs N] [--workloads ...]
                         [--out docs/results/correlation_gpgpusim]

    scripts/correlate.py build/tools/simtsync [--config h100] [--size default] [--jobs N]
                         [--workloads w1,w2,...] [--out docs/correlation.md]

For each workload (default: the synchronization-free and barrier-intensive suites, plus the
synchronization workloads that finish on GPUs with independent thread scheduling) it runs
`simtsync run W --backend native` (the kernels on this machine's NVIDIA GPU, kernel time from
driver events) and `simtsync run W --config CONFIG` (the simulator; time = cycles / core clock),
both validated, and writes a markdown table: per workload both times and their ratio, then the
Pearson correlation coefficient of the two times across workloads (linear and of their logs)
and the mean absolute relative error. Needs a GPU and its driver (SIMTSYNC_CUDA_DRIVER selects
another driver library, e.g. the test suite's fake one, to try the script without a GPU).
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "gpgpusim"))
import reference  # noqa: E402  (GPGPU-Sim as the reference; also pearson())
from reference import pearson  # noqa: E402

SUITES = ("synchronization-free", "barrier-intensive")
# Synchronization workloads written for GPUs with independent thread scheduling (their spin
# loops need no SIMT-safe form) that finish there; the *_mimd forms deadlock only under IPDOM.
SYNC_ITS = ["ht_mimd", "atm_mimd", "cp_ds_mimd", "bh_tb_mimd", "tl_fg_mimd", "am_fg_mimd"]


def workloads_of(binary):
    out = subprocess.run([binary, "list"], capture_output=True, text=True, check=True).stdout
    suite, names = None, []
    for line in out.splitlines():
        if line.endswith("workloads:"):
            suite = line[: -len(" workloads:")]
        elif line.startswith("  ") and suite in SUITES and not line.startswith("   "):
            names.append(line.split()[0])
        elif not line.startswith(" "):
            suite = None if not line.endswith("workloads:") else suite
    return names + SYNC_ITS


def run(binary, workload, size, extra):
    with tempfile.TemporaryDirectory() as tmp:
        js = os.path.join(tmp, "r.json")
        p = subprocess.run([binary, "run", workload, "--size", size, "--json", js, *extra],
                           capture_output=True, text=True)
        if p.returncode != 0 or not os.path.exists(js):
            return None, (p.stderr.strip() or p.stdout.strip()).splitlines()[-1:] or ["?"]
        with open(js) as f:
            return json.load(f), None



def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("simtsync")
    ap.add_argument("--reference", choices=("native", "gpgpusim"), default="native",
                    help="native: this machine's GPU; gpgpusim: GPGPU-Sim 4.2 "
                         "(scripts/gpgpusim/reference.py)")
    ap.add_argument("--configs", default="gtx480,qv100", help="gpgpusim: simtsync configs")
    ap.add_argument("--schedulers", default="lrr,gto", help="gpgpusim: issue policies")
    ap.add_argument("--programs", default="", help="gpgpusim: build_workloads.sh's output")
    ap.add_argument("--max-cycles", type=int, default=20_000_000, help="gpgpusim: cycle cap")
    ap.add_argument("--timeout", type=int, default=1800, help="gpgpusim: seconds per run")
    ap.add_argument("--force", action="store_true", help="gpgpusim: re-run recorded points")
    ap.add_argument("--refresh-simtsync", action="store_true",
                    help="gpgpusim: run simtsync again on recorded points (GPGPU-Sim's kept)")
    ap.add_argument("--perfect-icache", action="store_true",
                    help="gpgpusim: both simulators with a perfect instruction cache (a diagnostic)")
    ap.add_argument("--config", default="h100")
    ap.add_argument("--size", default="default")
    ap.add_argument("--jobs", type=int, default=1, help="parallel simulator runs")
    ap.add_argument("--workloads", default="")
    ap.add_argument("--out", default="")
    a = ap.parse_args()
    if a.reference == "gpgpusim":
        if a.size == "default" and "--size" not in sys.argv:
            a.size = "test"
        return reference.main(a)
    names = a.workloads.split(",") if a.workloads else workloads_of(a.simtsync)
    # Native runs one at a time (they share the GPU); simulations in parallel.
    native = {w: run(a.simtsync, w, a.size, ["--backend", "native"]) for w in names}
    with ThreadPoolExecutor(max_workers=a.jobs) as ex:
        sims = dict(zip(names, ex.map(lambda w: run(a.simtsync, w, a.size,
                                                     ["--config", a.config]), names)))
    rows, xs, ys = [], [], []
    for w in names:
        (nj, nerr), (sj, serr) = native[w], sims[w]
        if nj is None or sj is None:
            rows.append(f"| {w} | - | - | - | failed: {(nerr or serr)[0]} |")
            continue
        hw_ms = nj["native"]["kernel_ms"]
        # Simulated time: cycles at the config's core clock (the energy model's `seconds`).
        sim_ms = 1000.0 * sj["stats"]["gpu"]["energy"]["seconds"]
        ratio = sim_ms / hw_ms if hw_ms > 0 else float("nan")
        rows.append(f"| {w} | {hw_ms:.4f} | {sim_ms:.4f} | {ratio:.2f} | {nj['native']['device']} |")
        if hw_ms > 0 and sim_ms > 0:
            xs.append(hw_ms)
            ys.append(sim_ms)
    r = pearson(xs, ys)
    rlog = pearson([math.log(x) for x in xs], [math.log(y) for y in ys]) if xs else float("nan")
    mare = sum(abs(y - x) / x for x, y in zip(xs, ys)) / len(xs) if xs else float("nan")
    text = (f"| workload | native kernel ms | simulated ms ({a.config}) | sim / native | device |\n"
            "|---|---:|---:|---:|---|\n" + "\n".join(rows) +
            f"\n\nKernels compared: {len(xs)}. Pearson correlation of kernel time: {r:.3f} "
            f"(of log time: {rlog:.3f}); mean absolute relative error: {100 * mare:.1f}%.\n"
            f"Command: `scripts/correlate.py {a.simtsync} --config {a.config} --size {a.size}`\n")
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    return 0 if xs else 1


if __name__ == "__main__":
    sys.exit(main())
