#!/usr/bin/env python3
"""Runs one CUDA program under `simtsync exec` and checks what it did.

    run_program.py SIMTSYNC PROGRAM [--rc N] [--stdout-has TEXT]... [--stderr-has TEXT]...
                   [--stdout-is FILE_OR_TEXT] [--json-check KEY=VALUE]... [--arg ARG]...
                   [--json-path PATH] [--stale-json] [--std{out,err}-lacks TEXT]...
                   [--max-rss-mb N] [-- EXEC_OPTIONS...]

EXEC_OPTIONS go to `simtsync exec` (--set, --config, --mode, --threads). Exit 0 when every
check holds; otherwise prints what differed and exits 1.
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("simtsync")
    ap.add_argument("program")
    ap.add_argument("--rc", type=int, default=0)
    ap.add_argument("--stdout-has", action="append", default=[])
    ap.add_argument("--stderr-has", action="append", default=[])
    ap.add_argument("--stderr-lacks", action="append", default=[])
    ap.add_argument("--stdout-lacks", action="append", default=[])
    ap.add_argument("--arg", action="append", default=[], help="an argument of the program")
    ap.add_argument("--json-path", default=None,
                    help="the --json path to give exec (default: a file in a fresh folder)")
    ap.add_argument("--stale-json", action="store_true",
                    help="leave a statistics file of an earlier, faulting run at the --json path")
    ap.add_argument("--stdout-is", default=None, help="exact expected stdout (\\n for newlines)")
    ap.add_argument("--yaml", default=None, help="simtsync.yaml to write in the working directory")
    ap.add_argument("--direct", default=None, metavar="LIBDIR",
                    help="run the program itself with LIBDIR first on LD_LIBRARY_PATH and the "
                         "SIMTSYNC_* variables from --env, not through `simtsync exec`")
    ap.add_argument("--env", action="append", default=[], help="KEY=VALUE for --direct")
    ap.add_argument("--max-rss-mb", type=float, default=None,
                    help="fail when the largest process of the run (simtsync or the program) "
                         "had a peak resident set above N MiB")
    ap.add_argument("--json-check", action="append", default=[],
                    help="KEY=VALUE on the statistics JSON (KEY: a.b.c, len(a) for a list)")
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    a = ap.parse_args(argv[:cut])
    opts = argv[cut + 1:]
    with tempfile.TemporaryDirectory() as tmp:
        js = a.json_path if a.json_path is not None else os.path.join(tmp, "stats.json")
        if a.stale_json:
            with open(js, "w") as f:
                json.dump({"program": "exec", "exit_code": 5, "launches": [],
                           "message": "a fault of an earlier run"}, f)
        if a.yaml is not None:
            with open(os.path.join(tmp, "simtsync.yaml"), "w") as f:
                f.write(a.yaml.replace("\\n", "\n"))
        env = dict(os.environ)
        if a.direct:
            cmd = [a.program, *a.arg]
            env["LD_LIBRARY_PATH"] = a.direct
            env["SIMTSYNC_JSON"] = js
            env.update(kv.split("=", 1) for kv in a.env)
        else:
            cmd = [a.simtsync, "exec", "--quiet", "--json", js, *opts, "--", a.program, *a.arg]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=tmp, env=env)
        errors = []
        # The peak of the largest descendant waited for (Linux reports KiB).
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        if a.max_rss_mb is not None and peak_mb > a.max_rss_mb:
            errors.append(f"peak resident set {peak_mb:.0f} MiB, more than {a.max_rss_mb:g} MiB")
        if p.returncode != a.rc:
            errors.append(f"exit code {p.returncode}, expected {a.rc}")
        for t in a.stdout_has:
            if t not in p.stdout:
                errors.append(f"stdout lacks {t!r}")
        for t in a.stderr_has:
            if t not in p.stderr:
                errors.append(f"stderr lacks {t!r}")
        for t in a.stdout_lacks:
            if t in p.stdout:
                errors.append(f"stdout has {t!r}")
        for t in a.stderr_lacks:
            if t in p.stderr:
                errors.append(f"stderr has {t!r}")
        if a.stdout_is is not None:
            want = a.stdout_is.replace("\\n", "\n")
            if p.stdout != want:
                errors.append(f"stdout is {p.stdout!r}, expected {want!r}")
        if a.json_check:
            try:
                with open(js) as f:
                    stats = json.load(f)
            except (OSError, ValueError) as e:
                errors.append(f"no statistics JSON: {e}")
                stats = None
            for chk in a.json_check if stats is not None else []:
                key, want = chk.split("=", 1)
                length = key.startswith("len(")
                node = stats
                for part in (key[4:-1] if length else key).split("."):
                    node = node.get(part) if isinstance(node, dict) else None
                got = len(node) if length and node is not None else node
                if str(got) != want:
                    errors.append(f"statistics {key} = {got!r}, expected {want}")
    if errors:
        print("command:", " ".join(cmd))
        print("stdout:\n" + p.stdout)
        print("stderr:\n" + p.stderr[-4000:])
        for e in errors:
            print("FAIL:", e)
        return 1
    print(f"ok: {' '.join(cmd)} (peak resident set {peak_mb:.0f} MiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
