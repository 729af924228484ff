#!/usr/bin/env python3
"""Component probes on GPGPU-Sim 4.2 and simtsync, side by side (issue 44).

    scripts/gpgpusim/probes.py SIMTSYNC OUT.csv [--work DIR] [--configs gtx480,qv100] [--jobs N]

Builds scripts/gpgpusim/probes.cu with GPGPU-Sim's CUDA 11.8 nvcc (like build_workloads.sh: one
binary, linked against an unversioned libcudart stub, runs on both simulators), runs every probe
at two sizes N and 2N on both simulators with the settings reference.py aligns, and writes one
row per probe and config: both simulators' cycles at N and 2N, the cost of one step
((cycles(2N) - cycles(N)) / (units(2N) - units(N))) and the fixed part (cycles(N) - N x step).
The step isolates one part of the timing model (ALU latency, L1 / L2 / DRAM load-to-use, shared
memory, issue rate, barrier, atomics, streaming bandwidth); the fixed part holds the launch,
the cold instruction cache and the warm-up pass. Needs $GPGPUSIM_HOME (reference.py); without
it the script says it skipped and exits 0.
"""
import argparse
import csv
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference as r  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
# (probe, N, what one step is)
PROBES = [
    ("empty", 1, "nothing (fixed cost only)"),
    ("param", 1, "one parameter stored (fixed cost only: the empty kernel + ld.param + st.global)"),
    ("alu", 64, "one dependent add.u32 (one warp)"),
    ("straight", 32, "one independent add.u32 in straight-line code, 16 per cold 128-byte I-cache line (one thread)"),
    ("shared", 64, "one dependent ld.shared (one thread)"),
    ("l1", 64, "one dependent ld.global, L1 hit (one thread)"),
    ("l2", 64, "one dependent ld.global.cg, L2 hit (one thread)"),
    ("dram", 64, "one dependent ld.global.cg to a new line 4,224 B on (one thread)"),
    ("dram_seq", 64, "one dependent ld.global.cg to the next line, 128 B on: DRAM row hits (one thread)"),
    ("issue", 64, "one add per warp, 8 warps on every SM (cycles per warp instruction per warp)"),
    ("barrier", 32, "one bar.sync of 32 warps (one CTA of 1024 threads)"),
    ("atomic_chain", 16, "one dependent atom.global.add (one thread)"),
    ("atomic_warp", 16, "one atom.global.add of 32 lanes on one word (one warp)"),
    ("atomic_sms", 8, "one atom.global.add of 32 lanes on one word, a warp on every SM"),
    ("stream", 16, "15 CTAs x 256 threads read 4 B each, coalesced (15,360 B)"),
]


def build(work):
    home = r.gpgpusim_home()
    c = os.path.join(home, "cuda118")
    env = dict(os.environ, PATH=os.path.join(c, "bin") + ":" + os.environ.get("PATH", ""))
    os.makedirs(work, exist_ok=True)
    obj = os.path.join(work, "probes.o")
    subprocess.run(["nvcc", "-ccbin", "g++-11", "-c", "-cudart", "shared", "-O3", "-gencode",
                    "arch=compute_70,code=[sm_70,compute_70]", "--no-compress", "-o", obj,
                    os.path.join(HERE, "probes.cu")], env=env, check=True)
    syms = subprocess.run(["nm", "-u", obj], capture_output=True, text=True, check=True).stdout
    names = sorted({l.split()[-1] for l in syms.splitlines()
                    if l.split() and l.split()[-1].lstrip("_").startswith("cuda")})
    with open(os.path.join(work, "stub.c"), "w") as f:
        f.writelines(f"void {n}(void) {{}}\n" for n in names)
    subprocess.run(["gcc", "-shared", "-fPIC", "-Wl,-soname,libcudart.so.11.0", "-o",
                    os.path.join(work, "libcudart.so"), os.path.join(work, "stub.c")], check=True)
    prog = os.path.join(work, "probes")
    subprocess.run(["g++", "-o", prog, obj, "-L" + work, "-lcudart"], check=True)
    return prog


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("simtsync")
    ap.add_argument("out")
    ap.add_argument("--work", default="/tmp/simtsync-probes")
    ap.add_argument("--configs", default="gtx480,qv100")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    home = r.gpgpusim_home()
    if not os.path.exists(os.path.join(home, ".ready")):
        print(f"probes: skipped: no GPGPU-Sim at {home}")
        return 0
    simtsync = os.path.abspath(a.simtsync)
    prog = build(a.work)
    libdir = os.path.join(a.work, "lib")
    os.makedirs(libdir, exist_ok=True)
    link = os.path.join(libdir, "libcudart.so.11.0")
    if os.path.lexists(link):
        os.remove(link)
    os.symlink(os.path.join(os.path.dirname(os.path.dirname(simtsync)), "lib", "libcudart.so.13"),
               link)
    env = r.gpgpusim_env(home)
    jobs = []
    for config in a.configs.split(","):
        for probe, n, _ in PROBES:
            for k in ((1,) if probe in ("empty", "param") else (1, 2)):
                jobs.append((config, probe, n * k))

    def one(job):
        config, probe, n = job
        argv = [probe, str(n)]
        g = r.run_gpgpusim(home, env, prog, probe, "", config, "lrr", 50_000_000, 3600, argv=argv)
        s = r.run_simtsync(simtsync, libdir, prog, probe, "", config, "lrr", 50_000_000, 3600,
                           argv=argv)
        for name, x in (("gpgpusim", g), ("simtsync", s)):
            if x["rc"] != 0 or x.get("cycles") is None:
                print(f"probes: {name} {config} {probe} {n}: rc {x['rc']}: {x.get('tail', '')}",
                      file=sys.stderr)
        print(f"{config} {probe} {n}: gpgpusim {g.get('cycles')} simtsync {s.get('cycles')}",
              flush=True)
        return job, g.get("cycles"), s.get("cycles")

    with ThreadPoolExecutor(a.jobs) as ex:
        results = {job: (gc, sc) for job, gc, sc in ex.map(one, jobs)}
    rows = []
    for config in a.configs.split(","):
        for probe, n, what in PROBES:
            g1, s1 = results[(config, probe, n)]
            row = {"config": config, "probe": probe, "step": what, "n": n,
                   "gpgpusim_cycles_n": g1, "simtsync_cycles_n": s1}
            if probe not in ("empty", "param"):
                g2, s2 = results[(config, probe, 2 * n)]
                units = {"alu": 16, "issue": 8, "straight": 8}.get(probe, 1)
                for name, c1, c2 in (("gpgpusim", g1, g2), ("simtsync", s1, s2)):
                    row[f"{name}_cycles_2n"] = c2
                    if c1 is not None and c2 is not None:
                        step = (c2 - c1) / (n * units)
                        row[f"{name}_step"] = round(step, 2)
                        row[f"{name}_fixed"] = round(c1 - n * units * step, 1)
            if row.get("gpgpusim_step"):
                row["step_ratio"] = round(row["simtsync_step"] / row["gpgpusim_step"], 3)
            rows.append(row)
    cols = ["config", "probe", "step", "n", "gpgpusim_cycles_n", "gpgpusim_cycles_2n",
            "simtsync_cycles_n", "simtsync_cycles_2n", "gpgpusim_step", "simtsync_step",
            "step_ratio", "gpgpusim_fixed", "simtsync_fixed"]
    with open(a.out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols)
        w.writeheader()
        for row in rows:
            w.writerow({c: row.get(c, "") for c in cols})
    print(f"probes: wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
