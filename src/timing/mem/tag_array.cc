#include "timing/mem/tag_array.h"

#include <algorithm>
#include <bit>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace simtsync::mem {

TagArray::TagArray(const CacheGeometry& g, const AddressMap* slice_map, bool fermi_hash)
    : slice_map_(slice_map),
      fermi_hash_(fermi_hash),
      line_(std::max(1u, g.line)),
      sector_(std::clamp(g.sector, 1u, std::max(1u, g.line))),
      assoc_(std::max(1u, g.assoc)),
      sets_(std::max(1u, g.bytes / (line_ * assoc_))) {
  ways_.resize(static_cast<size_t>(sets_) * assoc_);
  lines_.assign(ways_.size(), kUnused);
  stride_ = (assoc_ + 15) / 16 * 16;
  sig_.assign(static_cast<size_t>(sets_) * stride_, 0);
  mru_.assign(sets_, 0);
  if (std::has_single_bit(line_)) line_shift_ = std::countr_zero(line_);
  sets_pow2_ = std::has_single_bit(sets_);
}

TagArray::Way* TagArray::find(Addr line) {
  const unsigned s = set_of(line);
  const std::size_t base = static_cast<size_t>(s) * assoc_;
  const Addr* set = &lines_[base];
  // A line address equal to kUnused cannot occur (lines are multiples of the line size), and a
  // line is in at most one way: the hint's way, when it holds the line, is the way.
  std::uint16_t& hint = mru_[s];
  if (set[hint] == line) return &ways_[base + hint];
  const std::uint8_t h = sig_of(line);
  const std::uint8_t* row = &sig_[static_cast<size_t>(s) * stride_];
  for (unsigned k = 0; k < stride_; k += 16) {
#if defined(__SSE2__)
    auto m = static_cast<unsigned>(
        _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(row + k)),
                                         _mm_set1_epi8(static_cast<char>(h)))));
#else
    unsigned m = 0;
    for (unsigned i = 0; i < 16; ++i) m |= unsigned{row[k + i] == h} << i;
#endif
    for (; m != 0; m &= m - 1) {
      const unsigned w = k + static_cast<unsigned>(std::countr_zero(m));
      if (set[w] == line) {  // a match is a used way (padding and free ways are 0)
        hint = static_cast<std::uint16_t>(w);
        return &ways_[base + w];
      }
    }
  }
  return nullptr;
}

std::uint32_t TagArray::probe(Addr line, bool touch) {
  Way* w = find(line);
  if (!w) return 0;
  if (touch) w->lru = ++clock_;
  return w->valid;
}

Eviction TagArray::allocate(Addr line) {
  Eviction ev;
  if (Way* w = find(line)) {
    w->lru = ++clock_;
    return ev;
  }
  Way* set = &ways_[static_cast<size_t>(set_of(line)) * assoc_];
  Way* victim = &set[0];
  for (unsigned w = 0; w < assoc_; ++w) {
    if (!set[w].used) {
      victim = &set[w];
      break;
    }
    if (set[w].lru < victim->lru) victim = &set[w];
  }
  if (victim->used && victim->dirty) {
    ev.dirty = true;
    ev.line = victim->line;
    ev.dirty_sectors = victim->dirty;
  }
  *victim = Way{line, 0, 0, ++clock_, true};
  set_line(static_cast<size_t>(victim - ways_.data()), line, true);
  mru_[set_of(line)] = static_cast<std::uint16_t>(victim - set);
  return ev;
}

void TagArray::fill(Addr line, std::uint32_t sectors, bool dirty) {
  Way* w = find(line);
  if (!w) return;
  w->valid |= sectors;
  if (dirty) w->dirty |= sectors;
}

void TagArray::invalidate(Addr line) {
  if (Way* w = find(line)) {
    *w = Way{};
    set_line(static_cast<size_t>(w - ways_.data()), 0, false);
  }
}

TagArray::State TagArray::state() const {
  return State{line_, sector_, assoc_, sets_, ways_, lines_, clock_};
}

bool TagArray::restore(const State& s) {
  if (s.line != line_ || s.sector != sector_ || s.assoc != assoc_ || s.sets != sets_ ||
      s.ways.size() != ways_.size() || s.lines.size() != lines_.size())
    return false;
  ways_ = s.ways;
  lines_ = s.lines;
  for (std::size_t w = 0; w < lines_.size(); ++w) set_line(w, lines_[w], lines_[w] != kUnused);
  clock_ = s.clock;
  return true;
}

}  // namespace simtsync::mem
