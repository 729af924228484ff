// Architectural state of one warp: per-lane registers (register-major, lanes contiguous),
// per-lane local memory, the reconvergence unit, and the call frames that save a callee's
// registers so recursion works per thread.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "common/range.h"
#include "common/types.h"
#include "func/lane_mask.h"
#include "func/launch_table.h"
#include "simt/i_reconvergence.h"

namespace simtsync::func {

// One call in progress for the threads in `mask`. Frames are kept per set of threads, not per
// warp: the frame of the threads running now is the innermost one holding them (frame_of), so
// a unit that runs threads at different call depths (independent thread scheduling) finds each
// split's own frame. Under a stack the innermost frame always holds the active threads.
struct CallFrame {
  int callee = -1;  // index in Program::functions()
  int caller = -1;
  LaneMask mask = 0;                 // threads that entered the call
  std::uint64_t base = 0;            // the callee's frame in local memory
  std::vector<std::uint64_t> saved;  // callee registers of those threads before the call
  std::vector<std::uint64_t> rets;   // caller frame offsets to copy return values to
  std::uint64_t caller_frame = 0;    // caller's frame size (the callee frame starts after it)
};

enum class WarpState : std::uint8_t { kRunning, kAtBarrier, kFinished };

// A warp's state, readable where the timing SM keeps its per-slot data: every write also goes
// to an optional mirror (Sm's per-slot array, bound while the warp holds an SM slot), so the
// issue stage reads a contiguous array instead of following each warp (issue 48). Reads and
// comparisons behave as the plain enum. A copy is not bound.
class WarpStateCell {
 public:
  WarpStateCell(WarpState s = WarpState::kRunning) : v_(s) {}  // NOLINT: used as the enum
  WarpStateCell(const WarpStateCell& o) : v_(o.v_) {}
  WarpStateCell& operator=(const WarpStateCell& o) { return *this = o.v_; }
  WarpStateCell& operator=(WarpState s) {
    v_ = s;
    if (mirror_) *mirror_ = s;
    return *this;
  }
  operator WarpState() const { return v_; }  // NOLINT: used as the enum
  // Writes go to `m` too from now on (nullptr: stop); `m` receives the current state.
  void mirror_to(WarpState* m) {
    mirror_ = m;
    if (m) *m = v_;
  }

 private:
  WarpState v_;
  WarpState* mirror_ = nullptr;
};

class Warp {
  // First: what every executed instruction reads to find its registers, beside the identity
  // and control fields below (the first two cache lines hold everything the issue stage and the
  // executor read of a warp on each step; Sm::try_issue fetches them ahead).
  std::uint64_t* base_ = nullptr;  // regs_.data() or an attached arena slice
  unsigned size_;

 public:
  Warp(unsigned warp_size, std::uint32_t total_regs) : size_(warp_size) {
    if (total_regs > 0) allocate(total_regs);
  }

  // Register storage exists only while the warp's CTA is resident. `reuse` (optional) is the
  // storage of a warp that left: taken over instead of allocating (zeroed all the same).
  void allocate(std::uint32_t total_regs, std::vector<std::uint64_t>* reuse = nullptr) {
    if (reuse) regs_.swap(*reuse);
    regs_.assign(std::size_t{total_regs} * size_, 0);
    base_ = regs_.data();
  }
  // Gives up the warp's own register storage (for allocate's `reuse`).
  std::vector<std::uint64_t> take_registers() {
    base_ = nullptr;
    return std::move(regs_);
  }
  // Uses caller-owned, zeroed storage of total_regs * size() words (a launch-wide arena).
  void attach(std::uint64_t* storage) { base_ = storage; }
  bool has_registers() const { return base_ != nullptr; }
  void release() {
    std::vector<std::uint64_t>().swap(regs_);
    base_ = nullptr;
    std::vector<std::uint8_t>().swap(local_);
    local_stride_ = 0;
    simt.reset();
    calls.clear();
  }

  unsigned size() const { return size_; }
  std::uint64_t* reg(std::uint32_t slot) { return base_ + std::size_t{slot} * size_; }
  const std::uint64_t* reg(std::uint32_t slot) const { return base_ + std::size_t{slot} * size_; }

  // Per-lane local memory, grown on demand; offsets are thread-local addresses.
  std::uint8_t* local(unsigned lane, std::uint64_t offset, unsigned bytes) {
    if (!range_within(offset, bytes, 0, local_stride_)) {
      Addr end = ~Addr{0};  // a range past 2^64 asks for more than grow_local allows
      range_end(offset, bytes, end);
      grow_local(end);
    }
    return &local_[lane * local_stride_ + offset];
  }
  std::uint64_t local_stride() const { return local_stride_; }

  // Identity.
  int global_id = 0;  // unique across the launch
  int cta = 0;        // index of its CTA in the launch
  int warp_in_cta = 0;
  std::uint64_t age = 0;  // dispatch order (timing model)
  LaneMask threads = 0;   // lanes that hold a thread

  std::unique_ptr<simt::IReconvergence> simt;
  std::vector<CallFrame> calls;
  int kernel_function = 0;  // the function the warp started in
  // The innermost call frame holding any of `active` (nullptr: they run at kernel level).
  CallFrame* frame_of(LaneMask active) {
    for (auto it = calls.rbegin(); it != calls.rend(); ++it)
      if (it->mask & active) return &*it;
    return nullptr;
  }
  // Points function and frame_base at the frame of `active` (see CallFrame).
  void select_frame(LaneMask active) {
    const CallFrame* f = frame_of(active);
    function = f ? f->callee : kernel_function;
    frame_base = f ? f->base : 0;
  }
  std::uint64_t frame_base = 0;  // start of the current function's frame in local memory
  int function = 0;              // index of the function executing now
  WarpStateCell state = WarpState::kRunning;
  int barrier_id = -1;
  LaneMask barrier_lanes = 0;  // threads that arrived at the barrier (bar.red writes them)
  int pending_barrier = -1;    // the barrier some splits wait at before the warp arrives

  // Watchdog bookkeeping (see Watchdog).
  std::uint64_t spin_hash = 0;
  Pc spin_pc = 0;
  std::uint64_t spin_epoch = ~std::uint64_t{0};
  bool cycling = false;
  // Starvation evidence (gpu::ProgressWatch): this warp's compare-and-swaps on global memory
  // that swapped, those that did not since the last one that did (in a row), and the word and
  // instruction of the last one.
  std::uint64_t cas_wins = 0;
  std::uint64_t cas_losses = 0;
  Addr cas_addr = 0;
  Pc cas_pc = 0;

 private:
  void grow_local(std::uint64_t need);

  std::vector<std::uint64_t> regs_;
  std::vector<std::uint8_t> local_;
  std::uint64_t local_stride_ = 0;

 public:
  // Per-lane arrays last: the fields the issue stage reads for every warp it looks at (state,
  // simt) then share the object's first cache lines instead of following 832 bytes of these.
  std::uint32_t tid[3][64] = {};
  std::uint8_t carry[64] = {};  // CC.CF of add.cc/addc per lane
};

// The warps of a launch, and the register storage of warps that left, which the warps of
// later CTAs take over: a grid of many CTAs otherwise allocated, faulted in and freed a
// register file per warp (about 4% of vecadd's host time, issue 48).
class WarpTable : public LaunchTable<Warp> {
 public:
  std::vector<std::vector<std::uint64_t>> spare_registers;
};

}  // namespace simtsync::func
