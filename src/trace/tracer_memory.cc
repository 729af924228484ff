// The tracer's memory-side part (issue 49): the atomic units' occupancy counters and the lock
// queues' waiters and hand-overs, heard from the serial memory phase (IAtomicObserver).
#include <fmt/format.h>

#include <algorithm>
#include <mutex>

#include "trace/tracer.h"
#include "trace/track_ids.h"

namespace simtsync::trace {

// --- atomic units and lock queues (the serial memory phase) ----------------------------------

void Tracer::occupancy_to(unsigned slice, Cycle now) {
  if (slice >= atomics_.size()) atomics_.resize(slice + 1);
  Occupancy& o = atomics_[slice];
  const Cycle period = o_.counter_period;
  if (!o.any) {
    o.any = true;
    o.at = now;
    o.bucket = now / period;
    return;
  }
  while (o.at < now) {
    const Cycle edge = (o.bucket + 1) * period;
    const Cycle to = std::min(now, edge);
    o.sum_w += static_cast<double>(o.waiting) * static_cast<double>(to - o.at);
    o.sum_r += static_cast<double>(o.replying) * static_cast<double>(to - o.at);
    o.at = to;
    if (to == edge) {
      flush_occupancy(slice, o, period);
      ++o.bucket;
      // A long stretch without change: one period for it, then straight to `now`.
      if (now / period > o.bucket + 1) {
        o.sum_w = static_cast<double>(o.waiting) * static_cast<double>(period);
        o.sum_r = static_cast<double>(o.replying) * static_cast<double>(period);
        flush_occupancy(slice, o, period);
        o.bucket = now / period;
        o.at = o.bucket * period;
      }
    }
  }
}

void Tracer::flush_occupancy(unsigned slice, Occupancy& o, Cycle len) {
  const Cycle ts = o.bucket * o_.counter_period;
  len = std::max<Cycle>(1, len);
  const double w = o.sum_w / static_cast<double>(len), r = o.sum_r / static_cast<double>(len);
  o.sum_w = o.sum_r = 0;
  if (ts < o_.window_start || ts >= o_.window_end) return;
  if (w != o.shown_w)
    emit_gpu(fmt::format(
        "{{\"ph\":\"C\",\"pid\":0,\"tid\":0,\"ts\":{},\"name\":\"atomic waiting slice {}\","
        "\"args\":{{\"packets\":{:.3f}}}}}",
        ts, slice, w));
  if (r != o.shown_r)
    emit_gpu(fmt::format(
        "{{\"ph\":\"C\",\"pid\":0,\"tid\":0,\"ts\":{},\"name\":\"atomic replying slice {}\","
        "\"args\":{{\"packets\":{:.3f}}}}}",
        ts, slice, r));
  o.shown_w = w;
  o.shown_r = r;
}

void Tracer::atomic_occupancy(unsigned slice, std::size_t waiting, std::size_t replying) {
  if (!hier_) return;
  occupancy_to(slice, start_ + hier_->core_now());
  atomics_[slice].waiting = waiting;
  atomics_[slice].replying = replying;
}

// The queue's content since q.since ends at `now`: one span listing who waited.
void Tracer::queue_span(Addr addr, LockQueue& q, Cycle now) {
  if (q.track < 0) {
    q.track = queue_tracks_++;
    if (!named_locks_) {
      named_locks_ = true;
      emit_gpu(fmt::format(
          "{{\"ph\":\"M\",\"pid\":{},\"tid\":0,\"name\":\"process_name\",\"args\":{{\"name\":"
          "\"locks\"}}}}",
          kLockPid));
    }
    emit_gpu(fmt::format(
        "{{\"ph\":\"M\",\"pid\":{},\"tid\":{},\"name\":\"thread_name\",\"args\":{{\"name\":"
        "\"lock {:#x} queue\"}}}}",
        kLockPid, kQueueTid + q.track, addr));
  }
  if (!q.waiting.empty() && now > q.since && in_window(q.since, now)) {
    const Cycle a = std::max(q.since, o_.window_start), z = std::min(now, o_.window_end);
    std::string who;
    constexpr std::size_t kListed = 16;
    for (std::size_t i = 0; i < q.waiting.size() && i < kListed; ++i) {
      const Waiter& w = q.waiting[i];
      who += fmt::format("{}\"SM {} slot {} CTA {} warp {} lane {} since {}\"", i ? "," : "", w.sm,
                         w.slot, w.cta, w.warp, w.lane, w.since);
    }
    emit_gpu(fmt::format(
        "{{\"ph\":\"X\",\"pid\":{},\"tid\":{},\"ts\":{},\"dur\":{},\"name\":\"{} queued\","
        "\"cat\":\"lockq\",\"args\":{{\"addr\":\"{:#x}\",\"queued\":{},\"waiters\":[{}]}}}}",
        kLockPid, kQueueTid + q.track, a, z - a, q.waiting.size(), addr, q.waiting.size(), who));
  }
  q.since = now;
}

void Tracer::lock_parked(unsigned slice, Addr addr, const mem::Packet& p, unsigned lane) {
  (void)slice;
  if (!hier_) return;
  const Cycle now = start_ + hier_->core_now();
  LockQueue& q = queues_[addr];
  queue_span(addr, q, now);
  q.waiting.push_back(waiter(p, lane, now));
  // A word with requests parked behind its holder is contended: its holds are drawn.
  std::lock_guard<std::mutex> g(lock_mu_);
  if (auto it = owners_.find(addr); it != owners_.end()) ++it->second.queued;
}

void Tracer::lock_handed(unsigned slice, Addr addr, const mem::Packet& next) {
  (void)slice;
  if (!hier_) return;
  const Cycle now = start_ + hier_->core_now();
  LockQueue& q = queues_[addr];
  queue_span(addr, q, now);
  const int slot = hier_->warp_slot_of(next);
  const auto lane = static_cast<unsigned>(std::countr_zero(next.lanes));
  Waiter to = waiter(next, lane, now);
  auto it = std::find_if(q.waiting.begin(), q.waiting.end(), [&](const Waiter& w) {
    return w.sm == next.sm && w.slot == slot && w.lane == lane;
  });
  if (it != q.waiting.end()) {
    to = *it;
    q.waiting.erase(it);
  }
  if (now >= o_.window_start && now < o_.window_end)
    emit_gpu(fmt::format(
        "{{\"ph\":\"i\",\"s\":\"t\",\"pid\":{},\"tid\":{},\"ts\":{},\"name\":\"hand-over\","
        "\"cat\":\"lockq\",\"args\":{{\"addr\":\"{:#x}\",\"to\":\"SM {} slot {} CTA {} warp {} "
        "lane {}\",\"waited\":{},\"left\":{}}}}}",
        kLockPid, kQueueTid + q.track, now, addr, to.sm, to.slot, to.cta, to.warp, to.lane,
        now - to.since, q.waiting.size()));
}

}  // namespace simtsync::trace
