#include "cmd_analyze_table.h"

#include <fmt/format.h>

#include <filesystem>

namespace simtsync::tools {
namespace {

std::string group_of(const std::string& file, const std::string& kernel) {
  const std::string s = file + " " + kernel;
  if (s.find("mimd") != std::string::npos || s.find("naive") != std::string::npos) return "mimd";
  if (s.find("simt") != std::string::npos) return "simt";
  return "other";
}

}  // namespace

void DetectionTable::add_module(const ptx::Module& m, const analysis::DeadlockOptions& o) {
  for (const auto& f : m.functions) {
    if (f.is_declaration || !f.is_entry) continue;
    const analysis::Cfg cfg(f);
    const auto dom = analysis::DomTree::dominators(cfg);
    const auto pdom = analysis::DomTree::post_dominators(cfg);
    const auto loops = analysis::LoopInfo::compute(cfg, dom);
    const auto dl = analysis::SimtDeadlock::compute({&cfg, &dom, &pdom, &loops, &m}, o);
    Row r;
    r.file = std::filesystem::path(m.path).filename().string();
    r.kernel = f.name;
    r.group = group_of(r.file, r.kernel);
    for (analysis::NodeId b = 0; b < cfg.num_blocks(); ++b)
      if (cfg.reachable(b) && cfg.succs(b).size() >= 2) ++r.branches;
    r.loops = static_cast<int>(loops.loops().size());
    bool any_marked = false;
    for (const auto& v : dl.verdicts()) any_marked |= v.spin_marked;
    for (const auto& v : dl.verdicts()) {
      const bool expected = r.group == "mimd" && (v.spin_marked || !any_marked);
      if (v.flagged) {
        ++r.detections;
        (expected ? r.truedet : r.falsedet)++;
      } else if (expected && v.spin_marked) {
        ++r.missed;
      }
    }
    rows_.push_back(r);
  }
}

std::string DetectionTable::format() const {
  std::string out = fmt::format("{:<28} {:<26} {:<6} {:>5} {:>5} {:>5} {:>5} {:>5} {:>6}\n",
                                "file", "kernel", "group", "brs", "loops", "det", "true",
                                "false", "missed");
  Row tot[4];
  const char* names[4] = {"mimd", "simt", "other", "all"};
  int kernels[4] = {0, 0, 0, 0};
  for (const Row& r : rows_) {
    out += fmt::format("{:<28} {:<26} {:<6} {:>5} {:>5} {:>5} {:>5} {:>5} {:>6}\n", r.file,
                       r.kernel, r.group, r.branches, r.loops, r.detections, r.truedet,
                       r.falsedet, r.missed);
    for (int g = 0; g < 4; ++g) {
      if (g < 3 && r.group != names[g]) continue;
      ++kernels[g];
      tot[g].branches += r.branches;
      tot[g].loops += r.loops;
      tot[g].detections += r.detections;
      tot[g].truedet += r.truedet;
      tot[g].falsedet += r.falsedet;
      tot[g].missed += r.missed;
    }
  }
  out += fmt::format("\n{:<8} {:>7} {:>8} {:>7} {:>10} {:>7} {:>7} {:>7} {:>7}\n", "group",
                     "krnls", "n.brs", "n.lps", "detections", "t.det", "f.det", "f.rate",
                     "missed");
  for (int g = 0; g < 4; ++g) {
    const Row& t = tot[g];
    const double rate = t.loops > 0 ? 100.0 * t.falsedet / t.loops : 0.0;
    out += fmt::format("{:<8} {:>7} {:>8} {:>7} {:>10} {:>7} {:>7} {:>6.2f}% {:>7}\n", names[g],
                       kernels[g], t.branches, t.loops, t.detections, t.truedet, t.falsedet,
                       rate, t.missed);
  }
  return out;
}

nlohmann::json DetectionTable::to_json() const {
  nlohmann::json j = nlohmann::json::array();
  for (const Row& r : rows_)
    j.push_back({{"file", r.file}, {"kernel", r.kernel}, {"group", r.group},
                 {"branches", r.branches}, {"loops", r.loops}, {"detections", r.detections},
                 {"true", r.truedet}, {"false", r.falsedet}, {"missed", r.missed}});
  return j;
}

}  // namespace simtsync::tools
