// The native backend (src/native/) through a fake driver library: the calls it makes at the
// driver boundary (module load of the printed PTX, allocation, copies, launch with the kernel's
// parameters) and the errors it gives without a driver or a GPU.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "common/error.h"
#include "func/device.h"
#include "native/native_device.h"
#include "ptx/parser.h"

namespace simtsync::native {
namespace {

constexpr const char* kPtx = R"(
.version 7.0
.target sm_75
.address_size 64
.visible .entry twice(.param .u64 p, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [p];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  setp.ge.s32 %p1, %r2, %r1;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.s32 %rd3, %r2, 4;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.u32 %r5, [%rd4];
  shl.b32 %r5, %r5, 1;
  st.global.u32 [%rd4], %r5;
DONE:
  ret;
}
)";

class NativeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    log_ = ::testing::TempDir() + "fake_cuda.log";
    setenv("SIMTSYNC_CUDA_DRIVER", FAKE_CUDA_DRIVER, 1);
    setenv("FAKE_CUDA_LOG", log_.c_str(), 1);
    unsetenv("FAKE_CUDA_NO_DEVICE");
  }
  void TearDown() override { unsetenv("SIMTSYNC_CUDA_DRIVER"); }
  std::string log() const {
    std::ifstream f(log_);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
  }
  std::string log_;
};

TEST_F(NativeTest, WorkloadHostCodeRunsThroughTheDriver) {
  NativeDevice gpu;
  EXPECT_NE(gpu.device_name().find("fake GPU"), std::string::npos);
  func::Device dev;
  dev.set_native(&gpu);
  const int m = dev.load_module(ptx::parse_module(kPtx, "twice.ptx"));
  std::vector<int> v = {1, 2, 3, 4, 5};
  const Addr d = dev.upload(v);
  func::KernelArgs args;
  args.add(d).add(static_cast<int>(v.size()));
  const auto r = dev.launch(m, "twice", Dim3{1, 1, 1}, Dim3{32, 1, 1}, args, 0);
  EXPECT_TRUE(r.completed);
  EXPECT_GT(r.native_ms, 0.0);
  EXPECT_EQ(dev.download<int>(d, v.size()), (std::vector<int>{2, 4, 6, 8, 10}));
  EXPECT_EQ(dev.cycles(), 0u);  // nothing ran on the simulator
  const std::string calls = log();
  EXPECT_NE(calls.find("cuModuleLoadData"), std::string::npos) << calls;  // printed PTX loads
  EXPECT_NE(calls.find("cuLaunchKernel twice 1x32 params 2"), std::string::npos) << calls;
}

TEST_F(NativeTest, NoDriverIsAUsageErrorNamingIt) {
  setenv("SIMTSYNC_CUDA_DRIVER", "/nonexistent/libcuda.so.1", 1);
  try {
    NativeDevice gpu;
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kUsage);
    EXPECT_NE(std::string(e.what()).find("needs an NVIDIA GPU"), std::string::npos) << e.what();
  }
}

TEST_F(NativeTest, NoDeviceIsAUsageError) {
  setenv("FAKE_CUDA_NO_DEVICE", "1", 1);
  try {
    NativeDevice gpu;
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::kUsage);
    EXPECT_NE(std::string(e.what()).find("no usable NVIDIA GPU"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace simtsync::native
