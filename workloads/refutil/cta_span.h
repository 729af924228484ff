// The span of a kernel measured inside it: thread 0 of every CTA stores clock64 at its start
// and at its end (mb_stream, mb_atomic). CTAs on different SMs read the same core clock, so the
// kernel's span is the latest end minus the earliest start.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace simtsync::workloads::ref {

// 0 when there are no CTAs or the clocks run backwards (they never should).
inline std::uint64_t cta_span(const std::vector<std::uint64_t>& start,
                              const std::vector<std::uint64_t>& end) {
  if (start.empty() || end.empty()) return 0;
  const std::uint64_t first = *std::min_element(start.begin(), start.end());
  const std::uint64_t last = *std::max_element(end.begin(), end.end());
  return last > first ? last - first : 0;
}

}  // namespace simtsync::workloads::ref
