// Miss status holding registers: one entry per line with a miss outstanding; later misses to
// the same line merge into it (up to a limit) instead of going to the next level again. A
// full table, or a full entry, is a reservation failure: the access must retry.
#pragma once

#include <cstdint>
#include <vector>

#include "timing/mem/line_index.h"
#include "timing/mem/packet.h"

namespace simtsync::mem {

// kNotCovered: the line has an outstanding fetch, but it does not bring every sector this
// access wants (a sector cache's sector miss); the access cannot wait on it.
enum class MshrResult : std::uint8_t { kNew, kMerged, kTableFull, kEntryFull, kNotCovered };

// A fixed table of `entries` slots found through a hash index of their lines (line_index.h):
// nothing is allocated per miss once the slots' waiter lists have grown
// (issue 48; it was a hash map with a node and a vector per miss).
class MshrTable {
 public:
  MshrTable(unsigned entries, unsigned merge);
  // Records `p` as waiting for `line`. kNew: the caller fetches `fetch` (sectors) from the
  // next level; kMerged: it rides on the outstanding miss (which fetches every sector it
  // needs); otherwise nothing changed and the caller retries later.
  MshrResult add(Addr line, const Packet& p, std::uint32_t fetch);
  bool pending(Addr line) const { return find(line) != kNone; }
  // A write passed the outstanding fill of `line`: the fill's data is older than the write, so
  // nothing more may merge into it and its line must not be installed.
  void close(Addr line) {
    if (const std::uint32_t s = find(line); s != kNone) slots_[s].closed = true;
  }
  bool closed(Addr line) const {
    const std::uint32_t s = find(line);
    return s != kNone && slots_[s].closed;
  }
  // The accesses waiting for `line`'s fill, in arrival order; null when none is outstanding.
  std::vector<Packet>* waiters(Addr line) {
    const std::uint32_t s = find(line);
    return s == kNone ? nullptr : &slots_[s].waiters;
  }
  // The fill for `line` arrived: `out` receives its waiters, in arrival order (emptied first;
  // empty when none was outstanding), and the entry is freed. `out` and the slot trade
  // buffers, so a caller that keeps `out` allocates nothing in steady state.
  void release(Addr line, std::vector<Packet>& out);
  std::vector<Packet> release(Addr line) {
    std::vector<Packet> v;
    release(line, v);
    return v;
  }
  std::size_t used() const { return used_; }
  bool empty() const { return used_ == 0; }

 private:
  static constexpr std::uint32_t kNone = LineIndex::kNone;
  struct Entry {
    Addr line = 0;
    std::uint32_t sectors = 0;
    bool closed = false;
    std::vector<Packet> waiters;
  };
  std::uint32_t find(Addr line) const {  // the slot holding `line`, or kNone
    return index_.find(line, [this](std::uint32_t s) { return slots_[s].line; });
  }

  unsigned entries_, merge_;
  std::vector<Entry> slots_;
  std::vector<std::uint32_t> free_;   // free slots, taken from the back
  LineIndex index_;
  std::size_t used_ = 0;
};

}  // namespace simtsync::mem
