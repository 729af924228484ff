// What the SIMT-deadlock analysis contributes to decoded code (Program), kept by function
// content so that a function analysed once is not analysed again (issue 46: every kernel that
// runs goes through the analysis, so its cost is the load time of every module).
//
// Contract:
//  - DecodeMarks hold instruction indices only (no PCs), so they serve any load of the same
//    function whatever its base PC.
//  - decode_key(m, f, budget) is equal for two functions exactly when the analysis sees the
//    same input: the instructions as printed, the labels, the function's kind, parameters and
//    variables, the module's variables (names and spaces) and the analysis budget.
//  - AnalysisCache::get runs `compute` once per key and hands every caller the same result; a
//    computation that throws (a refusal past the budget) leaves nothing behind. Thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ptx/ir.h"

namespace simtsync::func {

struct DecodeMarks {
  // Terminators of the blocks of the loops Algorithm 1 flags, ascending.
  std::vector<int> flagged;
  // Delayed reconvergence (seed 003 sec. IV-B): (conditional branch, the instruction its
  // threads reconverge before, -1 for the function's exit). Empty when no loop is flagged.
  std::vector<std::pair<int, int>> safe;
};

std::string decode_key(const ptx::Module& m, const ptx::Function& f, std::uint64_t budget);

class AnalysisCache {
 public:
  std::shared_ptr<const DecodeMarks> get(const std::string& key,
                                         const std::function<DecodeMarks()>& compute);
  std::size_t size() const;
  std::uint64_t hits() const;

 private:
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<const DecodeMarks>> map_;
  std::uint64_t hits_ = 0;
};

}  // namespace simtsync::func
