#!/usr/bin/env python3
"""Issue 13: `simtsync analyze` / `transform` on CUDA files as a new user runs them.

- nvcc's warnings go to stderr and stdout is JSON alone (`analyze --json x.cu | json.tool`);
- -D reaches nvcc; two files named the same, analysed one after the other, give their own
  answers; the private temporary directory is removed;
- `transform x.cu` prints PTX alone on stdout.
Exits 77 (skipped) when nvcc is absent.
Usage: check_analyze_cli.py SIMTSYNC SOURCE_DIR WORK_DIR
"""
import json
import os
import shutil
import subprocess
import sys

NVCC = os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc")


def run(args, tmp):
    env = dict(os.environ, TMPDIR=tmp)
    return subprocess.run(args, capture_output=True, text=True, env=env)


def main():
    exe, src, work = sys.argv[1], sys.argv[2], sys.argv[3]
    if not (os.path.exists(NVCC) or shutil.which("nvcc")):
        print("nvcc not installed: skipped")
        return 77
    shutil.rmtree(work, ignore_errors=True)
    tmp = os.path.join(work, "tmp")
    os.makedirs(tmp)
    case = os.path.join(src, "tests", "golden", "issue13_cli_warns.cu")
    failures = []

    def check(cond, what):
        print(("ok   " if cond else "FAIL ") + what)
        if not cond:
            failures.append(what)

    # 1. JSON on stdout alone while nvcc warns on stderr; -D reaches nvcc.
    r = run([exe, "analyze", "--json", case, "-D", "SPIN_LOCK"], tmp)
    check(r.returncode == 0, f"analyze --json exit 0 (got {r.returncode}: {r.stderr[-300:]})")
    check("warning" in r.stderr, "nvcc's warning is on stderr")
    try:
        j = json.loads(r.stdout)
        flagged = sum(l["flagged"] for f in j for l in f["loops"])
        check(flagged == 1, f"-D SPIN_LOCK: the spin loop is flagged ({flagged})")
    except json.JSONDecodeError as e:
        check(False, f"stdout parses as JSON ({e}): {r.stdout[:200]!r}")
    r = run([exe, "analyze", "--json", case], tmp)
    j = json.loads(r.stdout)
    check(sum(len(f["loops"]) for f in j) == 0, "without -D there is no loop")
    check(os.listdir(tmp) == [], f"temporary files removed ({os.listdir(tmp)})")

    # 2. Two files with the same name, one after the other.
    for d, spin in (("a", True), ("b", False)):
        os.makedirs(os.path.join(work, d))
        with open(case) as f:
            text = f.read()
        if spin:
            text = "#define SPIN_LOCK\n" + text
        with open(os.path.join(work, d, "same.cu"), "w") as f:
            f.write(text)
    r = run([exe, "analyze", "--json", os.path.join(work, "a", "same.cu"),
             os.path.join(work, "b", "same.cu")], tmp)
    j = json.loads(r.stdout)
    loops = [len(f["loops"]) for f in j]
    check(loops == [1, 0], f"same-named files get their own answers ({loops})")
    check(os.listdir(tmp) == [], "temporary files removed after two files")
    # -D/--nvcc-flag take one value each: the files after them stay files.
    r = run([exe, "analyze", "--json", "-D", "SPIN_LOCK", "--nvcc-flag", "-O3",
             os.path.join(work, "a", "same.cu"), os.path.join(work, "b", "same.cu")], tmp)
    j = json.loads(r.stdout)
    loops = [len(f["loops"]) for f in j]
    check(loops == [1, 1], f"-D applies to every file, files are not nvcc flags ({loops})")

    # 3. transform x.cu: PTX alone on stdout.
    r = run([exe, "transform", case, "-D", "SPIN_LOCK"], tmp)
    first = r.stdout.lstrip().split("\n", 1)[0]
    check(r.returncode == 0 and (first.startswith("//") or first.startswith(".")),
          f"transform prints PTX first ({first[:60]!r})")
    check("warning" not in r.stdout, "no nvcc warning in the PTX")
    check(".version" in r.stdout and "%ssde_c0" in r.stdout, "transformed PTX on stdout")

    # 4. --table ground truth from a sidecar NAME.truth beside the input, not from names.
    for name, truth in (("plain", "plain.ptx * spin\n"), ("mimd_named", "")):
        shutil.copy(os.path.join(src, "tests", "golden", "seed003_fig1_spinlock.ptx"),
                    os.path.join(work, name + ".ptx"))
        if truth:
            with open(os.path.join(work, name + ".truth"), "w") as f:
                f.write(truth)
    r = run([exe, "analyze", "--table", "--json", os.path.join(work, "plain.ptx"),
             os.path.join(work, "mimd_named.ptx")], tmp)
    rows = {row["file"]: row for row in json.loads(r.stdout)}
    check(rows["plain.ptx"]["true"] == 1, "sidecar truth: the listed kernel's detection is true")
    check(rows["mimd_named.ptx"]["false"] == 1,
          "no sidecar: a detection is false whatever the file is called")

    # 5. Bad input: clear message, documented exit code.
    r = run([exe, "analyze", os.path.join(work, "missing.cu")], tmp)
    check(r.returncode == 2, f"missing .cu file: exit 2 (got {r.returncode})")
    with open(os.path.join(work, "broken.cu"), "w") as f:
        f.write("__global__ void k( {\n")
    r = run([exe, "analyze", os.path.join(work, "broken.cu")], tmp)
    check(r.returncode == 4 and "nvcc could not compile" in r.stderr,
          f"nvcc error: exit 4 with a message (got {r.returncode})")
    check(os.listdir(tmp) == [], "temporary files removed after an nvcc failure")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
