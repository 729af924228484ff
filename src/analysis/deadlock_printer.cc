#include "analysis/deadlock_printer.h"

#include <fmt/format.h>

#include <algorithm>

#include "ptx/printer.h"

namespace simtsync::analysis {
namespace {

std::string block_name(const Cfg& cfg, int inst) {
  return cfg.name(cfg.node_of_inst(inst));
}

nlohmann::json inst_json(const DeadlockReport& r, int i) {
  const ptx::Function& f = r.cfg->function();
  const auto& in = f.insts[static_cast<size_t>(i)];
  return {{"inst", i},
          {"ptx", ptx::print_instruction(f, in)},
          {"block", block_name(*r.cfg, i)},
          {"source", source_line(r.module, f, i)},
          {"ptx_line", in.ptx_line}};
}

std::string inst_text(const DeadlockReport& r, int i) {
  const ptx::Function& f = r.cfg->function();
  const auto& in = f.insts[static_cast<size_t>(i)];
  return fmt::format("`{}` [{}, {}]", ptx::print_instruction(f, in), block_name(*r.cfg, i),
                     source_line(r.module, f, i));
}

std::string file_name(const ptx::Module* m, int file) {
  if (m == nullptr) return {};
  const auto* sf = m->find_file(file);
  if (sf == nullptr) return {};
  std::string p = sf->path;
  if (auto slash = p.find_last_of('/'); slash != std::string::npos) p = p.substr(slash + 1);
  return p;
}

// A header of the CUDA toolkit (atomicCAS and friends): not the user's line.
bool toolkit_file(const ptx::Module* m, int file) {
  if (m == nullptr) return false;
  const auto* sf = m->find_file(file);
  if (sf == nullptr) return false;
  const std::string& p = sf->path;
  return p.find("/include/") != std::string::npos &&
         (p.find("cuda") != std::string::npos || p.find("/targets/") != std::string::npos);
}

const char* status_text(const LoopVerdict& v) {
  if (v.flagged) return "POTENTIAL SIMT DEADLOCK";
  if (v.busy_wait)  // the writes it waits for are behind warp-uniform branches
    return v.divergent_exit ? "busy-wait, warp-uniform writers (not a SIMT deadlock)"
                            : "busy-wait, warp-uniform (not a SIMT deadlock)";
  if (v.self_advancing) return "no SIMT deadlock (its exit reads advance by themselves)";
  return "no SIMT deadlock";
}

// Why a loop the published algorithm flags is not a SIMT deadlock, from what the filters saw:
// each clause holds for this loop (issue 50: the reason used to be printed whatever the loop).
std::string not_deadlock_reason(const DeadlockReport& r, const LoopVerdict& v) {
  if (v.self_advancing)
    return "every write that may redefine what its exit reads reaches it only through "
           "atomics the loop itself repeats and that change the location every time "
           "(fetch-and-add tickets): no lane waits for another's write";
  const Uniformity& u = r.dl->uniformity();
  const Loop& l = r.loops->loop(v.loop);
  bool reachable = false, parallel = false;
  for (const RedefWrite& w : v.seed_redefs) {
    reachable |= w.reachable;
    parallel |= w.parallel;
  }
  std::string why;
  if (!v.divergent_exit) {
    why = "every exit branch is warp-uniform";
    if (u.single_lane(l.header)) why += " (one lane of the warp runs it)";
    if (reachable)
      why += v.enclosing_divergent.empty()
                 ? " and no divergent branch encloses the loop"
                 : " and no write is reachable from the divergent branches around it";
  } else {
    why = "its lanes may leave in different iterations";  // so it kept no reachable write
  }
  if (parallel) {
    why += v.divergent_exit ? ", but " : ", and ";
    why +=
        "the writes parallel to it are reached only through warp-uniform branches (all "
        "lanes of a warp take the same side, so none is held on the other)";
  }
  return why;
}

std::string point_text(const DeadlockReport& r, const ProgramPoint& p) {
  if (p.node == r.cfg->exit()) return "EXIT (function exit)";
  const ptx::Function& f = r.cfg->function();
  const auto& in = f.insts[static_cast<size_t>(p.inst)];
  const bool start = p.inst == r.cfg->block(p.node).begin;
  return fmt::format("{} {} `{}` ({})", r.cfg->name(p.node),
                     start ? "at its start," : fmt::format("before inst {},", p.inst),
                     ptx::print_instruction(f, in), source_line(r.module, f, p.inst));
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

std::string source_line(const ptx::Module* m, const ptx::Function& f, int inst) {
  auto located = [&](int k) {
    const ptx::SrcLoc& l = f.insts[static_cast<size_t>(k)].loc;
    return l.line > 0 && m != nullptr && m->find_file(l.file) != nullptr;
  };
  // `.loc F 0` (code nvcc made with no source line of its own, as loop headers often are) or no
  // .loc: the nearest instruction before it with a real line, else the nearest after it.
  if (!located(inst)) {
    const int n = static_cast<int>(f.insts.size());
    int found = -1;
    // Without .file directives nothing is located: no scan (one per printed line would make
    // the report quadratic in the function's size).
    const bool searchable = m != nullptr && !m->files.empty();
    for (int k = inst - 1; searchable && k >= 0 && found < 0; --k)
      if (located(k)) found = k;
    for (int k = inst + 1; searchable && k < n && found < 0; ++k)
      if (located(k)) found = k;
    if (found >= 0) {
      inst = found;
    } else {
      // None in the function: the PTX line, labelled as one (the module may be named after the
      // .cu file it was compiled from), under the file's name, not its directory.
      std::string p = m ? m->path : std::string("<ptx>");
      if (auto slash = p.find_last_of('/'); slash != std::string::npos) p = p.substr(slash + 1);
      const bool ptx_file = p.size() > 4 && p.substr(p.size() - 4) == ".ptx";
      return ptx_file
                 ? fmt::format("{}:{}", p, f.insts[static_cast<size_t>(inst)].ptx_line)
                 : fmt::format("{}, PTX line {}", p, f.insts[static_cast<size_t>(inst)].ptx_line);
    }
  }
  const ptx::Instruction& in = f.insts[static_cast<size_t>(inst)];
  struct Pos {
    int file, line, col;
    bool operator==(const Pos&) const = default;
  };
  std::vector<Pos> frames{{in.loc.file, in.loc.line, in.loc.column}};
  ptx::SrcLoc cur = in.loc;
  for (int depth = 0; depth < 16 && cur.inlined_line > 0; ++depth) {
    const Pos at{cur.inlined_file, cur.inlined_line, cur.inlined_column};
    frames.push_back(at);
    // The nearest instruction whose .loc is that position and was itself inlined.
    const ptx::SrcLoc* next = nullptr;
    const int n = static_cast<int>(f.insts.size());
    for (int d = 1; d < n && next == nullptr; ++d)
      for (int k : {inst - d, inst + d}) {
        if (k < 0 || k >= n) continue;
        const ptx::SrcLoc& l = f.insts[static_cast<size_t>(k)].loc;
        if (l.inlined_line > 0 && Pos{l.file, l.line, l.column} == at) {
          next = &l;
          break;
        }
      }
    if (next == nullptr) break;
    cur = *next;
  }
  size_t first = 0;
  while (first + 1 < frames.size() && toolkit_file(m, frames[first].file)) ++first;
  std::string out = fmt::format("{}:{}", file_name(m, frames[first].file), frames[first].line);
  for (size_t k = first + 1; k < frames.size(); ++k)
    out += fmt::format(" (inlined at {}:{})", file_name(m, frames[k].file), frames[k].line);
  return out;
}

std::string format_deadlock(const DeadlockReport& r) {
  const Cfg& cfg = *r.cfg;
  const ptx::Function& f = cfg.function();
  const DeadlockOptions& o = r.dl->options();
  std::string out = fmt::format(
      "{} {}: {} loops, {} flagged{} (convention {}, parallel blocks {}{}{})\n",
      f.is_entry ? "kernel" : "function", f.name, r.dl->verdicts().size(), r.dl->num_flagged(),
      o.uniformity ? fmt::format(", {} warp-uniform busy-waits", r.dl->num_busy_waits()) : "",
      convention_name(o.convention), o.parallel ? "counted" : "ignored",
      o.distinct_params ? "" : ", parameters may alias",
      o.uniformity ? "" : ", no uniformity analysis");
  if (r.inlined_calls > 0) out += fmt::format("  {} calls inlined\n", r.inlined_calls);
  if (r.calls_not_analysed != nullptr)
    for (const auto& c : *r.calls_not_analysed) out += "  call not analysed: " + c + "\n";
  for (const LoopVerdict& v : r.dl->verdicts()) {
    const Loop& l = r.loops->loop(v.loop);
    out +=
        fmt::format("  loop {} ({}) depth {}: {}\n", cfg.name(l.header),
                    source_line(r.module, f, cfg.block(l.header).begin), l.depth, status_text(v));
    for (int b : v.exit_branches) out += "    exit branch " + inst_text(r, b) + "\n";
    for (int i : v.reads) {
      out +=
          "    exit depends on read " + inst_text(r, i) + " " + r.dl->alias().address(i).describe();
      if (std::binary_search(v.tickets.begin(), v.tickets.end(), i))
        out += " (changes the location every time: advances by itself)";
      out += "\n";
    }
    for (const RedefWrite& w : v.redefs) {
      out += fmt::format("    redefining write {} {} ({}{})\n", inst_text(r, w.inst),
                         r.dl->alias().address(w.inst).describe(), w.reachable ? "reachable" : "",
                         w.parallel ? (w.reachable ? ", parallel" : "parallel") : "");
    }
    if (v.busy_wait || v.self_advancing) {
      for (const RedefWrite& w : v.seed_redefs)
        out += fmt::format("    write counted by the published algorithm {} {} ({})\n",
                           inst_text(r, w.inst), r.dl->alias().address(w.inst).describe(),
                           w.reachable ? "reachable" : "parallel");
      out += "    not a SIMT deadlock: " + not_deadlock_reason(r, v) + "\n";
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
  j["uniformity"] = r.dl->options().uniformity;
  j["inlined_calls"] = r.inlined_calls;
  j["calls_not_analysed"] = nlohmann::json::array();
  if (r.calls_not_analysed != nullptr)
    for (const auto& c : *r.calls_not_analysed) j["calls_not_analysed"].push_back(c);
  j["loops"] = nlohmann::json::array();
  for (const LoopVerdict& v : r.dl->verdicts()) {
    const Loop& l = r.loops->loop(v.loop);
    nlohmann::json lj;
    lj["header"] = cfg.name(l.header);
    lj["source"] = source_line(r.module, f, cfg.block(l.header).begin);
    lj["depth"] = l.depth;
    lj["flagged"] = v.flagged;
    lj["seed_flagged"] = v.seed_flagged;
    lj["busy_wait"] = v.busy_wait;
    lj["self_advancing"] = v.self_advancing;
    lj["verdict"] = v.flagged ? "simt-deadlock" : v.busy_wait ? "busy-wait" : "none";
    if (v.busy_wait || v.self_advancing) lj["why_not"] = not_deadlock_reason(r, v);
    lj["spin_marked"] = v.spin_marked;
    lj["exit_branches"] = nlohmann::json::array();
    for (int b : v.exit_branches) lj["exit_branches"].push_back(inst_json(r, b));
    lj["reads"] = nlohmann::json::array();
    for (int i : v.reads) {
      auto x = inst_json(r, i);
      x["address"] = r.dl->alias().address(i).describe();
      x["self_advancing"] = std::binary_search(v.tickets.begin(), v.tickets.end(), i);
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
