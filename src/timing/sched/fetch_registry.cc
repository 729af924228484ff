#include <fmt/format.h>

#include "common/error.h"
#include "timing/sched/i_fetch_policy.h"

namespace simtsync::sched {

#define FETCH_POLICY(name, factory, desc) std::unique_ptr<IFetchPolicy> factory();
#include "timing/sched/fetch_policies.def"
#undef FETCH_POLICY

std::unique_ptr<IFetchPolicy> make_fetch_policy(const std::string& impl) {
#define FETCH_POLICY(name, factory, desc) \
  if (impl == name) return factory();
#include "timing/sched/fetch_policies.def"
#undef FETCH_POLICY
  throw usage_error(fmt::format("unknown fetch policy '{}'", impl));
}

}  // namespace simtsync::sched
