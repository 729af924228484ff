#include "timing/gpu/sync_status.h"

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

 private:
  SyncStatus& s_;
  int sm_;
};

SyncStatus::SyncStatus(unsigned num_sms) : counts_(num_sms), sm_owner_(num_sms) {
  for (unsigned i = 0; i < num_sms; ++i)
    observers_.push_back(std::make_unique<Observer>(*this, static_cast<int>(i)));
}

void SyncStatus::on_issue(int sm, const sm::IssueEvent& e) {
  if (!e.inst) return;
  const func::ExecInst& in = *e.inst;
  if (in.sync_role != func::SyncRole::kWaitSib && in.sync_role != func::SyncRole::kWaitExit) return;
  SyncCounts& c = counts_[static_cast<size_t>(sm)];
  auto lanes = [](LaneMask m) { return static_cast<std::uint64_t>(std::popcount(m)); };
  if (in.sync_role == func::SyncRole::kWaitSib) c.wait_fail += lanes(e.active & e.taken);
  if (in.wait_exit_taken) c.wait_success += lanes(e.active & e.taken);
  if (in.wait_exit_fallthrough) c.wait_success += lanes(e.active & ~e.taken);
}

void SyncStatus::on_memory(int sm, const sm::MemoryEvent& e) {
  // Whole instructions only: a reply for part of the lanes is followed by one for all of them.
  if (!e.last || !e.access || !e.inst) return;
  const func::MemAccess& acc = *e.access;
  const func::ExecInst& in = *e.inst;
  if (in.sync_role == func::SyncRole::kLockAttempt) {
    SyncCounts& c = counts_[static_cast<size_t>(sm)];
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

}  // namespace simtsync::gpu
