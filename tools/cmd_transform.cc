#include "cmd_transform.h"

#include <fmt/format.h>

#include <fstream>
#include <iostream>

#include "cmd_analyze.h"
#include "common/error.h"
#include "ptx/parser.h"
#include "ptx/printer.h"
#include "transform/ssde.h"

namespace simtsync::tools {

int cmd_transform(const TransformOptions& o) {
  const ptx::Module m = ptx::parse_module(load_ptx_text(o.path), o.path);
  transform::SsdeOptions so;
  so.detect.convention =
      o.compat ? analysis::Convention::kIpdomCompat : analysis::Convention::kIpdom;
  so.detect.parallel = !o.no_parallel;
  so.detect.distinct_params = !o.params_may_alias;
  const transform::SsdeResult r = transform::ssde(m, so);
  const std::string text = ptx::print_module(r.module);
  if (o.output.empty()) {
    std::cout << text;
  } else {
    std::ofstream f(o.output);
    if (!f) throw usage_error(fmt::format("cannot write '{}'", o.output));
    f << text;
  }
  for (const auto& c : r.changes)
    fmt::print(stderr, "ssde: {}: loop {} now iterates through switch block {} (case {})\n",
               c.function, c.loop_header, c.switch_label, c.case_value);
  for (const auto& w : r.warnings) fmt::print(stderr, "ssde: warning: {}\n", w);
  if (!r.changed()) fmt::print(stderr, "ssde: no potential SIMT deadlock; output unchanged\n");
  return 0;
}

}  // namespace simtsync::tools
