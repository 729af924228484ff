#include "timing/mem/lock_queue.h"

#include <algorithm>

namespace simtsync::mem {

LockQueueTable::Admit LockQueueTable::lock(Addr addr, const Packet& p, unsigned lane,
                                           std::uint64_t now) {
  const bool bounded = p_.mode == LockQueueMode::kBounded;
  auto it = table_.find(addr);
  if (it == table_.end()) {
    if (bounded && table_.size() >= p_.queues) {
      ++st_.turned_away;
      return Admit::kTurnedAway;
    }
    table_.emplace(addr, Queue{});
    ++records_;
    ++st_.created;
    ++st_.record_ops;
    st_.peak_queues = std::max<std::uint64_t>(st_.peak_queues, table_.size());
    st_.peak_records = std::max(st_.peak_records, records_);
    return Admit::kProceed;
  }
  Queue& q = it->second;
  const std::size_t length = q.waiting.size() + 2;  // holder, those waiting, this one
  if (bounded && length > p_.records) {
    ++st_.turned_away;
    return Admit::kTurnedAway;
  }
  Packet one = p;
  one.lanes = std::uint64_t{1} << lane;
  one.ops = 1;
  q.waiting.push_back(LockRecord{one, now});
  ++records_;
  ++st_.parked;
  ++st_.record_ops;
  st_.peak_records = std::max(st_.peak_records, records_);
  (length <= 2    ? st_.len_2
   : length <= 4  ? st_.len_3_4
   : length <= 8  ? st_.len_5_8
   : length <= 16 ? st_.len_9_16
   : length <= 32 ? st_.len_17_32
                  : st_.len_33_up)++;
  return Admit::kParked;
}

void LockQueueTable::abandon(Addr addr) {
  auto it = table_.find(addr);
  if (it == table_.end() || !it->second.holder) return;
  // Those parked behind it wait for the real holder's unlock.
  --records_;
  it->second.holder = false;
  if (it->second.waiting.empty()) table_.erase(it);
}

bool LockQueueTable::unlock(Addr addr, std::uint64_t now, LockRecord& next) {
  auto it = table_.find(addr);
  if (it == table_.end()) return false;  // taken outside the table (or never): nothing queued
  Queue& q = it->second;
  if (q.holder) {
    --records_;
    ++st_.record_ops;
  }
  q.holder = true;  // the next record, if any, holds it now
  if (q.waiting.empty()) {
    table_.erase(it);
    return false;
  }
  next = q.waiting.front();
  q.waiting.pop_front();
  ++st_.handovers;
  ++st_.record_ops;
  const std::uint64_t waited = now - next.parked_at;
  st_.wait_cycles += waited;
  st_.max_wait = std::max(st_.max_wait, waited);
  return true;
}

const std::deque<LockRecord>* LockQueueTable::waiting(Addr addr) const {
  auto it = table_.find(addr);
  return it == table_.end() ? nullptr : &it->second.waiting;
}

}  // namespace simtsync::mem
