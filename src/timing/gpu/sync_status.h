// Synchronization status (seed 000 Fig. 2 and 12), with stats.sync_status: every lock acquire
// attempt ends in success, an intra-warp failure (the lock is held by a thread of the same warp)
// or an inter-warp failure (held by another warp, or by nobody we saw take it); every wait-exit
// attempt in success or failure.
//
// What counts, from the spin-loop marks the decoder turns into ExecInst::sync_role:
//  - A lock acquire attempt is one lane of a compare-and-swap (or a lock-bit load, seed 001's
//    LDSLK) inside a marked busy-wait loop, or of the first attempt nvcc peels out of a rotated
//    lock loop (Program::fill_spin_marks), counted when the instruction completes for every
//    lane (its MemoryEvent); success = the lanes whose swap happened / bit was taken.
//  - The owner of a lock is the warp (SM, slot) whose lane last took it: a successful attempt
//    makes it the owner of the word (global address; shared address on its SM; for lock bits,
//    the bit the address maps to), and any later write to the word that is not an attempt (an
//    exchange, a store, a reduction, an unlocking store) releases it. Within one instruction the
//    successful lanes are taken first, so a lane that loses to a lane of its own warp fails
//    intra-warp. Owners change when replies arrive, not when the atomic unit performs the
//    operation: a failure is charged to the owner at reply time.
//  - In a marked loop that holds no lock attempt (a wait loop: BH-ST's wait for a start index,
//    NW's tokens, flag waits), a wait-exit attempt fails for every lane that takes the loop's
//    spin-inducing branch (it goes round again) and succeeds for every lane that leaves the
//    loop through one of its exiting branches (ExecInst::wait_exit_*; where the SIB is also the
//    exit, its lanes that do not take it).
//  - Lock-retry instructions (seed 000 Fig. 16b's "ideal block instruction count": the count if
//    every lock were acquired on its first attempt, a proxy for an ideal queuing lock). A lane
//    whose lock attempt failed spends every instruction it executes from that attempt up to and
//    including its next attempt on a retry that an ideal lock would not need; so do the
//    instructions it executed between issuing the failed attempt and the attempt's reply. Summed
//    over lanes: lock_retry_thread_insts, so thread instructions minus it is the ideal thread
//    instruction count. In warp instructions (lock_retry_warp_insts) an instruction is a retry
//    only when the warp's last attempt took no lock for any of its lanes (a lane that took one
//    makes the warp's pass useful): a lower bound on the warp instructions an ideal lock saves,
//    since a pass where some lanes took their lock and others failed counts as useful.
//  - Lock bits used (seed 001 Table 1's "Lock Bit Used"): the distinct lock bits of an SM's
//    shared-memory lock unit (word address modulo sm.shared.lock_bits, as the shared memory
//    maps them) that its shared-memory atomics used implicitly (Fermi performs them as a
//    LDSLK/STSUL loop) or its lock-bit operations (LDSLK, STSUL, the tiny-lock intrinsics)
//    used explicitly; the GPU figure is the largest of any SM.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "common/stat_table.h"
#include "timing/sched/events.h"

namespace simtsync::gpu {

// Per SM, lanes: lock acquire attempts by outcome, wait-exit attempts by outcome.
struct SyncCounts {
  std::uint64_t lock_success = 0, lock_fail_intra_warp = 0, lock_fail_inter_warp = 0;
  std::uint64_t wait_success = 0, wait_fail = 0;
  std::uint64_t lock_retry_warp_insts = 0, lock_retry_thread_insts = 0;
  std::uint64_t lock_bits_implicit = 0, lock_bits_explicit = 0;
};

// stats.gpu.sync_status (and per SM, stats.gpu.sm[i].sync_status); the table shows "sync.*".
inline constexpr StatField<SyncCounts> kSyncStatFields[] = {
    SIMTSYNC_STAT_SHOWN(SyncCounts, lock_success, "lock acquire attempts that took the lock"),
    SIMTSYNC_STAT(SyncCounts, lock_fail_intra_warp,
                  "lock acquire attempts that failed: held by a thread of the same warp"),
    SIMTSYNC_STAT(SyncCounts, lock_fail_inter_warp,
                  "lock acquire attempts that failed: held by another warp"),
    SIMTSYNC_STAT(SyncCounts, wait_success, "wait-exit attempts that left the wait loop"),
    SIMTSYNC_STAT(SyncCounts, wait_fail, "wait-exit attempts that went round again"),
    SIMTSYNC_STAT(SyncCounts, lock_retry_warp_insts,
                  "warp instructions from a lock attempt that failed for every lane of the warp "
                  "up to and including its next attempt (seed 000 Fig. 16b)"),
    SIMTSYNC_STAT(SyncCounts, lock_retry_thread_insts,
                  "thread instructions from a lane's failed lock attempt up to and including its "
                  "next attempt: thread instructions minus this = every lock on its first try"),
    SIMTSYNC_STAT_MAX(SyncCounts, lock_bits_implicit,
                      "distinct lock bits an SM's shared-memory atomics used (most of any SM)"),
    SIMTSYNC_STAT_MAX(SyncCounts, lock_bits_explicit,
                      "distinct lock bits an SM's lock-bit operations used (most of any SM)"),
};
inline constexpr StatDerived<SyncCounts> kSyncDerived[] = {
    {"lock_attempts", "lock acquire attempts (lanes), every outcome",
     [](const SyncCounts& c) {
       return static_cast<double>(c.lock_success + c.lock_fail_intra_warp + c.lock_fail_inter_warp);
     },
     StatShow::kCount},
    {"lock_fail_rate", "failed lock acquire attempts / attempts",
     [](const SyncCounts& c) {
       return stat_ratio(c.lock_fail_intra_warp + c.lock_fail_inter_warp,
                         c.lock_success + c.lock_fail_intra_warp + c.lock_fail_inter_warp);
     },
     StatShow::kFixed3},
    {"wait_attempts", "wait-exit attempts (lanes), every outcome",
     [](const SyncCounts& c) { return static_cast<double>(c.wait_success + c.wait_fail); },
     StatShow::kCount},
    {"wait_fail_rate", "wait-exit attempts that went round again / attempts",
     [](const SyncCounts& c) { return stat_ratio(c.wait_fail, c.wait_success + c.wait_fail); },
     StatShow::kFixed3},
};

class SyncStatus {
 public:
  // `lock_bits`: the lock bits of an SM's shared memory (sm.shared.lock_bits).
  explicit SyncStatus(unsigned num_sms, unsigned lock_bits = 1024);
  // The observer to subscribe to SM `sm`'s event bus.
  sm::ISmObserver* observer(int sm) { return observers_[static_cast<size_t>(sm)].get(); }
  const SyncCounts& counts(int sm) const { return counts_[static_cast<size_t>(sm)]; }

 private:
  class Observer;
  struct Owner {
    int sm = -1, slot = -1;
  };
  void on_issue(int sm, const sm::IssueEvent& e);
  void on_memory(int sm, const sm::MemoryEvent& e);
  void on_warp_exit(int sm, const sm::WarpExitEvent& e);

  // Per warp slot: the lock-retry accounting (see the top of the file).
  struct Retry {
    LaneMask failed = 0;       // lanes whose last attempt failed and that have not attempted since
    LaneMask pending = 0;      // lanes whose last attempt has been issued but not answered
    bool warp_failed = false;  // the warp's last answered attempt took no lock for any lane
    bool warp_pending = false;
    std::uint64_t pending_warp = 0;                // warp instructions since the pending attempt
    std::array<std::uint32_t, 64> pending_lane{};  // per lane, the same
  };
  Retry& retry(int sm, int slot);

  std::vector<std::unique_ptr<sm::ISmObserver>> observers_;
  std::vector<SyncCounts> counts_;
  // Lock word -> its owner. Shared-memory words (and lock-intrinsic words, keyed per SM) in one
  // map per SM, which only that SM's events touch (some in a parallel SM phase); global words in
  // one map, which only memory responses touch (serially).
  std::unordered_map<std::uint64_t, Owner>& owners(int sm, bool shared) {
    return shared ? sm_owner_[static_cast<size_t>(sm)] : global_owner_;
  }
  std::vector<std::unordered_map<std::uint64_t, Owner>> sm_owner_;
  std::unordered_map<std::uint64_t, Owner> global_owner_;
  std::vector<std::vector<Retry>> retry_;  // per SM, per warp slot
  unsigned lock_bits_;
  std::vector<std::vector<std::uint8_t>>
      bits_used_;  // per SM, per lock bit: 1 implicit, 2 explicit
};

}  // namespace simtsync::gpu
