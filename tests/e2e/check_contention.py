#!/usr/bin/env python3
"""check_contention.py SIMTSYNC OUTDIR: fewer ht buckets mean more lock contention, which the
memory hierarchy must show as more atomic-unit traffic and queueing and more cycles (issue 4;
test size with 8 CTAs, 16 against 4096 buckets;
the default-size run is recorded in docs/memory-calibration.md)."""
import json, os, subprocess, sys

exe, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
res = {}
for buckets in (16, 4096):
    path = os.path.join(out, f"ht_b{buckets}.json")
    rc = subprocess.run([exe, "run", "ht", "--config", "gtx480", "--size", "test", "--set", "workload.ctas=8",
                         "--set", f"workload.buckets={buckets}", "--json", path]).returncode
    assert rc == 0, f"buckets={buckets}: exit code {rc}"
    j = json.load(open(path))
    assert j["validated"]
    m = j["stats"]["gpu"]["memory"]
    res[buckets] = (j["cycles"], m["atomic"]["ops"], m["atomic"]["queue_wait_cycles"],
                    m["atomic"]["address_stall_cycles"])
    print(f"buckets={buckets}: cycles {res[buckets][0]}, atomic ops {res[buckets][1]}, "
          f"queue wait {res[buckets][2]}, address stalls {res[buckets][3]}")
hi, lo = res[16], res[4096]
assert hi[0] > lo[0], "16 buckets must take more cycles than 4096"
assert hi[1] > lo[1], "16 buckets must execute more atomic operations (failed lock attempts)"
assert hi[2] > lo[2] and hi[3] > lo[3], "16 buckets must queue more at the atomic units"
print("PASS")
