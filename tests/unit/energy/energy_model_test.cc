// The energy model: each counted event on tiny kernels on the `tiny` config, with its energy
// computed by hand; the components sum to the total; an idle SM costs static power only; bad
// coefficients are config errors naming the key.
#include "energy/energy_model.h"

#include <gtest/gtest.h>

#include <cmath>

#include "common/error.h"
#include "config/config.h"
#include "config/schema.h"
#include "energy/energy_counts.h"
#include "func/device.h"
#include "ptx/parser.h"
#include "stats/energy_report.h"
#include "stats/timing_report.h"
#include "timing/gpu/timing_gpu.h"

namespace simtsync::energy {
namespace {

gpu::GpuParams tiny(std::vector<std::pair<std::string, std::string>> sets = {}) {
  gpu::GpuParams p = gpu::gpu_params_from(config::Config::load(config::gpu_schema(), "tiny", sets));
  p.registers_per_thread = 16;  // no ptxas needed
  return p;
}

// One warp of straight-line code: every op kind once, one store.
constexpr const char* kMix = R"(
.version 7.0
.target sm_70
.address_size 64
.visible .entry mix(.param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  add.s32 %r2, %r1, %r1;
  mul.lo.s32 %r3, %r2, %r1;
  mov.f32 %f1, 0f3F800000;
  add.f32 %f2, %f1, %f1;
  sin.approx.f32 %f3, %f2;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.f32 [%rd3], %f3;
  ret;
}
)";

// One warp: double precision, a shared-memory store with a 2-way bank conflict, a global
// load (an L2 miss, one DRAM read) and an atomicAdd of every lane on the same line.
constexpr const char* kMem = R"(
.version 7.0
.target sm_70
.address_size 64
.visible .entry memk(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .f64 %fd<4>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b8 sh[256];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  cvt.rn.f64.u32 %fd1, %r1;
  add.f64 %fd2, %fd1, %fd1;
  shl.b32 %r2, %r1, 3;
  mov.u32 %r3, sh;
  add.s32 %r4, %r3, %r2;
  st.shared.u32 [%r4], %r1;
  ld.global.u32 %r5, [%rd1];
  atom.global.add.u32 %r6, [%rd1+4], 1;
  ret;
}
)";

struct RunResult {
  gpu::TimingTotals totals;
  nlohmann::json stats;  // stats.gpu
  EnergyCounts counts;
  // A warp-instruction count per op class, summed over the SMs (stats.gpu.sm_total.op_warps).
  std::uint64_t op_warps(const char* kind) const {
    return stats["sm_total"]["op_warps"][kind].get<std::uint64_t>();
  }
};

RunResult run(const char* ptx, const char* kernel, unsigned ctas, unsigned threads,
              const gpu::GpuParams& p = tiny()) {
  gpu::TimingGpu g(p);
  func::Device dev;
  dev.set_backend(&g);
  const Addr out = dev.malloc(std::size_t{ctas} * threads * 4 + 4);
  const int m = dev.load_module(ptx::parse_module(ptx, "test.ptx"));
  dev.launch(m, kernel, {ctas, 1, 1}, {threads, 1, 1}, func::KernelArgs().add(out));
  RunResult r;
  r.totals = g.totals();
  r.stats = stats::timing_stats_json(r.totals, 32);
  r.counts = counts_from(r.stats);
  return r;
}

TEST(EnergyCounts, EachInstructionKindOnOneWarp) {
  const RunResult r = run(kMix, "mix", 1, 32);
  const EnergyCounts& c = r.counts;
  EXPECT_EQ(c[Event::kWarpInstructions], 11u);
  EXPECT_EQ(c[Event::kLanes], 11u * 32);
  // int: mov, add.s32, add.s64, mov.u32 (tid); imul: mul.lo, mul.wide; fp32: mov.f32, add.f32.
  EXPECT_EQ(r.op_warps("int") + r.op_warps("imul"), 5u);  // three int + two imul
  EXPECT_EQ(c[Event::kIntLanes], 3u * 32);
  EXPECT_EQ(c[Event::kImulLanes], 2u * 32);
  EXPECT_EQ(r.op_warps("fp"), 2u);
  EXPECT_EQ(c[Event::kFp32Lanes], 2u * 32);
  EXPECT_EQ(r.op_warps("sfu"), 1u);
  EXPECT_EQ(c[Event::kSfuLanes], 32u);
  EXPECT_EQ(c[Event::kFp64Lanes], 0u);
  EXPECT_EQ(c[Event::kMemWarps], 2u);     // ld.param, st.global
  EXPECT_EQ(c[Event::kBranchWarps], 1u);  // ret
  // Register reads per warp: add.s32 2, mul.lo 2, add.f32 2, sin 1, mul.wide 1, add.s64 2,
  // st 2 (address, value) = 12. Writes: every instruction but st and ret = 9.
  EXPECT_EQ(c[Event::kRfReads], 12u);
  EXPECT_EQ(c[Event::kRfWrites], 9u);
  // The store: one L1 lookup (write) and one L2 access; the kernel parameter's cold
  // constant-cache miss and the I-cache misses fill from L2 too.
  EXPECT_EQ(c[Event::kL1Accesses], 1u);
  EXPECT_EQ(c[Event::kL2Lookups], 2u + c[Event::kIcacheMisses]);  // no write-backs
  EXPECT_GE(c[Event::kFlits], 2u);
  EXPECT_GT(c[Event::kIcacheAccesses], 0u);
  EXPECT_GT(c[Event::kIcacheMisses], 0u);
  EXPECT_GE(c[Event::kIbufferFills], 11u);
  EXPECT_GT(c[Event::kSchedCycles], 0u);
  EXPECT_EQ(r.stats["sm"].size(), 2u);
}

TEST(EnergyCounts, SharedAtomicsDoublePrecisionAndDram) {
  const RunResult r = run(kMem, "memk", 1, 32);
  const EnergyCounts& c = r.counts;
  EXPECT_EQ(r.op_warps("dp"), 2u);  // cvt.rn.f64.u32, add.f64
  EXPECT_EQ(c[Event::kFp64Lanes], 64u);
  // Word index 2 x tid: two lanes per bank, one extra bank pass.
  EXPECT_EQ(r.stats["shared"]["accesses"], 1u);
  EXPECT_EQ(r.stats["shared"]["conflict_cycles"], 1u);
  EXPECT_EQ(c[Event::kSharedPasses], 2u);
  EXPECT_EQ(r.op_warps("mem"), 4u);      // ld.param, st.shared, ld.global, atom
  EXPECT_EQ(c[Event::kAtomicOps], 32u);  // every lane's add at the L2 atomic unit
  // Every L2 miss not merged into an outstanding one (the atomic follows the load to its line)
  // is one DRAM read: the data line and the I-cache fills (code lives in DRAM too); nothing is
  // written back; a row is opened per read here.
  const std::uint64_t dram_reads = r.stats["memory"]["dram"]["reads"];
  EXPECT_EQ(dram_reads, c[Event::kL2Misses] - r.totals.hier.l2.mshr_merges);
  EXPECT_GE(dram_reads, 2u);
  EXPECT_EQ(c[Event::kDramActivates], dram_reads);
  EXPECT_EQ(c[Event::kDramPrecharges], c[Event::kDramActivates] - 1);
  EXPECT_EQ(c[Event::kDramReadBytes] % 32, 0u);
  EXPECT_GT(c[Event::kDramReadBytes], 0u);
  EXPECT_EQ(c[Event::kDramWriteBytes], 0u);
  const EnergyParams& p = r.totals.energy;
  const EnergyReport e = estimate(c, p, 700);
  auto dyn = [&](Dyn d) { return e.dynamic_j[static_cast<int>(d)] * 1e12; };  // pJ
  EXPECT_NEAR(dyn(Dyn::kFp64), 64 * p.fp64_pj, 1e-6);
  EXPECT_NEAR(dyn(Dyn::kShared), 2 * p.shared_pj, 1e-6);
  EXPECT_NEAR(dyn(Dyn::kAtomic), 32 * p.atomic_pj, 1e-6);
  const double acts = static_cast<double>(c[Event::kDramActivates]);
  EXPECT_NEAR(dyn(Dyn::kDram),
              acts * p.dram_activate_pj + (acts - 1) * p.dram_precharge_pj +
                  static_cast<double>(c[Event::kDramReadBytes]) * p.dram_read_pj_per_byte,
              1e-6);
}

TEST(EnergyModel, HandComputedEnergyOfTheMixKernel) {
  const RunResult r = run(kMix, "mix", 1, 32);
  const EnergyParams& p = r.totals.energy;
  const EnergyCounts& c = r.counts;
  const EnergyReport e = estimate(c, p, 700);
  auto dyn = [&](Dyn d) { return e.dynamic_j[static_cast<int>(d)] * 1e12; };  // pJ
  EXPECT_NEAR(dyn(Dyn::kInt), 96 * p.int_pj + 64 * p.imul_pj, 1e-6);
  EXPECT_NEAR(dyn(Dyn::kFp32), 64 * p.fp32_pj, 1e-6);
  EXPECT_NEAR(dyn(Dyn::kSfu), 32 * p.sfu_pj, 1e-6);
  EXPECT_NEAR(dyn(Dyn::kFp64), 0.0, 1e-9);
  EXPECT_NEAR(dyn(Dyn::kRegfile), 12 * p.rf_read_pj + 9 * p.rf_write_pj, 1e-6);
  EXPECT_NEAR(dyn(Dyn::kPipeline),
              352 * p.lane_pj + 11 * p.inst_pj + 1 * p.branch_pj + 2 * p.ldst_pj, 1e-6);
  EXPECT_NEAR(dyn(Dyn::kL1), 1 * p.l1_pj + static_cast<double>(c[Event::kL1Misses]) * p.l1_fill_pj,
              1e-6);
  EXPECT_NEAR(dyn(Dyn::kIcnt), static_cast<double>(c[Event::kFlits]) * p.flit_pj, 1e-6);
  // Static: the run's SM-cycles at 700 MHz, one SM busy and one idle.
  const double s = 1.0 / 700e6;
  EXPECT_NEAR(e.static_j[static_cast<int>(Stat::kSmActive)],
              static_cast<double>(c[Event::kSmActiveCycles]) * s * p.sm_active_w, 1e-15);
  EXPECT_NEAR(e.static_j[static_cast<int>(Stat::kSmIdle)],
              static_cast<double>(c[Event::kSmIdleCycles]) * s * p.sm_idle_w, 1e-15);
  EXPECT_NEAR(e.seconds, static_cast<double>(c[Event::kCycles]) * s, 1e-18);
}

TEST(EnergyModel, EveryCoefficientChargesItsEvent) {
  // One of each event, each coefficient a distinct power of two: the total identifies them.
  EnergyCounts c;
  c.n.fill(1);
  c[Event::kCycles] = c[Event::kSmActiveCycles] = c[Event::kSmIdleCycles] = 0;
  EnergyParams p;
  double* f[] = {&p.int_pj,
                 &p.imul_pj,
                 &p.fp32_pj,
                 &p.fp64_pj,
                 &p.sfu_pj,
                 &p.lane_pj,
                 &p.inst_pj,
                 &p.branch_pj,
                 &p.ldst_pj,
                 &p.rf_read_pj,
                 &p.rf_write_pj,
                 &p.icache_pj,
                 &p.icache_fill_pj,
                 &p.ibuffer_pj,
                 &p.sched_pj,
                 &p.shared_pj,
                 &p.l1_pj,
                 &p.l1_fill_pj,
                 &p.const_pj,
                 &p.const_fill_pj,
                 &p.flit_pj,
                 &p.l2_pj,
                 &p.l2_fill_pj,
                 &p.atomic_pj,
                 &p.dram_activate_pj,
                 &p.dram_precharge_pj,
                 &p.dram_read_pj_per_byte,
                 &p.dram_write_pj_per_byte};
  double expect = 0;
  for (std::size_t i = 0; i < std::size(f); ++i) {
    *f[i] = std::ldexp(1.0, static_cast<int>(i));
    expect += *f[i];
  }
  const EnergyReport e = estimate(c, p, 1000);
  EXPECT_DOUBLE_EQ(e.dynamic_total_j * 1e12, expect);
  EXPECT_DOUBLE_EQ(e.static_total_j, 0.0);  // no cycles
}

TEST(EnergyModel, StaticPowerOverTime) {
  EnergyCounts c;
  c[Event::kCycles] = 1'000'000;  // 1 ms at 1 GHz
  c[Event::kSmActiveCycles] = 1'000'000;
  c[Event::kSmIdleCycles] = 3'000'000;  // three idle SMs
  c[Event::kWarpInstructions] = 1000;
  EnergyParams p;
  p.sm_active_w = 2, p.sm_idle_w = 1, p.uncore_w = 10, p.dram_w = 5, p.constant_w = 20;
  const EnergyReport e = estimate(c, p, 1000);
  EXPECT_DOUBLE_EQ(e.seconds, 1e-3);
  EXPECT_NEAR(e.static_j[static_cast<int>(Stat::kSmActive)], 2e-3, 1e-15);
  EXPECT_NEAR(e.static_j[static_cast<int>(Stat::kSmIdle)], 3e-3, 1e-15);
  EXPECT_NEAR(e.total_j, (2 + 3 + 10 + 5 + 20) * 1e-3, 1e-15);
  EXPECT_NEAR(e.avg_power_w, 40.0, 1e-9);
  EXPECT_NEAR(e.nj_per_warp_instruction, 40e-3 * 1e9 / 1000, 1e-9);
}

TEST(EnergyModel, ComponentsSumToTheTotalInTheReport) {
  const RunResult r = run(kMix, "mix", 4, 64);
  const nlohmann::json j = stats::energy_json(r.stats, r.totals);
  double sum = 0;
  for (auto& [k, v] : j["dynamic"].items()) sum += v.get<double>();
  for (auto& [k, v] : j["static"].items()) sum += v.get<double>();
  EXPECT_GT(j["total_j"].get<double>(), 0.0);
  EXPECT_NEAR(sum, j["total_j"].get<double>(), 1e-12 * j["total_j"].get<double>());
  EXPECT_NEAR(j["sm_dynamic_j"].get<double>() + j["memory_dynamic_j"].get<double>(),
              j["dynamic_j"].get<double>(), 1e-12 * j["total_j"].get<double>());
  EXPECT_GT(j["avg_power_w"].get<double>(), 0.0);
  EXPECT_TRUE(j["memory_model_counted"].get<bool>());
}

TEST(EnergyModel, AnIdleSmCostsStaticPowerOnly) {
  // One CTA on a two-SM GPU: SM 1 never has a CTA, so it is idle every cycle and no dynamic
  // counter of its moves.
  const RunResult r = run(kMix, "mix", 1, 32);
  const sm::SmStats& idle = r.totals.sm[1];
  EXPECT_EQ(idle.active_cycles, 0u);
  EXPECT_EQ(idle.warp_instructions, 0u);
  EXPECT_EQ(idle.rf_reads + idle.rf_writes, 0u);
  EXPECT_EQ(r.totals.icache[1].accesses, 0u);
  EXPECT_EQ(r.counts[Event::kSmIdleCycles],
            r.counts[Event::kCycles] + (r.counts[Event::kCycles] - r.totals.sm[0].active_cycles));
}

TEST(EnergyCounts, EveryEventReadsStatisticsTheRunDeclares) {
  // Every path of every event exists in a hierarchy run's stats.gpu, and the report shows each
  // event's count beside the paths it was read from.
  const RunResult r = run(kMem, "memk", 2, 32);
  const nlohmann::json e = stats::energy_json(r.stats, r.totals)["events"];
  ASSERT_EQ(e.size(), static_cast<std::size_t>(kEventCount));
  for (const EventDecl& ev : kEvents) {
    std::uint64_t sum = 0;
    for (std::string_view path : event_sources(ev)) {
      const nlohmann::json::json_pointer ptr("/" + [&] {
        std::string p(path);
        for (char& ch : p)
          if (ch == '.') ch = '/';
        return p;
      }());
      ASSERT_TRUE(r.stats.contains(ptr)) << ev.name << " reads " << path;
      sum += r.stats[ptr].get<std::uint64_t>();
    }
    EXPECT_EQ(e[std::string(ev.name)]["count"].get<std::uint64_t>(), sum) << ev.name;
    EXPECT_EQ(e[std::string(ev.name)]["from"].get<std::string>(), ev.from);
  }
}

TEST(EnergyCounts, SchedulerCyclesAreEveryStallKindButIdleAndExit) {
  // A new stall kind must be charged or excluded on purpose: the event's paths are every kind
  // the schedulers declare but idle and exit.
  const RunResult r = run(kMix, "mix", 4, 64);
  std::uint64_t live = 0;
  for (auto& [kind, v] : r.stats["sched_total"]["cycles"].items())
    if (kind != "idle" && kind != "exit") live += v.get<std::uint64_t>();
  EXPECT_GT(live, 0u);
  EXPECT_EQ(r.counts[Event::kSchedCycles], live);
}

TEST(EnergyCounts, AMissingStatisticIsABugNotAZero) {
  const RunResult r = run(kMix, "mix", 1, 32);
  nlohmann::json renamed = r.stats;
  renamed["sm_total"].erase("rf_reads");
  EXPECT_THROW((void)counts_from(renamed), std::logic_error);
  // The memory side may be absent (mem.model simple): its events read as 0.
  nlohmann::json simple = r.stats;
  simple.erase("memory");
  const EnergyCounts c = counts_from(simple);
  EXPECT_EQ(c[Event::kL2Misses], 0u);
  EXPECT_EQ(c[Event::kWarpInstructions], r.counts[Event::kWarpInstructions]);
}

TEST(EnergyModel, EnergyMovesNoCycle) {
  // Coefficients are read after the run: a run with every coefficient zero takes as long.
  std::vector<std::pair<std::string, std::string>> zero;
  for (const auto& k : config::gpu_schema().keys())
    if (k.key.rfind("energy.", 0) == 0) zero.push_back({k.key, "0"});
  const RunResult a = run(kMix, "mix", 4, 64);
  const RunResult b = run(kMix, "mix", 4, 64, tiny(zero));
  EXPECT_EQ(a.totals.cycles, b.totals.cycles);
  EXPECT_EQ(estimate(b.counts, b.totals.energy, 700).total_j, 0.0);
}

TEST(EnergyConfig, NegativeOrHugeCoefficientIsAnErrorNamingTheKey) {
  for (const char* bad : {"-1", "1e12"}) {
    try {
      (void)config::Config::load(config::gpu_schema(), "tiny", {{"energy.sm.fp32_pj", bad}});
      ADD_FAILURE() << "accepted " << bad;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("energy.sm.fp32_pj"), std::string::npos) << e.what();
    }
  }
}

TEST(EnergyConfig, EveryShippedConfigNamesASourceForEachCoefficient) {
  for (const auto& k : config::gpu_schema().keys()) {
    if (k.key.rfind("energy.", 0) != 0) continue;
    EXPECT_FALSE(k.source.empty()) << k.key;
    EXPECT_FALSE(k.description.empty()) << k.key;
  }
}

}  // namespace
}  // namespace simtsync::energy
