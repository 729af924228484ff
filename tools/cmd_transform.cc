#include "cmd_transform.h"

#include <fmt/format.h>

#include <iostream>

#include "common/error.h"
#include "output_file.h"
#include "ptx/parser.h"
#include "ptx/printer.h"
#include "transform/ssde.h"

namespace simtsync::tools {

void add_transform_extras(CLI::App* cmd, TransformOptions& o) {
  add_nvcc_options(cmd, o.nvcc);
  add_analysis_flags(cmd, o.flags);
}

int cmd_transform(const TransformOptions& in) {
  TransformOptions o = in;
  o.flags.compat |= o.compat;
  o.flags.no_parallel |= o.no_parallel;
  o.flags.params_may_alias |= o.params_may_alias;
  if (!o.output.empty()) check_output_path(o.output, "the transformed PTX (-o)");
  const ptx::Module m = ptx::parse_module(load_ptx_text(o.path, o.nvcc), o.path);
  const analysis::AnalysisOptions a = o.flags.options();
  transform::SsdeOptions so;
  so.detect = a.detect;
  so.split_loops = a.split_loops;
  so.inline_calls = a.inline_calls;
  const transform::SsdeResult r = transform::ssde(m, so);
  const std::string text = ptx::print_module(r.module);
  if (o.output.empty()) {
    std::cout << text;
  } else {
    write_output_file(o.output, text, "the transformed PTX (-o)");
  }
  for (const auto& c : r.changes)
    fmt::print(stderr, "ssde: {}: loop {} now iterates through switch block {} (case {})\n",
               c.function, c.loop_header, c.switch_label, c.case_value);
  for (const auto& w : r.warnings) fmt::print(stderr, "ssde: warning: {}\n", w);
  for (const auto& u : r.unfixed) fmt::print(stderr, "ssde: not fixed: {}\n", u);
  if (!r.changed() && r.unfixed.empty())
    fmt::print(stderr, "ssde: no potential SIMT deadlock; output unchanged\n");
  if (r.rounds > 1) fmt::print(stderr, "ssde: {} rounds of the transform\n", r.rounds);
  return 0;
}

}  // namespace simtsync::tools
