// Lists grouped by a key in CSR form (compressed rows): group k's items are
// items[begin[k] .. begin[k + 1]), in the order they were given. A list per node or value
// costs 24 bytes and an allocation each, and a large function has hundreds of thousands of
// them (issue 46); loop bodies, dominator-tree children and reaching definitions' values keep
// theirs this way.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace simtsync::analysis {

// Each index i of `key` grouped under key[i] (a negative key is in no group).
template <typename Item>
void group_indices(const std::vector<int>& key, std::size_t groups, std::vector<int>& begin,
                   std::vector<Item>& items) {
  begin.assign(groups + 1, 0);
  for (int k : key)
    if (k >= 0) ++begin[static_cast<std::size_t>(k) + 1];
  for (std::size_t k = 0; k < groups; ++k) begin[k + 1] += begin[k];
  items.assign(static_cast<std::size_t>(begin.back()), Item{});
  std::vector<int> fill(begin.begin(), begin.end() - 1);
  for (std::size_t i = 0; i < key.size(); ++i)
    if (key[i] >= 0)
      items[static_cast<std::size_t>(fill[static_cast<std::size_t>(key[i])]++)] =
          static_cast<Item>(i);
}

// Each pair's item grouped under its key.
template <typename Item>
void group_pairs(const std::vector<std::pair<int, Item>>& pairs, std::size_t groups,
                 std::vector<int>& begin, std::vector<Item>& items) {
  begin.assign(groups + 1, 0);
  for (const auto& [k, item] : pairs) ++begin[static_cast<std::size_t>(k) + 1];
  for (std::size_t k = 0; k < groups; ++k) begin[k + 1] += begin[k];
  items.assign(pairs.size(), Item{});
  std::vector<int> fill(begin.begin(), begin.end() - 1);
  for (const auto& [k, item] : pairs)
    items[static_cast<std::size_t>(fill[static_cast<std::size_t>(k)]++)] = item;
}

}  // namespace simtsync::analysis
