#include "cmd_view.h"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "common/error.h"
#include "output_file.h"
#include "view_assets.h"

namespace simtsync::tools {
namespace {

constexpr int kLockPid = 100000;  // src/trace/tracer.h
constexpr int kBarrierTid = 1000;
constexpr int kQueueTid = 10000;  // lock queues, under kLockPid

// Inside <script>, "</" would end the element: JSON allows "<\/" for it.
std::string script_safe(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '<' && i + 1 < s.size() && s[i + 1] == '/') {
      out += "<\\/";
      ++i;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::string html_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace

nlohmann::json read_trace(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");  // reads plain files as they are
  if (!f) throw usage_error(fmt::format("cannot read the trace {}", path));
  std::string text;
  char buf[1 << 16];
  int n = 0;
  while ((n = gzread(f, buf, sizeof buf)) > 0) text.append(buf, static_cast<std::size_t>(n));
  const bool bad = n < 0;
  gzclose(f);
  if (bad) throw usage_error(fmt::format("cannot read the trace {}: not gzip or cut short", path));
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw usage_error(fmt::format("{} is not a trace-event JSON file: {}", path, e.what()));
  }
}

nlohmann::json view_model(const nlohmann::json& trace) {
  const nlohmann::json* events = &trace;
  if (trace.is_object()) {
    if (!trace.contains("traceEvents") || !trace["traceEvents"].is_array())
      throw usage_error("the trace has no traceEvents list");
    events = &trace["traceEvents"];
  } else if (!trace.is_array()) {
    throw usage_error("the trace is neither a list of events nor an object with traceEvents");
  }
  using Key = std::tuple<int, int, int>;  // group order, pid, tid
  std::map<std::pair<int, int>, std::string> names;
  std::map<Key, nlohmann::json> tracks;
  std::map<std::pair<int, std::string>, nlohmann::json> counters;
  nlohmann::json watchdog = nullptr;
  std::uint64_t end = 0;
  auto group_of = [](int pid, int tid) {
    if (pid == 0) return 0;
    if (pid == kLockPid) return tid >= kQueueTid ? 4 : 3;
    return tid >= kBarrierTid ? 2 : 1;
  };
  for (const auto& e : *events) {
    const std::string ph = e.value("ph", "");
    const int pid = e.value("pid", 0), tid = e.value("tid", 0);
    const std::string name = e.value("name", "");
    const nlohmann::json args = e.value("args", nlohmann::json::object());
    if (ph == "M") {
      if (name == "thread_name") names[{pid, tid}] = args.value("name", "");
      continue;
    }
    const auto ts = e.value("ts", std::uint64_t{0});
    if (ph == "C") {
      for (const auto& [k, v] : args.items()) {
        auto& c = counters[{pid, name}];
        if (c.is_null())
          c = {{"name", pid == 0 ? name : fmt::format("SM {} {}", pid - 1, name)},
               {"unit", k},
               {"points", nlohmann::json::array()}};
        c["points"].push_back({ts, v});
      }
      continue;
    }
    auto track = [&](int g) -> nlohmann::json& {
      auto& t = tracks[{g, pid, tid}];
      if (t.is_null()) {
        static const char* kinds[] = {"kernel", "warp", "barrier", "lock", "lockq"};
        t = {{"kind", kinds[g]}, {"pid", pid}, {"tid", tid}, {"spans", nlohmann::json::array()}};
        if (g == 1 || g == 2) t["sm"] = pid - 1;
        if (g == 4) t["marks"] = nlohmann::json::array();
      }
      return t;
    };
    if (ph == "i" || ph == "I") {
      if (e.value("cat", "") == "lockq" && group_of(pid, tid) == 4)  // a hand-over
        track(4)["marks"].push_back(
            {ts, args.value("to", ""), args.value("waited", 0), args.value("left", 0)});
      if (e.value("cat", "") == "watchdog")
        watchdog = {
            {"ts", ts}, {"reason", args.value("reason", "")}, {"report", args.value("report", "")}};
      continue;
    }
    if (ph != "X") continue;
    const auto dur = e.value("dur", std::uint64_t{0});
    end = std::max(end, ts + dur);
    const int g = group_of(pid, tid);
    auto& t = track(g);
    nlohmann::json s = {ts, dur, name};
    if (g == 1)
      s.insert(s.end(), {args.value("cta", -1), args.value("warp", -1), args.value("pc", ""),
                         args.value("line", ""), args.value("insts", 0)});
    else if (g == 2)
      s.insert(s.end(), {args.value("cta", -1), args.value("critical_warp", -1),
                         args.value("warps", 0), args.value("critical_slot", -1)});
    else if (g == 3)
      s.insert(s.end(),
               {args.value("cta", -1), args.value("warp", -1), args.value("addr", ""),
                args.value("failed_attempts", 0), args.value("sm", -1), args.value("slot", -1),
                args.value("after_release", -1), args.value("queued", 0)});
    else if (g == 4) {
      std::string who;
      for (const auto& w : args.value("waiters", nlohmann::json::array()))
        if (w.is_string()) who += (who.empty() ? "" : "\n") + w.get<std::string>();
      s.insert(s.end(), {args.value("queued", 0), args.value("addr", ""), who});
    } else
      s.push_back(args.value("completed", true));
    t["spans"].push_back(std::move(s));
  }
  nlohmann::json out;
  out["tracks"] = nlohmann::json::array();
  for (auto& [k, t] : tracks) {
    const auto& [g, pid, tid] = k;
    auto it = names.find({pid, tid});
    std::string label = it != names.end() ? it->second : fmt::format("track {}", tid);
    if (g == 1 || g == 2) label = fmt::format("SM {} {}", pid - 1, label);
    t["label"] = label;
    out["tracks"].push_back(std::move(t));
  }
  out["counters"] = nlohmann::json::array();
  for (auto& [k, c] : counters) out["counters"].push_back(std::move(c));
  out["end"] = end;
  out["watchdog"] = watchdog;
  const nlohmann::json other =
      trace.is_object() ? trace.value("otherData", nlohmann::json::object()) : nlohmann::json();
  out["run"] = other.is_object() ? other.value("run", "") : "";
  out["window"] = other.is_object() ? nlohmann::json{other.value("window_start", nlohmann::json(0)),
                                                     other.value("window_end", nlohmann::json())}
                                    : nlohmann::json();
  return out;
}

int cmd_view(const ViewOptions& o) {
  check_output_path(o.output, "the page (-o)");
  nlohmann::json model = view_model(read_trace(o.trace_path));
  const std::string title =
      o.title.empty() ? (model["run"].get<std::string>().empty() ? o.trace_path
                                                                 : model["run"].get<std::string>())
                      : o.title;
  model["title"] = title;
  if (o.cycles) model["axis_end"] = o.cycles;
  std::string page = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>";
  page += html_escape(title) + " - simtsync timeline</title>\n<style>\n" + viewer_css() +
          "\n</style></head>\n<body>\n<div id=\"app\"></div>\n"
          "<script type=\"application/json\" id=\"trace-data\">" +
          script_safe(model.dump()) + "</script>\n<script>\n" + d3_js() +
          "\n</script>\n<script>\n" + viewer_js() + "\n</script>\n</body></html>\n";
  write_output_file(o.output, page, "the page (-o)");
  std::size_t spans = 0;
  for (const auto& t : model["tracks"]) spans += t["spans"].size();
  fmt::print("simtsync view: {} tracks, {} spans -> {} ({} KiB)\n", model["tracks"].size(), spans,
             o.output, page.size() / 1024);
  return 0;
}

}  // namespace simtsync::tools
