// The workload registry: one line per workload in workloads/workloads.def.
#include "framework/workload.h"

namespace simtsync::workloads {

#define WORKLOAD(name, factory) std::unique_ptr<Workload> factory();
#include "workloads.def"
#undef WORKLOAD

const std::vector<std::unique_ptr<Workload>>& all_workloads() {
  static const auto* list = [] {
    auto* v = new std::vector<std::unique_ptr<Workload>>;
#define WORKLOAD(name, factory) v->push_back(factory());
#include "workloads.def"
#undef WORKLOAD
    return v;
  }();
  return *list;
}

}  // namespace simtsync::workloads
