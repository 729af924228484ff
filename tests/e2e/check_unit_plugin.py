#!/usr/bin/env python3
"""The test-only reconvergence unit (example_depth) as a user sees it: in `simtsync list` with its
parameter and statistics, in the resolved config with its key and description, and its declared
statistics in the JSON, CSV and text table of a run; the IPDOM stack underneath runs the same
cycles as ipdom_stack, and a unit without statistics shows none."""
import json
import os

from plugin_check import Check

c = Check()
exe, out, fails, run = c.exe, c.out, c.fails, c.run
WORKLOAD = ["ht", "--size", "test"]


listing = run("list")
for want in ("example_depth", "parameter sm.reconvergence.deep_threshold",
             "statistic divergent_branches", "statistic deep_branches", "statistic max_depth"):
    if want not in listing:
        fails.append(f"simtsync list lacks '{want}'")

sets = ["--set", "sm.reconvergence.impl=example_depth", "--set", "sm.reconvergence.deep_threshold=2"]
dump = run("run", *WORKLOAD, *sets, "--dump-config")
if "deep_threshold: 2" not in dump or "counts as deep" not in dump:
    fails.append("the resolved config lacks deep_threshold or its description")

jpath, cpath = os.path.join(out, "r.json"), os.path.join(out, "r.csv")
text = run("run", *WORKLOAD, *sets, "--json", jpath, "--csv", cpath)
j = json.load(open(jpath))
f = j["stats"]["func"]
u = f.get("reconvergence", {})
st = u.get("stats", {})
if u.get("unit") != "example_depth" or set(st) != {"divergent_branches", "deep_branches",
                                                   "max_depth"}:
    fails.append(f"JSON stats.func.reconvergence wrong: {u}")
elif not (0 < st["divergent_branches"] == f["divergent_branches"] and st["max_depth"] >= 3
          and st["deep_branches"] <= st["divergent_branches"]):
    fails.append(f"JSON counters implausible: {st}, stats.func.divergent_branches "
                 f"{f['divergent_branches']}")
csv = open(cpath).read()
for k in ("unit,\"example_depth\"", "stats.divergent_branches,", "stats.max_depth,"):
    if f"stats.func.reconvergence.{k}" not in csv:
        fails.append(f"CSV lacks stats.func.reconvergence.{k}")
if "example_depth.max_depth" not in text:
    fails.append("the text table lacks example_depth.max_depth")

# The stack underneath is unchanged: the same cycles as ipdom_stack; its JSON has no unit stats.
bpath = os.path.join(out, "b.json")
run("run", *WORKLOAD, "--set", "sm.reconvergence.impl=ipdom_stack", "--json", bpath)
b = json.load(open(bpath))
if b["cycles"] != j["cycles"] or b["warp_instructions"] != j["warp_instructions"]:
    fails.append(f"example_depth ran {j['cycles']} cycles, ipdom_stack {b['cycles']}")
if "reconvergence" in b["stats"]["func"]:
    fails.append("ipdom_stack (no statistics) shows stats.func.reconvergence")

c.finish()
