// Tags of a set-associative cache with LRU replacement and per-line sector state. The
// hierarchy keeps data in the functional memory; a cache here only decides hit or miss, which
// sectors a fill must fetch, and which dirty line a fill evicts.
#pragma once

#include <cstdint>
#include <vector>

#include "common/types.h"
#include "timing/mem/address_map.h"
#include "timing/mem/mem_params.h"

namespace simtsync::mem {

struct Eviction {
  bool dirty = false;  // a dirty line left: it must be written back
  Addr line = 0;
  std::uint32_t dirty_sectors = 0;
};

class TagArray {
 public:
  // With `slice_map`, the sets are indexed with the address inside its L2 slice
  // (AddressMap::slice_local_of), as a partitioned L2 does: the channel and slice bits are the
  // same for every line of a slice, so indexing with them would leave most sets unused.
  // With `fermi_hash` (32 or 64 sets), the set is the line-index bits 7-11 XORed with address
  // bits 13, 14, 15, 17 and 19 (bit 12 on top with 64 sets): the Fermi L1 hash of Nugteren et
  // al. (HPCA 2014), as GPGPU-Sim's FERMI_HASH_SET_FUNCTION computes it for 128-byte lines.
  explicit TagArray(const CacheGeometry& g, const AddressMap* slice_map = nullptr,
                    bool fermi_hash = false);

  Addr line_of(Addr a) const { return a / line_ * line_; }
  unsigned sectors_per_line() const { return line_ / sector_; }
  std::uint32_t all_sectors() const { return (1u << sectors_per_line()) - 1; }
  // Sectors of `line` that are present (0 when the line is absent). Touches LRU when `touch`.
  std::uint32_t probe(Addr line, bool touch);
  // Allocates `line` (evicting the least recently used way) with no sector valid yet; returns
  // what left. A line already present is kept.
  Eviction allocate(Addr line);
  // Marks sectors valid (a fill) and optionally dirty (a write).
  void fill(Addr line, std::uint32_t sectors, bool dirty);
  void invalidate(Addr line);
  unsigned sets() const { return sets_; }
  // The set `line` maps to (a policy that keeps its own per-way state indexes it the same way).
  unsigned set_index(Addr line) const { return set_of(line); }

  // The lines held, with their sector, dirty and LRU state: what a cache that is not flushed
  // keeps from one kernel launch to the next (mem.l2.keep_across_launches).
  struct State;
  State state() const;
  // Takes `s` over; false (and nothing changed) when it was taken from another geometry.
  bool restore(const State& s);

 private:
  struct Way {
    Addr line = 0;
    std::uint32_t valid = 0, dirty = 0;
    std::uint64_t lru = 0;
    bool used = false;
  };
  // The way holding `line`, or null. The lines of each set are also kept in their own array
  // (kUnused where the way is free), so a lookup scans 8 bytes per way instead of the whole
  // Way: highly associative L1s (qv100: 64 ways) are probed on every access.
  static constexpr Addr kUnused = ~Addr{0};
  Way* find(Addr line);
  void set_line(std::size_t way, Addr line, bool used) {
    lines_[way] = used ? line : kUnused;
    sig_[way / assoc_ * stride_ + way % assoc_] = used ? sig_of(line) : 0;
  }
  // One byte per way, from a hash of its line (never 0; 0: a free way, or the padding of a set's
  // row to a multiple of 16): a lookup compares 16 ways per instruction and reads the line
  // addresses of the few ways whose byte matches (issue 48: a miss scanned every line address,
  // 64 of them in qv100's L1, and every atomic's L1 invalidation is a miss).
  std::uint8_t sig_of(Addr line) const {
    const auto h = static_cast<std::uint8_t>((line * 0x9E3779B97F4A7C15ull) >> 56);
    return h != 0 ? h : 1;
  }
  unsigned set_of(Addr line) const {
    if (fermi_hash_) {
      const Addr upper = ((line >> 13) & 0x7) | ((line >> 14) & 0x8) | ((line >> 15) & 0x10);
      const Addr set = ((line / line_) & 0x1f) ^ upper;
      return static_cast<unsigned>(sets_ == 64 ? set | ((line >> 7) & 0x20) : set);
    }
    const Addr a = slice_map_ ? slice_map_->slice_local_of(line) : line;
    // Shifts and masks for power-of-two sizes (every shipped config): two 64-bit divisions per
    // lookup were a tenth of the lookup (issue 48).
    const Addr index = line_shift_ >= 0 ? a >> line_shift_ : a / line_;
    return static_cast<unsigned>(sets_pow2_ ? index & (sets_ - 1) : index % sets_);
  }

  const AddressMap* slice_map_;
  bool fermi_hash_;
  unsigned line_, sector_, assoc_, sets_;
  std::vector<Way> ways_;
  std::vector<Addr> lines_;
  std::vector<std::uint8_t> sig_;  // per set a row of stride_ bytes (sig_of)
  unsigned stride_ = 16;           // assoc_ rounded up to a multiple of 16
  // Per set, the way the last lookup found (a hint, checked before the scan): a line is looked
  // up again and again (a spin on a lock word, a warp's next load in the same line), and with
  // 64 ways the scan was most of a lookup.
  std::vector<std::uint16_t> mru_;
  int line_shift_ = -1;     // log2(line_) when a power of two
  bool sets_pow2_ = false;  // sets_ is a power of two
  std::uint64_t clock_ = 0;
};

struct TagArray::State {
  unsigned line = 0, sector = 0, assoc = 0, sets = 0;
  std::vector<Way> ways;
  std::vector<Addr> lines;
  std::uint64_t clock = 0;
};

}  // namespace simtsync::mem
