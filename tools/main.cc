// The simtsync command: list, run, bench, analyze (transform arrives with its issue).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "cmd_analyze.h"
#include "run_workload.h"
#include "stats/exec_report.h"

namespace simtsync::tools {
namespace {

std::map<std::string, std::string> parse_sets(const std::vector<std::string>& sets) {
  std::map<std::string, std::string> out;
  for (const auto& s : sets) {
    auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0)
      throw usage_error(fmt::format("--set expects key=value, got '{}'", s));
    out[s.substr(0, eq)] = s.substr(eq + 1);
  }
  return out;
}

int cmd_list(const std::string& name) {
  if (!name.empty()) {
    const auto* w = workloads::find_workload(name);
    if (!w) throw usage_error(fmt::format("unknown workload '{}'", name));
    fmt::print("{} ({}): {}\nparameters (--set workload.NAME=VALUE):\n", w->name(), w->suite(),
               w->description());
    fmt::print("  {:<12} {:>10} {:>10} {:>10}  {}\n", "name", "test", "default", "paper",
               "description");
    for (const auto& p : w->params())
      fmt::print("  {:<12} {:>10} {:>10} {:>10}  {}\n", p.name, p.test, p.def, p.paper,
                 p.description);
    return 0;
  }
  for (const char* suite : {"synchronization", "synchronization-free", "barrier-intensive",
                            "microbenchmark"}) {
    bool header = false;
    for (const auto& w : workloads::all_workloads()) {
      if (w->suite() != suite) continue;
      if (!header) fmt::print("{} workloads:\n", suite);
      header = true;
      fmt::print("  {:<14} {}\n", w->name(), w->description());
    }
  }
  fmt::print("modes: functional\nreconvergence units: ipdom_stack\n");
  return 0;
}

int cmd_run(const RunOptions& o, const std::string& json_path) {
  RunRecord r = run_workload(o);
  fmt::print("simtsync run {} --size {} (mode {})\n", o.workload, workloads::size_name(o.size),
             o.mode);
  for (const auto& [k, v] : r.params) fmt::print("  workload.{} = {}\n", k, v);
  switch (r.exit_code) {
    case ExitCode::kOk: fmt::print("VALIDATED: {}\n", r.message); break;
    case ExitCode::kValidationFailed: fmt::print("VALIDATION FAILED: {}\n", r.message); break;
    case ExitCode::kDeadlock: fmt::print("{}", r.watchdog_report); break;
    default: fmt::print(stderr, "{}\n", r.message);
  }
  fmt::print("statistics:\n{}", stats::exec_stats_table(r.stats, r.warp_size));
  fmt::print("  {:<22} {:>16.3f}  {}\n", "seconds", r.seconds, "wall time of the host driver");
  fmt::print("  {:<22} {:>16.3f}  {}\n", "sim_seconds", r.sim_seconds,
             "of which simulating kernels");
  if (!json_path.empty()) {
    std::ofstream f(json_path);
    if (!f) throw usage_error(fmt::format("cannot write '{}'", json_path));
    f << r.to_json(o).dump(2) << "\n";
  }
  fmt::print("exit code {}\n", static_cast<int>(r.exit_code));
  return static_cast<int>(r.exit_code);
}

int cmd_bench(bool json, bool quick) {
  struct Case {
    const char* workload;
  };
  const Case cases[] = {{"vecadd"}, {"ht"}};
  nlohmann::json out = nlohmann::json::array();
  int rc = 0;
  for (const auto& c : cases) {
    RunOptions o;
    o.workload = c.workload;
    o.size = quick ? workloads::Size::kTest : workloads::Size::kDefault;
    RunRecord r = run_workload(o);
    if (r.exit_code != ExitCode::kOk) rc = static_cast<int>(r.exit_code);
    nlohmann::json j;
    j["mode"] = o.mode;
    j["workload"] = o.workload;
    j["size"] = workloads::size_name(o.size);
    j["config"] = "functional";
    // Simulation rate: time spent simulating kernels (not input generation or validation).
    const double t = r.sim_seconds;
    j["seconds"] = t;
    j["driver_seconds"] = r.seconds;
    j["warp_instructions"] = r.stats.warp_instructions;
    j["thread_instructions"] = r.stats.thread_instructions;
    j["kips"] = t > 0 ? r.stats.warp_instructions / t / 1e3 : 0.0;
    j["mtips"] = t > 0 ? r.stats.thread_instructions / t / 1e6 : 0.0;
    j["validated"] = r.validated;
    out.push_back(j);
    if (!json)
      fmt::print("{:<10} {:<8} {:<10} {:>8.3f} s {:>12} warp instr {:>10.1f} KIPS {:>8.2f} MTIPS{}\n",
                 o.mode, o.workload, workloads::size_name(o.size), t,
                 r.stats.warp_instructions, j["kips"].get<double>(), j["mtips"].get<double>(),
                 r.validated ? "" : "  (NOT VALIDATED)");
  }
  if (json) std::cout << out.dump(2) << "\n";
  return rc;
}

int real_main(int argc, char** argv) {
  CLI::App app{"simtsync: a SIMT GPU simulator and PTX toolkit for fine-grained synchronization"};
  app.require_subcommand(1);

  auto* list = app.add_subcommand("list", "list workloads (or one workload's parameters)");
  std::string list_name;
  list->add_option("workload", list_name, "show this workload's parameters");

  auto* run = app.add_subcommand("run", "run a built-in workload, validate it, print statistics");
  RunOptions ro;
  std::string size = "default", json_path;
  std::vector<std::string> sets;
  run->add_option("workload", ro.workload, "workload name (see `simtsync list`)")->required();
  run->add_option("--size", size, "input size: test, default or paper");
  run->add_option("--set", sets, "override a key: workload.NAME=VALUE, watchdog.quiet_steps=N, ...");
  run->add_option("--json", json_path, "write the statistics as JSON to this file");
  run->add_option("--mode", ro.mode, "simulation mode (functional)");

  auto* bench = app.add_subcommand("bench", "measure simulation speed on fixed cases");
  bool bench_json = false, bench_quick = false;
  bench->add_flag("--json", bench_json, "print a JSON list of records");
  bench->add_flag("--quick", bench_quick, "use test sizes (smoke test)");

  auto* analyze = app.add_subcommand("analyze", "control-flow report of a PTX or CUDA file");
  AnalyzeOptions ao;
  analyze->add_option("file", ao.path, "FILE.ptx or FILE.cu (compiled with nvcc)")->required();
  analyze->add_option("--kernel", ao.kernel, "only this kernel or function");
  analyze->add_flag("--dump", ao.dump, "also print the CFG and dominator trees");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : static_cast<int>(ExitCode::kUsage);
  }
  try {
    if (*list) return cmd_list(list_name);
    if (*run) {
      ro.size = workloads::size_from_name(size);
      ro.sets = parse_sets(sets);
      return cmd_run(ro, json_path);
    }
    if (*bench) return cmd_bench(bench_json, bench_quick);
    if (*analyze) return cmd_analyze(ao);
  } catch (const Error& e) {
    fmt::print(stderr, "simtsync: error: {}\n", e.what());
    return static_cast<int>(e.code());
  }
  return 0;
}

}  // namespace
}  // namespace simtsync::tools

int main(int argc, char** argv) { return simtsync::tools::real_main(argc, argv); }
