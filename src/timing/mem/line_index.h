// A hash index from line addresses to the slots that hold them (open addressing with linear
// probing, at most half full, backward-shift deletion), for a table whose lookups a scan made
// slow: the MSHRs (issue 48; qv100 has 256 per L1). The index stores slot numbers only;
// the table keeps each slot's line and `key_of(slot)` reads it, so the index never holds a
// second copy of a line. Exact: a lookup answers what a scan of the table would.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "common/types.h"

namespace simtsync::mem {

class LineIndex {
 public:
  static constexpr std::uint32_t kNone = ~0u;

  // Room for `slots` entries; empties the index.
  void reset(std::size_t slots) {
    const std::size_t size = std::bit_ceil(std::max<std::size_t>(2, 2 * slots));
    index_.assign(size, 0);
    mask_ = size - 1;
  }
  void clear() { std::fill(index_.begin(), index_.end(), 0); }
  bool active() const { return !index_.empty(); }

  // The slot holding `line`, or kNone.
  template <class KeyOf>
  std::uint32_t find(Addr line, KeyOf key_of) const {
    for (std::size_t i = home(line);; i = (i + 1) & mask_) {
      const std::uint32_t v = index_[i];
      if (v == 0) return kNone;
      if (key_of(v - 1) == line) return v - 1;
    }
  }
  // `slot` now holds `line` (not already indexed).
  void insert(std::uint32_t slot, Addr line) {
    std::size_t i = home(line);
    while (index_[i] != 0) i = (i + 1) & mask_;
    index_[i] = slot + 1;
  }
  // `line` leaves the index (nothing when absent). `key_of` must still answer `line` for its
  // slot: erase before the table overwrites it.
  template <class KeyOf>
  void erase(Addr line, KeyOf key_of) {
    std::size_t i = home(line);
    while (index_[i] != 0 && key_of(index_[i] - 1) != line) i = (i + 1) & mask_;
    if (index_[i] == 0) return;
    // Move up each later entry of the run whose home slot does not lie (cyclically) after the
    // hole, so every lookup still finds its line before an empty slot.
    for (std::size_t j = (i + 1) & mask_; index_[j] != 0; j = (j + 1) & mask_) {
      const std::size_t h = home(key_of(index_[j] - 1));
      const bool stays = i <= j ? (h > i && h <= j) : (h > i || h <= j);
      if (stays) continue;
      index_[i] = index_[j];
      i = j;
    }
    index_[i] = 0;
  }

 private:
  std::size_t home(Addr line) const {
    return static_cast<std::size_t>((line * 0x9E3779B97F4A7C15ull) >> 32) & mask_;
  }
  std::vector<std::uint32_t> index_;  // slot + 1; 0: an empty slot
  std::size_t mask_ = 0;
};

}  // namespace simtsync::mem
