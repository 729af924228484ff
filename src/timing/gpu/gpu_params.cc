// GPU parameters from a resolved config, and the GPU schema assembled from the fixed keys
// (config/gpu_schema.cc) and the plug-in families' declarations (their .def tables).
#include <fmt/format.h>

#include <algorithm>

#include "common/error.h"
#include "common/host_memory.h"
#include "config/config.h"
#include "config/schema.h"
#include "simt/registry.h"
#include "timing/gpu/cta_dispatcher.h"
#include "timing/gpu/timing_gpu.h"
#include "timing/mem/mem_unit_registry.h"
#include "timing/sched/i_fetch_policy.h"
#include "timing/sched/i_warp_scheduler.h"

namespace simtsync {

namespace config {

namespace {

void add_families(Schema& s) {
  declare_family(s, sched::kSchedulerPrefix, "gto", "Issue policy of each warp scheduler",
                 "GPGPU-Sim SM2_GTX480 -gpgpu_scheduler gto", sched::schedulers());
  declare_family(s, sched::kFetchPrefix, "rr", "Which warp the fetch stage serves next",
                 "seed 002 sec. 2.2 (GPGPU-Sim fetches round robin)", sched::fetch_policies());
  declare_family(s, simt::kConfigPrefix, "ipdom_stack",
                 "Branch divergence and reconvergence mechanism", "seed 004 Table 6.1 (PDOM)",
                 simt::reconvergence_units());
  declare_family(s, gpu::kDispatchPrefix, "round_robin",
                 "How CTAs are assigned to SMs as slots free up",
                 "issue 3 (CTAs spread round robin)", gpu::cta_dispatchers());
}

}  // namespace

const Schema& gpu_schema() {
  static const Schema s = build_gpu_schema(&add_families, &mem::declare_mem_units);
  return s;
}

}  // namespace config

namespace gpu {

namespace {

// Refuses a config whose per-SM and per-slice state (cache tags above all: 1024 partitions x 64
// slices x 1 GiB of L2 is 26 TB of tags) would not fit the host memory budget, before any of it
// is allocated.
void check_host_memory(const GpuParams& p) {
  // Host bytes per cache line: the tag array's way (tag, sector masks, LRU) and its lookup copy.
  constexpr long double kPerLine = 48;
  const mem::HierarchyParams& h = p.hier;
  const long double l1 = p.hierarchy ? static_cast<long double>(p.num_sms) * h.l1.geo.bytes /
                                           std::max(1u, h.l1.geo.line) * kPerLine
                                     : 0;
  const long double slices =
      static_cast<long double>(h.map.partitions) * h.map.slices_per_partition;
  const long double l2 =
      p.hierarchy ? slices * h.l2.geo.bytes / std::max(1u, h.l2.geo.line) * kPerLine : 0;
  const long double shared = static_cast<long double>(p.num_sms) * p.sm.shared_bytes;
  const long double total = l1 + l2 + shared;
  if (total <= static_cast<long double>(p.host_memory_budget)) return;
  auto mb = [](long double b) { return static_cast<std::uint64_t>(b / (1 << 20)); };
  throw usage_error(fmt::format(
      "the config needs about {} MiB of host memory (L2 tags {} MiB: mem.partitions x "
      "mem.l2.slices_per_partition x mem.l2.size_bytes; L1 tags {} MiB: gpu.num_sms x "
      "mem.l1.size_bytes; shared memory {} MiB: gpu.num_sms x sm.shared_memory_bytes), more than "
      "sim.host_memory_budget_mb = {} MiB",
      mb(total), mb(l2), mb(l1), mb(shared), p.host_memory_budget >> 20));
}

}  // namespace

namespace {

// The SM: pipeline widths, units, latencies, I-cache and shared memory (sm.*, and what the
// SM takes from mem.* and compile.*).
sm::SmParams sm_params_from(const config::Config& c, bool hierarchy) {
  auto u = [&](const char* k) { return static_cast<unsigned>(c.get_int(k)); };
  sm::SmParams s;
  s.warp_size = u("gpu.warp_size");
  s.max_threads = u("sm.max_threads");
  s.max_warps = u("sm.max_warps");
  if (s.max_warps > 64)
    throw usage_error(
        fmt::format("key 'sm.max_warps': {} is above 64, the most the timing model "
                    "tracks per SM",
                    s.max_warps));
  s.max_ctas = u("sm.max_ctas");
  s.registers = u("sm.registers");
  s.shared_bytes = u("sm.shared_memory_bytes");
  s.num_schedulers = u("sm.num_schedulers");
  s.simd_width = u("sm.simd_width");
  s.ibuffer_slots = std::min(u("sm.ibuffer_slots"), sm::kMaxIbuffer);
  s.fetch_width = u("sm.fetch_width");
  s.fetch_decode = u("sm.fetch_decode");
  s.fetch_empty_only = c.get_bool("sm.fetch_empty_only");
  s.fetch_past_control = c.get_bool("sm.fetch_past_control");
  s.scheduler = sched::scheduler_params(c);
  s.fetch_policy = sched::fetch_params(c);
  s.icache_bytes = u("sm.icache.size_bytes");
  s.icache_line = u("sm.icache.line_bytes");
  s.icache_assoc = u("sm.icache.assoc");
  s.icache_hit_latency = u("sm.icache.hit_latency");
  s.icache_miss_latency = u("sm.icache.miss_latency");
  // Honoured by the I-cache itself, so it holds under both memory models (with the hierarchy a
  // miss fills from L2 and never reads the miss latency).
  s.icache_perfect = c.get_bool("sm.icache.perfect");
  s.icache_wait_for_fill = c.get_bool("sm.icache.wait_for_fill");
  using sm::OpClass;
  using sm::UnitKind;
  s.units[static_cast<int>(UnitKind::kSp)] = u("sm.units.sp");
  s.units[static_cast<int>(UnitKind::kSfu)] = u("sm.units.sfu");
  s.units[static_cast<int>(UnitKind::kLdst)] = u("sm.units.ldst");
  // 0 DP units: double precision runs on the SFU pipelines (GPGPU-Sim's Fermi model).
  s.units[static_cast<int>(UnitKind::kDp)] = u("sm.units.dp");
  s.dp_on_sfu = s.units[static_cast<int>(UnitKind::kDp)] == 0;
  const std::pair<OpClass, const char*> classes[] = {
      {OpClass::kInt, "int"}, {OpClass::kImul, "imul"},    {OpClass::kIdiv, "idiv"},
      {OpClass::kFp, "fp"},   {OpClass::kFpDiv, "fp_div"}, {OpClass::kDp, "dp"},
      {OpClass::kSfu, "sfu"}};
  for (auto [cls, name] : classes) {
    s.latency[static_cast<int>(cls)] = u(fmt::format("sm.latency.{}", name).c_str());
    s.ii[static_cast<int>(cls)] = u(fmt::format("sm.ii.{}", name).c_str());
  }
  s.latency[static_cast<int>(OpClass::kCtrl)] = u("sm.latency.ctrl");
  s.ii[static_cast<int>(OpClass::kCtrl)] = 1;
  s.latency[static_cast<int>(OpClass::kMem)] = u("sm.latency.ldst_issue");
  s.ii[static_cast<int>(OpClass::kMem)] = 1;
  s.shared_latency = u("sm.shared.latency");
  s.shared_banks = u("sm.shared.banks");
  s.shared_bank_bytes = u("sm.shared.bank_bytes");
  s.shared_lock_bits = u("sm.shared.lock_bits");
  s.shared_lock_loop = c.get_string("sm.shared.atomics") == "lock_loop";
  s.rotate_scheduler_priority = c.get_string("sm.scheduler_priority") == "rotate";
  s.const_latency = u("mem.const_cache.latency");
  s.kernel_params_cached = c.get_string("mem.const_cache.kernel_params") == "cached" && hierarchy;
  s.icache_fill_from_memory = hierarchy;
  s.track_warp_phases = c.get_bool("stats.warp_phases");
  return s;
}

// The memory hierarchy (mem.* but mem.simple.*, clock.*), with the checks between keys that
// the schema makes one at a time.
mem::HierarchyParams hierarchy_params_from(const config::Config& c, unsigned num_sms,
                                           double core_mhz, bool hierarchy) {
  auto u = [&](const char* k) { return static_cast<unsigned>(c.get_int(k)); };
  mem::HierarchyParams h;
  h.num_sms = num_sms;
  h.request_slots = u("mem.requests_per_sm");
  h.l1.enabled = c.get_bool("mem.l1.enabled");
  h.l1.geo = {u("mem.l1.size_bytes"), u("mem.l1.assoc"), u("mem.l1.line_bytes"),
              u("mem.l1.sector_bytes")};
  h.l1.latency = u("mem.l1.latency");
  h.l1.mshrs = u("mem.l1.mshrs");
  h.l1.mshr_merge = u("mem.l1.mshr_merge");
  h.l1.miss_queue = u("mem.l1.miss_queue");
  h.l1.fill_whole_line = c.get_bool("mem.l1.fill_whole_line");
  h.l1.write_through = c.get_string("mem.l1.write_policy") == "through";
  h.l1.fermi_hash_sets = c.get_string("mem.l1.set_index") == "fermi_hash";
  const std::string cacp = c.get_string("mem.l1.cacp");
  h.l1.cacp.mode = cacp == "on"    ? mem::CacpParams::Mode::kOn
                   : cacp == "off" ? mem::CacpParams::Mode::kOff
                                   : mem::CacpParams::Mode::kAuto;
  h.l1.cacp.critical_ways = u("mem.l1.cacp_critical_ways");
  h.l1.cacp.signature_bits = u("mem.l1.cacp_signature_bits");
  h.l1.cacp.signature_line = c.get_string("mem.l1.cacp_signature") == "pc_line";
  h.l1.cacp.bypass = c.get_bool("mem.l1.cacp_bypass");
  h.l1.const_bytes = u("mem.const_cache.size_bytes");
  h.l1.const_latency = u("mem.const_cache.latency");
  h.l1.const_perfect = c.get_bool("mem.const_cache.perfect");
  h.icnt.latency = u("mem.icnt.latency");
  h.icnt.flit_bytes = u("mem.icnt.flit_bytes");
  h.icnt.flits_per_cycle = u("mem.icnt.flits_per_cycle");
  h.icnt.input_buffer = u("mem.icnt.input_buffer");
  h.icnt.output_buffer = u("mem.icnt.output_buffer");
  h.icnt.header_bytes = u("mem.icnt.header_bytes");
  h.map.partitions = u("mem.partitions");
  h.map.slices_per_partition = u("mem.l2.slices_per_partition");
  h.map.interleave = u("mem.partition_interleave");
  h.l2.geo = {u("mem.l2.size_bytes"), u("mem.l2.assoc"), u("mem.l2.line_bytes"),
              u("mem.l1.sector_bytes")};
  h.l2.latency = u("mem.l2.latency");
  h.l2.mshrs = u("mem.l2.mshrs");
  h.l2.mshr_merge = u("mem.l2.mshr_merge");
  h.l2.input_queue = u("mem.l2.input_queue");
  h.l2.global_set_index = c.get_string("mem.l2.set_index") == "global";
  h.l2.keep_across_launches = c.get_bool("mem.l2.keep_across_launches");
  h.units = mem::mem_unit_choices(c);
  if (c.get_string("mem.lock_queue.mode") != "off" && !hierarchy)
    throw usage_error(
        fmt::format("key 'mem.lock_queue.mode': '{}' needs mem.model=hierarchy "
                    "(lock queues live in the memory partitions)",
                    c.get_string("mem.lock_queue.mode")));
  mem::DramParams& d = h.dram;
  d.banks = u("mem.dram.banks");
  d.row_bytes = u("mem.dram.row_bytes");
  d.tCL = u("mem.dram.t_cl");
  d.tWL = u("mem.dram.t_wl");
  d.tRCD = u("mem.dram.t_rcd");
  d.tRP = u("mem.dram.t_rp");
  d.tRAS = u("mem.dram.t_ras");
  d.tRC = u("mem.dram.t_rc");
  d.tRRD = u("mem.dram.t_rrd");
  d.tCCD = u("mem.dram.t_ccd");
  d.bus_bytes = u("mem.dram.bus_bytes");
  d.data_rate = u("mem.dram.data_rate");
  d.burst_length = u("mem.dram.burst_length");
  d.queue = u("mem.dram.queue");
  d.latency = u("mem.dram.latency");
  d.fr_fcfs = c.get_string("mem.dram.scheduler") == "fr_fcfs";
  h.clock.core_mhz = core_mhz;
  h.clock.icnt_mhz = c.get_float("clock.icnt_mhz");
  h.clock.l2_mhz = c.get_float("clock.l2_mhz");
  h.clock.dram_mhz = c.get_float("clock.dram_mhz");
  // Consistency between keys that the schema checks one at a time.
  auto pow2 = [](unsigned x) { return x && (x & (x - 1)) == 0; };
  if (h.l2.geo.line != h.l1.geo.line)
    throw usage_error(fmt::format("key 'mem.l2.line_bytes': {} must equal mem.l1.line_bytes ({})",
                                  h.l2.geo.line, h.l1.geo.line));
  if (!pow2(h.l1.geo.line) || !pow2(h.l1.geo.sector) || h.l1.geo.sector > h.l1.geo.line ||
      h.l1.geo.line / h.l1.geo.sector > 32)
    throw usage_error(fmt::format(
        "keys 'mem.l1.line_bytes' ({}) and 'mem.l1.sector_bytes' ({}): both must be powers of two "
        "with at most 32 sectors per line",
        h.l1.geo.line, h.l1.geo.sector));
  // Every cache holds size = sets x ways x line with at least one set (a tag array would
  // otherwise clamp to one set and silently hold a different capacity than configured).
  auto check_geometry = [](const mem::CacheGeometry& g, const char* size_key, const char* assoc_key,
                           const char* line_key) {
    const std::uint64_t way_bytes = std::uint64_t{g.assoc} * g.line;
    if (g.bytes % way_bytes != 0 || g.bytes < way_bytes)
      throw usage_error(fmt::format(
          "key '{}': {} bytes is not sets x ways x line for {} = {} ways of {} = {} bytes "
          "(it must be a non-zero multiple of {} bytes)",
          size_key, g.bytes, assoc_key, g.assoc, line_key, g.line, way_bytes));
  };
  check_geometry(h.l1.geo, "mem.l1.size_bytes", "mem.l1.assoc", "mem.l1.line_bytes");
  check_geometry(h.l2.geo, "mem.l2.size_bytes", "mem.l2.assoc", "mem.l2.line_bytes");
  if (h.l1.fermi_hash_sets) {
    const unsigned sets = h.l1.geo.bytes / (h.l1.geo.assoc * h.l1.geo.line);
    if (h.l1.geo.line != 128 || (sets != 32 && sets != 64))
      throw usage_error(fmt::format(
          "key 'mem.l1.set_index': fermi_hash needs 128-byte lines and 32 or 64 sets; "
          "mem.l1.size_bytes, mem.l1.assoc and mem.l1.line_bytes give {}-byte lines, {} sets",
          h.l1.geo.line, sets));
  }
  if (h.l1.cacp.critical_ways > h.l1.geo.assoc)
    throw usage_error(fmt::format(
        "key 'mem.l1.cacp_critical_ways': {} ways is more than the L1 has (mem.l1.assoc = {})",
        h.l1.cacp.critical_ways, h.l1.geo.assoc));
  // The constant cache: 4 ways (memory_hierarchy.cc) of the L1 line.
  check_geometry({h.l1.const_bytes, mem::kConstCacheAssoc, h.l1.geo.line, h.l1.geo.sector},
                 "mem.const_cache.size_bytes", "4 (the constant cache's fixed associativity)",
                 "mem.l1.line_bytes");
  if (h.map.interleave % h.l1.geo.line != 0)
    throw usage_error(
        fmt::format("key 'mem.partition_interleave': {} must be a multiple of the "
                    "line size ({})",
                    h.map.interleave, h.l1.geo.line));
  return h;
}

}  // namespace

GpuParams gpu_params_from(const config::Config& c) {
  GpuParams p;
  auto u = [&](const char* k) { return static_cast<unsigned>(c.get_int(k)); };
  p.num_sms = u("gpu.num_sms");
  p.core_clock_mhz = c.get_float("gpu.core_clock_mhz");
  p.register_granularity = std::max(1u, u("sm.register_granularity"));
  p.registers_per_thread = u("compile.registers_per_thread");
  p.hierarchy = c.get_string("mem.model") == "hierarchy";
  p.sm = sm_params_from(c, p.hierarchy);
  p.sm.scheduler.core_clock_mhz = p.core_clock_mhz;  // nanosleep: nanoseconds to core cycles
  p.reconvergence = simt::reconvergence_choice(c);
  p.dispatch = dispatch_params(c);
  p.hier = hierarchy_params_from(c, p.num_sms, p.core_clock_mhz, p.hierarchy);
  p.mem.latency = u("mem.simple.latency");
  p.mem.atomic_latency = u("mem.simple.atomic_latency");
  p.mem.atomic_occupancy = u("mem.simple.atomic_occupancy");
  p.mem.bytes_per_cycle = c.get_float("mem.simple.bytes_per_cycle");
  p.mem.line_bytes = u("mem.simple.line_bytes");
  p.mem.queue_depth = u("mem.simple.queue_depth");
  p.max_cycles = static_cast<Cycle>(c.get_int("watchdog.max_cycles"));
  p.no_completion_window = static_cast<Cycle>(c.get_int("watchdog.no_completion_window"));
  p.starvation_window = static_cast<Cycle>(c.get_int("watchdog.starvation_window"));
  p.progress_seconds = c.get_float("watchdog.progress_seconds");
  p.watchdog.quiet_steps = static_cast<std::uint64_t>(c.get_int("watchdog.quiet_steps"));
  p.track_sync_status = c.get_bool("stats.sync_status");
  p.watchdog.max_steps = static_cast<std::uint64_t>(c.get_int("watchdog.max_steps"));
  p.watchdog.quiet_cycles = static_cast<std::uint64_t>(c.get_int("watchdog.quiet_cycles"));
  p.watchdog.max_call_depth = static_cast<std::uint32_t>(c.get_int("watchdog.max_call_depth"));
  p.energy = energy_params_from(c);
  p.host_memory_budget =
      host_memory_budget(static_cast<std::uint64_t>(c.get_int("sim.host_memory_budget_mb")));
  check_host_memory(p);
  return p;
}

energy::EnergyParams energy_params_from(const config::Config& c) {
  using E = energy::EnergyParams;
  static constexpr struct {
    const char* key;
    double E::*field;
  } kKeys[] = {
      {"energy.sm.int_pj", &E::int_pj},
      {"energy.sm.imul_pj", &E::imul_pj},
      {"energy.sm.fp32_pj", &E::fp32_pj},
      {"energy.sm.fp64_pj", &E::fp64_pj},
      {"energy.sm.sfu_pj", &E::sfu_pj},
      {"energy.sm.lane_pj", &E::lane_pj},
      {"energy.sm.inst_pj", &E::inst_pj},
      {"energy.sm.branch_pj", &E::branch_pj},
      {"energy.sm.ldst_pj", &E::ldst_pj},
      {"energy.sm.rf_read_pj", &E::rf_read_pj},
      {"energy.sm.rf_write_pj", &E::rf_write_pj},
      {"energy.sm.icache_pj", &E::icache_pj},
      {"energy.sm.icache_fill_pj", &E::icache_fill_pj},
      {"energy.sm.ibuffer_pj", &E::ibuffer_pj},
      {"energy.sm.sched_pj", &E::sched_pj},
      {"energy.sm.shared_pj", &E::shared_pj},
      {"energy.sm.l1_pj", &E::l1_pj},
      {"energy.sm.l1_fill_pj", &E::l1_fill_pj},
      {"energy.sm.const_pj", &E::const_pj},
      {"energy.sm.const_fill_pj", &E::const_fill_pj},
      {"energy.mem.flit_pj", &E::flit_pj},
      {"energy.mem.l2_pj", &E::l2_pj},
      {"energy.mem.l2_fill_pj", &E::l2_fill_pj},
      {"energy.mem.atomic_pj", &E::atomic_pj},
      {"energy.mem.dram_activate_pj", &E::dram_activate_pj},
      {"energy.mem.dram_precharge_pj", &E::dram_precharge_pj},
      {"energy.mem.dram_read_pj_per_byte", &E::dram_read_pj_per_byte},
      {"energy.mem.dram_write_pj_per_byte", &E::dram_write_pj_per_byte},
      {"energy.static.sm_active_w", &E::sm_active_w},
      {"energy.static.sm_idle_w", &E::sm_idle_w},
      {"energy.static.uncore_w", &E::uncore_w},
      {"energy.static.dram_w", &E::dram_w},
      {"energy.static.constant_w", &E::constant_w},
  };
  E e;
  for (const auto& k : kKeys) e.*k.field = c.get_float(k.key);
  return e;
}

}  // namespace gpu
}  // namespace simtsync
