// Runs one built-in workload end to end and describes the outcome; shared by `run` and `bench`.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/error.h"
#include "framework/workload.h"

namespace simtsync::tools {

struct RunOptions {
  std::string workload;
  workloads::Size size = workloads::Size::kDefault;
  std::string mode = "timing";              // timing | functional
  std::string config = "gtx480";            // shipped config name or YAML file
  std::map<std::string, std::string> sets;  // --set key=value
  unsigned threads = 1;                     // host threads (--threads); no effect on results
  std::string backend = "sim";              // sim | native (a real GPU, src/native/)
  std::string trace_path;                   // --trace: the timeline trace (src/trace/)
  std::string trace_window;                 // --trace-window START:END
};

struct RunRecord {
  ExitCode exit_code = ExitCode::kOk;
  bool validated = false;
  std::string message;         // validation message or error text
  std::string watchdog_report;
  std::vector<std::string> notes;  // the workload's own measurements (WorkloadContext::notes)
  double seconds = 0;          // wall time of the whole driver
  double sim_seconds = 0;      // of which simulating kernels
  // Cycles whose L2 side ran on several host threads (the parallel memory phase; host
  // information like the times: results do not depend on it).
  std::uint64_t memory_phases = 0;
  unsigned warp_size = 32;
  func::ExecStats stats;
  std::map<std::string, std::int64_t> params;
  std::uint64_t cycles = 0;           // timing mode
  nlohmann::json timing;              // timing statistics tree (null in the functional mode)
  std::string timing_table;           // its text form
  std::string config_name;
  std::string config_yaml;            // the fully resolved configuration
  std::string native_device;          // --backend native: the GPU's name
  double native_ms = 0;               // and its kernel time (driver events), all launches
  nlohmann::json to_json(const RunOptions& o) const;
};

// Never throws for problems of the kernel itself (those become exit codes); usage errors in the
// options (unknown workload, unknown key) throw simtsync::Error.
RunRecord run_workload(const RunOptions& o);

// Everything a run's result depends on besides the simulator itself, resolved without running:
// the full GPU configuration after --set (as Config::dump_yaml) and a `run:` section with the
// workload, size, mode and workload parameters. `run --dump-config` prints it; sweeps hash it.
std::string resolved_inputs_yaml(const RunOptions& o);

}  // namespace simtsync::tools
