// MWF(GTO), seed 002 sec. 4.1.1: CTAs with the most warps waiting at a barrier first (the SM's
// warp priority table, shared by its schedulers), GTO within a CTA: the CTA's last issued warp,
// then oldest. The policy itself is mwf.h.
#include "timing/sched/mwf.h"

namespace simtsync::sched {

std::unique_ptr<IWarpScheduler> make_mwf_gto(const PolicyContext& ctx,
                                             const config::PluginParams&) {
  return std::make_unique<Mwf>(ctx, Mwf::Within::kGto);
}
void declare_mwf_gto(config::PluginDecl&) {}

}  // namespace simtsync::sched
