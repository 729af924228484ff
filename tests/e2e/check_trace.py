#!/usr/bin/env python3
"""The timeline trace (`--trace`, issue 49) on a synchronization kernel, a barrier kernel and a
kernel that deadlocks, under `run` (and under `exec` with --exec DIR: spin_lock, with and without SSDE, and reduction): each file is checked
against the trace-event format's required fields (what Perfetto and chrome://tracing read), for
the tracks it must hold (warp states, contended lock words, barrier phases with their critical
warp, the watchdog's report), for the cycle window, for gzip output, and `simtsync view` must
turn it into a page that embeds d3 and the data.

    check_trace.py SIMTSYNC OUTDIR [--exec DIR]    (DIR: the built tests/cuda programs)
"""
import gzip
import json
import os
import subprocess
import sys

PHASES = {"X", "B", "E", "i", "I", "C", "M"}
# Warp states (src/trace/tracer.cc state_name).
STATES = {"issue", "spin", "spin (DDOS)", "backoff", "barrier", "memory", "data", "structural",
          "control", "fetch", "held", "not picked", "stalled", "done"}
# The scheduler's reasons a gap can show.
REASONS = {"data", "memory", "structural", "control", "fetch", "not picked"}


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def validate(trace, path):
    """The trace-event format: an object with a traceEvents list; every event has ph, pid, tid
    and name; X: numeric ts and dur >= 0; C: numeric ts and numeric args; i: ts and scope;
    M: args.name (process_name, thread_name) or sort_index."""
    if not isinstance(trace, dict) or not isinstance(trace.get("traceEvents"), list):
        fail(f"{path}: not an object with a traceEvents list")
    for e in trace["traceEvents"]:
        for k in ("ph", "pid", "tid", "name"):
            if k not in e:
                fail(f"{path}: event without {k}: {e}")
        if e["ph"] not in PHASES:
            fail(f"{path}: unknown phase {e['ph']}")
        if not isinstance(e["pid"], int) or not isinstance(e["tid"], int):
            fail(f"{path}: pid/tid not integers: {e}")
        if e["ph"] != "M":
            if not isinstance(e.get("ts"), (int, float)) or e["ts"] < 0:
                fail(f"{path}: bad ts: {e}")
        if e["ph"] == "X" and (not isinstance(e.get("dur"), (int, float)) or e["dur"] < 0):
            fail(f"{path}: X without a duration: {e}")
        if e["ph"] == "C" and not all(isinstance(v, (int, float)) for v in e.get("args", {}).values()):
            fail(f"{path}: counter with a non-numeric value: {e}")
        if e["ph"] == "i" and e.get("s") not in ("g", "p", "t"):
            fail(f"{path}: instant without a scope: {e}")
        if e["ph"] == "M" and "name" not in e.get("args", {}) and "sort_index" not in e.get("args", {}):
            fail(f"{path}: metadata without args.name: {e}")
    return trace["traceEvents"]


def run(args, expect_rc):
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != expect_rc:
        fail(f"{' '.join(args)} exited {p.returncode}, expected {expect_rc}:\n{p.stdout[-3000:]}")
    return p.stdout


def spans(events, cat, name=None):
    return [e for e in events if e["ph"] == "X" and e.get("cat") == cat and
            (name is None or e["name"] == name)]


def view(exe, trace_path, out):
    page = os.path.join(out, os.path.basename(trace_path) + ".html")
    run([exe, "view", trace_path, "-o", page], 0)
    text = open(page, encoding="utf-8").read()
    if 'var d3={version:"3.' not in text or 'id="trace-data"' not in text:
        fail(f"{page}: d3 or the trace data are not inlined")
    if "http://" in text.split('id="trace-data"')[0] or "<script src" in text:
        fail(f"{page}: the page loads something from outside")


def main():
    exe, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    if len(sys.argv) > 4 and sys.argv[3] == "--exec":
        progs = sys.argv[4]  # the folder of the CUDA test programs (tests/cuda)
        # The spin lock, which SIMT-deadlocks under the IPDOM stack (exit 3).
        t = os.path.join(out, "exec.json")
        run([exe, "exec", "--quiet", "--trace", t, "--", os.path.join(progs, "spin_lock")], 3)
        ev = validate(load(t), t)
        if not spans(ev, "warp", "spin") or not [e for e in ev if e.get("cat") == "watchdog"]:
            fail("exec trace: no spinning warp or no watchdog stop")
        if not spans(ev, "lock"):
            fail("exec trace: the deadlocked lock's hold is not drawn")
        view(exe, t, out)
        # ... which finishes with SSDE: warps spin, the lock word is contended.
        t = os.path.join(out, "exec_ssde.json.gz")
        run([exe, "exec", "--quiet", "--set", "compile.ssde=true", "--trace", t, "--",
             os.path.join(progs, "spin_lock")], 0)
        ev = validate(load(t), t)
        if not spans(ev, "warp", "spin") or not spans(ev, "lock") or not spans(ev, "kernel"):
            fail("exec trace (SSDE): no spin spans, lock track or kernel")
        view(exe, t, out)
        # A barrier kernel: phases with their critical warp.
        t = os.path.join(out, "exec_reduction.json")
        run([exe, "exec", "--quiet", "--trace", t, "--", os.path.join(progs, "reduction")], 0)
        ev = validate(load(t), t)
        if not spans(ev, "barrier") or not spans(ev, "warp", "barrier"):
            fail("exec trace (reduction): no barrier phases")
        view(exe, t, out)
        print("exec trace OK")
        return

    # A synchronization kernel: warps spin, lock words are contended. Tracing observes only:
    # cycles and instructions are those of the run without it.
    t = os.path.join(out, "ht.json")
    stats = [os.path.join(out, "ht_stats_traced.json"), os.path.join(out, "ht_stats.json")]
    run([exe, "run", "ht", "--size", "test", "--trace", t, "--json", stats[0]], 0)
    run([exe, "run", "ht", "--size", "test", "--json", stats[1]], 0)
    a, b = (json.load(open(p)) for p in stats)
    if (a["cycles"], a["warp_instructions"]) != (b["cycles"], b["warp_instructions"]):
        fail(f"tracing changed the run: {a['cycles']} vs {b['cycles']} cycles")
    trace = load(t)
    ev = validate(trace, t)
    names = {e["name"] for e in spans(ev, "warp")}
    if not {"issue", "spin"} <= names:
        fail(f"ht: warp states {names} lack issue or spin")
    if not names <= STATES:
        fail(f"ht: unknown warp states {names - STATES}")
    # The scheduler's stall reasons name the gaps: the lock holder waits for an issue slot
    # (not picked) or for its data; "stalled" (no reason known) is rare.
    if not names & REASONS:
        fail(f"ht: no gap named by a scheduler reason among {names}")
    cyc = {}
    for e in spans(ev, "warp"):
        cyc[e["name"]] = cyc.get(e["name"], 0) + e["dur"]
    if cyc.get("stalled", 0) > 0.05 * sum(cyc.values()):
        fail(f"ht: 'stalled' (no reason) holds {cyc.get('stalled', 0)} of {sum(cyc.values())} cycles")
    # DDOS (with the seed's parameters: GTO runs none) confirms the marked spin loops.
    if not spans(ev, "warp", "spin (DDOS)"):
        fail("ht: no spin (DDOS) spans")
    dd = trace["otherData"].get("ddos", {})
    if dd.get("source") != "seed defaults" or dd.get("spinning_entries", 0) < 1:
        fail(f"ht: otherData.ddos {dd}")
    # The atomic units' occupancy: a counter per L2 slice, some packets waiting.
    occ = [e for e in ev if e["ph"] == "C" and e["name"].startswith("atomic waiting slice ")]
    if not occ or max(e["args"]["packets"] for e in occ) <= 0:
        fail("ht: no atomic-unit occupancy counter with packets waiting")
    if not [e for e in ev if e["ph"] == "C" and e["name"].startswith("atomic replying slice ")]:
        fail("ht: no atomic-unit replying counter")
    locks = spans(ev, "lock")
    if not locks or any(e["pid"] != 100000 for e in locks):
        fail("ht: no contended lock word track")
    if not any(e["args"]["failed_attempts"] > 0 for e in locks):
        fail("ht: no hold with failed attempts")
    if not spans(ev, "kernel"):
        fail("ht: no kernel span")
    if not [e for e in ev if e["ph"] == "C" and e["name"] == "issue rate"]:
        fail("ht: no issue-rate counter")
    for e in spans(ev, "warp"):
        a = e["args"]
        if not a["pc"].startswith("0x") or a["cta"] < 0 or a["warp"] < 0:
            fail(f"ht: warp span without PC, CTA or warp: {e}")
    # Spans of one warp slot do not overlap (merged, consecutive).
    by = {}
    for e in spans(ev, "warp"):
        by.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e["ts"] + e["dur"]))
    for k, v in by.items():
        v.sort()
        for (a0, a1), (b0, b1) in zip(v, v[1:]):
            if b0 < a1:
                fail(f"ht: overlapping spans on {k}: {a0}-{a1} and {b0}-{b1}")
    view(exe, t, out)

    # The parallel SM phase: the same events, whatever order the SMs' chunks reached the file in.
    t2 = os.path.join(out, "ht_threads2.json")
    run([exe, "run", "ht", "--size", "test", "--threads", "2", "--trace", t2], 0)
    key = lambda ev: sorted(json.dumps(e, sort_keys=True) for e in ev)
    if key(validate(load(t2), t2)) != key(ev):
        fail("ht: --threads 2 gives other trace events than --threads 1")

    # The same under BOWS: gaps after spin branches are back-off; the delay limit is a counter.
    t = os.path.join(out, "ht_bows.json.gz")
    run([exe, "run", "ht", "--size", "test", "--set", "sm.warp_scheduler.impl=bows",
         "--set", "sm.warp_scheduler.base=gto", "--trace", t], 0)
    with open(t, "rb") as f:
        if f.read(2) != b"\x1f\x8b":
            fail("ht_bows.json.gz is not gzip")
    trace = load(t)
    ev = validate(trace, t)
    if not spans(ev, "warp", "backoff"):
        fail("ht under BOWS: no backoff spans")
    # BOWS takes its spin-inducing branches from DDOS: the trace's DDOS is a copy of it, fed the
    # same events, so it counts the same spinning entries as the policy's statistics.
    if not spans(ev, "warp", "spin (DDOS)"):
        fail("ht under BOWS: no spin (DDOS) spans")
    dd = trace["otherData"].get("ddos", {})
    st = os.path.join(out, "ht_bows_stats.json")
    run([exe, "run", "ht", "--size", "test", "--set", "sm.warp_scheduler.impl=bows",
         "--set", "sm.warp_scheduler.base=gto", "--json", st], 0)
    found = []

    def walk(j):
        if isinstance(j, dict):
            for k, v in j.items():
                if k.endswith("ddos_spinning_entries") and isinstance(v, (int, float)):
                    found.append(v)
                walk(v)
        elif isinstance(j, list):
            for v in j:
                walk(v)
    walk(json.load(open(st)))
    if dd.get("source") != "policy" or not found or dd.get("spinning_entries") != max(found):
        fail(f"ht under BOWS: the trace's DDOS {dd} is not the policy's (its stats: {found})")
    if not [e for e in ev if e["ph"] == "C" and e["name"].startswith("BOWS delay limit")]:
        fail("ht under BOWS: no delay-limit counter")
    view(exe, t, out)

    # A policy's hold: example_hold offers no warp for its first hold_cycles.
    t = os.path.join(out, "hold.json")
    run([exe, "run", "vecadd", "--size", "test", "--set", "sm.warp_scheduler.impl=example_hold",
         "--set", "sm.warp_scheduler.hold_cycles=3000", "--trace", t], 0)
    ev = validate(load(t), t)
    held = spans(ev, "warp", "held")
    if not held or max(e["dur"] for e in held) < 2900:
        fail("example_hold: no warp held by the policy for its hold_cycles")

    # Lock queuing (seed 004): requests parked behind a lock's holder and the hand-overs; the
    # trace observes only (the cycles of the run without it).
    t = os.path.join(out, "lockq.json")
    lq = ["ht_lockinst", "--size", "test", "--config", "gtx480", "--set",
          "mem.lock_queue.mode=ideal"]
    stats = [os.path.join(out, "lockq_stats_traced.json"), os.path.join(out, "lockq_stats.json")]
    run([exe, "run", *lq, "--trace", t, "--json", stats[0]], 0)
    run([exe, "run", *lq, "--json", stats[1]], 0)
    a, b = (json.load(open(p)) for p in stats)
    if (a["cycles"], a["warp_instructions"]) != (b["cycles"], b["warp_instructions"]):
        fail(f"lock queue: tracing changed the run: {a['cycles']} vs {b['cycles']} cycles")
    ev = validate(load(t), t)
    queues = spans(ev, "lockq")
    hands = [e for e in ev if e["ph"] == "i" and e.get("cat") == "lockq"]
    if not queues or not hands:
        fail("lock queue: no queue spans or no hand-overs")
    for e in queues:
        if e["tid"] < 10000 or e["args"]["queued"] < 1 or not e["args"]["waiters"]:
            fail(f"lock queue: a queue span without its waiters: {e}")
    # Each hand-over goes to the request at the head of that queue just before it (or to one
    # that parked in the same cycle).
    by_tid = {}
    for e in queues:
        by_tid.setdefault(e["tid"], []).append(e)
    for h in hands[:300]:
        before = [e for e in by_tid.get(h["tid"], []) if e["ts"] + e["dur"] <= h["ts"]]
        if h["args"]["waited"] == 0:
            continue
        q = max(before, key=lambda e: e["ts"] + e["dur"]) if before else None
        if not q or not q["args"]["waiters"][0].startswith(h["args"]["to"]):
            fail(f"lock queue: hand-over {h['args']} does not go to the head of its queue")
    if not any(e["args"].get("queued", 0) > 0 for e in spans(ev, "lock")):
        fail("lock queue: no hold with queued requests")
    view(exe, t, out)

    # A window: nothing outside it.
    t = os.path.join(out, "ht_window.json")
    run([exe, "run", "ht", "--size", "test", "--trace", t, "--trace-window", "2000:5000"], 0)
    ev = validate(load(t), t)
    xs = [e for e in ev if e["ph"] in ("X", "C")]
    if not xs or any(e["ts"] < 2000 or e["ts"] + e.get("dur", 0) > 5000 for e in xs):
        fail("window 2000:5000: events outside it or none")

    # A barrier kernel: barrier phases per CTA slot with their critical warp.
    t = os.path.join(out, "sp.json")
    run([exe, "run", "sp", "--size", "test", "--trace", t], 0)
    ev = validate(load(t), t)
    bars = spans(ev, "barrier")
    if not bars or not spans(ev, "warp", "barrier"):
        fail("sp: no barrier phases or no warp waiting at a barrier")
    if any(e["args"]["critical_warp"] < 0 or e["args"]["warps"] < 1 for e in bars):
        fail("sp: barrier phase without its critical warp")
    view(exe, t, out)

    # A kernel that deadlocks: the watchdog's stop with its report, in the trace and its page.
    t = os.path.join(out, "naive_lock.json")
    run([exe, "run", "naive_lock", "--size", "test", "--trace", t], 3)
    trace = load(t)
    ev = validate(trace, t)
    stops = [e for e in ev if e.get("cat") == "watchdog"]
    if not stops or "spin loop at naive_lock.cu:5" not in stops[0]["args"]["report"]:
        fail("naive_lock: no watchdog stop naming the spin loop")
    if "watchdog_report" not in trace.get("otherData", {}):
        fail("naive_lock: otherData has no watchdog_report")
    view(exe, t, out)

    # Errors: the functional mode has no cycles; a bad window is a usage error.
    run([exe, "run", "vecadd", "--size", "test", "--mode", "functional", "--trace",
         os.path.join(out, "f.json")], 2)
    run([exe, "run", "vecadd", "--size", "test", "--trace", os.path.join(out, "w.json"),
         "--trace-window", "9:3"], 2)
    print("trace OK")


if __name__ == "__main__":
    main()
