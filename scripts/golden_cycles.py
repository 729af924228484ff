#!/usr/bin/env python3
"""Golden cycle table: every built-in workload at --size test, timing mode, under every shipped
warp scheduler and, under gto, every other fetch policy and every reconvergence unit other than
the IPDOM stack, compared with (or written to) tests/golden/cycles_test_size.csv.

    scripts/golden_cycles.py build/tools/simtsync              # --check (the default)
    scripts/golden_cycles.py --update build/tools/simtsync     # rewrite the table

The workloads, issue policies, fetch policies and reconvergence units are the ones `simtsync list`
prints (its registries; a plug-in whose description starts with "test-only" is left out),
so a new workload or policy is covered without editing this script. Each runs as
`simtsync run W --size test --mode timing --set sm.warp_scheduler.impl=P --json FILE` (default
config gtx480, whose default scheduler is gto: the gto rows are also the default config). Rows
whose policy reads `gto+fetch_F` run gto with `--set sm.fetch_policy.impl=F`, for every fetch
policy but gtx480's default; rows `gto+UNIT` run gto with `--set sm.reconvergence.impl=UNIT`, for
every unit but gtx480's default (the defaults come from `simtsync run --dump-config`), and
`gto+aware_st4_rt2` is aware with 4 split-table and 2 reconvergence-table entries, so the table
spills and fills are guarded too, and `gto+lock_stack_e4` the lock stack with 4 hardware entries
(its spills and fills) on the lock-instruction workloads (EXTRA_VARIANTS below).
The table holds exit_code, cycles and warp_instructions; runs that end in a deadlock (exit 3)
are recorded like the others, since they are deterministic too. A run that times out, crashes
or writes no JSON is a failure: --check exits 1, --update writes nothing.

--check prints every row whose numbers differ (expected vs actual), rows the table lacks and
rows it has that were not produced, then a summary line; exit 0 only when all are identical.
tests/golden/README.md says when to update the table. Python 3 standard library only.
"""
import argparse
import csv
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(ROOT, "tests", "golden", "cycles_test_size.csv")
# Variants beyond one per registry entry: a parameter setting worth guarding on its own.
EXTRA_VARIANTS = {
    "aware_st4_rt2": ["sm.reconvergence.impl=aware", "sm.reconvergence.st_entries=4",
                      "sm.reconvergence.rt_entries=2"],
    # The lock queue (a memory-side unit) only acts on lock instructions.
    "lockq_ideal": ["mem.lock_queue.mode=ideal"],
    "lockq_bounded": ["mem.lock_queue.mode=bounded"],
    # A finite lock stack (seed 004 sec. 7.3): 4 hardware entries, the rest spilled to memory.
    "lock_stack_e4": ["sm.reconvergence.impl=lock_stack", "sm.reconvergence.stack_entries=4"],
}
# Variants that only make a difference on some workloads run on those (names ending so).
LOCK_WORKLOADS = ("_lockinst", "_trylock")
VARIANT_WORKLOADS = {"gto+lockq_ideal": LOCK_WORKLOADS, "gto+lockq_bounded": LOCK_WORKLOADS,
                     "gto+lock_stack_e4": LOCK_WORKLOADS}
FAMILIES = {"issue policies": "sm.warp_scheduler", "fetch policies": "sm.fetch_policy",
            "reconvergence units": "sm.reconvergence"}
COLUMNS = ("workload", "policy", "exit_code", "cycles", "warp_instructions")
NUMBERS = COLUMNS[2:]


def list_registry(binary):
    """(workload names, {family: [(name, description)]}) from `simtsync list`: the indented lines
    under a '... workloads:' header, and the entry lines (two spaces, then the name; not the
    '  parameter'/'statistic' lines under them) under each plug-in family's header."""
    p = subprocess.run([binary, "list"], capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        sys.exit(f"golden_cycles: `{binary} list` failed (exit {p.returncode}): {p.stderr.strip()}")
    names, families, section = [], {f: [] for f in FAMILIES}, None
    for line in p.stdout.splitlines():
        if re.match(r"^\S.*workloads:\s*$", line):
            section = "workloads"
        elif not line.startswith(" "):
            m = re.match(r"^(.*) \(([\w.]+)\.impl\):\s*$", line)
            section = m.group(1) if m and m.group(1) in FAMILIES else None
            if section and FAMILIES[section] != m.group(2):
                sys.exit(f"golden_cycles: `simtsync list` names {m.group(2)}.impl for "
                         f"{section}, expected {FAMILIES[section]}.impl")
        elif section == "workloads" and line.strip():
            names.append(line.split()[0])
        elif section in FAMILIES and re.match(r"^  \S", line):
            name, _, desc = line.strip().partition(" ")
            families[section].append((name, desc.strip()))
    if not names:
        sys.exit(f"golden_cycles: no workloads in the output of `{binary} list`")
    for f, rows in families.items():
        if not rows:
            sys.exit(f"golden_cycles: no {f} in the output of `{binary} list`")
    return names, families


def config_defaults(binary, workload):
    """gtx480's default of each family's .impl key, from `simtsync run --dump-config`."""
    p = subprocess.run([binary, "run", workload, "--size", "test", "--dump-config"],
                       capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        sys.exit(f"golden_cycles: `{binary} run {workload} --dump-config` failed "
                 f"(exit {p.returncode}): {p.stderr.strip()}")
    # The dump is nested YAML: find `impl: X` under the family's last key (warp_scheduler: ...).
    defaults, path = {}, []
    for line in p.stdout.splitlines():
        m = re.match(r"^( *)([\w.]+):\s*(\S*)", line)
        if not m or line.lstrip().startswith("#"):
            continue
        depth = len(m.group(1)) // 2
        del path[depth:]
        path.append(m.group(2))
        if m.group(2) == "impl":
            defaults[".".join(path[:-1])] = m.group(3).split("#")[0].strip().strip("'\"")
    missing = [k for k in FAMILIES.values() if not defaults.get(k)]
    if missing:
        sys.exit(f"golden_cycles: no {', '.join(k + '.impl' for k in missing)} in "
                 f"`{binary} run {workload} --dump-config`")
    return defaults


def policy_sets(binary, workloads, families):
    """{policy column: [--set KEY=VALUE, ...]}: every issue policy but the test-only ones, then
    gto+fetch_F and gto+UNIT for every fetch policy and unit but the config's default and the
    test-only ones."""
    # A synchronization-free workload, so no workload default (lock_stack) shows in the dump.
    defaults = config_defaults(binary, "vecadd" if "vecadd" in workloads else workloads[0])
    out = {}
    for name, desc in families["issue policies"]:
        if not desc.startswith("test-only"):
            out[name] = [f"sm.warp_scheduler.impl={name}"]
    if "gto" not in out:
        sys.exit("golden_cycles: `simtsync list` has no gto issue policy")
    for name, desc in families["fetch policies"]:
        if name != defaults["sm.fetch_policy"] and not desc.startswith("test-only"):
            out[f"gto+fetch_{name}"] = ["sm.warp_scheduler.impl=gto",
                                        f"sm.fetch_policy.impl={name}"]
    for name, desc in families["reconvergence units"]:
        if name != defaults["sm.reconvergence"] and not desc.startswith("test-only"):
            out[f"gto+{name}"] = ["sm.warp_scheduler.impl=gto", f"sm.reconvergence.impl={name}"]
    for name, sets in EXTRA_VARIANTS.items():
        out[f"gto+{name}"] = ["sm.warp_scheduler.impl=gto", *sets]
    return out


def run_one(binary, workload, policy, sets, tmp, timeout):
    """(row dict, None, seconds) or (None, failure text, seconds)."""
    out = os.path.join(tmp, f"{workload}.{policy}.json")
    cmd = [binary, "run", workload, "--size", "test", "--mode", "timing", "--json", out]
    for kv in sets:
        cmd += ["--set", kv]
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL, text=True, errors="replace",
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"timed out after {timeout:g} s: {' '.join(cmd)}", timeout
    seconds = time.monotonic() - start
    tail = " | ".join(p.stdout.strip().splitlines()[-3:])
    if p.returncode < 0:
        return None, f"killed by signal {-p.returncode}: {' '.join(cmd)} ({tail})", seconds
    try:
        with open(out) as f:
            j = json.load(f)
    except (OSError, ValueError) as e:
        return None, (f"exit {p.returncode}, no JSON ({e.__class__.__name__}): "
                      f"{' '.join(cmd)} ({tail})"), seconds
    row = {"workload": workload, "policy": policy}
    try:
        for k in NUMBERS:
            row[k] = str(int(j[k]))
    except (KeyError, TypeError, ValueError) as e:
        return None, f"JSON lacks {e}: {' '.join(cmd)}", seconds
    if int(row["exit_code"]) != p.returncode:
        return None, (f"process exit {p.returncode} but JSON exit_code {row['exit_code']}: "
                      f"{' '.join(cmd)}"), seconds
    return row, None, seconds


def read_table(path):
    """{(workload, policy): row} from the table (lines starting with '#' are comments)."""
    with open(path) as f:
        lines = [l for l in f if not l.startswith("#")]
    rows = {}
    for r in csv.DictReader(lines):
        rows[(r["workload"], r["policy"])] = {k: r[k] for k in COLUMNS}
    return rows


def write_table(path, rows):
    buf = io.StringIO()
    buf.write("# Golden cycles: every `simtsync list` workload at --size test, timing mode, "
              "config gtx480, under each warp scheduler (gto is the default) and, as "
              "gto+fetch_F and gto+UNIT, each other fetch policy and reconvergence unit.\n")
    buf.write("# Written by `scripts/golden_cycles.py --update SIMTSYNC`; checked by the CTest "
              "test golden.cycles. See tests/golden/README.md before changing it.\n")
    w = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n")
    w.writeheader()
    for key in sorted(rows):
        w.writerow(rows[key])
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(buf.getvalue())
    os.replace(tmp, path)


def fmt_row(r):
    return " ".join(f"{k}={r[k]}" for k in NUMBERS)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("simtsync", help="the simtsync binary (e.g. build/tools/simtsync)")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="compare with the table (default)")
    mode.add_argument("--update", action="store_true", help="rewrite the table")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1,
                    help="runs at once (default: number of CPUs)")
    ap.add_argument("--timeout", type=float, default=300.0,
                    help="seconds per run before it counts as a failure (default 300)")
    ap.add_argument("--table", default=TABLE, help="the table (default: %(default)s)")
    ap.add_argument("--workloads", help="comma-separated subset (for debugging; --check then "
                    "ignores the table's other rows, --update keeps them; so for --policies)")
    ap.add_argument("--policies",
                    help="comma-separated policy columns: a scheduler, gto+fetch_F for a fetch "
                    "policy, gto+UNIT for a reconvergence unit (default: every one `simtsync "
                    "list` gives)")
    ap.add_argument("--list-policies", action="store_true",
                    help="print the policy columns and their --set options, run nothing")
    a = ap.parse_args()

    binary = os.path.abspath(a.simtsync)
    if not os.access(binary, os.X_OK):
        sys.exit(f"golden_cycles: '{a.simtsync}' is not an executable")
    workloads, families = list_registry(binary)
    all_sets = policy_sets(binary, workloads, families)
    if a.list_policies:
        for name, sets in all_sets.items():
            print(f"{name:22} {' '.join('--set ' + kv for kv in sets)}")
        return 0
    if a.workloads:
        wanted = a.workloads.split(",")
        unknown = [w for w in wanted if w not in workloads]
        if unknown:
            sys.exit(f"golden_cycles: unknown workload(s) {', '.join(unknown)}")
        workloads = wanted
    policies = a.policies.split(",") if a.policies else list(all_sets)
    bad = [p for p in policies if p not in all_sets]
    if bad:
        sys.exit(f"golden_cycles: unknown policy column(s) {', '.join(bad)} (known: "
                 f"{', '.join(all_sets)})")
    expected = read_table(a.table) if os.path.exists(a.table) else {}
    if not a.update and not expected:
        sys.exit(f"golden_cycles: no table at {a.table} (run with --update to write it)")

    runs = [(w, p) for w in workloads for p in policies
            if p not in VARIANT_WORKLOADS or w.endswith(VARIANT_WORKLOADS[p])]
    # Longest first (by the recorded cycles) so the slow runs do not end up last.
    runs.sort(key=lambda k: -int(expected.get(k, {}).get("cycles", 1 << 62)))
    start = time.monotonic()
    actual, failures, durations = {}, {}, {}
    with tempfile.TemporaryDirectory(prefix="golden_cycles.") as tmp, \
            ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        futs = {pool.submit(run_one, binary, w, p, all_sets[p], tmp, a.timeout): (w, p)
                for w, p in runs}
        for fut in as_completed(futs):
            key = futs[fut]
            row, err, secs = fut.result()
            durations[key] = secs
            if err:
                failures[key] = err
                print(f"FAILED {key[0]} {key[1]}: {err}", flush=True)
            else:
                actual[key] = row
    wall = time.monotonic() - start
    slowest = sorted(durations.items(), key=lambda kv: -kv[1])[:3]
    slow_text = ", ".join(f"{w}/{p} {s:.1f} s" for (w, p), s in slowest)

    if a.update:
        if failures:
            print(f"golden_cycles: {len(failures)} of {len(runs)} runs failed; table not "
                  f"written ({wall:.0f} s, {a.jobs} jobs)")
            return 1
        subset = a.workloads or a.policies
        rows = dict(expected) if subset else {}
        rows.update(actual)
        changed = sum(1 for k, r in actual.items() if expected.get(k) != r)
        write_table(a.table, rows)
        print(f"golden_cycles: wrote {len(rows)} rows to {os.path.relpath(a.table)} "
              f"({changed} new or changed; {wall:.0f} s wall, {a.jobs} jobs; slowest: "
              f"{slow_text})")
        return 0

    differ = new = 0
    for key in sorted(actual):
        exp, got = expected.get(key), actual[key]
        if exp is None:
            new += 1
            print(f"NEW    {key[0]} {key[1]}: not in the table; actual {fmt_row(got)}")
        elif exp != got:
            differ += 1
            print(f"DIFFER {key[0]} {key[1]}:\n  expected {fmt_row(exp)}\n  actual   {fmt_row(got)}")
    considered = {k for k in expected
                  if (not a.workloads or k[0] in workloads)
                  and (not a.policies or k[1] in policies)}
    missing = sorted(k for k in considered if k not in actual and k not in failures)
    for key in missing:
        print(f"MISSING {key[0]} {key[1]}: in the table but not run (workload or policy gone?); "
              f"expected {fmt_row(expected[key])}")
    same = len(actual) - differ - new
    bad = differ + new + len(missing) + len(failures)
    print(f"golden_cycles: {'OK' if not bad else 'MISMATCH'}: {len(runs)} runs, {same} "
          f"identical, {differ} differ, {new} new, {len(missing)} missing, {len(failures)} "
          f"failed ({wall:.0f} s wall, {a.jobs} jobs; slowest: {slow_text})")
    if bad:
        print("golden_cycles: if the change is intended, run `scripts/golden_cycles.py --update "
              "build/tools/simtsync` and say why the numbers moved in the commit message "
              "(tests/golden/README.md)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
