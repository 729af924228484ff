#!/usr/bin/env python3
"""The test-only memory-side unit (example_throttle) as a user sees it: in `simtsync list` with its
keys and statistics, in the resolved config with its description, and its declared statistics in
the JSON and CSV of a run; placed per slice and per partition, it sees every access it
intercepts (admitted equals the L2's transactions of that kind) and slows the run down."""
import json
import os

from plugin_check import Check

c = Check()
exe, out, fails, run = c.exe, c.out, c.fails, c.run


listing = run("list")
for want in ("memory-side units", "example_throttle", "parameter mem.example_throttle.interval",
             "parameter mem.lock_queue.mode", "parameter mem.atomic.queue",
             "statistic held_cycles", "statistic avg_queue_wait (ratio)"):
    if want not in listing:
        fails.append(f"simtsync list lacks '{want}'")

sets = ["--set", "mem.example_throttle.placement=slice", "--set",
        "mem.example_throttle.interval=16"]
dump = run("run", "vecadd", "--size", "test", *sets, "--dump-config")
if "interval: 16" not in dump or "L2 cycles from one admitted access to the next" not in dump:
    fails.append("the resolved config lacks mem.example_throttle.interval or its description")


def memory(name, *args):
    jpath, cpath = os.path.join(out, name + ".json"), os.path.join(out, name + ".csv")
    run("run", "vecadd", "--size", "test", *args, "--json", jpath, "--csv", cpath)
    try:
        g = json.load(open(jpath))["stats"]["gpu"]
        return g["cycles"], g["memory"], open(cpath).read()
    except (OSError, KeyError, ValueError) as e:
        fails.append(f"{name}: no statistics ({e})")
        return 0, {}, ""


base_cycles, base, _ = memory("base")
if "example_throttle" in base:
    fails.append("the throttle shows in a run that does not place it")
if "atomic" not in base or "lock_queue" in base:
    fails.append(f"default run: units {sorted(k for k in base if k in ('atomic', 'lock_queue'))}")
for name, extra, kinds in (
        ("slice", sets, ("loads",)),
        ("partition", ["--set", "mem.example_throttle.placement=partition", "--set",
                       "mem.example_throttle.interval=16", "--set",
                       "mem.l2.slices_per_partition=2"], ("loads",)),
        ("both", sets + ["--set", "mem.example_throttle.intercepts=both"], ("loads", "stores"))):
    cycles, m, csv = memory(name, *extra)
    t = m.get("example_throttle", {})
    seen = sum(m.get("l2", {}).get(k, -1) for k in kinds)
    if t.get("admitted") != seen:
        fails.append(f"{name}: admitted {t.get('admitted')} != L2 {'+'.join(kinds)} {seen}")
    if t.get("held_cycles", 0) <= 0:
        fails.append(f"{name}: held_cycles {t.get('held_cycles')}")
    if name == "slice" and cycles <= base_cycles:
        fails.append(f"throttled run took {cycles} cycles, not more than {base_cycles}")
    if "stats.gpu.memory.example_throttle.held_cycles," not in csv:
        fails.append(f"{name}: CSV lacks stats.gpu.memory.example_throttle.held_cycles")

c.finish()
