// The unit of traffic inside the memory hierarchy: one line-sized transaction produced by the
// coalescer from a warp's memory instruction, and the bounded queues the components exchange
// them through. A queue that is full refuses (try_push returns false) and the producer keeps
// the packet and retries: back-pressure travels upstream one component at a time.
#pragma once

#include <cstdint>
#include <algorithm>
#include <vector>

#include "common/types.h"

namespace simtsync::mem {

enum class PacketKind : std::uint8_t { kLoad, kStore, kAtomic };

struct Packet {
  PacketKind kind = PacketKind::kLoad;
  Addr line = 0;              // line address (aligned to the line size of the level it is at)
  std::uint32_t sectors = 0;  // 32-byte sectors of the line it needs (bit per sector)
  std::uint64_t lanes = 0;    // lanes of the warp access it serves
  int sm = 0;
  std::uint32_t req = 0;   // the warp request it belongs to (MemoryHierarchy's table)
  int slice = 0;           // destination L2 slice (AddressMap::slice_of)
  std::uint16_t ops = 0;   // atomics: lane operations it carries
  bool bypass_l1 = false;  // atomics, .volatile, .cg: served at L2
  bool local = false;      // thread-private (local) space
  bool grant = false;      // a queued lock request the lock was handed to (lock_queue.h)
  // A lock-queue record access the partition makes itself (never leaves it): 1 a record write,
  // 2 the record read of a hand-over (req: the hand-over's token).
  std::uint8_t internal = 0;
  std::uint8_t origin = 0;  // internal: the slice's unit that made it (its index there)
  std::uint8_t fill = 0;   // 1: the fill of an L1 miss, 2: of a constant-cache miss
  std::uint8_t level = 0;  // where it was served: 0 L1, 1 L2, 2 DRAM (statistics)
  // A load whose lanes already read memory: a write to its line was about to pass it while it
  // waited for a fill, and a load never sees a write that came after it (read_before_write).
  bool performed = false;
  Cycle born = 0;          // core cycle it left the coalescer (latency statistics)
  std::uint64_t data_bytes(unsigned sector_bytes) const {
    return static_cast<std::uint64_t>(__builtin_popcount(sectors)) * sector_bytes;
  }
};

// A FIFO with a capacity; the building block of every port between two components. A ring
// buffer that grows (doubling, up to the capacity) as it first fills, then never allocates
// again (issue 48: it was a std::deque, which allocates and frees blocks as it moves).
template <class T>
class BoundedQueue {
 public:
  explicit BoundedQueue(std::size_t capacity = 1) : cap_(capacity ? capacity : 1) {}
  bool full() const { return n_ >= cap_; }
  bool empty() const { return n_ == 0; }
  std::size_t size() const { return n_; }
  std::size_t capacity() const { return cap_; }
  bool try_push(const T& v) {
    if (full()) return false;
    if (n_ == buf_.size()) grow();
    std::size_t at = head_ + n_;
    if (at >= buf_.size()) at -= buf_.size();
    buf_[at] = v;
    ++n_;
    return true;
  }
  T& front() { return buf_[head_]; }
  const T& front() const { return buf_[head_]; }
  void pop() {
    if (++head_ == buf_.size()) head_ = 0;
    --n_;
  }

 private:
  void grow() {
    std::vector<T> next(std::min(cap_, std::max<std::size_t>(8, 2 * buf_.size())));
    for (std::size_t i = 0; i < n_; ++i) next[i] = buf_[(head_ + i) % buf_.size()];
    buf_.swap(next);
    head_ = 0;
  }
  std::size_t cap_;
  std::vector<T> buf_;
  std::size_t head_ = 0, n_ = 0;
};

// A fixed-latency pipeline inside one clock domain: items leave in order once their ready time
// has come. Bounded like a queue (its capacity is the pipeline's depth in items).
template <class T>
class DelayPipe {
 public:
  explicit DelayPipe(std::size_t capacity = 1) : q_(capacity) {}
  bool full() const { return q_.full(); }
  bool empty() const { return q_.empty(); }
  std::size_t size() const { return q_.size(); }
  bool try_push(const T& v, std::uint64_t ready) { return q_.try_push({ready, v}); }
  bool ready(std::uint64_t now) const { return !q_.empty() && q_.front().at <= now; }
  std::uint64_t next_ready() const { return q_.front().at; }
  T& front() { return q_.front().v; }
  void pop() { q_.pop(); }

 private:
  struct Item {
    std::uint64_t at;
    T v;
  };
  BoundedQueue<Item> q_;
};

}  // namespace simtsync::mem
