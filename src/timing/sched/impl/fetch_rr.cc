// Round-robin fetch: start after the slot fetched last.
#include <bit>

#include "timing/sched/i_fetch_policy.h"

namespace simtsync::sched {
namespace {

class FetchRr final : public IFetchPolicy {
 public:
  void order(std::uint64_t wanting, unsigned n, Cycle, std::vector<int>& out) override {
    out.clear();
    const unsigned start = n ? next_ % n : 0;
    const std::uint64_t rotated =
        start == 0 ? wanting : (wanting >> start) | (wanting << (64 - start));
    for (std::uint64_t m = rotated; m != 0; m &= m - 1) {
      const unsigned s = (start + static_cast<unsigned>(std::countr_zero(m))) % 64;
      if (s < n) out.push_back(static_cast<int>(s));
    }
  }
  void fetched(int slot, Cycle) override { next_ = static_cast<unsigned>(slot) + 1; }
  bool rotation(unsigned n, unsigned& start) const override {
    start = n ? next_ % n : 0;
    return true;
  }
  std::string name() const override { return "rr"; }

 private:
  unsigned next_ = 0;
};

}  // namespace

std::unique_ptr<IFetchPolicy> make_fetch_rr(const PolicyContext&, const config::PluginParams&) {
  return std::make_unique<FetchRr>();
}
void declare_fetch_rr(config::PluginDecl&) {}

}  // namespace simtsync::sched
