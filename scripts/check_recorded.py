#!/usr/bin/env python3
"""Re-runs a deterministic sample of the recorded results in docs/results/ and compares them.

    scripts/check_recorded.py build/tools/simtsync [--every 4] [--max-seconds 20] [--jobs N]
        [--experiments A,B] [--workloads W,V]

Each docs/results/NAME/results.csv row is one point of experiments/NAME.yaml (its `point`
column is the point id). The point's command line comes from the experiment engine itself
(tools/experiments/experiment.py expands the YAML into points: workload, config, size, mode
and the --set overrides of `set`, the policy and the sweep axes), so a row is re-run exactly as
`simtsync sweep` ran it: `simtsync run W --config C --size S --mode M --set K=V... --json F`.

Sample: per experiment, the rows whose recorded run took at most --max-seconds (`seconds`
column; the slower ones are listed as skipped), then every --every-th of those in file order,
at most --max-rows per experiment. Compared: exit_code, cycles, warp_instructions. For each row
it also says whether the point's inputs (the resolved configuration and workload parameters
from `--dump-config` plus the overrides, hashed as the sweep does) are still the ones recorded
(`inputs_key`): a difference with unchanged inputs is a change of the simulator; with changed
inputs, the configuration or the workload's parameters moved since the recording.

Prints every difference (recorded vs actual) and a summary; exit 1 on any difference or failed
run, 0 when every sampled row reproduces. Never writes into docs/results. Needs python3-yaml
(scripts/setup.sh installs it).
"""
import argparse
import csv
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools", "experiments"))
from experiment import Experiment  # noqa: E402  (the sweep engine's own point expansion)

FIELDS = ("exit_code", "cycles", "warp_instructions")


def digest(obj):
    """The sweep's key digest (tools/experiments/sweep.py)."""
    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()[:16]


def inputs_key(binary, point, version):
    """The inputs key the sweep would record for this point with the recorded version."""
    p = subprocess.run([binary] + point.run_args() + ["--dump-config"], capture_output=True,
                       text=True, timeout=120)
    if p.returncode != 0:
        return None
    config_key = digest({"resolved": yaml.safe_load(p.stdout), "sets": point.sets})
    return digest([config_key, version])


def run_point(binary, point, row, tmp, timeout):
    out = os.path.join(tmp, point.id + ".json")
    cmd = [binary] + point.run_args() + ["--json", out]
    res = {"cmd": " ".join(cmd), "inputs_same": None, "error": None, "actual": None}
    try:
        res["inputs_same"] = inputs_key(binary, point, row["version"]) == row["inputs_key"]
    except subprocess.TimeoutExpired:
        pass
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           stdin=subprocess.DEVNULL, text=True, errors="replace",
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        res["error"] = f"timed out after {timeout:g} s"
        res["seconds"] = timeout
        return res
    res["seconds"] = time.monotonic() - start
    try:
        with open(out) as f:
            j = json.load(f)
        res["actual"] = {k: str(int(j[k])) for k in FIELDS}
    except (OSError, ValueError, KeyError, TypeError) as e:
        res["error"] = f"exit {p.returncode}, no usable JSON ({e}): {p.stderr.strip()[-300:]}"
    return res


def sample(rows, every, max_seconds, max_rows):
    slow = [r for r in rows if float(r.get("seconds") or 0) > max_seconds]
    eligible = [r for r in rows if float(r.get("seconds") or 0) <= max_seconds]
    return eligible[::every][:max_rows], slow


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("simtsync", help="the simtsync binary")
    ap.add_argument("--results", default=os.path.join(ROOT, "docs", "results"),
                    help="recorded results (default: %(default)s)")
    ap.add_argument("--experiments", help="comma-separated names (default: every folder there "
                    "with a results.csv)")
    ap.add_argument("--workloads", help="comma-separated workload names: only their rows")
    ap.add_argument("--every", type=int, default=4, help="every N-th eligible row (default 4)")
    ap.add_argument("--max-seconds", type=float, default=20.0,
                    help="skip rows whose recorded run took longer (default 20)")
    ap.add_argument("--max-rows", type=int, default=30, help="per experiment (default 30)")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per run (default 600)")
    a = ap.parse_args()

    binary = os.path.abspath(a.simtsync)
    if not os.access(binary, os.X_OK):
        sys.exit(f"check_recorded: '{a.simtsync}' is not an executable")
    names = a.experiments.split(",") if a.experiments else sorted(
        d for d in os.listdir(a.results)
        if os.path.isfile(os.path.join(a.results, d, "results.csv")))

    todo, unmapped, skipped = [], [], []
    for name in names:
        if not os.path.isfile(os.path.join(ROOT, "experiments", name + ".yaml")):
            # Recorded by its own script (aware_mimd, lock_instructions: scripts/*_experiment.py),
            # not by `simtsync sweep`: no point definitions to re-run here.
            print(f"{name}: not a sweep (no experiments/{name}.yaml), not checked")
            continue
        with open(os.path.join(a.results, name, "results.csv")) as f:
            rows = list(csv.DictReader(f))
        if a.workloads:
            rows = [r for r in rows if r["workload"] in a.workloads.split(",")]
        exp = Experiment(os.path.join(ROOT, "experiments", name + ".yaml"))
        points = {p.id: p for p in exp.points}
        chosen, slow = sample(rows, a.every, a.max_seconds, a.max_rows)
        skipped += [(name, r["point"], float(r["seconds"])) for r in slow]
        for r in chosen:
            if r["point"] in points:
                todo.append((name, points[r["point"]], r))
            else:
                unmapped.append((name, r["point"]))
        print(f"{name}: {len(rows)} recorded rows, {len(chosen)} sampled "
              f"(every {a.every}th of {len(rows) - len(slow)} taking <= {a.max_seconds:g} s), "
              f"{len(slow)} skipped as slow")
    for name, pid, secs in skipped:
        print(f"  skipped (recorded run {secs:.0f} s): {name}/{pid}")
    for name, pid in unmapped:
        print(f"UNMAPPED {name}/{pid}: no such point in experiments/{name}.yaml any more")

    start = time.monotonic()
    differ, failed, same = [], [], 0
    changed_inputs = 0
    with tempfile.TemporaryDirectory(prefix="check_recorded.") as tmp, \
            ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        # Longest recorded runs first.
        todo.sort(key=lambda t: -float(t[2].get("seconds") or 0))
        futs = {pool.submit(run_point, binary, p, r, tmp, a.timeout): (n, p, r)
                for n, p, r in todo}
        for fut in as_completed(futs):
            name, point, row = futs[fut]
            res = fut.result()
            tag = f"{name}/{point.id}"
            inputs = {True: "inputs as recorded", False: "INPUTS CHANGED since the recording",
                      None: "inputs unknown"}[res["inputs_same"]]
            if res["inputs_same"] is False:
                changed_inputs += 1
            if res["error"]:
                failed.append(tag)
                print(f"FAILED {tag}: {res['error']}\n  {res['cmd']}", flush=True)
                continue
            exp_vals = {k: str(int(float(row[k] or 0))) for k in FIELDS}
            if exp_vals != res["actual"]:
                differ.append(tag)
                rec = " ".join(f"{k}={exp_vals[k]}" for k in FIELDS)
                act = " ".join(f"{k}={res['actual'][k]}" for k in FIELDS)
                print(f"DIFFER {tag} ({inputs}; recorded by version {row['version']}):\n"
                      f"  recorded {rec}\n  actual   {act}\n  {res['cmd']}", flush=True)
            else:
                same += 1
                print(f"ok     {tag} ({inputs}; {res['seconds']:.1f} s)", flush=True)
    wall = time.monotonic() - start
    bad = len(differ) + len(failed) + len(unmapped)
    print(f"check_recorded: {'OK' if not bad else 'MISMATCH'}: {len(todo)} rows re-run, {same} "
          f"reproduce, {len(differ)} differ, {len(failed)} failed, {len(unmapped)} unmapped, "
          f"{len(skipped)} skipped as slow; {changed_inputs} with changed inputs "
          f"({wall:.0f} s wall, {a.jobs} jobs)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
