// Memory semantics: global and shared atomics of every op and width, red, vectors, local,
// const with an initializer, generic addressing, shared reductions, and faults (out of bounds,
// misaligned) that stop the kernel with kKernelFault naming the thread and the address.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdint>
#include <new>
#include <numeric>
#include <set>

#include "common/range.h"
#include "func/global_memory.h"
#include "func/program.h"
#include "func_test_util.h"
#include "ptx/parser.h"

namespace simtsync::func::testing {
namespace {

using u32 = std::uint32_t;
using s32 = std::int32_t;
using u64 = std::uint64_t;

constexpr unsigned kWarp = 32;

// Rows 0..31: {t, t - 16, float(t)}; rows 32.. are scratch words (not loaded by any thread),
// addressed in the body as [%rd30 + 8*k].
std::vector<Row> atomic_rows(std::vector<u64> scratch) {
  std::vector<Row> rows;
  for (unsigned t = 0; t < kWarp; ++t)
    rows.push_back({t, w32(static_cast<s32>(t) - 16), wf(static_cast<float>(t))});
  scratch.resize((scratch.size() + 2) / 3 * 3, 0);
  for (std::size_t i = 0; i < scratch.size(); i += 3)
    rows.push_back({scratch[i], scratch[i + 1], scratch[i + 2]});
  return rows;
}

constexpr const char* kScratch = "  add.s64 %rd30, %rd1, 768;\n";
// After the atomics: thread t < n copies scratch word t to its output word 7.
std::string dump_scratch(unsigned n, const std::string& space = "global",
                         const std::string& base = "%rd30") {
  return "  bar.sync 0;\n  setp.lt.u32 %p15, %r0, " + std::to_string(n) +
         ";\n  mul.wide.u32 %rd40, %r0, 8;\n  add.s64 %rd41, " + base + ", %rd40;\n  @%p15 ld." +
         space + ".u64 %rd42, [%rd41];\n  @%p15 st.global.u64 [%rd3+56], %rd42;\n";
}

TEST(Memory, GlobalAtomicsArithmetic) {
  std::vector<u64> scratch = {10, u64{1} << 40, wf(0.5f), w32(-100), 100, 0, 3, 0};
  std::string body = std::string(kScratch) + R"(
  atom.global.add.u32 %r10, [%rd30], %r1;        st.global.u32 [%rd3], %r10;
  atom.global.add.u64 %rd20, [%rd30+8], %rd10;   st.global.u64 [%rd3+8], %rd20;
  atom.global.add.f32 %f10, [%rd30+16], %f3;     st.global.f32 [%rd3+16], %f10;
  atom.global.max.s32 %r11, [%rd30+24], %r2;     st.global.u32 [%rd3+24], %r11;
  atom.global.min.s32 %r12, [%rd30+32], %r2;     st.global.u32 [%rd3+32], %r12;
  atom.global.inc.u32 %r13, [%rd30+40], 9;       st.global.u32 [%rd3+40], %r13;
  atom.global.dec.u32 %r14, [%rd30+48], 9;       st.global.u32 [%rd3+48], %r14;
  red.global.add.u32 [%rd30+56], 1;
)" + dump_scratch(8);
  auto o = run_text(per_thread_kernel(body), atomic_rows(scratch), kWarp);
  ASSERT_TRUE(o.result.completed);
  EXPECT_EQ(o.u32(0, 7), 10u + 31 * 32 / 2);
  EXPECT_EQ(o.at(1, 7), (u64{1} << 40) + 31 * 32 / 2);
  EXPECT_EQ(std::bit_cast<float>(o.u32(2, 7)), 0.5f + 31 * 32 / 2);
  EXPECT_EQ(static_cast<s32>(o.u32(3, 7)), 15);
  EXPECT_EQ(static_cast<s32>(o.u32(4, 7)), -16);
  EXPECT_EQ(o.u32(5, 7), 32u % 10);  // inc wraps to 0 after reaching 9
  EXPECT_EQ(o.u32(6, 7), 1u);        // dec: 3,2,1,0,9,8,... 32 times
  EXPECT_EQ(o.u32(7, 7), 32u);
  // Old values: every lane saw a distinct intermediate of the u32 add, and inc saw 0..9.
  std::set<u32> olds, incs;
  for (unsigned t = 0; t < kWarp; ++t) olds.insert(o.u32(t, 0)), incs.insert(o.u32(t, 5));
  EXPECT_EQ(olds.size(), kWarp - 1);  // thread 0 adds 0: its old equals the next one's
  EXPECT_EQ(*olds.begin(), 10u);
  EXPECT_EQ(incs.size(), 10u);
}

TEST(Memory, GlobalAtomicsBitwiseExchCas) {
  std::vector<u64> scratch = {0xffffffff, 0, 0, 77, 0, u64{1} << 32};
  std::string body = std::string(kScratch) + R"(
  mov.u32 %r20, 1;
  shl.b32 %r21, %r20, %r0;
  not.b32 %r22, %r21;
  or.b32 %r23, %r21, 1;
  atom.global.and.b32 %r10, [%rd30], %r22;
  atom.global.or.b32 %r11, [%rd30+8], %r21;
  atom.global.xor.b32 %r12, [%rd30+16], %r23;
  atom.global.exch.b32 %r13, [%rd30+24], %r0;    st.global.u32 [%rd3], %r13;
  atom.global.cas.b32 %r14, [%rd30+32], %r0, 100; st.global.u32 [%rd3+8], %r14;
  cvt.u64.u32 %rd20, %r0;
  add.s64 %rd21, %rd20, 8589934592;
  atom.global.cas.b64 %rd22, [%rd30+40], 4294967296, %rd21; st.global.u64 [%rd3+16], %rd22;
)" + dump_scratch(6);
  auto o = run_text(per_thread_kernel(body), atomic_rows(scratch), kWarp);
  ASSERT_TRUE(o.result.completed);
  EXPECT_EQ(o.u32(0, 7), 0u);
  EXPECT_EQ(o.u32(1, 7), 0xffffffffu);
  EXPECT_EQ(o.u32(2, 7), 0xfffffffeu);
  // exch: the olds plus the final value are exactly {77, 0..31}.
  std::multiset<u32> seen = {o.u32(3, 7)};
  for (unsigned t = 0; t < kWarp; ++t) seen.insert(o.u32(t, 0));
  std::multiset<u32> want = {77};
  for (unsigned t = 0; t < kWarp; ++t) want.insert(t);
  EXPECT_EQ(seen, want);
  // cas.b32: only thread 0's compare value (0) matches; it installs 100.
  EXPECT_EQ(o.u32(4, 7), 100u);
  EXPECT_EQ(o.u32(0, 1), 0u);
  for (unsigned t = 1; t < kWarp; ++t) EXPECT_EQ(o.u32(t, 1), 100u) << t;
  // cas.b64: exactly one winner saw 2^32; everybody else saw its value.
  u64 fin = o.at(5, 7);
  ASSERT_GE(fin, u64{2} << 32);
  unsigned winner = static_cast<unsigned>(fin - (u64{2} << 32));
  ASSERT_LT(winner, kWarp);
  for (unsigned t = 0; t < kWarp; ++t) EXPECT_EQ(o.at(t, 2), t == winner ? u64{1} << 32 : fin) << t;
  // One winner per compare-and-swap; a failed one whose word already holds the value it would
  // have written (threads 1-31 of the b32 one: 100) still failed.
  EXPECT_EQ(o.result.stats.cas_attempts, 2u * kWarp);
  EXPECT_EQ(o.result.stats.cas_failures, 2u * kWarp - 2);
}

TEST(Memory, SharedAtomics) {
  std::string body = R"(
  mov.u64 %rd30, sm;
  setp.eq.u32 %p1, %r0, 0;
  @%p1 st.shared.u64 [sm], 5;
  @%p1 st.shared.f32 [sm+8], 0f447A0000;
  @%p1 st.shared.u32 [sm+16], 7;
  @%p1 st.shared.u32 [sm+24], 0;
  @%p1 st.shared.u32 [sm+32], 0;
  @%p1 st.shared.u32 [sm+40], 0;
  bar.sync 0;
  atom.shared.add.u64 %rd20, [%rd30], %rd10;
  atom.shared.add.f32 %f10, [sm+8], %f3;
  atom.shared.cas.b32 %r10, [sm+16], 7, %r0;
  atom.shared.exch.b32 %r11, [%rd30+24], %r1;
  atom.shared.max.s32 %r12, [sm+32], %r2;
  atom.shared.or.b32 %r13, [sm+40], %r1;
  atom.shared.inc.u32 %r14, [sm+44], 3;
)" + dump_scratch(6, "shared");
  auto o =
      run_text(per_thread_kernel(body, ".shared .align 8 .b8 sm[64];"), atomic_rows({}), kWarp);
  ASSERT_TRUE(o.result.completed);
  EXPECT_EQ(o.at(0, 7), 5u + 31 * 32 / 2);
  EXPECT_EQ(std::bit_cast<float>(o.u32(1, 7)), 1000.f + 31 * 32 / 2);
  unsigned cas_winner = o.u32(2, 7);  // first lane to see 7 installs its tid
  EXPECT_LT(cas_winner, kWarp);
  EXPECT_LT(o.u32(3, 7), kWarp);
  EXPECT_EQ(o.u32(4, 7), 15u);
  EXPECT_EQ(o.u32(5, 7), 31u);           // or of 0..31
  EXPECT_EQ(o.at(5, 7) >> 32, 32u % 4);  // inc.u32 wraps at 3: the word after 'or'
}

// Issue 50 item 1: shared addresses are 32 bits. nvcc -O3 keeps a base register below a
// variable and adds an immediate past it: [a+68] with a = base - 64 reads base + 4, where a
// 64-bit sum faulted at offset 0x100000004.
TEST(Memory, SharedAddressOf32BitRegisterWraps) {
  std::string body = R"(
  mov.u32 %r20, sm;
  shl.b32 %r21, %r0, 2;
  add.u32 %r22, %r20, %r21;
  add.u32 %r23, %r0, 100;
  st.shared.u32 [%r22], %r23;
  bar.sync 0;
  sub.u32 %r24, %r20, 64;
  ld.shared.u32 %r25, [%r24+68];
  st.global.u32 [%rd3], %r25;
)";
  auto o =
      run_text(per_thread_kernel(body, ".shared .align 8 .b8 sm[128];"), atomic_rows({}), kWarp);
  ASSERT_TRUE(o.result.completed);
  for (unsigned t = 0; t < kWarp; ++t) EXPECT_EQ(o.u32(t, 0), 101u) << "thread " << t;
}

TEST(Memory, SharedReductionWithBarriers) {
  constexpr unsigned kThreads = 128;
  std::string body = R"(
  mov.u32 %r20, red;
  shl.b32 %r21, %r0, 2;
  add.s32 %r22, %r20, %r21;
  st.shared.u32 [%r22], %r1;
  bar.sync 0;
  mov.u32 %r23, 64;
$LOOP:
  setp.ge.u32 %p1, %r0, %r23;
  @%p1 bra $SKIP;
  shl.b32 %r24, %r23, 2;
  add.s32 %r25, %r22, %r24;
  ld.shared.u32 %r26, [%r25];
  ld.shared.u32 %r27, [%r22];
  add.s32 %r27, %r27, %r26;
  st.shared.u32 [%r22], %r27;
$SKIP:
  bar.sync 0;
  shr.u32 %r23, %r23, 1;
  setp.ne.u32 %p2, %r23, 0;
  @%p2 bra $LOOP;
  ld.shared.u32 %r28, [red];
  st.global.u32 [%rd3], %r28;
)";
  std::vector<Row> rows;
  u32 sum = 0;
  for (unsigned t = 0; t < kThreads; ++t) {
    rows.push_back({t * 3 + 1, 0, 0});
    sum += t * 3 + 1;
  }
  auto o = run_text(per_thread_kernel(body, ".shared .align 4 .b32 red[128];"), rows);
  ASSERT_TRUE(o.result.completed) << o.result.watchdog_report;
  for (unsigned t = 0; t < kThreads; ++t) EXPECT_EQ(o.u32(t, 0), sum) << t;
}

TEST(Memory, VectorLoadsAndStores) {
  std::vector<Row> rows = {{0x1111111122222222, 0x3333333344444444, wd(2.5)}};
  auto o = run_body(R"(
  ld.global.v2.u32 {%r10, %r11}, [%rd2];
  ld.global.v4.u32 {%r12, %r13, %r14, %r15}, [%rd2];
  st.global.v4.u32 [%rd3], {%r15, %r14, %r13, %r12};
  st.global.v2.u32 [%rd3+16], {%r11, %r10};
  ld.global.v2.u64 {%rd20, %rd21}, [%rd2];
  st.global.v2.u64 [%rd3+32], {%rd21, %rd20};
  ld.global.v2.f64 {%fd10, %fd11}, [%rd2];
  add.f64 %fd12, %fd11, %fd11;
  st.global.f64 [%rd3+48], %fd12;
)",
                    rows);
  // r12..r15 = 0x22222222, 0x11111111, 0x44444444, 0x33333333 (little-endian words).
  EXPECT_EQ(o.at(0, 0), 0x4444444433333333u);
  EXPECT_EQ(o.at(0, 1), 0x2222222211111111u);
  EXPECT_EQ(o.at(0, 2), 0x2222222211111111u);
  EXPECT_EQ(o.at(0, 4), 0x3333333344444444u);
  EXPECT_EQ(o.at(0, 5), 0x1111111122222222u);
  EXPECT_EQ(o.f64(0, 6), 2 * std::bit_cast<double>(u64{0x3333333344444444}));
}

TEST(Memory, LocalArraysArePerThread) {
  std::string body = R"(
  .local .align 4 .b32 arr[8];
  mov.u64 %rd20, arr;
  mov.u32 %r10, 0;
$FILL:
  mul.lo.s32 %r11, %r10, %r1;
  mul.wide.u32 %rd21, %r10, 4;
  add.s64 %rd22, %rd20, %rd21;
  st.local.u32 [%rd22], %r11;
  add.s32 %r10, %r10, 1;
  setp.lt.u32 %p1, %r10, 8;
  @%p1 bra $FILL;
  bar.sync 0;
  ld.local.u32 %r12, [arr+12];
  st.global.u32 [%rd3], %r12;
  ld.local.u32 %r13, [%rd20+28];
  st.global.u32 [%rd3+8], %r13;
  cvta.local.u64 %rd23, %rd20;
  ld.u32 %r14, [%rd23+20];
  st.global.u32 [%rd3+16], %r14;
)";
  std::vector<Row> rows;
  for (unsigned t = 0; t < 40; ++t) rows.push_back({t + 100, 0, 0});
  auto o = run_text(per_thread_kernel(body), rows);
  ASSERT_TRUE(o.result.completed);
  for (unsigned t = 0; t < 40; ++t) {
    EXPECT_EQ(o.u32(t, 0), 3 * (t + 100)) << t;
    EXPECT_EQ(o.u32(t, 1), 7 * (t + 100)) << t;
    EXPECT_EQ(o.u32(t, 2), 5 * (t + 100)) << t;
  }
}

TEST(Memory, ConstWithInitializer) {
  auto o = run_body(R"(
  ld.const.u32 %r10, [tab+4];      st.global.u32 [%rd3], %r10;
  mov.u64 %rd20, tab;
  mul.wide.u32 %rd21, %r1, 4;
  add.s64 %rd22, %rd20, %rd21;
  ld.const.u32 %r11, [%rd22];      st.global.u32 [%rd3+8], %r11;
  ld.const.f32 %f10, [ftab+4];     st.global.f32 [%rd3+16], %f10;
)",
                    {{0, 0, 0}, {3, 0, 0}},
                    ".const .align 4 .b32 tab[4] = {11, 22, 33, 4294967295};\n"
                    ".const .align 4 .f32 ftab[2] = {0f3F800000, 0f40490FDB};\n");
  EXPECT_EQ(o.u32(0, 0), 22u);
  EXPECT_EQ(o.u32(0, 1), 11u);
  EXPECT_EQ(o.u32(1, 1), 0xffffffffu);
  EXPECT_EQ(o.f32(0, 2), std::bit_cast<float>(0x40490FDBu));
}

TEST(Memory, GenericAddressingOfShared) {
  std::string body = R"(
  mov.u64 %rd20, buf;
  cvta.shared.u64 %rd21, %rd20;
  mul.wide.u32 %rd22, %r0, 4;
  add.s64 %rd23, %rd21, %rd22;
  st.u32 [%rd23], %r1;
  bar.sync 0;
  xor.b32 %r10, %r0, 1;
  mul.wide.u32 %rd24, %r10, 4;
  add.s64 %rd25, %rd20, %rd24;
  ld.shared.u32 %r11, [%rd25];          st.global.u32 [%rd3], %r11;
  cvta.to.shared.u64 %rd26, %rd23;
  ld.shared.u32 %r12, [%rd26];          st.global.u32 [%rd3+8], %r12;
  ld.u32 %r13, [%rd23];                 st.global.u32 [%rd3+16], %r13;
  cvta.global.u64 %rd27, %rd2;
  ld.u32 %r14, [%rd27];                 st.global.u32 [%rd3+24], %r14;
  isspacep.shared %p1, %rd23;
  selp.u32 %r15, 1, 0, %p1;            st.global.u32 [%rd3+32], %r15;
)";
  std::vector<Row> rows;
  for (unsigned t = 0; t < 8; ++t) rows.push_back({t * 11, 0, 0});
  auto o = run_text(per_thread_kernel(body, ".shared .align 4 .b32 buf[8];"), rows);
  ASSERT_TRUE(o.result.completed);
  for (unsigned t = 0; t < 8; ++t) {
    SCOPED_TRACE(t);
    EXPECT_EQ(o.u32(t, 0), (t ^ 1) * 11);
    EXPECT_EQ(o.u32(t, 1), t * 11);
    EXPECT_EQ(o.u32(t, 2), t * 11);
    EXPECT_EQ(o.u32(t, 3), t * 11);
    EXPECT_EQ(o.u32(t, 4), 1u);
  }
}

// Runs a kernel expected to fault and returns the error.
Error expect_fault(const std::string& body, unsigned threads, const std::string& decls = "") {
  std::vector<Row> rows(threads, Row{0, 0, 0});
  try {
    run_text(per_thread_kernel(body, decls), rows);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "kernel did not fault";
  return Error(ExitCode::kOk, "");
}

TEST(MemoryFaults, OutOfBoundsGlobalStoreNamesThreadAndAddress) {
  // Thread 5 stores just past the end of the output buffer (8 threads x 64 bytes).
  Error e = expect_fault(R"(
  setp.eq.u32 %p1, %r0, 5;
  @%p1 st.global.u32 [%rd3+192], %r0;
)",
                         8);
  EXPECT_EQ(e.code(), ExitCode::kKernelFault);
  std::string msg = e.what();
  EXPECT_NE(msg.find("thread"), std::string::npos) << msg;
  EXPECT_NE(msg.find("(5,0,0)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("out-of-bounds"), std::string::npos) << msg;
}

TEST(MemoryFaults, NullLoadNamesAddress) {
  Error e = expect_fault("  mov.u64 %rd20, 16;\n  ld.global.u32 %r10, [%rd20];\n", 1);
  EXPECT_EQ(e.code(), ExitCode::kKernelFault);
  std::string msg = e.what();
  EXPECT_NE(msg.find("0x10"), std::string::npos) << msg;
  EXPECT_NE(msg.find("thread"), std::string::npos) << msg;
}

TEST(MemoryFaults, AddressInMessage) {
  std::vector<Row> rows(1, Row{0, 0, 0});
  Device dev;
  std::string text = per_thread_kernel("  st.global.u32 [%rd3+1000], %r0;\n");
  int m = dev.load_module(ptx::parse_module(text, "t.ptx"));
  Addr out = dev.upload(std::vector<u64>(kOutWords, 0));
  Addr in = dev.upload(std::vector<u64>(3, 0));
  try {
    dev.launch(m, "k", Dim3{1, 1, 1}, Dim3{1, 1, 1}, KernelArgs().add(out).add(in));
    ADD_FAILURE() << "no fault";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kKernelFault);
    char hex[32];
    std::snprintf(hex, sizeof hex, "%#llx", static_cast<unsigned long long>(out + 1000));
    EXPECT_NE(std::string(e.what()).find(hex), std::string::npos) << e.what() << " lacks " << hex;
  }
}

TEST(MemoryFaults, MisalignedAccessFaults) {
  Error g = expect_fault("  ld.global.u32 %r10, [%rd2+2];\n", 1);
  EXPECT_EQ(g.code(), ExitCode::kKernelFault);
  EXPECT_NE(std::string(g.what()).find("misaligned"), std::string::npos) << g.what();
  Error s = expect_fault("  st.shared.u64 [sm+4], %rd10;\n", 1, ".shared .align 8 .b8 sm[16];");
  EXPECT_EQ(s.code(), ExitCode::kKernelFault);
  Error v = expect_fault("  ld.global.v4.u32 {%r10, %r11, %r12, %r13}, [%rd2+8];\n", 1);
  EXPECT_EQ(v.code(), ExitCode::kKernelFault);
}

TEST(MemoryFaults, SharedOutOfBounds) {
  Error e = expect_fault("  st.shared.u32 [sm+64], %r0;\n", 1, ".shared .align 4 .b8 sm[16];");
  EXPECT_EQ(e.code(), ExitCode::kKernelFault);
  EXPECT_NE(std::string(e.what()).find("shared"), std::string::npos) << e.what();
}

// [addr, addr + size) must not wrap past 2^64 into a check that passes: at the top of the
// address space every global, shared and local access faults (before, a global store and load
// at 0xFFFFFFFFFFFFFFFC succeeded: addr + 4 == 0 passed `addr + size <= end`, and shared and
// local accesses there indexed host memory far out of bounds).
TEST(MemoryFaults, AccessesAtTheTopOfTheAddressSpaceFault) {
  for (const char* body : {"  mov.u64 %rd20, -4;\n  st.global.u32 [%rd20], %r0;\n",
                           "  mov.u64 %rd20, -4;\n  ld.global.u32 %r10, [%rd20];\n",
                           "  mov.u64 %rd20, -8;\n  st.global.u64 [%rd20], %rd10;\n",
                           "  mov.u64 %rd20, -16;\n  ld.global.v4.u32 {%r10, %r11, %r12, %r13}, "
                           "[%rd20];\n",
                           "  mov.u64 %rd20, -4;\n  st.u32 [%rd20], %r0;\n",
                           "  mov.u64 %rd20, -4;\n  atom.global.add.u32 %r10, [%rd20], 1;\n",
                           "  mov.u64 %rd20, -4;\n  st.shared.u32 [%rd20], %r0;\n",
                           "  mov.u64 %rd20, -4;\n  ld.local.u32 %r10, [%rd20];\n"}) {
    SCOPED_TRACE(body);
    Error e = expect_fault(body, 1, ".shared .align 4 .b8 sm[16];");
    EXPECT_EQ(e.code(), ExitCode::kKernelFault) << e.what();
  }
}

TEST(GlobalMemoryRanges, ChecksNeverWrapAtTheTopOfTheAddressSpace) {
  EXPECT_TRUE(range_within(0x1000, 0x10, 0x1000, 0x1010));
  EXPECT_TRUE(range_within(0x1010, 0, 0x1000, 0x1010));
  EXPECT_FALSE(range_within(0x1008, 0x10, 0x1000, 0x1010));
  EXPECT_FALSE(range_within(0xFFFFFFFFFFFFFFFCull, 4, 0x1000, 0x2000));
  EXPECT_FALSE(range_within(0x1000, ~std::uint64_t{0}, 0x1000, 0x2000));
  EXPECT_TRUE(range_within(~Addr{0} - 8, 4, ~Addr{0} - 16, ~Addr{0}));
  EXPECT_FALSE(range_within(~Addr{0} - 2, 4, ~Addr{0} - 16, ~Addr{0}));
  Addr end = 7;
  EXPECT_FALSE(range_end(~Addr{0} - 3, 4, end));
  EXPECT_EQ(end, 7u);
  EXPECT_TRUE(range_end(~Addr{0} - 3, 3, end));
  EXPECT_EQ(end, ~Addr{0});

  GlobalMemory m;
  const Addr top = 0xFFFFFFFFFFFF0000ull;
  m.map(top, 0x1000, "top buffer");
  EXPECT_TRUE(m.valid(top, 0x1000));
  EXPECT_TRUE(m.valid(top + 0xFFC, 4));
  EXPECT_FALSE(m.valid(top + 0xFFC, 8));
  EXPECT_FALSE(m.valid(0xFFFFFFFFFFFFFFFCull, 4));  // past the last range: 0xF..FC + 4 wraps to 0
  EXPECT_FALSE(m.valid(top, ~std::uint64_t{0}));
  GlobalMemory::Reader r(m);
  EXPECT_TRUE(r.valid(top, 16));  // now cached
  EXPECT_FALSE(r.valid(0xFFFFFFFFFFFFFFFCull, 4));
  EXPECT_FALSE(m.valid(top + 8, ~std::uint64_t{0} - 4));
  // Mapping or allocating a range that runs past 2^64 is refused, not wrapped.
  EXPECT_THROW(m.map(0xFFFFFFFFFFFFFFF0ull, 0x20, "wrapping"), Error);
  EXPECT_THROW((void)m.allocate(~std::uint64_t{0} - 16, "huge"), Error);
}

TEST(MemoryFaults, TrapFaults) {
  Error e = expect_fault("  trap;\n", 1);
  EXPECT_EQ(e.code(), ExitCode::kKernelFault);
}

}  // namespace
}  // namespace simtsync::func::testing

namespace simtsync::func::testing {

// Lock-bit intrinsics (seed 001 sec. 3.2; workloads/include/simtsync.cuh): calls to
// simtsync_ldslk/simtsync_stsul execute as LDSLK/STSUL on the shared-memory lock unit.
namespace {
constexpr const char* kLockBitDecls = R"(
.shared .align 4 .b32 words[2048];
.func (.param .b64 r) simtsync_ldslk(.param .b64 p)
{
  .reg .b64 %x;
  trap;
  mov.u64 %x, 0;
  st.param.b64 [r], %x;
  ret;
}
.func simtsync_stsul(.param .b64 p, .param .b32 v)
{
  trap;
  ret;
}
)";
// %rd23 = the generic address of words[%r20].
constexpr const char* kWordAddr = R"(
  mov.u32 %r21, words;
  cvt.u64.u32 %rd20, %r21;
  cvta.shared.u64 %rd21, %rd20;
  mul.wide.u32 %rd22, %r20, 4;
  add.s64 %rd23, %rd21, %rd22;
)";
// Every thread tries the lock bit of words[%r20]; out word 0 = the packed LDSLK result.
const std::string kLdslk = std::string(kWordAddr) + R"(
  {
  .param .b64 param0;
  st.param.b64 [param0], %rd23;
  .param .b64 retval0;
  call.uni (retval0), simtsync_ldslk, (param0);
  ld.param.b64 %rd24, [retval0];
  }
  st.global.u64 [%rd3], %rd24;
)";
}  // namespace

TEST(LockBits, OnlyTheFirstLaneAskingForABitTakesIt) {
  // Threads 0..3 ask for word 0's bit; threads 4..7 for words 4..7, each its own.
  const std::string body = std::string(R"(
  setp.lt.u32 %p1, %r0, 4;
  selp.u32 %r20, 0, %r0, %p1;
  st.shared.u32 [words+16], 77;
)") + kLdslk;
  auto o = run_text(per_thread_kernel(body, kLockBitDecls), std::vector<Row>(8));
  ASSERT_TRUE(o.result.completed) << o.result.watchdog_report;
  EXPECT_EQ(o.at(0, 0) >> 32, 1u);
  for (unsigned t = 1; t < 4; ++t) EXPECT_EQ(o.at(t, 0) >> 32, 0u) << t;
  for (unsigned t = 4; t < 8; ++t) EXPECT_EQ(o.at(t, 0) >> 32, 1u) << t;
  EXPECT_EQ(o.u32(4, 0), 77u);  // LDSLK also reads the word
  EXPECT_EQ(o.result.stats.lock_bit_loads, 8u);
  EXPECT_EQ(o.result.stats.lock_bit_acquired, 5u);
}

TEST(LockBits, WordsLockBitsApartShareABit) {
  // Thread 0 asks for word 3, thread 1 for word 3 + 1024: the same lock bit (1024 bits).
  const std::string body = std::string(R"(
  mul.lo.u32 %r20, %r0, 1024;
  add.u32 %r20, %r20, 3;
)") + kLdslk;
  auto o = run_text(per_thread_kernel(body, kLockBitDecls), std::vector<Row>(2));
  ASSERT_TRUE(o.result.completed) << o.result.watchdog_report;
  EXPECT_EQ(o.at(0, 0) >> 32, 1u);
  EXPECT_EQ(o.at(1, 0) >> 32, 0u);
  // With 2048 lock bits they are distinct.
  DeviceOptions opts;
  opts.lock_bits = 2048;
  auto o2 = run_text(per_thread_kernel(body, kLockBitDecls), std::vector<Row>(2), 0, 1, opts);
  EXPECT_EQ(o2.at(1, 0) >> 32, 1u);
}

// Lane 0 takes word 5's bit and frees it with STSUL storing 1234 (an immediate value), then
// (after a barrier) lane 1 takes it and reads 1234; lane 0 skips to $DONE.
std::string take_free_take() {
  return std::string(R"(
  mov.u32 %r20, 5;
  setp.ne.u32 %p2, %r0, 0;
  @%p2 bra $SECOND;
)") + kLdslk +
         R"(
  {
  .param .b64 param0;
  st.param.b64 [param0], %rd23;
  .param .b32 param1;
  st.param.b32 [param1], 1234;
  call.uni simtsync_stsul, (param0, param1);
  }
$SECOND:
  bar.sync 0;
  @!%p2 bra $DONE;
)" + kLdslk +
         R"(
)";
}

TEST(LockBits, StsulStoresAndFreesTheBit) {
  // take_free_take(), then a second LDSLK by lane 1 fails (it holds the bit itself: alias
  // deadlock).
  const std::string body = take_free_take() + R"(
  {
  .param .b64 param0;
  st.param.b64 [param0], %rd23;
  .param .b64 retval0;
  call.uni (retval0), simtsync_ldslk, (param0);
  ld.param.b64 %rd25, [retval0];
  }
  st.global.u64 [%rd3+8], %rd25;
$DONE:
)";
  auto o = run_text(per_thread_kernel(body, kLockBitDecls), std::vector<Row>(2));
  ASSERT_TRUE(o.result.completed) << o.result.watchdog_report;
  EXPECT_EQ(o.at(0, 0) >> 32, 1u);
  EXPECT_EQ(o.at(1, 0), (std::uint64_t{1} << 32) | 1234u);
  EXPECT_EQ(o.at(1, 1) >> 32, 0u);
  EXPECT_EQ(o.result.stats.lock_bit_stores, 1u);
}

TEST(LockBits, AGlobalAddressIsAFault) {
  const std::string body = R"(
  {
  .param .b64 param0;
  st.param.b64 [param0], %rd3;
  .param .b64 retval0;
  call.uni (retval0), simtsync_ldslk, (param0);
  }
)";
  try {
    run_text(per_thread_kernel(body, kLockBitDecls), std::vector<Row>(1));
    FAIL() << "no fault";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("needs a shared-memory address"), std::string::npos)
        << e.what();
  }
}

// One lock attempt as nvcc emits it (st.param, call, ld.param, and + setp on the packed
// result), then a use of the predicate; `split` puts a label inside the sequence, which keeps it
// a call (a branch may land there).
std::string attempt_body(bool split) {
  return std::string(R"(
  mov.u32 %r20, %r0;
  setp.gt.u32 %p1, %r0, 2;
  @%p1 mov.u32 %r20, 0;
  mov.u32 %r21, words;
  cvt.u64.u32 %rd20, %r21;
  cvta.shared.u64 %rd21, %rd20;
  mul.wide.u32 %rd22, %r20, 4;
  add.s64 %rd23, %rd21, %rd22;
  st.shared.u32 [words+4], 55;
  {
  .param .b64 param0;
  st.param.b64 [param0], %rd23;
  .param .b64 retval0;
  call.uni (retval0), simtsync_ldslk, (param0);
)") + (split ? "$SPLIT:\n" : "") +
         R"(
  ld.param.b64 %rd24, [retval0];
  }
  and.b64 %rd25, %rd24, -4294967296;
  setp.ne.s64 %p3, %rd25, 0;
  selp.u32 %r30, 1, 0, %p3;
  cvt.u32.u64 %r31, %rd24;
  st.global.u32 [%rd3], %r30;
  st.global.u32 [%rd3+8], %r31;
  {
  .param .b64 param0;
  st.param.b64 [param0], %rd23;
  .param .b32 param1;
  st.param.b32 [param1], 9;
  @%p3 call.uni simtsync_stsul, (param0, param1);
  }
)";
}

TEST(LockBits, ALockAttemptDecodesToOneOperationWithItsPredicate) {
  const auto module =
      ptx::parse_module(per_thread_kernel(attempt_body(false), kLockBitDecls), "attempt.ptx");
  GlobalMemory mem;
  const Program prog(module, mem);
  const DecodedFunction& k = *prog.kernel("k");
  const ExecInst* ldslk = nullptr;
  for (const ExecInst& e : k.code)
    if (e.lock_op == IntrinsicOp::kLoadLock && !ldslk) ldslk = &e;
  ASSERT_NE(ldslk, nullptr);
  // At the st.param's PC: st.param, call, ld.param, and, setp are one operation whose
  // destinations are the packed result, the and's result and the predicate.
  EXPECT_EQ(ldslk->ir->opcode, ptx::Opcode::kCall);
  EXPECT_EQ(ldslk->span, 5u);
  EXPECT_EQ(ldslk->folded.size(), 2u);
  EXPECT_EQ(ldslk->ndst, 3u);
  EXPECT_EQ(ldslk->mem.base, MemRef::Base::kReg);
  EXPECT_EQ(prog.at(ldslk->pc), ldslk);
  EXPECT_EQ(ldslk->fallthrough(), ldslk->pc + 5 * kInstSize);
  // The guarded STSUL's st.params are unguarded: it stays a call (the slower, equal form).
  for (const ExecInst& e : k.code)
    if (e.lock_op == IntrinsicOp::kStoreUnlock) {
      EXPECT_EQ(e.mem.base, MemRef::Base::kNone);
    }

  // Threads 0..2 ask for words 0..2's bits, threads 3..5 for word 0's: only thread 0 of those
  // takes it. Fused and call forms give the same results; the fused form executes 4 fewer
  // warp instructions (one operation instead of five).
  auto fused = run_text(per_thread_kernel(attempt_body(false), kLockBitDecls), std::vector<Row>(6));
  auto call = run_text(per_thread_kernel(attempt_body(true), kLockBitDecls), std::vector<Row>(6));
  ASSERT_TRUE(fused.result.completed) << fused.result.watchdog_report;
  ASSERT_TRUE(call.result.completed) << call.result.watchdog_report;
  for (unsigned t = 0; t < 6; ++t) {
    EXPECT_EQ(fused.u32(t, 0), t < 3 ? 1u : 0u) << t;
    EXPECT_EQ(fused.u32(t, 1), t == 1 ? 55u : 0u) << t;
    EXPECT_EQ(fused.at(t, 0), call.at(t, 0)) << t;
    EXPECT_EQ(fused.at(t, 1), call.at(t, 1)) << t;
  }
  EXPECT_EQ(call.result.stats.warp_instructions - fused.result.stats.warp_instructions, 4u);
  EXPECT_EQ(fused.result.stats.lock_bit_acquired, 3u);
  EXPECT_EQ(fused.result.stats.lock_bit_stores, 3u);
}

TEST(LockBits, AnUnlockDecodesToOneOperation) {
  const std::string body = take_free_take() + "$DONE:\n";
  const auto module = ptx::parse_module(per_thread_kernel(body, kLockBitDecls), "unlock.ptx");
  GlobalMemory mem;
  const Program prog(module, mem);
  unsigned stsul = 0, ldslk = 0;
  for (const ExecInst& e : prog.kernel("k")->code) {
    if (e.lock_op == IntrinsicOp::kStoreUnlock && e.mem.base != MemRef::Base::kNone) {
      ++stsul;
      EXPECT_EQ(e.span, 3u);
      ASSERT_EQ(e.nsrc, 1u);
      EXPECT_EQ(e.src[0].kind, Src::Kind::kImm);
      EXPECT_EQ(e.src[0].imm, 1234u);
    }
    ldslk += e.lock_op == IntrinsicOp::kLoadLock && e.mem.base != MemRef::Base::kNone ? 1 : 0;
  }
  EXPECT_EQ(stsul, 1u);
  EXPECT_EQ(ldslk, 2u);
  auto o = run_text(per_thread_kernel(body, kLockBitDecls), std::vector<Row>(2));
  ASSERT_TRUE(o.result.completed) << o.result.watchdog_report;
  EXPECT_EQ(o.at(1, 0), (std::uint64_t{1} << 32) | 1234u);
}

// A spin on the lock bit of words[%r20] (fused LDSLK + branch back), as simtsync_tiny_waitlock.
std::string spin_on(const char* label) {
  return std::string(label) + ":" + kWordAddr + R"(
  {
  .param .b64 param0;
  st.param.b64 [param0], %rd23;
  .param .b64 retval0;
  call.uni (retval0), simtsync_ldslk, (param0);
  ld.param.b64 %rd24, [retval0];
  }
  and.b64 %rd25, %rd24, -4294967296;
  setp.eq.s64 %p3, %rd25, 0;
  @%p3 bra )" +
         label + ";\n";
}

DeviceOptions quick_watchdog() {
  DeviceOptions o;
  o.watchdog.quiet_steps = 2000;
  return o;
}

TEST(LockBits, AnAliasDeadlockIsReportedWithBothAddressesAndTheBit) {
  // Thread 0 takes word 3's bit, then waits for word 3 + 1024's: the same bit, its own
  // (seed 001 sec. 4.4.2).
  const std::string body =
      std::string("  mov.u32 %r20, 3;\n") + kLdslk + "  mov.u32 %r20, 1027;\n" + spin_on("$SPIN");
  auto o =
      run_text(per_thread_kernel(body, kLockBitDecls), std::vector<Row>(1), 0, 1, quick_watchdog());
  ASSERT_FALSE(o.result.completed);
  const std::string& r = o.result.watchdog_report;
  EXPECT_NE(r.find("alias deadlock"), std::string::npos) << r;
  EXPECT_NE(r.find("lock bit 3 "), std::string::npos) << r;
  EXPECT_NE(r.find("[0xc]"), std::string::npos) << r;     // the word it holds ...
  EXPECT_NE(r.find("[0x100c]"), std::string::npos) << r;  // ... and the one it waits for
}

TEST(LockBits, ASimdDeadlockIsReportedWithItsCause) {
  // Lane 0 takes word 0's bit and leaves (its unlock is after the reconvergence point); lane 1
  // spins for the same bit: lane 0 waits for lane 1 at reconvergence, lane 1 for lane 0's
  // unlock (seed 001 sec. 4.4.1).
  const std::string body = std::string(R"(
  mov.u32 %r20, 0;
  setp.ne.u32 %p2, %r0, 0;
  @%p2 bra $WAIT;
)") + kLdslk + "  bra.uni $JOIN;\n$WAIT:\n" +
                           spin_on("$SPIN") + R"(
$JOIN:
  {
  .param .b64 param0;
  st.param.b64 [param0], %rd23;
  .param .b32 param1;
  st.param.b32 [param1], 0;
  call.uni simtsync_stsul, (param0, param1);
  }
)";
  auto o =
      run_text(per_thread_kernel(body, kLockBitDecls), std::vector<Row>(2), 0, 1, quick_watchdog());
  ASSERT_FALSE(o.result.completed);
  const std::string& r = o.result.watchdog_report;
  EXPECT_NE(r.find("SIMD deadlock"), std::string::npos) << r;
  EXPECT_EQ(r.find("alias deadlock"), std::string::npos) << r;
}

}  // namespace simtsync::func::testing

namespace simtsync::func::testing {
namespace {

// Issue 45: a kernel reading a freed buffer names the freed allocation.
TEST(HostResources, UseAfterFreeNamesTheFreedAllocation) {
  Device dev;
  const Addr buf = dev.malloc(64, "device buffer");
  dev.free(buf);
  const std::string text = std::string(kHeader) + R"(
.visible .entry k(.param .u64 p)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  ld.global.u32 %r1, [%rd1+16];
  ret;
}
)";
  const int m = dev.load_module(ptx::parse_module(text, "uaf.ptx"));
  try {
    dev.launch(m, "k", {1, 1, 1}, {1, 1, 1}, KernelArgs().add(buf));
    FAIL() << "no fault";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kKernelFault);
    const std::string what = e.what();
    EXPECT_NE(what.find(fmt::format("freed allocation of 64 bytes at {:#x}", buf)),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("freed by cudaFree"), std::string::npos) << what;
    EXPECT_EQ(what.find("past the end"), std::string::npos) << what;
  }
}

// Issue 45: cudaMemset of gigabytes to zero on a fresh buffer neither builds a host buffer of
// that size nor materializes its pages (it took 21 s and 6.3 GB for 3 GB).
TEST(HostResources, LargeZeroMemsetIsCheap) {
  Device dev;
  const std::uint64_t n = std::uint64_t{3} << 30;
  const Addr a = dev.malloc(n);
  const auto t0 = std::chrono::steady_clock::now();
  dev.memset(a, 0, n);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 2.0);
  // Values are still set where asked, and zeros clear written data.
  const Addr b = dev.upload(std::vector<std::uint8_t>(10000, 7));
  dev.memset(b + 100, 0, 5000);
  dev.memset(b + 9000, 3, 500);
  const auto v = dev.download<std::uint8_t>(b, 10000);
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::uint8_t want = i >= 100 && i < 5100 ? 0 : i >= 9000 && i < 9500 ? 3 : 7;
    ASSERT_EQ(v[i], want) << i;
  }
  EXPECT_THROW(dev.memset(b + 9999, 0, 2), Error);
}

// Issue 45: a launch too large for the host memory budget is refused before allocating
// (grid.x = 2^31 one-thread CTAs used to end in std::bad_alloc after gigabytes).
TEST(HostResources, LaunchOverTheBudgetIsRefusedUpFront) {
  DeviceOptions opts;
  opts.host_memory_budget = std::uint64_t{64} << 20;
  Device dev(opts);
  const std::string text = std::string(kHeader) + ".visible .entry k()\n{\n  ret;\n}\n";
  const int m = dev.load_module(ptx::parse_module(text, "big.ptx"));
  try {
    dev.launch(m, "k", {0x80000000u, 1, 1}, {1, 1, 1}, KernelArgs());
    FAIL() << "no refusal";
  } catch (const std::bad_alloc& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("grid (2147483648,1,1)"), std::string::npos) << what;
    EXPECT_NE(what.find("sim.host_memory_budget_mb = 64 MiB"), std::string::npos) << what;
  }
  // Within the budget it runs.
  EXPECT_TRUE(dev.launch(m, "k", {1000, 1, 1}, {1, 1, 1}, KernelArgs()).completed);
}

}  // namespace
}  // namespace simtsync::func::testing
