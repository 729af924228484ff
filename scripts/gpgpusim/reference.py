"""GPGPU-Sim 4.2 as the reference of scripts/correlate.py (`--reference gpgpusim`).

Every workload whose kernels GPGPU-Sim can run is built once, by build_workloads.sh, into a
standalone CUDA program with GPGPU-Sim's CUDA 11.8 nvcc (the workload's own host driver, inputs
and validation; its kernels compiled for compute_70). The same program then runs
  - on GPGPU-Sim 4.2: its libcudart, `SM2_GTX480` or `SM7_QV100` from its tested configs, with
    only the scheduler (`-gpgpu_scheduler lrr|gto`) and a cycle cap changed; and
  - on simtsync: `simtsync exec --config gtx480|qv100 --set sm.warp_scheduler.impl=lrr|gto`,
so both simulators execute the same PTX on the same inputs and both validate the result.

Per point it records cycles, warp instructions, L1D and L2 hit rates and DRAM reads of both
simulators; across workloads the mean absolute relative error of cycles and the Pearson
correlation of cycles and of their logarithms, as Accel-Sim reports its accuracy. Each finished
point is kept in OUT/points/ so an interrupted run resumes where it stopped.

Nothing of GPGPU-Sim is part of simtsync: it is found at $GPGPUSIM_HOME (default
~/.cache/gpgpusim-4.2, built by the side-by-side tool's setup.sh); without it the run is skipped
with a message.
"""
import csv
import glob
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SUITES = ("synchronization-free", "barrier-intensive", "synchronization", "microbenchmark")
# The target group of issue 44: kernels without fine-grained synchronization.
TARGET_SUITES = ("synchronization-free", "barrier-intensive")
GPGPUSIM_CONFIG = {"gtx480": "SM2_GTX480", "qv100": "SM7_QV100"}
# Settings that make the two models count the same thing (docs/results/correlation_gpgpusim):
# - simtsync models no kernel launch latency: GPGPU-Sim's (5000 cycles per launch on SM7_QV100,
#   counted before the first CTA starts) is set to 0, so both count the kernels' execution;
# - simtsync does not fill the L2 with the data of a host-to-device copy: GPGPU-Sim's
#   -gpgpu_perf_sim_memcpy (on in both tested configs) is turned off, so both start cold.
GPGPUSIM_MATCH = ["-gpgpu_kernel_launch_latency 0", "-gpgpu_perf_sim_memcpy 0"]
# SM7_QV100 has a perfect instruction and constant cache (-gpgpu_perfect_inst_const_cache 1);
# simtsync's qv100 misses in its I-cache and (kernel parameters included) its constant cache
# through the hierarchy unless told otherwise.
PERFECT_INST_CONST = ["sm.icache.perfect=true", "mem.const_cache.perfect=true"]
SIMTSYNC_MATCH = {"gtx480": [], "qv100": PERFECT_INST_CONST}
COLUMNS = ("workload", "suite", "module", "size", "config", "scheduler", "status",
           "gpgpusim_cycles", "simtsync_cycles", "cycle_ratio",
           "gpgpusim_warp_insts", "simtsync_warp_insts",
           "gpgpusim_l1_hit", "simtsync_l1_hit", "gpgpusim_l2_hit", "simtsync_l2_hit",
           "gpgpusim_dram_reads", "simtsync_dram_reads",
           "gpgpusim_validated", "simtsync_validated")


def gpgpusim_home():
    return os.environ.get("GPGPUSIM_HOME", os.path.expanduser("~/.cache/gpgpusim-4.2"))


def workloads_by_suite(simtsync):
    out = subprocess.run([simtsync, "list"], capture_output=True, text=True, check=True).stdout
    suite, rows = None, []
    for line in out.splitlines():
        m = re.match(r"^(\S.*) workloads:\s*$", line)
        if m:
            suite = m.group(1)
        elif not line.startswith(" "):
            suite = None
        elif suite in SUITES and line.startswith("  ") and not line.startswith("   "):
            rows.append((line.split()[0], suite))
    return rows


def module_of_kernel():
    """Kernel entry name -> module (the .cu/.ptx file's name) over the committed PTX."""
    table = {}
    for ptx in sorted(glob.glob(os.path.join(ROOT, "workloads", "*", "*.ptx"))):
        base = os.path.splitext(os.path.basename(ptx))[0]
        with open(ptx, errors="replace") as f:
            for m in re.finditer(r"\.entry\s+([A-Za-z_0-9]+)", f.read()):
                table.setdefault(m.group(1), base)
    return table


def gpgpusim_env(home):
    p = subprocess.run(["bash", "-c", f"set +eu; source {home}/env.sh >/dev/null 2>&1; env -0"],
                       capture_output=True, check=True)
    env = {}
    for item in p.stdout.split(b"\0"):
        if b"=" in item:
            k, v = item.split(b"=", 1)
            env[k.decode()] = v.decode()
    return env


def last_number(text, key):
    found = re.findall(re.escape(key) + r"\s*=\s*(-?[0-9.]+)", text)
    return float(found[-1]) if found else None


def dram_reads(text):
    """DRAM read commands (32-byte accesses) over every channel: the n_rd of the last block of
    per-channel DRAM statistics (`total dram reads` is 0 on SM2_GTX480 whatever was read)."""
    m = re.search(r"^-gpgpu_n_mem\s+(\d+)", text, re.M)
    n_mem = int(m.group(1)) if m else None
    reads = [int(x) for x in re.findall(r"\bn_rd=(\d+)", text)]
    if not n_mem or len(reads) < n_mem:
        return None
    return sum(reads[-int(n_mem):])


def run_timed(cmd, cwd, env, timeout):
    """Runs cmd; returns (returncode or 'timeout', stdout+stderr)."""
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                           errors="replace", timeout=timeout)
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        return "timeout", out


def run_gpgpusim(home, env, program, workload, size, config, scheduler, max_cycles, timeout,
                 perfect_icache=False, match=None, argv=None):
    src = os.path.join(home, "gpgpu-sim", "configs", "tested-cfgs", GPGPUSIM_CONFIG[config])
    with tempfile.TemporaryDirectory(prefix="gpgpusim-") as d:
        for f in os.listdir(src):
            if f.endswith((".config", ".icnt", ".xml")):
                shutil.copy(os.path.join(src, f), d)
        cfg = os.path.join(d, "gpgpusim.config")
        with open(cfg) as f:
            lines = [l for l in f if "gpuwattch_xml_file" not in l]  # 4.2 names it accelwattch
        lines += [f"\n-gpgpu_scheduler {scheduler}\n", "-power_simulation_enabled 0\n",
                  f"-gpgpu_max_cycle {max_cycles}\n"]
        lines += [o + "\n" for o in (GPGPUSIM_MATCH if match is None else match)]
        if perfect_icache:
            lines.append("-gpgpu_perfect_inst_const_cache 1\n")
        if config == "gtx480":  # the kernels are compute_70 (CUDA 11.8 has no sm_20)
            lines.append("-gpgpu_ptx_force_max_capability 70\n")
        with open(cfg, "w") as f:
            f.writelines(lines)
        rc, out = run_timed([program, *(argv or [workload, "--size", size])], d, env, timeout)
    r = {"rc": rc, "validated": "VALIDATED:" in out,
         "cycles": last_number(out, "gpu_tot_sim_cycle"),
         "warp_insts": last_number(out, "gpgpu_n_tot_w_icount"),
         "dram_reads": dram_reads(out)}
    l1 = last_number(out, "L1D_total_cache_miss_rate")
    l2 = last_number(out, "L2_total_cache_miss_rate")
    r["l1_hit"] = None if l1 is None else round(1 - l1, 4)
    r["l2_hit"] = None if l2 is None else round(1 - l2, 4)
    if rc != 0 or not r["validated"]:
        r["tail"] = out[-600:]
    return r


def run_simtsync(simtsync, libdir, program, workload, size, config, scheduler, max_cycles, timeout,
                 perfect_icache=False, match=None, argv=None):
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = libdir + (":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
    with tempfile.TemporaryDirectory(prefix="simtsync-") as d:
        js = os.path.join(d, "out.json")
        sets = [f"sm.warp_scheduler.impl={scheduler}", f"watchdog.max_cycles={max_cycles}"]
        sets += SIMTSYNC_MATCH[config] if match is None else match
        if perfect_icache:
            sets += [kv for kv in PERFECT_INST_CONST if kv not in sets]
        cmd = [simtsync, "exec", "--config", config, *[x for kv in sets for x in ("--set", kv)],
               "--json", js, "--", program, *(argv or [workload, "--size", size])]
        rc, out = run_timed(cmd, d, env, timeout)
        j = None
        if os.path.exists(js):
            with open(js) as f:
                j = json.load(f)
    r = {"rc": rc, "validated": "VALIDATED:" in out}
    if j:
        g = j["stats"]["gpu"]
        m = g.get("memory", {})
        r.update(cycles=j.get("cycles"), warp_insts=g.get("warp_instructions"),
                 l1_hit=round(m.get("l1", {}).get("hit_rate", 0), 4) if m else None,
                 l2_hit=round(m.get("l2", {}).get("hit_rate", 0), 4) if m else None,
                 # in 32-byte accesses, GPGPU-Sim's DRAM unit (simtsync counts requests
                 # of up to a 128-byte line)
                 dram_reads=m.get("dram", {}).get("read_bytes", 0) // 32 if m else None)
    if rc != 0 or not r["validated"]:
        r["tail"] = out[-600:]
    return r


def uses_clock64(module):
    for ptx in glob.glob(os.path.join(ROOT, "workloads", "*", module + ".ptx")):
        with open(ptx, errors="replace") as f:
            if "%clock64" in f.read():
                return True
    return False


def point_key(w, config, scheduler):
    return f"{w}.{config}.{scheduler}"


def fmt_num(x):
    if x is None:
        return ""
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    return str(x)


def pearson(xs, ys):
    n = len(xs)
    if n < 2:
        return float("nan")
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sx = math.sqrt(sum((x - mx) ** 2 for x in xs))
    sy = math.sqrt(sum((y - my) ** 2 for y in ys))
    return sxy / (sx * sy) if sx and sy else float("nan")


def summarize(rows):
    """MAE and correlations over the rows both simulators validated."""
    xs = [float(r["gpgpusim_cycles"]) for r in rows]
    ys = [float(r["simtsync_cycles"]) for r in rows]
    if not xs:
        return {"n": 0}
    return {"n": len(xs),
            "mae": sum(abs(y - x) / x for x, y in zip(xs, ys)) / len(xs),
            "r": pearson(xs, ys),
            "rlog": pearson([math.log(x) for x in xs], [math.log(y) for y in ys]),
            "within25": sum(1 for x, y in zip(xs, ys) if abs(y / x - 1) <= 0.25)}


def write_outputs(out_dir, rows, args_line):
    with open(os.path.join(out_dir, "metrics.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS)
        w.writeheader()
        for r in rows:
            w.writerow(r)
    ok = [r for r in rows if r["status"] == "ok"]
    lines = ["# Correlation with GPGPU-Sim 4.2: summary (generated by scripts/correlate.py)", "",
             f"Command: `{args_line}`", "",
             "| config | scheduler | kernels | group | MAE of cycles | Pearson r (cycles) | "
             "Pearson r (log cycles) | within +-25% |", "|---|---|---:|---|---:|---:|---:|---:|"]
    for config in sorted({r["config"] for r in rows}):
        for sched in sorted({r["scheduler"] for r in rows}):
            for group, pick in (("sync-free + barrier", lambda r: r["suite"] in TARGET_SUITES),
                                ("synchronization + microbenchmarks",
                                 lambda r: r["suite"] not in TARGET_SUITES),
                                ("all", lambda r: True)):
                sel = [r for r in ok if r["config"] == config and r["scheduler"] == sched and pick(r)]
                s = summarize(sel)
                if not s["n"]:
                    continue
                lines.append(f"| {config} | {sched} | {s['n']} | {group} | {100 * s['mae']:.1f}% | "
                             f"{s['r']:.3f} | {s['rlog']:.3f} | {s['within25']} of {s['n']} |")
    lines += ["", "Workloads not compared (both simulators must validate), with the reason of "
              "their first point (metrics.csv has every point's):", ""]
    seen = set()
    for r in rows:
        if r["status"] != "ok" and r["workload"] not in seen:
            seen.add(r["workload"])
            bad = [f"{x['config']} {x['scheduler']}" for x in rows
                   if x["workload"] == r["workload"] and x["status"] != "ok"]
            lines.append(f"- {r['workload']} ({', '.join(bad)}): {r['status'][:120]}")
    with open(os.path.join(out_dir, "summary.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    plot(out_dir, ok)


def plot(out_dir, ok):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no plot")
        return
    configs = sorted({r["config"] for r in ok})
    if not configs:
        return
    fig, axes = plt.subplots(1, len(configs), figsize=(6 * len(configs), 5.5), squeeze=False)
    colours = {"synchronization-free": "tab:blue", "barrier-intensive": "tab:green",
               "synchronization": "tab:red", "microbenchmark": "tab:purple"}
    markers = {"lrr": "o", "gto": "^"}
    for ax, config in zip(axes[0], configs):
        sel = [r for r in ok if r["config"] == config]
        lo = min(min(float(r["gpgpusim_cycles"]), float(r["simtsync_cycles"])) for r in sel)
        hi = max(max(float(r["gpgpusim_cycles"]), float(r["simtsync_cycles"])) for r in sel)
        ax.plot([lo / 1.5, hi * 1.5], [lo / 1.5, hi * 1.5], "k-", lw=0.8, label="y = x")
        for suite, c in colours.items():
            for sched, mk in markers.items():
                pts = [r for r in sel if r["suite"] == suite and r["scheduler"] == sched]
                if pts:
                    ax.scatter([float(r["gpgpusim_cycles"]) for r in pts],
                               [float(r["simtsync_cycles"]) for r in pts], c=c, marker=mk, s=22,
                               label=f"{suite} ({sched})", alpha=0.8)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(f"GPGPU-Sim 4.2 {GPGPUSIM_CONFIG[config]} cycles")
        ax.set_ylabel(f"simtsync {config} cycles")
        ax.set_title(f"{config}: one point per kernel and scheduler")
        ax.grid(True, which="both", lw=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "scatter.png"), dpi=110)


def main(a):
    home = gpgpusim_home()
    if not os.path.exists(os.path.join(home, ".ready")):
        print(f"correlate: skipped: GPGPU-Sim 4.2 is not built at {home} (set $GPGPUSIM_HOME, or "
              "run the side-by-side tool's setup.sh); nothing was compared")
        return 0
    simtsync = os.path.abspath(a.simtsync)
    build = os.path.dirname(os.path.dirname(simtsync))
    programs = a.programs or os.path.join(build, "gpgpusim_workloads")
    if not a.programs:
        subprocess.run([os.path.join(HERE, "build_workloads.sh"), build, programs], check=True)
    libdir = os.path.join(programs, "lib")
    out_dir = a.out or os.path.join(ROOT, "docs", "results", "correlation_gpgpusim")
    points_dir = os.path.join(out_dir, "points")
    os.makedirs(points_dir, exist_ok=True)
    env = gpgpusim_env(home)
    kernels = module_of_kernel()
    configs = a.configs.split(",")
    scheds = a.schedulers.split(",")
    chosen = set(a.workloads.split(",")) if a.workloads else None
    todo, rows_meta = [], []
    for w, suite in workloads_by_suite(simtsync):
        if chosen and w not in chosen:
            continue
        rows_meta.append((w, suite))
    # Which module holds each workload's kernels (a run of the workload names them), and whether
    # it finishes under the IPDOM stack at all.
    info = {}
    for w, suite in rows_meta:
        with tempfile.TemporaryDirectory() as d:
            js = os.path.join(d, "f.json")
            p = subprocess.run([simtsync, "run", w, "--size", a.size, "--json", js],
                               capture_output=True, text=True)
            names = []
            if os.path.exists(js):
                with open(js) as f:
                    names = [k["kernel"] for k in json.load(f)["stats"]["gpu"].get("kernels", [])]
        mods = sorted({kernels.get(n, "?") for n in names})
        program = os.path.join(programs, "bin", mods[0]) if len(mods) == 1 else None
        reason = None
        if p.returncode != 0:
            reason = f"`simtsync run` ends with exit {p.returncode} (deadlocks by design)"
        elif len(mods) != 1:
            reason = f"kernels in several modules {mods}"
        elif not os.path.exists(program):
            reason = f"module {mods[0]} calls simtsync's own instructions (no GPGPU-Sim form)"
        info[w] = (suite, mods[0] if mods else "?", program, reason)
    for w, _ in rows_meta:
        for config in configs:
            for s in scheds:
                todo.append((w, config, s))

    def one(item):
        w, config, s = item
        suite, module, program, reason = info[w]
        path = os.path.join(points_dir, point_key(w, config, s) + ".json")
        if os.path.exists(path) and not a.force:
            with open(path) as f:
                pt = json.load(f)
            if not (a.refresh_simtsync and pt.get("gpgpusim")):
                return pt
            # A new simtsync against the recorded GPGPU-Sim point: only our side runs again.
            pt["simtsync"] = run_simtsync(simtsync, libdir, program, w, a.size, config, s,
                                          a.max_cycles, a.timeout, a.perfect_icache)
            gs, st = pt["gpgpusim"], pt["simtsync"]
            if st["rc"] != 0 or not st["validated"]:
                pt["status"] = f"simtsync exit {st['rc']}, not validated"
            elif gs["rc"] == 0 and gs["validated"] and gs["cycles"]:
                pt["status"] = "ok"
            with open(path, "w") as f:
                json.dump(pt, f, indent=1)
            print(f"{w} {config} {s}: refreshed simtsync ({pt['status'][:60]})", flush=True)
            return pt
        pt = {"workload": w, "suite": suite, "module": module, "size": a.size, "config": config,
              "scheduler": s}
        if reason:
            pt["status"] = reason
            return pt
        t0 = time.time()
        st = run_simtsync(simtsync, libdir, program, w, a.size, config, s, a.max_cycles, a.timeout,
                          a.perfect_icache)
        if st["rc"] != 0 or not st["validated"]:
            pt["status"] = f"simtsync exit {st['rc']}, not validated: " + st.get("tail", "")[-200:].replace("\n", " ")
            pt["simtsync"] = st
        else:
            gs = run_gpgpusim(home, env, program, w, a.size, config, s, a.max_cycles, a.timeout,
                              a.perfect_icache)
            pt["simtsync"], pt["gpgpusim"] = st, gs
            if gs["rc"] != 0 or not gs["validated"] or not gs["cycles"]:
                pt["status"] = (f"GPGPU-Sim exit {gs['rc']}, validated {gs['validated']}: " +
                                gs.get("tail", "")[-300:].replace("\n", " "))
            else:
                pt["status"] = "ok"
        with open(path, "w") as f:
            json.dump(pt, f, indent=1)
        print(f"{w} {config} {s}: {pt['status'][:100]} ({time.time() - t0:.0f} s)", flush=True)
        return pt

    with ThreadPoolExecutor(max_workers=a.jobs) as ex:
        points = list(ex.map(one, todo))
    rows = []
    for pt in points:
        g, s = pt.get("gpgpusim", {}), pt.get("simtsync", {})
        row = {k: "" for k in COLUMNS}
        row.update(workload=pt["workload"], suite=pt["suite"], module=pt["module"], size=pt["size"],
                   config=pt["config"], scheduler=pt["scheduler"],
                   status=pt["status"] if pt["status"] == "ok" else pt["status"][:160])
        for side, d in (("gpgpusim", g), ("simtsync", s)):
            row[f"{side}_cycles"] = fmt_num(d.get("cycles"))
            row[f"{side}_warp_insts"] = fmt_num(d.get("warp_insts"))
            row[f"{side}_l1_hit"] = fmt_num(d.get("l1_hit"))
            row[f"{side}_l2_hit"] = fmt_num(d.get("l2_hit"))
            row[f"{side}_dram_reads"] = fmt_num(d.get("dram_reads"))
            row[f"{side}_validated"] = fmt_num(d.get("validated")) if d else ""
        if pt["status"].startswith("GPGPU-Sim exit") and uses_clock64(pt["module"]):
            row["status"] = ("GPGPU-Sim 4.2 aborts on %clock64, which the kernel reads "
                             "(ptx_thread_info::get_builtin, CLOCK64_REG: abort())")
        if pt["status"] == "ok":
            row["cycle_ratio"] = f"{float(s['cycles']) / float(g['cycles']):.3f}"
        rows.append(row)
    args_line = (f"scripts/correlate.py {a.simtsync} --reference gpgpusim --configs {a.configs} "
                 f"--schedulers {a.schedulers} --size {a.size}" +
                 (" --perfect-icache" if a.perfect_icache else "") +
                 (f" --workloads {a.workloads}" if a.workloads else ""))
    write_outputs(out_dir, rows, args_line)
    return 0
