// How much one function's analysis may hold (issue 46): every kernel that runs goes through the
// analysis, so a function whose structure would make it quadratic (thousands of loops nested in
// each other, tens of thousands of nested ifs) is refused with a message naming it, instead of
// taking minutes and gigabytes or ending in std::bad_alloc.
//
// Contract: the analyses charge the entries of the lists they build that can grow faster than
// the function (loop bodies, divergent regions, dominance frontiers, merge values, paths to
// reconvergence points, reachable blocks). spend() throws AnalysisTooLarge (exit code 4) once
// the total passes the limit; 0 means no limit. One budget serves one function's analysis.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "common/error.h"

namespace simtsync::analysis {

// 4 to 8 bytes an entry: the default keeps a refused function near 200 MB (docs/ssde.md).
inline constexpr std::uint64_t kDefaultBudgetEntries = 32'000'000;

class AnalysisTooLarge : public Error {
 public:
  explicit AnalysisTooLarge(const std::string& what) : Error(ExitCode::kUnsupported, what) {}
};

class AnalysisBudget {
 public:
  explicit AnalysisBudget(std::uint64_t limit = kDefaultBudgetEntries, std::string function = "")
      : limit_(limit), function_(std::move(function)) {}
  // Charges `n` entries for `what` (a phrase: "loop bodies"); throws past the limit.
  void spend(std::uint64_t n, const char* what);
  std::uint64_t used() const { return used_; }
  std::uint64_t limit() const { return limit_; }

 private:
  std::uint64_t limit_;
  std::uint64_t used_ = 0;
  std::string function_;
};

// Charges `b` when it is not null (the analyses run without a budget in unit tests).
inline void charge(AnalysisBudget* b, std::uint64_t n, const char* what) {
  if (b != nullptr) b->spend(n, what);
}

}  // namespace simtsync::analysis
