#include "cmd_analyze.h"

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <set>

#include "analysis/printer.h"
#include "cmd_analyze_table.h"
#include "common/error.h"
#include "common/input_file.h"
#include "ptx/parser.h"

namespace simtsync::tools {
namespace {

namespace fs = std::filesystem;

std::string read_file(const std::string& path) {
  return read_input_file(path, "input");
}

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// A private directory under the system temporary directory, removed with the object.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "simtsync_XXXXXX").string();
    if (mkdtemp(tmpl.data()) == nullptr)
      throw usage_error(fmt::format("cannot create a temporary directory ({})", tmpl));
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// Functions some call in the module names (inlined into their callers' reports).
std::set<std::string> called_functions(const ptx::Module& m) {
  std::set<std::string> out;
  for (const auto& f : m.functions)
    for (const auto& in : f.insts)
      if (in.opcode == ptx::Opcode::kCall)
        for (const auto& op : in.operands)
          if (op.kind == ptx::Operand::Kind::kSymbol) {
            out.insert(op.name);
            break;
          }
  return out;
}

}  // namespace

analysis::AnalysisOptions AnalysisFlags::options() const {
  analysis::AnalysisOptions a;
  a.detect.convention = compat ? analysis::Convention::kIpdomCompat : analysis::Convention::kIpdom;
  a.detect.parallel = !no_parallel;
  a.detect.distinct_params = !params_may_alias;
  a.detect.uniformity = !no_uniformity;
  a.detect.tickets = !no_uniformity;  // as published: fetch-and-add loops count too
  a.split_loops = !no_split;
  a.inline_calls = !no_inline;
  a.budget_entries = budget;
  return a;
}

void add_nvcc_options(CLI::App* cmd, NvccOptions& o) {
  cmd->add_option("--arch", o.arch, "nvcc -arch for .cu input (default sm_75)");
  // One value per occurrence: the file arguments that follow are not nvcc's.
  cmd->add_option("-I,--include", o.includes, "nvcc include directory for .cu input (repeat)")
      ->allow_extra_args(false);
  cmd->add_option("-D,--define", o.defines, "nvcc macro for .cu input: NAME or NAME=V (repeat)")
      ->allow_extra_args(false);
  cmd->add_option("--nvcc-flag", o.flags, "extra nvcc argument for .cu input, verbatim (repeat)")
      ->allow_extra_args(false);
}

void add_analysis_flags(CLI::App* cmd, AnalysisFlags& f) {
  cmd->add_flag("--no-uniformity", f.no_uniformity,
                "Algorithm 1 as published: warp-uniform busy-waits and loops that wait only on "
                "their own fetch-and-add results count as SIMT deadlocks");
  cmd->add_flag("--no-split-loops", f.no_split, "loops that share a header stay one loop");
  cmd->add_flag("--no-inline", f.no_inline, "do not inline calls (intra-procedural)");
  cmd->add_option("--analysis-budget", f.budget,
                  "entries (about 8 bytes each) one function's analysis may hold before it is "
                  "skipped (analyze) or refused (exit 4); 0 = no limit")
      ->capture_default_str();
}

void add_analyze_extras(CLI::App* cmd, AnalyzeOptions& o) {
  add_nvcc_options(cmd, o.nvcc);
  add_analysis_flags(cmd, o.flags);
  cmd->add_option("--truth", o.truth,
                  "--table ground truth: lines `FILE KERNEL [spin|LINE...]` naming the loops "
                  "that SIMT-deadlock (default: FILE.truth beside each input)");
}

std::string load_ptx_text(const std::string& path, const NvccOptions& nvcc) {
  if (path.size() <= 3 || path.substr(path.size() - 3) != ".cu") {
    std::string text = read_file(path);
    ptx::check_module_header(text, path);  // empty or .version-less PTX: exit 4
    return text;
  }
  require_regular_file(path, "CUDA source");
  const char* env = std::getenv("NVCC");
  std::string exe = env ? env : "nvcc";
  if (!env && fs::exists("/usr/local/cuda/bin/nvcc")) exe = "/usr/local/cuda/bin/nvcc";
  const TempDir dir;
  const fs::path out = dir.path() / (fs::path(path).stem().string() + ".ptx");
  std::string cmd = fmt::format("{} -ptx -arch={} -O3 -lineinfo", quote(exe), quote(nvcc.arch));
  for (const auto& i : nvcc.includes) cmd += " -I" + quote(i);
  for (const auto& d : nvcc.defines) cmd += " -D" + quote(d);
  for (const auto& f : nvcc.flags) cmd += " " + quote(f);
  cmd += fmt::format(" {} -o {}", quote(path), quote(out.string()));
  // nvcc's diagnostics (warnings included) go to stderr: stdout is the report's alone.
  std::fflush(stdout);
  const int rc = std::system((cmd + " 1>&2").c_str());
  if (rc != 0 || !fs::exists(out))
    throw unsupported_error(fmt::format("{}: nvcc could not compile it (exit {}; command: {})",
                                        path, WIFEXITED(rc) ? WEXITSTATUS(rc) : rc, cmd));
  return read_file(out.string());
}

int cmd_analyze(const AnalyzeOptions& in) {
  AnalyzeOptions o = in;
  o.flags.compat |= o.compat;
  o.flags.no_parallel |= o.no_parallel;
  o.flags.params_may_alias |= o.params_may_alias;
  const analysis::AnalysisOptions aopts = o.flags.options();
  if (o.table) {
    DetectionTable t(o.truth);
    for (const auto& p : o.paths)
      t.add_module(ptx::parse_module(load_ptx_text(p, o.nvcc), p), p, aopts);
    fmt::print("{}", o.json ? t.to_json().dump(2) + "\n" : t.format());
    return 0;
  }
  nlohmann::json all = nlohmann::json::array();
  bool any = false;
  int rc = 0;
  for (const auto& path : o.paths) {
    const ptx::Module m = ptx::parse_module(load_ptx_text(path, o.nvcc), path);
    const std::set<std::string> called =
        aopts.inline_calls ? called_functions(m) : std::set<std::string>{};
    for (const auto& f : m.functions) {
      if (f.is_declaration) continue;
      if (o.kernel.empty() && !f.is_entry && called.count(f.name)) continue;  // inlined
      if (!o.kernel.empty() && f.name != o.kernel) continue;
      any = true;
      std::unique_ptr<analysis::FunctionAnalysis> held;
      try {
        held = std::make_unique<analysis::FunctionAnalysis>(m, f, aopts);
      } catch (const analysis::AnalysisTooLarge& e) {
        // Skipped, named, and the run ends with exit 4; the other functions are reported.
        fmt::print(stderr, "simtsync: warning: {}: {}; skipped\n", path, e.what());
        if (!o.json) fmt::print("kernel {}: skipped (too large to analyse)\n", f.name);
        rc = static_cast<int>(ExitCode::kUnsupported);
        continue;
      }
      const analysis::FunctionAnalysis& a = *held;
      const analysis::DeadlockReport rep = a.report();
      if (o.json) {
        auto j = analysis::deadlock_json(rep);
        j["file"] = path;
        all.push_back(j);
        continue;
      }
      fmt::print("{}", analysis::format_deadlock(rep));
      if (o.dump) {
        fmt::print(
            "-- loops\n{}-- reconvergence\n{}-- cfg\n{}-- dominators\n{}-- post-dominators\n{}",
            analysis::format_loops(a.cfg(), a.loops()),
            analysis::format_reconvergence(a.cfg(), a.deadlock().reconvergence()),
            analysis::format_cfg(a.cfg()), analysis::format_dom_tree(a.cfg(), a.dom()),
            analysis::format_dom_tree(a.cfg(), a.pdom()));
      }
    }
  }
  if (!any && !o.kernel.empty()) throw usage_error(fmt::format("no function named '{}'", o.kernel));
  if (o.json) std::cout << all.dump(2) << "\n";
  return rc;
}

}  // namespace simtsync::tools
