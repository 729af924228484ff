// Lock queuing in a memory partition (seed 004 sec. 5.2.1, 6.3; memory-side unit `lock_queue`,
// the lock arbiter of each slice's atomic unit): a table of queues, one per
// held lock word, each a list of lock requests (records) with the holder's at its head. A lock
// request for a word without a queue creates one and proceeds (its compare-and-swap takes the
// lock); one for a word with a queue parks at its tail instead of failing and being retried. An
// unlock pops the head and hands the lock to the next record, which re-enters the atomic unit
// with priority over new requests.
//
// Two variants (mem.lock_queue.mode):
// - ideal: unbounded queues whose operations are free (the thesis's model, sec. 5.2.1);
// - bounded: at most `queues` queues of `records` records per partition (the thesis's future
//   work, sec. 9.2.1). A request that finds no room is turned away: it performs as an ordinary
//   compare-and-swap (it fails on a held lock) and its reply leaves `backoff` L2 cycles later,
//   so the warp retries after backing off. Records are kept in memory (kRecordBase): the table
//   reports each record write (a new record, the old tail's next pointer) and the record read
//   of a hand-over as a RecordOp, and the atomic unit sends them through the L2 slice; the
//   hand-over waits for its read.
#pragma once

#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

#include "common/stat_table.h"
#include "common/types.h"
#include "timing/mem/i_mem_unit.h"
#include "timing/mem/mem_params.h"
#include "timing/mem/packet.h"

namespace simtsync::mem {

struct LockQueueStats {
  std::uint64_t created = 0;      // queues created (a free lock taken through the table)
  std::uint64_t parked = 0;       // requests parked behind a holder
  std::uint64_t handovers = 0;    // locks passed to the next record by an unlock
  std::uint64_t turned_away = 0;  // bounded: requests refused for want of room
  std::uint64_t wait_cycles = 0;  // L2 cycles parked requests waited, summed
  std::uint64_t max_wait = 0;     // longest wait of one request, L2 cycles
  std::uint64_t record_ops = 0;   // record reads and writes (bounded: memory traffic)
  // Queue length (records, the holder's included) seen by each parked request when it parked.
  std::uint64_t len_2 = 0, len_3_4 = 0, len_5_8 = 0, len_9_16 = 0, len_17_32 = 0, len_33_up = 0;
  std::uint64_t peak_queues = 0;   // most queues live at once in one partition
  std::uint64_t peak_records = 0;  // most records live at once in one partition
};

#define S(f, d) SIMTSYNC_STAT(LockQueueStats, f, d)
inline constexpr StatField<LockQueueStats> kLockQueueStatFields[] = {
    S(created, "lock queues created (a free lock taken through the table)"),
    S(parked, "lock requests parked behind a holder instead of failing"),
    S(handovers, "locks an unlock passed to the next parked request"),
    S(turned_away, "lock requests turned away by a full bounded table (they retry)"),
    S(wait_cycles, "L2 cycles parked requests waited, summed"),
    SIMTSYNC_STAT_MAX(LockQueueStats, max_wait, "longest wait of one parked request, L2 cycles"),
    S(record_ops, "queue record reads and writes"),
    S(len_2, "parked requests that found the queue at length 2 (holder and itself)"),
    S(len_3_4, "... at length 3-4"),
    S(len_5_8, "... at length 5-8"),
    S(len_9_16, "... at length 9-16"),
    S(len_17_32, "... at length 17-32"),
    S(len_33_up, "... at length 33 or more"),
    SIMTSYNC_STAT_MAX(LockQueueStats, peak_queues, "most lock queues live at once in a partition"),
    SIMTSYNC_STAT_MAX(LockQueueStats, peak_records,
                      "most queue records live at once in a partition (holders included)"),
};
#undef S

// A parked request: one lane of a lock packet.
struct LockRecord {
  Packet p;  // the lane's packet (lanes: that lane only)
  std::uint64_t parked_at = 0;
  std::uint32_t slot = 0;  // its record in memory (address kRecordBase + 8 x slot)
};

// Queue records live in a region of memory of their own (8 bytes each: a thread id and a next
// pointer), cached in the partition's L2 slice.
inline constexpr Addr kRecordBase = Addr{1} << 58;

class LockQueueTable {
 public:
  explicit LockQueueTable(const LockQueueParams& p) : p_(p) {}

  using Admit = ILockArbiter::Admit;
  // A lock request for `addr` from lane `lane` of `p`. The record writes it makes are appended
  // to `ops` (when not null): the new record, and the old tail's next pointer when it parks.
  Admit lock(Addr addr, const Packet& p, unsigned lane, std::uint64_t now,
             std::vector<RecordOp>* ops = nullptr);
  // The proceeding request's compare-and-swap failed (the word was held outside the table,
  // e.g. by an ordinary atomic): its record leaves the queue.
  void abandon(Addr addr);
  // An unlock of `addr`: pops the holder; when a record waits, it becomes the holder and is
  // returned in `next` (true), to re-enter the atomic unit once its record has been read (the
  // read is appended to `ops`).
  bool unlock(Addr addr, std::uint64_t now, LockRecord& next, std::vector<RecordOp>* ops = nullptr);

  bool empty() const { return table_.empty(); }
  std::size_t queues() const { return table_.size(); }
  const LockQueueStats& stats() const { return st_; }
  // The records parked for `addr` (tests, reports).
  const std::deque<LockRecord>* waiting(Addr addr) const;

 private:
  struct Queue {
    std::deque<LockRecord> waiting;  // behind the holder, in arrival order
    bool holder = true;  // the holder has a record (false: it took the word outside the table)
    std::uint32_t holder_slot = 0;
  };
  std::uint32_t new_slot();
  void free_slot(std::uint32_t s) { free_slots_.push_back(s); }
  static Addr slot_addr(std::uint32_t s) { return kRecordBase + Addr{8} * s; }
  LockQueueParams p_;
  std::vector<std::uint32_t> free_slots_;
  std::uint32_t next_slot_ = 0;
  std::unordered_map<Addr, Queue> table_;
  std::uint64_t records_ = 0;  // live records, holders included
  LockQueueStats st_;
};

}  // namespace simtsync::mem
