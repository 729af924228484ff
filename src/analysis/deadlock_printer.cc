#include "analysis/deadlock_printer.h"

#include <fmt/format.h>

#include "ptx/printer.h"

namespace simtsync::analysis {
namespace {

std::string block_name(const Cfg& cfg, int inst) { return cfg.name(cfg.node_of_inst(inst)); }

nlohmann::json inst_json(const DeadlockReport& r, int i) {
  const ptx::Function& f = r.cfg->function();
  const auto& in = f.insts[static_cast<size_t>(i)];
  return {{"inst", i}, {"ptx", ptx::print_instruction(f, in)}, {"block", block_name(*r.cfg, i)},
          {"source", source_line(r.module, in)}, {"ptx_line", in.ptx_line}};
}

std::string inst_text(const DeadlockReport& r, int i) {
  const ptx::Function& f = r.cfg->function();
  const auto& in = f.insts[static_cast<size_t>(i)];
  return fmt::format("`{}` [{}, {}]", ptx::print_instruction(f, in), block_name(*r.cfg, i),
                     source_line(r.module, in));
}

std::string point_text(const DeadlockReport& r, const ProgramPoint& p) {
  if (p.node == r.cfg->exit()) return "EXIT (function exit)";
  const ptx::Function& f = r.cfg->function();
  const auto& in = f.insts[static_cast<size_t>(p.inst)];
  const bool start = p.inst == r.cfg->block(p.node).begin;
  return fmt::format("{} {} `{}` ({})", r.cfg->name(p.node),
                     start ? "at its start," : fmt::format("before inst {},", p.inst),
                     ptx::print_instruction(f, in), source_line(r.module, in));
}

}  // namespace

std::string source_line(const ptx::Module* m, const ptx::Instruction& in) {
  const int file = in.loc.inlined_line > 0 ? in.loc.inlined_file : in.loc.file;
  const int line = in.loc.inlined_line > 0 ? in.loc.inlined_line : in.loc.line;
  if (line > 0 && m != nullptr) {
    if (const auto* sf = m->find_file(file)) {
      std::string p = sf->path;
      if (auto slash = p.find_last_of('/'); slash != std::string::npos) p = p.substr(slash + 1);
      return fmt::format("{}:{}", p, line);
    }
  }
  return fmt::format("{}:{}", m ? m->path : std::string("<ptx>"), in.ptx_line);
}

std::string format_deadlock(const DeadlockReport& r) {
  const Cfg& cfg = *r.cfg;
  const ptx::Function& f = cfg.function();
  std::string out = fmt::format("{} {}: {} loops, {} flagged (convention {}, parallel blocks {}{})\n",
                                f.is_entry ? "kernel" : "function", f.name,
                                r.dl->verdicts().size(), r.dl->num_flagged(),
                                convention_name(r.dl->options().convention),
                                r.dl->options().parallel ? "counted" : "ignored",
                                r.dl->options().distinct_params ? "" : ", parameters may alias");
  for (const LoopVerdict& v : r.dl->verdicts()) {
    const Loop& l = r.loops->loop(v.loop);
    const auto& head = f.insts[static_cast<size_t>(cfg.block(l.header).begin)];
    out += fmt::format("  loop {} ({}) depth {}: {}\n", cfg.name(l.header),
                       source_line(r.module, head), l.depth,
                       v.flagged ? "POTENTIAL SIMT DEADLOCK" : "no SIMT deadlock");
    for (int b : v.exit_branches) out += "    exit branch " + inst_text(r, b) + "\n";
    for (int i : v.reads) {
      out += "    exit depends on read " + inst_text(r, i) + " " +
             r.dl->alias().address(i).describe() + "\n";
    }
    for (const RedefWrite& w : v.redefs) {
      out += fmt::format("    redefining write {} {} ({}{})\n", inst_text(r, w.inst),
                         r.dl->alias().address(w.inst).describe(),
                         w.reachable ? "reachable" : "", w.parallel ? (w.reachable ? ", parallel" : "parallel") : "");
    }
    if (r.safe != nullptr)
      if (const auto& s = r.safe->safe(v.loop))
        out += "    safe post-dominator " + point_text(r, *s) + "\n";
  }
  return out;
}

nlohmann::json deadlock_json(const DeadlockReport& r) {
  const Cfg& cfg = *r.cfg;
  const ptx::Function& f = cfg.function();
  nlohmann::json j;
  j["function"] = f.name;
  j["kernel"] = f.is_entry;
  j["convention"] = convention_name(r.dl->options().convention);
  j["parallel_blocks"] = r.dl->options().parallel;
  j["loops"] = nlohmann::json::array();
  for (const LoopVerdict& v : r.dl->verdicts()) {
    const Loop& l = r.loops->loop(v.loop);
    nlohmann::json lj;
    lj["header"] = cfg.name(l.header);
    lj["source"] = source_line(r.module, f.insts[static_cast<size_t>(cfg.block(l.header).begin)]);
    lj["depth"] = l.depth;
    lj["flagged"] = v.flagged;
    lj["spin_marked"] = v.spin_marked;
    lj["exit_branches"] = nlohmann::json::array();
    for (int b : v.exit_branches) lj["exit_branches"].push_back(inst_json(r, b));
    lj["reads"] = nlohmann::json::array();
    for (int i : v.reads) {
      auto x = inst_json(r, i);
      x["address"] = r.dl->alias().address(i).describe();
      lj["reads"].push_back(x);
    }
    lj["redefining_writes"] = nlohmann::json::array();
    for (const RedefWrite& w : v.redefs) {
      auto x = inst_json(r, w.inst);
      x["address"] = r.dl->alias().address(w.inst).describe();
      x["reachable"] = w.reachable;
      x["parallel"] = w.parallel;
      lj["redefining_writes"].push_back(x);
    }
    if (r.safe != nullptr) {
      if (const auto& s = r.safe->safe(v.loop)) {
        if (s->node == cfg.exit()) {
          lj["safe_pdom"] = {{"block", "EXIT"}};
        } else {
          lj["safe_pdom"] = inst_json(r, s->inst);
          lj["safe_pdom"]["block_start"] = s->inst == cfg.block(s->node).begin;
        }
      }
    }
    j["loops"].push_back(lj);
  }
  return j;
}

}  // namespace simtsync::analysis
