// The calls the CUDA runtime implements for device code: vprintf (device printf) and
// __assertfail (assert). nvcc passes printf's arguments as a per-thread buffer in local memory,
// each argument aligned to its size: int/unsigned and smaller 4 bytes, long long and double 8
// (float is promoted to double), pointers (and %s strings) 8.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "func/executor.h"

namespace simtsync::func {
namespace {

constexpr std::size_t kMaxString = 4096;  // longest device string read (format, %s, assert)

// Formats one conversion with the host's snprintf (the device's rules are C's).
template <typename T>
std::string format_one(const std::string& spec, T v) {
  char buf[512];
  const int n = std::snprintf(buf, sizeof buf, spec.c_str(), v);
  return n < 0 ? std::string() : std::string(buf, std::min<std::size_t>(n, sizeof buf - 1));
}

}  // namespace

std::string Executor::device_string(Warp& w, unsigned lane, const ExecInst& in, Addr generic) {
  std::string s;
  if (generic == 0) return "(null)";
  if (generic >= kSharedWindow && generic < kSharedWindow + kWindowSize)
    fault(w, lane, in, fmt::format("device string at {:#x} is in shared memory", generic));
  const bool local = generic >= kLocalWindow && generic < kLocalWindow + kWindowSize;
  for (Addr a = generic; s.size() < kMaxString; ++a) {
    char c = 0;
    if (local) {
      c = static_cast<char>(*w.local(lane, a - kLocalWindow, 1));
    } else {
      if (!rd_.valid(a, 1))
        fault(w, lane, in,
              fmt::format("device string at {:#x} runs outside global memory ({})", generic,
                          mem_.describe(a)));
      rd_.read_small(a, &c, 1);
    }
    if (c == '\0') break;
    s.push_back(c);
  }
  return s;
}

void Executor::exec_host_call(Warp& w, const ExecInst& in, LaneMask m) {
  auto arg64 = [&](unsigned lane, std::size_t k) {
    std::uint64_t v = 0;
    std::memcpy(&v, w.local(lane, w.frame_base + in.call_args[k], 8), 8);
    return v;
  };
  for (int li : lanes(m)) {
    const auto l = static_cast<unsigned>(li);
    if (in.host_call == HostCall::kAssertFail) {
      std::uint32_t line = 0;
      std::memcpy(&line, w.local(l, w.frame_base + in.call_args[2], 4), 4);
      fault(w, l, in,
            fmt::format("device-side assertion '{}' failed at {}:{} in {}",
                        device_string(w, l, in, arg64(l, 0)), device_string(w, l, in, arg64(l, 1)),
                        line, device_string(w, l, in, arg64(l, 3))));
    }
    const std::string format = device_string(w, l, in, arg64(l, 0));
    const Addr buffer = arg64(l, 1);
    std::uint64_t offset = 0;
    // The next argument of `bytes` bytes, aligned to its size.
    auto next_arg = [&](unsigned bytes) -> std::uint64_t {
      offset = (offset + bytes - 1) / bytes * bytes;
      std::uint64_t v = 0;
      const Addr a = buffer + offset;
      if (a >= kLocalWindow && a < kLocalWindow + kWindowSize) {
        std::memcpy(&v, w.local(l, a - kLocalWindow, bytes), bytes);
      } else if (rd_.valid(a, bytes)) {
        rd_.read_small(a, &v, bytes);
      } else {
        fault(w, l, in, fmt::format("printf argument buffer at {:#x} is not readable", a));
      }
      offset += bytes;
      return v;
    };
    std::string out;
    int count = 0;
    for (std::size_t i = 0; i < format.size(); ++i) {
      if (format[i] != '%') {
        out.push_back(format[i]);
        continue;
      }
      if (i + 1 < format.size() && format[i + 1] == '%') {
        out.push_back('%');
        ++i;
        continue;
      }
      // %[flags][width][.precision][length]conversion; '*' widths are not supported by CUDA.
      std::size_t j = i + 1;
      while (j < format.size() && std::strchr("-+ #0", format[j])) ++j;
      while (j < format.size() && std::isdigit(static_cast<unsigned char>(format[j]))) ++j;
      if (j < format.size() && format[j] == '.') {
        ++j;
        while (j < format.size() && std::isdigit(static_cast<unsigned char>(format[j]))) ++j;
      }
      const std::size_t len_at = j;
      while (j < format.size() && std::strchr("hlLzjt", format[j])) ++j;
      if (j >= format.size()) {
        out += format.substr(i);
        break;
      }
      const std::string length = format.substr(len_at, j - len_at);
      const char conv = format[j];
      const std::string flags = format.substr(i, len_at - i);  // "%" flags width precision
      const bool wide =
          length == "l" || length == "ll" || length == "z" || length == "j" || length == "t";
      ++count;
      switch (conv) {
        case 'd':
        case 'i':
          out += wide ? format_one(flags + "lld", static_cast<long long>(next_arg(8)))
                      : format_one(flags + "d", static_cast<int>(next_arg(4)));
          break;
        case 'u':
        case 'x':
        case 'X':
        case 'o':
          out += wide
                     ? format_one(flags + "ll" + conv, static_cast<unsigned long long>(next_arg(8)))
                     : format_one(flags + conv, static_cast<unsigned>(next_arg(4)));
          break;
        case 'c':
          out += format_one(flags + "c", static_cast<int>(next_arg(4)));
          break;
        case 'f':
        case 'F':
        case 'e':
        case 'E':
        case 'g':
        case 'G':
        case 'a':
        case 'A': {
          const std::uint64_t bits = next_arg(8);
          double d;
          std::memcpy(&d, &bits, 8);
          out += format_one(flags + conv, d);
          break;
        }
        case 'p':
          out += format_one("%p", reinterpret_cast<void*>(next_arg(8)));
          break;
        case 's':
          out += format_one(flags + "s", device_string(w, l, in, next_arg(8)).c_str());
          break;
        default:
          fault(w, l, in, fmt::format("printf conversion '%{}' is not supported", conv));
      }
      i = j;
    }
    printf_.push_back(PrintfRecord{clock(), w.global_id, l, std::move(out)});
    if (!in.call_rets.empty()) {  // vprintf returns the number of arguments
      const std::uint32_t r = static_cast<std::uint32_t>(count);
      std::memcpy(w.local(l, w.frame_base + in.call_rets[0], 4), &r, 4);
    }
  }
}

std::string Executor::merged_printf(const std::vector<const Executor*>& executors) {
  std::vector<const PrintfRecord*> all;
  for (const Executor* e : executors)
    for (const auto& r : e->printf_) all.push_back(&r);
  std::stable_sort(all.begin(), all.end(), [](const PrintfRecord* a, const PrintfRecord* b) {
    if (a->when != b->when) return a->when < b->when;
    if (a->warp != b->warp) return a->warp < b->warp;
    return a->lane < b->lane;
  });
  std::string out;
  for (const auto* r : all) out += r->text;
  return out;
}

}  // namespace simtsync::func
