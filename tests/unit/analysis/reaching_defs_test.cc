// ReachingDefs in SSA form (issue 46) against the classic per-node bit-set data flow it
// replaced, on random kernels: forward and backward branches, guarded definitions and branches,
// unreachable blocks, `ret` in the middle. Every (instruction, register) pair must agree,
// registers the instruction does not read included.
#include "analysis/reaching_defs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

#include "analysis/cfg.h"
#include "analysis/inst_info.h"
#include "ptx/parser.h"

namespace simtsync::analysis {
namespace {

// The pre-issue-46 algorithm: OUT = gen U (IN - kill) per node, iterated to a fixed point.
std::vector<std::vector<std::vector<int>>> classic(const Cfg& cfg) {
  const ptx::Function& f = cfg.function();
  const size_t nregs = f.regs.size();
  const int n = cfg.size();
  using Set = std::vector<std::vector<int>>;  // reg -> definitions (kEntryDef for the entry)
  auto transfer = [&](NodeId b, Set s) {
    if (!cfg.is_block(b)) return s;
    for (int i = cfg.block(b).begin; i < cfg.block(b).end; ++i) {
      const bool guarded = f.insts[static_cast<size_t>(i)].guard.reg >= 0;
      for (int reg : defs(f.insts[static_cast<size_t>(i)])) {
        if (reg < 0 || static_cast<size_t>(reg) >= nregs) continue;
        auto& d = s[static_cast<size_t>(reg)];
        if (!guarded) d.clear();
        if (std::find(d.begin(), d.end(), i) == d.end()) d.push_back(i);
      }
    }
    return s;
  };
  std::vector<Set> in(static_cast<size_t>(n), Set(nregs)), out(in);
  for (size_t r = 0; r < nregs; ++r) out[static_cast<size_t>(cfg.entry())][r] = {kEntryDef};
  for (bool changed = true; changed;) {
    changed = false;
    for (NodeId b = 0; b < n; ++b) {
      if (b == cfg.entry()) continue;
      Set s(nregs);
      for (NodeId p : cfg.preds(b))
        for (size_t r = 0; r < nregs; ++r)
          for (int d : out[static_cast<size_t>(p)][r])
            if (std::find(s[r].begin(), s[r].end(), d) == s[r].end()) s[r].push_back(d);
      Set o = transfer(b, s);
      for (auto& v : o) std::sort(v.begin(), v.end());
      in[static_cast<size_t>(b)] = s;
      if (o != out[static_cast<size_t>(b)]) {
        out[static_cast<size_t>(b)] = std::move(o);
        changed = true;
      }
    }
  }
  // Per instruction: walk the block from its IN set.
  std::vector<std::vector<std::vector<int>>> at(f.insts.size());
  for (NodeId b = 0; b < cfg.num_blocks(); ++b) {
    Set s = in[static_cast<size_t>(b)];
    for (int i = cfg.block(b).begin; i < cfg.block(b).end; ++i) {
      at[static_cast<size_t>(i)] = s;
      for (auto& v : at[static_cast<size_t>(i)]) std::sort(v.begin(), v.end());
      const bool guarded = f.insts[static_cast<size_t>(i)].guard.reg >= 0;
      for (int reg : defs(f.insts[static_cast<size_t>(i)])) {
        auto& d = s[static_cast<size_t>(reg)];
        if (!guarded) d.clear();
        if (std::find(d.begin(), d.end(), i) == d.end()) d.push_back(i);
      }
    }
  }
  return at;
}

std::string random_kernel(std::mt19937& rng, int blocks) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  std::string body = "mov.u32 %r0, %tid.x;\n";
  for (int b = 0; b < blocks; ++b) {
    body += "$B" + std::to_string(b) + ":\n";
    for (int k = pick(4); k >= 0; --k) {
      const std::string g = pick(4) == 0 ? "@%p" + std::to_string(pick(3)) + " " : "";
      switch (pick(3)) {
        case 0:
          body += g + "add.s32 %r" + std::to_string(pick(5)) + ", %r" + std::to_string(pick(5)) +
                  ", %r" + std::to_string(pick(5)) + ";\n";
          break;
        case 1:
          body +=
              g + "mov.u32 %r" + std::to_string(pick(5)) + ", " + std::to_string(pick(9)) + ";\n";
          break;
        default:
          body += g + "setp.gt.s32 %p" + std::to_string(pick(3)) + ", %r" +
                  std::to_string(pick(5)) + ", " + std::to_string(pick(9)) + ";\n";
      }
    }
    switch (pick(6)) {
      case 0:  // unconditional jump: what follows may be unreachable
        body += "bra $B" + std::to_string(pick(blocks)) + ";\n";
        break;
      case 1:
      case 2:
        body += "@%p" + std::to_string(pick(3)) + " bra $B" + std::to_string(pick(blocks)) + ";\n";
        break;
      case 3:
        if (pick(3) == 0) body += "@%p1 ret;\n";
        break;
      default:
        break;
    }
  }
  return ".version 7.5\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n"
         ".reg .pred %p<3>;\n.reg .b32 %r<5>;\n" +
         body + "ret;\n}\n";
}

TEST(ReachingDefs, SparseFormMatchesTheClassicDataFlow) {
  std::mt19937 rng(46);
  for (int trial = 0; trial < 300; ++trial) {
    const std::string text = random_kernel(rng, 2 + trial % 14);
    const ptx::Module m = ptx::parse_module(text);
    const Cfg cfg(m.functions.back());
    const ReachingDefs rd = ReachingDefs::compute(cfg);
    const auto want = classic(cfg);
    const ptx::Function& f = cfg.function();
    for (size_t i = 0; i < f.insts.size(); ++i)
      for (size_t r = 0; r < f.regs.size(); ++r) {
        ASSERT_EQ(rd.reaching(static_cast<int>(i), static_cast<int>(r)), want[i][r])
            << "trial " << trial << " inst " << i << " reg " << r << "\n"
            << text;
        const int u = rd.unique_reaching(static_cast<int>(i), static_cast<int>(r));
        ASSERT_EQ(u, want[i][r].size() == 1 ? want[i][r][0] : -1);
      }
  }
}

}  // namespace
}  // namespace simtsync::analysis
