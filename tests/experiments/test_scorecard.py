#!/usr/bin/env python3
"""docs/results/SCORECARD.md and docs/ssde.md's Table IV are what their generators make of the
committed CSVs (issue 44): scripts/scorecard.py --check and scripts/ssde_table.py --check pass
on the repository, and the check fails on a scorecard that differs by one character. No
simulator run; the arguments CTest passes to the other experiment tests are ignored."""
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCORECARD = os.path.join(ROOT, "scripts", "scorecard.py")
SSDE = os.path.join(ROOT, "scripts", "ssde_table.py")
COMMITTED = os.path.join(ROOT, "docs", "results", "SCORECARD.md")


def run(*args):
    p = subprocess.run([sys.executable] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def main():
    failures = []
    rc, out = run(SCORECARD, "--check")
    if rc != 0:
        failures.append("scorecard.py --check failed:\n" + out)
    rc, out = run(SSDE, "--check")
    if rc != 0:
        failures.append("ssde_table.py --check failed:\n" + out)
    # The check must see a change: a copy with one number altered is rejected.
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "SCORECARD.md")
        shutil.copy(COMMITTED, copy)
        with open(copy) as f:
            text = f.read()
        i = next(k for k, c in enumerate(text) if c.isdigit())
        with open(copy, "w") as f:
            f.write(text[:i] + str((int(text[i]) + 1) % 10) + text[i + 1:])
        rc, out = run(SCORECARD, "--check", "--out", copy)
        if rc != 1:
            failures.append("scorecard.py --check accepted an altered scorecard (exit %d)" % rc)
    for f in failures:
        print("FAIL:", f)
    if not failures:
        print("scorecard and Table IV match the committed CSVs")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
