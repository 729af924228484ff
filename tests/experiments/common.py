"""Helpers of the experiment tests: run `simtsync sweep/report` and read what they wrote."""
import csv
import os
import shutil
import subprocess
import sys

EXE = os.path.abspath(sys.argv[1])
WORK = os.path.abspath(sys.argv[2])
HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
TINY = os.path.join(SOURCE, "experiments", "tiny.yaml")
TIMING_COLUMNS = {"seconds", "sim_seconds"}  # wall-clock times: the only columns that may differ


def fresh_workdir():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    return WORK


def simtsync(*args, expect=0):
    p = subprocess.run([EXE, *args], capture_output=True, text=True)
    out = p.stdout + p.stderr
    print(f"$ simtsync {' '.join(args)}\n{out}")
    if expect is not None and p.returncode != expect:
        fail(f"exit code {p.returncode}, expected {expect}")
    return out


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def without_times(rows):
    return [{k: v for k, v in r.items() if k not in TIMING_COLUMNS} for r in rows]


def point_files(out, ext):
    return sorted(f[:-len(ext) - 1] for f in os.listdir(os.path.join(out, "points"))
                  if f.endswith("." + ext))


def check(cond, what):
    if not cond:
        fail(what)
    print(f"ok: {what}")


def fail(what):
    print(f"FAILED: {what}")
    sys.exit(1)
