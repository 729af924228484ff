#!/usr/bin/env python3
"""Runs `simtsync run` several times and checks relations between the runs' JSON numbers.

    check_compare.py SIMTSYNC OUTDIR --run NAME "ARGS" [--run NAME "ARGS"]...
                     --expect "EXPR" [--expect "EXPR"]...

Each --run is one `simtsync run ARGS --json OUTDIR/NAME.json` (ARGS split as a shell would; the
workload first). Every run must exit 0 (validated) unless its ARGS are followed by
--exit CODE in the same string: `--run x "ht --size test --exit 3"`. Each --expect is a Python
expression over the runs by NAME, each with:
  cycles, warp_instructions, exit_code   the JSON's top-level numbers
  icache_accesses, icache_misses          summed over the SMs (stats.gpu.sm[i].icache)
  icache_stall_cycles                     summed over the SMs (stats.gpu.sm[i])
  stat("a.b.c")                           any number under the JSON by dotted path
e.g. --expect "bows.cycles < gto.cycles" or --expect "aware.cycles <= 1.10 * ssde.cycles".
Prints every run's numbers, each expression with its operands' values and the ratio of the first
two runs' cycles; exits 1 when a run fails or an expectation does not hold.
Used by tests/e2e/headlines.cmake (the seeds' headline directions) and the I-cache test.
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import time


class Run:
    def __init__(self, name, j):
        self.name, self.json = name, j
        self.cycles = int(j["cycles"])
        self.warp_instructions = int(j["warp_instructions"])
        self.exit_code = int(j["exit_code"])
        sms = j.get("stats", {}).get("gpu", {}).get("sm", [])
        self.icache_accesses = sum(s["icache"]["accesses"] for s in sms)
        self.icache_misses = sum(s["icache"]["misses"] for s in sms)
        self.icache_stall_cycles = sum(s.get("icache_stall_cycles", 0) for s in sms)

    def stat(self, path):
        v = self.json
        for part in path.split("."):
            v = v[int(part)] if isinstance(v, list) else v[part]
        return v

    def __repr__(self):
        return (f"{self.name}: cycles {self.cycles}, warp_instructions {self.warp_instructions}, "
                f"exit {self.exit_code}, icache misses {self.icache_misses} / "
                f"{self.icache_accesses}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("simtsync")
    ap.add_argument("outdir")
    ap.add_argument("--run", nargs=2, action="append", metavar=("NAME", "ARGS"), required=True)
    ap.add_argument("--expect", action="append", required=True)
    a = ap.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    runs, failures = {}, []
    for name, args in a.run:
        argv = shlex.split(args)
        want = 0
        if "--exit" in argv:
            k = argv.index("--exit")
            want = int(argv[k + 1])
            del argv[k:k + 2]
        path = os.path.join(a.outdir, f"{name}.json")
        if os.path.exists(path):
            os.remove(path)
        cmd = [a.simtsync, "run", *argv, "--json", path]
        start = time.monotonic()
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           errors="replace", stdin=subprocess.DEVNULL)
        secs = time.monotonic() - start
        print(f"$ {shlex.join(cmd)}  ({secs:.1f} s, exit {p.returncode})")
        if p.returncode != want:
            tail = "\n".join(p.stdout.strip().splitlines()[-10:])
            failures.append(f"{name}: exit {p.returncode}, expected {want}\n{tail}")
            continue
        try:
            with open(path) as f:
                runs[name] = Run(name, json.load(f))
        except (OSError, ValueError, KeyError) as e:
            failures.append(f"{name}: no usable JSON ({e.__class__.__name__}: {e})")
            continue
        print(f"  {runs[name]}")
    if not failures:
        names = [n for n, _ in a.run]
        if len(names) >= 2:
            x, y = runs[names[0]], runs[names[1]]
            if y.cycles:
                print(f"{x.name}/{y.name} cycles: {x.cycles / y.cycles:.3f}")
        for expr in a.expect:
            try:
                ok = eval(expr, {"__builtins__": {}}, dict(runs))  # our own CMake strings
            except Exception as e:  # noqa: BLE001 - report any malformed expression
                failures.append(f"expectation {expr!r} could not be evaluated: {e}")
                continue
            print(f"{'ok  ' if ok else 'FAIL'} {expr}")
            if not ok:
                failures.append(f"expectation does not hold: {expr}")
    for f in failures:
        print(f"FAIL: {f}")
    print("PASS" if not failures else f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
