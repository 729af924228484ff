#include "timing/gpu/sync_status.h"

#include <algorithm>
#include <bit>

#include "func/executor.h"
#include "func/program.h"

namespace simtsync::gpu {
namespace {

// A lock word: a global address, or a shared-memory address on its SM (top bit set).
std::uint64_t key(int sm, bool shared, Addr a) {
  return shared ? (std::uint64_t{1} << 63) | (static_cast<std::uint64_t>(sm) << 40) | a : a;
}

bool shared_lane(const func::MemAccess& acc, const func::ExecInst& in, unsigned lane) {
  return in.lock_op != func::IntrinsicOp::kNone ||
         acc.space[lane] == static_cast<std::uint8_t>(ptx::Space::kShared);
}

}  // namespace

class SyncStatus::Observer final : public sm::ISmObserver {
 public:
  Observer(SyncStatus& s, int sm) : s_(s), sm_(sm) {}
  void on_issue(const sm::IssueEvent& e) override { s_.on_issue(sm_, e); }
  void on_memory(const sm::MemoryEvent& e) override { s_.on_memory(sm_, e); }
  void on_warp_exit(const sm::WarpExitEvent& e) override { s_.on_warp_exit(sm_, e); }

 private:
  SyncStatus& s_;
  int sm_;
};

SyncStatus::SyncStatus(unsigned num_sms, unsigned lock_bits)
    : counts_(num_sms),
      sm_owner_(num_sms),
      retry_(num_sms),
      lock_bits_(std::max(1u, lock_bits)),
      bits_used_(num_sms) {
  for (unsigned i = 0; i < num_sms; ++i)
    observers_.push_back(std::make_unique<Observer>(*this, static_cast<int>(i)));
}

SyncStatus::Retry& SyncStatus::retry(int sm, int slot) {
  auto& v = retry_[static_cast<size_t>(sm)];
  if (static_cast<size_t>(slot) >= v.size()) v.resize(static_cast<size_t>(slot) + 1);
  return v[static_cast<size_t>(slot)];
}

void SyncStatus::on_issue(int sm, const sm::IssueEvent& e) {
  if (!e.inst) return;
  const func::ExecInst& in = *e.inst;
  SyncCounts& c = counts_[static_cast<size_t>(sm)];
  auto lanes = [](LaneMask m) { return static_cast<std::uint64_t>(std::popcount(m)); };
  // Lock-retry instructions: lanes in `failed` are retrying; lanes in `pending` wait for the
  // answer to an attempt, which decides whether what they execute meanwhile was a retry.
  Retry& r = retry(sm, e.slot);
  if (r.failed || r.warp_failed || r.pending || r.warp_pending) {
    c.lock_retry_thread_insts += lanes(e.active & r.failed);
    if (r.warp_failed) ++c.lock_retry_warp_insts;
    for (LaneMask m = e.active & r.pending; m; m &= m - 1) ++r.pending_lane[std::countr_zero(m)];
    if (r.warp_pending) ++r.pending_warp;
  }
  if (in.sync_role == func::SyncRole::kLockAttempt && e.active) {
    // This attempt ends the retry of the lanes it runs for; it starts a new pending one.
    r.failed &= ~e.active;
    r.warp_failed = false;
    r.pending = e.active;
    r.warp_pending = true;
    r.pending_warp = 0;
    for (LaneMask m = e.active; m; m &= m - 1) r.pending_lane[std::countr_zero(m)] = 0;
  }
  if (in.sync_role != func::SyncRole::kWaitSib && in.sync_role != func::SyncRole::kWaitExit) return;
  if (in.sync_role == func::SyncRole::kWaitSib) c.wait_fail += lanes(e.active & e.taken);
  if (in.wait_exit_taken) c.wait_success += lanes(e.active & e.taken);
  if (in.wait_exit_fallthrough) c.wait_success += lanes(e.active & ~e.taken);
}

void SyncStatus::on_memory(int sm, const sm::MemoryEvent& e) {
  // Whole instructions only: a reply for part of the lanes is followed by one for all of them.
  if (!e.last || !e.access || !e.inst) return;
  const func::MemAccess& acc = *e.access;
  const func::ExecInst& in = *e.inst;
  // Lock bits used: shared-memory atomics (implicitly), lock-bit operations (explicitly).
  const bool explicit_bits = func::is_lock_bit(in.lock_op);
  if (explicit_bits || in.op == ptx::Opcode::kAtom) {
    auto& used = bits_used_[static_cast<size_t>(sm)];
    SyncCounts& c = counts_[static_cast<size_t>(sm)];
    const std::uint8_t kind = explicit_bits ? 2 : 1;
    for (LaneMask m = e.lanes; m; m &= m - 1) {
      const auto l = static_cast<unsigned>(std::countr_zero(m));
      if (!explicit_bits && acc.space[l] != static_cast<std::uint8_t>(ptx::Space::kShared))
        continue;
      if (used.empty()) used.assign(lock_bits_, 0);
      std::uint8_t& u = used[static_cast<size_t>((acc.addr[l] / 4) % lock_bits_)];
      if (u & kind) continue;
      u |= kind;
      ++(explicit_bits ? c.lock_bits_explicit : c.lock_bits_implicit);
    }
  }
  if (in.sync_role == func::SyncRole::kLockAttempt) {
    SyncCounts& c = counts_[static_cast<size_t>(sm)];
    Retry& r = retry(sm, e.slot);
    if (r.warp_pending) {
      const LaneMask failed = e.lanes & ~e.succeeded & r.pending;
      for (LaneMask m = failed; m; m &= m - 1)
        c.lock_retry_thread_insts += r.pending_lane[std::countr_zero(m)];
      r.failed |= failed;
      r.pending = 0;
      r.warp_pending = false;
      r.warp_failed = e.lanes != 0 && e.succeeded == 0;
      if (r.warp_failed) c.lock_retry_warp_insts += r.pending_warp;
    }
    for (LaneMask m = e.succeeded; m; m &= m - 1) {
      const auto l = static_cast<unsigned>(std::countr_zero(m));
      const bool sh = shared_lane(acc, in, l);
      owners(sm, sh)[key(sm, sh, acc.addr[l])] = {sm, e.slot};
      ++c.lock_success;
    }
    for (LaneMask m = e.lanes & ~e.succeeded; m; m &= m - 1) {
      const auto l = static_cast<unsigned>(std::countr_zero(m));
      const bool sh = shared_lane(acc, in, l);
      const auto& o = owners(sm, sh);
      auto it = o.find(key(sm, sh, acc.addr[l]));
      const bool intra = it != o.end() && it->second.sm == sm && it->second.slot == e.slot;
      ++(intra ? c.lock_fail_intra_warp : c.lock_fail_inter_warp);
    }
    return;
  }
  // Any other write to a held word releases it.
  if (sm_owner_[static_cast<size_t>(sm)].empty() && global_owner_.empty()) return;
  const bool writes = in.op == ptx::Opcode::kSt || in.op == ptx::Opcode::kRed ||
                      in.op == ptx::Opcode::kAtom || in.lock_op == func::IntrinsicOp::kStoreUnlock;
  if (!writes) return;
  for (LaneMask m = e.lanes; m; m &= m - 1) {
    const auto l = static_cast<unsigned>(std::countr_zero(m));
    const bool sh = shared_lane(acc, in, l);
    owners(sm, sh).erase(key(sm, sh, acc.addr[l]));
  }
}

void SyncStatus::on_warp_exit(int sm, const sm::WarpExitEvent& e) {
  retry(sm, e.slot) = Retry{};
}

}  // namespace simtsync::gpu
