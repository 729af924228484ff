// The simulator's CUDA runtime below the C entry points: fat binary parsing (hand-built
// binaries: plain and zstd-compressed PTX, SASS only, damaged ones) and the Runtime class on a
// hand-written PTX module (launch, memory, symbols, managed memory, errors, sticky failures).
#include <gtest/gtest.h>
#include <zstd.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "common/error.h"
#include "cudart/fatbin.h"
#include "cudart/runtime.h"

namespace simtsync::cudart {
namespace {

struct EntrySpec {
  std::uint16_t kind;
  std::uint32_t arch;
  std::string payload;
  bool compress = false;
};

template <typename T>
void put(std::vector<std::uint8_t>& b, std::size_t at, T v) {
  std::memcpy(b.data() + at, &v, sizeof v);
}

// A fat binary in nvcc 13's layout (fatbin.h).
std::vector<std::uint8_t> make_fatbin(const std::vector<EntrySpec>& entries) {
  std::vector<std::uint8_t> body;
  for (const auto& e : entries) {
    std::string data = e.payload;
    std::uint64_t uncompressed = 0;
    if (e.compress) {
      std::string z(ZSTD_compressBound(data.size()), '\0');
      const std::size_t n = ZSTD_compress(z.data(), z.size(), data.data(), data.size(), 3);
      z.resize(n);
      uncompressed = data.size();
      data = z;
    }
    const std::size_t padded = (data.size() + 7) / 8 * 8;
    std::vector<std::uint8_t> h(64, 0);
    put<std::uint16_t>(h, 0, e.kind);
    put<std::uint16_t>(h, 2, 0x101);
    put<std::uint32_t>(h, 4, 64);
    put<std::uint64_t>(h, 8, padded);
    put<std::uint32_t>(h, 16, e.compress ? static_cast<std::uint32_t>(data.size()) : 0);
    put<std::uint32_t>(h, 28, e.arch);
    put<std::uint64_t>(h, 40, e.compress ? 0x8011 : 0x11);
    put<std::uint64_t>(h, 56, uncompressed);
    body.insert(body.end(), h.begin(), h.end());
    body.insert(body.end(), data.begin(), data.end());
    body.resize(body.size() + (padded - data.size()), 0);
  }
  std::vector<std::uint8_t> fb(16, 0);
  put<std::uint32_t>(fb, 0, 0xba55ed50);
  put<std::uint16_t>(fb, 4, 1);
  put<std::uint16_t>(fb, 6, 16);
  put<std::uint64_t>(fb, 8, body.size());
  fb.insert(fb.end(), body.begin(), body.end());
  return fb;
}

struct Wrapper {
  std::uint32_t magic = 0x466243b1;
  std::uint32_t version = 1;
  const void* data = nullptr;
  void* unused = nullptr;
};

constexpr const char* kPtx = R"(
.version 7.0
.target sm_75
.address_size 64
.global .align 4 .u32 counter;
.const .align 4 .b8 factors[16];
.visible .entry add_one(.param .u64 p, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<7>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [p];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mad.lo.s32 %r2, %r3, %r4, %r2;
  setp.ge.s32 %p1, %r2, %r1;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.s32 %rd3, %r2, 4;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.u32 %r5, [%rd4];
  add.s32 %r5, %r5, 1;
  st.global.u32 [%rd4], %r5;
  atom.global.add.u32 %r6, [counter], 1;
DONE:
  ret;
}
.visible .entry spin()
{
LOOP:
  bra LOOP;
}
.visible .entry out_of_bounds(.param .u64 p)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, 7;
  st.global.u32 [%rd1+1048576], %r1;
  ret;
}
)";

TEST(Fatbin, PlainAndCompressedPtxNewestFirst) {
  const auto fb = make_fatbin({{2, 75,
                                std::string("\x7f"
                                            "ELF",
                                            4) +
                                    "sass"},
                               {1, 75, "// compute_75\n", true},
                               {1, 80, "// compute_80\n"}});
  const auto entries = parse_fatbin(fb.data());
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0].kind, FatbinEntry::Kind::kElf);
  EXPECT_TRUE(entries[1].compressed);
  EXPECT_EQ(entries[1].payload, "// compute_75\n");
  EXPECT_EQ(entries[2].payload, "// compute_80\n");  // NUL padding dropped
  const auto ptx = ptx_entries(entries);
  ASSERT_EQ(ptx.size(), 2u);
  EXPECT_EQ(ptx[0]->arch, 80u);
  EXPECT_EQ(ptx[1]->arch, 75u);
}

TEST(Fatbin, SassOnlyNamesTheGencodeThatAddsPtx) {
  const auto fb = make_fatbin({{2, 86,
                                "\x7f"
                                "ELF"}});
  const auto entries = parse_fatbin(fb.data());
  EXPECT_TRUE(ptx_entries(entries).empty());
  const std::string m = no_ptx_message(entries);
  EXPECT_NE(m.find("sm_86"), std::string::npos) << m;
  EXPECT_NE(m.find("-gencode arch=compute_86,code=compute_86"), std::string::npos) << m;
}

TEST(Fatbin, DamagedBinariesAreRefusedWithAMessage) {
  auto fb = make_fatbin({{1, 75, "ptx"}});
  auto bad_magic = fb;
  bad_magic[0] ^= 0xff;
  EXPECT_THROW(parse_fatbin(bad_magic.data()), Error);
  auto truncated = fb;
  put<std::uint64_t>(truncated, 16 + 8, 1u << 20);  // payload larger than the binary
  try {
    parse_fatbin(truncated.data());
    FAIL() << "a truncated entry must be refused";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kUnsupported);
    EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos);
  }
  Wrapper w;
  w.data = fb.data();
  w.version = 2;  // relocatable device code
  try {
    parse_fatbin_wrapper(&w);
    FAIL() << "an -rdc wrapper must be refused";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("-rdc"), std::string::npos);
  }
}

class RuntimeTest : public ::testing::Test {
 protected:
  RuntimeTest() : fb_(make_fatbin({{1, 75, kPtx, true}})) {
    RuntimeOptions o;
    o.sim.mode = "functional";
    o.quiet = true;
    rt_ = std::make_unique<Runtime>(o);
    wrapper_.data = fb_.data();
    void** h = rt_->register_fatbin(&wrapper_);
    rt_->register_function(h, &add_one_, "add_one");
    rt_->register_function(h, &spin_, "spin");
    rt_->register_function(h, &oob_, "out_of_bounds");
    rt_->register_var(h, &counter_, "counter", 4, false);
    rt_->register_var(h, &factors_, "factors", 16, true);
  }
  void launch(const void* fn, unsigned blocks, unsigned threads, std::vector<void*> args) {
    rt_->launch(fn, LaunchConfig{Dim3{blocks, 1, 1}, Dim3{threads, 1, 1}, 0, nullptr}, args.data());
  }
  Err failure_of(const std::function<void()>& f) {
    try {
      f();
    } catch (const Failure& e) {
      return e.code;
    }
    return Err::kSuccess;
  }

  std::vector<std::uint8_t> fb_;
  Wrapper wrapper_;
  std::unique_ptr<Runtime> rt_;
  char add_one_ = 0, spin_ = 0, oob_ = 0, counter_ = 0, factors_ = 0;  // host-side stand-ins
};

TEST_F(RuntimeTest, LaunchOnDeviceMemoryAndSymbols) {
  std::vector<int> h(100);
  for (int i = 0; i < 100; ++i) h[i] = i;
  void* d = rt_->malloc(h.size() * 4);
  rt_->memcpy(d, h.data(), h.size() * 4, CopyKind::kHostToDevice);
  int n = 100;
  launch(&add_one_, 4, 32, {&d, &n});
  std::vector<int> out(100);
  rt_->memcpy(out.data(), d, out.size() * 4, CopyKind::kDefault);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(out[i], i + 1) << i;
  unsigned count = 0;
  rt_->copy_symbol(&counter_, 0, &count, 4, false);
  EXPECT_EQ(count, 100u);
  EXPECT_NE(rt_->symbol_address(&counter_), nullptr);
  EXPECT_EQ(rt_->symbol_size(&counter_), 4u);
  const auto s = rt_->statistics();
  EXPECT_EQ(s["launches"].size(), 1u);
  EXPECT_EQ(s["launches"][0]["kernel"], "add_one");
  EXPECT_EQ(s["exit_code"], 0);
  rt_->free(d);
  EXPECT_EQ(failure_of([&] { rt_->free(d); }), Err::kInvalidDevicePointer);
}

TEST_F(RuntimeTest, ManagedMemoryIsCoherentAtLaunches) {
  auto* m = static_cast<int*>(rt_->malloc_managed(64 * 4));
  for (int i = 0; i < 64; ++i) m[i] = 10 * i;  // the host writes it directly
  int n = 64;
  void* p = m;
  launch(&add_one_, 2, 32, {&p, &n});
  for (int i = 0; i < 64; ++i) ASSERT_EQ(m[i], 10 * i + 1) << i;  // and reads the kernel's writes
  EXPECT_TRUE(rt_->is_host_visible(m + 10));
  rt_->free(m);
}

TEST_F(RuntimeTest, MisuseIsReportedAsTheCudaErrorItIs) {
  char unknown = 0;
  EXPECT_EQ(failure_of([&] { launch(&unknown, 1, 32, {}); }), Err::kInvalidDeviceFunction);
  EXPECT_EQ(failure_of([&] { launch(&spin_, 1, 2048, {}); }), Err::kInvalidConfiguration);
  int host = 0;
  EXPECT_EQ(failure_of([&] { rt_->memcpy(&host, &host, 4, CopyKind::kDeviceToHost); }),
            Err::kInvalidValue);
  EXPECT_EQ(failure_of([&] { rt_->copy_symbol(&host, 0, &host, 4, true); }), Err::kInvalidSymbol);
  EXPECT_EQ(failure_of([&] { (void)rt_->pop_config(); }), Err::kInvalidConfiguration);
  EXPECT_FALSE(rt_->sticky());  // none of these poisons the context
}

// Issue 45: sizes and offsets that wrap past 2^64 and null host pointers are invalid values,
// not copies through a wrapped range (a success, or a crash of the program).
TEST_F(RuntimeTest, WrappingRangesAndNullPointersAreInvalidValues) {
  int h[4] = {1, 2, 3, 4};
  void* d = rt_->malloc(64);
  void* top = reinterpret_cast<void*>(~std::uintptr_t{3});  // 0xFFFFFFFFFFFFFFFC
  EXPECT_EQ(failure_of([&] { rt_->memcpy(top, h, 4, CopyKind::kHostToDevice); }),
            Err::kInvalidValue);
  EXPECT_EQ(failure_of([&] { rt_->memcpy(h, top, 4, CopyKind::kDeviceToHost); }),
            Err::kInvalidValue);
  EXPECT_EQ(failure_of([&] { rt_->memset(top, 0, 4); }), Err::kInvalidValue);
  EXPECT_FALSE(rt_->is_device(d, ~std::size_t{0}));
  EXPECT_TRUE(rt_->is_device(d, 64));
  const std::size_t wrap = ~std::size_t{3};  // (size_t)-4
  for (char* sym : {&counter_, &factors_}) {
    SCOPED_TRACE(sym == &counter_ ? "device variable" : "constant");
    EXPECT_EQ(failure_of([&] { rt_->copy_symbol(sym, wrap, h, 4, false); }), Err::kInvalidValue);
    EXPECT_EQ(failure_of([&] { rt_->copy_symbol(sym, wrap, h, 4, true); }), Err::kInvalidValue);
    EXPECT_EQ(failure_of([&] { rt_->copy_symbol(sym, 0, h, wrap, false); }), Err::kInvalidValue);
    EXPECT_EQ(failure_of([&] { rt_->copy_symbol(sym, 0, h, 4, false); }), Err::kSuccess);
  }
  EXPECT_EQ(failure_of([&] { rt_->memcpy(d, nullptr, 16, CopyKind::kHostToDevice); }),
            Err::kInvalidValue);
  EXPECT_EQ(failure_of([&] { rt_->memcpy(nullptr, d, 16, CopyKind::kDeviceToHost); }),
            Err::kInvalidValue);
  EXPECT_EQ(failure_of([&] { rt_->memcpy(d, nullptr, 16, CopyKind::kDefault); }),
            Err::kInvalidValue);
  EXPECT_EQ(failure_of([&] { rt_->memcpy(h, nullptr, 16, CopyKind::kHostToHost); }),
            Err::kInvalidValue);
  EXPECT_FALSE(rt_->sticky());
  rt_->free(d);
}

TEST_F(RuntimeTest, KernelFaultIsStickyAndExitCodeFive) {
  void* d = rt_->malloc(16);
  EXPECT_EQ(failure_of([&] { launch(&oob_, 1, 1, {&d}); }), Err::kIllegalAddress);
  ASSERT_TRUE(rt_->sticky());
  int h = 0;
  EXPECT_EQ(failure_of([&] { rt_->memcpy(d, &h, 4, CopyKind::kHostToDevice); }),
            Err::kIllegalAddress);
  EXPECT_EQ(rt_->statistics()["exit_code"], 5);
}

TEST_F(RuntimeTest, WatchdogStopIsLaunchTimeoutAndExitCodeThree) {
  EXPECT_EQ(failure_of([&] { launch(&spin_, 1, 32, {}); }), Err::kLaunchTimeout);
  const auto s = rt_->statistics();
  EXPECT_EQ(s["exit_code"], 3);
  EXPECT_TRUE(s.contains("watchdog_report"));
  EXPECT_EQ(s["launches"][0]["outcome"], "deadlock");
}

TEST(RuntimeSass, SassOnlyBinaryFailsAtLaunchNotAtRegistration) {
  const auto fb = make_fatbin({{2, 75,
                                "\x7f"
                                "ELF"}});
  Wrapper w;
  w.data = fb.data();
  RuntimeOptions o;
  o.sim.mode = "functional";
  o.quiet = true;
  Runtime rt(o);
  char k = 0;
  rt.register_function(rt.register_fatbin(&w), &k, "k");
  try {
    rt.launch(&k, LaunchConfig{Dim3{1, 1, 1}, Dim3{1, 1, 1}, 0, nullptr}, nullptr);
    FAIL();
  } catch (const Failure& f) {
    EXPECT_EQ(f.code, Err::kNoKernelImageForDevice);
    EXPECT_NE(f.message.find("holds no PTX"), std::string::npos) << f.message;
  }
}

}  // namespace
}  // namespace simtsync::cudart
