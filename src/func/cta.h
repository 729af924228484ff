// One CTA of a launch: its shared memory, its warps and its 16 named barriers.
#pragma once

#include <cstdint>
#include <vector>

#include "common/types.h"
#include "func/launch_table.h"

namespace simtsync::func {

// A named barrier, counted per warp as hardware does: a warp arriving counts for all of its
// threads, so the expected count is the thread count rounded up to whole warps.
struct NamedBarrier {
  int arrived = 0;           // warps arrived in the current phase
  int expected = 0;          // warps needed to release (0: not in use)
  std::vector<int> waiting;  // warps (global ids) blocked in bar.sync
  std::uint32_t popc = 0;    // bar.red accumulators
  bool all = true;
  bool any = false;
  std::vector<std::pair<int, std::uint32_t>> red_dst;  // (warp, dst slot) awaiting the result
};

struct Cta {
  int index = 0;  // linear index in the grid
  Dim3 ctaid;
  std::vector<std::uint8_t> shared;
  std::vector<int> warps;  // global warp ids
  int live_warps = 0;
  NamedBarrier barriers[16];
  // Lock bits of the shared-memory lock unit (seed 001 sec. 3.2) this CTA's words map to, 1 =
  // held: the SM's in the timing mode (shared by the CTAs resident on it; this CTA's words
  // start at `lock_word_base` of the SM's shared memory), the CTA's own otherwise (created at
  // the first lock-bit instruction). A word's bit is (lock_word_base + offset / 4) % count.
  std::uint8_t* lock_bits = nullptr;
  unsigned lock_count = 0;
  std::uint64_t lock_word_base = 0;
  std::vector<std::uint8_t> own_lock_bits;
  int sm = -1;  // timing model: the SM running it
};

using CtaTable = LaunchTable<Cta>;

}  // namespace simtsync::func
