#include "analysis/budget.h"

#include <fmt/format.h>

namespace simtsync::analysis {

void AnalysisBudget::spend(std::uint64_t n, const char* what) {
  used_ += n;
  if (limit_ == 0 || used_ <= limit_) return;
  throw AnalysisTooLarge(fmt::format(
      "function '{}' is too large to analyse: its {} pass the analysis budget of {} entries "
      "(about {} MB; --analysis-budget, or sim.analysis_budget for run and exec; 0 = no limit)",
      function_, what, limit_, limit_ * 6 / 1'000'000));
}

}  // namespace simtsync::analysis
