#include "sim/simulator.h"

#include <fmt/format.h>

#include "common/error.h"
#include "common/host_memory.h"
#include "simt/registry.h"
#include "stats/timing_report.h"
#include "transform/ssde.h"

namespace simtsync::sim {
namespace {

std::uint64_t parse_u64(const std::string& key, const std::string& v) {
  try {
    size_t used = 0;
    auto x = std::stoull(v, &used, 0);
    if (used == v.size()) return x;
  } catch (const std::exception&) {
  }
  throw usage_error(fmt::format("key '{}': '{}' is not a non-negative integer", key, v));
}

bool parse_bool(const std::string& key, const std::string& v) {
  if (v != "true" && v != "false" && v != "1" && v != "0")
    throw usage_error(fmt::format("key '{}': '{}' is not a boolean (true/false)", key, v));
  return v == "true" || v == "1";
}

std::vector<std::pair<std::string, std::string>> config_sets(const SimOptions& o) {
  std::vector<std::pair<std::string, std::string>> v;
  for (const auto& kv : o.sets)
    if (kv.first.rfind("func.", 0) != 0 && kv.first != "compile.ssde") v.push_back(kv);
  return v;
}

}  // namespace

func::DeviceOptions device_options_from(const config::Config& c, bool trace) {
  func::DeviceOptions d;
  d.trace = trace;
  d.watchdog.quiet_steps = static_cast<std::uint64_t>(c.get_int("watchdog.quiet_steps"));
  d.watchdog.max_steps = static_cast<std::uint64_t>(c.get_int("watchdog.max_steps"));
  d.watchdog.no_completion_window =
      static_cast<std::uint64_t>(c.get_int("watchdog.no_completion_window"));
  d.watchdog.max_call_depth = static_cast<std::uint32_t>(c.get_int("watchdog.max_call_depth"));
  d.warp_size = static_cast<unsigned>(c.get_int("gpu.warp_size"));
  d.lock_bits = static_cast<unsigned>(c.get_int("sm.shared.lock_bits"));
  d.host_memory_budget =
      host_memory_budget(static_cast<std::uint64_t>(c.get_int("sim.host_memory_budget_mb")));
  d.resident_warps = static_cast<std::uint64_t>(c.get_int("sim.functional_resident_warps"));
  d.analysis_budget = static_cast<std::uint64_t>(c.get_int("sim.analysis_budget"));
  d.reconvergence = simt::reconvergence_choice(c);
  return d;
}

Simulator::Simulator(const SimOptions& o)
    : mode_(o.mode), config_(config::Config::load(config::gpu_schema(), o.config, config_sets(o))) {
  if (mode_ != "functional" && mode_ != "timing")
    throw usage_error(fmt::format("unknown mode '{}' (expected timing or functional)", mode_));
  for (const auto& [k, v] : o.sets) {
    if (k == "func.warp_size") {
      dopts_.warp_size = static_cast<unsigned>(parse_u64(k, v));
      warp_size_set_ = true;
      if (dopts_.warp_size == 0 || dopts_.warp_size > 64)
        throw usage_error(fmt::format("key '{}': {} is out of range [1, 64]", k, v));
    } else if (k == "func.trace") {
      dopts_.trace = v == "1" || v == "true";
    } else if (k == "compile.ssde") {
      ssde_ = parse_bool(k, v);
    } else if (k.rfind("func.", 0) == 0) {
      throw usage_error(fmt::format("unknown key '{}' (func.warp_size, func.trace)", k));
    }
  }
  const unsigned warp_size = dopts_.warp_size;
  dopts_ = device_options_from(config_, dopts_.trace);
  if (warp_size_set_) dopts_.warp_size = warp_size;
  if (mode_ == "timing") {
    gpu::GpuParams gp = gpu::gpu_params_from(config_);
    gp.sm.warp_size = dopts_.warp_size;
    timing_ = std::make_unique<gpu::TimingGpu>(gp);
    timing_->set_threads(o.threads);
  }
  device_ = std::make_unique<func::Device>(dopts_);
  if (timing_) device_->set_backend(timing_.get());
  // compile.ssde=true: SIMT-deadlock elimination (seed 003 Algorithm 3) before loading.
  // What it could not fix goes to stderr: the kernel then runs as compiled there.
  if (ssde_)
    hook_ = [](const ptx::Module& m) {
      transform::SsdeResult r = transform::ssde(m);
      for (const auto& u : r.unfixed) fmt::print(stderr, "simtsync: ssde: not fixed: {}\n", u);
      return std::move(r.module);
    };
}

nlohmann::json Simulator::timing_json() const {
  return timing_ ? stats::timing_stats_json(timing_->totals(), dopts_.warp_size) : nlohmann::json();
}

std::string Simulator::timing_table() const {
  return timing_ ? stats::timing_stats_table(timing_->totals(), dopts_.warp_size) : std::string();
}

std::string Simulator::resolved_yaml() const {
  return config_.dump_yaml();
}

}  // namespace simtsync::sim
