// `simtsync view TRACE -o PAGE.html`: one self-contained HTML page from a timeline trace
// (--trace): the warp-by-time timeline coloured by state, the lock and barrier tracks, the
// counters, and the watchdog's report as a wait-for graph (docs/timeline.md).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace simtsync::tools {

struct ViewOptions {
  std::string trace_path;
  std::string output;
  std::string title;
  std::uint64_t cycles = 0;  // the time axis ends here (0: at the trace's last span)
};

// The page's data from a parsed trace (tracks, spans, counters, kernels, watchdog report).
nlohmann::json view_model(const nlohmann::json& trace);
// Reads a trace file, plain or gzip. Throws usage_error naming the path.
nlohmann::json read_trace(const std::string& path);
int cmd_view(const ViewOptions& o);

}  // namespace simtsync::tools
