#!/usr/bin/env python3
"""Derives the energy coefficients of every shipped config (docs/energy.md, "Coefficients") and
prints each config's `energy:` section with the source of every number.

    scripts/energy_coefficients.py            # all configs
    scripts/energy_coefficients.py gtx480     # one

On-chip event energies start from a bottom-up estimate at 40 nm / 1.0 V (Horowitz's 45 nm
table x1.10, plus stated estimates), are scaled to each GPU's process by the technology rule
f = (node / 40 nm) x (V / 1.0 V)^2, then multiplied by one calibration factor K per GPU: K makes
an FP32 FMA loop issuing at the GPU's peak warp-instruction rate draw the GPU's TDP (the
bottom-up numbers leave out clocking, control and wiring overheads that measured models such as
GPUWattch recover with per-component scaling factors). DRAM energies come from device-level
figures and are not scaled by K. Static powers are per component, with their sources.
"""
import sys

# Bottom-up on-chip energies at 40 nm / 1.0 V, pJ: (key, value, source).
BASE = [
    ("sm.int_pj", 0.11, "Horowitz 32-bit int add 0.1 pJ x1.10"),
    ("sm.imul_pj", 3.4, "Horowitz 32-bit int multiply 3.1 pJ x1.10"),
    ("sm.fp32_pj", 5.1, "Horowitz FP32 add 0.9 + multiply 3.7 pJ (an FMA) x1.10"),
    ("sm.fp64_pj", 22, "Horowitz FP32 FMA, multiplier x(53/24)^2 for the mantissa, x1.10"),
    ("sm.sfu_pj", 10, "estimate: lookup + quadratic interpolation ~ 2 FP32 FMAs"),
    ("sm.lane_pj", 10, "estimate: 4 x 32-bit operands/result over ~0.5 mm at 0.15 pJ/bit/mm"),
    ("sm.inst_pj", 200, "estimate: I-buffer read, decode, scoreboard check, dispatch"),
    ("sm.branch_pj", 10, "estimate: SIMT-stack entry access (Horowitz 8 KB 64-bit read 10 pJ)"),
    ("sm.ldst_pj", 60, "estimate: 32 address compares + a 32-lane crossbar pass"),
    ("sm.rf_read_pj", 176, "Horowitz 8 KB 64-bit read 10 pJ -> 5 pJ/32 bits x 32 lanes x1.10"),
    ("sm.rf_write_pj", 211, "rf_read x1.2 (write drivers; estimate)"),
    ("sm.icache_pj", 11, "Horowitz 8 KB 64-bit read 10 pJ x1.10"),
    ("sm.icache_fill_pj", 176, "16 x Horowitz 8 KB 64-bit access x1.10 (128-byte line)"),
    ("sm.ibuffer_pj", 2, "estimate: 64 flip-flops written"),
    ("sm.sched_pj", 20, "estimate: priority select over the scheduler's warps"),
    ("sm.shared_pj", 220, "32 banks x 5 pJ/32 bits x1.10 + 44 pJ crossbar (estimate)"),
    ("sm.l1_pj", 290, "Horowitz 32 KB 64-bit read 20 pJ -> 15 pJ at 16 KB, x16 words + 20 tags, x1.10"),
    ("sm.l1_fill_pj", 290, "as l1_pj (line written)"),
    ("sm.const_pj", 11, "Horowitz 8 KB 64-bit read 10 pJ x1.10"),
    ("sm.const_fill_pj", 88, "8 x Horowitz 8 KB 64-bit access x1.10 (64-byte line)"),
    ("mem.flit_pj", 430, "estimate: 256 bits x ~10 mm x 0.1 pJ/bit/mm (Dally, 28 nm) + 50 pJ router, x1.43"),
    ("mem.l2_pj", 355, "Horowitz 32 KB/1 MB 64-bit reads interpolated to 128 KB (38 pJ), half per further word, x1.10"),
    ("mem.l2_fill_pj", 355, "as l2_pj (line written)"),
    ("mem.atomic_pj", 10, "estimate: 32-bit read-modify-write (an int add, two small SRAM accesses)"),
]
# Dynamic energy per warp instruction of `mb_power --size default` (FP32 FMA loop) on gtx480
# with the BASE coefficients (K = 1): 1.458 mJ / 1,132,560 warp instructions.
BASE_NJ_PER_WARP_FMA = 1.287

# Per GPU: node (nm), voltage (V), peak FP32 warp instructions per second of the hardware
# (FP32 lanes / 32 x the config's core clock), TDP (W), DRAM figures (kind, pJ/byte at full
# bandwidth, source, bandwidth, row bytes, voltage), static powers (W) with sources, SMs.
GPUS = {
    "gtx480": dict(
        what="GF100, TSMC 40 nm, ~1.0 V (NVIDIA GTX480: 250 W TDP)", node=40, volt=1.0,
        sms=15, peak=15 * 2 * 700e6, tdp=250,
        dram=("GDDR5", 93.8, "AMD HBM brief (2015): GDDR5 10.66 GB/s per W = 93.8 pJ/byte", 177.4e9, 2048, 1.5),
        sm_idle=(1.59, "GPUWattch gpuwattch_gtx480.xml idle_core_power"),
        sm_active=(3.0, "estimate: idle 1.59 W + 1.4 W clock distribution of a busy SM"),
        uncore=(10, "estimate: 768 KB L2, crossbar, 6 controllers at 40 nm (~2/3 of an SM's leakage)"),
        constant=(30, "borrowed: AccelWattch QV100 constant_power 32.3 W (board: fan, VRM, I/O), rounded")),
    "tesla_c2050": dict(
        what="GF100 like gtx480 (same silicon: its coefficients; NVIDIA C2050: 238 W TDP)", node=40,
        volt=1.0, sms=14, peak=14 * 2 * 575e6, tdp=238, same_as="gtx480",
        dram=("GDDR5", 93.8, "AMD HBM brief (2015): GDDR5 10.66 GB/s per W = 93.8 pJ/byte", 144e9, 2048, 1.5),
        sm_idle=(1.59, "as gtx480: GPUWattch gpuwattch_gtx480.xml idle_core_power (same GF100 SM)"),
        sm_active=(3.0, "as gtx480 (same GF100 SM)"),
        uncore=(10, "as gtx480 (same GF100 uncore)"),
        constant=(30, "as gtx480 (borrowed from AccelWattch QV100 constant_power)")),
    "gtx1080ti": dict(
        what="GP102, TSMC 16 nm FinFET, ~1.05 V (NVIDIA GTX1080Ti: 250 W TDP)", node=16, volt=1.05,
        sms=28, peak=28 * 4 * 1481e6, tdp=250,
        dram=("GDDR5X", 93.8 * 0.81, "GDDR5 93.8 pJ/byte (AMD HBM brief) x (1.35 V / 1.5 V)^2", 484e9, 2048, 1.35),
        sm_idle=(0.283, "AccelWattch SM6_TITANX (GP102) accelwattch_sass_sim.xml idle_core_power"),
        sm_active=(1.34, "AccelWattch SM6_TITANX static_geomean: 17.2 W first lane + 31 x 0.65 W, over 28 SMs"),
        uncore=(10, "estimate: 2.75 MB L2 and 11 controllers at 16 nm"),
        constant=(32.3, "AccelWattch SM6_TITANX accelwattch_sass_sim.xml constant_power")),
    "qv100": dict(
        what="GV100, TSMC 12 nm FFN, ~1.0 V (Quadro GV100: 250 W TDP)", node=12, volt=1.0,
        sms=80, peak=5120 / 32 * 1132e6, tdp=250,
        dram=("HBM2", 1000 / 35.0, "AMD HBM brief (2015): HBM 35 GB/s per W = 28.6 pJ/byte", 870e9, 1024, 1.2),
        sm_idle=(0.283, "AccelWattch QV100 accelwattch_sass_hw.xml idle_core_power"),
        sm_active=(0.47, "AccelWattch QV100 static_geomean: 17.2 W first lane + 31 x 0.65 W, over 80 SMs"),
        uncore=(12, "estimate: 6 MB L2 and 32 HBM2 channels' controllers at 12 nm"),
        constant=(32.3, "AccelWattch QV100 accelwattch_sass_hw.xml constant_power")),
    "fx5800": dict(
        what="GT200, TSMC 65 nm, ~1.18 V (NVIDIA Quadro FX5800: 189 W TDP)", node=65, volt=1.18,
        sms=30, peak=30 * 0.25 * 1300e6, tdp=189,
        dram=("GDDR3", 93.8 * 1.6, "GDDR5 93.8 pJ/byte (AMD HBM brief) x (1.9 V / 1.5 V)^2 (GDDR3)", 102e9, 2048, 1.9),
        sm_idle=(1.54, "borrowed: GPUWattch gpuwattch_quadrofx5600.xml idle_core_power (G80, nearest generation with a published value)"),
        sm_active=(2.2, "estimate: idle 1.54 W + 0.7 W clocks (an 8-lane SM: half the gtx480 increment)"),
        uncore=(8, "estimate: 256 KB L2 and 8 controllers at 65 nm"),
        constant=(30, "borrowed: AccelWattch QV100 constant_power, rounded (no FX5800 figure found)")),
}
K_FIXED = {"tesla_c2050": None}  # same silicon as gtx480: gtx480's K


def rule(g):
    return (g["node"] / 40.0) * (g["volt"] / 1.0) ** 2


def static_full(g):
    return g["sms"] * g["sm_active"][0] + g["uncore"][0] + dram_static(g) + g["constant"][0]


def dram_static(g):
    _, per_byte, _, bw, _, _ = g["dram"]
    return 0.4 * per_byte * 1e-12 * bw


def calibration(name):
    g = GPUS[name]
    if g.get("same_as"):
        return calibration(g["same_as"])
    per_warp = (g["tdp"] - static_full(g)) / g["peak"] * 1e9  # nJ
    return per_warp / (BASE_NJ_PER_WARP_FMA * rule(g))


def section(name):
    g = GPUS[name]
    f, k = rule(g), calibration(name)
    src = GPUS[g["same_as"]] if g.get("same_as") else g
    out = [f"# Energy model (docs/energy.md; derived by scripts/energy_coefficients.py): {g['what']}.",
           f"# On-chip event energies: bottom-up 40 nm value x f = {f:.3f} (technology rule "
           f"(node/40) x (V/1.0)^2) x K = {k:.2f} (calibration: an FP32 FMA loop at the peak "
           f"issue rate draws the TDP{'; as ' + g['same_as'] if g.get('same_as') else ''}).",
           "energy:"]
    groups = {}
    for key, v, s in BASE:
        grp, leaf = key.split(".")
        groups.setdefault(grp, []).append(
            (leaf, round(v * f * k, 3 if v * f * k < 10 else 1), f"{v} pJ at 40 nm x f x K; {s}"))
    dname, per_byte, dsrc, bw, row, volt = g["dram"]
    act = 1200 * (row / 2048) * (volt / 1.5) ** 2
    groups["mem"] += [
        ("dram_activate_pj", round(act), f"estimate: GDDR5 2 KB row 1200 pJ scaled to a {row}-byte {dname} row at {volt} V"),
        ("dram_precharge_pj", round(act / 2), "estimate: half an activation"),
        ("dram_read_pj_per_byte", round(0.6 * per_byte, 1), f"60% of {per_byte:.1f} pJ/byte ({dsrc}): column access + I/O"),
        ("dram_write_pj_per_byte", round(0.64 * per_byte, 1), "read + termination (x1.07, estimate)"),
    ]
    groups["static"] = [
        ("sm_active_w", g["sm_active"][0], g["sm_active"][1]),
        ("sm_idle_w", g["sm_idle"][0], g["sm_idle"][1]),
        ("uncore_w", g["uncore"][0], g["uncore"][1]),
        ("dram_w", round(dram_static(g), 1), f"40% of {per_byte:.1f} pJ/byte at {bw / 1e9:.0f} GB/s: background + refresh"),
        ("constant_w", g["constant"][0], g["constant"][1]),
    ]
    for grp in ("sm", "mem", "static"):
        out.append(f"  {grp}:")
        for leaf, v, s in groups[grp]:
            out.append(f"    {leaf}: {v:<10} # source: {s}")
    return "\n".join(out)


if __name__ == "__main__":
    names = sys.argv[1:] or list(GPUS)
    for n in names:
        g = GPUS[n]
        print(f"# --- {n}: f = {rule(g):.3f}, K = {calibration(n):.2f}, static at full load "
              f"{static_full(g):.1f} W, FMA loop at peak {g['peak'] / 1e9:.1f} G warp inst/s")
        print(section(n))
