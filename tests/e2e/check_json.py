#!/usr/bin/env python3
"""check_json.py SIMTSYNC OUTDIR: `simtsync run ... --json` writes the documented fields."""
import json, os, subprocess, sys

exe, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
path = os.path.join(out, "ht_test.json")
rc = subprocess.run([exe, "run", "ht", "--size", "test", "--json", path]).returncode
assert rc == 0, f"exit code {rc}"
j = json.load(open(path))
for key in ["workload", "size", "config", "mode", "exit_code", "validated", "cycles",
            "warp_instructions", "thread_instructions", "stats"]:
    assert key in j, f"missing field {key}"
assert j["workload"] == "ht" and j["size"] == "test" and j["validated"] is True
assert j["exit_code"] == 0 and j["cycles"] == 0 and j["mode"] == "functional"
assert j["warp_instructions"] > 0 and j["thread_instructions"] >= j["warp_instructions"]
assert j["stats"]["func"]["cas_attempts"] > 0
bench = json.loads(subprocess.run([exe, "bench", "--quick", "--json"], capture_output=True,
                                  text=True, check=True).stdout)
assert isinstance(bench, list) and len(bench) >= 2
for r in bench:
    for key in ["mode", "workload", "config", "seconds", "warp_instructions",
                "thread_instructions", "kips", "mtips"]:
        assert key in r, f"bench record lacks {key}"
print("PASS")
