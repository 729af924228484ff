#include "timing/mem/lock_queue.h"

#include <algorithm>

namespace simtsync::mem {

std::uint32_t LockQueueTable::new_slot() {
  if (free_slots_.empty()) return next_slot_++;
  const std::uint32_t s = free_slots_.back();
  free_slots_.pop_back();
  return s;
}

LockQueueTable::Admit LockQueueTable::lock(Addr addr, const Packet& p, unsigned lane,
                                           std::uint64_t now, std::vector<RecordOp>* ops) {
  const bool bounded = p_.mode == LockQueueMode::kBounded;
  auto it = table_.find(addr);
  if (it == table_.end()) {
    if (bounded && table_.size() >= p_.queues) {
      ++st_.turned_away;
      return Admit::kTurnedAway;
    }
    Queue q;
    q.holder_slot = new_slot();
    if (ops) ops->push_back({slot_addr(q.holder_slot), true});
    table_.emplace(addr, q);
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
  // The new record, and the next pointer of the record before it (the tail, or the holder).
  const std::uint32_t tail = q.waiting.empty() ? q.holder_slot : q.waiting.back().slot;
  q.waiting.push_back(LockRecord{one, now, new_slot()});
  if (ops) {
    ops->push_back({slot_addr(q.waiting.back().slot), true});
    ops->push_back({slot_addr(tail), true});
  }
  ++records_;
  ++st_.parked;
  st_.record_ops += 2;
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
  free_slot(it->second.holder_slot);
  if (it->second.waiting.empty()) table_.erase(it);
}

bool LockQueueTable::unlock(Addr addr, std::uint64_t now, LockRecord& next,
                            std::vector<RecordOp>* ops) {
  auto it = table_.find(addr);
  if (it == table_.end()) return false;  // taken outside the table (or never): nothing queued
  Queue& q = it->second;
  if (q.holder) {
    --records_;
    free_slot(q.holder_slot);
  }
  q.holder = true;  // the next record, if any, holds it now
  if (q.waiting.empty()) {
    table_.erase(it);
    return false;
  }
  next = q.waiting.front();
  q.waiting.pop_front();
  q.holder_slot = next.slot;
  if (ops) ops->push_back({slot_addr(next.slot), false});  // the hand-over reads it
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

// --- the memory-side unit `lock_queue` (mem_units.def) -------------------------------------------

namespace {

class LockQueueUnit final : public IMemUnit, public ILockArbiter {
 public:
  explicit LockQueueUnit(const LockQueueParams& p) : p_(p), table_(p) {}
  unsigned intercepts() const override { return kInterceptLockRequests; }
  ILockArbiter* lock_arbiter() override { return this; }
  Admit lock(Addr addr, const Packet& p, unsigned lane, std::uint64_t now,
             std::vector<RecordOp>* ops) override {
    return table_.lock(addr, p, lane, now, ops);
  }
  void abandon(Addr addr) override { table_.abandon(addr); }
  bool unlock(Addr addr, std::uint64_t now, Packet& next, std::vector<RecordOp>* ops) override {
    LockRecord r;
    if (!table_.unlock(addr, now, r, ops)) return false;
    next = r.p;
    return true;
  }
  bool records_in_memory() const override { return p_.mode == LockQueueMode::kBounded; }
  unsigned backoff() const override { return p_.backoff; }
  void collect(std::span<std::uint64_t> out) const override {
    collect_stats<LockQueueStats>(table_.stats(), kLockQueueStatFields, out);
  }

 private:
  LockQueueParams p_;
  LockQueueTable table_;
};

}  // namespace

std::unique_ptr<IMemUnit> make_lock_queue(const MemUnitContext&, const config::PluginParams& k) {
  const std::string& m = k.get_string("mode");
  if (m == "off") return nullptr;
  LockQueueParams p;
  p.mode = m == "ideal" ? LockQueueMode::kIdeal : LockQueueMode::kBounded;
  p.queues = static_cast<unsigned>(k.get_int("queues"));
  p.records = static_cast<unsigned>(k.get_int("records"));
  p.backoff = static_cast<unsigned>(k.get_int("backoff"));
  return std::make_unique<LockQueueUnit>(p);
}

void declare_lock_queue(config::PluginDecl& d) {
  d.add_choice("mode", "off", {"off", "ideal", "bounded"},
               "Lock queuing in the memory partitions for lock instructions (simtsync_lock): "
               "a request for a held lock waits in a queue and gets the lock when it is "
               "released, instead of failing and being retried. `ideal`: unbounded, free "
               "queues (the thesis's model); `bounded`: mem.lock_queue.queues queues of "
               "mem.lock_queue.records records per partition, requests that find no room are "
               "turned away and back off, and queue records are read and written through "
               "the partition's L2 slice (and DRAM on a miss)",
               "seed 004 sec. 5.2.1, 6.3 (ideal); sec. 9.2.1 (bounded, future work)")
      .add_int("queues", 64, 1, 1 << 20, "Bounded lock queuing: queues (lock words) per L2 slice",
               "estimate")
      .add_int("records", 32, 2, 1 << 20,
               "Bounded lock queuing: records per queue, the holder's included", "estimate")
      .add_int("backoff", 100, 0, 1000000,
               "Bounded lock queuing: L2 cycles a turned-away request's failure reply waits "
               "before it leaves (the warp backs off before retrying)",
               "estimate");
  declare_stats<LockQueueStats>(d, kLockQueueStatFields);
  d.ratio("avg_wait", "wait_cycles", "handovers",
          "L2 cycles a parked request waited for its lock, on average", StatShow::kFixed1);
}

}  // namespace simtsync::mem
