// A set of small indices (SMs, L2 slices, crossbar ports) as one bit each, visited in ascending
// order: the memory side visits only its busy components (issue 48) in the order a scan of all
// of them would, so skipping the idle ones changes nothing simulated.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

namespace simtsync::mem {

class BitMask {
 public:
  explicit BitMask(std::size_t n = 0) : w_((n + 63) / 64, 0) {}
  void set(std::size_t i) { w_[i / 64] |= std::uint64_t{1} << (i % 64); }
  void clear(std::size_t i) { w_[i / 64] &= ~(std::uint64_t{1} << (i % 64)); }
  bool test(std::size_t i) const { return (w_[i / 64] >> (i % 64)) & 1; }
  bool any() const {
    for (std::uint64_t w : w_)
      if (w) return true;
    return false;
  }
  std::size_t words() const { return w_.size(); }
  std::uint64_t word(std::size_t k) const { return w_[k]; }
  // Calls f(i) for every index set, ascending. f may clear or set the index it is given; bits it
  // sets at higher indices of the same word are not visited this time.
  template <class F>
  void for_each(F&& f) const {
    for (std::size_t k = 0; k < w_.size(); ++k)
      for (std::uint64_t b = w_[k]; b != 0; b &= b - 1)
        f(k * 64 + static_cast<std::size_t>(std::countr_zero(b)));
  }

 private:
  std::vector<std::uint64_t> w_;
};

}  // namespace simtsync::mem
