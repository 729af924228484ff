#!/usr/bin/env python3
"""Issue 23: output paths are checked before anything runs and every write is checked (exit 2
naming the path); empty or .version-less PTX is malformed input (exit 4).

check_diagnoses.py SIMTSYNC WORKDIR SOURCE_DIR"""
import os
import subprocess
import sys
import time

exe, work, src = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(work, exist_ok=True)
failures = []


def run(*args):
    t0 = time.monotonic()
    p = subprocess.run([exe, *args], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr, time.monotonic() - t0


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


ptx = os.path.join(src, "workloads", "ht", "ht.ptx")

# transform -o /dev/full: the write fails at flush or close.
rc, out, _ = run("transform", ptx, "-o", "/dev/full")
check(rc == 2 and "/dev/full" in out, f"transform -o /dev/full exits 2 naming the path ({rc}: {out.strip()[-200:]})")

# transform -o into a missing directory: refused before parsing.
missing = os.path.join(work, "no_such_dir", "out.ptx")
rc, out, _ = run("transform", ptx, "-o", missing)
check(rc == 2 and missing in out, f"transform -o into a missing directory exits 2 ({rc})")

# run --json / --csv to unwritable paths: refused before the simulation (a default-size run
# takes far longer than the bound below; nothing of the run is printed).
for flag in ("--json", "--csv"):
    bad = os.path.join(work, "no_such_dir", "stats" + (".json" if flag == "--json" else ".csv"))
    rc, out, secs = run("run", "ht", "--size", "default", flag, bad)
    check(rc == 2 and bad in out and "simtsync run ht" not in out and secs < 20,
          f"run {flag} to a missing directory exits 2 before simulating ({rc}, {secs:.1f} s)")
rc, out, secs = run("run", "ht", "--size", "default", "--json", work)
check(rc == 2 and work in out and secs < 20, f"run --json to a directory exits 2 ({rc})")

# A writable path still works (and the resolved configuration goes beside it).
good = os.path.join(work, "ok.json")
rc, out, _ = run("run", "vecadd", "--size", "test", "--json", good)
check(rc == 0 and os.path.getsize(good) > 0 and os.path.getsize(os.path.join(work, "ok.config.yaml")) > 0,
      f"run --json to a writable path writes the statistics and the config ({rc})")

# Empty PTX and PTX without .version: exit 4 with FILE:LINE.
empty = os.path.join(work, "empty.ptx")
open(empty, "w").close()
noversion = os.path.join(work, "noversion.ptx")
with open(noversion, "w") as f:
    f.write("// a comment\n.target sm_52\n.address_size 64\n"
            ".visible .entry k()\n{\n  ret;\n}\n")
for cmd in ("transform", "analyze"):
    rc, out, _ = run(cmd, empty)
    check(rc == 4 and f"{empty}:1:" in out and ".version" in out,
          f"{cmd} of an empty PTX file exits 4 ({rc}: {out.strip()[-200:]})")
    rc, out, _ = run(cmd, noversion)
    check(rc == 4 and f"{noversion}:2:" in out and ".version" in out,
          f"{cmd} of PTX without .version exits 4 at its first directive ({rc}: {out.strip()[-200:]})")

sys.exit(1 if failures else 0)
