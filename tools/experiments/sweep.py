"""`simtsync sweep`: runs an experiment's points in parallel, each as its own process, resumably.

A point is up to date when OUT/points/ID.rc exists and OUT/points/ID.inputs.json holds the key
of its current inputs: the resolved configuration and workload parameters (`simtsync run
--dump-config`), the overrides, and the simulator version (a hash of the simtsync binary).

A local sweep runs each point into OUT/points/.running/ID.* and replaces the point's old results with them
only when it finishes (signals blocked while the files are swapped), so an interruption never
loses a finished point, also with --force: a point keeps its earlier result until its new one is
complete.
"""
import hashlib
import json
import os
import shlex
import signal
import subprocess
import sys
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor

import yaml

import results
from experiment import ExperimentError
from progress import Progress


def simtsync_bin():
    b = os.environ.get("SIMTSYNC_BIN")
    if not b or not os.access(b, os.X_OK):
        raise ExperimentError("SIMTSYNC_BIN is not set: run this as `simtsync sweep`")
    return b


def binary_version(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()[:16]


def _digest(obj):
    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()[:16]


def resolve_inputs(binary, point):
    """The point's resolved inputs as data (comments of the dump, which name where a value came
    from, are left out: the same values from a file or from --set are the same inputs)."""
    cmd = [binary] + point.run_args() + ["--dump-config"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise ExperimentError(f"point {point.id}: {p.stderr.strip() or p.stdout.strip()} "
                              f"(from: {shlex.join(cmd)})")
    return yaml.safe_load(p.stdout)


def point_inputs(exp, binary, jobs):
    """{point id: inputs record} for every point, resolved in parallel."""
    version = binary_version(binary)
    pool = ThreadPoolExecutor(max_workers=max(1, jobs))
    try:
        resolved = list(pool.map(lambda p: resolve_inputs(binary, p), exp.points))
    finally:  # on Ctrl-C (KeyboardInterrupt) the points not yet resolved are dropped at once
        pool.shutdown(wait=True, cancel_futures=True)
    records = {}
    for p, r in zip(exp.points, resolved):
        config_key = _digest({"resolved": r, "sets": p.sets})
        records[p.id] = {"point": p.id, "experiment": exp.name, "config_key": config_key,
                         "version": version, "key": _digest([config_key, version]),
                         "command": p.run_args()}
    return records


def stored_inputs(out, pid):
    return results.read_json(results.point_path(out, pid, "inputs.json"))


def is_up_to_date(out, pid, record):
    stored = stored_inputs(out, pid)
    return (stored is not None and stored.get("key") == record["key"]
            and results.read_rc(out, pid) is not None)


def prepare(out, pid, record):
    """Clears a point's old outputs and records the inputs it is about to run with."""
    results.clear_point(out, pid)
    results.write_atomic(results.point_path(out, pid, "inputs.json"),
                         json.dumps(record, indent=2) + "\n")


def shell_command(binary, out, point):
    """The point as one shell line: what a Slurm task runs, and what a local run does."""
    pid = point.id
    return (f"cd {shlex.quote(os.path.abspath(out))} && "
            f"{shlex.join([binary] + point.run_args() + ['--json', f'points/{pid}.json'])} "
            f"> points/{shlex.quote(pid)}.log 2>&1; echo $? > points/{shlex.quote(pid)}.rc")


class _Interrupted(Exception):
    pass


def _on_signal(signum, frame):
    raise _Interrupted()


_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def finish_point(out, pid, record, rc):
    """Replaces the point's old results by the new run's, with SIGINT/SIGTERM held until every
    file is in place: the old .rc goes first (a point without .rc is unfinished), the new .rc
    last."""
    signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
    try:
        results.clear_point(out, pid)
        for ext in results.POINT_OUTPUTS:
            new = results.running_path(out, pid, ext)
            if os.path.exists(new):
                os.replace(new, results.point_path(out, pid, ext))
        results.write_atomic(results.point_path(out, pid, "inputs.json"),
                             json.dumps(record, indent=2) + "\n")
        results.write_atomic(results.point_path(out, pid, "rc"), f"{rc}\n")
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _SIGNALS)


def run_points(binary, out, todo, jobs, records):
    """Runs points, at most `jobs` at once, each into points/.running/ID.*; a finished point's files
    replace its old ones (finish_point). Returns False if interrupted (SIGINT/SIGTERM): running
    points are stopped, their partial files removed and their earlier results (if any) kept."""
    progress = Progress(len(todo), jobs)
    pending = deque(todo)
    running = {}  # Popen -> (point, log file)
    os.makedirs(os.path.join(out, "points", results.RUNNING), exist_ok=True)
    old = {s: signal.signal(s, _on_signal) for s in _SIGNALS}
    try:
        while pending or running:
            while pending and len(running) < jobs:
                p = pending.popleft()
                results.clear_point(out, p.id, running=True)
                log = open(results.running_path(out, p.id, "log"), "w")
                json_path = os.path.relpath(results.running_path(out, p.id, "json"), out)
                running[subprocess.Popen(run_command(binary, p, json_path),
                                         cwd=out, stdout=log, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL)] = (p, log)
                progress.started(p.id)
            time.sleep(0.05)
            for proc in [x for x in running if x.poll() is not None]:
                p, log = running.pop(proc)
                log.close()
                rc = proc.returncode if proc.returncode >= 0 else 128 - proc.returncode
                if proc.returncode in (-signal.SIGINT, -signal.SIGTERM):
                    results.clear_point(out, p.id, running=True)
                    raise _Interrupted()  # stopped from outside, not a result
                finish_point(out, p.id, records[p.id], rc)
                progress.finished(p.id, rc, results.exit_reason(rc) if rc else "")
            progress.tick()
        progress.close()
        return True
    except _Interrupted:
        for proc in running:
            proc.terminate()
        for proc, (p, log) in running.items():
            proc.wait()
            log.close()
            results.clear_point(out, p.id, running=True)
        progress.close()
        return False
    finally:
        for s, h in old.items():
            signal.signal(s, h)


def run_command(binary, point, json_path):
    return [binary] + point.run_args() + ["--json", json_path]


def collect_rows(exp, out, records, full_key):
    """One row per point with its status: ok, failed, missing (no result), or stale (a result
    whose recorded inputs differ from the current ones), and the points' policy records as
    records.csv rows. With full_key the simulator version must match too (a local sweep);
    --collect accepts results of another build of simtsync."""
    rows, counts, other_version, recs = [], {}, 0, []
    for p in exp.points:
        stored = stored_inputs(out, p.id)
        rc = results.read_rc(out, p.id)
        field = "key" if full_key else "config_key"
        if rc is None:
            status = "missing"
        elif stored is None or stored.get(field) != records[p.id][field]:
            status = "stale"
        else:
            status = "ok" if rc == 0 else "failed"
            other_version += stored.get("version") != records[p.id]["version"]
        counts[status] = counts.get(status, 0) + 1
        rows.append(results.point_row(exp, p, out, status, stored, recs))
    return rows, counts, other_version, recs


def summary_line(counts, total):
    parts = [f"{counts.get(s, 0)} {s}" for s in ("ok", "failed", "missing", "stale")
             if counts.get(s)]
    return f"{total} points: " + ", ".join(parts)


def print_failures(rows):
    for r in rows:
        if r["status"] == "failed":
            print(f"  failed: {r['point']}: exit {r['exit_code']}, {r['reason']}")


def sweep(exp, out, jobs, force=False, rerun_failed=False, dry_run=False):
    binary = simtsync_bin()
    os.makedirs(os.path.join(out, "points"), exist_ok=True)
    records = point_inputs(exp, binary, jobs)
    todo = []
    for p in exp.points:
        fresh = is_up_to_date(out, p.id, records[p.id])
        if fresh and rerun_failed and results.read_rc(out, p.id) != 0:
            fresh = False
        if force or not fresh:
            todo.append(p)
    print(f"{exp.name}: {len(exp.points)} points, {len(exp.points) - len(todo)} up to date, "
          f"{len(todo)} to run ({jobs} at a time) -> {out}", flush=True)
    if dry_run:
        for p in todo:
            print("  would run:", p.id)
        return 0
    # No point's results are removed before it runs: finish_point replaces them when the new
    # run is complete, so an interrupted sweep (with --force too) loses no finished point.
    finished = run_points(binary, out, todo, jobs, records)
    rows, counts, _, recs = collect_rows(exp, out, records, full_key=True)
    results.write_results(exp, out, rows, recs)
    print(f"ran {len(todo)}; " + summary_line(counts, len(rows)) +
          f"; results: {os.path.join(out, 'results.csv')}", flush=True)
    print_failures(rows)
    if not finished:
        print("interrupted: the points that did not finish keep their earlier results, if any; "
              "run the same command without --force to run only the points not up to date"
              if force else
              "interrupted: run the same command again to finish the missing points",
              file=sys.stderr)
        return 130
    return 0


def emit_slurm(exp, out, slurm_dir, jobs, force=False):
    """A job array with one task per point that is not up to date. Each task runs one line of
    commands.txt, which writes the same files a local sweep writes; `--collect` merges them."""
    binary = simtsync_bin()
    os.makedirs(os.path.join(out, "points"), exist_ok=True)
    os.makedirs(os.path.join(slurm_dir, "logs"), exist_ok=True)
    records = point_inputs(exp, binary, jobs)
    todo = [p for p in exp.points if force or not is_up_to_date(out, p.id, records[p.id])]
    for p in todo:
        prepare(out, p.id, records[p.id])
    slurm_dir = os.path.abspath(slurm_dir)
    commands = os.path.join(slurm_dir, "commands.txt")
    with open(commands, "w") as f:
        f.writelines(shell_command(binary, out, p) + "\n" for p in todo)
    with open(os.path.join(slurm_dir, "points.txt"), "w") as f:
        f.writelines(p.id + "\n" for p in todo)
    script = os.path.join(slurm_dir, "sweep.sbatch")
    if not todo:
        if os.path.exists(script):
            os.remove(script)
        print(f"{exp.name}: every point is up to date in {out}; no job to submit")
        return 0
    extra = "".join(f"#SBATCH --{k}={v}\n" for k, v in exp.slurm.items())
    with open(script, "w") as f:
        f.write(f"""#!/bin/bash
# Experiment {exp.name}: {len(todo)} points, one array task each. Generated by
#   simtsync sweep {exp.path} --out {os.path.abspath(out)} --emit-slurm {slurm_dir}
# Submit with `sbatch {script}`; afterwards merge the results with
#   simtsync sweep {exp.path} --out {os.path.abspath(out)} --collect
#SBATCH --job-name=simtsync-{exp.name}
#SBATCH --array=0-{len(todo) - 1}
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --output={slurm_dir}/logs/%A_%a.out
{extra}set -euo pipefail
line=$(sed -n "$((SLURM_ARRAY_TASK_ID + 1))p" {shlex.quote(commands)})
exec bash -c "$line"
""")
    os.chmod(script, 0o755)
    print(f"{exp.name}: {len(todo)} of {len(exp.points)} points to run; wrote {script} "
          f"and {commands}")
    return 0


def collect(exp, out, jobs):
    """Merges the results in OUT (produced by Slurm tasks or any other way) into the CSV files."""
    binary = simtsync_bin()
    if not os.path.isdir(os.path.join(out, "points")):
        raise ExperimentError(f"no results in {out} (expected {out}/points/)")
    records = point_inputs(exp, binary, jobs)
    rows, counts, other_version, recs = collect_rows(exp, out, records, full_key=False)
    results.write_results(exp, out, rows, recs)
    print(summary_line(counts, len(rows)) + f"; results: {os.path.join(out, 'results.csv')}")
    if other_version:
        print(f"note: {other_version} points were produced by another simtsync build "
              f"(column `version`)")
    print_failures(rows)
    for r in rows:
        if r["status"] in ("missing", "stale"):
            print(f"  {r['status']}: {r['point']}")
    return 0
