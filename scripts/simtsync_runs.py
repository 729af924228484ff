"""Running `simtsync run` from the experiment scripts: one point, its JSON statistics.

    from simtsync_runs import run_point, run_points
"""
import concurrent.futures as cf
import json
import os
import subprocess
import sys
import tempfile

# The model the recorded experiments ran (pinned so their numbers reproduce): the L2's set index
# and launches before 2026-11-29, atomics without the L2 access latency, gtx480's front end
# and arithmetic latencies before 3f36d59 (fx5800's own values already), and kernel parameters
# always resident (before they went through the constant cache), and I-cache lines usable from
# their miss on (before other warps waited for the fill, 2026-11-30).
OLD_MODEL = ["mem.l2.set_index=global", "mem.l2.keep_across_launches=false",
             "mem.atomic.l2_access=false", "sm.fetch_decode=1", "sm.latency.int=4",
             "sm.latency.fp=4", "sm.latency.imul=5", "mem.const_cache.kernel_params=resident",
             "sm.icache.wait_for_fill=false"]


def run_point(simtsync, workload, config, size, sets, mode="timing"):
    """Runs one point; returns (json, returncode, stdout). Exits when no JSON was written."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as t:
        path = t.name
    cmd = [simtsync, "run", workload, "--size", size, "--config", config, "--mode", mode,
           "--json", path]
    for s in sets:
        cmd += ["--set", s]
    p = subprocess.run(cmd, capture_output=True, text=True, check=False)
    try:
        with open(path) as f:
            j = json.load(f)
    except (OSError, json.JSONDecodeError):
        j = None
    finally:
        if os.path.exists(path):
            os.unlink(path)
    if j is None:
        sys.exit(f"{' '.join(cmd)} wrote no statistics (rc {p.returncode}):\n{p.stderr[-2000:]}")
    return j, p.returncode, p.stdout


def run_points(jobs, fn, workers):
    """Runs fn(*args) for every (key, args) of jobs on `workers` threads; yields (key, result)
    as points finish."""
    with cf.ThreadPoolExecutor(max_workers=workers) as ex:
        futs = {ex.submit(fn, *args): key for key, args in jobs}
        for f in cf.as_completed(futs):
            yield futs[f], f.result()
