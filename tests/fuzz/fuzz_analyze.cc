// libFuzzer target: the SIMT-deadlock analysis (`simtsync analyze`) of every function of a
// module the parser accepts, with calls inlined, and its text report.
#include "analysis/deadlock_analysis.h"
#include "analysis/deadlock_printer.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace simtsync;
  fuzz::with_module(data, size, [](const ptx::Module& m) {
    for (const ptx::Function& f : m.functions) {
      if (f.is_declaration) continue;
      fuzz::diagnosed_ok([&] {
        const analysis::FunctionAnalysis a(m, f);
        (void)analysis::format_deadlock(a.report());
      });
    }
  });
  return 0;
}
