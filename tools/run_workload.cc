#include "run_workload.h"

#include <fmt/format.h>

#include <chrono>
#include <new>

#include "common/host_memory.h"
#include "native/native_device.h"
#include "sim/simulator.h"
#include "stats/exec_report.h"
#include "trace/tracer.h"

namespace simtsync::tools {
namespace {

// --set keys sorted by who reads them: workload parameters, and the simulator's.
struct SplitSets {
  std::map<std::string, std::string> workload;
  sim::SimOptions sim;
};

SplitSets split_sets(const RunOptions& o, const workloads::Workload& w) {
  SplitSets s;
  s.sim.mode = o.mode;
  s.sim.config = o.config;
  s.sim.threads = o.threads;
  s.sim.sets = w.config_defaults();  // the user's keys below come later and win
  for (const auto& [k, v] : o.sets) {
    if (k.rfind("workload.", 0) == 0)
      s.workload[k.substr(9)] = v;
    else
      s.sim.sets.emplace_back(k, v);  // validated by the Simulator
  }
  return s;
}

const workloads::Workload& find_or_throw(const RunOptions& o) {
  const workloads::Workload* w = workloads::find_workload(o.workload);
  if (!w) throw usage_error(fmt::format("unknown workload '{}' (see `simtsync list`)", o.workload));
  return *w;  // the mode and every --set key are the Simulator's to validate
}

}  // namespace

std::string resolved_inputs_yaml(const RunOptions& o) {
  const workloads::Workload& w = find_or_throw(o);
  const SplitSets s = split_sets(o, w);
  const sim::Simulator simulator(s.sim);
  std::string out = simulator.resolved_yaml();
  out += fmt::format(
      "\n# The run: workload, size, mode and the keys outside the GPU config.\n"
      "run:\n  workload: {}\n  size: {}\n  mode: {}\n  ssde: {}\n"
      "  warp_size: {}\n  trace: {}\n  params:\n",
      o.workload, workloads::size_name(o.size), o.mode, simulator.ssde(), simulator.warp_size(),
      simulator.device_options().trace);
  for (const auto& [k, v] : workloads::resolve_params(w, o.size, s.workload))
    out += fmt::format("    {}: {}\n", k, v);
  return out;
}

RunRecord run_workload(const RunOptions& o) {
  const workloads::Workload* w = &find_or_throw(o);
  const SplitSets s = split_sets(o, *w);
  // The simulation is assembled and validated before anything runs (unknown key, type, range).
  sim::Simulator simulator(s.sim);
  // The timeline trace listens to the timing GPU's launches; without --trace nothing listens.
  std::unique_ptr<trace::Tracer> tracer;
  if (!o.trace_path.empty()) {
    if (!simulator.timing() || o.backend != "sim")
      throw usage_error("--trace needs the timing mode and the simulator backend");
    tracer = trace::attach_tracer(o.trace_path, o.trace_window, *simulator.timing());
  }
  RunRecord r;
  r.config_name = simulator.config().name();
  r.config_yaml = simulator.resolved_yaml();
  r.params = workloads::resolve_params(*w, o.size, s.workload);
  r.warp_size = simulator.warp_size();
  func::Device& dev = simulator.device();
  std::unique_ptr<native::NativeDevice> gpu;
  if (o.backend == "native") {
    gpu = std::make_unique<native::NativeDevice>();  // exit 2 with a message without a GPU
    r.native_device = gpu->device_name();
    dev.set_native(gpu.get());
  } else if (o.backend != "sim") {
    throw usage_error(fmt::format("unknown backend '{}' (expected sim or native)", o.backend));
  }
  workloads::WorkloadContext ctx(dev, r.params);
  if (simulator.module_hook()) ctx.set_module_hook(simulator.module_hook());
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
    // A deadlock found while executing (nested locks with lock queuing) is reported as the
    // watchdog's are.
    if (e.code() == ExitCode::kDeadlock) r.watchdog_report = std::string(e.what()) + "\n";
  } catch (const std::bad_alloc& e) {
    // Over sim.host_memory_budget_mb (estimated) or out of host memory: exit 2, with a message.
    throw usage_error(out_of_host_memory(e));
  }
  r.notes = ctx.notes();
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.stats = dev.totals();
  r.sim_seconds = dev.sim_seconds();
  r.cycles = dev.cycles();
  r.native_ms = dev.native_ms();
  if (simulator.timing()) r.memory_phases = simulator.timing()->parallel_memory_phases();
  if (simulator.timing() && !gpu) {
    r.timing = simulator.timing_json();
    r.timing_table = simulator.timing_table();
  }
  if (tracer) {
    std::string desc = fmt::format("run {} --size {} --config {}", o.workload,
                                   workloads::size_name(o.size), r.config_name);
    for (const auto& [k, v] : o.sets) desc += fmt::format(" --set {}={}", k, v);
    tracer->close(desc);
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
  if (!notes.empty()) j["notes"] = notes;
  j["seconds"] = seconds;
  j["sim_seconds"] = sim_seconds;
  j["threads"] = o.threads;
  j["memory_phases"] = memory_phases;
  j["backend"] = o.backend;
  if (o.backend == "native") j["native"] = {{"device", native_device}, {"kernel_ms", native_ms}};
  j["params"] = params;
  j["stats"] = {{"func", stats::exec_stats_json(stats, warp_size)}};
  if (!timing.is_null()) {
    j["stats"]["gpu"] = timing;
  } else if (o.mode == "functional") {
    // Energy needs the timing model's events (docs/energy.md); say so rather than print zeros.
    j["stats"]["energy"] = {{"estimated", false},
                            {"reason",
                             "the functional mode counts no timing events; energy is "
                             "estimated in the timing mode (stats.gpu.energy)"}};
  }
  return j;
}

}  // namespace simtsync::tools
