// A set of lanes of one warp (warps of up to 64 threads).
#pragma once

#include <bit>
#include <cstdint>

namespace simtsync {

using LaneMask = std::uint64_t;

inline int popcount(LaneMask m) { return std::popcount(m); }
inline int first_lane(LaneMask m) { return std::countr_zero(m); }
inline LaneMask full_mask(unsigned n) { return n >= 64 ? ~LaneMask{0} : (LaneMask{1} << n) - 1; }

// Iterates the set bits of a mask: for (int l : lanes(m)).
class LaneIter {
 public:
  explicit LaneIter(LaneMask m) : m_(m) {}
  struct It {
    LaneMask m;
    int operator*() const { return std::countr_zero(m); }
    It& operator++() {
      m &= m - 1;
      return *this;
    }
    bool operator!=(const It& o) const { return m != o.m; }
  };
  It begin() const { return {m_}; }
  It end() const { return {0}; }

 private:
  LaneMask m_;
};
inline LaneIter lanes(LaneMask m) { return LaneIter(m); }

}  // namespace simtsync
