// MWF(LRR), seed 002 sec. 4.1.1: CTAs with the most warps waiting at a barrier first (the SM's
// warp priority table, shared by its schedulers), LRR within a CTA from the warp after the
// CTA's last issued one. The policy itself is mwf.h.
#include "timing/sched/mwf.h"

namespace simtsync::sched {

std::unique_ptr<IWarpScheduler> make_mwf_lrr(const PolicyContext& ctx,
                                             const config::PluginParams&) {
  return std::make_unique<Mwf>(ctx, Mwf::Within::kLrr);
}
void declare_mwf_lrr(config::PluginDecl&) {}

}  // namespace simtsync::sched
