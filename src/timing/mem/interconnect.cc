#include "timing/mem/interconnect.h"

#include <algorithm>

namespace simtsync::mem {

Crossbar::Crossbar(unsigned inputs, unsigned outputs, const IcntParams& p)
    : p_(p), input_free_(inputs, 0), output_free_(outputs, 0), rr_(outputs, 0) {
  p_.flit_bytes = std::max(1u, p_.flit_bytes);
  p_.flits_per_cycle = std::max(1u, p_.flits_per_cycle);
  for (unsigned i = 0; i < inputs; ++i) inputs_.emplace_back(std::max(1u, p_.input_buffer));
  for (unsigned o = 0; o < outputs; ++o) {
    // The wire holds at most what the ejection buffer can take (credits).
    wire_.emplace_back(std::max(1u, p_.output_buffer));
    eject_.emplace_back(std::max(1u, p_.output_buffer));
  }
}

bool Crossbar::inject(unsigned in, unsigned out, const Packet& p, unsigned bytes) {
  if (inputs_[in].full()) {
    ++stats_.inject_refusals;
    return false;
  }
  inputs_[in].try_push(Flow{p, out, std::max(1u, flits_of(bytes)), now_});
  ++queued_;
  ++in_system_;
  return true;
}

void Crossbar::tick(std::uint64_t now) {
  now_ = now;
  if (in_system_ == 0) return;
  // Arrivals first: a packet whose last flit is through enters its ejection buffer. The scan
  // over the outputs runs only from the earliest cycle a wire's head can arrive (a packet that
  // found its ejection buffer full keeps that cycle in the past, so it is retried every cycle).
  if (now >= next_arrival_) {
    next_arrival_ = ~std::uint64_t{0};
    for (size_t o = 0; o < wire_.size(); ++o) {
      while (wire_[o].ready(now) && !eject_[o].full()) {
        eject_[o].try_push(wire_[o].front());
        wire_[o].pop();
      }
      if (!wire_[o].empty()) next_arrival_ = std::min(next_arrival_, wire_[o].next_ready());
    }
  }
  if (queued_ == 0) return;
  const auto n_in = static_cast<unsigned>(inputs_.size());
  // For each output, the input whose head wants it that comes first in round-robin order from
  // the output's pointer (one pass over the inputs, not one per output).
  best_.assign(output_free_.size(), kNone);
  for (unsigned i = 0; i < n_in; ++i) {
    const auto& q = inputs_[i];
    if (q.empty() || input_free_[i] > now) continue;
    const unsigned o = q.front().out;
    const unsigned b = best_[o];
    if (b == kNone || (i + n_in - rr_[o]) % n_in < (b + n_in - rr_[o]) % n_in) best_[o] = i;
  }
  for (unsigned o = 0; o < output_free_.size(); ++o) {
    if (output_free_[o] > now) {
      ++stats_.busy_output_cycles;
      continue;
    }
    const unsigned i = best_[o];
    if (i == kNone) continue;
    if (wire_[o].size() + eject_[o].size() >= eject_[o].capacity()) {
      ++stats_.output_stalls;
      continue;
    }
    {
      auto& q = inputs_[i];
      Flow f = q.front();
      q.pop();
      --queued_;
      const std::uint64_t cycles = (f.flits + p_.flits_per_cycle - 1) / p_.flits_per_cycle;
      output_free_[o] = input_free_[i] = now + cycles;
      wire_[o].try_push(f.p, now + cycles - 1 + p_.latency);
      next_arrival_ = std::min(next_arrival_, now + cycles - 1 + p_.latency);
      stats_.packets++;
      stats_.flits += f.flits;
      stats_.busy_output_cycles++;
      stats_.latency_sum += now + cycles - 1 + p_.latency - f.injected;
      rr_[o] = (i + 1) % n_in;
    }
  }
}

}  // namespace simtsync::mem
