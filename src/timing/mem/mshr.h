// Miss status holding registers: one entry per line with a miss outstanding; later misses to
// the same line merge into it (up to a limit) instead of going to the next level again. A
// full table, or a full entry, is a reservation failure: the access must retry.
#pragma once

#include <unordered_map>
#include <vector>

#include "timing/mem/packet.h"

namespace simtsync::mem {

// kNotCovered: the line has an outstanding fetch, but it does not bring every sector this
// access wants (a sector cache's sector miss); the access cannot wait on it.
enum class MshrResult : std::uint8_t { kNew, kMerged, kTableFull, kEntryFull, kNotCovered };

class MshrTable {
 public:
  MshrTable(unsigned entries, unsigned merge)
      : entries_(entries ? entries : 1), merge_(merge ? merge : 1) {}

  // Records `p` as waiting for `line`. kNew: the caller fetches `fetch` (sectors) from the
  // next level; kMerged: it rides on the outstanding miss (which fetches every sector it
  // needs); otherwise nothing changed and the caller retries later.
  MshrResult add(Addr line, const Packet& p, std::uint32_t fetch);
  bool pending(Addr line) const { return table_.count(line) != 0; }
  // A write passed the outstanding fill of `line`: the fill's data is older than the write, so
  // nothing more may merge into it and its line must not be installed.
  void close(Addr line) {
    auto it = table_.find(line);
    if (it != table_.end()) it->second.closed = true;
  }
  bool closed(Addr line) const {
    auto it = table_.find(line);
    return it != table_.end() && it->second.closed;
  }
  // The accesses waiting for `line`'s fill, in arrival order; null when none is outstanding.
  std::vector<Packet>* waiters(Addr line) {
    auto it = table_.find(line);
    return it == table_.end() ? nullptr : &it->second.waiters;
  }
  // The fill for `line` arrived: its waiters, in arrival order (the entry is freed).
  std::vector<Packet> release(Addr line);
  std::size_t used() const { return table_.size(); }
  bool empty() const { return table_.empty(); }

 private:
  unsigned entries_, merge_;
  struct Entry {
    std::uint32_t sectors = 0;
    bool closed = false;
    std::vector<Packet> waiters;
  };
  std::unordered_map<Addr, Entry> table_;
};

}  // namespace simtsync::mem
