#include "timing/mem/dram.h"

#include <algorithm>

namespace simtsync::mem {

DramChannel::DramChannel(const DramParams& p, unsigned slices)
    : p_(p), returned_(std::max(1u, slices)) {
  p_.banks = std::max(1u, p_.banks);
  p_.row_bytes = std::max(1u, p_.row_bytes);
  p_.queue = std::max(1u, p_.queue);
  p_.data_rate = std::max(1u, p_.data_rate);
  p_.burst_length = std::max(1u, p_.burst_length);
  p_.bus_bytes = std::max(1u, p_.bus_bytes);
  banks_.resize(p_.banks);
}

bool DramChannel::busy() const {
  if (!queue_.empty() || !done_.empty()) return true;
  for (const auto& r : returned_)
    if (!r.empty()) return true;
  return false;
}

std::uint64_t DramChannel::next_tick(std::uint64_t next) const {
  std::uint64_t t = ~std::uint64_t{0};
  if (!done_.empty()) t = done_.front().at + p_.latency;  // done_ is in bus order
  if (!queue_.empty()) {
    if (p_.fr_fcfs) {
      for (const Req& r : queue_) t = std::min(t, banks_[r.bank].next);
    } else {
      t = std::min(t, banks_[queue_.front().bank].next);
    }
  }
  return t == ~std::uint64_t{0} ? t : std::max(t, next);
}

unsigned DramChannel::bank_of(Addr local) const {
  // Rows of consecutive addresses rotate over the banks; XOR with the row spreads strided
  // patterns that would otherwise hit one bank.
  const Addr chunk = local / p_.row_bytes;
  return static_cast<unsigned>((chunk ^ row_of(local)) % p_.banks);
}

bool DramChannel::push(const Packet& p, Addr local, unsigned bytes, bool write) {
  if (!can_accept()) {
    ++stats_.queue_refusals;
    return false;
  }
  queue_.push_back(Req{p, bank_of(local), row_of(local), bytes, write, now_});
  return true;
}

void DramChannel::issue(std::size_t i, std::uint64_t now) {
  Req r = queue_[i];
  queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(i));
  Bank& b = banks_[r.bank];
  std::uint64_t t = now;
  if (b.open && b.row == r.row) {
    ++stats_.row_hits;
  } else {
    ++stats_.row_misses;
    if (b.open) {
      t = std::max(t, b.act + p_.tRAS) + p_.tRP;  // precharge, then wait tRP
      ++stats_.precharges;
    }
    if (b.activated) t = std::max(t, b.act + p_.tRC);
    if (any_act_) t = std::max(t, last_act_ + p_.tRRD);
    b.act = last_act_ = t;
    b.activated = any_act_ = true;
    b.open = true;
    b.row = r.row;
    t += p_.tRCD;
  }
  if (last_col_ || stats_.reads || stats_.writes) t = std::max(t, last_col_ + p_.tCCD);
  last_col_ = t;
  b.next = t;
  const std::uint64_t beat_bytes = std::uint64_t{p_.bus_bytes} * p_.burst_length;
  const std::uint64_t bursts = std::max<std::uint64_t>(1, (r.bytes + beat_bytes - 1) / beat_bytes);
  const std::uint64_t burst_cycles = std::max(1u, p_.burst_length / p_.data_rate);
  const std::uint64_t start = std::max(t + (r.write ? p_.tWL : p_.tCL), bus_free_);
  bus_free_ = start + bursts * burst_cycles;
  stats_.bus_busy_cycles += bursts * burst_cycles;
  (r.write ? stats_.write_bytes : stats_.read_bytes) += bursts * beat_bytes;
  if (r.write) {
    ++stats_.writes;
  } else {
    ++stats_.reads;
    stats_.latency_sum += bus_free_ - r.arrived;
    done_.push_back(Done{bus_free_, r.p});
  }
}

bool DramChannel::tick(std::uint64_t now) {
  now_ = now;
  ++stats_.cycles;
  bool returned = false;
  while (!done_.empty() && done_.front().at + p_.latency <= now) {
    const Packet& p = done_.front().p;
    returned_[static_cast<std::size_t>(p.slice) % returned_.size()].push_back(p);
    done_.pop_front();
    returned = true;
  }
  if (!queue_.empty()) schedule(now);
  return returned;
}

void DramChannel::schedule(std::uint64_t now) {
  // One command sequence per cycle. FR-FCFS: the oldest row hit whose bank is ready ...
  if (p_.fr_fcfs) {
    for (std::size_t i = 0; i < queue_.size(); ++i) {
      const Bank& b = banks_[queue_[i].bank];
      if (b.next <= now && b.open && b.row == queue_[i].row) return issue(i, now);
    }
    // ... else the oldest request whose bank can take a command.
    for (std::size_t i = 0; i < queue_.size(); ++i)
      if (banks_[queue_[i].bank].next <= now) return issue(i, now);
    return;
  }
  if (banks_[queue_.front().bank].next <= now) issue(0, now);
}

}  // namespace simtsync::mem
