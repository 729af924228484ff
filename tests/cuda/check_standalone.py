#!/usr/bin/env python3
"""Every built-in workload as a standalone CUDA program under `simtsync exec` (issue 21).

    check_standalone.py SIMTSYNC PROGRAM [PROGRAM...] [--jobs N]

For each workload `simtsync list` names, runs `simtsync run W --size test` (the reference) and
`simtsync exec --set KEY=VALUE... -- PROGRAM W --size test` (the workload's host driver and
kernels compiled into a CUDA program, its settings from `PROGRAM W --simulator-settings`),
trying each PROGRAM until one holds the workload's kernels. Both must end alike: validated (0),
the watchdog's stop (3), or a kernel fault (5); a validated run must print VALIDATED. Exit 0
when every workload agrees, 1 otherwise.
"""
import argparse
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor


def workloads(simtsync):
    out = subprocess.run([simtsync, "list"], capture_output=True, text=True, check=True).stdout
    names, in_suite = [], False
    for line in out.splitlines():
        if line.endswith("workloads:"):
            in_suite = True
        elif line.startswith("  ") and not line.startswith("   ") and in_suite:
            names.append(line.split()[0])
        elif not line.startswith(" "):
            in_suite = False
    return names


def check(simtsync, programs, w):
    ref = subprocess.run([simtsync, "run", w, "--size", "test"], capture_output=True, text=True,
                         timeout=900)
    for prog in programs:
        sets = subprocess.run([prog, w, "--simulator-settings"], capture_output=True, text=True)
        opts = [x for kv in sets.stdout.split() for x in ("--set", kv)]
        p = subprocess.run([simtsync, "exec", "--quiet", *opts, "--", prog, w, "--size", "test"],
                           capture_output=True, text=True, timeout=900)
        if "is not compiled into this program" in p.stderr:
            continue
        ok = p.returncode == ref.returncode and (p.returncode != 0 or "VALIDATED:" in p.stdout)
        line = f"{'ok  ' if ok else 'FAIL'} {w}: simtsync run {ref.returncode}, standalone {p.returncode}"
        if not ok:
            line += "\n" + (p.stdout + p.stderr)[-1500:]
        return ok, line
    return False, f"FAIL {w}: no program holds its kernels"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("simtsync")
    ap.add_argument("programs", nargs="+")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    names = workloads(a.simtsync)
    with ThreadPoolExecutor(max_workers=a.jobs) as ex:
        results = list(ex.map(lambda w: check(a.simtsync, a.programs, w), names))
    bad = 0
    for ok, line in results:
        print(line)
        bad += not ok
    print(f"{len(names) - bad}/{len(names)} workloads end alike as standalone CUDA programs")
    return 1 if bad or not names else 0


if __name__ == "__main__":
    sys.exit(main())
