#!/usr/bin/env python3
"""The test-only policy (example_hold) as a user sees it: in `simtsync list`, in the resolved
config with its description, and its declared statistic in the JSON and CSV of a run."""
import json
import os

from plugin_check import Check

c = Check()
exe, out, fails, run = c.exe, c.out, c.fails, c.run


listing = run("list")
if "example_hold" not in listing or "parameter sm.warp_scheduler.hold_cycles" not in listing \
        or "statistic empty_orders" not in listing:
    fails.append("simtsync list does not show example_hold with its parameter and statistic")

sets = ["--set", "sm.warp_scheduler.impl=example_hold", "--set", "sm.warp_scheduler.hold_cycles=200"]
dump = run("run", "vecadd", "--size", "test", *sets, "--dump-config")
if "hold_cycles: 200" not in dump or "cycles at the start of each launch" not in dump:
    fails.append("the resolved config lacks hold_cycles or its description")

jpath, cpath = os.path.join(out, "r.json"), os.path.join(out, "r.csv")
run("run", "vecadd", "--size", "test", *sets, "--json", jpath, "--csv", cpath)
g = json.load(open(jpath))["stats"]["gpu"]
if g["policy"]["issue"] != "example_hold" or g["policy"]["issue_stats"].get("empty_orders", 0) <= 0:
    fails.append(f"JSON policy section wrong: {g.get('policy')}")
if g["scheduler_cycles"]["held"] < 200:
    fails.append(f"held cycles {g['scheduler_cycles']['held']} < the 200-cycle hold")
csv = open(cpath).read()
if "stats.gpu.policy.issue_stats.empty_orders," not in csv:
    fails.append("CSV lacks stats.gpu.policy.issue_stats.empty_orders")

c.finish()
