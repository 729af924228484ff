// Fewest-entries-first (FEF, seed 002 sec. 6.2): fetch for the warp with the fewest
// instructions in its I-buffer; ties in round robin, starting after the slot fetched last.
// Critical-warp unaware: the seed's contrast to CFF.
#include <algorithm>

#include "timing/sched/i_fetch_policy.h"

namespace simtsync::sched {
namespace {

class FetchFef final : public IFetchPolicy {
 public:
  explicit FetchFef(const PolicyContext& ctx) : warps_(ctx.warps) {}

  void order(std::uint64_t wanting, unsigned n, Cycle, std::vector<int>& out) override {
    out.clear();
    if (n == 0) return;
    const unsigned start = next_ % n;
    for (unsigned k = 0; k < n && k < 64; ++k) {
      const unsigned s = (start + k) % n;
      if (s < 64 && (wanting >> s) & 1) out.push_back(static_cast<int>(s));
    }
    if (!warps_) return;
    // Stable: equal counts keep the round-robin order.
    std::stable_sort(out.begin(), out.end(), [&](int a, int b) {
      return warps_->ibuffer_count(a) < warps_->ibuffer_count(b);
    });
  }
  void fetched(int slot, Cycle) override { next_ = static_cast<unsigned>(slot) + 1; }
  std::string name() const override { return "fef"; }

 private:
  const IWarpView* warps_;
  unsigned next_ = 0;
};

}  // namespace

std::unique_ptr<IFetchPolicy> make_fetch_fef(const PolicyContext& ctx,
                                             const config::PluginParams&) {
  return std::make_unique<FetchFef>(ctx);
}
void declare_fetch_fef(config::PluginDecl&) {}

}  // namespace simtsync::sched
