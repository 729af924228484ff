// libFuzzer target: the SSDE transform (`simtsync transform`). Its output must be PTX the parser
// accepts again.
#include <cstdlib>

#include "fuzz_input.h"
#include "ptx/parser.h"
#include "ptx/printer.h"
#include "transform/ssde.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace simtsync;
  fuzz::diagnosed_ok([&] {
    const std::string_view text = fuzz::as_text(data, size);
    ptx::check_module_header(text, "fuzz.ptx");
    const ptx::Module m = ptx::parse_module(text, "fuzz.ptx");
    const transform::SsdeResult r = transform::ssde(m, {});
    const std::string out = ptx::print_module(r.module);
    try {
      (void)ptx::parse_module(out, "transformed.ptx");
    } catch (const Error&) {
      std::abort();  // the transform wrote PTX the parser rejects: a transform bug
    }
  });
  return 0;
}
