#include "timing/gpu/timing_gpu.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/error.h"
#include "func/launch_setup.h"
#include "timing/gpu/launch.h"
#include "timing/sched/critical_warps_unit.h"

namespace simtsync::gpu {
namespace {

// True when some function of the program holds a nanosleep.
bool program_sleeps(const func::Program& prog) {
  for (const func::DecodedFunction& f : prog.functions())
    for (const func::ExecInst& in : f.code)
      if (in.op == ptx::Opcode::kNanosleep) return true;
  return false;
}

}  // namespace

TimingGpu::TimingGpu(GpuParams p) : p_(std::move(p)), resources_(p_.registers_per_thread) {
  totals_.sm.resize(p_.num_sms);
  totals_.icache.resize(p_.num_sms);
  if (p_.track_sync_status) totals_.sync.resize(p_.num_sms);
  for (auto& s : totals_.sm) s.sched.resize(std::max(1u, p_.sm.num_schedulers));
  totals_.issue_policy = p_.sm.scheduler.impl;
  totals_.fetch_policy = p_.sm.fetch_policy.impl;
  totals_.issue_stats = sched::scheduler_stats(totals_.issue_policy);
  totals_.fetch_stats = sched::fetch_policy_stats(totals_.fetch_policy);
  totals_.energy = p_.energy;
  totals_.core_clock_mhz = p_.core_clock_mhz;
}

void Launch::dispatch() {
  while (ctas.created() < ctas.size()) {
    const int k = dispatcher->pick(p.num_sms, [&](unsigned s) {
      return sms[s]->can_accept(needs.threads, needs.warps, needs.registers, needs.shared);
    });
    if (k < 0) break;
    sm::Sm& s = *sms[static_cast<size_t>(k)];
    func::Cta& c = func::create_cta(prog, li, ctas, warps);
    std::vector<func::Warp*> ptrs;
    for (int wid : c.warps) ptrs.push_back(&warps[static_cast<size_t>(wid)]);
    const int slot = s.start_cta(c.index, ptrs, static_cast<unsigned>(li.block.count()),
                                 needs.registers, needs.shared, age);
    // The SM's lock unit; the CTA's words sit at its slot's place in shared memory.
    c.lock_bits = s.lock_bits();
    c.lock_count = p.sm.shared_lock_bits;
    c.lock_word_base = static_cast<std::uint64_t>(slot) * ((needs.shared + 3) / 4);
    c.sm = k;
    age += ptrs.size();
    dispatcher->placed(static_cast<unsigned>(k));
  }
}

void Launch::barrier_released(int cta, unsigned id, const std::vector<int>& released) {
  const func::Cta* c = ctas.find(static_cast<std::size_t>(cta));
  if (!c || c->sm < 0) return;
  const int k = c->sm;
  sm::Sm& s = *sms[static_cast<size_t>(k)];
  s.barrier_released(s.cta_slot_of(cta), id, released, now);
}

CtaNeeds cta_needs(const GpuParams& p, unsigned block_threads, unsigned warp_size,
                   unsigned regs_per_thread, unsigned shared) {
  const unsigned g = std::max(1u, p.register_granularity);
  CtaNeeds n;
  n.warps = (block_threads + warp_size - 1) / warp_size;
  n.threads = n.warps * warp_size;
  n.registers = (regs_per_thread + g - 1) / g * g * n.threads;
  n.shared = shared;
  return n;
}

unsigned ctas_per_sm(const GpuParams& p, const CtaNeeds& n) {
  unsigned occ = p.sm.max_ctas;
  occ = std::min(occ, p.sm.max_threads / std::max(1u, n.threads));
  occ = std::min(occ, p.sm.max_warps / std::max(1u, n.warps));
  if (n.registers) occ = std::min(occ, p.sm.registers / n.registers);
  if (n.shared) occ = std::min(occ, p.sm.shared_bytes / n.shared);
  return occ;
}

func::LaunchResult TimingGpu::run(const func::Program& prog, func::GlobalMemory& mem,
                                  const func::DecodedFunction& kernel, Dim3 grid, Dim3 block,
                                  std::uint32_t dynamic_shared) {
  const unsigned ws = p_.sm.warp_size;
  func::LaunchInfo li = func::make_launch_info(kernel, grid, block, ws, dynamic_shared);
  li.lock_bits = p_.sm.shared_lock_bits;
  li.max_call_depth = p_.watchdog.max_call_depth;
  li.reconvergence = &p_.reconvergence;
  Launch l(p_, prog, li);
  l.gmem = &mem;
  func::begin_grid(l.li, l.ctas, l.warps);  // CTAs are created as they are dispatched

  // Occupancy needs of one CTA.
  const KernelResources res = resources_.of(prog.module(), kernel.name);
  totals_.last_resources = res;
  l.registers_per_thread = res.registers;
  l.needs = cta_needs(p_, static_cast<unsigned>(block.count()), ws, res.registers,
                      kernel.static_shared + dynamic_shared);
  const unsigned regs_per_thread = l.needs.registers / l.needs.threads;

  auto perform_of = [&l](const mem::MemRequest& r) -> func::Executor& {
    return *l.executors[static_cast<size_t>(r.sm)];
  };
  if (p_.hierarchy) {
    l.hier = std::make_unique<mem::MemoryHierarchy>(
        p_.hier, [&l, perform_of](const mem::MemRequest& r, std::uint64_t lanes, bool first) {
          if (!r.access) return std::uint64_t{0};
          func::Executor& ex = perform_of(r);
          const std::uint64_t ok = ex.perform(l.warp_of(r), *r.access, lanes, first);
          ex.fold();  // serial: the launch totals are exact before the next SM phase
          return ok;
        });
    l.memory = l.hier.get();
    // The L2 is not flushed between kernels: this launch finds the last one's lines.
    if (p_.hier.l2.keep_across_launches && !l2_carry_.empty()) l.hier->restore_l2_state(l2_carry_);
  } else {
    l.simple = std::make_unique<mem::SimpleMemory>(
        p_.mem, static_cast<int>(p_.num_sms), [&l, perform_of](const mem::MemRequest& r) {
          if (!r.access) return;
          func::Executor& ex = perform_of(r);
          ex.perform(l.warp_of(r), *r.access);
          ex.fold();  // serial: the launch totals are exact before the next SM phase
        });
    l.memory = l.simple.get();
  }
  // One executor per SM; the memory side performs a request with its SM's executor (looked up
  // when it performs). Lock replies come back one lane at a time when a memory-side unit
  // queues lock requests.
  l.li.lock_queue = l.hier && l.hier->lock_queuing();
  for (unsigned i = 0; i < p_.num_sms; ++i) {
    l.executors.push_back(
        std::make_unique<func::Executor>(prog, mem, l.li, l.warps, l.ctas, &l.shared));
    l.executors.back()->set_listener(&l);
    l.executors.back()->set_clock(&l.now);  // %clock64 reads the core cycle
  }
  l.step_log.reserve(p_.num_sms);  // the observers keep references into it
  // The nanosleep filter (sched/sleep_filter.h) sits around the issue policy only where the
  // program can sleep: elsewhere it would cost a call per scheduler per cycle for nothing.
  sm::SmParams smp = p_.sm;
  if (!program_sleeps(prog)) smp.scheduler.core_clock_mhz = 0;
  for (unsigned i = 0; i < p_.num_sms; ++i) {
    l.sms.push_back(std::make_unique<sm::Sm>(static_cast<int>(i), smp, *l.executors[i], *l.memory));
    func::Executor& ex = *l.executors[i];
    auto& log = l.step_log.emplace_back();
    l.sms.back()->set_step_observer([&l, &ex, &log](func::Warp& w, Pc before) {
      if (!l.serial_phase)
        log.emplace_back(ex.local_steps(), ex.local_progress());
      else if (!l.stop && l.dog.after_step(ex, w, before, l.warps))
        l.stop = true;
    });
  }
  // CAWA's cache part: each SM's L1 reads the criticality its issue policy publishes (the board
  // exists when a policy made it; with mem.l1.cacp on it is made here, and stays empty).
  if (l.hier && p_.hier.l1.cacp.mode != mem::CacpParams::Mode::kOff)
    for (unsigned i = 0; i < p_.num_sms; ++i) {
      sched::SharedUnits& units = l.sms[i]->shared_units();
      if (p_.hier.l1.cacp.mode != mem::CacpParams::Mode::kOn &&
          !units.has(sched::CriticalWarpsUnit::kName))
        continue;
      l.hier->set_critical_warps(
          static_cast<int>(i),
          &units.get<sched::CriticalWarpsUnit>(sched::CriticalWarpsUnit::kName).board);
    }
  l.memory->set_deferred(true);  // sends reach the shared memory side after each SM phase
  if (threads_ > 1) {
    if (!pool_ || pool_->threads() != threads_) pool_ = std::make_unique<PhasePool>(threads_);
    l.pool = pool_.get();
    if (l.hier) {
      l.mem_phase = std::make_unique<MemPhase>(l, *l.pool, l.hier->partitions());
      l.hier->set_phase(l.mem_phase.get());
    }
  }
  if (p_.track_sync_status) {
    l.sync = std::make_unique<SyncStatus>(p_.num_sms, p_.sm.shared_lock_bits);
    for (unsigned i = 0; i < p_.num_sms; ++i)
      l.sms[i]->events().subscribe(l.sync->observer(static_cast<int>(i)));
  }
  {
    // A CTA that can never fit is a configuration error, not a hang.
    const auto& n = l.needs;
    if (!l.sms.front()->can_accept(n.threads, n.warps, n.registers, n.shared))
      throw usage_error(fmt::format(
          "kernel '{}' cannot run on this GPU: a CTA needs {} threads, {} warps, {} registers "
          "({} per thread, from {}), {} bytes of shared memory",
          kernel.name, n.threads, n.warps, n.registers, regs_per_thread, res.source, n.shared));
  }
  const auto launch_index = static_cast<unsigned>(totals_.launches.size());
  const Cycle launch_start = totals_.cycles;
  if (observer_) {
    std::vector<sm::Sm*> sms;
    for (auto& s : l.sms) sms.push_back(s.get());
    observer_->launch_begin({&prog, kernel.name, launch_index, launch_start, grid, block,
                             l.needs.warps, sms, l.hier.get()});
  }
  l.dispatcher = make_cta_dispatcher(p_.dispatch);
  l.dispatch();
  totals_.last_occupancy_ctas = ctas_per_sm(p_, l.needs);
  totals_.last_warps_per_cta = l.needs.warps;
  struct CountPhases {  // also when the launch faults
    std::uint64_t& total;
    const Launch& l;
    ~CountPhases() {
      if (l.hier) total += l.hier->parallel_phases();
    }
  } count_phases{memory_phases_, l};
  func::LaunchResult result = run_main_loop(l);
  if (l.hier && p_.hier.l2.keep_across_launches) l2_carry_ = l.hier->l2_state();
  for (auto& ex : l.executors) ex->set_clock(nullptr);
  {
    std::vector<const func::Executor*> exs;
    for (const auto& ex : l.executors) exs.push_back(ex.get());
    result.printf_output = func::Executor::merged_printf(exs);
  }
  collect(l, result);
  if (observer_) {
    LaunchEnd e{launch_index, launch_start, result.cycles, &result, {}};
    for (const TaggedRecord& r : totals_.records)
      if (r.launch == launch_index) e.records.emplace_back(r.sm, &r.rec);
    observer_->launch_end(e);
  }
  return result;
}

}  // namespace simtsync::gpu
