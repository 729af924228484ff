#include "run_workload.h"

#include <fmt/format.h>

#include <chrono>

#include "stats/exec_report.h"

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
  if (o.mode != "functional")
    throw usage_error(fmt::format("mode '{}' is not available (only 'functional' so far)", o.mode));

  func::DeviceOptions dopts;
  std::map<std::string, std::string> wsets;
  for (const auto& [k, v] : o.sets) {
    if (k.rfind("workload.", 0) == 0) {
      wsets[k.substr(9)] = v;
    } else if (k == "func.warp_size") {
      dopts.warp_size = static_cast<unsigned>(parse_u64(k, v));
      if (dopts.warp_size == 0 || dopts.warp_size > 64)
        throw usage_error(fmt::format("key '{}': {} is out of range [1, 64]", k, v));
    } else if (k == "func.trace") {
      dopts.trace = v == "1" || v == "true";
    } else if (k == "watchdog.quiet_steps") {
      dopts.watchdog.quiet_steps = parse_u64(k, v);
    } else if (k == "watchdog.max_steps") {
      dopts.watchdog.max_steps = parse_u64(k, v);
    } else {
      throw usage_error(fmt::format("unknown key '{}'", k));
    }
  }
  RunRecord r;
  r.params = workloads::resolve_params(*w, o.size, wsets);
  r.warp_size = dopts.warp_size;
  func::Device dev(dopts);
  workloads::WorkloadContext ctx(dev, r.params);
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
  return r;
}

nlohmann::json RunRecord::to_json(const RunOptions& o) const {
  nlohmann::json j;
  j["workload"] = o.workload;
  j["size"] = workloads::size_name(o.size);
  j["config"] = "functional";
  j["mode"] = o.mode;
  j["exit_code"] = static_cast<int>(exit_code);
  j["validated"] = validated;
  j["cycles"] = 0;
  j["warp_instructions"] = stats.warp_instructions;
  j["thread_instructions"] = stats.thread_instructions;
  j["message"] = message;
  if (!watchdog_report.empty()) j["watchdog_report"] = watchdog_report;
  j["seconds"] = seconds;
  j["sim_seconds"] = sim_seconds;
  j["params"] = params;
  j["stats"] = {{"func", stats::exec_stats_json(stats, warp_size)}};
  return j;
}

}  // namespace simtsync::tools
