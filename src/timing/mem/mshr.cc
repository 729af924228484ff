#include "timing/mem/mshr.h"

namespace simtsync::mem {

MshrResult MshrTable::add(Addr line, const Packet& p, std::uint32_t fetch) {
  auto it = table_.find(line);
  if (it != table_.end()) {
    // A merge needs the outstanding fetch to bring every sector this access wants.
    if (it->second.closed || it->second.waiters.size() >= merge_) return MshrResult::kEntryFull;
    if ((p.sectors & ~it->second.sectors) != 0) return MshrResult::kNotCovered;
    it->second.waiters.push_back(p);
    return MshrResult::kMerged;
  }
  if (table_.size() >= entries_) return MshrResult::kTableFull;
  Entry& e = table_[line];
  e.sectors = fetch | p.sectors;
  e.waiters.push_back(p);
  return MshrResult::kNew;
}

std::vector<Packet> MshrTable::release(Addr line) {
  auto it = table_.find(line);
  if (it == table_.end()) return {};
  std::vector<Packet> v = std::move(it->second.waiters);
  table_.erase(it);
  return v;
}

}  // namespace simtsync::mem
