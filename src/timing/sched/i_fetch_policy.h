// The fetch policy of an SM: which warps' I-buffers are filled first.
//
// Contract: each cycle the fetch stage calls order() with a bit mask of the warp slots that
// want an instruction (I-buffer not full, no unresolved branch) and fetches for the first
// sm.fetch_width of them, in the returned order, reporting each with fetched(). Beyond the
// mask a policy sees, through its PolicyContext, the issue stage's latest order per scheduler
// and each warp's I-buffer count and barrier state (what CFF and FEF, seed 002, need). Round
// robin now. Registered in fetch_policies.def with a declare function (config/plugin.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/types.h"
#include "config/plugin.h"
#include "timing/sched/context.h"

namespace simtsync::sched {

class IFetchPolicy {
 public:
  virtual ~IFetchPolicy() = default;
  // Writes the slots of `wanting` (bit i = slot i) into `out`, highest priority first.
  virtual void order(std::uint64_t wanting, unsigned num_slots, Cycle now,
                     std::vector<int>& out) = 0;
  virtual void fetched(int slot, Cycle now) = 0;
  // True when order() would write `wanting`'s slots by ascending slot from `start`, wrapping
  // round (a rotating policy): the fetch stage then walks the mask itself, only as far as it
  // fetches, and does not call order().
  virtual bool rotation(unsigned num_slots, unsigned& start) const { return false; }
  // True when order() reads the issue stage's orders (PolicyContext::issue_orders): the issue
  // stage then writes them every cycle even for a policy that could skip it (IWarpScheduler::rotates).
  virtual bool reads_issue_orders() const { return false; }
  virtual std::string name() const = 0;
};

inline constexpr const char* kFetchPrefix = "sm.fetch_policy";

struct FetchParams {
  std::string impl = "rr";
  config::PluginParams params;
};

FetchParams fetch_params(const config::Config& c);
FetchParams fetch_params(const std::string& impl);  // declared defaults (tests)
std::unique_ptr<IFetchPolicy> make_fetch_policy(const FetchParams& p,
                                                const PolicyContext& ctx = {});
const std::vector<config::PluginInfo>& fetch_policies();
const std::vector<config::StatDecl>& fetch_policy_stats(const std::string& impl);

}  // namespace simtsync::sched
