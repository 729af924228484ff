#include "timing/mem/interconnect.h"

#include <algorithm>

namespace simtsync::mem {

Crossbar::Crossbar(unsigned inputs, unsigned outputs, const IcntParams& p)
    : p_(p),
      head_out_(inputs, 0),
      input_free_(inputs, 0),
      output_free_(outputs, 0),
      rr_(outputs, 0),
      queued_inputs_(inputs),
      busy_wires_(outputs),
      ready_out_(outputs),
      full_in_(inputs) {
  p_.flit_bytes = std::max(1u, p_.flit_bytes);
  p_.flits_per_cycle = std::max(1u, p_.flits_per_cycle);
  for (unsigned i = 0; i < inputs; ++i) inputs_.emplace_back(std::max(1u, p_.input_buffer));
  best_.assign(outputs, kNone);
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
  if (inputs_[in].empty()) head_out_[in] = out;
  inputs_[in].try_push(Flow{p, out, std::max(1u, flits_of(bytes)), now_});
  if (inputs_[in].full()) full_in_.set(in);
  queued_inputs_.set(in);
  ++queued_;
  ++in_system_;
  return true;
}

void Crossbar::tick(std::uint64_t now) {
  now_ = now;
  if (in_system_ == 0) return;
  // Arrivals first: a packet whose last flit is through enters its ejection buffer. The scan
  // over the busy wires runs only from the earliest cycle a wire's head can arrive (a packet
  // that found its ejection buffer full keeps that cycle in the past, so it is retried every
  // cycle).
  if (now >= next_arrival_) {
    next_arrival_ = ~std::uint64_t{0};
    busy_wires_.for_each([&](std::size_t o) {
      while (wire_[o].ready(now) && !eject_[o].full()) {
        eject_[o].try_push(wire_[o].front());
        wire_[o].pop();
        ready_out_.set(o);
      }
      if (wire_[o].empty())
        busy_wires_.clear(o);
      else
        next_arrival_ = std::min(next_arrival_, wire_[o].next_ready());
    });
  }
  if (queued_ == 0) return;
  const auto n_in = static_cast<unsigned>(inputs_.size());
  // For each output, the input whose head wants it that comes first in round-robin order from
  // the output's pointer (one pass over the queued inputs, not one per output).
  auto rank = [n_in](unsigned i, unsigned from) { return i >= from ? i - from : i + n_in - from; };
  wanted_.clear();
  queued_inputs_.for_each([&](std::size_t k) {
    const auto i = static_cast<unsigned>(k);
    if (input_free_[i] > now) return;
    const unsigned o = head_out_[i];
    const unsigned b = best_[o];
    if (b == kNone)
      wanted_.push_back(o);
    else if (rank(i, rr_[o]) >= rank(b, rr_[o]))
      return;
    best_[o] = i;
  });
  // Each head wants one output, so the outputs are independent of each other: their order here
  // changes nothing.
  for (const unsigned o : wanted_) {
    const unsigned i = best_[o];
    best_[o] = kNone;
    if (output_free_[o] > now) continue;  // still moving an earlier packet's flits
    if (wire_[o].size() + eject_[o].size() >= eject_[o].capacity()) {
      ++stats_.output_stalls;
      continue;
    }
    auto& q = inputs_[i];
    const Flow f = q.front();
    q.pop();
    full_in_.clear(i);
    if (q.empty())
      queued_inputs_.clear(i);
    else
      head_out_[i] = q.front().out;
    --queued_;
    const std::uint64_t cycles = (f.flits + p_.flits_per_cycle - 1) / p_.flits_per_cycle;
    output_free_[o] = input_free_[i] = now + cycles;
    wire_[o].try_push(f.p, now + cycles - 1 + p_.latency);
    busy_wires_.set(o);
    next_arrival_ = std::min(next_arrival_, now + cycles - 1 + p_.latency);
    stats_.packets++;
    stats_.flits += f.flits;
    stats_.busy_output_cycles += cycles;
    stats_.latency_sum += now + cycles - 1 + p_.latency - f.injected;
    rr_[o] = (i + 1) % n_in;
  }
}

}  // namespace simtsync::mem
