// Interconnect: a crossbar between injection ports (SMs, or memory partitions for replies) and
// ejection ports. A packet is split into flits; an output port moves `flits_per_cycle` flits
// per interconnect cycle and serves the inputs whose head packet wants it in round-robin order;
// a packet arrives `latency` cycles after its last flit left. Back-pressure: an input buffer
// that is full refuses injection, and an output whose ejection buffer (counting packets in
// flight to it) is full accepts nothing, so packets wait at the inputs.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <vector>

#include "common/stat_table.h"
#include "timing/mem/bit_mask.h"
#include "timing/mem/mem_params.h"
#include "timing/mem/packet.h"

namespace simtsync::mem {

struct IcntStats {
  std::uint64_t packets = 0, flits = 0;
  std::uint64_t inject_refusals = 0;     // an input buffer was full
  std::uint64_t output_stalls = 0;       // a head packet waited for a busy or full output
  std::uint64_t busy_output_cycles = 0;  // output-port cycles spent moving flits
  std::uint64_t latency_sum = 0;         // cycles from injection to ejection, summed
};

inline constexpr StatField<IcntStats> kIcntStatFields[] = {
    SIMTSYNC_STAT(IcntStats, packets, "packets moved"),
    SIMTSYNC_STAT(IcntStats, flits, "flits moved"),
    SIMTSYNC_STAT(IcntStats, inject_refusals, "packets refused: an input buffer was full"),
    SIMTSYNC_STAT(IcntStats, output_stalls, "head-packet cycles waiting for a busy or full output"),
    SIMTSYNC_STAT(IcntStats, busy_output_cycles, "output-port cycles spent moving flits"),
    SIMTSYNC_STAT(IcntStats, latency_sum, "cycles from injection to ejection, summed"),
};
inline constexpr StatDerived<IcntStats> kIcntDerived[] = {
    {"avg_latency", "cycles from injection to ejection, on average",
     [](const IcntStats& n) { return stat_ratio(n.latency_sum, n.packets); }},
};

class Crossbar {
 public:
  Crossbar(unsigned inputs, unsigned outputs, const IcntParams& p);

  unsigned flits_of(unsigned bytes) const { return (bytes + p_.flit_bytes - 1) / p_.flit_bytes; }
  bool can_inject(unsigned in) const { return !inputs_[in].full(); }
  // Queues `p` (of `bytes` bytes) at input `in` for output `out`; false when the buffer is full.
  bool inject(unsigned in, unsigned out, const Packet& p, unsigned bytes);
  void tick(std::uint64_t now);  // one interconnect cycle
  // The earliest interconnect cycle from `next` on at which tick() can move a packet (~0: none
  // queued or on a wire). Packets already in the ejection buffers wait for their taker.
  std::uint64_t next_tick(std::uint64_t next) const {
    if (queued_ != 0) return next;
    return next_arrival_ == ~std::uint64_t{0} ? next_arrival_ : std::max(next, next_arrival_);
  }
  // Cycles up to `now` passed in which tick() had nothing to move (see next_tick()).
  void skip_to(std::uint64_t now) { now_ = now; }
  bool ready(unsigned out) const { return !eject_[out].empty(); }
  Packet& front(unsigned out) { return eject_[out].front(); }
  void pop(unsigned out) {
    eject_[out].pop();
    if (eject_[out].empty()) ready_out_.clear(out);
    --in_system_;
  }
  // The outputs whose ejection buffer holds a packet (ready()), one bit each.
  const BitMask& ready_outputs() const { return ready_out_; }
  // The inputs whose buffer is full (!can_inject()), one bit each.
  const BitMask& full_inputs() const { return full_in_; }
  bool busy() const { return in_system_ != 0; }
  const IcntStats& stats() const { return stats_; }

 private:
  struct Flow {
    Packet p;
    unsigned out = 0, flits = 1;
    std::uint64_t injected = 0;
  };
  IcntParams p_;
  std::vector<BoundedQueue<Flow>> inputs_;
  // Per input: the output its head packet wants (while it has one). The arbitration reads this
  // dense array instead of each input's buffer (a cache line of its own per input).
  std::vector<unsigned> head_out_;
  std::vector<std::uint64_t> input_free_, output_free_;
  std::vector<unsigned> rr_;
  static constexpr unsigned kNone = ~0u;
  std::vector<unsigned> best_;    // per output: chosen input this cycle (kNone: none)
  std::vector<unsigned> wanted_;  // scratch: outputs some head packet wants this cycle
  // Inputs with a packet queued and outputs with a packet on the wire, one bit each: a cycle
  // visits only those (a crossbar of 80 inputs has a few busy ones in most cycles).
  BitMask queued_inputs_, busy_wires_;
  std::vector<DelayPipe<Packet>> wire_;  // per output: packets in flight
  std::vector<BoundedQueue<Packet>> eject_;
  BitMask ready_out_, full_in_;
  std::uint64_t now_ = 0;
  std::size_t queued_ = 0;                          // packets in input buffers
  std::size_t in_system_ = 0;                       // packets anywhere in the crossbar
  std::uint64_t next_arrival_ = ~std::uint64_t{0};  // no wire's head arrives before this cycle
  IcntStats stats_;
};

}  // namespace simtsync::mem
