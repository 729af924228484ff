// Keys of the energy model (src/energy, docs/energy.md). Defaults are the GTX480 coefficients
// of configs/gtx480.yaml; the derivation of each is in docs/energy.md ("Coefficients"). Energies
// are picojoules per event, powers watts.
#include <string>

#include "config/schema.h"

namespace simtsync::config {
namespace {

// Bottom-up energies at 40 nm / 1.0 V come from Horowitz's 45 nm / 0.9 V table (ISSCC 2014,
// "Computing's energy problem") x (40/45) x (1.0/0.9)^2 = x1.10, or from the estimates named;
// on-chip ones are then multiplied by the GTX480's calibration factor K (an FP32 FMA loop at the
// peak issue rate draws the 250 W TDP). scripts/energy_coefficients.py derives every config's.
constexpr const char* kScaled = " x K 5.86 (gtx480 calibration, docs/energy.md)";
constexpr double kMaxPj = 1e7;  // 10 uJ per event: far above any real structure
constexpr double kMaxW = 1e4;

}  // namespace

void add_energy_keys(Schema& s) {
  auto pj = [&](const char* key, double def, const char* what, const char* source) {
    const bool dram = std::string(key).find(".dram_") != std::string::npos;
    s.add_float(key, def, 0, kMaxPj, std::string(what) + ", pJ",
                std::string(source) + (dram ? "" : kScaled));
  };
  auto w = [&](const char* key, double def, const char* what, const char* source) {
    s.add_float(key, def, 0, kMaxW, std::string(what) + ", W", source);
  };
  pj("energy.sm.int_pj", 0.644, "Integer add/logic/shift per active lane",
     "Horowitz 32-bit int add 0.1 pJ x1.10");
  pj("energy.sm.imul_pj", 19.9, "Integer multiply or divide per active lane",
     "Horowitz 32-bit int multiply 3.1 pJ x1.10");
  pj("energy.sm.fp32_pj", 29.9, "Single-precision add/multiply/FMA per active lane",
     "Horowitz 32-bit FP add 0.9 + multiply 3.7 pJ (an FMA) x1.10");
  pj("energy.sm.fp64_pj", 128.9, "Double-precision operation per active lane",
     "Horowitz FP32 FMA with the multiplier scaled by mantissa width squared (53/24)^2 x1.10");
  pj("energy.sm.sfu_pj", 58.6, "SFU (transcendental) operation per active lane",
     "estimate: table lookup plus quadratic interpolation ~ two FP32 FMAs (Oberman & Siu 2005)");
  pj("energy.sm.lane_pj", 58.6,
     "Pipeline overhead per active lane of every instruction "
     "(operand delivery, pipeline latches, result bus)",
     "estimate: 4 x 32-bit operands over ~0.5 mm at 0.15 pJ/bit/mm = 10 pJ");
  pj("energy.sm.inst_pj", 1171.7,
     "Per warp instruction: I-buffer read, decode, scoreboard, dispatch",
     "estimate: 200 pJ at 40 nm");
  pj("energy.sm.branch_pj", 58.6, "Per control warp instruction: branch unit and SIMT stack",
     "estimate: a few 64-bit accesses of a small SRAM stack (Horowitz 8 KB 64-bit read 10 pJ)");
  pj("energy.sm.ldst_pj", 351.5, "Per memory warp instruction: address generation and coalescing",
     "estimate: 32 address compares plus a 32-lane crossbar pass");
  pj("energy.sm.rf_read_pj", 1031.1, "One register read for a whole warp (warp_size x 32 bits)",
     "Horowitz 8 KB SRAM 64-bit read 10 pJ -> 5 pJ per 32 bits x 32 lanes x1.10");
  pj("energy.sm.rf_write_pj", 1236.2, "One register written for a whole warp",
     "rf_read_pj x1.2 (write drivers; estimate)");
  pj("energy.sm.icache_pj", 64.4, "I-cache lookup (tags and one 8-byte instruction)",
     "Horowitz 8 KB SRAM 64-bit read 10 pJ x1.10");
  pj("energy.sm.icache_fill_pj", 1031.1, "I-cache miss: one line written",
     "16 x Horowitz 8 KB 64-bit access 10 pJ x1.10 (128-byte line)");
  pj("energy.sm.ibuffer_pj", 11.7, "Instruction written into an I-buffer",
     "estimate: 64 flip-flops (Horowitz register-file scale, < 1/5 of an 8 KB SRAM read)");
  pj("energy.sm.sched_pj", 117.2, "Scheduler-cycle with live warps (priority selection)",
     "estimate: a 24-entry priority select and the scoreboard lookups of the candidates");
  pj("energy.sm.shared_pj", 1288.9, "Shared-memory pass over the banks (one per bank cycle)",
     "32 banks x 32-bit reads (Horowitz 8 KB 64-bit 10 pJ -> 5 pJ) x1.10 + 44 pJ crossbar "
     "(estimate)");
  pj("energy.sm.l1_pj", 1699.0, "L1 data-cache lookup (tags, one 128-byte line)",
     "Horowitz 32 KB 64-bit read 20 pJ -> 15 pJ at 16 KB x 16 words + 20 pJ tags, x1.10");
  pj("energy.sm.l1_fill_pj", 1699.0, "L1 miss: line written", "as energy.sm.l1_pj");
  pj("energy.sm.const_pj", 64.4, "Constant-cache lookup (a broadcast word)",
     "Horowitz 8 KB SRAM 64-bit read 10 pJ x1.10");
  pj("energy.sm.const_fill_pj", 515.6, "Constant-cache miss: a 64-byte line written",
     "8 x Horowitz 8 KB 64-bit access 10 pJ x1.10");
  pj("energy.mem.flit_pj", 2519.3, "One flit through the crossbar (32 bytes)",
     "estimate: 256 bits over ~10 mm at ~0.1 pJ/bit/mm (Dally, 28 nm) + 50 pJ router, x1.43 "
     "(40/28 nm)");
  pj("energy.mem.l2_pj", 2079.8, "L2 lookup or write-back (tags, one 128-byte line)",
     "Horowitz 32 KB (20 pJ) and 1 MB (100 pJ) 64-bit reads interpolated to 128 KB (38 pJ), "
     "half per further word of the line, x1.10");
  pj("energy.mem.l2_fill_pj", 2079.8, "L2 miss: line written", "as energy.mem.l2_pj");
  pj("energy.mem.atomic_pj", 58.6, "One lane operation of the L2 atomic unit",
     "estimate: 32-bit read-modify-write in the ROP (an int add and two small SRAM accesses)");
  pj("energy.mem.dram_activate_pj", 1200, "DRAM row activation",
     "estimate: GDDR5 2 KB page (DDR3 IDD0-IDD3N x tRC method)");
  pj("energy.mem.dram_precharge_pj", 600, "DRAM row precharge", "estimate: half an activation");
  pj("energy.mem.dram_read_pj_per_byte", 56.3, "DRAM read (column access and I/O), per byte",
     "AMD HBM brief (2015): GDDR5 10.66 GB/s per W = 94 pJ/byte; 60% of it column + I/O");
  pj("energy.mem.dram_write_pj_per_byte", 60.0, "DRAM write (column access and I/O), per byte",
     "dram_read_pj_per_byte + termination (estimate)");
  w("energy.static.sm_active_w", 3.0, "Per SM with a CTA resident: leakage and clock tree",
    "estimate: GPUWattch idle SM 1.59 W + 1.4 W clock distribution of a busy SM");
  w("energy.static.sm_idle_w", 1.59, "Per SM with no CTA resident",
    "GPUWattch gpuwattch_gtx480.xml idle_core_power 1.59");
  w("energy.static.uncore_w", 10, "L2, crossbar and memory controllers (leakage, clocks)",
    "estimate (768 KB L2 at 40 nm, ~ 2/3 of an SM's leakage)");
  w("energy.static.dram_w", 6.7, "DRAM devices' background and refresh, all channels",
    "40% of GDDR5's 93.8 pJ/byte (AMD HBM brief, 2015: 10.66 GB/s per W) at 177 GB/s");
  w("energy.static.constant_w", 30, "Board: fan, regulators, PCIe and PLLs",
    "borrowed: AccelWattch QV100 constant_power 32.3 W (accelwattch_sass_hw.xml), rounded");
}

}  // namespace simtsync::config
