// The simtsync command's subcommand wrapper (tools/output_file.h, run_guarded): whatever a
// subcommand throws ends in one message on standard error and the exit code the README's table
// documents, std::bad_alloc included (issue 45: it was a bare abort, exit 134, outside `run`).
#include <gtest/gtest.h>

#include <new>
#include <string>
#include <system_error>

#include "common/error.h"
#include "common/host_memory.h"
#include "output_file.h"

namespace simtsync::tools {
namespace {

int guarded(const std::function<int()>& body, std::string& err) {
  testing::internal::CaptureStderr();
  const int rc = run_guarded(body);
  err = testing::internal::GetCapturedStderr();
  return rc;
}

TEST(RunGuarded, ReturnsTheSubcommandsCode) {
  std::string err;
  EXPECT_EQ(guarded([] { return 3; }, err), 3);
  EXPECT_EQ(err, "");
}

TEST(RunGuarded, BadAllocIsExit2WithAMessage) {
  std::string err;
  EXPECT_EQ(guarded([]() -> int { throw std::bad_alloc(); }, err), 2);
  EXPECT_NE(err.find("simtsync: error: out of host memory"), std::string::npos) << err;
}

TEST(RunGuarded, HostMemoryEstimateIsExit2WithItsFigure) {
  std::string err;
  EXPECT_EQ(
      guarded([]() -> int { throw HostMemoryError("needs about 9 MiB, more than 1 MiB"); }, err),
      2);
  EXPECT_EQ(err, "simtsync: error: needs about 9 MiB, more than 1 MiB\n");
}

TEST(RunGuarded, ErrorsKeepTheirCode) {
  std::string err;
  EXPECT_EQ(guarded([]() -> int { throw Error(ExitCode::kUnsupported, "bad PTX"); }, err), 4);
  EXPECT_EQ(err, "simtsync: error: bad PTX\n");
  EXPECT_EQ(guarded([]() -> int { throw std::system_error(EPIPE, std::generic_category()); }, err),
            2);
  EXPECT_NE(err.find("cannot write standard output"), std::string::npos) << err;
}

}  // namespace
}  // namespace simtsync::tools
