#!/usr/bin/env python3
"""docs/ssde.md's seed 003 Table IV analogue, generated (issue 44).

    scripts/ssde_table.py --run build/tools/simtsync   runs the analysis (below) and writes
                                                       docs/results/aware_mimd/table_iv.csv
    scripts/ssde_table.py                              rewrites the table in docs/ssde.md
                                                       from that CSV
    scripts/ssde_table.py --check                      exit 1 when docs/ssde.md's table is
                                                       not what the CSV gives

--run executes, for each analysis variant,
    simtsync analyze --table --json --truth tests/golden/deadlock_truth.txt [FLAGS] \
        workloads/*/*.ptx
and keeps every kernel's row (static analysis only: seconds, no simulation). The table in
docs/ssde.md sits between the markers <!-- table_iv begin --> and <!-- table_iv end -->; the
seed's row is data here with its citation. Python 3 standard library only.
"""
import argparse
import csv
import glob
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CSV = os.path.join(ROOT, "docs", "results", "aware_mimd", "table_iv.csv")
DOC = os.path.join(ROOT, "docs", "ssde.md")
TRUTH = "tests/golden/deadlock_truth.txt"
BEGIN, END = "<!-- table_iv begin -->", "<!-- table_iv end -->"

# (name in the CSV, label in the table, flags)
VARIANTS = [
    ("default", "**all**", []),
    ("before_issue13", "all, before issue 13 (`--no-uniformity --no-split-loops --no-inline`)",
     ["--no-uniformity", "--no-split-loops", "--no-inline"]),
    ("no_uniformity", "all, `--no-uniformity`", ["--no-uniformity"]),
    ("params_may_alias", "all, `--params-may-alias`", ["--params-may-alias"]),
    ("no_parallel", "all, `--no-parallel` (AWARE)", ["--no-parallel"]),
    ("compat", "all, `--compat`", ["--compat"]),
]
FIELDS = ["analysis", "file", "kernel", "group", "branches", "loops", "detections",
          "busy_waits", "true", "false", "missed", "calls_not_analysed"]
NUMS = FIELDS[4:]
# Seed 003 Table IV (sec. V-B1), the O2 row: kernels, branches, loops, detections, true,
# false, false rate.
SEED_ROW = "| seed 003 Table IV, O2 | 139 | 1832 | 242 | 14 | | 4 | 10 | 4.13% | |"


def run(binary):
    ptx = sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "workloads",
                                                                            "*", "*.ptx")))
    out = []
    for name, _, flags in VARIANTS:
        cmd = [binary, "analyze", "--table", "--json", "--truth", TRUTH] + flags + ptx
        p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
        if p.returncode != 0:
            sys.exit("%s: exit %d\n%s" % (" ".join(cmd[:7]), p.returncode, p.stderr[-2000:]))
        for r in json.loads(p.stdout):
            out.append({"analysis": name, **{k: r[k] for k in FIELDS[1:]}})
    with open(CSV, "w", newline="") as f:
        w = csv.DictWriter(f, FIELDS)
        w.writeheader()
        w.writerows(out)
    print("wrote %s (%d rows, %d PTX files)" % (CSV, len(out), len(ptx)))


def load():
    with open(CSV, newline="") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        for k in NUMS:
            r[k] = int(r[k])
    return rows


def totals(rows):
    t = {k: sum(r[k] for r in rows) for k in NUMS}
    t["kernels"] = len(rows)
    return t


def line(label, t):
    rate = 100.0 * t["false"] / t["loops"] if t["loops"] else 0.0
    return "| %s | %d | %d | %d | %d | %d | %d | %d | %.2f%% | %d |" % (
        label, t["kernels"], t["branches"], t["loops"], t["detections"], t["busy_waits"],
        t["true"], t["false"], rate, t["missed"])


def markdown():
    rows = load()
    by = {}
    for r in rows:
        by.setdefault(r["analysis"], []).append(r)
    d = by["default"]
    files = sorted({r["file"] for r in d})
    out = [
        "Generated from [table_iv.csv](results/aware_mimd/table_iv.csv): %d kernels in %d PTX "
        "files." % (len(d), len(files)),
        "",
        "| group | kernels | branches | loops | detections | busy-waits | true | false | "
        "false rate | missed |",
        "|---|---|---|---|---|---|---|---|---|---|",
        line("deadlock under IPDOM (listed in the truth file)",
             totals([r for r in d if r["group"] == "deadlock"])),
        line("SIMT-safe (every other kernel)", totals([r for r in d if r["group"] == "safe"])),
    ]
    for name, label, _ in VARIANTS:
        out.append(line(label, totals(by[name])))
    out.append(SEED_ROW)
    false = [r for r in d if r["false"]]
    out += ["", "False detections (default analysis), by kernel: " + ", ".join(
        "`%s` (%s) %d" % (r["kernel"], r["file"], r["false"])
        for r in sorted(false, key=lambda r: (r["file"], r["kernel"])))
        + "."]
    missed = [r for r in d if r["missed"]]
    calls = [r for r in d if r["calls_not_analysed"]]
    out.append("Calls not analysed (named in each report): %d, in " % sum(
        r["calls_not_analysed"] for r in calls) + ", ".join(
        "`%s` %d" % (r["kernel"], r["calls_not_analysed"]) for r in calls) + ".")
    out.append("Missed: " + (", ".join("`%s` (%s) %d" % (r["kernel"], r["file"], r["missed"])
                                       for r in missed)
                             if missed else "none") + ".")
    return "\n".join(out) + "\n"


def splice(doc, table):
    a, b = doc.index(BEGIN) + len(BEGIN), doc.index(END)
    return doc[:a] + "\n" + table + doc[b:]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--run", metavar="SIMTSYNC", help="run the analysis and write the CSV")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    if a.run:
        run(os.path.abspath(a.run))
    with open(DOC) as f:
        doc = f.read()
    new = splice(doc, markdown())
    if a.check:
        if new != doc:
            print("ssde_table: docs/ssde.md's Table IV differs from %s; run "
                  "scripts/ssde_table.py" % os.path.relpath(CSV, ROOT), file=sys.stderr)
            return 1
        print("ssde_table: docs/ssde.md's Table IV matches the CSV")
        return 0
    if new != doc:
        with open(DOC, "w") as f:
            f.write(new)
    print("docs/ssde.md: Table IV from %s" % os.path.relpath(CSV, ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
