#include "func/functional_runner.h"

#include <fmt/format.h>

#include "ptx/printer.h"
#include "timing/simt/impl/ipdom_stack.h"

namespace simtsync::func {

LaunchResult FunctionalRunner::run(const DecodedFunction& kernel, Dim3 grid, Dim3 block,
                                   std::uint32_t dynamic_shared) {
  const unsigned ws = opts_.warp_size;
  LaunchInfo li;
  li.kernel = &kernel;
  li.grid = grid;
  li.block = block;
  li.warp_size = ws;
  li.dynamic_shared = dynamic_shared;
  const std::uint64_t threads = block.count();
  li.warps_per_cta = static_cast<unsigned>((threads + ws - 1) / ws);

  std::vector<Cta> ctas(grid.count());
  std::vector<Warp> warps;
  warps.reserve(grid.count() * li.warps_per_cta);
  const int kernel_index = static_cast<int>(&kernel - &prog_.functions().front());
  for (std::uint64_t c = 0; c < grid.count(); ++c) {
    Cta& cta = ctas[c];
    cta.index = static_cast<int>(c);
    cta.ctaid = Dim3{static_cast<std::uint32_t>(c % grid.x),
                     static_cast<std::uint32_t>((c / grid.x) % grid.y),
                     static_cast<std::uint32_t>(c / (std::uint64_t{grid.x} * grid.y))};
    cta.shared.assign(kernel.static_shared + dynamic_shared, 0);
    for (unsigned wi = 0; wi < li.warps_per_cta; ++wi) {
      Warp& w = warps.emplace_back(ws, prog_.total_regs());
      w.global_id = static_cast<int>(warps.size()) - 1;
      w.age = static_cast<std::uint64_t>(w.global_id);
      w.cta = cta.index;
      w.warp_in_cta = static_cast<int>(wi);
      w.function = kernel_index;
      for (unsigned l = 0; l < ws; ++l) {
        std::uint64_t t = std::uint64_t{wi} * ws + l;
        if (t >= threads) break;
        w.threads |= LaneMask{1} << l;
        w.tid[0][l] = static_cast<std::uint32_t>(t % block.x);
        w.tid[1][l] = static_cast<std::uint32_t>((t / block.x) % block.y);
        w.tid[2][l] = static_cast<std::uint32_t>(t / (std::uint64_t{block.x} * block.y));
      }
      w.simt = std::make_unique<simt::IpdomStack>(kernel.base_pc, w.threads);
      cta.warps.push_back(w.global_id);
      ++cta.live_warps;
    }
  }

  Executor ex(prog_, mem_, li, warps, ctas);
  Watchdog dog(opts_.watchdog);
  LaunchResult result;
  std::size_t live = warps.size();
  while (live > 0) {
    bool any_ran = false;
    live = 0;
    for (Warp& w : warps) {
      if (w.state != WarpState::kRunning) {
        if (w.state == WarpState::kAtBarrier) ++live;
        continue;
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
        return result;
      }
    }
    if (!any_ran && live > 0) {
      dog.all_blocked(ex, warps);
      result.watchdog_reason = dog.reason();
      result.watchdog_report = dog.report();
      result.stats = ex.stats();
      return result;
    }
  }
  result.completed = true;
  result.stats = ex.stats();
  return result;
}

}  // namespace simtsync::func
