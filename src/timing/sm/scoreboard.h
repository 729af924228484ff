// Per-warp scoreboard: registers with a write in flight. An instruction may issue only when
// none of its sources, destinations or guard predicate is pending. Long-latency loads and
// atomics hold their destinations until the memory response returns.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "func/program.h"

namespace simtsync::sm {

class Scoreboard {
 public:
  void reserve(std::uint32_t reg) {
    if (reg != func::kNoReg) pending_.push_back(reg);
  }
  void release(std::uint32_t reg) {
    auto it = std::find(pending_.begin(), pending_.end(), reg);
    if (it != pending_.end()) {
      *it = pending_.back();
      pending_.pop_back();
    }
  }
  bool empty() const { return pending_.empty(); }
  bool pending(std::uint32_t reg) const {
    return reg != func::kNoReg &&
           std::find(pending_.begin(), pending_.end(), reg) != pending_.end();
  }
  // True when the instruction reads or writes a pending register.
  bool hazard(const func::ExecInst& in) const {
    if (pending_.empty()) return false;
    if (pending(in.guard)) return true;
    for (unsigned k = 0; k < in.nsrc; ++k)
      if (in.src[k].kind == func::Src::Kind::kReg && pending(in.src[k].reg)) return true;
    for (unsigned k = 0; k < in.ndst; ++k)
      if (pending(in.dst[k])) return true;
    if (in.mem.base == func::MemRef::Base::kReg && pending(in.mem.reg)) return true;
    return false;
  }
  void clear() { pending_.clear(); }

 private:
  std::vector<std::uint32_t> pending_;  // a register may appear twice (two writes in flight)
};

}  // namespace simtsync::sm
