// Clock domains: the core clock drives the simulation; the interconnect, L2 and DRAM clocks
// tick at their own frequencies. Time is kept in integer femtoseconds so that the interleaving
// of ticks is exact and deterministic (no floating-point drift over billions of cycles).
#pragma once

#include <cmath>
#include <cstdint>

namespace simtsync::mem {

class ClockDomain {
 public:
  explicit ClockDomain(double mhz = 1000)
      : period_fs_(static_cast<std::uint64_t>(std::llround(1e9 / (mhz > 0 ? mhz : 1)))) {}
  std::uint64_t period_fs() const { return period_fs_; }
  std::uint64_t cycle() const { return cycle_; }
  // True when this domain's next edge is due at or before `t_fs`; consumes the edge.
  bool advance(std::uint64_t t_fs) {
    if (next_fs_ > t_fs) return false;
    next_fs_ += period_fs_;
    ++cycle_;
    return true;
  }
  std::uint64_t next_edge_fs() const { return next_fs_; }
  // Skips edges without work up to `t_fs` (used when the domain is idle).
  void skip_to(std::uint64_t t_fs) {
    if (next_fs_ > t_fs) return;
    const std::uint64_t n = (t_fs - next_fs_) / period_fs_ + 1;
    cycle_ += n;
    next_fs_ += n * period_fs_;
  }

 private:
  std::uint64_t period_fs_;
  std::uint64_t next_fs_ = 0;
  std::uint64_t cycle_ = 0;
};

}  // namespace simtsync::mem
