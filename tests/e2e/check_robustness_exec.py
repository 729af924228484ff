#!/usr/bin/env python3
"""Issue 45, messages and paths of the simtsync command: check_robustness_exec.py SIMTSYNC WORK
CASE runs one case and exits 0 when it holds (1 with what differed).

help_full        `--help`, `run --help`, `sweep --help` into /dev/full: exit 2, a message
empty_json       `run --json ""`, `run --csv ""`, `exec --json ""`: exit 2 naming the option
special_json     `run --json LINK` where LINK is a symlink to /dev/null: no sibling
                 LINK's-stem.config.yaml is derived from a non-regular file, exit 0
long_value       a 100 kB bad `--set` value: exit 2, the message names the key and is short
python_errors    sweep --out /dev/full, --out /proc/nope, report --to /dev/full, a non-UTF-8
                 experiment, an experiment named ../../etc: exit 2, one line, no traceback
sigint_startup   SIGINT while `sweep` resolves the inputs of 300 points: exit 130, a message, no
                 traceback, quickly
"""
import os
import shutil
import signal
import subprocess
import sys
import time

EXE, WORK, CASE = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), sys.argv[3]
SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TINY = os.path.join(SOURCE, "experiments", "tiny.yaml")
errors = []


def run(args, rc, has=(), stdout=None, cwd=None):
    with open(stdout, "w") if stdout else open(os.devnull, "w") as out:
        p = subprocess.run([EXE, *args], stdout=subprocess.PIPE if not stdout else out,
                           stderr=subprocess.PIPE, text=True, errors="replace", cwd=cwd,
                           timeout=300)
    err = p.stderr
    shown = " ".join(a if len(a) < 60 else a[:60] + "..." for a in args)
    print(f"$ simtsync {shown}{' > ' + stdout if stdout else ''}\n  exit {p.returncode}\n"
          f"  stderr: {err[:600]!r}")
    if p.returncode != rc:
        errors.append(f"{shown}: exit {p.returncode}, expected {rc}")
    for h in has:
        if h not in err:
            errors.append(f"{shown}: stderr lacks {h!r}")
    if "Traceback" in err:
        errors.append(f"{shown}: a Python traceback")
    return p, err


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
if CASE == "help_full":
    for args in (["--help"], ["run", "--help"], ["sweep", "--help"], ["report", "--help"]):
        run(args, 2, ["cannot write standard output"], stdout="/dev/full")
    p, _ = run(["--help"], 0)
    if "simtsync" not in p.stdout:
        errors.append("--help to a pipe printed no help")
elif CASE == "empty_json":
    run(["run", "vecadd", "--size", "test", "--json", ""], 2, ["--json: an empty path"])
    run(["run", "vecadd", "--size", "test", "--csv", ""], 2, ["--csv: an empty path"])
    run(["exec", "--json", "", "--", "true"], 2, ["--json: an empty path"])
elif CASE == "special_json":
    link = os.path.join(WORK, "null.json")
    os.symlink("/dev/null", link)
    run(["run", "vecadd", "--size", "test", "--json", link], 0)
    if os.path.exists(os.path.join(WORK, "null.config.yaml")):
        errors.append("a null.config.yaml was derived from a --json that is /dev/null")
    # A regular file still gets its sibling.
    run(["run", "vecadd", "--size", "test", "--json", os.path.join(WORK, "r.json")], 0)
    if not os.path.isfile(os.path.join(WORK, "r.config.yaml")):
        errors.append("no r.config.yaml beside a regular --json file")
elif CASE == "long_value":
    value = "x" * 100000
    p, err = run(["run", "vecadd", "--size", "test", "--set", "gpu.num_sms=" + value], 2,
                 ["gpu.num_sms", "more characters"])
    if len(err) > 2000:
        errors.append(f"the message is {len(err)} characters long")
elif CASE == "python_errors":
    run(["sweep", TINY, "--out", "/dev/full", "--dry-run"], 2, ["simtsync: error: "])
    run(["sweep", TINY, "--out", "/proc/nope", "--dry-run"], 2, ["simtsync: error: "])
    out = os.path.join(WORK, "out")
    run(["sweep", TINY, "--out", out, "--jobs", "2"], 0)
    run(["report", TINY, "--out", out, "--to", "/dev/full"], 2, ["simtsync: error: "])
    bad = os.path.join(WORK, "latin1.yaml")
    with open(bad, "wb") as f:
        f.write(b"name: caf\xe9\nworkloads: [vecadd]\n")
    run(["sweep", bad, "--dry-run"], 2, ["not UTF-8"])
    escape = os.path.join(WORK, "escape.yaml")
    with open(escape, "w") as f:
        f.write("name: ../../etc\nworkloads: [vecadd]\nconfigs: [tiny]\nsizes: [test]\n")
    run(["sweep", escape, "--jobs", "1"], 2, ["plain name"], cwd=WORK)
    if os.path.exists(os.path.join(WORK, "..", "etc")) or os.path.exists("/etc/points"):
        errors.append("the experiment ../../etc wrote outside results/")
elif CASE == "sigint_startup":
    many = os.path.join(WORK, "many.yaml")
    with open(many, "w") as f:
        f.write("name: many\nworkloads: [vecadd]\nconfigs: [tiny]\nsizes: [test]\n"
                f"sweep: {{workload.n: [{', '.join(str(64 + i) for i in range(300))}]}}\n")
    proc = subprocess.Popen([EXE, "sweep", many, "--out", os.path.join(WORK, "out"), "--jobs",
                             "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.0)  # resolving 300 points' inputs one at a time takes several seconds
    proc.send_signal(signal.SIGINT)
    t0 = time.time()
    out, err = proc.communicate(timeout=120)
    print(f"exit {proc.returncode} after {time.time() - t0:.1f} s\n  stderr: {err[-600:]!r}")
    if proc.returncode != 130:
        errors.append(f"exit {proc.returncode}, expected 130")
    if "Traceback" in err or "interrupted" not in err:
        errors.append("no one-line message (or a traceback)")
    if time.time() - t0 > 10:
        errors.append("the sweep took more than 10 s to stop")
else:
    errors.append(f"unknown case {CASE}")
for e in errors:
    print("FAIL:", e)
print("PASS" if not errors else "FAILED")
sys.exit(1 if errors else 0)
