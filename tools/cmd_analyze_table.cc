#include "cmd_analyze_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "analysis/deadlock_printer.h"
#include "common/error.h"
#include "common/input_file.h"

namespace simtsync::tools {
namespace {

namespace fs = std::filesystem;

// The line number of "file.cu:12 (inlined at ...)".
int line_of(const std::string& source) {
  const auto colon = source.find(':');
  if (colon == std::string::npos) return 0;
  return std::atoi(source.c_str() + colon + 1);
}

}  // namespace

DetectionTable::DetectionTable(const std::string& truth_file) {
  if (!truth_file.empty()) {
    explicit_truth_ = true;
    load_truth(truth_file);
  }
}

void DetectionTable::load_truth(const std::string& file) {
  if (std::find(loaded_.begin(), loaded_.end(), file) != loaded_.end()) return;
  loaded_.push_back(file);
  // An explicit --truth must be a readable regular file; FILE.truth beside an input is optional.
  if (explicit_truth_) require_regular_file(file, "--truth file");
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return;
  std::ifstream in(file);
  if (!in) {
    if (explicit_truth_) throw usage_error(fmt::format("cannot read '{}'", file));
    return;
  }
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (auto h = line.find('#'); h != std::string::npos) line.resize(h);
    std::istringstream ss(line);
    std::string f, k, w;
    if (!(ss >> f)) continue;
    if (!(ss >> k))
      throw usage_error(fmt::format("{}:{}: expected `FILE KERNEL [spin|LINE...]`", file, n));
    Truth t;
    while (ss >> w) {
      if (w == "spin") continue;
      char* end = nullptr;
      const long v = std::strtol(w.c_str(), &end, 10);
      if (end == w.c_str() || *end != '\0' || v <= 0)
        throw usage_error(
            fmt::format("{}:{}: `{}` is neither `spin` nor a line number", file, n, w));
      t.lines.push_back(static_cast<int>(v));
      t.spin = false;
    }
    truth_[{f, k}] = t;
  }
}

const DetectionTable::Truth* DetectionTable::truth_for(const std::string& file,
                                                       const std::string& kernel) const {
  // A .cu input matches the entry of the PTX nvcc makes of it (and the other way round).
  const std::string stem = fs::path(file).stem().string();
  for (const std::string& f : {file, stem + ".ptx", stem + ".cu"})
    for (const std::string& k : {kernel, std::string("*")})
      if (auto it = truth_.find({f, k}); it != truth_.end()) return &it->second;
  return nullptr;
}

void DetectionTable::add_module(const ptx::Module& m, const std::string& path,
                                const analysis::AnalysisOptions& o) {
  const std::string file = fs::path(path).filename().string();
  if (!explicit_truth_)
    load_truth((fs::path(path).parent_path() / fs::path(path).stem()).string() + ".truth");
  for (const auto& f : m.functions) {
    if (f.is_declaration || !f.is_entry) continue;
    const analysis::FunctionAnalysis a(m, f, o);
    const analysis::Cfg& cfg = a.cfg();
    const auto& dl = a.deadlock();
    const Truth* t = truth_for(file, f.name);
    Row r;
    r.file = file;
    r.kernel = f.name;
    r.group = t ? "deadlock" : "safe";
    r.calls_not_analysed = static_cast<int>(a.calls_not_analysed().size());
    for (analysis::NodeId b = 0; b < cfg.num_blocks(); ++b)
      if (cfg.reachable(b) && cfg.succs(b).size() >= 2) ++r.branches;
    // One entry per loop header, as the seed's LSet: a header whose back edges enclose
    // different bodies is split into several loops (loops.h), and counts as detected when any
    // of them is flagged.
    struct Header {
      bool flagged = false, busy = false, marked = false;
      int line = 0;
    };
    std::map<analysis::NodeId, Header> headers;
    for (const auto& v : dl.verdicts()) {
      const auto& l = a.loops().loop(v.loop);
      Header& h = headers[l.header];
      h.flagged |= v.flagged;
      h.busy |= v.busy_wait;
      h.marked |= v.spin_marked;
      h.line = line_of(analysis::source_line(&m, cfg.function(), cfg.block(l.header).begin));
    }
    r.loops = static_cast<int>(headers.size());
    bool any_marked = false;
    for (const auto& [n, h] : headers) any_marked |= h.marked;
    std::vector<int> lines_found;  // truth lines some flagged header carries
    for (const auto& [n, h] : headers) {
      bool expected = false;
      if (t != nullptr)
        expected = t->spin ? (h.marked || !any_marked)
                           : std::find(t->lines.begin(), t->lines.end(), h.line) != t->lines.end();
      if (h.busy && !h.flagged) ++r.busy_waits;
      if (h.flagged) {
        ++r.detections;
        (expected ? r.truedet : r.falsedet)++;
        if (expected) lines_found.push_back(h.line);
      } else if (expected && t->spin && h.marked) {
        ++r.missed;  // a kernel without markers has no loop that must be flagged
      }
    }
    // A named line is missed when no flagged loop carries it (also when no loop was found).
    if (t != nullptr && !t->spin)
      for (int line : t->lines)
        if (std::find(lines_found.begin(), lines_found.end(), line) == lines_found.end())
          ++r.missed;
    rows_.push_back(r);
  }
}

std::string DetectionTable::format() const {
  std::string out =
      fmt::format("{:<28} {:<26} {:<8} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5} {:>6}\n", "file",
                  "kernel", "group", "brs", "loops", "det", "busy", "true", "false", "missed");
  Row tot[3];
  const char* names[3] = {"deadlock", "safe", "all"};
  int kernels[3] = {0, 0, 0};
  int unanalysed = 0;
  for (const Row& r : rows_) {
    out += fmt::format("{:<28} {:<26} {:<8} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5} {:>6}\n", r.file,
                       r.kernel, r.group, r.branches, r.loops, r.detections, r.busy_waits,
                       r.truedet, r.falsedet, r.missed);
    unanalysed += r.calls_not_analysed;
    for (int g = 0; g < 3; ++g) {
      if (g < 2 && r.group != names[g]) continue;
      ++kernels[g];
      tot[g].branches += r.branches;
      tot[g].loops += r.loops;
      tot[g].detections += r.detections;
      tot[g].busy_waits += r.busy_waits;
      tot[g].truedet += r.truedet;
      tot[g].falsedet += r.falsedet;
      tot[g].missed += r.missed;
    }
  }
  out += fmt::format("\n{:<9} {:>6} {:>7} {:>6} {:>10} {:>6} {:>6} {:>6} {:>7} {:>7}\n", "group",
                     "krnls", "n.brs", "n.lps", "detections", "busy", "t.det", "f.det", "f.rate",
                     "missed");
  for (int g = 0; g < 3; ++g) {
    const Row& t = tot[g];
    const double rate = t.loops > 0 ? 100.0 * t.falsedet / t.loops : 0.0;
    out += fmt::format("{:<9} {:>6} {:>7} {:>6} {:>10} {:>6} {:>6} {:>6} {:>6.2f}% {:>7}\n",
                       names[g], kernels[g], t.branches, t.loops, t.detections, t.busy_waits,
                       t.truedet, t.falsedet, rate, t.missed);
  }
  if (unanalysed > 0) out += fmt::format("calls not analysed: {}\n", unanalysed);
  return out;
}

nlohmann::json DetectionTable::to_json() const {
  nlohmann::json j = nlohmann::json::array();
  for (const Row& r : rows_)
    j.push_back({{"file", r.file},
                 {"kernel", r.kernel},
                 {"group", r.group},
                 {"branches", r.branches},
                 {"loops", r.loops},
                 {"detections", r.detections},
                 {"busy_waits", r.busy_waits},
                 {"true", r.truedet},
                 {"false", r.falsedet},
                 {"missed", r.missed},
                 {"calls_not_analysed", r.calls_not_analysed}});
  return j;
}

}  // namespace simtsync::tools
