// `simtsync analyze FILE.ptx|FILE.cu`: per kernel, the loops Algorithm 1 flags as potential
// SIMT-induced deadlocks (with the uniformity filter: busy-waits the whole warp performs are
// reported apart), the reads their exit depends on, the redefining writes and the safe
// post-dominator of Algorithm 2, each named by PTX label and CUDA source line (with its inline
// chain); calls are inlined and the ones that could not be are named. Optionally the
// control-flow facts (loops, reconvergence points, CFG, dominator trees), JSON, or a
// detection-rate table over many files (seed 003 Table IV).
//
// stdout carries only the report (text or JSON); nvcc's own output goes to stderr.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/deadlock_analysis.h"

namespace CLI {
class App;
}

namespace simtsync::tools {

// How a .cu file is compiled before analysis (nvcc -ptx -O3 -lineinfo plus these).
struct NvccOptions {
  std::string arch = "sm_75";
  std::vector<std::string> includes;  // -I
  std::vector<std::string> defines;   // -D
  std::vector<std::string> flags;     // anything else, verbatim
};

// Analysis switches shared by analyze and transform.
struct AnalysisFlags {
  bool compat = false;            // reconvergence with the NVIDIA compatibility rule
  bool no_parallel = false;       // ignore parallel blocks (AWARE)
  bool params_may_alias = false;  // drop alias rule 4d (distinct kernel pointer arguments)
  bool no_uniformity = false;     // Algorithm 1 as published (no busy-wait separation)
  bool no_split = false;          // loops sharing a header stay one loop
  bool no_inline = false;         // intra-procedural only
  // Entries one function's analysis may hold (analysis/budget.h); 0 = no limit.
  std::uint64_t budget = analysis::kDefaultBudgetEntries;
  analysis::AnalysisOptions options() const;
};

struct AnalyzeOptions {
  std::vector<std::string> paths;  // one or more .ptx / .cu files
  std::string kernel;              // only this function ("" = all)
  bool dump = false;               // also print loops, reconvergence, CFG, dominator trees
  bool json = false;               // JSON instead of text
  bool table = false;              // detection table over all files (Table IV style)
  std::string truth;               // --table ground truth (see cmd_analyze_table.h)
  bool compat = false;             // kept for main.cc; copied into flags
  bool no_parallel = false;
  bool params_may_alias = false;
  AnalysisFlags flags;
  NvccOptions nvcc;
};

int cmd_analyze(const AnalyzeOptions& o);

// Registers the options main.cc does not declare itself: the nvcc pass-through (--arch, -I,
// -D, --nvcc-flag) and the analysis switches beyond --compat/--no-parallel/--params-may-alias.
void add_nvcc_options(CLI::App* cmd, NvccOptions& o);
void add_analysis_flags(CLI::App* cmd, AnalysisFlags& f);
void add_analyze_extras(CLI::App* cmd, AnalyzeOptions& o);

// Loads a .ptx file, or compiles a .cu file with nvcc into a private temporary directory that
// is removed afterwards (exit 4 when nvcc fails, with its messages on stderr).
std::string load_ptx_text(const std::string& path, const NvccOptions& nvcc = {});

}  // namespace simtsync::tools
