// The detection-rate table of `simtsync analyze --table` (seed 003 Table IV): kernels, divergent
// branches, loops, SIMT-deadlock detections, warp-uniform busy-waits, true and false detections,
// false-detection rate (false / loops) and misses. Loops are counted per header (the seed's
// LSet): the loops split from one header (loops.h) count once.
//
// Ground truth comes from a sidecar file, never from names: `--truth FILE`, else `STEM.truth`
// beside each input file. Each line (`#` starts a comment) is
//     FILE KERNEL [spin | LINE...]
// FILE: the input's file name (no directory; NAME.ptx also matches NAME.cu), KERNEL: the PTX
// function name or `*`. The kernel SIMT-deadlocks under an IPDOM stack; `spin` (the default)
// means its loops marked with `pmevent 7` (SIMTSYNC_SPIN_LOOP) are the deadlocking ones (every
// loop when it marks none), LINE... the source lines of the deadlocking loops' headers
// (innermost .loc, as reported). A detection is true when it names such a loop, false
// otherwise ("SIMT deadlock claimed where none can occur"); such a loop left unflagged, or a
// named line no flagged loop carries, is missed. Kernels not listed are SIMT-safe.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/deadlock_analysis.h"

namespace simtsync::tools {

class DetectionTable {
 public:
  // `truth_file` may be empty (then sidecars are looked up per input).
  explicit DetectionTable(const std::string& truth_file = {});
  void add_module(const ptx::Module& m, const std::string& path,
                  const analysis::AnalysisOptions& o);
  std::string format() const;
  nlohmann::json to_json() const;

 private:
  struct Truth {
    bool spin = true;
    std::vector<int> lines;
  };
  void load_truth(const std::string& file);
  const Truth* truth_for(const std::string& file, const std::string& kernel) const;

  struct Row {
    std::string file, kernel, group;  // group: deadlock (listed in the truth), safe
    int branches = 0, loops = 0, detections = 0, busy_waits = 0, truedet = 0, falsedet = 0,
        missed = 0, calls_not_analysed = 0;
  };
  std::vector<Row> rows_;
  std::map<std::pair<std::string, std::string>, Truth> truth_;
  std::vector<std::string> loaded_;
  bool explicit_truth_ = false;
};

}  // namespace simtsync::tools
