#!/usr/bin/env python3
"""Issue 46: one shape of PTX from scripts/gen_big_ptx.py, analysed within a CPU-time and memory
budget that the analysis before issue 46 did not meet (docs/ssde.md "Analysis cost on large
PTX" has the measurements).

check_analysis_scaling.py SIMTSYNC SRC_DIR WORK_DIR SHAPE BYTES CPU_S MEM_MB EXPECT_RC [ARGS...]

CPU time (user + system of the analysis process) rather than wall time, so a busy machine does
not fail the test; the peak resident set is the child's ru_maxrss. EXPECT_RC 0: a report naming
the kernel; 4: a clean refusal naming the function and the budget.
"""
import os
import subprocess
import sys


def main():
    exe, src, work, shape, size, cpu_s, mem_mb, want_rc = sys.argv[1:9]
    extra = sys.argv[9:]
    os.makedirs(work, exist_ok=True)
    ptx = os.path.join(work, f"{shape}_{size}.ptx")
    subprocess.run([sys.executable, os.path.join(src, "scripts", "gen_big_ptx.py"), shape, size,
                    ptx], check=True)
    out_path = os.path.join(work, f"{shape}_{size}.out")
    with open(out_path, "w") as out:
        proc = subprocess.Popen([exe, "analyze", *extra, ptx], stdout=out,
                                stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(proc.pid, 0)
    rc = os.waitstatus_to_exitcode(status)
    cpu = usage.ru_utime + usage.ru_stime
    mem = usage.ru_maxrss / 1024.0  # KB on Linux
    text = open(out_path).read()
    print(f"{shape} {os.path.getsize(ptx)} bytes: exit {rc}, {cpu:.2f} s CPU, {mem:.0f} MB "
          f"(budget {cpu_s} s, {mem_mb} MB)")
    ok = True
    if rc != int(want_rc):
        print(f"FAIL: exit code {rc}, expected {want_rc}\n{text[-2000:]}")
        ok = False
    if int(want_rc) == 0 and "kernel big:" not in text:
        print(f"FAIL: no report for kernel big\n{text[-2000:]}")
        ok = False
    if int(want_rc) == 4 and "too large to analyse" not in text:
        print(f"FAIL: no refusal message\n{text[-2000:]}")
        ok = False
    if cpu > float(cpu_s):
        print(f"FAIL: {cpu:.2f} s CPU > {cpu_s} s")
        ok = False
    if mem > float(mem_mb):
        print(f"FAIL: {mem:.0f} MB > {mem_mb} MB")
        ok = False
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
