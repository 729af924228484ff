#include "timing/gpu/timing_gpu.h"

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "common/error.h"
#include "config/config.h"
#include "func/launch_setup.h"

namespace simtsync::gpu {

GpuParams gpu_params_from(const config::Config& c) {
  GpuParams p;
  auto u = [&](const char* k) { return static_cast<unsigned>(c.get_int(k)); };
  p.num_sms = u("gpu.num_sms");
  p.core_clock_mhz = c.get_float("gpu.core_clock_mhz");
  p.register_granularity = std::max(1u, u("sm.register_granularity"));
  p.registers_per_thread = u("compile.registers_per_thread");
  sm::SmParams& s = p.sm;
  s.warp_size = u("gpu.warp_size");
  s.max_threads = u("sm.max_threads");
  s.max_warps = u("sm.max_warps");
  if (s.max_warps > 64)
    throw usage_error(fmt::format("key 'sm.max_warps': {} is above 64, the most the timing model "
                                  "tracks per SM", s.max_warps));
  s.max_ctas = u("sm.max_ctas");
  s.registers = u("sm.registers");
  s.shared_bytes = u("sm.shared_memory_bytes");
  s.num_schedulers = u("sm.num_schedulers");
  s.simd_width = u("sm.simd_width");
  s.ibuffer_slots = std::min(u("sm.ibuffer_slots"), sm::kMaxIbuffer);
  s.fetch_width = u("sm.fetch_width");
  s.scheduler.impl = c.get_string("sm.warp_scheduler.impl");
  s.scheduler.rotation_period = static_cast<std::uint64_t>(c.get_int("sm.warp_scheduler.rotation_period"));
  s.scheduler.active_set = u("sm.warp_scheduler.active_set");
  s.fetch_policy = c.get_string("sm.fetch_policy.impl");
  s.icache_bytes = u("sm.icache.size_bytes");
  s.icache_line = u("sm.icache.line_bytes");
  s.icache_assoc = u("sm.icache.assoc");
  s.icache_hit_latency = u("sm.icache.hit_latency");
  s.icache_miss_latency = c.get_bool("sm.icache.perfect") ? s.icache_hit_latency
                                                            : u("sm.icache.miss_latency");
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
  s.shared_lock_bits = u("sm.shared.lock_bits");
  s.const_latency = u("mem.const_cache.latency");
  p.hierarchy = c.get_string("mem.model") == "hierarchy";
  s.icache_fill_from_memory = p.hierarchy;
  mem::HierarchyParams& h = p.hier;
  h.num_sms = p.num_sms;
  h.request_slots = u("mem.requests_per_sm");
  h.l1.enabled = c.get_bool("mem.l1.enabled");
  h.l1.geo = {u("mem.l1.size_bytes"), u("mem.l1.assoc"), u("mem.l1.line_bytes"),
              u("mem.l1.sector_bytes")};
  h.l1.latency = u("mem.l1.latency");
  h.l1.mshrs = u("mem.l1.mshrs");
  h.l1.mshr_merge = u("mem.l1.mshr_merge");
  h.l1.miss_queue = u("mem.l1.miss_queue");
  h.l1.fill_whole_line = c.get_bool("mem.l1.fill_whole_line");
  h.l1.const_bytes = u("mem.const_cache.size_bytes");
  h.l1.const_latency = u("mem.const_cache.latency");
  h.icnt.latency = u("mem.icnt.latency");
  h.icnt.flit_bytes = u("mem.icnt.flit_bytes");
  h.icnt.flits_per_cycle = u("mem.icnt.flits_per_cycle");
  h.icnt.input_buffer = u("mem.icnt.input_buffer");
  h.icnt.output_buffer = u("mem.icnt.output_buffer");
  h.icnt.header_bytes = u("mem.icnt.header_bytes");
  h.map.partitions = u("mem.partitions");
  h.map.interleave = u("mem.partition_interleave");
  h.l2.geo = {u("mem.l2.size_bytes"), u("mem.l2.assoc"), u("mem.l2.line_bytes"),
              u("mem.l1.sector_bytes")};
  h.l2.latency = u("mem.l2.latency");
  h.l2.mshrs = u("mem.l2.mshrs");
  h.l2.mshr_merge = u("mem.l2.mshr_merge");
  h.l2.input_queue = u("mem.l2.input_queue");
  h.atomic.queue = u("mem.atomic.queue");
  h.atomic.ops_per_cycle = u("mem.atomic.ops_per_cycle");
  h.atomic.same_address_interval = u("mem.atomic.same_address_interval");
  h.atomic.latency = u("mem.atomic.latency");
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
  h.clock.core_mhz = p.core_clock_mhz;
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
  if (h.map.interleave % h.l1.geo.line != 0)
    throw usage_error(fmt::format("key 'mem.partition_interleave': {} must be a multiple of the "
                                  "line size ({})",
                                  h.map.interleave, h.l1.geo.line));
  p.mem.latency = u("mem.simple.latency");
  p.mem.atomic_latency = u("mem.simple.atomic_latency");
  p.mem.atomic_occupancy = u("mem.simple.atomic_occupancy");
  p.mem.bytes_per_cycle = c.get_float("mem.simple.bytes_per_cycle");
  p.mem.line_bytes = u("mem.simple.line_bytes");
  p.mem.queue_depth = u("mem.simple.queue_depth");
  p.max_cycles = static_cast<Cycle>(c.get_int("watchdog.max_cycles"));
  p.no_completion_window = static_cast<Cycle>(c.get_int("watchdog.no_completion_window"));
  p.watchdog.quiet_steps = static_cast<std::uint64_t>(c.get_int("watchdog.quiet_steps"));
  p.watchdog.max_steps = static_cast<std::uint64_t>(c.get_int("watchdog.max_steps"));
  p.watchdog.quiet_cycles = static_cast<std::uint64_t>(c.get_int("watchdog.quiet_cycles"));
  return p;
}

TimingGpu::TimingGpu(GpuParams p) : p_(std::move(p)), resources_(p_.registers_per_thread) {
  totals_.sm.resize(p_.num_sms);
  totals_.icache.resize(p_.num_sms);
  for (auto& s : totals_.sm) s.sched.resize(std::max(1u, p_.sm.num_schedulers));
}

namespace {

void add(sm::SmStats& t, const sm::SmStats& s) {
  t.active_cycles += s.active_cycles;
  t.warp_instructions += s.warp_instructions;
  t.thread_instructions += s.thread_instructions;
  for (int k = 0; k < 4; ++k) t.unit_busy[k] += s.unit_busy[k];
  t.ibuffer_fills += s.ibuffer_fills;
  t.ibuffer_flushes += s.ibuffer_flushes;
  t.icache_stall_cycles += s.icache_stall_cycles;
  t.shared_conflict_cycles += s.shared_conflict_cycles;
  t.memory_refusals += s.memory_refusals;
  t.ctas_completed += s.ctas_completed;
  for (size_t i = 0; i < s.sched.size() && i < t.sched.size(); ++i) {
    for (int k = 0; k < static_cast<int>(sm::StallKind::kCount); ++k)
      t.sched[i].cycles[k] += s.sched[i].cycles[k];
    t.sched[i].issued += s.sched[i].issued;
  }
}

}  // namespace

func::LaunchResult TimingGpu::run(const func::Program& prog, func::GlobalMemory& mem,
                                  const func::DecodedFunction& kernel, Dim3 grid, Dim3 block,
                                  std::uint32_t dynamic_shared) {
  const unsigned ws = p_.sm.warp_size;
  func::LaunchInfo li = func::make_launch_info(kernel, grid, block, ws, dynamic_shared);
  li.lock_bits = p_.sm.shared_lock_bits;
  std::vector<func::Cta> ctas;
  std::vector<func::Warp> warps;
  func::create_grid(prog, li, false, ctas, warps);
  func::Executor ex(prog, mem, li, warps, ctas);
  func::Watchdog dog(p_.watchdog);

  // Occupancy needs of one CTA.
  const KernelResources res = resources_.of(prog.module(), kernel.name);
  totals_.last_resources = res;
  const unsigned g = p_.register_granularity;
  const unsigned regs_per_thread = (res.registers + g - 1) / g * g;
  const unsigned cta_warps = li.warps_per_cta;
  const unsigned cta_threads = cta_warps * ws;
  const unsigned cta_regs = regs_per_thread * cta_threads;
  const unsigned cta_shared = kernel.static_shared + dynamic_shared;

  // Memory side and SMs.
  std::vector<std::unique_ptr<sm::Sm>> sms;
  auto warp_of = [&](const mem::MemRequest& r) -> func::Warp& {
    return *sms[static_cast<size_t>(r.sm)]->slots()[static_cast<size_t>(r.warp_slot)].warp;
  };
  std::unique_ptr<mem::SimpleMemory> simple;
  std::unique_ptr<mem::MemoryHierarchy> hier;
  if (p_.hierarchy) {
    hier = std::make_unique<mem::MemoryHierarchy>(
        p_.hier, [&](const mem::MemRequest& r, std::uint64_t lanes, bool first) {
          if (r.access) ex.perform(warp_of(r), *r.access, lanes, first);
        });
  } else {
    simple = std::make_unique<mem::SimpleMemory>(
        p_.mem, static_cast<int>(p_.num_sms),
        [&](const mem::MemRequest& r) {
          if (r.access) ex.perform(warp_of(r), *r.access);
        });
  }
  mem::IMemPort& memory = hier ? static_cast<mem::IMemPort&>(*hier) : *simple;
  bool stop = false;
  for (unsigned i = 0; i < p_.num_sms; ++i) {
    sms.push_back(std::make_unique<sm::Sm>(static_cast<int>(i), p_.sm, ex, memory));
    sms.back()->set_step_observer([&](func::Warp& w, Pc before) {
      if (!stop && dog.after_step(ex, w, before, warps)) stop = true;
    });
  }
  {
    // A CTA that can never fit is a configuration error, not a hang.
    sm::Sm probe(0, p_.sm, ex, memory);
    if (!probe.can_accept(cta_threads, cta_warps, cta_regs, cta_shared))
      throw usage_error(fmt::format(
          "kernel '{}' cannot run on this GPU: a CTA needs {} threads, {} warps, {} registers "
          "({} per thread, from {}), {} bytes of shared memory",
          kernel.name, cta_threads, cta_warps, cta_regs, regs_per_thread, res.source, cta_shared));
  }

  std::size_t next_cta = 0, done_ctas = 0;
  unsigned next_sm = 0;
  std::uint64_t age = 0;
  auto dispatch = [&]() {
    // Round robin over SMs; each pending CTA goes to the next SM with room.
    while (next_cta < ctas.size()) {
      bool placed = false;
      for (unsigned k = 0; k < p_.num_sms; ++k) {
        sm::Sm& s = *sms[(next_sm + k) % p_.num_sms];
        if (!s.can_accept(cta_threads, cta_warps, cta_regs, cta_shared)) continue;
        func::Cta& c = ctas[next_cta];
        func::setup_cta(prog, li, c, warps);
        std::vector<func::Warp*> ptrs;
        for (int wid : c.warps) ptrs.push_back(&warps[static_cast<size_t>(wid)]);
        const int slot = s.start_cta(c.index, ptrs, static_cast<unsigned>(block.count()),
                                     cta_regs, cta_shared, age);
        // The SM's lock unit; the CTA's words sit at its slot's place in shared memory.
        c.lock_bits = s.lock_bits();
        c.lock_count = p_.sm.shared_lock_bits;
        c.lock_word_base = static_cast<std::uint64_t>(slot) * ((cta_shared + 3) / 4);
        age += ptrs.size();
        next_sm = (next_sm + k + 1) % p_.num_sms;
        ++next_cta;
        placed = true;
        break;
      }
      if (!placed) break;
    }
  };
  dispatch();
  {
    unsigned per_sm = 0;
    for (auto& s : sms) per_sm = std::max(per_sm, p_.sm.max_ctas - 0u), (void)s;
    // CTAs per SM at full occupancy: the binding limit among the five.
    unsigned occ = p_.sm.max_ctas;
    occ = std::min(occ, p_.sm.max_threads / std::max(1u, cta_threads));
    occ = std::min(occ, p_.sm.max_warps / std::max(1u, cta_warps));
    if (cta_regs) occ = std::min(occ, p_.sm.registers / cta_regs);
    if (cta_shared) occ = std::min(occ, p_.sm.shared_bytes / cta_shared);
    totals_.last_occupancy_ctas = occ;
    (void)per_sm;
  }

  func::LaunchResult result;
  Cycle now = 0, last_completion = 0;
  ex.set_clock(&now);  // %clock64 reads the core cycle
  std::vector<Cycle> wake(sms.size(), 0);
  std::vector<Cycle> last_tick(sms.size(), 0);
  // A progress line on stderr for long runs, only when it is a terminal.
  const bool tty = ::isatty(STDERR_FILENO) != 0;
  const auto t_start = std::chrono::steady_clock::now();
  auto t_last = t_start;
  std::uint64_t loop_count = 0;
  bool printed = false;
  mem::MemRequest resp;
  while (done_ctas < ctas.size()) {
    dog.set_time(now);
    memory.tick(now);
    for (auto& s : sms)
      while (memory.pop_response(s->id(), now, resp)) s->memory_response(resp, now);
    // An SM that made no progress sleeps until its next internal event, a memory response or
    // a new CTA; skipped cycles are charged to its schedulers' last stall reasons.
    bool progressed = false;
    for (size_t i = 0; i < sms.size(); ++i) {
      sm::Sm& s = *sms[i];
      if (now < wake[i] && !s.take_wakeup()) continue;
      if (now > last_tick[i] + 1) s.account_skipped(now - last_tick[i] - 1);
      last_tick[i] = now;
      const bool p = s.tick(now);
      progressed |= p;
      wake[i] = p ? now + 1 : s.next_event(now);
    }
    bool freed = false;
    for (auto& s : sms) {
      if (!s->has_completed()) continue;
      for (int c : s->take_completed()) {
        func::release_cta(ctas[static_cast<size_t>(c)], warps);
        ++done_ctas;
        freed = true;
        last_completion = now;
      }
    }
    if (freed) dispatch();
    if (tty && (++loop_count & 0xffff) == 0) {
      const auto t = std::chrono::steady_clock::now();
      if (t - t_last > std::chrono::milliseconds(500)) {
        t_last = t;
        const double secs = std::chrono::duration<double>(t - t_start).count();
        std::fprintf(stderr, "\r[simtsync] %s: cycle %llu, %.0f KIPS, CTAs %zu/%zu done   ",
                     kernel.name.c_str(), static_cast<unsigned long long>(now),
                     static_cast<double>(ex.stats().warp_instructions) / secs / 1e3, done_ctas,
                     ctas.size());
        printed = true;
      }
    }
    if (stop) break;
    if (done_ctas == ctas.size()) break;
    if (p_.max_cycles && now >= p_.max_cycles) {
      result.watchdog_reason = fmt::format("suspected livelock: the cycle limit of {} was reached",
                                           p_.max_cycles);
      dog.stop(ex, warps, result.watchdog_reason);
      break;
    }
    if (p_.no_completion_window && now - last_completion > p_.no_completion_window) {
      result.watchdog_reason = fmt::format(
          "suspected livelock: no CTA completed in {} cycles", p_.no_completion_window);
      dog.stop(ex, warps, result.watchdog_reason);
      break;
    }
    Cycle next = now + 1;
    if (!progressed && !freed) {
      Cycle t = memory.next_event();
      for (size_t i = 0; i < sms.size(); ++i)
        if (!sms[i]->idle()) t = std::min(t, std::max(wake[i], now + 1));
      if (t == mem::kNever) {
        // Nothing can happen any more: every live warp waits at a barrier.
        dog.all_blocked(ex, warps);
        result.watchdog_reason = dog.reason();
        stop = true;
        break;
      }
      next = std::max(next, t);
    }
    now = next;
  }
  if (stop || !result.watchdog_reason.empty()) {
    if (result.watchdog_reason.empty()) result.watchdog_reason = dog.reason();
    std::string report = dog.report();
    result.watchdog_report = fmt::format("timing model stopped at cycle {}\n{}", now, report);
  } else {
    result.completed = true;
  }
  if (printed) std::fprintf(stderr, "\n");
  for (size_t i = 0; i < sms.size(); ++i)
    if (now > last_tick[i]) sms[i]->account_skipped(now - last_tick[i]);
  result.cycles = now + 1;
  result.stats = ex.stats();
  totals_.cycles += result.cycles;
  ++totals_.kernels;
  totals_.ctas += done_ctas;
  KernelRecord rec;
  rec.kernel = kernel.name;
  rec.cycles = result.cycles;
  rec.ctas = done_ctas;
  rec.completed = result.completed;
  for (unsigned i = 0; i < p_.num_sms; ++i) {
    const sm::SmStats& st = sms[i]->stats();
    rec.warp_instructions += st.warp_instructions;
    rec.thread_instructions += st.thread_instructions;
    for (const auto& sc : st.sched)
      for (int k = 0; k < static_cast<int>(sm::StallKind::kCount); ++k)
        rec.scheduler_cycles[k] += sc.cycles[k];
  }
  totals_.launches.push_back(rec);
  for (unsigned i = 0; i < p_.num_sms; ++i) {
    add(totals_.sm[i], sms[i]->stats());
    const auto& ic = sms[i]->icache_stats();
    totals_.icache[i].accesses += ic.accesses;
    totals_.icache[i].hits += ic.hits;
    totals_.icache[i].misses += ic.misses;
  }
  for (const auto& s : sms) {
    const mem::SharedStats& sh = s->shared_stats();
    totals_.shared.accesses += sh.accesses;
    totals_.shared.atomics += sh.atomics;
    totals_.shared.conflict_cycles += sh.conflict_cycles;
    totals_.shared.lock_attempts += sh.lock_attempts;
    totals_.shared.lock_retries += sh.lock_retries;
  }
  ex.set_clock(nullptr);
  if (simple) {
    const auto& ms = simple->stats();
    totals_.mem.loads += ms.loads;
    totals_.mem.stores += ms.stores;
    totals_.mem.atomics += ms.atomics;
    totals_.mem.transactions += ms.transactions;
    totals_.mem.atomic_lane_ops += ms.atomic_lane_ops;
    totals_.mem.atomic_wait_cycles += ms.atomic_wait_cycles;
    totals_.mem.refused += ms.refused;
    return result;
  }
  const mem::HierarchyStats hs = hier->stats();
  totals_.mem.loads += hs.requests[0];
  totals_.mem.stores += hs.requests[1];
  totals_.mem.atomics += hs.requests[2];
  totals_.mem.transactions += hs.packets;
  totals_.mem.atomic_lane_ops += hs.atomic_lane_ops;
  totals_.mem.atomic_wait_cycles += hs.atomic.queue_wait_cycles;
  totals_.mem.refused += hs.refused;
  totals_.has_hierarchy = true;
  mem::accumulate(totals_.hier, hs);
  return result;
}

}  // namespace simtsync::gpu
