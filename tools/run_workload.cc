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

}  // namespace

RunRecord run_workload(const RunOptions& o) {
  const workloads::Workload* w = workloads::find_workload(o.workload);
  if (!w) throw usage_error(fmt::format("unknown workload '{}' (see `simtsync list`)", o.workload));
  if (o.mode != "functional" && o.mode != "timing")
    throw usage_error(fmt::format("unknown mode '{}' (expected timing or functional)", o.mode));

  func::DeviceOptions dopts;
  std::map<std::string, std::string> wsets;
  std::vector<std::pair<std::string, std::string>> config_sets;
  bool warp_size_set = false;
  bool ssde = false;
  for (const auto& [k, v] : o.sets) {
    if (k.rfind("workload.", 0) == 0) {
      wsets[k.substr(9)] = v;
    } else if (k == "func.warp_size") {
      dopts.warp_size = static_cast<unsigned>(parse_u64(k, v));
      warp_size_set = true;
      if (dopts.warp_size == 0 || dopts.warp_size > 64)
        throw usage_error(fmt::format("key '{}': {} is out of range [1, 64]", k, v));
    } else if (k == "func.trace") {
      dopts.trace = v == "1" || v == "true";
    } else if (k == "compile.ssde") {
      if (v != "true" && v != "false" && v != "1" && v != "0")
        throw usage_error(fmt::format("key '{}': '{}' is not a boolean (true/false)", k, v));
      ssde = v == "true" || v == "1";
    } else {
      config_sets.emplace_back(k, v);  // a GPU configuration key, validated by the schema
    }
  }
  // The typed configuration is validated before anything runs (unknown key, type, range).
  const config::Config cfg = config::Config::load(config::gpu_schema(), o.config, config_sets);
  dopts.watchdog.quiet_steps = static_cast<std::uint64_t>(cfg.get_int("watchdog.quiet_steps"));
  dopts.watchdog.max_steps = static_cast<std::uint64_t>(cfg.get_int("watchdog.max_steps"));
  if (!warp_size_set) dopts.warp_size = static_cast<unsigned>(cfg.get_int("gpu.warp_size"));
  std::unique_ptr<gpu::TimingGpu> tgpu;
  if (o.mode == "timing") {
    gpu::GpuParams gp = gpu::gpu_params_from(cfg);
    gp.sm.warp_size = dopts.warp_size;
    tgpu = std::make_unique<gpu::TimingGpu>(gp);
  }
  RunRecord r;
  r.config_name = cfg.name();
  r.config_yaml = cfg.dump_yaml();
  r.params = workloads::resolve_params(*w, o.size, wsets);
  r.warp_size = dopts.warp_size;
  func::Device dev(dopts);
  if (tgpu) dev.set_backend(tgpu.get());
  workloads::WorkloadContext ctx(dev, r.params);
  if (ssde)  // compile.ssde=true: SIMT-deadlock elimination (seed 003 Algorithm 3) before loading
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
