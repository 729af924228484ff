#include "run_workload.h"

#include <fmt/format.h>

#include <chrono>

#include "config/config.h"
#include "stats/exec_report.h"
#include "stats/timing_report.h"
#include "timing/gpu/timing_gpu.h"
#include "transform/ssde.h"

namespace simtsync::tools {
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

// --set keys sorted by who reads them: workload parameters, device options, SSDE, GPU config.
struct SplitSets {
  func::DeviceOptions dopts;
  bool warp_size_set = false;
  bool ssde = false;
  std::map<std::string, std::string> workload;
  std::vector<std::pair<std::string, std::string>> config;
};

SplitSets split_sets(const std::map<std::string, std::string>& sets) {
  SplitSets s;
  for (const auto& [k, v] : sets) {
    if (k.rfind("workload.", 0) == 0) {
      s.workload[k.substr(9)] = v;
    } else if (k == "func.warp_size") {
      s.dopts.warp_size = static_cast<unsigned>(parse_u64(k, v));
      s.warp_size_set = true;
      if (s.dopts.warp_size == 0 || s.dopts.warp_size > 64)
        throw usage_error(fmt::format("key '{}': {} is out of range [1, 64]", k, v));
    } else if (k == "func.trace") {
      s.dopts.trace = v == "1" || v == "true";
    } else if (k == "compile.ssde") {
      if (v != "true" && v != "false" && v != "1" && v != "0")
        throw usage_error(fmt::format("key '{}': '{}' is not a boolean (true/false)", k, v));
      s.ssde = v == "true" || v == "1";
    } else {
      s.config.emplace_back(k, v);  // a GPU configuration key, validated by the schema
    }
  }
  return s;
}

const workloads::Workload& find_or_throw(const RunOptions& o) {
  const workloads::Workload* w = workloads::find_workload(o.workload);
  if (!w) throw usage_error(fmt::format("unknown workload '{}' (see `simtsync list`)", o.workload));
  if (o.mode != "functional" && o.mode != "timing")
    throw usage_error(fmt::format("unknown mode '{}' (expected timing or functional)", o.mode));
  return *w;
}

}  // namespace

std::string resolved_inputs_yaml(const RunOptions& o) {
  const workloads::Workload& w = find_or_throw(o);
  const SplitSets s = split_sets(o.sets);
  const config::Config cfg = config::Config::load(config::gpu_schema(), o.config, s.config);
  const unsigned warp_size =
      s.warp_size_set ? s.dopts.warp_size : static_cast<unsigned>(cfg.get_int("gpu.warp_size"));
  std::string out = cfg.dump_yaml();
  out += fmt::format("\n# The run: workload, size, mode and the keys outside the GPU config.\n"
                     "run:\n  workload: {}\n  size: {}\n  mode: {}\n  ssde: {}\n"
                     "  warp_size: {}\n  trace: {}\n  params:\n",
                     o.workload, workloads::size_name(o.size), o.mode, s.ssde, warp_size,
                     s.dopts.trace);
  for (const auto& [k, v] : workloads::resolve_params(w, o.size, s.workload))
    out += fmt::format("    {}: {}\n", k, v);
  return out;
}

RunRecord run_workload(const RunOptions& o) {
  const workloads::Workload* w = &find_or_throw(o);
  SplitSets s = split_sets(o.sets);
  func::DeviceOptions& dopts = s.dopts;
  // The typed configuration is validated before anything runs (unknown key, type, range).
  const config::Config cfg = config::Config::load(config::gpu_schema(), o.config, s.config);
  dopts.watchdog.quiet_steps = static_cast<std::uint64_t>(cfg.get_int("watchdog.quiet_steps"));
  dopts.watchdog.max_steps = static_cast<std::uint64_t>(cfg.get_int("watchdog.max_steps"));
  if (!s.warp_size_set) dopts.warp_size = static_cast<unsigned>(cfg.get_int("gpu.warp_size"));
  dopts.lock_bits = static_cast<unsigned>(cfg.get_int("sm.shared.lock_bits"));
  std::unique_ptr<gpu::TimingGpu> tgpu;
  if (o.mode == "timing") {
    gpu::GpuParams gp = gpu::gpu_params_from(cfg);
    gp.sm.warp_size = dopts.warp_size;
    tgpu = std::make_unique<gpu::TimingGpu>(gp);
  }
  RunRecord r;
  r.config_name = cfg.name();
  r.config_yaml = cfg.dump_yaml();
  r.params = workloads::resolve_params(*w, o.size, s.workload);
  r.warp_size = dopts.warp_size;
  func::Device dev(dopts);
  if (tgpu) dev.set_backend(tgpu.get());
  workloads::WorkloadContext ctx(dev, r.params);
  if (s.ssde)  // compile.ssde=true: SIMT-deadlock elimination (seed 003 Algorithm 3) before loading
    ctx.set_module_hook([](const ptx::Module& m) { return transform::ssde(m).module; });
  auto t0 = std::chrono::steady_clock::now();
  try {
    workloads::Validation v = w->run(ctx);
    if (ctx.deadlocked()) {
      r.exit_code = ExitCode::kDeadlock;
      r.watchdog_report = ctx.watchdog_report();
      r.message = "the watchdog stopped the kernel";
    } else {
      r.validated = v.ok;
      r.message = v.message;
      r.exit_code = v.ok ? ExitCode::kOk : ExitCode::kValidationFailed;
    }
  } catch (const Error& e) {
    if (e.code() == ExitCode::kUsage) throw;
    r.exit_code = e.code();
    r.message = e.what();
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.stats = dev.totals();
  r.sim_seconds = dev.sim_seconds();
  r.cycles = dev.cycles();
  if (tgpu) {
    r.timing = stats::timing_stats_json(tgpu->totals(), dopts.warp_size);
    r.timing_table = stats::timing_stats_table(tgpu->totals(), dopts.warp_size);
  }
  return r;
}

nlohmann::json RunRecord::to_json(const RunOptions& o) const {
  nlohmann::json j;
  j["workload"] = o.workload;
  j["size"] = workloads::size_name(o.size);
  j["config"] = config_name;
  j["mode"] = o.mode;
  j["exit_code"] = static_cast<int>(exit_code);
  j["validated"] = validated;
  j["cycles"] = cycles;
  j["warp_instructions"] = stats.warp_instructions;
  j["thread_instructions"] = stats.thread_instructions;
  j["message"] = message;
  if (!watchdog_report.empty()) j["watchdog_report"] = watchdog_report;
  j["seconds"] = seconds;
  j["sim_seconds"] = sim_seconds;
  j["params"] = params;
  j["stats"] = {{"func", stats::exec_stats_json(stats, warp_size)}};
  if (!timing.is_null()) j["stats"]["gpu"] = timing;
  return j;
}

}  // namespace simtsync::tools
