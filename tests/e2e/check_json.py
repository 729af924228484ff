#!/usr/bin/env python3
"""check_json.py SIMTSYNC OUTDIR: `simtsync run ... --json` writes the documented fields."""
import json, os, subprocess, sys

exe, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
path = os.path.join(out, "ht_test.json")
rc = subprocess.run([exe, "run", "ht", "--size", "test", "--mode", "functional", "--json",
                     path]).returncode
assert rc == 0, f"exit code {rc}"
j = json.load(open(path))
for key in ["workload", "size", "config", "mode", "exit_code", "validated", "cycles",
            "warp_instructions", "thread_instructions", "stats"]:
    assert key in j, f"missing field {key}"
assert j["workload"] == "ht" and j["size"] == "test" and j["validated"] is True
assert j["exit_code"] == 0 and j["cycles"] == 0 and j["mode"] == "functional"
assert j["warp_instructions"] > 0 and j["thread_instructions"] >= j["warp_instructions"]
assert j["stats"]["func"]["cas_attempts"] > 0

# Timing mode: cycles, the stall breakdown, the resolved config beside the statistics, CSV.
path = os.path.join(out, "ht_timing.json")
csv = os.path.join(out, "ht_timing.csv")
rc = subprocess.run([exe, "run", "ht", "--size", "test", "--config", "tiny", "--json", path,
                     "--csv", csv]).returncode
assert rc == 0, f"exit code {rc}"
t = json.load(open(path))
assert t["mode"] == "timing" and t["config"] == "tiny" and t["cycles"] > 0 and t["validated"]
g = t["stats"]["gpu"]
assert g["cycles"] == t["cycles"] and g["ipc"] > 0
assert set(g["scheduler_cycles"]) >= {"issued", "idle", "control", "data", "structural",
                                      "barrier", "exit", "fetch"}
assert "issued" in g["sm"][0]["sched"][0]
assert len(g["kernels"]) == 1 and g["kernels"][0]["kernel"] == "ht_insert"
assert g["kernels"][0]["cycles"] == g["cycles"]
assert os.path.exists(os.path.join(out, "ht_timing.config.yaml"))
# Per-launch occupancy: bh's six kernels at 256 threads per CTA differ in registers per thread,
# so (with ptxas' counts) in CTAs per SM; the totals' occupancy is the last launch's.
path = os.path.join(out, "bh_occupancy.json")
subprocess.run([exe, "run", "bh", "--size", "test", "--set", "workload.threads=256", "--json",
                path], check=True)
b = json.load(open(path))["stats"]["gpu"]
ks = b["kernels"]
assert [k["kernel"] for k in ks[:6]] == ["bh_bb", "bh_tb", "bh_sm", "bh_st", "bh_fc", "bh_int"]
for k in ks:
    assert k["warps_per_cta"] == 8 and 1 <= k["occupancy_ctas_per_sm"] <= 8, k
assert ks[-1]["occupancy_ctas_per_sm"] == b["occupancy_ctas_per_sm"]
assert ks[-1]["registers_per_thread"] == b["registers_per_thread"]
if b["registers_source"] == "ptxas":
    occ = {k["kernel"]: k["occupancy_ctas_per_sm"] for k in ks}
    regs = {k["kernel"]: k["registers_per_thread"] for k in ks}
    assert regs["bh_tb"] > regs["bh_st"] and occ["bh_tb"] < occ["bh_st"], (regs, occ)
assert "gpu.cycles," in open(csv).read()
# Determinism: a second identical run gives identical statistics.
path2 = os.path.join(out, "ht_timing2.json")
subprocess.run([exe, "run", "ht", "--size", "test", "--config", "tiny", "--json", path2], check=True)
t2 = json.load(open(path2))
assert t2["stats"]["gpu"] == g, "two identical timing runs differ"
bench = json.loads(subprocess.run([exe, "bench", "--quick", "--json"], capture_output=True,
                                  text=True, check=True).stdout)
assert isinstance(bench, list) and len(bench) >= 2
for r in bench:
    for key in ["mode", "workload", "config", "seconds", "warp_instructions",
                "thread_instructions", "kips", "mtips", "cycles"]:
        assert key in r, f"bench record lacks {key}"
print("PASS")
