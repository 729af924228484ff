// A test rig for one SM: a real functional model (inline PTX, func::Executor) under a real
// sm::Sm, wired to a mock memory port the test drives. The rig ticks cycle by cycle and
// records every issued instruction (cycle, warp, PC, opcode) through the SM's step observer.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "func/executor.h"
#include "func/global_memory.h"
#include "func/launch_setup.h"
#include "func/program.h"
#include "ptx/parser.h"
#include "timing/mem/mem_request.h"
#include "timing/sm/sm.h"

namespace simtsync::sm::testing {

// Records requests; answers nothing by itself (the rig delivers responses).
class MockPort final : public mem::IMemPort {
 public:
  struct Sent {
    Cycle at;
    mem::MemRequest req;
    bool answered = false;
  };
  bool try_send(const mem::MemRequest& r, Cycle now) override {
    if (refuse) {
      ++refusals;
      return false;
    }
    sent.push_back({now, r});
    return true;
  }
  bool pop_response(int, Cycle, mem::MemRequest&) override { return false; }
  void tick(Cycle) override {}
  bool busy() const override {
    for (const Sent& s : sent)
      if (!s.answered) return true;
    return false;
  }
  Cycle next_event() const override { return mem::kNever; }

  std::vector<Sent> sent;
  bool refuse = false;
  unsigned refusals = 0;
};

struct Issue {
  Cycle at;
  int warp;  // global warp id
  Pc pc;
  ptx::Opcode op;
};

inline std::string kernel_text(const std::string& body, const std::string& decls = "") {
  return ".version 9.0\n.target sm_75\n.address_size 64\n" + decls +
         "\n.visible .entry k()\n{\n"
         "  .reg .pred %p<8>;\n  .reg .b32 %r<32>;\n  .reg .b64 %rd<8>;\n" +
         body + "\n}\n";
}

// Small SM parameters: one scheduler, 8 warp slots, perfect-ish I-cache.
inline SmParams small_params() {
  SmParams p;
  p.max_warps = 8;
  p.max_threads = 256;
  p.num_schedulers = 1;
  p.icache_miss_latency = 1;
  return p;
}

class SmRig {
 public:
  // One CTA of `threads` threads runs `body` (a kernel k() body; registers as kernel_text).
  SmRig(const std::string& body, SmParams p, unsigned threads = 32, const std::string& decls = "")
      : module_(ptx::parse_module(kernel_text(body, decls), "rig.ptx")),
        prog_(module_, mem_),
        li_(func::make_launch_info(*prog_.kernel("k"), Dim3{1, 1, 1}, Dim3{threads, 1, 1},
                                   p.warp_size, 0)),
        init_(make_grid()),
        ex_(prog_, mem_, li_, warps_, ctas_),
        sm(0, p, ex_, port) {
    listener_.rig = this;
    ex_.set_listener(&listener_);
    sm.set_step_observer([this](func::Warp& w, Pc pc) {
      const func::ExecInst* in = prog_.at(pc);
      issues.push_back({now, w.global_id, pc, in ? in->op : ptx::Opcode::kRet});
    });
    std::vector<func::Warp*> ptrs;
    for (int w : ctas_[0].warps) ptrs.push_back(&warps_[static_cast<size_t>(w)]);
    EXPECT_TRUE(sm.can_accept(threads, static_cast<unsigned>(ptrs.size()), 0, 0));
    sm.start_cta(0, ptrs, threads, 0, 0, 0);
  }

  // Performs request `i` of port.sent for `lanes` only (a part of the access) and hands the
  // SM a response for those lanes.
  void respond_lanes(size_t i, func::LaneMask lanes) {
    MockPort::Sent& s = port.sent.at(i);
    ex_.perform(*sm.slots()[static_cast<size_t>(s.req.warp_slot)].warp, *s.req.access, lanes,
                s.req.access->done == 0);
    mem::MemRequest r = s.req;
    r.lanes = lanes;
    r.partial = (s.req.access->mask & ~s.req.access->done) != 0;
    if (!r.partial) s.answered = true;
    sm.memory_response(r, now);
  }
  // Performs request `i` of port.sent and hands its response to the SM (at `now`).
  void respond(size_t i) {
    MockPort::Sent& s = port.sent.at(i);
    ASSERT_FALSE(s.answered);
    s.answered = true;
    ex_.perform(*sm.slots()[static_cast<size_t>(s.req.warp_slot)].warp, *s.req.access);
    sm.memory_response(s.req, now);
  }

  // One cycle: automatic responses due now (auto_latency > 0), then the SM.
  void tick() {
    if (auto_latency > 0)
      for (size_t i = 0; i < port.sent.size(); ++i)
        if (!port.sent[i].answered && port.sent[i].at + auto_latency <= now) respond(i);
    if (!sm.idle()) ++ticks_live;
    sm.tick(now);
    ++now;
  }
  // Ticks until the CTA completes; false if it does not within `limit` cycles.
  bool run(Cycle limit = 10'000) {
    while (now < limit) {
      tick();
      auto done = sm.take_completed();
      if (!done.empty()) return true;
    }
    return false;
  }
  void run_until(Cycle t) {
    while (now < t) tick();
  }

  // Issue records of one warp / of one opcode.
  std::vector<Issue> of_warp(int w) const {
    std::vector<Issue> v;
    for (const Issue& i : issues)
      if (i.warp == w) v.push_back(i);
    return v;
  }
  std::vector<Issue> of_op(ptx::Opcode op) const {
    std::vector<Issue> v;
    for (const Issue& i : issues)
      if (i.op == op) v.push_back(i);
    return v;
  }
  func::Warp& warp(int i) { return warps_[static_cast<size_t>(i)]; }
  func::GlobalMemory& memory() { return mem_; }
  const func::Program& program() const { return prog_; }
  // Sum of every stall-classification counter of every scheduler.
  std::uint64_t classified_cycles() const {
    std::uint64_t n = 0;
    for (const SchedStats& s : sm.stats().sched)
      for (std::uint64_t c : s.cycles) n += c;
    return n;
  }
  std::uint64_t stall(StallKind k, int sched = -1) const {
    std::uint64_t n = 0;
    for (size_t s = 0; s < sm.stats().sched.size(); ++s)
      if (sched < 0 || static_cast<int>(s) == sched)
        n += sm.stats().sched[s].cycles[static_cast<int>(k)];
    return n;
  }

 private:
  bool make_grid() {
    func::create_grid(prog_, li_, ctas_, warps_);
    return true;
  }

  struct Listener final : func::IExecListener {
    SmRig* rig = nullptr;
    void barrier_released(int cta, unsigned id, const std::vector<int>& w) override {
      rig->sm.barrier_released(rig->sm.cta_slot_of(cta), id, w, rig->now);
    }
  };

  ptx::Module module_;
  func::GlobalMemory mem_;
  func::Program prog_;
  func::LaunchInfo li_;
  func::CtaTable ctas_;
  func::WarpTable warps_;
  bool init_;
  Listener listener_;
  func::Executor ex_;

 public:
  MockPort port;
  Sm sm;
  Cycle now = 0;
  Cycle auto_latency = 0;
  std::uint64_t ticks_live = 0;  // ticks that found a CTA resident
  std::vector<Issue> issues;
};

}  // namespace simtsync::sm::testing
