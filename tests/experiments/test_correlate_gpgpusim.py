#!/usr/bin/env python3
"""scripts/correlate.py --reference gpgpusim without GPGPU-Sim, and its output parsers.

    test_correlate_gpgpusim.py

GPGPU-Sim is never part of the build: with $GPGPUSIM_HOME pointing nowhere the script must say it
skipped and exit 0. The parsers read GPGPU-Sim's statistics the way the recorded correlation did:
the last value of a key, DRAM reads as the last block of per-channel n_rd (one per -gpgpu_n_mem),
and the summary's MAE and correlations.
"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts", "gpgpusim"))
import reference  # noqa: E402

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


env = dict(os.environ, GPGPUSIM_HOME="/nonexistent/gpgpusim")
p = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "correlate.py"), "simtsync",
                    "--reference", "gpgpusim"], capture_output=True, text=True, env=env)
check(p.returncode == 0 and "skipped" in p.stdout and "/nonexistent/gpgpusim" in p.stdout,
      f"no GPGPU-Sim: exit 0 and a message naming where it looked (got {p.returncode}: "
      f"{p.stdout.strip()[:120]})")
p = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "gpgpusim", "probes.py"),
                    "simtsync", os.devnull], capture_output=True, text=True, env=env)
check(p.returncode == 0 and "skipped" in p.stdout,
      f"probes.py without GPGPU-Sim: exit 0 and says it skipped (got {p.returncode})")

out = """-gpgpu_n_mem                            2 # number of memory modules
gpu_tot_sim_cycle = 100
n_cmd=1 n_rd=7 n_write=0
n_cmd=1 n_rd=5 n_write=0
gpu_tot_sim_cycle = 250
gpgpu_n_tot_w_icount = 40
n_cmd=1 n_rd=11 n_write=0
n_cmd=1 n_rd=13 n_write=0
total dram reads = 0
"""
check(reference.last_number(out, "gpu_tot_sim_cycle") == 250, "the last value of a key")
check(reference.dram_reads(out) == 24, "DRAM reads: the last block of n_rd, one per channel")
s = reference.summarize([{"gpgpusim_cycles": 100, "simtsync_cycles": 110},
                         {"gpgpusim_cycles": 200, "simtsync_cycles": 140}])
check(abs(s["mae"] - 0.2) < 1e-9 and s["within25"] == 1 and s["n"] == 2,
      f"MAE of 10% and 30% is 20%, one within 25% (got {s})")
check(abs(reference.pearson([1, 2, 3], [2, 4, 6]) - 1) < 1e-12, "Pearson of a line is 1")
print(f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
