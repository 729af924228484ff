#include "timing/mem/atomic_unit.h"

#include <algorithm>
#include <bit>

namespace simtsync::mem {

AtomicUnit::AtomicUnit(const AtomicParams& p, IAtomicLanes& lanes)
    : p_(p), lanes_(lanes), queue_(std::max(1u, p.queue)), out_(std::max(1u, p.queue)) {
  p_.ops_per_cycle = std::max(1u, p_.ops_per_cycle);
}

bool AtomicUnit::push(const Packet& p, std::uint64_t now) {
  if (!queue_.try_push(Item{p, now, p.lanes})) {
    ++stats_.queue_refusals;
    return false;
  }
  stats_.max_queue = std::max<std::uint64_t>(stats_.max_queue, queue_.size());
  return true;
}

void AtomicUnit::tick(std::uint64_t now) {
  unsigned budget = p_.ops_per_cycle;
  while (budget > 0 && !queue_.empty()) {
    Item& it = queue_.front();
    if (!head_started_) {
      stats_.queue_wait_cycles += now - it.arrived;
      head_started_ = true;
    }
    if (it.remaining == 0) {
      // An atomic packet without lanes (cannot happen from the coalescer) still replies.
      if (out_.full()) break;
    } else {
      const auto lane = static_cast<unsigned>(std::countr_zero(it.remaining));
      const Addr a = lanes_.lane_address(it.p, lane);
      auto f = addr_free_.find(a);
      if (f != addr_free_.end() && f->second > now) {
        ++stats_.address_stall_cycles;
        break;
      }
      if (it.remaining == (std::uint64_t{1} << lane) && out_.full()) break;  // no room to reply
      lanes_.perform_lane(it.p, lane);
      addr_free_[a] = now + p_.same_address_interval;
      it.remaining &= it.remaining - 1;
      ++stats_.ops;
      --budget;
      if (it.remaining != 0) continue;
    }
    out_.try_push(it.p, now + p_.latency);
    ++stats_.packets;
    queue_.pop();
    head_started_ = false;
  }
  // Forget addresses whose interval is over (bounded memory on long runs).
  if (now - last_prune_ >= 4096) {
    last_prune_ = now;
    std::erase_if(addr_free_, [now](const auto& kv) { return kv.second <= now; });
  }
}

}  // namespace simtsync::mem
