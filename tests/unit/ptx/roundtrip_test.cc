// parse -> print -> parse gives the same IR for every PTX file in the repository, printing is
// stable, and ptxas (when installed) accepts the printed form of every nvcc-generated file.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "ptx/parser.h"
#include "ptx/printer.h"
#include "ptx_test_files.h"

namespace simtsync::ptx {
namespace {

namespace fs = std::filesystem;

TEST(RoundTrip, EveryPtxFileInTheRepository) {
  auto files = test::all_ptx_files();
  ASSERT_GE(files.size(), 8u) << "expected the workload and test-data PTX files";
  for (const auto& path : files) {
    SCOPED_TRACE(path);
    Module m = load_module_file(path);
    std::string printed = print_module(m);
    Module again = parse_module(printed, path + " (printed)");
    EXPECT_TRUE(again == m) << printed;
    EXPECT_EQ(print_module(again), printed);
  }
}

std::string find_ptxas() {
  if (fs::exists("/usr/local/cuda/bin/ptxas")) return "/usr/local/cuda/bin/ptxas";
  if (const char* path = std::getenv("PATH")) {
    std::string p = path;
    for (std::size_t start = 0; start <= p.size();) {
      std::size_t end = p.find(':', start);
      if (end == std::string::npos) end = p.size();
      fs::path cand = fs::path(p.substr(start, end - start)) / "ptxas";
      if (end > start && fs::exists(cand)) return cand.string();
      start = end + 1;
    }
  }
  return "";
}

TEST(RoundTrip, PtxasAcceptsPrintedNvccOutput) {
  std::string ptxas = find_ptxas();
  if (ptxas.empty()) GTEST_SKIP() << "ptxas not installed";
  auto files = test::nvcc_ptx_files();
  ASSERT_FALSE(files.empty());
  fs::path dir = fs::temp_directory_path() /
                 ("simtsync_ptxas_" +
                  std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  fs::create_directories(dir);
  int n = 0;
  for (const auto& path : files) {
    SCOPED_TRACE(path);
    fs::path out = dir / ("printed_" + std::to_string(n++) + ".ptx");
    {
      std::ofstream os(out);
      os << print_module(load_module_file(path));
    }
    std::string cmd = ptxas + " -arch=sm_75 -o /dev/null " + out.string() + " 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  }
  fs::remove_all(dir);
}

TEST(RoundTrip, TenThousandLinesParseQuickly) {
  std::string text = ".version 9.0\n.target sm_75\n.address_size 64\n";
  for (int f = 0; f < 10; ++f) {
    text += ".visible .entry k" + std::to_string(f) + "(\n\t.param .u64 p\n)\n{\n";
    text += "\t.reg .pred \t%p<4>;\n\t.reg .b32 \t%r<200>;\n\t.reg .b64 \t%rd<200>;\n";
    for (int i = 0; i < 1000; ++i) {
      int r = i % 190 + 1;
      if (i % 100 == 0) text += "$L__BB0_" + std::to_string(i) + ":\n";
      if (i % 10 == 0) text += "\t.loc\t1 " + std::to_string(i) + " 3\n";
      switch (i % 4) {
        case 0:
          text += "\tadd.s32 \t%r" + std::to_string(r) + ", %r2, 1;\n";
          break;
        case 1:
          text += "\tld.global.u32 \t%r" + std::to_string(r) + ", [%rd3+8];\n";
          break;
        case 2:
          text += "\tsetp.lt.s32 \t%p1, %r" + std::to_string(r) + ", %r4;\n";
          break;
        default:
          text += "\t@%p1 bra \t$L__BB0_0;\n";
          break;
      }
    }
    text += "\tret;\n}\n";
  }
  auto t0 = std::chrono::steady_clock::now();
  Module m = parse_module(text);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(m.functions.size(), 10u);
#ifdef SIMTSYNC_SANITIZED
  constexpr double kBudget = 5.0;  // ASan + UBSan + coverage: several times slower
#else
  constexpr double kBudget = 0.5;
#endif
  EXPECT_LT(s, kBudget) << "parsing ~11k lines took " << s << " s";
}

}  // namespace
}  // namespace simtsync::ptx
