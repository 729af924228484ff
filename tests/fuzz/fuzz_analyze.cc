// libFuzzer target: the SIMT-deadlock analysis (`simtsync analyze`) of every function of a
// module the parser accepts, with calls inlined, and its text report.
#include "analysis/deadlock_analysis.h"
#include "analysis/deadlock_printer.h"
#include "fuzz_input.h"
#include "ptx/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace simtsync;
  fuzz::diagnosed_ok([&] {
    const std::string_view text = fuzz::as_text(data, size);
    ptx::check_module_header(text, "fuzz.ptx");
    const ptx::Module m = ptx::parse_module(text, "fuzz.ptx");
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
