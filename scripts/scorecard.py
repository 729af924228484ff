#!/usr/bin/env python3
"""The seed scorecard (issue 44): every quantitative result of seeds 000-004 that an experiment
here reproduces, the seed's value beside ours, generated from the committed CSVs.

    scripts/scorecard.py            writes docs/results/SCORECARD.md
    scripts/scorecard.py --check    exit 1 (with a diff) when the committed file differs from
                                    what the committed CSVs give now, or when README.md's
                                    Status section does not quote its summary line
    scripts/scorecard.py --out F    writes F instead

The seeds' values are data in this file, each with its citation (seed, section, figure or
table). Ours are computed from docs/results/*/ CSV files only, never typed: each row names the
file(s) and the computation. A row whose CSV is missing says so instead of a number. Python 3
standard library only; no simulator run.

"Within +-25%" means 0.75 <= ours / seed <= 1.25. Rows whose quantity is a gain or an overhead
("+8.4%") compare the gains themselves (ours / seed of the percentages), not the speedups, so
that +2% against +8% is a miss and not a 0.94 ratio. A value marked '>' is a lower bound (a
point stopped at the watchdog's cycle cap); a bound decides the row only when it lies outside
the band, otherwise the row is "undecided" and does not count as within.
"""
import argparse
import csv
import difflib
import math
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "docs", "results")
OUT = os.path.join(RESULTS, "SCORECARD.md")
README = os.path.join(ROOT, "README.md")
BAND = 0.25


# --------------------------------------------------------------------------- CSV access
class Missing(Exception):
    """A CSV (or a row of it) the scorecard needs is not committed."""


_cache = {}


def rows(path):
    """The rows of docs/results/PATH as dicts (cached)."""
    if path not in _cache:
        full = os.path.join(RESULTS, path)
        if not os.path.exists(full):
            raise Missing("no %s" % path)
        with open(full, newline="") as f:
            _cache[path] = list(csv.DictReader(f))
    return _cache[path]


def pick(path, **match):
    """The one row of PATH whose columns equal `match` (keys with '.' written as '__')."""
    m = {k.replace("__", "."): str(v) for k, v in match.items()}
    hit = [r for r in rows(path) if all(r.get(k) == v for k, v in m.items())]
    if len(hit) != 1:
        raise Missing("%s: %d rows match %s" % (path, len(hit), m))
    return hit[0]


def num(path, key, **match):
    """(value, stopped): a number of one row; stopped when the point did not finish (status
    other than ok). A stopped point's empty cycles count as the watchdog's cap it reached, or
    as the cycles results.csv records for it (a watchdog stop before the cap)."""
    r = pick(path, **match)
    stopped = r.get("status", "ok") != "ok"
    v = r.get(key, "")
    if v == "" and key == "cycles":
        cap = re.search(r"cycle limit of (\d+)", r.get("reason", ""))
        if cap:
            return float(cap.group(1)), True
        # Stopped before the cap (starvation, no completion): metrics.csv leaves it empty, the
        # results.csv beside it keeps the cycles reached.
        if stopped and path.endswith("metrics.csv"):
            full = path[: -len("metrics.csv")] + "results.csv"
            hit = [x for x in rows(full) if x["point"] == r["point"]] if os.path.exists(
                os.path.join(RESULTS, full)) else []
            if len(hit) == 1 and hit[0].get("cycles"):
                return float(hit[0]["cycles"]), True
    if v == "":
        raise Missing("%s: empty %s in %s" % (path, key, m_str(match)))
    return float(v), stopped


def m_str(match):
    return ",".join("%s=%s" % kv for kv in match.items())


def workloads(path, **match):
    """The workloads of PATH in file order (rows matching `match`)."""
    m = {k.replace("__", "."): str(v) for k, v in match.items()}
    return list(dict.fromkeys(r["workload"] for r in rows(path)
                              if all(r.get(k) == v for k, v in m.items())))


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


class Value:
    """Our value: a number, whether it is a lower bound ('>'), and the unit it is shown in."""

    def __init__(self, v, bound="", note=""):
        self.v, self.bound, self.note = v, bound, note


def ratio_geomean(specs, key, base, other):
    """Geomean over (path, workload) of base/other for `key`; a stopped base point makes the
    ratio a lower bound (as scripts/bows_geomeans.py). A stopped point that recorded no value
    for `key` (energy is not written for a run stopped at the cap) leaves its kernel out, and
    the value says so."""
    vals, bound, left_out = [], "", []
    for path, w in specs:
        try:
            b, b_cut = num(path, key, workload=w, policy=base)
        except Missing:
            if pick(path, workload=w, policy=base).get("status", "ok") == "ok":
                raise
            left_out.append(w)
            continue
        o, o_cut = num(path, key, workload=w, policy=other)
        if o_cut:
            raise Missing("%s %s stopped: an upper bound, not handled" % (w, other))
        bound = bound or (">" if b_cut else "")
        vals.append(b / o)
    note = ("%d kernels; %s left out: stopped at the cycle cap without %s"
            % (len(vals), ", ".join(left_out), key)) if left_out else ""
    return Value(geomean(vals), bound, note)


# --------------------------------------------------------------------------- our values
BOWS480 = "bows_gtx480_paper/metrics.csv"
TSP = "bows_tsp_paper/metrics.csv"
BOWS1080 = "bows_gtx1080ti_paper/metrics.csv"


def seed000_kernels():
    """The seed's eight kernels at the paper inputs: bows_gtx480_paper's seven plus TSP."""
    return [(BOWS480, w) for w in workloads(BOWS480)] + [(TSP, w) for w in workloads(TSP)]


def bows_over(base, key="cycles", specs=None):
    return lambda: ratio_geomean(specs() if specs else seed000_kernels(), key, base,
                                 "bows_" + base)


def l1_saved():
    s = [1 - num(p, "l1_accesses", workload=w, policy="bows_gto_rot")[0]
         / num(p, "l1_accesses", workload=w, policy="gto_rot")[0] for p, w in seed000_kernels()]
    return Value(100 * sum(s) / len(s))


def ht_failed_locks(path, base, bows, **extra):
    def failed(pol):
        r = pick(path, workload="ht", policy=pol, **extra)
        return float(r["lock_fail_intra"]) + float(r["lock_fail_inter"])
    return Value(failed(base) / failed(bows))


def simd_ratio(w):
    return lambda: Value(num(BOWS480, "simd_efficiency", workload=w, policy="bows_gto_rot")[0]
                         / num(BOWS480, "simd_efficiency", workload=w, policy="gto_rot")[0])


DDOS = "ddos_sensitivity/metrics.csv"


DDOS_PAPER = "ddos_sensitivity_paper/metrics.csv"


def ddos_rate(policy, which, path=DDOS):
    """Table I's averages as ddos_sensitivity's README takes them: TSDR over the workloads
    with an annotated SIB pair (sibs > 0), FSDR over those with a non-annotated backward
    branch (fsdr recorded; gaussian and srad execute none), each workload's rate weighted
    equally."""
    if which == "tsdr":
        vals = [float(r["tsdr"]) for r in rows(path)
                if r["policy"] == policy and r["sibs"] != "" and float(r["sibs"]) > 0]
    else:
        vals = [float(r["fsdr"]) for r in rows(path) if r["policy"] == policy and r["fsdr"] != ""]
    if not vals:
        raise Missing("%s: no %s rows" % (path.split("/")[0], policy))
    return Value(sum(vals) / len(vals), note="%d kernels" % len(vals) if path != DDOS else "")


def ddos_paper_tsdr():
    """Table I's default TSDR at seed 000's inputs: DDOS as BOWS over GTO (rotating) runs it in
    bows_gtx480_paper (7 kernels) and bows_tsp_paper (TSP), each kernel weighted equally."""
    vals = [float(r["ddos_tsdr"]) for path in ("bows_gtx480_paper/metrics.csv",
                                               "bows_tsp_paper/metrics.csv")
            for r in rows(path) if r["policy"] == "bows_gto_rot" and r["ddos_tsdr"] != ""]
    if not vals:
        raise Missing("bows_gtx480_paper: no DDOS rates")
    return Value(sum(vals) / len(vals), note="%d kernels" % len(vals))


FALSE = "bows_false_detection/metrics.csv"


def false_detection_slowdown(policy):
    """Percent of GTO's performance that BOWS loses on the synchronization-free kernels (the
    seed's "downgrades GTO performance by"): 1 - geomean(GTO cycles / BOWS cycles)."""
    def f():
        ws = workloads(FALSE)
        g = geomean([num(FALSE, "cycles", workload=w, policy="gto_rot")[0]
                     / num(FALSE, "cycles", workload=w, policy=policy)[0] for w in ws])
        return Value(100 * (1 - g))
    return f


HTFULL = "ht_contention_full/metrics.csv"


HTPAPER = "ht_contention_paper/metrics.csv"


def contention(key, which, path=HTFULL):
    """Fig. 16 (ht_contention_full: the default grid; ht_contention_paper: the seed's input):
    BOWS(LRR) over LRR across bucket counts; `which`: 'max' (the seed's "up to") or 'low' (the
    largest bucket count, the lowest contention)."""
    def f():
        buckets = sorted({int(r["workload.buckets"]) for r in rows(path)})
        vals = {b: num(path, key, workload="ht", policy="lrr", workload__buckets=b)[0]
                / num(path, key, workload="ht", policy="bows_lrr", workload__buckets=b)[0]
                for b in buckets}
        if which == "max":
            b = max(vals, key=vals.get)
            return Value(vals[b], note="at %d buckets" % b)
        return Value(vals[buckets[-1]], note="at %d buckets" % buckets[-1])
    return f


DELAY = "bows_delay/metrics.csv"
DELAY_PAPER = "bows_delay_paper/metrics.csv"


def delay_geomean(policy, path=DELAY):
    def f():
        v = ratio_geomean([(path, w) for w in workloads(path)], "cycles", "gto_rot", policy)
        if path != DELAY:
            v.note = "%d kernels" % len(workloads(path))
        return v
    return f


FRAC1 = "ht_contention/frac1.csv"


def frac1(setting, buckets):
    def f():
        lrr = float(pick(FRAC1, buckets=buckets, setting="lrr")["cycles"])
        r = pick(FRAC1, buckets=buckets, setting=setting)
        return Value(lrr / float(r["cycles"]),
                     note="limit reached %s" % format(int(float(r["delay_limit_max"])), ","))
    return f


SYNCVAL = "syncval/results.csv"


def syncval(scheme):
    """Speedup over atom_lock: atom_lock's reduction-phase cycles / the scheme's."""
    def f():
        phase = lambda sch: float(pick(SYNCVAL, variant="gtx480", scheme=sch)["phase_cycles"])
        return Value(phase("atom_lock") / phase(scheme))
    return f


NW = "nw_tiny/results.csv"


def nw_ratio(tiles, a, b):
    return lambda: Value(float(pick(NW, tiles=tiles, workload=a)["cycles"])
                         / float(pick(NW, tiles=tiles, workload=b)["cycles"]))


def nw_us(tiles, w):
    return lambda: Value(float(pick(NW, tiles=tiles, workload=w)["us"]))


BAWS = "baws_barrier/metrics.csv"
TABLE2 = "baws_table2/metrics.csv"


def baws_gain(policy, base="lrr", only=None):
    """Percent IPC gain of `policy` over `base`, geomean over baws_barrier's 13 kernels."""
    def f():
        ws = only or workloads(BAWS)
        g = geomean([num(BAWS, "ipc", workload=w, policy=policy)[0]
                     / num(BAWS, "ipc", workload=w, policy=base)[0] for w in ws])
        return Value(100 * (g - 1))
    return f


def cff_gain(with_cff, without):
    """CFF's gain for a policy: ratio of the two policies' geomean speedups over LRR."""
    def f():
        ws = workloads(BAWS)
        g = geomean([num(BAWS, "ipc", workload=w, policy=with_cff)[0]
                     / num(BAWS, "ipc", workload=w, policy=without)[0] for w in ws])
        return Value(100 * (g - 1))
    return f


def barrier_share(policy):
    def f():
        ws = workloads(BAWS)
        return Value(100 * sum(num(BAWS, "barrier_wait", workload=w, policy=policy)[0]
                               for w in ws) / len(ws))
    return f


def table2_gain(policy):
    """Gain over LRR over the 13 kernels at Table 2's occupancy: baws_table2's 7 (registers
    overridden) and baws_barrier's other 6 (already at it); same binary and scheduler order."""
    def f():
        t2 = set(workloads(TABLE2))
        vals = []
        for w in workloads(BAWS):
            src = TABLE2 if w in t2 else BAWS
            vals.append(num(src, "ipc", workload=w, policy=policy)[0]
                        / num(src, "ipc", workload=w, policy="lrr")[0])
        if len(t2) != 7:
            raise Missing("baws_table2: expected 7 kernels")
        return Value(100 * (geomean(vals) - 1))
    return f


SAWS = "baws_vs_saws/metrics.csv"
BARRIER_KERNELS = ["sp", "ms", "fwt", "mm", "stn", "octp", "bt", "pvc", "pvr", "ss", "mg",
                   "histo", "srad2"]


def saws_gain(a, b, only=None):
    def f():
        ws = only or BARRIER_KERNELS
        g = geomean([num(SAWS, "ipc", workload=w, policy=a)[0]
                     / num(SAWS, "ipc", workload=w, policy=b)[0] for w in ws])
        return Value(100 * (g - 1))
    return f


AWARE = "aware_mimd/results.csv"
AWARE_SEED = "aware_mimd/seed_inputs/results.csv"


def aware_geomean(variant, base, part="fig10", path=AWARE):
    """Geomean over the kernels where both finished (exit 0) of variant cycles / base cycles."""
    def f():
        vals = []
        for k in dict.fromkeys(r["kernel"] for r in rows(path) if r["part"] == part):
            try:
                v = pick(path, part=part, kernel=k, variant=variant)
                b = pick(path, part=part, kernel=k, variant=base)
            except Missing:
                continue
            if v["exit_code"] == "0" and b["exit_code"] == "0":
                vals.append(float(v["cycles"]) / float(b["cycles"]))
        return Value(100 * (geomean(vals) - 1), note="%d kernels" % len(vals))
    return f


def aware_virtual(which, path=AWARE):
    """Fig. 12 at 4 ST / 2 RT entries against 32/32: percent overhead, geomean (without the
    kernels that do not finish with 32/32) or worst kernel."""
    def f():
        vals = []
        for k in dict.fromkeys(r["kernel"] for r in rows(path) if r["part"] == "fig12"):
            try:
                v = pick(path, part="fig12", kernel=k, variant="st4_rt2")
                b = pick(path, part="fig12", kernel=k, variant="st32_rt32")
            except Missing:
                continue
            if v["exit_code"] == "0" and b["exit_code"] == "0":
                vals.append((float(v["cycles"]) / float(b["cycles"]), k))
        if which == "mean":
            return Value(100 * (geomean([x for x, _ in vals]) - 1),
                         note="%d kernels" % len(vals))
        x, k = max(vals)
        return Value(100 * (x - 1), note=k)
    return f


TABLE4 = "aware_mimd/table_iv.csv"


def table_iv_rate():
    """False detections / loops over every kernel, default analysis (scripts/ssde_table.py)."""
    d = [r for r in rows(TABLE4) if r["analysis"] == "default"]
    if not d:
        raise Missing("aware_mimd/table_iv.csv: no default rows")
    false, loops = sum(int(r["false"]) for r in d), sum(int(r["loops"]) for r in d)
    return Value(100.0 * false / loops, note="%d of %d loops, %d kernels" % (false, loops, len(d)))


LOCKINST = "lock_instructions/results.csv"


def queue_mb(bodies):
    return lambda: Value(float(pick(LOCKINST, config="fx5800",
                                    benchmark="BarnesHut-%d" % bodies,
                                    variant="ideal")["queue_storage_mb"]))


IBUF = "baws_ibuffer4/metrics.csv"
NONBAR = "baws_nonbarrier/metrics.csv"
LOCKBIT = "lockbit_cost/table1.csv"
LOCKBIT_STORAGE = "lockbit_cost/storage.csv"


def ibuffer_gains(policy):
    """Per kernel, percent IPC gain of a 4-entry over a 2-entry I-buffer under `policy`."""
    return [100 * (num(IBUF, "ipc", workload=w, policy=policy, sm__ibuffer_slots=4)[0]
                   / num(IBUF, "ipc", workload=w, policy=policy, sm__ibuffer_slots=2)[0] - 1)
            for w in workloads(IBUF)]


def ibuffer_gain(policy, which):
    """The average (geomean of the IPC ratios) or the largest gain over the 13 kernels."""
    def f():
        gains = ibuffer_gains(policy)
        if which == "max":
            return Value(max(gains))
        return Value(100 * (geomean([1 + g / 100 for g in gains]) - 1))
    return f


def nonbarrier_gain(policy, base="lrr", only=None):
    """Percent IPC gain of `policy` over `base` on the non-barrier-intensive kernels."""
    def f():
        ws = only or workloads(NONBAR)
        return Value(100 * (geomean([num(NONBAR, "ipc", workload=w, policy=policy)[0]
                                     / num(NONBAR, "ipc", workload=w, policy=base)[0]
                                     for w in ws]) - 1))
    return f


def lockbit(scheme, column):
    return lambda: Value(float(pick(LOCKBIT, scheme=scheme)[column]))


def lockbit_storage():
    return Value(float(rows(LOCKBIT_STORAGE)[0]["lock_bits_per_sm"]))


# --------------------------------------------------------------------------- the rows
# Each row: seed, figure/table, quantity, seed value, unit ('x' ratio, '%' gain/overhead or
# percentage, 'rate', 'MB', 'us', 'n' a count), the seed's words or source, our value, the input/config
# label, and the README section (path, heading) that explains a gap.
# The input column: a short label per row; the notes below the table say what each runs.
IN_PAPER = "seed's inputs for HT, ATM, BH-TB/ST, TSP; ours for CP-DS, NW [1]; gtx480"
IN_PAPER_1080 = "the same 7 kernels and inputs (TSP left out) [1]; gtx1080ti"
IN_DEFAULT_SYNC = "default size, not the seed's inputs [2]; gtx480"
IN_HTFULL = "HT default grid, not the seed's input [3]; gtx480"
IN_FRAC1 = "HT quarter grid, not the seed's input [4]; gtx480"
IN_BAWS = "default sizes, 7 of 13 kernels below Table 2's occupancy [5]; gtx480"
IN_AWARE = "default size, not seed 003 Table I's inputs [6]; tesla_c2050"
IN_AWARE_SEED = "seed 003 Table I's inputs for HT, ATM, BH, AM; default for CP-DS, TL [7]; tesla_c2050"
IN_DDOS_PAPER = "seed's inputs for HT, ATM, BH-TB/ST; ours for CP-DS, NW; TSP left out [8]; gtx480"
IN_DELAY_PAPER = "seed's inputs for HT, ATM, BH-TB/ST; ours for CP-DS; NW, TSP left out [9]; gtx480"
IN_IBUF = "default sizes [11]; gtx480, today's model"
IN_NONBAR = "our 12 Rodinia-style kernels, default sizes [12]; gtx480"
IN_SYNCVAL = "seed's set-up (one CTA of 16 warps, sec. 5); gtx480"
IN_HTPAPER = "seed's HT input (3.2 M insertions, 40,192 threads), 256-16,384 buckets [10]; gtx480"
NOTES = [
    "[1] bows_gtx480_paper and bows_tsp_paper run seed 000 sec. V's inputs where it states "
    "them: HT 3.2 M insertions by 40,192 threads into 1024 buckets, ATM 122,880 transfers by "
    "96x256 threads on 1000 accounts, BH 30,000 bodies, TSP 76 cities and 3000 climbers; sec. "
    "V gives no size for CP-DS and NW, whose inputs are ours (128x128 cloth; 1984x1984 "
    "cells). The Pascal rows (bows_gtx1080ti_paper) run the same seven kernels, as sec. VI-D "
    "runs \"the same inputs used for GTX480\"; TSP (an hour per point) is left out there.",
    "[2] The workloads' default sizes (ddos_sensitivity, bows_false_detection, bows_delay), "
    "smaller than the seed's paper inputs; the synchronization-free kernels are our 12, not "
    "the seed's 14 Rodinia 1.0 benchmarks.",
    "[3] ht_contention_full: 120 CTAs x 256 threads, 4 insertions each (122,880 keys), 16 to "
    "16,384 buckets. The seed's HT runs 3.2 M insertions by 40K threads; the grid and bucket "
    "counts of its Fig. 16 are not stated.",
    "[4] ht_contention (frac1.csv): 30 CTAs x 256 threads, 4 insertions each; Table II's "
    "FRAC1 read as 0.5% (docs/policies.md) and as printed (0.5), delay limit 1,000-10,000.",
    "[5] baws_barrier, baws_vs_saws: seed 002 states no input sizes, only Table 2's CTAs per "
    "SM; at our default sizes 7 of the 13 kernels hold fewer (registers from today's ptxas). "
    "The Table 2 row combines baws_table2 (those 7 with the register count overridden) with "
    "baws_barrier's other 6; pvr's and mg's grids are too small to fill the extra slots.",
    "[6] aware_mimd runs the default sizes (e.g. ATM with 1,000 accounts and 6K threads, HT "
    "with 4 insertions per thread), not seed 003 Table I's (ATM: 1M accounts, 24K threads; "
    "HT: 80K entries, 40K threads); the seed's Fig. 8 overheads are measured on a GPU, ours "
    "simulated.",
    "[7] aware_mimd/seed_inputs: seed 003 Table I's inputs where it states them: HT 80,384 "
    "insertions by 157x256 threads, ATM 122,880 transfers by 96x256 threads on 1M accounts, "
    "the four BarnesHut kernels at 30,000 bodies, AM at 133K entries; CP-DS and TL (no input "
    "stated) at the default size. Kernels that do not finish within 50M cycles are left out "
    "of a geomean (the note says how many kernels it holds).",
    "[11] baws_ibuffer4: the 13 barrier-intensive kernels at default size with sm.ibuffer_slots "
    "2 and 4, today's gtx480 model (two instructions decoded per fetch), nothing pinned; our "
    "rows are under LRR, the seed's baseline (it does not say under which scheduler it "
    "widened the I-buffer; the README has the other four policies).",
    "[12] baws_nonbarrier: our 12 synchronization-free Rodinia-style kernels at default size; "
    "the seed's Fig. 11 has 14 Rodinia benchmarks (particlefilter and dwt2d are not among ours).",
]

P480 = ("bows_gtx480_paper/README.md", "Ours beside the seed")
P1080 = ("bows_gtx1080ti_paper/README.md", "Ours beside the seed")
PHT = ("bows_gtx480_paper/README.md", "HT at the paper's input: the seed's picture appears")
PBAWS = ("baws_barrier/README.md", "Our numbers beside the seed's")
PRTRU = ("baws_barrier/README.md", "RTRU and barrier intensity (Fig. 5 and Fig. 1)")

ROWS = [
    # ---- seed 000: BOWS and DDOS (HPCA 2018)
    ("000", "Fig. 9a", "BOWS speedup over LRR, geomean of 8 kernels", 2.2, "x",
     "sec. VI: \"speedup of 2.2x, 1.4x, and 1.5x ... compared to LRR, GTO, and CAWA\"",
     bows_over("lrr"), IN_PAPER, P480),
    ("000", "Fig. 9a", "BOWS speedup over GTO (rotating age)", 1.4, "x", "sec. VI",
     bows_over("gto_rot"), IN_PAPER, P480),
    ("000", "Fig. 9a", "BOWS speedup over CAWA", 1.5, "x", "sec. VI",
     bows_over("cawa"), IN_PAPER, P480),
    ("000", "Fig. 9b", "BOWS energy saving over LRR", 2.3, "x",
     "sec. VI: \"energy savings of 2.3x, 1.7x, and 1.6x\"",
     bows_over("lrr", "energy_j"), IN_PAPER, P480),
    ("000", "Fig. 9b", "BOWS energy saving over GTO (rotating)", 1.7, "x", "sec. VI",
     bows_over("gto_rot", "energy_j"), IN_PAPER, P480),
    ("000", "Fig. 9b", "BOWS energy saving over CAWA", 1.6, "x", "sec. VI",
     bows_over("cawa", "energy_j"), IN_PAPER, P480),
    ("000", "Fig. 13a", "dynamic instructions, GTO / BOWS", 2.1, "x",
     "sec. VI-A: \"reduces dynamic instruction count by a factor of 2.1x compared to GTO\"",
     bows_over("gto_rot", "instructions"), IN_PAPER, P480),
    ("000", "Fig. 13b", "L1D transactions saved against GTO (mean of kernels)", 19, "pct",
     "sec. VI-A: \"reduces the number of L1D memory transaction by 19%\"",
     l1_saved, IN_PAPER, P480),
    ("000", "Fig. 12", "HT failed lock attempts, GTO / BOWS", 10.8, "x",
     "sec. VI-A: \"in HT BOWS reduces the lock failure rate by 10.8x compared to GTO\"",
     lambda: ht_failed_locks(BOWS480, "gto_rot", "bows_gto_rot"),
     "seed's HT input [1]; gtx480", PHT),
    ("000", "sec. VI-A", "HT SIMD efficiency, BOWS / GTO", 3.4, "x",
     "sec. VI-A: \"improves HT and ATM SIMD efficiency by 3.4x and 1.85x\"",
     simd_ratio("ht"), "seed's HT input [1]; gtx480", PHT),
    ("000", "sec. VI-A", "ATM SIMD efficiency, BOWS / GTO", 1.85, "x", "sec. VI-A",
     simd_ratio("atm_simt"), "seed's ATM input [1]; gtx480", ("bows_gtx480_paper/README.md", "The other kernels at the paper's input")),
    ("000", "Fig. 15", "Pascal: BOWS speedup over LRR, geomean of 7 kernels", 1.9, "x",
     "sec. VI-D: \"a speedup of 1.9x on LRR, 1.7x on GTO, and 1.5x on CAWA\"",
     bows_over("lrr", specs=lambda: [(BOWS1080, w) for w in workloads(BOWS1080)]),
     IN_PAPER_1080, P1080),
    ("000", "Fig. 15", "Pascal: BOWS speedup over GTO (rotating)", 1.7, "x", "sec. VI-D",
     bows_over("gto_rot", specs=lambda: [(BOWS1080, w) for w in workloads(BOWS1080)]),
     IN_PAPER_1080, P1080),
    ("000", "Fig. 15", "Pascal: BOWS speedup over CAWA", 1.5, "x", "sec. VI-D",
     bows_over("cawa", specs=lambda: [(BOWS1080, w) for w in workloads(BOWS1080)]),
     IN_PAPER_1080, P1080),
    ("000", "Table I", "DDOS TSDR, default (XOR, m = k = 8, t = 4, l = 8)", 1.0, "rate",
     "Table I", lambda: ddos_rate("xor8", "tsdr"),
     IN_DEFAULT_SYNC + "; 8 synchronization kernels", ("ddos_sensitivity/README.md", None)),
    ("000", "Table I", "DDOS FSDR, default", 0.0, "rate", "Table I",
     lambda: ddos_rate("xor8", "fsdr"),
     IN_DEFAULT_SYNC + "; 20 kernels", ("ddos_sensitivity/README.md", None)),
    ("000", "Table I", "DDOS FSDR, MODULO m = k = 8", 0.104, "rate", "Table I",
     lambda: ddos_rate("mod8", "fsdr"), IN_DEFAULT_SYNC + "; 20 kernels",
     ("ddos_sensitivity/README.md", None)),
    ("000", "Table I", "DDOS TSDR, default, at the seed's inputs (BOWS over GTO rotating)", 1.0,
     "rate", "Table I", ddos_paper_tsdr, IN_PAPER + "; TSP from bows_tsp_paper", P480),
    ("000", "Table I", "DDOS TSDR, history length l = 4", 0.625, "rate", "Table I",
     lambda: ddos_rate("l4", "tsdr"), IN_DEFAULT_SYNC, ("ddos_sensitivity/README.md", None)),
    ("000", "Table I", "DDOS TSDR, time sharing (m = k = 8)", 0.642, "rate", "Table I",
     lambda: ddos_rate("sh8", "tsdr"), IN_DEFAULT_SYNC, ("ddos_sensitivity/README.md", None)),
    ("000", "Table I", "DDOS TSDR, history length l = 4, at the seed's inputs", 0.625, "rate",
     "Table I", lambda: ddos_rate("l4", "tsdr", DDOS_PAPER), IN_DDOS_PAPER,
     ("ddos_sensitivity_paper/README.md", None)),
    ("000", "Table I", "DDOS TSDR, time sharing (m = k = 8), at the seed's inputs", 0.642,
     "rate", "Table I", lambda: ddos_rate("sh8", "tsdr", DDOS_PAPER), IN_DDOS_PAPER,
     ("ddos_sensitivity_paper/README.md", None)),
    ("000", "sec. VI-B", "XOR: BOWS cycles / GTO cycles, synchronization-free (geomean)", 1.0,
     "x", "sec. VI-B: \"we do not have any false detections ... identical to the baseline\"",
     lambda: ratio_geomean([(FALSE, w) for w in workloads(FALSE)], "cycles", "bows_xor",
                           "gto_rot"),
     IN_DEFAULT_SYNC,
     ("bows_false_detection/README.md", None)),
    ("000", "Fig. 14", "MODULO: BOWS slowdown against GTO, synchronization-free", 2.1, "pct",
     "sec. VI-B: \"downgrades GTO performance by only 2.1%\"",
     false_detection_slowdown("bows_modulo"),
     IN_DEFAULT_SYNC,
     ("bows_false_detection/README.md", None)),
    ("000", "Fig. 16a", "HT contention: BOWS over LRR, largest gain (\"up to\")", 5.0, "x",
     "sec. VI-C: \"speedup of up to 5x at high contention and down to 1.2x at low\"",
     contention("cycles", "max"), IN_HTFULL,
     ("ht_contention_full/README.md", "BOWS at the full grid (seed 000 Fig. 16), added 2026-11-29")),
    ("000", "Fig. 16a", "HT contention: BOWS over LRR at the lowest contention", 1.2, "x",
     "sec. VI-C", contention("cycles", "low"), IN_HTFULL,
     ("ht_contention_full/README.md", "BOWS at the full grid (seed 000 Fig. 16), added 2026-11-29")),
    ("000", "Fig. 16b", "HT contention: instructions LRR / BOWS, largest", 3.7, "x",
     "sec. VI-C: \"instruction count savings ranges from 3.7x to 1.3x\"",
     contention("instructions", "max"), IN_HTFULL,
     ("ht_contention_full/README.md", "BOWS at the full grid (seed 000 Fig. 16), added 2026-11-29")),
    ("000", "Fig. 16b", "HT contention: instructions LRR / BOWS at the lowest contention", 1.3,
     "x", "sec. VI-C", contention("instructions", "low"), IN_HTFULL,
     ("ht_contention_full/README.md", "BOWS at the full grid (seed 000 Fig. 16), added 2026-11-29")),
    # Table II is ambiguous: min = max = 1000 (a fixed limit) and FRAC1 = 0.5 (which SIBs never
    # reach) as printed; docs/policies.md reads max 10,000 and FRAC1 0.5%. Both readings:
    ("000", "Fig. 9a / Table II", "BOWS over GTO, Table II as printed: delay limit min = max = "
     "1000 (fixed 1000)", 1.4, "x", "sec. VI (1.4x) with Table II's limits as printed",
     delay_geomean("d1000"), IN_DEFAULT_SYNC + "; 8 kernels",
     ("bows_delay/README.md", None)),
    ("000", "Fig. 9a / Table II", "BOWS over GTO, Table II read as max 10,000, FRAC1 0.5% "
     "(adaptive, our default)", 1.4, "x", "sec. VI (1.4x); reading in docs/policies.md",
     delay_geomean("adaptive"), IN_DEFAULT_SYNC + "; 8 kernels",
     ("bows_delay/README.md", None)),
    ("000", "Fig. 9a / Table II", "BOWS over GTO, Table II as printed (fixed 1000), at the "
     "seed's inputs", 1.4, "x", "sec. VI (1.4x, 8 kernels)", delay_geomean("d1000", DELAY_PAPER),
     IN_DELAY_PAPER, ("bows_delay_paper/README.md", None)),
    ("000", "Fig. 9a / Table II", "BOWS over GTO, Table II read as max 10,000, FRAC1 0.5% "
     "(adaptive), at the seed's inputs", 1.4, "x", "sec. VI (1.4x, 8 kernels)",
     delay_geomean("adaptive", DELAY_PAPER), IN_DELAY_PAPER,
     ("bows_delay_paper/README.md", None)),
    ("000", "Fig. 16a / Table II", "HT low contention (4,096 buckets): BOWS over LRR, FRAC1 read "
     "0.5% (default)", 1.2, "x", "sec. VI-C (1.2x at low contention)",
     frac1("frac1_0.005", 4096), IN_FRAC1, ("ht_contention/README.md", None)),
    ("000", "Fig. 16a / Table II", "HT low contention (4,096 buckets): BOWS over LRR, FRAC1 = "
     "0.5 as printed", 1.2, "x", "sec. VI-C; Table II FRAC1 0.5",
     frac1("frac1_0.5", 4096), IN_FRAC1, ("ht_contention/README.md", None)),
    # ---- seed 001: lock bits, tiny locks, dataflow NW (ICS 2015)
    ("001", "Table 2", "warp_barr speedup over atom_lock", 2.6, "x", "Table 2",
     syncval("warp_barr"), "seed's set-up (one CTA of 16 warps, sec. 5); gtx480 for its GTX 570",
     ("syncval/README.md", "The gaps above 25%, explained")),
    ("001", "Table 2", "shrd_lock speedup over atom_lock", 0.8, "x", "Table 2",
     syncval("shrd_lock"), "seed's set-up; gtx480 for its GTX 570",
     ("syncval/README.md", "The gaps above 25%, explained")),
    ("001", "Table 2", "tiny_lock speedup over atom_lock", 4.0, "x", "Table 2",
     syncval("tiny_lock"), "seed's set-up; gtx480 for its GTX 570",
     ("syncval/README.md", "The gaps above 25%, explained")),
    ("001", "Table 2", "warp_vote speedup over atom_lock", 2.0, "x", "Table 2",
     syncval("warp_vote"), "seed's set-up; gtx480 for its GTX 570",
     ("syncval/README.md", "The gaps above 25%, explained")),
    ("001", "Table 2", "lock-unit storage per SM, lock bits", 1024, "n",
     "Table 2: \"1024 lock bits per SM\"; sec. 3.2", lockbit_storage, "gtx480 configuration",
     ("lockbit_cost/README.md", None)),
    ("001", "Table 1", "atom_lock: shared memory for synchronization, bytes", 2048, "n", "Table 1",
     lockbit("atom_lock", "shared_bytes"), IN_SYNCVAL, ("lockbit_cost/README.md", None)),
    ("001", "Table 1", "shrd_lock: shared memory for synchronization, bytes", 128, "n", "Table 1",
     lockbit("shrd_lock", "shared_bytes"), IN_SYNCVAL, ("lockbit_cost/README.md", None)),
    ("001", "Table 1", "atom_lock: lock bits used", 512, "n", "Table 1",
     lockbit("atom_lock", "lock_bits"), IN_SYNCVAL, ("lockbit_cost/README.md", None)),
    ("001", "Table 1", "shrd_lock: lock bits used", 32, "n", "Table 1",
     lockbit("shrd_lock", "lock_bits"), IN_SYNCVAL, ("lockbit_cost/README.md", None)),
    ("001", "Table 1", "tiny_lock: lock bits used", 512, "n", "Table 1",
     lockbit("tiny_lock", "lock_bits"), IN_SYNCVAL, ("lockbit_cost/README.md", None)),
    ("001", "Table 1", "warp_vote: lock bits used", 32, "n", "Table 1",
     lockbit("warp_vote", "lock_bits"), IN_SYNCVAL, ("lockbit_cost/README.md", None)),
    ("001", "Table 3", "NW 31x31: atomic-lock time / tiny-lock time", 3.6, "x",
     "Table 3: 175 / 49 us", nw_ratio("1", "nw", "nw_tiny"),
     "seed's grid (31x31, one launch); gtx480 for its GTX 570", ("nw_tiny/README.md", "Against the seed")),
    ("001", "Table 3", "NW 992x992: atomic-lock time / tiny-lock time", 135.4, "x",
     "Table 3: 14,757 / 109 us", nw_ratio("32", "nw", "nw_tiny"),
     "seed's grid (992x992, the largest run here; 1984x1984 is over the time budget); gtx480",
     ("nw_tiny/README.md", "Against the seed")),
    ("001", "Table 3", "NW 31x31: atomic-lock time, us", 175, "us", "Table 3",
     nw_us("1", "nw"), "seed's grid; gtx480 at 700 MHz for its GTX 570",
     ("nw_tiny/README.md", "Against the seed")),
    ("001", "Table 3", "NW 992x992: atomic-lock time, us", 14757, "us", "Table 3",
     nw_us("32", "nw"), "seed's grid; gtx480 at 700 MHz for its GTX 570",
     ("nw_tiny/README.md", "Against the seed")),
    ("001", "Table 3", "NW 31x31: tiny-lock time / data-parallel time", 0.86, "x",
     "Table 3: 49 / 57 us", nw_ratio("1", "nw_tiny", "nw_dp"), "seed's grid; gtx480",
     ("nw_tiny/README.md", "Against the seed")),
    # ---- seed 002: barrier-aware warp scheduling (ICS 2016)
    ("002", "Fig. 8", "GTO gain over LRR (13 kernels)", 8.4, "%",
     "sec. 6.1: \"GTO, which improves performance by merely 8.4% over LRR\"",
     baws_gain("gto"), IN_BAWS, PBAWS),
    ("002", "Fig. 8", "MWF(LRR) gain over LRR", 9.5, "%",
     "sec. 6.1: \"MWF (LRR and GTO variants) improve performance by 9.5% and 9.8%\"",
     baws_gain("mwf_lrr"), IN_BAWS, PBAWS),
    ("002", "Fig. 8", "MWF(GTO) gain over LRR", 9.8, "%", "sec. 6.1",
     baws_gain("mwf_gto"), IN_BAWS, PBAWS),
    ("002", "Fig. 8", "BAWS = MWF(LRR)+CFF gain over LRR", 16.2, "%",
     "sec. 6.1: \"16.2% for the LRR variant and 16.9% for the GTO variant\"",
     baws_gain("mwf_lrr_cff"), IN_BAWS, PBAWS),
    ("002", "Fig. 8", "BAWS = MWF(GTO)+CFF gain over LRR", 16.9, "%", "sec. 6.1",
     baws_gain("mwf_gto_cff"), IN_BAWS, PBAWS),
    ("002", "Fig. 8", "BAWS (GTO variant) gain over LRR at Table 2's occupancy", 16.9, "%",
     "sec. 6.1; Table 2 (TBs per SM)", table2_gain("mwf_gto_cff"),
     "default sizes at Table 2's CTAs per SM [5]; gtx480",
     ("baws_table2/README.md", None)),
    ("002", "Fig. 8", "GTO+CFF gain over GTO", 1.7, "%",
     "sec. 6.1: \"CFF only slightly improves performance for TLS and GTO (by 1.7% on average)\"",
     cff_gain("gto_cff", "gto"), IN_BAWS, PBAWS),
    ("002", "Fig. 8", "CFF's gain for MWF(LRR)", 6.7, "%",
     "sec. 6.1: \"improving performance by 6.7% for the LRR variant and 7.1% for the GTO\"",
     cff_gain("mwf_lrr_cff", "mwf_lrr"), IN_BAWS, PBAWS),
    ("002", "Fig. 8", "CFF's gain for MWF(GTO)", 7.1, "%", "sec. 6.1",
     cff_gain("mwf_gto_cff", "mwf_gto"), IN_BAWS, PBAWS),
    ("002", "Fig. 8", "SRAD2: BAWS (GTO variant) gain over GTO", 30, "%",
     "sec. 6.1: \"BAWS achieves 30% higher performance than GTO for SRAD2\"",
     baws_gain("mwf_gto_cff", "gto", ["srad2"]), IN_BAWS, PBAWS),
    ("002", "Fig. 1", "share of warp time stalled at barriers and exits, LRR (mean)", 30, "pct",
     "sec. 1: \"an average of 30% and 37% for ... LRR and GTO\"",
     barrier_share("lrr"), IN_BAWS, PRTRU),
    ("002", "Fig. 1", "share of warp time stalled at barriers and exits, GTO (mean)", 37, "pct",
     "sec. 1", barrier_share("gto"), IN_BAWS, PRTRU),
    ("002", "sec. 6.4", "I-buffer 2 -> 4 entries: gain, average of 13 kernels (LRR)", 0.3, "%",
     "sec. 6.4: \"an average performance improvement of 0.3%, and 1.4% at most\"",
     ibuffer_gain("lrr", "mean"), IN_IBUF, ("baws_ibuffer4/README.md", "Ours beside the seed")),
    ("002", "sec. 6.4", "I-buffer 2 -> 4 entries: largest gain of one kernel (LRR)", 1.4, "%",
     "sec. 6.4 (MG in the seed)", ibuffer_gain("lrr", "max"), IN_IBUF,
     ("baws_ibuffer4/README.md", "Ours beside the seed")),
    ("002", "Fig. 11", "BAWS = MWF(GTO)+CFF gain over LRR, non-barrier kernels", 5.7, "%",
     "sec. 6.5: \"BAWS improves performance by 5.7% on average over LRR\"",
     nonbarrier_gain("mwf_gto_cff"), IN_NONBAR,
     ("baws_nonbarrier/README.md", "Ours beside the seed")),
    ("002", "Fig. 11", "lud: BAWS gain over LRR", 22, "%", "sec. 6.5: \"up to 22% for lud\"",
     nonbarrier_gain("mwf_gto_cff", only=["lud"]), IN_NONBAR,
     ("baws_nonbarrier/README.md", "Ours beside the seed")),
    ("002", "Fig. 11", "hotspot: BAWS gain over LRR", 18, "%",
     "sec. 6.5: \"and 18% for hotspot\"", nonbarrier_gain("mwf_gto_cff", only=["hotspot"]),
     IN_NONBAR, ("baws_nonbarrier/README.md", "Ours beside the seed")),
    ("002", "Fig. 11", "heartwall: BAWS gain over LRR", -2.6, "%",
     "sec. 6.5: \"a performance degradation of 2.6% for heartwall\"",
     nonbarrier_gain("mwf_gto_cff", only=["heartwall"]), IN_NONBAR,
     ("baws_nonbarrier/README.md", "Ours beside the seed")),
    ("002", "Fig. 12", "BAWS gain over SAWS (13 barrier kernels)", 7, "%",
     "sec. 6.6: \"BAWS outperforms SAWS by 7% on average\"", saws_gain("baws", "saws"), IN_BAWS,
     ("baws_vs_saws/README.md", "Barrier-intensive kernels (Fig. 12)")),
    # ---- seed 003: MIMD synchronization on SIMT (MICRO 2016)
    ("003", "Table IV", "static detection: false detections / loops", 4.13, "pct",
     "Table IV (O2 row: 10 false of 242 loops); abstract: \"4%-5%\"", table_iv_rate,
     "our workloads' kernels (nvcc 13 -O3 PTX), not the seed's 159 kernels",
     ("../ssde.md", "Detection (seed 003 Table IV)")),
    ("003", "Fig. 8", "SSDE (M2S) time overhead over the hand-restructured version", 8.2, "%",
     "sec. V-B1: \"M2S is 8.2% slower compared to S2*-\" (measured on a GPU)",
     aware_geomean("mimd_ssde", "simt_stack"), IN_AWARE,
     ("aware_mimd/README.md", "Fig. 10: time and dynamic instructions, normalized to the SIMT-compliant version")),
    ("003", "Fig. 10a", "AWARE (M2D) time over SSDE (M2S)", 0.0, "%",
     "sec. V-B2: \"on par with executing the M2S version\" (read as 0%)",
     aware_geomean("mimd_aware", "mimd_ssde"), IN_AWARE,
     ("aware_mimd/README.md", "Fig. 10: time and dynamic instructions, normalized to the SIMT-compliant version")),
    ("003", "Fig. 12", "AWARE with 4 ST / 2 RT entries: time overhead, average", 5, "%",
     "sec. V-B2: \"execution time increases by only 16% ... the average is only 5%\"",
     aware_virtual("mean"), IN_AWARE,
     ("aware_mimd/README.md", "Fig. 12: virtualized tables (time / 32 ST and 32 RT entries), default size")),
    ("003", "Fig. 12", "AWARE with 4 ST / 2 RT entries: time overhead, worst kernel", 16, "%",
     "sec. V-B2", aware_virtual("worst"), IN_AWARE,
     ("aware_mimd/README.md", "Fig. 12: virtualized tables (time / 32 ST and 32 RT entries), default size")),
    ("003", "Fig. 8", "SSDE (M2S) time overhead over the hand-restructured version", 8.2, "%",
     "sec. V-B1", aware_geomean("mimd_ssde", "simt_stack", path=AWARE_SEED), IN_AWARE_SEED,
     ("aware_mimd/seed_inputs/README.md", "Seed 003 Table I's inputs")),
    ("003", "Fig. 10a", "AWARE (M2D) time over SSDE (M2S)", 0.0, "%",
     "sec. V-B2 (read as 0%)", aware_geomean("mimd_aware", "mimd_ssde", path=AWARE_SEED),
     IN_AWARE_SEED, ("aware_mimd/seed_inputs/README.md", "Seed 003 Table I's inputs")),
    ("003", "Fig. 12", "AWARE with 4 ST / 2 RT entries: time overhead, average", 5, "%",
     "sec. V-B2", aware_virtual("mean", path=AWARE_SEED), IN_AWARE_SEED, ("aware_mimd/seed_inputs/README.md", "Seed 003 Table I's inputs")),
    ("003", "Fig. 12", "AWARE with 4 ST / 2 RT entries: time overhead, worst kernel", 16, "%",
     "sec. V-B2", aware_virtual("worst", path=AWARE_SEED), IN_AWARE_SEED, ("aware_mimd/seed_inputs/README.md", "Seed 003 Table I's inputs")),
    # ---- seed 004: lock instructions and lock queuing (MASc 2011)
    ("004", "Table 7.1", "queue storage, BarnesHut 50K bodies", 0.34, "MB", "Table 7.1",
     queue_mb(50000), "thesis's input (50,000 bodies); fx5800 (Table 6.1)",
     ("lock_instructions/README.md", "Table 7.1: queue storage (ideal queuing, fx5800)")),
    ("004", "Table 7.1", "queue storage, BarnesHut 100K bodies", 0.63, "MB", "Table 7.1",
     queue_mb(100000), "thesis's input (100,000 bodies); fx5800",
     ("lock_instructions/README.md", "Table 7.1: queue storage (ideal queuing, fx5800)")),
    ("004", "Table 7.1", "queue storage, third row (printed \"100K\", read as 200K bodies)", 1.77,
     "MB", "Table 7.1 (its third row repeats \"100K\")", queue_mb(200000),
     "200,000 bodies (our reading of the row); fx5800",
     ("lock_instructions/README.md", "Table 7.1: queue storage (ideal queuing, fx5800)")),
]


# --------------------------------------------------------------------------- formatting
def slug(heading):
    """GitHub's anchor for a Markdown heading."""
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def link(ref):
    path, heading = ref
    full = os.path.normpath(os.path.join(RESULTS, path))
    if not os.path.exists(full):
        raise SystemExit("scorecard: %s does not exist" % full)
    if heading is None:
        return "[%s](%s)" % (path.split("/")[0] if "/" in path else path, path)
    with open(full) as f:
        heads = [l.lstrip("#").strip() for l in f if l.startswith("#")]
    if heading not in heads:
        raise SystemExit("scorecard: no heading '%s' in %s" % (heading, full))
    name = path.split("/")[0] if not path.startswith("..") else os.path.basename(path)
    return "[%s: %s](%s#%s)" % (name, heading, path, slug(heading))


def show(v, unit):
    if unit == "x":
        return "%.2fx" % v if v < 100 else "%.1fx" % v
    if unit == "%":
        return "%+.1f%%" % v
    if unit == "pct":
        return "%.1f%%" % v
    if unit == "rate":
        return "%.3f" % v
    if unit == "MB":
        return "%.2f MB" % v
    if unit == "us":
        return "{:,.0f} us".format(v)
    if unit == "n":
        return "{:,.0f}".format(v)
    return "%g" % v


def show_seed(v, unit):
    if unit == "x":
        return "%gx" % v
    if unit == "%":
        return "%+g%%" % v if v else "0% (on par)"
    if unit == "pct":
        return "%g%%" % v
    if unit == "rate":
        return "%g" % v
    if unit == "MB":
        return "%g MB" % v
    if unit == "us":
        return "{:,} us".format(v)
    if unit == "n":
        return "{:,}".format(v)
    return "%g" % v


def judge(ours, seed):
    """(ratio text, verdict): verdict is 'yes', 'no' or 'undecided'."""
    if seed == 0:
        if ours.bound:
            return "-", "undecided"
        return "-", "yes" if abs(ours.v) < 0.005 else "no"
    r = ours.v / seed
    text = "%s%.2f" % (ours.bound + " " if ours.bound else "", r)
    inside = 1 - BAND <= r <= 1 + BAND
    if ours.bound == ">":
        return text, "no" if r > 1 + BAND else "undecided"
    return text, "yes" if inside else "no"


def summary(text):
    """The summary line's words ("N of M within +-25%"), which README.md's Status quotes."""
    return re.search(r"\*\*(\d+ of \d+ within \+-25%)\*\*", text).group(1)


def build():
    lines, n_yes, n_all, n_undecided, missing = [], 0, 0, 0, 0
    for seed, where, qty, sval, unit, cite, fn, inp, ref in ROWS:
        try:
            ours = fn()
            ours_text = (ours.bound + " " if ours.bound else "") + show(ours.v, unit)
            if ours.note:
                ours_text += " (%s)" % ours.note
            ratio, verdict = judge(ours, sval)
        except Missing as e:
            ours_text, ratio, verdict = "no CSV: %s" % e, "-", "no CSV"
            missing += 1
        n_all += 1
        n_yes += verdict == "yes"
        n_undecided += verdict == "undecided"
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            seed, where, qty, show_seed(sval, unit) + "<br><sub>%s</sub>" % cite, ours_text,
            ratio, verdict, inp, link(ref)))
    head = [
        "# Seed scorecard",
        "",
        "<!-- Generated by scripts/scorecard.py from the committed CSVs under docs/results/; "
        "do not edit. CTest `experiments.scorecard` fails when this file differs from what the "
        "script writes. -->",
        "",
        "**%d of %d within +-25%%**%s." % (
            n_yes, n_all,
            "".join([" (%d undecided: a lower bound inside the band)" % n_undecided
                     if n_undecided else "",
                     " (%d without a committed CSV)" % missing if missing else ""])),
        "",
        "One row per quantitative result of seeds 000-004 that an experiment here reproduces. "
        "The seed's value is cited (seed, section, figure or table; the seed files are "
        "`../shared/seeds/00N_*.txt`); ours is computed by `scripts/scorecard.py` from the "
        "CSV files of the experiment linked in the last column, whose README section explains "
        "a gap above 25% with a measurement. Ratio: ours / seed; for gains and overheads "
        "(+N%) the ratio of the percentages. Within: 0.75 <= ratio <= 1.25; '>' marks a lower "
        "bound (a point stopped at the watchdog's cycle cap), which decides only outside the "
        "band. Input: \"seed's\" only where the experiment runs the seed's stated input, grid "
        "or configuration; otherwise what it runs.",
        "",
        "| seed | figure / table | quantity | seed | ours | ratio | within +-25% | input, config "
        "| gap explained in |",
        "|---|---|---|---|---|---:|---|---|---|",
    ]
    tail = ["", "Inputs:", ""] + ["- " + n for n in NOTES]
    return "\n".join(head + lines + tail) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true",
                    help="compare with the committed docs/results/SCORECARD.md; exit 1 if "
                         "different")
    ap.add_argument("--out", default=OUT)
    a = ap.parse_args()
    text = build()
    if a.check:
        try:
            with open(a.out) as f:
                old = f.read()
        except OSError:
            old = ""
        if old != text:
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(True), text.splitlines(True), a.out, "regenerated"))
            print("scorecard: %s differs from what the committed CSVs give; run "
                  "scripts/scorecard.py and commit the result" % a.out, file=sys.stderr)
            return 1
        with open(README) as f:
            readme = f.read()
        status = readme[readme.index("## Status"):]
        if summary(text) not in status:
            print("scorecard: README.md's Status section does not quote \"%s\"" % summary(text),
                  file=sys.stderr)
            return 1
        print("scorecard: %s matches the committed CSVs; README.md quotes \"%s\""
              % (a.out, summary(text)))
        return 0
    with open(a.out, "w") as f:
        f.write(text)
    print(text.splitlines()[4])
    print("README.md's Status section must quote: %s" % summary(text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
