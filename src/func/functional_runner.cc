#include "func/functional_runner.h"

#include <fmt/format.h>

#include "ptx/printer.h"
#include "func/launch_setup.h"

namespace simtsync::func {

LaunchResult FunctionalRunner::run(const DecodedFunction& kernel, Dim3 grid, Dim3 block,
                                   std::uint32_t dynamic_shared) {
  LaunchInfo li = make_launch_info(kernel, grid, block, opts_.warp_size, dynamic_shared);
  li.lock_bits = opts_.lock_bits;
  if (opts_.reconvergence.make) li.reconvergence = &opts_.reconvergence;
  std::vector<Cta> ctas;
  std::vector<Warp> warps;
  RegisterArena arena(static_cast<std::size_t>(grid.count()) * li.warps_per_cta *
                      prog_.total_regs() * li.warp_size);
  create_grid(prog_, li, true, ctas, warps, &arena);

  Executor ex(prog_, mem_, li, warps, ctas);
  Watchdog dog(opts_.watchdog);
  LaunchResult result;
  std::size_t live = warps.size();
  // Units that keep time (AWARE's timeouts and insertion latency) count rounds of this loop as
  // cycles; their memory requests (table spills and fills) are answered at once.
  Cycle round = 0;
  while (live > 0) {
    bool any_ran = false;
    live = 0;
    ++round;
    for (Warp& w : warps) {
      if (w.state != WarpState::kRunning) {
        if (w.state == WarpState::kAtBarrier) ++live;
        continue;
      }
      if (w.simt->timed()) {
        w.simt->tick(round);
        simt::UnitRequest q;
        while (w.simt->pop_request(q)) {
          w.simt->request_sent(q.tag);
          simt::MemoryReply rep;
          rep.from_unit = true;
          rep.tag = q.tag;
          w.simt->memory_reply(rep);
        }
        if (!w.simt->ready()) {
          ++live;
          any_ran |= w.simt->next_event(round) != kNever;  // waits for time, not another warp
          continue;
        }
      }
      const Pc before = w.simt->pc();
      if (opts_.trace) {
        const DecodedFunction* fn = nullptr;
        if (const ExecInst* in = prog_.at(before, &fn))
          fmt::print(stderr, "w{:<4} {:#06x} {:#010x}  {}\n", w.global_id, before - fn->base_pc,
                     w.simt->active(), ptx::print_instruction(*fn->ir, *in->ir));
      }
      ex.step(w);
      any_ran = true;
      if (w.state != WarpState::kFinished) ++live;
      if (dog.after_step(ex, w, before, warps)) {
        result.watchdog_reason = dog.reason();
        result.watchdog_report = dog.report();
        result.stats = ex.stats();
        result.printf_output = Executor::merged_printf({&ex});
        return result;
      }
    }
    if (!any_ran && live > 0) {
      dog.all_blocked(ex, warps);
      result.watchdog_reason = dog.reason();
      result.watchdog_report = dog.report();
      result.stats = ex.stats();
      result.printf_output = Executor::merged_printf({&ex});
      return result;
    }
  }
  result.completed = true;
  result.stats = ex.stats();
  result.printf_output = Executor::merged_printf({&ex});
  return result;
}

}  // namespace simtsync::func
