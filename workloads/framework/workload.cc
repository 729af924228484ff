#include "framework/workload.h"

#include <fmt/format.h>

#include "common/error.h"
#include "ptx/parser.h"

namespace simtsync::workloads {

const char* size_name(Size s) {
  switch (s) {
    case Size::kTest: return "test";
    case Size::kDefault: return "default";
    case Size::kPaper: return "paper";
  }
  return "default";
}

Size size_from_name(const std::string& s) {
  if (s == "test") return Size::kTest;
  if (s == "default") return Size::kDefault;
  if (s == "paper") return Size::kPaper;
  throw usage_error(fmt::format("unknown size '{}' (expected test, default or paper)", s));
}

std::int64_t WorkloadContext::param(const std::string& name) const {
  auto it = params_.find(name);
  if (it == params_.end()) throw usage_error(fmt::format("workload has no parameter '{}'", name));
  return it->second;
}

int WorkloadContext::load(const std::string& ptx_name) {
  const auto& all = embedded_ptx();
  auto it = all.find(ptx_name);
  if (it == all.end()) throw usage_error(fmt::format("no embedded PTX named '{}'", ptx_name));
  ptx::Module m = ptx::parse_module(it->second, "workloads/" + ptx_name);
  if (module_hook_) m = module_hook_(m);
  return device_.load_module(std::move(m));
}

bool WorkloadContext::launch(int module, const std::string& kernel, Dim3 grid, Dim3 block,
                             const func::KernelArgs& args, std::uint32_t dynamic_shared) {
  func::LaunchResult r = device_.launch(module, kernel, grid, block, args, dynamic_shared);
  if (!r.completed) {
    watchdog_report_ = r.watchdog_report;
    return false;
  }
  return true;
}

const Workload* find_workload(const std::string& name) {
  for (const auto& w : all_workloads())
    if (w->name() == name) return w.get();
  return nullptr;
}

std::map<std::string, std::int64_t> resolve_params(
    const Workload& w, Size size, const std::map<std::string, std::string>& overrides) {
  std::map<std::string, std::int64_t> out;
  const auto specs = w.params();
  for (const auto& p : specs)
    out[p.name] = size == Size::kTest ? p.test : size == Size::kPaper ? p.paper : p.def;
  for (const auto& [k, v] : overrides) {
    const ParamSpec* spec = nullptr;
    for (const auto& p : specs)
      if (p.name == k) spec = &p;
    if (!spec)
      throw usage_error(fmt::format("unknown key 'workload.{}': workload '{}' has no such "
                                    "parameter (see `simtsync list {}`)",
                                    k, w.name(), w.name()));
    std::int64_t val;
    try {
      size_t used = 0;
      val = std::stoll(v, &used, 0);
      if (used != v.size()) throw std::invalid_argument(v);
    } catch (const std::exception&) {
      throw usage_error(fmt::format("key 'workload.{}': '{}' is not an integer", k, v));
    }
    if (val < spec->min || val > spec->max)
      throw usage_error(fmt::format("key 'workload.{}': {} is out of range [{}, {}]", k, val,
                                    spec->min, spec->max));
    out[k] = val;
  }
  return out;
}

}  // namespace simtsync::workloads
