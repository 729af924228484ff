#include <fmt/format.h>

#include "common/error.h"
#include "timing/sched/i_warp_scheduler.h"

namespace simtsync::sched {

#define SCHEDULER(name, factory, desc) \
  std::unique_ptr<IWarpScheduler> factory(const SchedulerParams& p);
#include "timing/sched/schedulers.def"
#undef SCHEDULER

std::unique_ptr<IWarpScheduler> make_scheduler(const SchedulerParams& params) {
#define SCHEDULER(name, factory, desc) \
  if (params.impl == name) return factory(params);
#include "timing/sched/schedulers.def"
#undef SCHEDULER
  throw usage_error(fmt::format("unknown warp scheduler '{}'", params.impl));
}

std::vector<std::string> scheduler_names() {
  return {
#define SCHEDULER(name, factory, desc) name,
#include "timing/sched/schedulers.def"
#undef SCHEDULER
  };
}

}  // namespace simtsync::sched
