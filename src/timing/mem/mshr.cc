#include "timing/mem/mshr.h"

namespace simtsync::mem {

MshrTable::MshrTable(unsigned entries, unsigned merge)
    : entries_(entries ? entries : 1), merge_(merge ? merge : 1), slots_(entries_) {
  free_.reserve(entries_);
  for (std::uint32_t s = entries_; s-- > 0;) free_.push_back(s);  // slot 0 taken first
  index_.reset(entries_);
}

MshrResult MshrTable::add(Addr line, const Packet& p, std::uint32_t fetch) {
  if (const std::uint32_t s = find(line); s != kNone) {
    Entry& e = slots_[s];
    // A merge needs the outstanding fetch to bring every sector this access wants.
    if (e.closed || e.waiters.size() >= merge_) return MshrResult::kEntryFull;
    if ((p.sectors & ~e.sectors) != 0) return MshrResult::kNotCovered;
    e.waiters.push_back(p);
    return MshrResult::kMerged;
  }
  if (used_ >= entries_) return MshrResult::kTableFull;
  const std::uint32_t s = free_.back();
  free_.pop_back();
  Entry& e = slots_[s];
  e.line = line;
  e.sectors = fetch | p.sectors;
  e.closed = false;
  e.waiters.clear();
  e.waiters.push_back(p);
  index_.insert(s, line);
  ++used_;
  return MshrResult::kNew;
}

void MshrTable::release(Addr line, std::vector<Packet>& out) {
  out.clear();
  const std::uint32_t s = find(line);
  if (s == kNone) return;
  out.swap(slots_[s].waiters);
  index_.erase(line, [this](std::uint32_t k) { return slots_[k].line; });
  free_.push_back(s);
  --used_;
}

}  // namespace simtsync::mem
