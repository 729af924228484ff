"""Policy records (`stats.gpu.records.<kind>`: a DDOS branch, a delay-limit change) are rows, not
statistics: results.csv leaves them out, as `simtsync run --csv` does, and records.csv holds one
row per record; `simtsync report` copies it gzipped, the same bytes every time."""
import csv
import gzip
import json
import os
import sys

from common import check, fresh_workdir, read_csv, simtsync

work = fresh_workdir()
exp = os.path.join(work, "records.yaml")
with open(exp, "w") as f:
    f.write("""name: records
workloads: [ht, vecadd]
configs: [tiny]
sizes: [test]
policies:
  lrr: {sm.warp_scheduler.impl: lrr}
  bows: {sm.warp_scheduler.impl: bows, sm.warp_scheduler.delay_window: 100}
baseline: {policy: lrr}
metrics:
  cycles: cycles
tables:
  - metric: cycles
""")
out, to = os.path.join(work, "out"), os.path.join(work, "report")
simtsync("sweep", exp, "--out", out)

rows = read_csv(os.path.join(out, "results.csv"))
check(len(rows) == 4 and all(r["status"] == "ok" for r in rows), "4 points, all ok")
check(not any(".records." in k for k in rows[0]), "results.csv has no records columns")
check(any(k == "stats.gpu.ddos.tsdr" for k in rows[0]), "results.csv keeps the DDOS summary")

# Every record of every point's JSON is one row of records.csv, in order, with its fields.
recs = read_csv(os.path.join(out, "records.csv"))
expected = []
for r in rows:
    with open(os.path.join(out, "points", r["point"] + ".json")) as f:
        kinds = json.load(f)["stats"]["gpu"].get("records", {})
    for kind, lst in kinds.items():
        for i, rec in enumerate(lst):
            expected.append((r["point"], kind, str(i), {k: str(v) for k, v in rec.items()}))
check(len(expected) > 0, "the BOWS points have records")
check(any(e[1] == "ddos_branch" for e in expected) and
      any(e[1] == "bows_delay_limit" for e in expected), "both record kinds are present")
got = [(r["point"], r["record"], r["index"], {k: v for k, v in r.items()
                                              if k not in ("point", "record", "index") and v != ""})
       for r in recs]
check(got == expected, f"records.csv holds the {len(expected)} records of the points' JSON")
check(not any(r["point"].endswith(".lrr") for r in recs), "LRR points have no records")

simtsync("report", exp, "--out", out, "--to", to)
gz = os.path.join(to, "records.csv.gz")
with gzip.open(gz, "rt", newline="") as f:
    check(list(csv.DictReader(f)) == recs, "records.csv.gz in the report is records.csv")
first = open(gz, "rb").read()
md = open(os.path.join(to, "report.md")).read()
check("(records.csv.gz)" in md, "report.md links records.csv.gz")
simtsync("report", exp, "--out", out, "--to", to)
check(open(gz, "rb").read() == first, "reporting again writes the same bytes")

# A workload parameter may be called `records` too (nn's params.records, a number): it stays a
# column, and only an object of lists is a policy's records (the collector once crashed on it).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "tools", "experiments"))
from results import flatten  # noqa: E402

kinds = {}
cols = flatten({"params": {"records": 4096},
                "stats": {"gpu": {"records": {"ddos_branch": [{"pc": 8}]}}}}, records=kinds)
check(cols == {"params.records": 4096}, f"a parameter named records is a column: {cols}")
check(kinds == {"ddos_branch": [{"pc": 8}]}, f"a policy's records are rows: {kinds}")
