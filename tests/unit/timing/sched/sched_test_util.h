// Hand-built warp states for the issue-policy tests (no SM involved).
#pragma once

#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "timing/sched/i_warp_scheduler.h"

namespace simtsync::sched {

// Slot i holds a live warp with age ages[i] and warp id (SM slot) i; age < 0 marks an empty slot.
inline std::vector<SchedWarp> warps(const std::vector<int>& ages) {
  std::vector<SchedWarp> w(ages.size());
  for (size_t i = 0; i < ages.size(); ++i) {
    w[i].valid = ages[i] >= 0;
    w[i].age = ages[i] < 0 ? 0 : static_cast<std::uint64_t>(ages[i]);
    w[i].warp_id = static_cast<int>(i);
  }
  return w;
}

// The config names of a plug-in table's rows (`MACRO("name", ...)` at the start of a line of
// src/timing/sched/FILE), in order: what a registry must list, read from the table itself so
// that no test keeps a second, hand-typed list (issue 47).
inline std::vector<std::string> def_rows(const std::string& file, const std::string& macro) {
  std::ifstream in(std::string(SIMTSYNC_SOURCE_DIR) + "/src/timing/sched/" + file);
  const std::regex row("^" + macro + "\\(\"([^\"]+)\"");
  std::vector<std::string> out;
  std::smatch m;
  for (std::string line; std::getline(in, line);)
    if (std::regex_search(line, m, row)) out.push_back(m[1]);
  return out;
}

}  // namespace simtsync::sched
