// The order of a serial memory tick, for what the parallel memory phase (issue 48) records per
// memory partition and applies afterwards: a serial tick runs every partition's L2 cycle m before
// any partition's cycle m + 1, partitions in index order, so its records come by L2 cycle, then
// partition, then in each partition's own order.
#pragma once

#include <cstddef>
#include <vector>

namespace simtsync::mem {

// Calls visit(record) for every record of the `n` partitions' logs (log(k): partition k's
// records in its own order, `when(record)` non-decreasing along it) in a serial tick's order.
// `at` is scratch.
template <class Log, class When, class Visit>
void for_each_in_tick_order(std::size_t n, Log log, When when, Visit visit,
                            std::vector<std::size_t>& at) {
  at.assign(n, 0);
  for (;;) {
    std::size_t best = n;
    for (std::size_t k = 0; k < n; ++k) {
      const auto& v = log(k);
      // Strictly earlier: of the records of one L2 cycle the lowest partition's come first.
      if (at[k] < v.size() && (best == n || when(v[at[k]]) < when(log(best)[at[best]]))) best = k;
    }
    if (best == n) return;
    visit(log(best)[at[best]++]);
  }
}

}  // namespace simtsync::mem
