// The detection-rate table of `simtsync analyze --table` (seed 003 Table IV): kernels, divergent
// branches, loops, detections, true and false detections, false-detection rate (false / loops).
//
// Ground truth comes from names and markers: a kernel whose name or file contains "mimd" or
// "naive" is a MIMD kernel that deadlocks under an IPDOM stack; one with "simt" is hand-
// restructured; others are synchronization-free or otherwise SIMT-safe. A detection is true
// when the kernel is MIMD and the loop is a marked busy-wait loop (`pmevent 7`, from
// SIMTSYNC_SPIN_LOOP) or the kernel marks none; every other detection is false. A marked loop
// of a MIMD kernel that is not flagged is counted as missed.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/simt_deadlock.h"

namespace simtsync::tools {

class DetectionTable {
 public:
  void add_module(const ptx::Module& m, const analysis::DeadlockOptions& o);
  std::string format() const;
  nlohmann::json to_json() const;

 private:
  struct Row {
    std::string file, kernel, group;  // group: mimd, simt, other
    int branches = 0, loops = 0, detections = 0, truedet = 0, falsedet = 0, missed = 0;
  };
  std::vector<Row> rows_;
};

}  // namespace simtsync::tools
