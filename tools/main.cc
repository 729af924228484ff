// The simtsync command: list, run, exec, view, bench, analyze, transform, sweep, report.
#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <system_error>

#include "cmd_analyze.h"
#include "cmd_exec.h"
#include "cmd_experiments.h"
#include "cmd_transform.h"
#include "cmd_view.h"
#include "output_file.h"
#include "run_workload.h"
#include "simt/registry.h"
#include "stats/declared.h"
#include "stats/exec_report.h"
#include "stats/timing_report.h"
#include "timing/gpu/cta_dispatcher.h"
#include "timing/gpu/sync_status.h"
#include "timing/mem/mem_unit_registry.h"
#include "timing/sched/i_fetch_policy.h"
#include "timing/sched/i_warp_scheduler.h"

namespace simtsync::tools {
namespace {

// CLI11 check: an output path given as "" is a usage error, not "no output".
CLI::Validator non_empty_path() {
  return CLI::Validator(
      [](std::string& v) { return v.empty() ? std::string("an empty path") : std::string(); },
      "PATH");
}

// True when `path` is a regular file or does not exist yet (it will be one).
bool is_regular_or_new(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) != 0 ? errno == ENOENT : S_ISREG(st.st_mode);
}

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
  for (const char* suite :
       {"synchronization", "synchronization-free", "barrier-intensive", "microbenchmark"}) {
    bool header = false;
    for (const auto& w : workloads::all_workloads()) {
      if (w->suite() != suite) continue;
      if (!header) fmt::print("{} workloads:\n", suite);
      header = true;
      fmt::print("  {:<14} {}\n", w->name(), w->description());
    }
  }
  fmt::print("modes (--mode): timing (cycle-level, default), functional\n");
  fmt::print("configs (--config): {}\n", fmt::join(config::Config::shipped_names(), ", "));
  // Every plug-in family from its registry, with its parameters and statistics.
  auto plugin = [](const config::PluginInfo& r, const std::string& prefix) {
    fmt::print("  {:<14} {}\n", r.name, r.description);
    config::PluginDecl d(nullptr, prefix, r.name);
    r.declare(d);
    for (const auto& k : d.keys()) fmt::print("  {:<14}   parameter {}.{}\n", "", prefix, k);
    for (const auto& st : d.stats()) fmt::print("  {:<14}   statistic {}\n", "", st.name);
    for (const auto& st : d.ratios()) fmt::print("  {:<14}   statistic {} (ratio)\n", "", st.name);
  };
  auto family = [&](const char* title, const std::string& prefix,
                    const std::vector<config::PluginInfo>& rows) {
    fmt::print("{} ({}.impl):\n", title, prefix);
    for (const auto& r : rows) plugin(r, prefix);
  };
  family("issue policies", sched::kSchedulerPrefix, sched::schedulers());
  family("fetch policies", sched::kFetchPrefix, sched::fetch_policies());
  family("reconvergence units", simt::kConfigPrefix, simt::reconvergence_units());
  family("CTA dispatchers", gpu::kDispatchPrefix, gpu::cta_dispatchers());
  // Memory-side units: each placed by its own keys (mem.NAME.*), several at once.
  fmt::print("memory-side units (mem.NAME.*, statistics in memory.NAME):\n");
  for (const auto& r : mem::mem_units()) plugin(r, mem::mem_unit_prefix(r.name));
  // The synchronization status: lock and wait outcomes classified from the spin-loop marks.
  fmt::print("synchronization status (stats.sync_status=true; statistics in sync_status):\n");
  for (const auto& f : gpu::kSyncStatFields)
    fmt::print("  {:<14}   statistic {}: {}\n", "", f.name, f.description);
  for (const auto& f : gpu::kSyncDerived)
    fmt::print("  {:<14}   statistic {} (derived): {}\n", "", f.name, f.description);
  return 0;
}

int cmd_run(const RunOptions& o, const std::string& json_path, const std::string& csv_path,
            bool dump_config) {
  if (dump_config) {
    fmt::print("{}", resolved_inputs_yaml(o));
    return 0;
  }
  // The resolved configuration goes beside the JSON statistics, when they go to a regular file
  // (or a new one): no sibling is derived from /dev/stdout, a pipe or another special file.
  std::string cfg_path;
  if (!json_path.empty() && is_regular_or_new(json_path)) {
    cfg_path = json_path;
    if (cfg_path.size() > 5 && cfg_path.substr(cfg_path.size() - 5) == ".json")
      cfg_path.resize(cfg_path.size() - 5);
    cfg_path += ".config.yaml";
  }
  // Unwritable outputs are found before minutes of simulation, not after.
  if (!json_path.empty()) check_output_path(json_path, "the JSON statistics (--json)");
  if (!cfg_path.empty()) check_output_path(cfg_path, "the resolved configuration (beside --json)");
  if (!csv_path.empty()) check_output_path(csv_path, "the CSV statistics (--csv)");
  if (!o.trace_path.empty()) check_output_path(o.trace_path, "the timeline trace (--trace)");
  RunRecord r = run_workload(o);
  fmt::print("simtsync run {} --size {} --config {} (mode {})\n", o.workload,
             workloads::size_name(o.size), r.config_name, o.mode);
  for (const auto& [k, v] : r.params) fmt::print("  workload.{} = {}\n", k, v);
  switch (r.exit_code) {
    case ExitCode::kOk:
      fmt::print("VALIDATED: {}\n", r.message);
      break;
    case ExitCode::kValidationFailed:
      fmt::print("VALIDATION FAILED: {}\n", r.message);
      break;
    case ExitCode::kDeadlock:
      fmt::print("{}", r.watchdog_report);
      break;
    default:
      fmt::print(stderr, "{}\n", r.message);
  }
  for (const auto& n : r.notes) fmt::print("note: {}\n", n);
  fmt::print("statistics:\n{}", stats::exec_stats_table(r.stats, r.warp_size));
  if (!r.timing_table.empty()) fmt::print("timing ({}):\n{}", r.config_name, r.timing_table);
  if (o.mode == "functional")
    fmt::print("{}",
               stats::table_row("energy", "not estimated",
                                "the functional mode has no timing events (use --mode timing)"));
  if (!r.native_device.empty())
    fmt::print("{}",
               stats::table_row("native_kernel_ms", fmt::format("{:.3f}", r.native_ms),
                                fmt::format("kernel time on {} (driver events)", r.native_device)));
  fmt::print("{}", stats::table_row("seconds", fmt::format("{:.3f}", r.seconds),
                                    "wall time of the host driver"));
  fmt::print("{}", stats::table_row("sim_seconds", fmt::format("{:.3f}", r.sim_seconds),
                                    "of which simulating kernels"));
  const nlohmann::json j = r.to_json(o);
  if (!json_path.empty()) {
    write_output_file(json_path, j.dump(2) + "\n", "the JSON statistics (--json)");
    if (!cfg_path.empty())
      write_output_file(cfg_path, r.config_yaml, "the resolved configuration (beside --json)");
  }
  if (!csv_path.empty())
    write_output_file(csv_path, stats::flatten_csv(j), "the CSV statistics (--csv)");
  fmt::print("exit code {}\n", static_cast<int>(r.exit_code));
  return static_cast<int>(r.exit_code);
}

// User CPU seconds of this process so far (all its threads).
double user_seconds() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec) + static_cast<double>(u.ru_utime.tv_usec) / 1e6;
}

int cmd_bench(bool json, bool quick, const std::map<std::string, std::string>& sets,
              unsigned threads) {
  struct Case {
    const char* mode;
    const char* workload;
    const char* config;
    const char* ctas = nullptr;  // workload.ctas at default size (the side-by-side's ht30)
  };
  const Case cases[] = {{"functional", "vecadd", "gtx480"}, {"functional", "ht", "gtx480"},
                        {"timing", "vecadd", "gtx480"},     {"timing", "ht", "gtx480"},
                        {"timing", "vecadd", "qv100"},      {"timing", "ht", "qv100", "30"},
                        {"timing", "ht", "qv100"}};
  nlohmann::json out = nlohmann::json::array();
  int rc = 0;
  for (const auto& c : cases) {
    RunOptions o;
    o.workload = c.workload;
    o.mode = c.mode;
    o.config = c.config;
    o.size = quick ? workloads::Size::kTest : workloads::Size::kDefault;
    if (std::string(c.mode) == "timing") {  // config keys and threads for the timing cases
      o.sets = sets;
      o.threads = threads;
    }
    if (c.ctas && !quick) o.sets["workload.ctas"] = c.ctas;
    const std::string label = c.ctas && !quick ? o.workload + c.ctas : o.workload;
    const double user0 = user_seconds();
    RunRecord r = run_workload(o);
    const double user = user_seconds() - user0;
    if (r.exit_code != ExitCode::kOk) rc = static_cast<int>(r.exit_code);
    nlohmann::json j;
    j["mode"] = o.mode;
    j["workload"] = o.workload;
    j["case"] = label;
    j["size"] = workloads::size_name(o.size);
    j["config"] = r.config_name;
    // Simulation rate: time spent simulating kernels (not input generation or validation).
    const double t = r.sim_seconds;
    j["seconds"] = t;
    j["driver_seconds"] = r.seconds;
    j["user_seconds"] = user;  // host user CPU time of the whole case, every thread
    j["threads"] = o.threads;
    j["warp_instructions"] = r.stats.warp_instructions;
    j["thread_instructions"] = r.stats.thread_instructions;
    j["cycles"] = r.cycles;
    j["kips"] = t > 0 ? r.stats.warp_instructions / t / 1e3 : 0.0;
    j["mtips"] = t > 0 ? r.stats.thread_instructions / t / 1e6 : 0.0;
    j["cycles_per_second"] = t > 0 ? static_cast<double>(r.cycles) / t : 0.0;
    j["validated"] = r.validated;
    out.push_back(j);
    if (!json)
      fmt::print(
          "{:<10} {:<7} {:<7} {:<8} {:>8.3f} s {:>8.3f} s user {:>2} thr {:>10} warp instr "
          "{:>9.1f} KIPS {:>7.2f} MTIPS {:>11} cycles {:>10.0f} cycles/s{}\n",
          o.mode, label, r.config_name, workloads::size_name(o.size), t, user, o.threads,
          r.stats.warp_instructions, j["kips"].get<double>(), j["mtips"].get<double>(), r.cycles,
          j["cycles_per_second"].get<double>(), r.validated ? "" : "  (NOT VALIDATED)");
  }
  if (json) std::cout << out.dump(2) << "\n";
  return rc;
}

int real_main(int argc, char** argv) {
  if (argc >= 2 && is_experiments_command(argv[1])) return exec_experiments(argc, argv);
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
  run->add_option("--set", sets,
                  "override a key: workload.NAME=VALUE, watchdog.quiet_steps=N, ...");
  run->add_option("--json", json_path, "write the statistics as JSON to this file")
      ->check(non_empty_path());
  run->add_option("--mode", ro.mode, "simulation mode: timing (default) or functional");
  run->add_option("--config", ro.config, "GPU config: a shipped name (gtx480, ...) or a YAML file");
  std::string csv_path;
  run->add_option("--csv", csv_path, "write the statistics as name,value CSV to this file")
      ->check(non_empty_path());
  run->add_option("--threads", ro.threads,
                  "host threads for the SM phase of the timing mode (results do not depend on it)")
      ->check(CLI::Range(1u, 256u));
  run->add_option("--backend", ro.backend,
                  "sim (default) or native: the kernels on this machine's NVIDIA GPU through the "
                  "CUDA driver, same inputs and validation");
  run->add_option("--trace", ro.trace_path,
                  "write a timeline of warps, locks and barriers (Chrome trace-event JSON; .gz: "
                  "compressed) to this file; `simtsync view` turns it into a page")
      ->check(non_empty_path());
  run->add_option("--trace-window", ro.trace_window,
                  "only the cycles START:END in the trace (either side may be empty)");
  bool dump_config = false;
  run->add_flag("--dump-config", dump_config,
                "print the resolved configuration and workload parameters, do not run");

  auto* exec = app.add_subcommand(
      "exec", "run an unmodified CUDA program (nvcc -cudart shared) on the simulator");
  ExecOptions eo;
  exec->add_option("--config", eo.config, "GPU config: a shipped name or a YAML file");
  exec->add_option("--mode", eo.mode, "simulation mode: timing (default) or functional");
  // One value per --set, so that `--set K=V -- PROGRAM --its-own-options` keeps the `--`.
  exec->add_option("--set", eo.sets, "override a config key (KEY=VALUE), as for run")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  exec->add_option("--threads", eo.threads, "host threads for the SM phase")
      ->check(CLI::Range(1u, 256u));
  exec->add_option("--json", eo.json_path, "write the statistics as JSON to this file")
      ->check(non_empty_path());
  exec->add_flag("--quiet", eo.quiet, "no line per kernel launch on stderr");
  exec->add_option("--trace", eo.trace_path, "write the timeline trace to this file, as for run")
      ->check(non_empty_path());
  exec->add_option("--trace-window", eo.trace_window, "only the cycles START:END in the trace");
  exec->add_option("command", eo.command, "-- PROGRAM ARGS...");
  // Everything after exec's `--` is the program's, kept out of the parser (CLI11 lets a
  // repeated option end at `--` and then parses the program's own options as ours).
  int cli_argc = argc;
  if (argc >= 2 && std::string(argv[1]) == "exec") {
    for (int i = 2; i < argc; ++i) {
      if (std::string(argv[i]) == "--") {
        eo.command.assign(argv + i + 1, argv + argc);
        cli_argc = i;
        break;
      }
    }
  }

  auto* bench = app.add_subcommand("bench", "measure simulation speed on fixed cases");
  bool bench_json = false, bench_quick = false;
  bench->add_flag("--json", bench_json, "print a JSON list of records");
  bench->add_flag("--quick", bench_quick, "use test sizes (smoke test)");
  std::vector<std::string> bench_sets;
  bench->add_option("--set", bench_sets,
                    "override a config key in the timing cases (e.g. mem.model=simple)");
  unsigned bench_threads = 1;
  bench->add_option("--threads", bench_threads, "host threads for the timing cases' SM phase")
      ->check(CLI::Range(1u, 256u));

  auto* view = app.add_subcommand(
      "view", "turn a timeline trace (--trace) into one self-contained HTML page");
  ViewOptions vo;
  view->add_option("trace", vo.trace_path, "the trace file (.json or .json.gz)")->required();
  view->add_option("-o,--output", vo.output, "the HTML page to write")
      ->required()
      ->check(non_empty_path());
  view->add_option("--title", vo.title, "the page's title (default: the run)");
  view->add_option("--cycles", vo.cycles,
                   "end the time axis at this cycle (pages of two runs side by side)");

  auto* analyze = app.add_subcommand("analyze", "control-flow report of a PTX or CUDA file");
  AnalyzeOptions ao;
  analyze
      ->add_option("file", ao.paths,
                   "FILE.ptx or FILE.cu (compiled with nvcc); several with --table")
      ->required();
  analyze->add_option("--kernel", ao.kernel, "only this kernel or function");
  analyze->add_flag("--dump", ao.dump, "also print loops, reconvergence, CFG and dominator trees");
  analyze->add_flag("--json", ao.json, "print the SIMT-deadlock report as JSON");
  analyze->add_flag("--table", ao.table, "detection-rate table over all files (seed 003 Table IV)");
  analyze->add_flag("--compat", ao.compat, "reconvergence with the NVIDIA compatibility rule");
  analyze->add_flag("--no-parallel", ao.no_parallel, "ignore blocks parallel to loops (AWARE)");
  analyze->add_flag("--params-may-alias", ao.params_may_alias,
                    "assume distinct kernel pointer arguments may overlap");
  add_analyze_extras(analyze, ao);

  auto* transform =
      app.add_subcommand("transform", "SSDE: eliminate SIMT-induced deadlocks in PTX");
  TransformOptions to;
  transform->add_option("file", to.path, "FILE.ptx or FILE.cu")->required();
  transform->add_option("-o,--output", to.output, "output PTX file (default: stdout)")
      ->check(non_empty_path());
  transform->add_flag("--compat", to.compat, "reconvergence with the NVIDIA compatibility rule");
  transform->add_flag("--no-parallel", to.no_parallel, "ignore blocks parallel to loops");
  transform->add_flag("--params-may-alias", to.params_may_alias,
                      "assume distinct kernel pointer arguments may overlap");
  add_transform_extras(transform, to);

  // Listed for --help only: real_main hands both to the Python engine before parsing.
  app.add_subcommand("sweep", "run an experiment's points in parallel, resumably");
  app.add_subcommand("report", "tables and plots of an experiment's results");

  try {
    app.parse(cli_argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    if (rc != 0) return static_cast<int>(ExitCode::kUsage);
    try {
      flush_stdout();  // --help to a full disk or a closed pipe is not a success
    } catch (const Error& err) {
      fmt::print(stderr, "simtsync: error: {}\n", err.what());
      return static_cast<int>(err.code());
    }
    return 0;
  }
  return run_guarded([&] {
    int rc = 0;
    if (*list) rc = cmd_list(list_name);
    if (*run) {
      ro.size = workloads::size_from_name(size);
      ro.sets = parse_sets(sets);
      rc = cmd_run(ro, json_path, csv_path, dump_config);
    }
    if (*exec) rc = cmd_exec(eo);
    if (*view) rc = cmd_view(vo);
    if (*bench) rc = cmd_bench(bench_json, bench_quick, parse_sets(bench_sets), bench_threads);
    if (*analyze) rc = cmd_analyze(ao);
    if (*transform) rc = cmd_transform(to);
    flush_stdout();  // a report lost on a full disk or closed pipe is an error too
    return rc;
  });
}

}  // namespace
}  // namespace simtsync::tools

namespace {

// Transparent huge pages for the heap (issue 48). The simulator's time goes to cache and TLB
// misses on per-warp state spread over the heap (80 SMs of 64 warps: the warps, their
// reconvergence units, their register files); on 2 MB pages the TLB covers it and the register
// files of a launch's first CTAs fault in at a few hundred page faults instead of thousands.
// glibc does this when its tunable glibc.malloc.hugetlb is 1, read only at process start, so
// the process sets it and runs itself again, once (SIMTSYNC_HUGE_PAGES marks the second run;
// setting it to 0 beforehand turns this off). Not under valgrind (it would run the new image
// natively) nor a sanitizer (whose allocator ignores the tunable). Nothing simulated depends on
// where the heap lies: the golden table is the same either way.
void run_on_huge_pages(char** argv) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  return;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
  return;
#endif
#endif
  if (std::getenv("SIMTSYNC_HUGE_PAGES") != nullptr) return;
  const char* preload = std::getenv("LD_PRELOAD");
  if (preload != nullptr && std::strstr(preload, "vgpreload") != nullptr) return;
  const char* old = std::getenv("GLIBC_TUNABLES");
  const bool had = old != nullptr;
  const std::string before = had ? old : "";
  std::string tunables = before;
  if (tunables.find("glibc.malloc.hugetlb") != std::string::npos) return;
  tunables += tunables.empty() ? "glibc.malloc.hugetlb=1" : ":glibc.malloc.hugetlb=1";
  if (::setenv("GLIBC_TUNABLES", tunables.c_str(), 1) != 0) return;
  if (::setenv("SIMTSYNC_HUGE_PAGES", "1", 1) != 0) return;
  ::execv("/proc/self/exe", argv);
  // The image could not be run again: go on as we are, with the environment as it was.
  if (had)
    ::setenv("GLIBC_TUNABLES", before.c_str(), 1);
  else
    ::unsetenv("GLIBC_TUNABLES");
  ::unsetenv("SIMTSYNC_HUGE_PAGES");
}

}  // namespace

int main(int argc, char** argv) {
  run_on_huge_pages(argv);
  // std::bad_alloc (or an error) while the command line is parsed, too: a message and exit 2.
  return simtsync::tools::run_guarded([&] { return simtsync::tools::real_main(argc, argv); });
}
