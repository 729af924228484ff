// Helpers for the functional-model tests: wrap a PTX body in a kernel, run it on a Device and
// read results back. Each thread gets one input row of three 64-bit words and writes up to
// kOutWords 64-bit words; the body sees them preloaded in registers (see per_thread_kernel).
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "common/error.h"
#include "func/device.h"
#include "ptx/parser.h"

namespace simtsync::func::testing {

inline constexpr float kNanF = std::numeric_limits<float>::quiet_NaN();
inline constexpr float kInfF = std::numeric_limits<float>::infinity();

using Row = std::array<std::uint64_t, 3>;
inline constexpr unsigned kOutWords = 8;

inline constexpr const char* kHeader =
    ".version 9.0\n.target sm_75\n.address_size 64\n";

// Registers every body may use.
inline constexpr const char* kRegs = R"(
  .reg .pred %p<16>;
  .reg .b16 %h<16>;
  .reg .b32 %r<64>;
  .reg .f32 %f<32>;
  .reg .b64 %rd<64>;
  .reg .f64 %fd<32>;
)";

// A kernel k(out, in). On entry to BODY: %r0 = tid.x; %rd2 = this thread's input row, %rd3 =
// its output row (kOutWords u64); input words 0..2 are in %r1..%r3 (low 32 bits), %rd10..%rd12,
// %f1..%f3 (low 32 bits as f32), %fd1..%fd3. `decls` go before the entry (globals, functions).
inline std::string per_thread_kernel(const std::string& body, const std::string& decls = "") {
  return std::string(kHeader) + decls + "\n.visible .entry k(.param .u64 out, .param .u64 in)\n{\n" +
         kRegs + R"(
  ld.param.u64 %rd0, [out];
  ld.param.u64 %rd1, [in];
  mov.u32 %r0, %tid.x;
  mul.wide.u32 %rd4, %r0, 24;
  add.s64 %rd2, %rd1, %rd4;
  mul.wide.u32 %rd5, %r0, 64;
  add.s64 %rd3, %rd0, %rd5;
  ld.global.u32 %r1, [%rd2];
  ld.global.u32 %r2, [%rd2+8];
  ld.global.u32 %r3, [%rd2+16];
  ld.global.u64 %rd10, [%rd2];
  ld.global.u64 %rd11, [%rd2+8];
  ld.global.u64 %rd12, [%rd2+16];
  ld.global.f32 %f1, [%rd2];
  ld.global.f32 %f2, [%rd2+8];
  ld.global.f32 %f3, [%rd2+16];
  ld.global.f64 %fd1, [%rd2];
  ld.global.f64 %fd2, [%rd2+8];
  ld.global.f64 %fd3, [%rd2+16];
)" + body + "\n  ret;\n}\n";
}

// Runs `text`'s kernel k(out, in) with one block of `threads` (default: one per row).
struct Outcome {
  LaunchResult result;
  std::vector<std::uint64_t> out;  // kOutWords per thread
  std::vector<std::uint64_t> row(unsigned t) const {
    return {out.begin() + t * kOutWords, out.begin() + (t + 1) * kOutWords};
  }
  std::uint64_t at(unsigned t, unsigned w) const { return out[t * kOutWords + w]; }
  std::uint32_t u32(unsigned t, unsigned w) const {
    return static_cast<std::uint32_t>(at(t, w));
  }
  std::int32_t s32(unsigned t, unsigned w) const { return static_cast<std::int32_t>(u32(t, w)); }
  float f32(unsigned t, unsigned w) const { return std::bit_cast<float>(u32(t, w)); }
  double f64(unsigned t, unsigned w) const { return std::bit_cast<double>(at(t, w)); }
};

inline Outcome run_text(const std::string& text, std::vector<Row> rows, unsigned threads = 0,
                        unsigned grid = 1, DeviceOptions opts = {}) {
  if (threads == 0) threads = static_cast<unsigned>(rows.size());
  rows.resize(std::max<std::size_t>(rows.size(), std::size_t{threads} * grid));
  Device dev(opts);
  int m = dev.load_module(ptx::parse_module(text, "test.ptx"));
  std::vector<std::uint64_t> in;
  for (const Row& r : rows) in.insert(in.end(), r.begin(), r.end());
  std::size_t nout = std::size_t{threads} * grid * kOutWords;
  Addr out = dev.upload(std::vector<std::uint64_t>(nout, 0));
  Addr inp = dev.upload(in);
  Outcome o;
  o.result = dev.launch(m, "k", Dim3{grid, 1, 1}, Dim3{threads, 1, 1},
                        KernelArgs().add(out).add(inp));
  o.out = dev.download<std::uint64_t>(out, nout);
  return o;
}

// Runs BODY (see per_thread_kernel) with one thread per row.
inline Outcome run_body(const std::string& body, const std::vector<Row>& rows,
                        const std::string& decls = "") {
  Outcome o = run_text(per_thread_kernel(body, decls), rows);
  EXPECT_TRUE(o.result.completed) << o.result.watchdog_report;
  return o;
}

// Input-word encoders.
inline std::uint64_t w32(std::int64_t v) { return static_cast<std::uint32_t>(v); }
inline std::uint64_t w64(std::int64_t v) { return static_cast<std::uint64_t>(v); }
inline std::uint64_t wf(float v) { return std::bit_cast<std::uint32_t>(v); }
inline std::uint64_t wd(double v) { return std::bit_cast<std::uint64_t>(v); }

inline std::string source_dir() {
  if (const char* e = std::getenv("SIMTSYNC_SOURCE_DIR")) return e;
#ifdef SIMTSYNC_SOURCE_DIR
  return SIMTSYNC_SOURCE_DIR;
#else
  return ".";
#endif
}

}  // namespace simtsync::func::testing
