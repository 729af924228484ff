#include "timing/mem/mshr.h"

#include <bit>

namespace simtsync::mem {

MshrTable::MshrTable(unsigned entries, unsigned merge)
    : entries_(entries ? entries : 1), merge_(merge ? merge : 1), slots_(entries_) {
  free_.reserve(entries_);
  for (std::uint32_t s = entries_; s-- > 0;) free_.push_back(s);  // slot 0 taken first
  const std::size_t size = std::bit_ceil(std::size_t{2} * entries_);
  index_.assign(size, 0);
  mask_ = size - 1;
}

std::uint32_t MshrTable::find(Addr line) const {
  for (std::size_t i = home(line);; i = (i + 1) & mask_) {
    const std::uint32_t v = index_[i];
    if (v == 0) return kNone;
    if (slots_[v - 1].line == line) return v - 1;
  }
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
  std::size_t i = home(line);
  while (index_[i] != 0) i = (i + 1) & mask_;
  index_[i] = s + 1;
  ++used_;
  return MshrResult::kNew;
}

void MshrTable::release(Addr line, std::vector<Packet>& out) {
  out.clear();
  std::size_t i = home(line);
  while (index_[i] != 0 && slots_[index_[i] - 1].line != line) i = (i + 1) & mask_;
  if (index_[i] == 0) return;
  const std::uint32_t s = index_[i] - 1;
  out.swap(slots_[s].waiters);
  free_.push_back(s);
  --used_;
  // Backward-shift deletion: move up each later entry of the run whose home slot does not lie
  // (cyclically) after the hole, so every lookup still finds its line before an empty slot.
  for (std::size_t j = (i + 1) & mask_; index_[j] != 0; j = (j + 1) & mask_) {
    const std::size_t h = home(slots_[index_[j] - 1].line);
    const bool stays = i <= j ? (h > i && h <= j) : (h > i || h <= j);
    if (stays) continue;
    index_[i] = index_[j];
    i = j;
  }
  index_[i] = 0;
}

}  // namespace simtsync::mem
